"""Site pages link the PDF handouts that were built, and only those (_ext/handout_links.py).

The session's real site build has no PDFs beside it (tmp/_build/pdf does not exist): no link, no pdf/ folder.
A small Sphinx project with the book's theme and a few stand-in PDFs checks the other cases on real pages.
"""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import yaml

import handout_links as links

ROOT = Path(__file__).resolve().parents[1]
HREF = re.compile(r'<a class="lc-handout" href="([^"]+)"')


def test_each_page_maps_to_its_handouts():
    assert links.handout_files("intro", "intro", answers=True) == [("book.pdf", links.BOOK)]
    assert [n for n, _ in links.handout_files("book/02_x", "intro", answers=False)] == ["02_x.pdf"]
    assert [n for n, _ in links.handout_files("book/02_x", "intro", answers=True)] == ["02_x.pdf", "02_x-answers.pdf"]


def test_link_goes_under_the_title():
    body = '<section id="a">\n<h1>标题</h1>\n<p>正文</p>'
    out = links.insert_after_title(body, "<p>LINK</p>\n")
    assert out.index("</h1>") < out.index("LINK") < out.index("正文")
    assert links.insert_after_title("<p>无标题</p>", "<p>LINK</p>").startswith("<p>LINK</p>")


def test_real_site_without_pdfs_has_no_handout_link(built_site):
    pages = list(built_site.rglob("*.html"))
    assert pages
    assert not [p.name for p in pages if "lc-handouts" in p.read_text(encoding="utf-8")]
    assert not (built_site / "pdf").exists()


def build_small_site(tmp_path, answers, pdfs):
    """A two-page Sphinx project with the book's theme and this extension; stand-in PDFs beside the HTML."""
    src = tmp_path / "src"
    (src / "book").mkdir(parents=True)
    (src / "conf.py").write_text(textwrap.dedent(f"""\
        import sys
        sys.path.insert(0, {str(ROOT / "_ext")!r})
        extensions = ["handout_links"]
        html_theme = "sphinx_book_theme"
        root_doc = "intro"
        language = "zh_CN"
        handout_links_answers = {answers!r}
        """), encoding="utf-8")
    (src / "intro.rst").write_text("课程\n====\n\n.. toctree::\n\n   book/01_demo\n", encoding="utf-8")
    (src / "book" / "01_demo.rst").write_text("第一章\n======\n\n正文。\n", encoding="utf-8")
    out = tmp_path / "_build"
    (out / "pdf").mkdir(parents=True)
    for name in pdfs:
        (out / "pdf" / name).write_bytes(b"%PDF-1.5 stand-in " + name.encode())
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", str(src), str(out / "html")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out / "html"


def hrefs(page):
    return HREF.findall(page.read_text(encoding="utf-8"))


def test_small_site_links_student_handout_and_book_but_not_the_answer_key(tmp_path):
    html = build_small_site(tmp_path, answers=False, pdfs=["book.pdf", "01_demo.pdf", "01_demo-answers.pdf"])
    chapter, home = html / "book" / "01_demo.html", html / "intro.html"
    assert hrefs(chapter) == ["../pdf/01_demo.pdf"] and hrefs(home) == ["pdf/book.pdf"]
    assert links.STUDENT in chapter.read_text(encoding="utf-8")
    for page in (chapter, home):  # every link resolves to a file the site publishes
        for href in hrefs(page):
            assert (page.parent / href).resolve().is_file(), href
    assert sorted(p.name for p in (html / "pdf").iterdir()) == ["01_demo.pdf", "book.pdf"]  # no answer key


def test_small_site_links_answer_key_when_switched_on_and_skips_missing_pdfs(tmp_path):
    html = build_small_site(tmp_path, answers=True, pdfs=["01_demo.pdf", "01_demo-answers.pdf"])
    assert hrefs(html / "book" / "01_demo.html") == ["../pdf/01_demo.pdf", "../pdf/01_demo-answers.pdf"]
    assert hrefs(html / "intro.html") == []  # book.pdf was not built: no link
    assert sorted(p.name for p in (html / "pdf").iterdir()) == ["01_demo-answers.pdf", "01_demo.pdf"]


def test_config_switch_is_off_in_the_book():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert "handout_links" in config["sphinx"]["local_extensions"]
    assert config["sphinx"]["config"]["handout_links_answers"] is False
