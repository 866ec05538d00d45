"""Site pages link the PDF handouts that were built, and only those (_ext/handout_links.py).

The session's real site build has no PDFs beside it (tmp/_build/pdf does not exist): no link, no pdf/ folder.
A small Sphinx project with the book's theme and a few stand-in PDFs checks the other cases on real pages.
"""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

import handout_links as links
import site_files

ROOT = Path(__file__).resolve().parents[2]
HREF = re.compile(r'<a class="lc-handout" href="([^"]+)"')
# The download menu's PDF entry (the theme's header button): its link (None: the button prints) and its words.
MENU_PDF = re.compile(r'<(?:a href="([^"]+)" target="_blank"|button onclick="window.print\(\)")\s+'
                      r'class="btn btn-sm btn-download-pdf-button dropdown-item".*?'
                      r'<span class="btn__text-container">([^<]*)</span>', re.S)


def test_each_page_maps_to_its_handouts():
    assert links.handout_files("intro", "intro", answers=True) == [("book.pdf", links.BOOK)]
    assert [n for n, _ in links.handout_files("book/02_x", "intro", answers=False)] == ["02_x.pdf"]
    assert [n for n, _ in links.handout_files("book/02_x", "intro", answers=True)] == ["02_x.pdf", "02_x-answers.pdf"]


def test_link_goes_under_the_title():
    body = '<section id="a">\n<h1>标题</h1>\n<p>正文</p>'
    out = site_files.under_title(body, "<p>LINK</p>\n")
    assert out.index("</h1>") < out.index("LINK") < out.index("正文")
    assert site_files.under_title("<p>无标题</p>", "<p>LINK</p>").startswith("<p>LINK</p>")


def test_real_site_without_pdfs_has_no_handout_link(built_site):
    pages = list(built_site.rglob("*.html"))
    assert pages
    assert not [p.name for p in pages if "lc-handouts" in p.read_text(encoding="utf-8")]
    assert not (built_site / "pdf").exists()


@pytest.mark.parametrize("answers, pdfs, chapter_links, home_links", [
    (False, ["book.pdf", "01_demo.pdf", "01_demo-answers.pdf"], ["01_demo.pdf"], ["book.pdf"]),
    (True, ["01_demo.pdf", "01_demo-answers.pdf"], ["01_demo.pdf", "01_demo-answers.pdf"], []),  # no book.pdf
])
def test_small_site_links_and_publishes_the_built_handouts_answer_keys_only_when_switched_on(
        tmp_path, answers, pdfs, chapter_links, home_links):
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
    (tmp_path / "_build" / "pdf").mkdir(parents=True)
    for name in pdfs:
        (tmp_path / "_build" / "pdf" / name).write_bytes(b"%PDF-1.5 stand-in " + name.encode())
    html = tmp_path / "_build" / "html"
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", str(src), str(html)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    chapter, home = html / "book" / "01_demo.html", html / "intro.html"
    assert HREF.findall(chapter.read_text(encoding="utf-8")) == [f"../pdf/{name}" for name in chapter_links]
    assert HREF.findall(home.read_text(encoding="utf-8")) == [f"pdf/{name}" for name in home_links]
    assert links.STUDENT in chapter.read_text(encoding="utf-8")
    for page in (chapter, home):  # every link resolves to a file the site publishes, and only those are published
        for href in HREF.findall(page.read_text(encoding="utf-8")):
            assert (page.parent / href).resolve().is_file(), href
    assert sorted(p.name for p in (html / "pdf").iterdir()) == sorted(chapter_links + home_links)
    # the menu's “.pdf” is the page's handout when there is one, else the theme's print, said in words
    assert MENU_PDF.findall(chapter.read_text(encoding="utf-8")) == [("../pdf/01_demo.pdf", "本章讲义（PDF）")]
    assert MENU_PDF.findall(home.read_text(encoding="utf-8")) == (
        [("pdf/book.pdf", "全书讲义（PDF）")] if home_links else [("", "打印本页（PDF）")])


def test_config_switch_is_off_in_the_book():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert "handout_links" in config["sphinx"]["local_extensions"]
    assert config["sphinx"]["config"]["handout_links_answers"] is False
