"""PDF handouts: built through the LaTeX route, checked as text (pdftotext), fonts (pdffonts) and xelatex logs."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import book_layout
import build_pdf
import chapter_registry
import exercise_marks
import hidden_cells
from figures import figures
from handouts import flat as _flat
from handouts import pages as _pages
from handouts import text as _text
from handouts import typeset as _typeset
from notebook_outputs import exercise_classes, load, markdown_text

ROOT = Path(__file__).resolve().parents[2]
WIDGET_REPRS = ("FloatSlider(", "IntSlider(", "FloatLogSlider(", "Output(", "VBox(", "HBox(", "Layout(",
                "SoftmaxExplorer(", "GradientExplorer(", "Widget(", "model_id", "<Figure size",
                "application/vnd.jupyter")
CHAPTERS = build_pdf.chapters()
APPENDICES = [c for c in CHAPTERS if c["appendix"]]
COURSE_TITLE = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["title"]
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
CJK_RUN = re.compile(r"[\u4e00-\u9fff]{8,}")


def _all_pdfs(pdf_dir: Path) -> list[Path]:
    names = ["book.pdf"] + [f"{c['stem']}{suffix}.pdf" for c in CHAPTERS for suffix in ("", "-answers")]
    return [pdf_dir / name for name in names]


def _body(page: str) -> str:
    """A page's text without its two header lines."""
    return "\n".join(page.strip("\n").splitlines()[2:])


def _bodies(pdf_dir: Path, chapter: dict) -> tuple[str, str, str]:
    """The student handout, book.pdf and the answer key as text without page headers (so that a sentence broken
    across a page still reads as one) and without whitespace."""
    return tuple(_flat("".join(_body(page) for page in _pages(pdf_dir / name)))
                 for name in (f"{chapter['stem']}.pdf", "book.pdf", f"{chapter['stem']}-answers.pdf"))


def _contents_heading_pages(pdf: Path) -> list[int]:
    """Pages (1-based) with a line that reads just 目录: the heading of a table of contents."""
    return [number for number, page in enumerate(_pages(pdf), start=1)
            if any(line.strip() == "目录" for line in page.splitlines())]


# --- what the notebooks say --------------------------------------------------

def _markdown(chapter: dict) -> str:
    return markdown_text(ROOT / f"{chapter['docname']}.ipynb")


def _cells(chapter: dict) -> list[dict]:
    return load(f"{chapter['stem']}.ipynb")["cells"]


SOLUTION = re.compile(r"^(`{3,}|:{3,})\{solution\}.*?$(.*?)^\1\s*$|\{solution-start\}(.*?)\{solution-end\}",
                      re.M | re.S)


def _solution_snippets(chapter: dict) -> list[str]:
    """A run of Chinese text from each Markdown cell of each solution (fenced, or gated by solution-start … -end)
    that occurs nowhere else in the chapter's prose."""
    text = "\0".join("".join(c["source"]) for c in _cells(chapter) if c["cell_type"] == "markdown")
    elsewhere = _flat(SOLUTION.sub("", text))
    snippets = []
    for m in SOLUTION.finditer(text):
        for cell in (m.group(2) or m.group(3)).split("\0"):
            runs = sorted(CJK_RUN.findall(cell), key=len, reverse=True)
            snippets += [r for r in runs if r not in elsewhere][:1]
    return snippets


def _exercise_snippets(chapter: dict) -> list[str]:
    """A run of Chinese text from each exercise, in order: fenced ones and gated ones (exercise-start … -end)."""
    fence = re.compile(r"^(`{3,}|:{3,})\{exercise\}.*?$(.*?)^\1\s*$", re.M | re.S)
    gated = re.compile(r"^(`{3,})\{exercise-start\}.*?^\1\s*$(.*)", re.M | re.S)
    snippets = []
    for source in ("".join(c["source"]) for c in _cells(chapter) if c["cell_type"] == "markdown"):
        for m in [*fence.finditer(source), *gated.finditer(source)]:
            snippets += sorted(re.findall(r"[\u4e00-\u9fff]{6,}", m.group(2)), key=len, reverse=True)[:1]
    return snippets


def _section_titles(chapter: dict) -> list[str]:
    """The chapter's `##` headings (those without maths or code, whose printed text is predictable)."""
    return [t.strip() for t in re.findall(r"^##\s+(.+)$", _markdown(chapter), flags=re.M) if not re.search(r"[$`]", t)]


def _opening_text(chapter: dict) -> str:
    """A run of Chinese text from the chapter's first paragraph (right below its `#` title)."""
    after_title = re.split(r"^#\s+.+$", _markdown(chapter), maxsplit=1, flags=re.M)[1]
    paragraph = next(p for p in re.split(r"\n\s*\n", after_title) if CJK_RUN.search(p))
    return max(CJK_RUN.findall(paragraph), key=len)


def _you_write(chapter: dict) -> tuple[list[str], list[str]]:
    """The skeletons a chapter asks the reader to fill in (``def my_…``), and the checks that report 还没写."""
    skeletons, checks = [], []
    for cell in (c for c in _cells(chapter) if c["cell_type"] == "code"):
        if "raise NotImplementedError" in "".join(cell["source"]):
            skeletons += re.findall(r"^def (my_\w+)\(", "".join(cell["source"]), flags=re.M)
        text = "".join("".join(o.get("data", {}).get("text/plain", "")) for o in cell.get("outputs", []))
        checks += re.findall(r"^(check_\w+)：还没写", text, flags=re.M)
    return skeletons, checks


# --- every PDF ----------------------------------------------------------------

def test_every_pdf_is_built_on_a4_with_its_fonts_embedded_and_upright(pdf_dir):
    """Every chapter gets a handout and an answer key, and the book is built. No slanted Latin in Chinese
    text: glossary-term and section links print upright (Sphinx uses \\emph)."""
    for pdf in _all_pdfs(pdf_dir):
        assert pdf.exists(), f"missing {pdf.name}; built: {sorted(p.name for p in pdf_dir.glob('*.pdf'))}"
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
        assert abs(width - 595.28) < 1 and abs(height - 841.89) < 1, f"{pdf.name} is {width} x {height} pt"
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        fonts = rows.splitlines()[2:]
        assert any("NotoSerifCJK" in row or "NotoSansCJK" in row for row in fonts), f"{pdf.name}: no Noto CJK font"
        not_embedded = [row for row in fonts if row.split()[-5] != "yes"]
        assert not not_embedded, f"{pdf.name}: fonts not embedded: {not_embedded}"
        italic = [row.split()[0] for row in fonts if "Italic" in row.split()[0]]
        assert not italic, f"{pdf.name} sets text in italics ({italic}): a term or section link?"


def test_no_widget_or_figure_text_repr_is_printed(pdf_dir):
    for pdf in _all_pdfs(pdf_dir):
        text = "".join(_pages(pdf))
        for needle in WIDGET_REPRS:
            assert needle not in text, f"{pdf.name} prints the text repr {needle!r}"


def test_captions_read_figure_number_then_text(pdf_dir):
    found = 0
    for pdf in _all_pdfs(pdf_dir):
        numbers = re.findall(r"([图表])\s*((?:[A-Z]|\d+)\.\d+)\s*([:：]?)", "".join(_pages(pdf)))   # 表 1.1, 表 A.1
        found += len(numbers)
        assert not [n for n in numbers if n[2]], f"{pdf.name}: captions with a colon {numbers}"
    assert found, "no numbered figure or table in any PDF: nothing was checked"


def _latex_logs(pdf_dir: Path) -> list[Path]:
    """xelatex logs of every handout, next to their .tex sources (kept with --work)."""
    logs = sorted((pdf_dir / "latex-work" / "_build" / "latex").glob("*.log"))
    assert len(logs) == len(_all_pdfs(pdf_dir)), f"expected one xelatex log per PDF, found {logs}"
    return logs


def test_no_line_sticks_out_into_the_margin(pdf_dir):
    for log in _latex_logs(pdf_dir):
        text = log.read_text(encoding="utf-8", errors="replace")
        too_wide = [float(w) for w in re.findall(r"^Overfull \\hbox \(([\d.]+)pt too wide\)", text, flags=re.M)]
        assert all(w < 1.0 for w in too_wide), f"{log.name}: overfull lines {too_wide} pt"


def test_table_cells_are_ragged_right(pdf_dir):
    """Justified narrow cells stretch their lines (TeX reports them as underfull); ragged-right ones do not."""
    checked = 0
    for log in _latex_logs(pdf_dir):
        tex = log.with_suffix(".tex").read_text(encoding="utf-8")
        table_lines = set()
        for m in re.finditer(r"\\begin\{(tabular|tabulary|longtable)\}.*?\\end\{\1\}", tex, flags=re.S):
            first = tex.count("\n", 0, m.start()) + 1
            table_lines |= set(range(first, first + m.group(0).count("\n") + 1))
        checked += bool(table_lines)
        underfull = r"^Underfull \\hbox \(badness \d+\) in paragraph at lines (\d+)--\d+"
        in_cells = [int(a) for a in re.findall(underfull, log.read_text(errors="replace"), flags=re.M)
                    if int(a) in table_lines]
        assert not in_cells, f"{log.name}: stretched table cells at .tex lines {in_cells}"
    assert checked, "no handout has a table: nothing was checked"


# --- each chapter's handout and answer key --------------------------------------

# Each exercise title in print, then its label: “练习4.7（为什么……）纸笔” (whitespace removed).
PRINTED_MARK = re.compile(r"练习[A-Z\d]+\.\d+（[^）]*）(" + "|".join(exercise_marks.MARKS.values()) + ")")


def test_every_exercise_title_prints_its_mark(pdf_dir):
    """纸笔 or 需要电脑 after each exercise title of the student handouts, as the notebook's class says."""
    for chapter in CHAPTERS:
        wanted = [exercise_marks.mark_of(classes)
                  for _, classes in exercise_classes(ROOT / f"{chapter['docname']}.ipynb")]
        printed = PRINTED_MARK.findall(_flat(_text(pdf_dir / f"{chapter['stem']}.pdf")))
        assert printed == wanted, chapter["stem"]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_handouts_open_with_the_chinese_chapter_heading(pdf_dir, chapter):
    """第 1 章 (附录 A) and the title in the student handout, the answer key and book.pdf, never CHAPTER.
    The student handout: heading on page 1 with its kind and its sections listed, then the chapter text;
    the answer key: heading, kind and first exercise on page 1, no 目录 (of one entry)."""
    label, title = _flat(chapter["label"]), _flat(book_layout.printed_title(chapter["title"]))
    student, answers = pdf_dir / f"{chapter['stem']}.pdf", pdf_dir / f"{chapter['stem']}-answers.pdf"
    for pdf in (student, answers, pdf_dir / "book.pdf"):
        text = "".join(_pages(pdf))
        assert label + title in _flat(text), f"{pdf.name}: no heading {chapter['label']} {title}"
        for english in ("CHAPTER", "Contents"):
            assert english not in text, f"{pdf.name} prints {english!r}"
    # Page 1 has the plain header (course title, page number), in reading order for the two-column list.
    first = _flat(_pages(student, layout=False)[0])
    assert label in first and title in first and _flat(build_pdf.KIND_STUDENT) in first, f"{student.name}: {first!r}"
    assert _contents_heading_pages(student) == [1], f"{student.name}: 目录 on pages {_contents_heading_pages(student)}"
    sections = _section_titles(chapter)
    assert sections, f"{chapter['docname']} has no ## sections to list"
    for section in sections:
        assert _flat(section) in first, f"page 1 of {student.name} does not list the section {section!r}"
    assert _opening_text(chapter) in first, f"{student.name}: the chapter text does not start on page 1"
    assert title not in _flat(_body(_pages(student)[1])), f"{student.name} repeats the chapter heading on page 2"

    first = _flat(_body(_pages(answers)[0]))
    assert label in first and title in first and _flat(build_pdf.KIND_ANSWERS) in first, f"{answers.name}: {first!r}"
    assert not _contents_heading_pages(answers), f"{answers.name} prints a 目录 (of one entry)"
    exercises = _exercise_snippets(chapter)
    # The key starts with the chapter's first box (its answer fold may fill the page) or its first exercise.
    assert not exercises or exercises[0] in first or "动手算（见" in first, \
        f"{answers.name}: neither the first box nor the first exercise starts on page 1"
    if chapter["appendix"]:
        for pdf in (student, answers):
            # The heading: page header, label and title (the text below may name chapters: the symbol table does).
            head = _flat(_pages(pdf)[0])
            heading = head[:head.index(title) + len(title)]
            assert not re.search(r"第\d+章", heading), f"{pdf.name} calls the appendix a chapter: {heading!r}"
            assert not re.search(r"附录[A-Z]?附录", _flat("".join(_pages(pdf)))), f"{pdf.name} repeats 附录"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_every_page_has_course_title_and_its_number_in_the_header(pdf_dir, chapter):
    for pdf in (pdf_dir / f"{chapter['stem']}.pdf", pdf_dir / f"{chapter['stem']}-answers.pdf"):
        for number, page in enumerate(_pages(pdf), start=1):
            header = _flat("\n".join(page.strip("\n").splitlines()[:2]))
            assert _flat(COURSE_TITLE) in header, f"{pdf.name} page {number}: header is {header!r}"
            assert f"第{number}页" in header, f"{pdf.name} page {number}: header is {header!r}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_handout_shows_the_numbers_the_chapter_computes(pdf_dir, chapter):
    """The figures of tests/figures.py with a handout text, as the handout prints them (maths prints the minus
    sign as U+2212, which reads as "-")."""
    expected = [f.handout.format(v) for f in figures(chapter["stem"]) if f.handout for v in f.values()]
    assert expected, f"give some figures of {chapter['stem']} a handout text in tests/figures.py"
    flat = _flat("".join(_pages(pdf_dir / f"{chapter['stem']}.pdf"))).translate({0x2212: "-"})
    missing = [text for text in expected if _flat(text) not in flat]
    assert not missing, f"{chapter['stem']}.pdf does not show {missing}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_every_picture_the_chapter_shows_is_printed(pdf_dir, chapter):
    """Each image output of the chapter's shown cells, and each widget (a snapshot: its text summary must not
    print instead), is one picture in the student handout. An answer box's cell prints as the box (a blank to
    fill in), not as a picture of its widget. An output with a PDF of its own (the course map) prints that, as
    vector graphics, which pdfimages does not list."""
    folded = set(hidden_cells.folded(_cells(chapter)))   # answers and solutions: in the answer key only
    shown = sum(bool({"image/png", WIDGET_MIME} & set(out.get("data", {}))) and "application/pdf" not in out["data"]
                for i, c in enumerate(_cells(chapter))
                if not {"remove-output", "remove-cell", "answer-box"} & set(c["metadata"].get("tags", []))
                and i not in folded for out in c.get("outputs", []))
    rows = subprocess.run(["pdfimages", "-list", str(pdf_dir / f"{chapter['stem']}.pdf")],
                          capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    printed = sum(row.split()[2] == "image" for row in rows)  # the others are the pictures' alpha masks
    assert printed == shown, f"{chapter['stem']}.pdf prints {printed} pictures, the chapter shows {shown}"


def _first_code_line(cell: dict) -> str:
    """The start of a code cell's first line, without spaces, as the handout prints it."""
    return _flat(next(line for line in "".join(cell["source"]).splitlines() if line.strip()))[:24]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_each_figure_prints_right_after_the_code_that_draws_it(pdf_dir, chapter):
    """A captioned figure (图 N.k) comes after its cell's code and before the next code cell: it does not float
    away from the code the reader is looking at."""
    text = _flat(_text(pdf_dir / f"{chapter['stem']}.pdf"))
    cells = _cells(chapter)
    folded = set(hidden_cells.folded(cells))   # answers and solutions: printed in the answer key only
    code = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and "".join(c["source"]).strip()
            and not {"remove-input", "remove-cell"} & set(c["metadata"].get("tags", []))]
    drawn = [i for i in code if cells[i]["metadata"].get("mystnb", {}).get("figure", {}).get("name")]
    cursor = 0
    for n, i in enumerate(drawn, start=1):   # a figure in a fold keeps its number
        if i in folded:
            continue
        caption = f"图{chapter_registry.by_stem(chapter['stem']).number}.{n}"
        at = text.find(_first_code_line(cells[i]), cursor)
        assert at >= 0, f"{chapter['stem']}.pdf: the code of {caption} is not printed"
        after = text.find(caption, at)
        later = [j for j in code if j > i and j not in folded]
        following = text.find(_first_code_line(cells[later[0]]), at + 1) if later else len(text)
        assert 0 <= after < following, f"{chapter['stem']}.pdf: {caption} floats away from its code"
        cursor = after


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_code_copied_from_the_handouts_has_ascii_minus_signs(pdf_dir, chapter):
    """Copying code from a handout gives code that runs: "-" is U+002D, never the non-breaking hyphen
    U+2011 (Noto's CJK fonts share one glyph between the two), in the handout and in the answer key."""
    for pdf in (pdf_dir / f"{chapter['stem']}.pdf", pdf_dir / f"{chapter['stem']}-answers.pdf"):
        text = "".join(_pages(pdf, layout=False))
        assert "\u2011" not in text, f"{pdf.name} copies as U+2011: {text[text.index(chr(0x2011)) - 40:][:80]!r}"
    flat = _flat("".join(_pages(pdf_dir / f"{chapter['stem']}.pdf", layout=False)))
    # Short lines with a "-" from the code cells whose source the handout prints.
    lines = [line.strip() for c in _cells(chapter) if c["cell_type"] == "code"
             and not {"remove-input", "remove-cell", "hide-input"} & set(c["metadata"].get("tags", []))
             for line in "".join(c["source"]).splitlines()
             if "-" in line and 8 < len(line.strip()) < 60 and not line.lstrip().startswith(("#", "%"))]
    assert [line for line in lines if _flat(line) in flat], \
        f"{chapter['stem']}.pdf: none of its code lines with a minus sign copies as typed, e.g. {lines[:3]}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_deep_boxes_print_as_titled_asides(pdf_dir, chapter):
    """Each 深入 box prints “深入：” and its title in the student handout (titles with maths or code are typeset
    differently and left out here)."""
    titles = [t for t in re.findall(r"^:::\{deep-start\} (.+)$", _markdown(chapter), flags=re.M)
              if not re.search(r"[$`{\\]", t)]
    flat = _flat("".join(_pages(pdf_dir / f"{chapter['stem']}.pdf")))
    missing = [title for title in titles if _flat(f"深入：{title}") not in flat]
    assert not missing, f"{chapter['stem']}.pdf does not print the 深入 boxes {missing}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_answer_boxes_are_blanks_for_students_and_answered_in_the_key(pdf_dir, chapter):
    """Each answer box of the chapter (_ext/answer_box) prints its question in every handout; the answer,
    computed from labcode at build time, only in the answer key, which also names the box's section."""
    from box_latex import answer_text
    from labcode.practice.problems import box_problem
    from notebook_outputs import book_boxes

    boxes = [box_problem(kind, options["label"], {k: v for k, v in options.items() if k != "label"})
             for stem, kind, options in book_boxes() if stem == chapter["stem"]]
    assert boxes, f"{chapter['stem']} has no answer box"
    student, book, answers = _bodies(pdf_dir, chapter)
    assert student.count("动手算") == answers.count("动手算") == len(boxes)
    assert answers.count("动手算（见“") == len(boxes)
    for found in boxes:
        printed = "答案：" + _flat(_typeset(answer_text(found.answer, found.exact)))
        assert printed in answers, f"the answer key lacks {printed!r}"
        assert printed not in student and printed not in book, f"a student handout prints {printed!r}"
    assert "答案：" not in student and "动手算（见“" not in student


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_solutions_are_in_the_answer_key_only(pdf_dir, chapter):
    student, book, answers = _bodies(pdf_dir, chapter)
    exercises = _exercise_snippets(chapter)
    if not exercises:
        assert "本章没有练习" in answers
        return
    solutions = _solution_snippets(chapter)
    assert solutions, f"{chapter['docname']} has exercises but no solution text to look for"
    for snippet in solutions:
        assert snippet in answers, f"answer key lacks solution text {snippet!r}"
        assert snippet not in student, f"student handout shows solution text {snippet!r}"
        assert snippet not in book, f"book.pdf shows solution text {snippet!r}"
    for snippet in exercises:
        assert snippet in student, f"student handout lacks exercise text {snippet!r}"
        assert snippet in answers, f"answer key lacks exercise text {snippet!r}"


YOU_WRITE = [c for c in CHAPTERS if _you_write(c)[0]]


def test_the_chapters_that_ask_the_reader_to_write_code_are_the_registrys():
    assert {c["stem"] for c in YOU_WRITE} == {c.stem for c in chapter_registry.chapters() if c.you_write}


@pytest.mark.parametrize("chapter", YOU_WRITE, ids=lambda c: c["stem"])
def test_you_write_prints_the_skeleton_in_both_pdfs_and_the_passing_check_in_the_key_only(pdf_dir, chapter):
    """The handout is where a reader on paper writes the function: the skeleton, then instead of the checker's
    还没写 report (meaningless on paper) where to write it and where its answer is; no solution."""
    student, book, answers = _bodies(pdf_dir, chapter)
    skeletons, checks = _you_write(chapter)
    assert checks, f"{chapter['docname']} has skeletons but no check cell reporting 还没写"
    for name in skeletons:
        assert f"def{name}(" in student and f"def{name}(" in answers, f"{name} is missing from a PDF"
        assert _flat(f"在下面的横线上写出 {name}") in student, f"the student handout has no place to write {name}"
        assert _flat(f"在下面的横线上写出 {name}") in book, f"book.pdf has no place to write {name}"
    for check in checks:
        for handout, text in ((chapter["stem"], student), ("book", book), ("answers", answers)):
            assert f"{check}：还没写" not in text, f"{handout}.pdf prints the checker's 还没写 report of {check}"
        assert f"{check}：通过（全部" in answers, f"the answer key lacks the passing report of {check}"
        assert f"{check}：通过（全部" not in student, f"the student handout shows the passing report of {check}"
    key = _flat(f"不运行代码时：把要写的几步先写在纸上（或在心里过一遍），"
                f"再对照本章练习答案（{chapter['stem']}-answers.pdf）")
    assert student.count(key) == chapter_registry.by_stem(chapter["stem"]).you_write, \
        f"the student handout does not say once per 你来写 where its answer is ({key!r})"
    assert key in book, "book.pdf does not say where the answers of a 你来写 are"


# --- book.pdf -----------------------------------------------------------------

def test_chapters_are_numbered_and_appendices_lettered():
    chapters = [c for c in CHAPTERS if not c["title"].startswith("附录")]
    assert chapters and APPENDICES and CHAPTERS == chapters + APPENDICES
    assert [c["label"] for c in chapters] == [f"第 {i} 章" for i in range(1, len(chapters) + 1)]
    assert [c["label"] for c in APPENDICES] == [f"附录 {chr(65 + i)}" for i in range(len(APPENDICES))]
    assert [c["handout_title"] for c in APPENDICES] == [c["title"] for c in APPENDICES]
    assert [c["handout_title"] for c in chapters] == [f"{c['label']}　{c['title']}" for c in chapters]
    # The back matter of book.pdf starts at the first appendix, or at the glossary if there is none.
    assert build_pdf.back_matter_title() == APPENDICES[0]["title"]
    # “附录 A” above the title, and the title without a second 附录 (the site keeps “附录：…”).
    assert book_layout.printed_title("附录：符号") == "符号" and book_layout.printed_title("第 1 章") == "第 1 章"


def test_book_has_a_title_page_a_full_contents_and_headers(pdf_dir):
    pages = _pages(pdf_dir / "book.pdf")
    title_page = _flat(pages[0])
    assert _flat(COURSE_TITLE) in title_page and _flat(build_pdf.KIND_BOOK) in title_page, title_page
    contents = _contents_heading_pages(pdf_dir / "book.pdf")
    assert contents == [2], f"book.pdf: 目录 on pages {contents}"
    # The contents run over the pages numbered i, ii, … (the chapters count from 1).
    front = [page for page in pages[1:] if re.search(r"第[ivxl]+页", _flat(page.strip().splitlines()[0]))]
    listed = _flat("".join(front))
    for chapter in CHAPTERS:
        for title in [book_layout.printed_title(chapter["title"])] + _section_titles(chapter):
            assert _flat(title) in listed, f"book.pdf contents lack {title!r}"
    # Every page after the title page has its header: none is left blank.
    blank = [n for n, page in enumerate(pages[1:], start=2) if _flat(COURSE_TITLE) not in _flat(page[:300])]
    assert not blank, f"book.pdf pages without the header: {blank}"
    assert not re.search(r"附录[A-Z]?附录", _flat("".join(pages))), "book.pdf repeats 附录 in a heading"


def test_the_glossary_is_the_last_appendix_and_never_splits_an_entry(pdf_dir):
    """In book.pdf the glossary follows the appendices with the next letter, in its heading and page headers,
    and a term (Chinese line, English line) is followed by its definition on the same page."""
    glossary_label = f"附录{chr(65 + len(APPENDICES))}"
    pages = [_flat(page) for page in _pages(pdf_dir / "book.pdf")]
    glossary_pages = [page for page in pages if "术语表" in page and "候选" in page and "candidate" in page]
    assert glossary_pages, "book.pdf has no glossary page"
    assert all(glossary_label in page for page in glossary_pages), f"book.pdf: the glossary is not {glossary_label}"
    assert not any(re.search(r"第\d+章术语表", page) for page in pages), "book.pdf numbers the glossary as a chapter"

    glossary = (ROOT / "book" / "glossary.md").read_text(encoding="utf-8")
    entries = re.findall(r"^(\S[^\n]*)\n(?:([A-Za-z][^\n]*)\n)?  \S", glossary, flags=re.M)
    terms = {line.strip() for entry in entries for line in entry if line.strip()}
    assert len(entries) > 10, entries
    pages = [page for page in _pages(pdf_dir / "book.pdf", layout=False)
             if "术语表" in "".join(page.strip().splitlines()[:3])]
    assert len(pages) >= 2, "book.pdf has no glossary running over pages"
    for page in pages[:-1]:
        last = [line.strip() for line in page.strip().splitlines() if line.strip()][-1]
        assert last not in terms, f"a glossary page ends with the term {last!r} and no definition"


def test_chinese_keeps_its_space_before_latin_links_and_maths_in_headings(pdf_dir):
    """“也就是 softmax”, not “也就是softmax”: a link does not swallow the space between Chinese and Latin;
    “均匀分布的损失是 ln V”: a section heading does not glue maths to the Chinese before it; “填充处是 −100”:
    nor does a minus sign in prose."""
    text = "".join(_pages(pdf_dir / "book.pdf", layout=False))
    assert re.search(r"[\u4e00-\u9fff] −\d", text), "no Chinese before a negative number: nothing to check"
    assert not re.findall(r"[\u4e00-\u9fff]−\d", text), re.findall(r".{6}[\u4e00-\u9fff]−\d.{4}", text)[:10]
    assert "softmax" in text
    words = "softmax|sigmoid|logsumexp|bigram"
    glued = re.findall(rf"[\u4e00-\u9fff](?:{words})|(?:{words})[\u4e00-\u9fff]", text)
    assert not glued, glued[:10]
    headings = [h for c in CHAPTERS for h in re.findall(r"^##\s+(.*[\u4e00-\u9fff]\s*\$.+)$", _markdown(c), flags=re.M)]
    assert headings, "no heading with Chinese before maths: nothing to check"
    glued = [line for line in text.splitlines()
             if re.match(r"^\d+\.\d+\s", line) and re.search(r"[\u4e00-\u9fff](?:ln|𝑉|𝑊|𝑧|𝑝)", line)]
    assert not glued, glued


@pytest.mark.parametrize("line, bold", [
    (r"\section{软目标：梯度是\texorpdfstring{\hspace{0.25em}}{ }\protect\(p - q\protect\)}", True),
    (r"\subsubsection*{步长 \(\eta\)}", True),
    (r"\subparagraph{\(x\)}", True),
    (r"\begin{handoutdeep}{加 \(\varepsilon\) 的损失：斜率到底有多小}", True),
    (r"\section{练习}", False),
    (r"\sphinxstylestrong{粗体里的 \(x\)}", False),   # bold words, upright maths: no \boldmath there
])
def test_a_document_keeps_its_bold_maths_font_when_a_heading_or_deep_title_has_maths(line, bold):
    assert bool(build_pdf.MATHS_IN_BOLD.search(f"\\chapter{{第一章}}\n{line}\n正文 \\(y\\)\n")) is bold


# --- without TeX --------------------------------------------------------------

def test_missing_tex_is_reported_with_the_apt_command(tmp_path):
    """Without TeX on PATH the script names the Debian packages; --if-available turns that into a skip."""
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    cmd = [sys.executable, str(ROOT / "scripts" / "build_pdf.py"), "--out", str(tmp_path / "out")]
    strict = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    assert strict.returncode != 0
    for words in ("sudo apt-get install", "texlive-xetex", "latexmk", "fonts-noto-cjk"):
        assert words in strict.stderr, strict.stderr
    lenient = subprocess.run(cmd + ["--if-available"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert lenient.returncode == 0, lenient.stderr
    assert "sudo apt-get install" in lenient.stderr
    assert not (tmp_path / "out").exists()


def test_packages_the_script_asks_for_are_in_debian_packages_txt():
    listed = set((ROOT / "scripts" / "debian_packages.txt").read_text(encoding="utf-8").split())
    wanted = set(build_pdf.PROGRAMS.values()) | set(build_pdf.TEX_FILES.values()) | set(build_pdf.FONTS.values())
    assert wanted <= listed, f"add to scripts/debian_packages.txt: {sorted(wanted - listed)}"
