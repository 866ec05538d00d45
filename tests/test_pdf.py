"""PDF handouts: built through the LaTeX route, checked as text (pdftotext) and as pictures (pdftoppm)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import book_layout
import build_pdf
from conftest import require_tool
from figures import figures
from handouts import flat as _flat
from handouts import pages as _pages

ROOT = Path(__file__).resolve().parents[1]
WIDGET_REPRS = ("FloatSlider(", "IntSlider(", "FloatLogSlider(", "Output(", "VBox(", "HBox(", "Layout(",
                "SoftmaxExplorer(", "GradientExplorer(", "Widget(", "model_id", "<Figure size",
                "application/vnd.jupyter")


TEX_HINT = "sudo apt-get install " + " ".join(build_pdf._debian_pdf_packages())
CHAPTERS = build_pdf.chapters()
COURSE_TITLE = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["title"]


# --- building: the `pdf_dir` fixture in conftest.py builds every handout once per session ---

def _latex_logs(pdf_dir: Path) -> list[Path]:
    """xelatex logs of every handout, next to their .tex sources (kept with --work)."""
    logs = sorted((pdf_dir / "latex-work").glob("*/_build/latex/*.log"))
    assert len(logs) == len(_all_pdfs(pdf_dir)), f"expected one xelatex log per PDF, found {logs}"
    return logs


def _page_count(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, flags=re.M).group(1))


def _all_pdfs(pdf_dir: Path) -> list[Path]:
    names = ["book.pdf"] + [f"{c['stem']}{suffix}.pdf" for c in CHAPTERS for suffix in ("", "-answers")]
    return [pdf_dir / name for name in names]


# --- what the notebooks say --------------------------------------------------

def _markdown(stem_docname: str) -> list[tuple[str, str]]:
    cells = json.loads((ROOT / f"{stem_docname}.ipynb").read_text(encoding="utf-8"))["cells"]
    return [(c["cell_type"], "".join(c["source"])) for c in cells]


def _solution_snippets(docname: str) -> list[str]:
    """A run of Chinese text from each solution that occurs nowhere else in the chapter's source."""
    inside, solution_text, other_text = False, [], []
    fence_solution = re.compile(r"^(`{3,}|:{3,})\{solution\}.*?$(.*?)^\1\s*$", re.M | re.S)
    for kind, source in _markdown(docname):
        if kind != "markdown":
            continue
        for m in fence_solution.finditer(source):
            solution_text.append(m.group(2))
        source = fence_solution.sub("", source)
        if "{solution-start}" in source:
            before, after = source.split("{solution-start}", 1)
            other_text.append(before)
            solution_text.append(after)
            inside = "{solution-end}" not in after
        elif inside:
            if "{solution-end}" in source:
                body, rest = source.split("{solution-end}", 1)
                solution_text.append(body)
                other_text.append(rest)
                inside = False
            else:
                solution_text.append(source)
        else:
            other_text.append(source)
    elsewhere = _flat("".join(other_text))
    snippets = []
    for text in solution_text:
        runs = sorted(re.findall(r"[\u4e00-\u9fff]{8,}", text), key=len, reverse=True)
        unique = [r for r in runs if r not in elsewhere]
        if unique:
            snippets.append(unique[0])
    return snippets


def _section_titles(docname: str) -> list[str]:
    """The chapter's `##` headings (those without maths or code, whose printed text is predictable)."""
    titles = []
    for kind, source in _markdown(docname):
        if kind == "markdown":
            titles += [t.strip() for t in re.findall(r"^##\s+(.+)$", source, flags=re.M) if not re.search(r"[$`]", t)]
    return titles


def _opening_text(docname: str) -> str:
    """A run of Chinese text from the chapter's first paragraph (right below its `#` title)."""
    text = "\n".join(source for kind, source in _markdown(docname) if kind == "markdown")
    after_title = re.split(r"^#\s+.+$", text, maxsplit=1, flags=re.M)[1]
    paragraph = next(p for p in re.split(r"\n\s*\n", after_title) if re.search(r"[\u4e00-\u9fff]{8,}", p))
    return max(re.findall(r"[\u4e00-\u9fff]{8,}", paragraph), key=len)


def _body(page: str) -> str:
    """A page's text without its two header lines."""
    return "\n".join(page.strip("\n").splitlines()[2:])


def _exercise_snippets(docname: str) -> list[str]:
    """A run of Chinese text from each exercise, in order: fenced ones and gated ones (exercise-start … -end)."""
    fence = re.compile(r"^(`{3,}|:{3,})\{exercise\}.*?$(.*?)^\1\s*$", re.M | re.S)
    gated = re.compile(r"^(`{3,})\{exercise-start\}.*?^\1\s*$(.*)", re.M | re.S)
    snippets = []
    for kind, source in _markdown(docname):
        for m in [*fence.finditer(source), *gated.finditer(source)] if kind == "markdown" else ():
            runs = sorted(re.findall(r"[\u4e00-\u9fff]{6,}", m.group(2)), key=len, reverse=True)
            snippets += runs[:1]
    return snippets


def _you_write(docname: str) -> tuple[list[str], list[str]]:
    """The skeletons a chapter asks the reader to fill in (``def my_…``), and the checks that report 还没写."""
    cells = json.loads((ROOT / f"{docname}.ipynb").read_text(encoding="utf-8"))["cells"]
    skeletons, checks = [], []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if "raise NotImplementedError" in source:
            skeletons += re.findall(r"^def (my_\w+)\(", source, flags=re.M)
        text = "".join("".join(o.get("data", {}).get("text/plain", "")) for o in cell.get("outputs", []))
        checks += re.findall(r"^(check_\w+)：还没写", text, flags=re.M)
    return skeletons, checks


# --- tests ------------------------------------------------------------------

def test_every_chapter_gets_a_handout_and_an_answer_key_and_the_book_is_built(pdf_dir):
    for pdf in _all_pdfs(pdf_dir):
        assert pdf.exists(), f"missing {pdf.name}; built: {sorted(p.name for p in pdf_dir.glob('*.pdf'))}"


def test_pages_are_a4(pdf_dir):
    for pdf in _all_pdfs(pdf_dir):
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
        assert size, info
        width, height = float(size.group(1)), float(size.group(2))
        assert abs(width - 595.28) < 1 and abs(height - 841.89) < 1, f"{pdf.name} is {width} x {height} pt"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_handout_has_chinese_chapter_heading_and_contents(pdf_dir, chapter):
    for pdf in (pdf_dir / f"{chapter['stem']}.pdf", pdf_dir / f"{chapter['stem']}-answers.pdf", pdf_dir / "book.pdf"):
        text = "".join(_pages(pdf))
        flat = _flat(text)
        assert _flat(chapter["label"]) in flat, f"{pdf.name}: no heading {chapter['label']}"
        printed = book_layout.printed_title(chapter["title"])
        assert _flat(chapter["label"] + printed) in flat, f"{pdf.name}: no heading {chapter['label']} {printed}"
        for english in ("CHAPTER", "Contents"):
            assert english not in text, f"{pdf.name} prints {english!r}"


def _contents_heading_pages(pdf: Path) -> list[int]:
    """Pages (1-based) with a line that reads just 目录: the heading of a table of contents."""
    return [number for number, page in enumerate(_pages(pdf), start=1)
            if any(line.strip() == "目录" for line in page.splitlines())]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_student_handout_starts_the_chapter_on_page_one_with_its_sections_listed(pdf_dir, chapter):
    pdf = pdf_dir / f"{chapter['stem']}.pdf"
    pages = _pages(pdf)
    # Page 1 has the plain header (course title, page number), in reading order for the two-column list.
    first = _flat(_pages(pdf, layout=False)[0])
    assert _flat(chapter["label"]) in first and _flat(book_layout.printed_title(chapter["title"])) in first, \
        f"page 1 of {pdf.name}: {first!r}"
    assert _flat(build_pdf.KIND_STUDENT) in first, f"page 1 of {pdf.name} does not say {build_pdf.KIND_STUDENT}"
    assert _contents_heading_pages(pdf) == [1], f"{pdf.name}: 目录 on pages {_contents_heading_pages(pdf)}"
    sections = _section_titles(chapter["docname"])
    assert sections, f"{chapter['docname']} has no ## sections to list"
    for title in sections:
        assert _flat(title) in first, f"page 1 of {pdf.name} does not list the section {title!r}"
    # The chapter text begins on page 1 and the heading is not repeated on page 2.
    assert _opening_text(chapter["docname"]) in first, f"{pdf.name}: the chapter text does not start on page 1"
    assert _flat(book_layout.printed_title(chapter["title"])) not in _flat(_body(pages[1])), \
        f"{pdf.name} repeats the chapter heading on page 2"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_answer_key_starts_with_the_chapter_heading_and_no_contents(pdf_dir, chapter):
    pdf = pdf_dir / f"{chapter['stem']}-answers.pdf"
    first = _flat(_body(_pages(pdf)[0]))
    assert _flat(chapter["label"]) in first and _flat(book_layout.printed_title(chapter["title"])) in first, \
        f"page 1 of {pdf.name}: {first!r}"
    assert _flat(build_pdf.KIND_ANSWERS) in first, f"page 1 of {pdf.name} does not say {build_pdf.KIND_ANSWERS}"
    assert not _contents_heading_pages(pdf), f"{pdf.name} prints a 目录 (of one entry)"
    exercises = _exercise_snippets(chapter["docname"])
    if exercises:
        assert exercises[0] in first, f"{pdf.name}: the first exercise does not start on page 1"


def test_chapters_are_numbered_and_appendices_lettered():
    chapters = [c for c in CHAPTERS if not c["title"].startswith("附录")]
    appendices = [c for c in CHAPTERS if c["title"].startswith("附录")]
    assert chapters and appendices and CHAPTERS == chapters + appendices
    assert [c["label"] for c in chapters] == [f"第 {i} 章" for i in range(1, len(chapters) + 1)]
    assert [c["label"] for c in appendices] == [f"附录 {chr(65 + i)}" for i in range(len(appendices))]
    assert [c["handout_title"] for c in appendices] == [c["title"] for c in appendices]
    assert [c["handout_title"] for c in chapters] == [f"{c['label']}　{c['title']}" for c in chapters]
    # The back matter of book.pdf starts at the first appendix, or at the glossary if there is none.
    assert build_pdf.back_matter_title() == (appendices[0]["title"] if appendices else "术语表")


def test_appendix_handouts_and_the_back_of_the_book_say_appendix_not_chapter(pdf_dir):
    appendices = [c for c in CHAPTERS if c["appendix"]]
    for chapter in appendices:
        for pdf in (pdf_dir / f"{chapter['stem']}.pdf", pdf_dir / f"{chapter['stem']}-answers.pdf"):
            head = _flat(_pages(pdf)[0])
            assert _flat(chapter["label"]) in head, f"{pdf.name}: {head[:120]!r}"
            # The heading: page header, label and title (the text below may name chapters: the symbol table does).
            title = _flat(book_layout.printed_title(chapter["title"]))
            assert title in head, f"{pdf.name}: no title {title!r} in {head[:120]!r}"
            heading = head[:head.index(title) + len(title)]
            assert not re.search(r"第\d+章", heading), f"{pdf.name} calls the appendix a chapter: {heading!r}"
    # In book.pdf the glossary follows the appendices with the next letter, in its heading and page headers.
    glossary_label = f"附录{chr(65 + len(appendices))}"
    pages = [_flat(page) for page in _pages(pdf_dir / "book.pdf")]
    glossary_pages = [page for page in pages if "术语表" in page and "候选" in page and "candidate" in page]
    assert glossary_pages, "book.pdf has no glossary page"
    assert all(glossary_label in page for page in glossary_pages), f"book.pdf: the glossary is not {glossary_label}"
    assert not any(re.search(r"第\d+章术语表", page) for page in pages), "book.pdf numbers the glossary as a chapter"


def test_book_has_a_title_page_and_a_full_contents(pdf_dir):
    pdf = pdf_dir / "book.pdf"
    pages = _pages(pdf)
    title_page = _flat(pages[0])
    assert _flat(COURSE_TITLE) in title_page and _flat(build_pdf.KIND_BOOK) in title_page, title_page
    contents = _contents_heading_pages(pdf)
    assert contents == [2], f"book.pdf: 目录 on pages {contents}"
    # The contents run over the pages numbered i, ii, … (the chapters count from 1).
    front = [page for page in pages[1:] if re.search(r"第[ivxl]+页", _flat(page.strip().splitlines()[0]))]
    listed = _flat("".join(front))
    for chapter in CHAPTERS:
        for title in [book_layout.printed_title(chapter["title"])] + _section_titles(chapter["docname"]):
            assert _flat(title) in listed, f"book.pdf contents lack {title!r}"


def test_no_line_sticks_out_into_the_margin(pdf_dir):
    for log in _latex_logs(pdf_dir):
        text = log.read_text(encoding="utf-8", errors="replace")
        too_wide = [float(w) for w in re.findall(r"^Overfull \\hbox \(([\d.]+)pt too wide\)", text, flags=re.M)]
        assert all(w < 1.0 for w in too_wide), f"{log.name}: overfull lines {too_wide} pt"


def test_table_cells_are_ragged_right(pdf_dir):
    """Justified narrow cells stretch their lines (TeX reports them as underfull); ragged-right ones do not."""
    checked = 0
    for log in _latex_logs(pdf_dir):
        tex = log.with_suffix(".tex").read_text(encoding="utf-8").splitlines()
        in_table, table_lines = False, set()
        for number, line in enumerate(tex, start=1):
            if re.search(r"\\begin\{(tabular|tabulary|longtable)\}", line):
                in_table = True
            if in_table:
                table_lines.add(number)
            if re.search(r"\\end\{(tabular|tabulary|longtable)\}", line):
                in_table = False
        checked += bool(table_lines)
        text = log.read_text(encoding="utf-8", errors="replace")
        underfull = r"^Underfull \\hbox \(badness \d+\) in paragraph at lines (\d+)--(\d+)"
        stretched = [(int(a), int(b)) for a, b in re.findall(underfull, text, flags=re.M)]
        in_cells = [r for r in stretched if r[0] in table_lines]
        assert not in_cells, f"{log.name}: stretched table cells at .tex lines {in_cells}"
    assert checked, "no handout has a table: nothing was checked"


def test_captions_read_figure_number_then_text(pdf_dir):
    found = 0
    for pdf in _all_pdfs(pdf_dir):
        text = "".join(_pages(pdf))
        numbers = re.findall(r"([图表])\s*((?:[A-Z]|\d+)\.\d+)\s*([:：]?)", text)   # 表 1.1, 表 A.1
        found += len(numbers)
        assert not [n for n in numbers if n[2]], f"{pdf.name}: captions with a colon {numbers}"
    assert found, "no numbered figure or table in any PDF: nothing was checked"


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


def _printed_code_lines_with_minus(docname: str) -> list[str]:
    """Short lines with a "-" from the chapter's code cells whose source the handout prints."""
    cells = json.loads((ROOT / f"{docname}.ipynb").read_text(encoding="utf-8"))["cells"]
    return [line.strip() for c in cells if c["cell_type"] == "code"
            and not {"remove-input", "remove-cell", "hide-input"} & set(c["metadata"].get("tags", []))
            for line in "".join(c["source"]).splitlines()
            if "-" in line and 8 < len(line.strip()) < 60 and not line.lstrip().startswith(("#", "%"))]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_code_copied_from_the_handouts_has_ascii_minus_signs(pdf_dir, chapter):
    """Copying code from a handout gives code that runs: "-" is U+002D, never the non-breaking hyphen
    U+2011 (Noto's CJK fonts share one glyph between the two), in the handout and in the answer key."""
    for pdf in (pdf_dir / f"{chapter['stem']}.pdf", pdf_dir / f"{chapter['stem']}-answers.pdf"):
        text = "".join(_pages(pdf, layout=False))
        assert "\u2011" not in text, f"{pdf.name} copies as U+2011: {text[text.index(chr(0x2011)) - 40:][:80]!r}"
    flat = _flat("".join(_pages(pdf_dir / f"{chapter['stem']}.pdf", layout=False)))
    lines = _printed_code_lines_with_minus(chapter["docname"])
    found = [line for line in lines if _flat(line) in flat]
    assert found, f"{chapter['stem']}.pdf: none of its code lines with a minus sign copies as typed, e.g. {lines[:3]}"


DEEP_START = re.compile(r"^:::\{deep-start\} (.+)$", re.M)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_deep_boxes_print_as_titled_asides(pdf_dir, chapter):
    """Each 深入 box prints “深入：” and its title in the student handout (titles with maths or code are typeset
    differently and left out here)."""
    titles = [title for kind, source in _markdown(chapter["docname"]) if kind == "markdown"
              for title in DEEP_START.findall(source) if not re.search(r"[$`{\\]", title)]
    flat = _flat("".join(_pages(pdf_dir / f"{chapter['stem']}.pdf")))
    missing = [title for title in titles if _flat(f"深入：{title}") not in flat]
    assert not missing, f"{chapter['stem']}.pdf does not print the 深入 boxes {missing}"


def test_no_widget_or_figure_text_repr_is_printed(pdf_dir):
    for pdf in _all_pdfs(pdf_dir):
        text = "".join(_pages(pdf))
        for needle in WIDGET_REPRS:
            assert needle not in text, f"{pdf.name} prints the text repr {needle!r}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_answer_boxes_are_blanks_for_students_and_answered_in_the_key(pdf_dir, chapter):
    """Each answer box of the chapter (_ext/answer_box) prints its question in every handout; the answer,
    computed from labcode at build time, only in the answer key, which also names the box's section."""
    from answer_box.problems import answer_text, problem
    from notebook_outputs import book_boxes

    boxes = [problem(kind, {k: v for k, v in options.items() if k != "label"})
             for stem, kind, options in book_boxes() if stem == chapter["stem"]]
    assert boxes, f"{chapter['stem']} has no answer box"
    student, book, answers = (_flat("".join(_body(page) for page in _pages(pdf_dir / name)))
                              for name in (f"{chapter['stem']}.pdf", "book.pdf", f"{chapter['stem']}-answers.pdf"))
    assert student.count("动手算") == answers.count("动手算") == len(boxes)
    assert answers.count("动手算（见“") == len(boxes)
    for found in boxes:
        printed = "答案：" + _flat(answer_text(found.answer))
        assert printed in answers, f"the answer key lacks {printed!r}"
        assert printed not in student and printed not in book, f"a student handout prints {printed!r}"
    assert "答案：" not in student and "动手算（见“" not in student


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_solutions_are_in_the_answer_key_only(pdf_dir, chapter):
    # Page headers left out, so a sentence broken across a page still reads as one.
    student, book, answers = (_flat("".join(_body(page) for page in _pages(pdf_dir / name)))
                              for name in (f"{chapter['stem']}.pdf", "book.pdf", f"{chapter['stem']}-answers.pdf"))
    solutions = _solution_snippets(chapter["docname"])
    exercises = _exercise_snippets(chapter["docname"])
    if not exercises:
        assert "本章没有练习" in answers
        return
    assert solutions, f"{chapter['docname']} has exercises but no solution text to look for"
    for snippet in solutions:
        assert snippet in answers, f"answer key lacks solution text {snippet!r}"
        assert snippet not in student, f"student handout shows solution text {snippet!r}"
        assert snippet not in book, f"book.pdf shows solution text {snippet!r}"
    for snippet in exercises:
        assert snippet in student, f"student handout lacks exercise text {snippet!r}"
        assert snippet in answers, f"answer key lacks exercise text {snippet!r}"


YOU_WRITE = [c for c in CHAPTERS if _you_write(c["docname"])[0]]


def test_some_chapters_ask_the_reader_to_write_code():
    assert {c["stem"] for c in YOU_WRITE} >= {"02_gradient", "03_shared_embedding", "04_bigram"}


@pytest.mark.parametrize("chapter", YOU_WRITE, ids=lambda c: c["stem"])
def test_you_write_prints_the_skeleton_in_both_pdfs_and_the_passing_check_in_the_key_only(pdf_dir, chapter):
    """The handout is where a reader on paper writes the function: skeleton and 还没写 report there, no solution."""
    student, answers = (_flat("".join(_body(page) for page in _pages(pdf_dir / f"{chapter['stem']}{suffix}.pdf")))
                        for suffix in ("", "-answers"))
    skeletons, checks = _you_write(chapter["docname"])
    assert checks, f"{chapter['docname']} has skeletons but no check cell reporting 还没写"
    for name in skeletons:
        assert f"def{name}(" in student and f"def{name}(" in answers, f"{name} is missing from a PDF"
    for check in checks:
        assert f"{check}：还没写" in student, f"the student handout lacks the not-written report of {check}"
        assert f"{check}：通过（全部" in answers, f"the answer key lacks the passing report of {check}"
        assert f"{check}：通过（全部" not in student, f"the student handout shows the passing report of {check}"


def test_fonts_are_embedded(pdf_dir):
    require_tool("pdffonts", TEX_HINT)
    for pdf in _all_pdfs(pdf_dir):
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        fonts = rows.splitlines()[2:]
        assert any("NotoSerifCJK" in row or "NotoSansCJK" in row for row in fonts), f"{pdf.name}: no Noto CJK font"
        not_embedded = [row for row in fonts if row.split()[-5] != "yes"]
        assert not not_embedded, f"{pdf.name}: fonts not embedded: {not_embedded}"


def test_every_page_renders(pdf_dir, tmp_path):
    for pdf in _all_pdfs(pdf_dir):
        pages = _page_count(pdf)
        assert pages >= 2, f"{pdf.name} has {pages} pages"
        folder = tmp_path / pdf.stem
        folder.mkdir()
        subprocess.run(["pdftoppm", "-r", "20", "-png", str(pdf), str(folder / "page")], check=True,
                       capture_output=True)
        images = sorted(folder.glob("page-*.png"))
        assert len(images) == pages, f"{pdf.name}: {len(images)} of {pages} pages rendered"
        assert all(image.stat().st_size > 200 for image in images), f"{pdf.name}: an empty page image"


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


def test_appendix_headings_say_appendix_once(pdf_dir):
    """“附录 A” above the title, and the title without a second 附录 (the site keeps “附录：…”)."""
    appendices = [c for c in CHAPTERS if c["appendix"]]
    assert all(book_layout.printed_title(c["title"]) != c["title"]
               for c in appendices if c["title"].startswith("附录："))
    assert book_layout.printed_title("附录：符号") == "符号" and book_layout.printed_title("第 1 章") == "第 1 章"
    for chapter in appendices:
        for pdf in (pdf_dir / f"{chapter['stem']}.pdf", pdf_dir / "book.pdf"):
            text = _flat("".join(_pages(pdf)))
            assert not re.search(r"附录[A-Z]?附录", text), f"{pdf.name} repeats 附录 in a heading"


def test_glossary_pages_never_end_on_a_term_without_its_definition(pdf_dir):
    """In book.pdf a glossary term (Chinese line, English line) is followed by its definition on the same page."""
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


def test_latin_words_in_links_keep_their_space(pdf_dir):
    """“也就是 softmax”, not “也就是softmax”: a link does not swallow the space between Chinese and Latin."""
    text = "".join(_pages(pdf_dir / "book.pdf", layout=False))
    assert "softmax" in text
    words = "softmax|sigmoid|logsumexp|bigram"
    glued = re.findall(rf"[\u4e00-\u9fff](?:{words})|(?:{words})[\u4e00-\u9fff]", text)
    assert not glued, glued[:10]


def test_maths_in_headings_keeps_its_space(pdf_dir):
    """“均匀分布的损失是 ln V”: a section heading does not glue maths to the Chinese before it."""
    headings = []
    for chapter in CHAPTERS:
        for kind, source in _markdown(chapter["docname"]):
            if kind == "markdown":
                headings += re.findall(r"^##\s+(.*[\u4e00-\u9fff]\s*\$.+)$", source, flags=re.M)
    assert headings, "no heading with Chinese before maths: nothing to check"
    text = "".join(_pages(pdf_dir / "book.pdf", layout=False))
    lines = [line for line in text.splitlines() if re.match(r"^\d+\.\d+\s", line)]
    glued = [line for line in lines if re.search(r"[\u4e00-\u9fff](?:ln|𝑉|𝑊|𝑧|𝑝)", line)]
    assert not glued, glued


def test_term_and_section_links_are_upright(pdf_dir):
    """No slanted Latin in Chinese text: glossary-term and section links print upright (Sphinx uses \\emph)."""
    require_tool("pdffonts", TEX_HINT)
    for pdf in _all_pdfs(pdf_dir):
        rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        italic = [row.split()[0] for row in rows.splitlines()[2:] if "Italic" in row.split()[0]]
        assert not italic, f"{pdf.name} sets text in italics ({italic}): a term or section link?"
