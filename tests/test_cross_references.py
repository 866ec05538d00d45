"""Cross-references read as Chinese prose, on the site and in the PDFs.

Two mistakes are easy to make with MyST roles and hard to see in the source:
- a word written in front of a reference that already carries it: "见练习 {ref}`ch1-ex-x`" reads "见练习 练习 5";
- a `{ref}` to a section without link text, which drops the section's bare title into the sentence.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import yaml
from bs4 import BeautifulSoup

import book_layout
import build_pdf
import handouts
from conftest import ROOT
from handouts import flat as _flat

# "练习 练习 5", "图 图 1.1", "表 表 1.1": the word, again, then the number.
DOUBLED = re.compile(r"(练习|图|表)\s*\1\s*\d")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.M)
FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1\s*$", re.M | re.S)
# Titles this short ("练习", "小结", "术语表") are ordinary words too; a dropped title is a longer one.
MIN_TITLE = 5
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def doubled_words(text: str) -> list[str]:
    """Each "练习 练习 5"-like run in `text`, with a little context.

    A heading that is the word itself ("1.14 练习", in an appendix "A.6 练习") followed by the first item
    ("练习 1.1 …") is not one.
    """
    found = []
    for m in DOUBLED.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if "\n" in m.group(0) and re.fullmatch(r"[A-Z]?[\d.\s]*", text[line_start:m.start()]):
            continue
        found.append(text[max(m.start() - 8, 0):m.end() + 4])
    return found


# --- the site -------------------------------------------------------------------

@functools.cache
def _soup(path: Path) -> BeautifulSoup:
    """A built page, parsed once per test process (a chapter takes about half a second); never changed."""
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _pages(html_dir: Path) -> dict[str, BeautifulSoup]:
    pages = {}
    for path in sorted(html_dir.rglob("*.html")):
        if path.name in ("genindex.html", "search.html") or "_static" in path.parts:
            continue
        article = _soup(path).find("article")
        if article is not None:
            pages[str(path.relative_to(html_dir))] = article
    return pages


def _unmarked_text(tag) -> str:
    """A heading's text without its "#" mark (a.headerlink), spaces collapsed."""
    words = (s for s in tag.find_all(string=True) if not s.find_parent("a", class_="headerlink"))
    return " ".join(" ".join(words).split())


def _heading_text(tag) -> str:
    """A heading's title, without its "#" mark and section number ("1.5. 整体平移…" gives "整体平移…")."""
    return re.sub(r"^[\d.]+\s+", "", _unmarked_text(tag))


def bare_section_links(pages: dict[str, BeautifulSoup]) -> list[str]:
    """Links in running text (paragraphs, list items, table cells) whose whole text is a section title."""
    titles = {_heading_text(h) for article in pages.values() for h in article.find_all(re.compile(r"^h[1-6]$"))}
    titles = {t for t in titles if len(_flat(t)) >= MIN_TITLE}
    found = []
    for name, article in pages.items():
        for link in article.select("a.reference.internal"):
            if link.find_parent(class_="toctree-wrapper") or not link.find_parent(["p", "li", "td"]):
                continue
            text = " ".join(link.get_text(" ").split())
            if text in titles:
                found.append(f"{name}: …{' '.join(link.parent.get_text(' ').split())[:80]}…")
    return found


def test_site_has_no_doubled_reference_word(built_site):
    pages = _pages(built_site)
    assert pages, f"no page with an <article> in {built_site}"
    doubled = {name: doubled_words(article.get_text(" ")) for name, article in pages.items()}
    assert not {k: v for k, v in doubled.items() if v}, doubled


def test_site_gives_every_section_reference_its_own_words(built_site):
    pages = _pages(built_site)
    assert bare_section_links(pages) == []


def test_the_site_checks_can_fail():
    """The checks above on a page written the wrong way, and the right way."""
    wrong = BeautifulSoup(
        '<article><h2>1.5. 整体平移，分布不变<a class="headerlink">#</a></h2><p>这正是 '
        '<a class="reference internal" href="#s"><span>整体平移，分布不变</span></a> 里说的'
        '（见练习 <a class="reference internal" href="#e">练习 5</a>）</p></article>', "html.parser")
    right = BeautifulSoup(
        '<article><h2>整体平移，分布不变</h2><p>这正是<a class="reference internal" href="#s">“整体平移”一节</a>'
        '讲的（见<a class="reference internal" href="#e">练习 5</a>）</p></article>', "html.parser")
    assert bare_section_links({"wrong.html": wrong}) and doubled_words(wrong.get_text(" "))
    assert not bare_section_links({"right.html": right}) and not doubled_words(right.get_text(" "))


# --- the PDFs -------------------------------------------------------------------

def section_titles() -> list[str]:
    """Headings of every page in _toc.yml whose printed text is predictable (no maths, no code)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    titles = []
    for name in [toc["root"]] + build_pdf.toc_files():
        path = next((ROOT / name).with_suffix(s) for s in (".ipynb", ".md") if (ROOT / name).with_suffix(s).exists())
        if path.suffix == ".ipynb":
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        else:
            text = path.read_text(encoding="utf-8")
        titles += [t for t in HEADING.findall(FENCE.sub("", text))
                   if not re.search(r"[$`{]", t) and len(_flat(t)) >= MIN_TITLE]
    return titles


def bare_titles_in_text(text: str, titles: list[str]) -> list[str]:
    """Section titles that share their line with other Chinese words (a heading or a contents line stands alone).

    A title split over two lines counts too: headings and contents entries are short enough not to wrap,
    a sentence is not. A title in quotation marks (“从概率到损失”一节) is written on purpose.
    """
    lines = [_flat(line) for line in text.splitlines() if line.strip()]
    found = []
    for title in {_flat(t) for t in titles}:
        for first, second in zip(lines, lines[1:] + [""], strict=True):
            joined = first + second
            start = joined.find(title)
            if start < 0 or start >= len(first):
                continue  # not in this line (a title found only in `second` is checked on the next round)
            if joined[start - 1:start] == "“" and joined[start + len(title):start + len(title) + 1] == "”":
                continue  # quoted on purpose: “从概率到损失”一节
            rest = joined[:start] + joined[start + len(title):] if start + len(title) > len(first) \
                else first.replace(title, "", 1)
            # What may stand beside a heading: its number, leader dots, a page number, 第 N 章/页, 附录 A.
            rest = re.sub(r"第[\divxl]+[章页]|附录[A-Z]|[\d.·…]+", "", rest)
            if CJK.search(rest):
                found.append(f"{title} in “{joined[:120]}”")
    return found


def _pdfs(pdf_dir: Path) -> list[Path]:
    pdfs = sorted(pdf_dir.glob("*.pdf"))
    assert any(p.name == "book.pdf" for p in pdfs), f"no book.pdf among {pdfs}"
    return pdfs


def test_pdfs_have_no_doubled_reference_word(pdf_dir):
    doubled = {pdf.name: doubled_words(handouts.text(pdf)) for pdf in _pdfs(pdf_dir)}
    assert not {k: v for k, v in doubled.items() if v}, doubled


def test_pdfs_never_drop_a_section_title_into_a_sentence(pdf_dir):
    titles = section_titles()
    assert len(titles) >= 5, titles
    bare = {pdf.name: bare_titles_in_text(handouts.text(pdf), titles) for pdf in _pdfs(pdf_dir)}
    assert not {k: v for k, v in bare.items() if v}, bare


def test_the_pdf_checks_can_fail():
    titles = ["整体平移，分布不变", "温度：让分布更尖或更平"]
    wrong = "只动一项，三个概率全变了。这正是 整体平移，分\n布不变 里说的平移不变性（见练习\n练习 5）。\n"
    right = ("1.3 整体平移，分布不变 . . . . . 5\n整体平移，分布不变\n第 3 页\n"
             "这正是“整体平移”一节讲的平移不变性（见练习 5），\n温度：让分布更尖或更平\n"
             "1.14 练习\n练习 1.1 (平移与放大)\n")
    assert bare_titles_in_text(wrong, titles) and doubled_words(wrong)
    assert not bare_titles_in_text(right, titles) and not doubled_words(right)


def test_pdfs_label_split_code_and_tables_with_full_width_brackets(pdf_dir):
    latin = re.compile(r"\((续|接)[上下]页|[续接][上下]页\)")
    found = {pdf.name: latin.findall(_flat(handouts.text(pdf))) for pdf in _pdfs(pdf_dir)}
    assert not {k: v for k, v in found.items() if v}, found


# --- figure and exercise numbers: the same on the site and in the PDF ---------------------------

def _numbers(text: str) -> list[str]:
    return sorted(set(re.findall(r"(?:图|表|练习)\s*(?:[A-Z]|\d+)\.\d+", re.sub(r"(?<=[图表习])\s+", "", text))))


def test_site_and_pdf_number_figures_tables_and_exercises_alike(built_site, pdf_dir):
    chapters = [c for c in build_pdf.toc_files() if (pdf_dir / f"{Path(c).name}.pdf").exists()]
    assert chapters, f"no chapter handout in {pdf_dir}"
    checked = 0
    for docname in chapters:
        html = _soup(built_site / f"{docname}.html")
        # A figure in an answer fold keeps its number but is printed in the answer key only.
        labels = [label for label in html.select("article .caption-number, article p.admonition-title")
                  if not label.find_parent(class_="answer-fold")]
        site = _numbers(" ".join(label.get_text(" ") for label in labels))
        pdf = _numbers(handouts.text(pdf_dir / f"{Path(docname).name}.pdf"))
        assert set(site) <= set(pdf), f"{docname}: numbered on the site {site}, in the PDF {pdf}"
        checked += len(site)
    assert checked, "no figure, table or exercise numbered like 图 1.1 on the site: nothing was compared"


def test_every_figure_on_the_site_has_a_chinese_alt_text(built_site):
    images = 0
    for name, article in _pages(built_site).items():
        for img in article.select("figure img, img"):
            images += 1
            alt = img.get("alt", "")
            assert CJK.search(alt) and not alt.endswith((".png", ".svg")), \
                f"{name}: <img src={img.get('src')}> alt={alt!r}"
    assert images, "no image on the site: nothing was checked"


# --- the back matter: lettered the same way on the site and in the PDFs ------------------------

def expected_numbers() -> dict[str, str]:
    """What each page of _toc.yml is numbered: 1, 2, … for chapters, A, B, … for the back matter (book_layout)."""
    return book_layout.numbers(build_pdf.toc_pages())


def test_site_letters_the_back_matter_like_the_pdfs(built_site, pdf_dir):
    numbers = expected_numbers()
    assert "A" in numbers.values(), f"no back matter in _toc.yml: {numbers}"
    index = _soup(built_site / "intro.html")
    sidebar = " ".join(index.select_one("nav.bd-docs-nav").get_text(" ").split())
    book = _flat(handouts.text(pdf_dir / "book.pdf"))
    for docname, number in numbers.items():
        page = _soup(built_site / f"{docname}.html")
        title = _unmarked_text(page.select_one("article h1"))
        assert title.startswith(f"{number}. "), f"{docname}: the site numbers it {title!r}, expected {number}."
        assert title in sidebar, f"{docname}: the sidebar does not list {title!r}: {sidebar[:300]}"
        assert page.title.get_text().startswith(title), f"{docname}: the browser tab reads {page.title.get_text()!r}"
        # Sections, figures and exercises of the page carry the same number or letter.
        labels = [" ".join(t.get_text(" ").split()) for t in page.select("article h2, article .caption-number")]
        numbered = [m.group(1) for m in (re.match(r"(?:[图表]|练习)?\s*([A-Z]|\d+)\.\d+", t) for t in labels) if m]
        assert set(numbered) <= {number}, f"{docname}: numbers {sorted(set(numbered))} on a page numbered {number}"
        if not number.isdigit():
            printed = _flat(book_layout.printed_title(build_pdf.first_heading(docname)))
            assert f"附录{number}{printed}" in book, f"book.pdf does not list 附录 {number} {printed}"
    # No page is numbered past the chapters on the site (the old “5. 附录”, “练习 5.1”).
    chapters = sum(n.isdigit() for n in numbers.values())
    late = re.findall(rf"(?:练习|图|表)\s*{chapters + 1}\.\d+|\b{chapters + 1}\.\s", sidebar)
    assert not late, late


def test_appendix_pdfs_letter_their_exercises(pdf_dir):
    numbers = expected_numbers()
    for docname, number in numbers.items():
        pdf = pdf_dir / f"{Path(docname).name}.pdf"
        if number.isdigit() or not pdf.exists():
            continue
        for name in (pdf, pdf.with_name(pdf.stem + "-answers.pdf")):
            text = re.sub(r"\s+", "", handouts.text(name))
            exercises = re.findall(r"练习([A-Z]|\d+)\.\d+", text)
            assert exercises and set(exercises) == {number}, f"{name.name}: exercises numbered {sorted(set(exercises))}"
            assert f"附录{number}" in text and "附录：" not in text[:400], f"{name.name}: heading {text[:200]!r}"


# --- exercise titles in Chinese punctuation ------------------------------------------------------

LATIN_TITLE = re.compile(r"练习\s*(?:[A-Z]|\d+)\.\d+\s*\(")


def test_exercise_titles_use_full_width_brackets_on_the_site(built_site):
    found, titled, solutions = [], 0, 0
    for name, article in _pages(built_site).items():
        for title in article.select(".exercise p.admonition-title, .solution p.admonition-title"):
            text = " ".join(title.get_text().split())
            titled += "（" in text
            solutions += text.startswith("解答：练习")
            if LATIN_TITLE.search(text) or re.search(r"\s（", text):
                found.append(f"{name}: {text}")
    assert titled and solutions, "no exercise title with brackets and no solution title: nothing was checked"
    assert found == [], found


def test_exercise_titles_use_full_width_brackets_in_the_pdfs(pdf_dir):
    answers = 0
    for pdf in _pdfs(pdf_dir):
        text = handouts.text(pdf)
        assert not LATIN_TITLE.search(text), f"{pdf.name}: {LATIN_TITLE.search(text).group(0)!r}"
        if pdf.name.endswith("-answers.pdf"):
            answers += "解答：练习" in _flat(text)
    assert answers, "no answer key prints “解答：练习 …”"


# --- references whose target is not in the PDF ---------------------------------------------------

RAW_LABEL = re.compile(r"\b(?:fig|tab|ch\d|app)[-\u2010\u2011][a-z0-9\-\u2010\u2011]+")


def test_pdfs_never_print_a_raw_label(pdf_dir):
    """A {numref} to a figure the answer key leaves out prints its number (“图 2.1”), not “fig-ch2-…”."""
    found = {pdf.name: RAW_LABEL.findall(handouts.text(pdf)) for pdf in _pdfs(pdf_dir)}
    assert not {k: v for k, v in found.items() if v}, found
    assert RAW_LABEL.search("再与 fig\u2011ch2\u2011step\u2011size 对照") and not RAW_LABEL.search("再与图 2.3 对照")


# --- quoted titles ---------------------------------------------------------------

QUOTED_REF = re.compile(r"\{ref\}`“([^”]+)”[^<`]*<([\w-]+)>`")
LABELLED_HEADING = re.compile(r"^\(([\w-]+)\)=\n#{1,6} (.+)$", re.M)


def _book_markdown() -> dict[str, str]:
    """Each page's Markdown: the notebooks' Markdown cells and the .md pages."""
    texts = {}
    for path in [ROOT / "intro.ipynb", *sorted((ROOT / "book").glob("*.ipynb"))]:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        texts[path.name] = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for path in sorted((ROOT / "book").glob("*.md")):
        texts[path.name] = path.read_text(encoding="utf-8")
    return texts


def misquoted_titles(texts: dict[str, str]) -> list[str]:
    """Links whose text quotes a section's title (“…”一节) in words the section's heading does not have."""
    heading = {m.group(1): m.group(2) for text in texts.values() for m in LABELLED_HEADING.finditer(text)}
    bare = lambda s: re.sub(r"\$[^$]*\$|[\s`*]", "", s)  # noqa: E731 - maths and markup aside, the words
    return [f"{name}: “{quoted}” -> {label} ({heading.get(label)!r})"
            for name, text in texts.items() for quoted, label in QUOTED_REF.findall(text)
            if bare(quoted) not in bare(heading.get(label, ""))]


def test_a_quoted_section_title_is_the_sections_title():
    """A renamed section leaves links quoting its old title; the reader then looks for a heading that is not there."""
    assert misquoted_titles(_book_markdown()) == []
    planted = {"a.md": "(x)=\n## 编号与序数\n\n见{ref}`“数学从 1 数”一节 <x>`。"}
    assert misquoted_titles(planted) == ["a.md: “数学从 1 数” -> x ('编号与序数')"]
