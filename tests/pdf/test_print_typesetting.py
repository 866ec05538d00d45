"""How the handouts read on paper: inline code that looks like code, numbers and references kept whole, lines
spaced as prose, answer keys without the skeletons' reports, room to write.

Each check reads the PDFs of the shared build (the `pdf_dir` fixture) as text (pdftotext), or as a picture
of one small area (pdftoppm); the `*_in` helpers take plain text, so that they can be shown to fail."""
from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

import pytest

import build_pdf
from handouts import pages as _pages
from notebook_outputs import load

CHAPTERS = build_pdf.chapters()
CJK = "\u4e00-\u9fff"


def _pdfs(pdf_dir: Path, suffix: str = "") -> list[Path]:
    return [pdf_dir / f"{c['stem']}{suffix}.pdf" for c in CHAPTERS]


# --- references and prose lines ---------------------------------------------------------

def glued_references_in(text: str) -> list[str]:
    """“图 3.1把”, “表 3.1汇总”: a figure or table number run into the Chinese word after it."""
    return re.findall(rf"[图表] ?[A-Z\d]+\.\d+[{CJK}]", text)


def letter_spaced_lines_in(text: str) -> list[str]:
    """Lines (pdftotext -layout) whose Chinese characters are pulled apart: six or more, each followed by a space.
    TeX stretches a justified line that way when the next word cannot break and moves whole to the next line."""
    return [line.strip() for line in text.splitlines() if re.search(rf"(?:[{CJK}] ){{6,}}", line)]


def test_the_checks_on_prose_lines_can_fail():
    assert glued_references_in("0。图 3.1把这件事画了出来；表 A.1汇总") == ["图 3.1把", "表 A.1汇"]
    assert not glued_references_in("图 3.1 把这件事画了出来，见表 3.1。")
    assert letter_spaced_lines_in("先 不 看 labcode 怎 么 写， 自 己 写 一 遍 嵌 入\n正常的一行") == \
        ["先 不 看 labcode 怎 么 写， 自 己 写 一 遍 嵌 入"]


def test_a_figure_or_table_number_keeps_its_space_before_chinese(pdf_dir):
    for pdf in [pdf_dir / "book.pdf", *_pdfs(pdf_dir), *_pdfs(pdf_dir, "-answers")]:
        glued = glued_references_in("".join(_pages(pdf, layout=False)))
        assert not glued, f"{pdf.name}: {glued}"


def test_no_line_of_chinese_is_letter_spaced(pdf_dir):
    for pdf in [pdf_dir / "book.pdf", *_pdfs(pdf_dir), *_pdfs(pdf_dir, "-answers")]:
        spaced = letter_spaced_lines_in("".join(_pages(pdf)))
        assert not spaced, f"{pdf.name}: {spaced}"


CLOSING = "，。、：；！？）」』”’》〉"


def lines_starting_with_closing_punctuation(words: list[tuple[str, float, float, float, float]]) -> list[str]:
    """Words (one page of `_words`) that start with closing punctuation and have nothing to their left on their
    line (避头尾). Judged by position: pdftotext splits a line at a box or a formula, and xeCJK lets a full-width
    mark overlap the one before it (“母）。编号”), so its own line records would report marks inside a line."""
    def beside(a, b) -> bool:  # a to the left of b, and most of the shorter one's height shared
        shared = min(a[4], b[4]) - max(a[2], b[2])
        return a[1] < b[1] and shared > 0.3 * min(a[4] - a[2], b[4] - b[2])
    return [w[0][:30] for w in words if w[0][:1] in CLOSING and not any(beside(o, w) for o in words)]


def test_the_line_start_check_can_fail():
    row = [("。编号为", 78.6, 505.0, 122.0, 515.9), ("母）", 62.3, 505.0, 84.2, 515.9)]
    assert not lines_starting_with_closing_punctuation(row)
    fraction_then_stop = [("1", 63.5, 232.9, 67.9, 240.5), ("4", 63.5, 240.9, 67.9, 248.6),
                          ("。用", 69.0, 233.7, 90.9, 244.6)]
    assert not lines_starting_with_closing_punctuation(fraction_then_stop)
    assert lines_starting_with_closing_punctuation([("：下面", 62.3, 600.0, 90.0, 611.0)]) == ["：下面"]
    maths_then_comma = [("𝑉", 62.3, 414.0, 68.7, 424.97), ("，隐状态", 71.0, 413.2, 158.3, 424.16)]
    assert not lines_starting_with_closing_punctuation(maths_then_comma)


def test_no_printed_line_starts_with_closing_punctuation(pdf_dir):
    """xeCJK keeps a full-width colon or comma on the line of the formula or code before it."""
    for pdf in [pdf_dir / "book.pdf", *_pdfs(pdf_dir, "-answers")]:
        for page, words in enumerate(_page_words(pdf), start=1):
            found = lines_starting_with_closing_punctuation(words)
            assert not found, f"{pdf.name} p. {page}: {found}"


# --- numbers and addresses stay with their words ----------------------------------------------------

def numbers_cut_from_their_word_in(text: str) -> list[str]:
    """“练习⏎4.7”, “图⏎4.2”: a line of pdftotext's text ends between a numbered word and its number."""
    return re.findall(r"(?:练习|图|表)\n[A-Z\d]+\.\d+", text)


def spaces_after_addresses_in(text: str) -> list[str]:
    """“…/babynames/ 。”: a space between an address and the Chinese punctuation after it."""
    return re.findall(r"https?://\S+ [。，；：）、]", text)


def unnumbered_section_references_in(tex: str) -> list[str]:
    """Section references of a handout's LaTeX source (“‘下一步’一节”) not followed by their number (§5.11)."""
    found = []
    for ref in re.finditer(r"std-ref\}\{([^{}]*一节)\}+", tex):
        if not re.match(r"[（，](?:§|第|附录)", tex[ref.end():]):
            found.append(ref[1])
    return found


def test_the_number_checks_can_fail():
    assert numbers_cut_from_their_word_in("证明见练习\n4.7。\n图 4.2 里") == ["练习\n4.7"]
    assert not numbers_cut_from_their_word_in("4.14 练习\n练习 4.1（你来写）")
    assert spaces_after_addresses_in("见 https://www.ssa.gov/oact/babynames/ 。本书") == \
        ["https://www.ssa.gov/oact/babynames/ 。"]
    assert not spaces_after_addresses_in("（https://github.com/karpathy/makemore）整理")
    assert unnumbered_section_references_in("见\\DUrole{xref,std,std-ref}{“下一步”一节}）") == ["“下一步”一节"]
    assert not unnumbered_section_references_in("\\DUrole{std,std-ref}{“计数模型”一节}}}}（§4.3）算出")


def test_numbered_words_and_addresses_stay_with_what_follows(pdf_dir):
    for pdf in [*_pdfs(pdf_dir), *_pdfs(pdf_dir, "-answers")]:
        text = "".join(_pages(pdf, layout=False))
        assert not numbers_cut_from_their_word_in(text), f"{pdf.name}: {numbers_cut_from_their_word_in(text)}"
        assert not spaces_after_addresses_in(text), f"{pdf.name}: {spaces_after_addresses_in(text)}"


def test_section_references_carry_their_number(pdf_dir):
    """On paper a section reference says where to turn: “‘下一步’一节（§5.11）”, also in another chapter's handout,
    and the answer key's boxes name their section with its number (“见‘梯度下降的一步’一节，§2.4”)."""
    latex = pdf_dir / "latex-work" / "_build" / "latex"
    for chapter in CHAPTERS:
        found = unnumbered_section_references_in((latex / f"{chapter['stem']}.tex").read_text(encoding="utf-8"))
        assert not found, f"{chapter['stem']}.tex: {found}"
    for pdf in _pdfs(pdf_dir, "-answers"):
        boxes = re.findall(r"（见“[^”]*”一节[^）]*）", re.sub(r"\s+", "", "".join(_pages(pdf, layout=False))))
        assert all("§" in box for box in boxes), f"{pdf.name}: {boxes}"


# --- outputs wrap at spaces -------------------------------------------------------------

def _outputs(chapter: dict) -> str:
    """The chapter's stored outputs (what its code cells printed), one after the other."""
    text = ""
    for cell in load(f"{chapter['stem']}.ipynb")["cells"]:
        for output in cell.get("outputs", []):
            text += "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", "")) + "\n"
    return text


def words_broken_in(text: str, outputs: str) -> list[str]:
    """Line ends where a printed word or number was cut (“lr = 0.” then “5，1 步”, “check_” then “softmax”): the
    last word of the line and the first of the next make one word of the outputs, which never print them apart.
    Chinese may break between any two characters, so a cut between two of them is no cut; short pieces of
    maths in prose (“1” then “2”) are not words of an output."""
    broken = []
    lines = [line.strip() for line in text.splitlines()]
    for line, after in zip(lines, lines[1:], strict=False):
        tail, head = line.split()[-1:], after.split()[:1]
        # a cut inside a word: letters, digits, _ . - on both sides, never between two Chinese characters
        if not (tail and head) or len(tail[0] + head[0]) < 4 or \
                not re.fullmatch(r"[\w.\-]{2}", tail[0][-1] + head[0][0], flags=re.A):
            continue
        joined = rf"(?<!\S){re.escape(tail[0] + head[0])}"
        apart = rf"(?<!\S){re.escape(tail[0])}\s+{re.escape(head[0])}"
        if re.search(joined, outputs) and not re.search(apart, outputs):
            broken.append(f"{line[-12:]}⏎{after[:12]}")
    return broken


def test_the_broken_word_check_can_fail():
    assert words_broken_in("lr = 0.\n5，1 步", "lr = 0.5，1 步") == ["lr = 0.⏎5，1 步"]
    assert words_broken_in("x check_\nsoftmax：通过", "check_softmax：通过") == ["x check_⏎softmax：通过"]
    assert not words_broken_in("lr = 0.5，\n1 步", "lr = 0.5，1 步")
    assert not words_broken_in("[0.\n0.5]", "[0. 0.5]") and not words_broken_in("骨架就\n是这样", "骨架就是这样")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_printed_outputs_wrap_at_spaces_only(pdf_dir, chapter):
    outputs = _outputs(chapter)
    for pdf in (pdf_dir / f"{chapter['stem']}.pdf", pdf_dir / f"{chapter['stem']}-answers.pdf"):
        broken = words_broken_in("".join(_pages(pdf, layout=False)), outputs)
        assert not broken, f"{pdf.name}: {broken}"


# --- inline code on a grey ground ---------------------------------------------------------

@functools.cache
def _page_words(pdf: Path) -> tuple[list[tuple[str, float, float, float, float]], ...]:
    """For each page, (text, xMin, yMin, xMax, yMax) of each word pdftotext finds, in points (one run per file)."""
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    word = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
    return tuple([(m[4], *map(float, m[:4])) for m in word.findall(page)] for page in html.split("<page ")[1:])


def _words(pdf: Path, page: int) -> list[tuple[str, float, float, float, float]]:
    """The words of `page` (1-based)."""
    return _page_words(pdf)[page - 1]


def grey_ground_in(pgm: bytes) -> int:
    """How many pixels of a binary greyscale picture (PGM, no antialiasing) are light grey: the code ground."""
    header = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", pgm)
    pixels = pgm[header.end():]
    return sum(1 for value in pixels if 200 <= value <= 245)


def test_the_grey_check_can_fail():
    white = b"P5 2 2 255\n" + bytes([255, 255, 0, 255])
    assert grey_ground_in(white) == 0 and grey_ground_in(b"P5 1 1 255\n" + bytes([230])) == 1


def test_inline_code_is_set_on_a_grey_ground(pdf_dir):
    """A lone `.` in code (“前一个字是 .）”) reads as code, not as a stray full stop: the area under it is grey."""
    pdf = pdf_dir / "04_bigram.pdf"
    found = [(n, after) for n, text in enumerate(_pages(pdf, layout=False), start=1) if "前一个字是" in text
             for word, after in zip(_words(pdf, n), _words(pdf, n)[1:], strict=False)
             if word[0].endswith("前一个字是") and after[0] == "."]
    assert found, f"{pdf.name} no longer says 前一个字是 `.`: choose another inline code to look at"
    page, dot = found[0]
    dpi = 144
    x0, y0 = int((dot[1] - 3) * dpi / 72), int((dot[2] - 1) * dpi / 72)
    width, height = int((dot[3] - dot[1] + 6) * dpi / 72) + 1, int((dot[4] - dot[2] + 2) * dpi / 72) + 1
    pgm = subprocess.run(["pdftoppm", "-gray", "-aa", "no", "-aaVector", "no", "-r", str(dpi), "-f", str(page),
                          "-l", str(page), "-x", str(x0), "-y", str(y0), "-W", str(width), "-H", str(height),
                          str(pdf)], capture_output=True, check=True).stdout
    assert grey_ground_in(pgm) > width * height // 4, f"{pdf.name} p. {page}: the inline `.` has no grey ground"


# --- answer keys and the student's room ------------------------------------------------

@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_the_answer_key_prints_no_not_written_report(pdf_dir, chapter):
    key = "".join(_pages(pdf_dir / f"{chapter['stem']}-answers.pdf", layout=False))
    assert "还没写" not in re.sub(r"\s+", "", key), f"{chapter['stem']}-answers.pdf reprints a 还没写 report"


def _end_of_chapter_exercises(tex: str) -> int:
    """How many exercises the section 练习 of a handout's LaTeX source holds (sphinx-exercise's admonitions)."""
    section = re.search(r"\\section\{练习\}(.*?)(?=\\section\{|\\chapter\{|\\end\{document\})", tex, flags=re.S)
    return len(re.findall(r"\\begin\{sphinxadmonition\}\{note\}\{练习", section.group(1))) if section else 0


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_the_student_handout_leaves_room_under_each_end_of_chapter_exercise(pdf_dir, chapter):
    latex = pdf_dir / "latex-work" / "_build" / "latex"
    student = (latex / f"{chapter['stem']}.tex").read_text(encoding="utf-8")
    key = (latex / f"{chapter['stem']}-answers.tex").read_text(encoding="utf-8")
    exercises = _end_of_chapter_exercises(student)
    assert exercises, f"{chapter['stem']}.tex has no section 练习 with exercises: nothing was checked"
    assert student.count("\\handoutwritingspace") == exercises
    assert "\\handoutwritingspace" not in key
