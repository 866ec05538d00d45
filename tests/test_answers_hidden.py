"""No answer before the reader asks for it, in any medium: around each answer box the reader sees no value of its
answer, and around each exercise neither its solution nor labcode's own kernels.

The answers are derived, not copied (tests/answers_shown.py): each box's value from its own problem
(labcode.practice.problems), each exercise's giveaways from its solution's cells, the kernels from the notebooks'
``inspect.getsource`` printouts. Where a reader looks:
- the site, on a phone (360 × 740) and a desktop (1200 × 800): everything a screen that shows the box's input (or a
  part of the exercise) can show, measured in the one tour of the site (tests/site_tour.py);
- the student handouts: about a screen's worth of lines around the box's blank and the exercise;
- the notebooks in JupyterLab: the cells not hidden by metadata, about a screen's worth around the box.
What the folds hold is printed in the answer key and nowhere in the student handouts.
"""
from __future__ import annotations

import math
import re

import pytest

import build_pdf
import hidden_cells
from answers_shown import Box, answer_folds, boxes, exercises, flat, giveaways, kernels
from handouts import pages
from notebook_outputs import load

CHAPTERS = build_pdf.chapters()
SCREEN_LINES = 40   # lines of text on a screen: a desktop window of 800 px, a printed page's worth less the margins


def _chapter_boxes(stem: str) -> list[Box]:
    return [box for box in boxes() if box.stem == stem]


def _exercise_failures(stem: str, label: str, text: str) -> list[str]:
    """The solution texts and kernels of the chapter that `text` (seen around exercise `label`) shows."""
    own = next(e for e in exercises(stem) if e.label == label)
    return [t for t in own.solution + kernels(stem) if flat(t) in flat(text)]


# --- the site -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("width", ["360", "1200"])
def test_the_site_shows_no_answer_on_the_screen_of_its_box(site_tour, width):
    shown, measured = {}, set()
    for box in (b for record in site_tour[width].values() for b in record.get("around", {}).get("boxes", [])):
        measured.add(box["label"])
        assert box["text"] is not None, f"{box['label']}: the box is not drawn at {width} px"
        found = giveaways(box["text"], next(b for b in boxes() if b.label == box["label"]))
        if found:
            shown[box["label"]] = found
    assert measured == {box.label for box in boxes()}, "a box of the book was not measured"
    assert shown == {}, f"at {width} px, answers on the screen of their box: {shown}"


@pytest.mark.parametrize("width", ["360", "1200"])
def test_the_site_shows_no_solution_or_kernel_on_the_screen_of_an_exercise(site_tour, width):
    shown, measured = {}, set()
    for path, record in site_tour[width].items():
        stem = path.rsplit("/", 1)[-1].removesuffix(".html")
        for exercise in record.get("around", {}).get("exercises", []):
            measured.add(exercise["label"])
            found = _exercise_failures(stem, exercise["label"], exercise["text"] or "")
            if found:
                shown[exercise["label"]] = found
    assert measured == {e.label for c in CHAPTERS for e in exercises(c["stem"])}, "an exercise was not measured"
    assert shown == {}, f"at {width} px, solutions or labcode's kernels on the screen of an exercise: {shown}"


# --- the student handouts -----------------------------------------------------------------------------------

def _lines(pdf) -> list[str]:
    """The handout's lines without the page headers (course title, chapter, page number)."""
    return [line for page in pages(pdf) for line in page.strip("\n").splitlines()[2:]]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_the_student_handout_prints_no_answer_near_its_blank(pdf_dir, chapter):
    """A screen's worth of lines before the box and after its blank (the box prints its title, 动手算, on a line of
    its own, then the question and a ruled blank, then an empty line)."""
    lines = _lines(pdf_dir / f"{chapter['stem']}.pdf")
    at = [i for i, line in enumerate(lines) if line.strip() == "动手算"]
    chapter_boxes = _chapter_boxes(chapter["stem"])
    assert len(at) == len(chapter_boxes), f"{chapter['stem']}.pdf prints {len(at)} boxes, the chapter has them all"
    shown = {}
    for i, box in zip(at, chapter_boxes, strict=True):
        blank_end = next(j for j in range(i + 1, len(lines)) if not lines[j].strip())
        window = lines[max(0, i - SCREEN_LINES):i] + lines[blank_end:blank_end + SCREEN_LINES]
        found = giveaways("\n".join(window), box)
        if found:
            shown[box.label] = found
    assert shown == {}, f"{chapter['stem']}.pdf prints answers near their blanks: {shown}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_the_student_handout_prints_no_kernel_near_an_exercise(pdf_dir, chapter):
    lines = _lines(pdf_dir / f"{chapter['stem']}.pdf")
    number = chapter["label"].split()[1]   # 第 1 章 → 1, 附录 A → A
    shown = {}
    for k, exercise in enumerate(exercises(chapter["stem"]), start=1):
        at = next((i for i, line in enumerate(lines) if line.strip().startswith(f"练习 {number}.{k}（")), None)
        assert at is not None, f"{chapter['stem']}.pdf does not print 练习 {number}.{k}"
        window = "\n".join(lines[max(0, at - SCREEN_LINES):at + 2 * SCREEN_LINES])
        found = _exercise_failures(chapter["stem"], exercise.label, window)
        if found:
            shown[exercise.label] = found
    assert shown == {}, f"{chapter['stem']}.pdf prints solutions or kernels near exercises: {shown}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_the_folds_are_in_the_answer_key_only(pdf_dir, chapter):
    folds = answer_folds(chapter["stem"])
    assert folds, f"{chapter['stem']} has no answer fold"
    student, book, key = (flat("".join(pages(pdf_dir / name))) for name in
                          (f"{chapter['stem']}.pdf", "book.pdf", f"{chapter['stem']}-answers.pdf"))
    for texts in folds:
        assert texts, "a fold with nothing of its own to look for"
        for text in texts:
            assert flat(text) in key, f"the answer key lacks {text!r}"
            assert flat(text) not in student and flat(text) not in book, f"a student handout prints {text!r}"


# --- the notebooks in JupyterLab ----------------------------------------------------------------------------

def _shown(cell) -> str:
    """What JupyterLab shows of a cell: its source and a code cell's printed outputs, unless hidden by metadata."""
    flags = cell["metadata"].get("jupyter", {})
    text = "" if flags.get("source_hidden") else hidden_cells.source(cell)
    if cell["cell_type"] == "code" and not flags.get("outputs_hidden"):
        text += "\n" + "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                               for o in cell.get("outputs", []))
    return text


def _screen_lines(text: str) -> int:
    """Lines a text takes in JupyterLab, about 100 columns wide (a Chinese character takes two)."""
    return sum(max(1, math.ceil((len(line) + len(re.findall(r"[\u3000-\u9fff\uff00-\uffef]", line))) / 100))
               for line in text.splitlines())


def _pictures(cell) -> int:
    """The pictures JupyterLab shows under a code cell (a figure takes about 15 lines of a screen)."""
    if cell["cell_type"] != "code" or cell["metadata"].get("jupyter", {}).get("outputs_hidden"):
        return 0
    return sum("image/png" in o.get("data", {}) for o in cell.get("outputs", []))


def _around(cells, first: int, last: int) -> str:
    """The text JupyterLab shows in the cells within a screen before `first` and after `last`."""
    seen = []
    for step, start in ((-1, first - 1), (1, last + 1)):
        budget, i = SCREEN_LINES, start
        while 0 <= i < len(cells) and budget > 0:
            text = _shown(cells[i])
            seen.append(text)
            budget -= _screen_lines(text) + 15 * _pictures(cells[i]) + 1
            i += step
    return "\n".join(seen)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_the_notebook_shows_no_answer_near_its_box(chapter):
    cells = load(f"{chapter['stem']}.ipynb")["cells"]
    at = [i for i, c in enumerate(cells) if "answer-box" in c["metadata"].get("tags", [])]
    chapter_boxes = _chapter_boxes(chapter["stem"])
    assert len(at) == len(chapter_boxes)
    shown = {box.label: found for i, box in zip(at, chapter_boxes, strict=True)
             if (found := giveaways(_around(cells, i, i), box))}
    assert shown == {}, f"{chapter['stem']}.ipynb shows answers in JupyterLab near their boxes: {shown}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c["stem"])
def test_the_notebook_shows_no_solution_or_kernel_near_an_exercise(chapter):
    cells = load(f"{chapter['stem']}.ipynb")["cells"]
    shown = {}
    for exercise in exercises(chapter["stem"]):
        first = next(i for i, c in enumerate(cells) if re.search(rf"^:label: {exercise.label}$", hidden_cells.source(c),
                                                                  flags=re.M))
        gated = "{exercise-start}" in hidden_cells.source(cells[first])
        last = next(i for i in range(first, len(cells)) if "{exercise-end}" in hidden_cells.source(cells[i])) \
            if gated else first
        own = "\n".join(_shown(c) for c in cells[first:last + 1])
        found = _exercise_failures(chapter["stem"], exercise.label, own + "\n" + _around(cells, first, last))
        if found:
            shown[exercise.label] = found
    assert shown == {}, f"{chapter['stem']}.ipynb shows solutions or kernels in JupyterLab near exercises: {shown}"
