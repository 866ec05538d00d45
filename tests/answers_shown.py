"""What gives an answer away, and a search for it in what a reader sees.

Nothing here is copied from the book: each answer box's value comes from its own problem (labcode.practice.problems
computes it from the box's options; the box's exact form too), each exercise's giveaways from the cells of its
solution (scripts/hidden_cells.py finds them), and labcode's own kernels from the notebooks' ``inspect.getsource``
printouts. `giveaways(text, box)` finds a box's value in a text as the book prints numbers: decimals rounded to two
places or more (one place or none where that is exact: 0.2, 2.0), fractions (4/7, \\tfrac{4}{7}, a MathML fraction
written 4/7), the box's exact form (ln(7/2)), and a vector as a run of its components or as all but one of its
non-integer components.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

import hidden_cells
from notebook_outputs import BOOK, book_boxes, load


@dataclass(frozen=True)
class Box:
    stem: str
    label: str
    answer: tuple[float, ...]   # one value for a scalar answer
    vector: bool
    exact: str | None           # the exact form as the key prints it, e.g. "ln(7/2)"


@functools.cache
def boxes() -> tuple[Box, ...]:
    """Every answer box of the book, its answer computed by labcode.practice.problems from the box's own options."""
    from labcode.practice.problems import box_problem

    found = []
    for stem, kind, options in book_boxes():
        problem = box_problem(kind, options["label"], {k: v for k, v in options.items() if k != "label"})
        vector = isinstance(problem.answer, list)
        found.append(Box(stem, options["label"], tuple(problem.answer) if vector else (problem.answer,), vector,
                         problem.exact))
    return tuple(found)


# --- numbers as the book prints them -----------------------------------------------------------------------------

TEX_FRACTION = re.compile(r"\\[dt]?frac\s*(\{[^{}]*\}|[^\s{}\\])\s*(\{[^{}]*\}|[^\s{}\\])")
TOKEN = re.compile(r"(?<![\w.])(-?)(\d+(?:\.\d+)?)(?:/(\d+))?(?![\d/])")
BEFORE_NUMBER = re.compile(r"(?:得|=|＝|为|是)\s*$")   # “除以 5 得 2”: an integer stated as a result


def normalise(text: str) -> str:
    """One spelling for the book's numbers: ASCII minus, TeX fractions as a/b, no space around / or after a sign."""
    text = text.replace("\u2212", "-").replace("\u2061", "").replace("\\,", " ").replace("\\ ", " ")
    text = TEX_FRACTION.sub(lambda m: f"{m[1].strip('{}')}/{m[2].strip('{}')}", text)
    text = re.sub(r"(?<=\d)\s*/\s*(?=\d)", "/", text)
    return re.sub(r"(?<![\w)\]])-\s+(?=\d)", "-", text)


@dataclass(frozen=True)
class Token:
    value: float
    decimals: int | None    # None for a fraction
    text: str
    start: int


def tokens(text: str) -> list[Token]:
    found = []
    for m in TOKEN.finditer(text):
        sign, number, denominator = m.groups()
        if denominator is not None:
            if float(denominator) in (0.0, 1.0):
                continue
            value, decimals = float(number) / float(denominator), None
        else:
            value, decimals = float(number), len(number.split(".")[1]) if "." in number else 0
        found.append(Token(-value if sign else value, decimals, m.group(0), m.start()))
    return found


def _close(token: Token, value: float) -> bool:
    """Does the token print `value` (up to its sign: a sign slip still gives the magnitude away)?"""
    if token.decimals is None:
        return abs(abs(token.value) - abs(value)) <= 1e-9 * max(1.0, abs(value))
    return abs(abs(token.value) - abs(value)) <= 0.5 * 10.0 ** -token.decimals + 1e-12


def _telling(token: Token, value: float) -> bool:
    """Does the token print `value` precisely enough to give it away on its own? A fraction, two decimals or more,
    or fewer where they are exact (0.2, 2.0); a bare integer does not (it may be any count in the text)."""
    if not _close(token, value):
        return False
    if token.decimals is None or token.decimals >= 2:
        return True
    return token.decimals >= 1 and abs(round(value, token.decimals) - value) < 1e-12


def _compact(text: str) -> str:
    return re.sub(r"[\s(){}\\$]", "", normalise(text)).replace("·", "*")


def giveaways(text: str, box: Box) -> list[str]:
    """The pieces of `text` that give the box's answer away (empty: none)."""
    text = normalise(text)
    found = tokens(text)
    shown = []
    if box.exact and len(_compact(box.exact)) >= 4 and _compact(box.exact) in _compact(text):
        shown.append(f"the exact form {box.exact}")
    n = len(box.answer)
    for k in range(len(found) - n + 1 if n > 1 else 0):   # a run of the components, in order (integers count here)
        run = found[k:k + n]
        if all(_close(t, v) and (t.decimals != 0 or v == round(v)) for t, v in zip(run, box.answer, strict=True)):
            shown.append(f"the run {' '.join(t.text for t in run)!r} at {run[0].start}")
    # Components one at a time: a scalar, or all but one of a vector's non-integer components (a small integer
    # such as 1 in [4, 1] gives nothing away on its own).
    telling = [next((t.text for t in found if _telling(t, v)), None) for v in box.answer
               if not box.vector or v != round(v)]
    if not box.vector and telling[0]:
        shown.append(f"{telling[0]!r}")
    elif box.vector and telling and sum(t is not None for t in telling) >= max(1, len(telling) - 1):
        shown.append(f"components {[t for t in telling if t]}")
    if not box.vector and box.answer[0] == round(box.answer[0]):
        stated = [t.text for t in found if t.decimals == 0 and t.value == box.answer[0]
                  and BEFORE_NUMBER.search(text[:t.start])]
        shown += [f"{s!r} stated as a result" for s in stated]
    return shown


# --- exercises, solutions and labcode's kernels, from the notebooks ----------------------------------------------

CJK_RUN = re.compile(r"[\u4e00-\u9fff]{6,}")
EXERCISE_LABEL = re.compile(r"^(?:```\{exercise-start\}|:::\{exercise\}).*\n:label: (\S+)", re.M)
SOLUTION_OF = re.compile(r"\{solution-start\} (\S+)")
PASSED = re.compile(r"^check_\w+：通过（全部 \d+ 项）", re.M)


@dataclass(frozen=True)
class Exercise:
    stem: str
    label: str
    solution: tuple[str, ...]   # texts of its solution that the book shows nowhere outside folds


def _text_of(cell) -> str:
    outputs = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                      for o in cell.get("outputs", []))
    return hidden_cells.source(cell) + "\n" + outputs


def _giveaway_texts(cells, inside: list[int]) -> tuple[str, ...]:
    """What only the cells `inside` a fold show, nowhere shown outside folds in the book: the longest such run of
    Chinese text (six characters or more) of each markdown cell, the code lines of twenty characters or more, the
    printed lines of twelve or more, a check's passing report."""
    def own(text):
        return re.sub(r"\s+", "", text) not in _outside()

    texts = []
    for i in inside:
        cell = cells[i]
        if cell["cell_type"] == "markdown":
            runs = sorted(CJK_RUN.findall(hidden_cells.source(cell)), key=len, reverse=True)
            texts += [run for run in runs if own(run)][:1]
            continue
        printed = "".join("".join(o.get("text", "")) for o in cell.get("outputs", []))
        texts += [line.strip() for line in hidden_cells.source(cell).splitlines()
                  if len(line.strip()) >= 20 and not line.strip().startswith("#") and own(line)]
        texts += [line.strip() for line in printed.splitlines() if len(line.strip()) >= 12 and own(line)]
        texts += [report for report in PASSED.findall(_text_of(cell)) if own(report)]
    return tuple(dict.fromkeys(texts))


@functools.cache
def _outside() -> str:
    """Everything the book shows outside folds and solutions (every page of book.pdf), without whitespace."""
    texts = [(BOOK / "glossary.md").read_text(encoding="utf-8")]
    for path in [BOOK.parent / "intro.ipynb", *sorted(BOOK.glob("*.ipynb"))]:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        inside = set(hidden_cells.folded(cells))
        texts += [_text_of(c) for i, c in enumerate(cells) if i not in inside]
    return re.sub(r"\s+", "", "\n".join(texts))


@functools.cache
def exercises(stem: str) -> tuple[Exercise, ...]:
    """Each exercise of a chapter, in order, with the giveaways of its solution (`_giveaway_texts`)."""
    cells = load(f"{stem}.ipynb")["cells"]
    solutions = {}
    for start, end in hidden_cells.folds(cells):
        label = SOLUTION_OF.search(hidden_cells.source(cells[start]))
        if label:
            solutions[label.group(1)] = list(range(start + 1, end))
    prose = "\n".join(hidden_cells.source(c) for c in cells if c["cell_type"] == "markdown")
    return tuple(Exercise(stem, label, _giveaway_texts(cells, solutions.get(label, [])))
                 for label in EXERCISE_LABEL.findall(prose))


@functools.cache
def answer_folds(stem: str) -> tuple[tuple[str, ...], ...]:
    """The giveaways of each answer fold of a chapter (`_giveaway_texts`), in order."""
    cells = load(f"{stem}.ipynb")["cells"]
    return tuple(_giveaway_texts(cells, list(range(start + 1, end)))
                 for start, end in hidden_cells.folds(cells) if "{answer-start}" in hidden_cells.source(cells[start]))


@functools.cache
def kernels(stem: str) -> tuple[str, ...]:
    """The first line (``def _name(…):``) of each function a chapter prints with inspect.getsource."""
    lines = []
    for cell in load(f"{stem}.ipynb")["cells"]:
        if cell["cell_type"] == "code" and "inspect.getsource(" in hidden_cells.source(cell):
            lines += re.findall(r"^def _\w+\(.*\):$", _text_of(cell), flags=re.M)
    return tuple(lines)


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)
