"""What goes on each student's worksheet: the roster, the answer boxes (动手算) of the chosen chapters, and for each
student and box a variant of the box's problem, the one the site's box shows for that variant ID.

Each student's variants come from the course's salt and the student's id (HMAC-SHA256), so the instructor gets the
same sheets again from the roster and the salt, and nobody gets them from a student id alone. Some kinds have few
distinct problems (softmax about 300), so two students could draw the same one: the later student in the roster
then takes their next candidate. No two students of a roster share a problem of a box, and no problem takes the
numbers of a box of the book (the chapters work those out). Students added at the end of the roster leave the
earlier sheets as they were.
"""
from __future__ import annotations

import csv
import functools
import io
import json
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import book_layout
import box_variants
import chapter_registry
import labcode.grade.salt as course_salt
from box_cells import notebook_boxes
from box_latex import decimal_text, exact_text
from box_variants import variant_text
from labcode.practice.problems import Problem, box_problem, exact_form

ROOT = Path(__file__).resolve().parents[1]
TRIES = 4096          # candidates a student may go through for one box before the box runs out of problems
BATCH = 15            # candidates drawn with the first that is not known yet (then 4 times as many, …)
STUDENT = ("student", "student_id", "id", "学号")
NAME = ("name", "姓名")
KEY_COLUMNS = ["student", "name", "problem", "chapter", "section", "box", "kind", "variant", "exact", "decimal",
               "tolerance"]


class WorksheetError(ValueError):
    """The roster, the chapters, the salt or an answers file cannot be used; the message says which and why."""


# --- CSV files the instructor writes (the roster, the typed answers) -------------------------------------------

def _text(path: Path) -> str:
    """UTF-8 (with or without the BOM Excel writes), or GB18030 (Excel's plain “CSV” on Chinese Windows)."""
    data = Path(path).read_bytes()
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            pass
    raise WorksheetError(f"{path}：读不出来，请存成 UTF-8 或 GBK 编码的 CSV")


def read_table(path: Path, columns: dict[str, tuple[str, ...]], required: set[str]) -> list[tuple[int, dict]]:
    """(line number, {column: text}) of each non-blank row of a CSV file. The first row is a header when one of
    its cells names a column (any of its names in `columns`, case aside); otherwise the columns come in the
    order of `columns`. Columns not named are ignored."""
    reader = csv.reader(io.StringIO(_text(path), newline=""))
    rows = [(reader.line_num, [cell.strip() for cell in row]) for row in reader if any(cell.strip() for cell in row)]
    if not rows:
        raise WorksheetError(f"{path}：文件是空的")
    names = {alias.lower(): column for column, aliases in columns.items() for alias in aliases}
    header = [names.get(cell.lower()) for cell in rows[0][1]]
    if any(header):
        rows = rows[1:]
        missing = [columns[c][0] for c in columns if c in required and c not in header]
        if missing:
            raise WorksheetError(f"{path}：第一行是列名，但缺少 {'、'.join(missing)} 这一列")
    else:
        header = list(columns)
    return [(n, {column: cells[k] if k < len(cells) else "" for k, column in enumerate(header) if column})
            for n, cells in rows]


@dataclass(frozen=True)
class Student:
    id: str
    name: str


def read_roster(path: Path) -> list[Student]:
    """The students of a roster CSV: the student id, then the name (optional); see docs/instructors.md."""
    roster, seen = [], {}
    for line, row in read_table(path, {"student": STUDENT, "name": NAME}, {"student"}):
        student = row.get("student", "")
        if not student:
            raise WorksheetError(f"{path} 第 {line} 行：学号是空的")
        if student in seen:
            raise WorksheetError(f"{path} 第 {line} 行：学号 {student} 在第 {seen[student]} 行已经出现过")
        seen[student] = line
        roster.append(Student(student, row.get("name", "")))
    return roster


# --- the boxes of the chosen chapters ---------------------------------------------------------------------

@dataclass(frozen=True)
class Box:
    """An answer box of the book, where it sits and the problem it shows with the book's own numbers."""

    chapter: str        # "1", or "A" for the appendix
    chapter_label: str  # 第 1 章, 附录 A
    page: str           # its page on the site: book/01_probability_to_loss.html
    label: str          # ch1-ab-softmax
    kind: str
    section: str        # 1.3
    title: str          # the section's heading (Markdown: maths in $…$)
    book: Problem


def book_chapters() -> list[tuple[str, str]]:
    """(number, docname) of every chapter of the chapter registry: 1, 2, …, then A for the appendix."""
    return [(chapter.number, chapter.docname) for chapter in chapter_registry.chapters()]


def chapter_boxes(chapters: list[str]) -> list[Box]:
    """The answer boxes of the chapters numbered `chapters` (“1”, “2”, “A”), in the book's order."""
    known = dict(book_chapters())
    unknown = [c for c in chapters if c not in known]
    if unknown or not chapters:
        raise WorksheetError(f"--chapters：书里没有第 {'、'.join(unknown) or '?'} 章；可以选 {'、'.join(known)}"
                             "（附录写 A），用逗号隔开，如 1,2")
    boxes = [Box(number, book_layout.label(number), f"{docname}.html", box.label, box.kind, box.section, box.title,
                 box_problem(box.kind, box.label, box.options))
             for number, docname in known.items() if number in chapters
             for box in notebook_boxes(ROOT / f"{docname}.ipynb", number)]
    if not boxes:
        raise WorksheetError(f"--chapters：第 {'、'.join(chapters)} 章里没有“动手算”框")
    return boxes


# --- a student's variants -------------------------------------------------------------------------------

def check_salt(salt: str) -> None:
    """A worksheet needs the salt: without it, anyone could work out which variants a student gets."""
    try:
        course_salt.check_salt(salt)
    except (TypeError, ValueError) as err:
        raise WorksheetError(str(err)) from None


def candidate(salt: str, student: str, label: str, k: int) -> int:
    """The k-th variant ID a student may get for a box: HMAC-SHA256 of (student, box, k) keyed by the salt."""
    return int.from_bytes(course_salt.keyed(salt, student, label, k)[:2], "big")


def _rounded(x):
    return [_rounded(v) for v in x] if isinstance(x, list) else round(x, 9) if isinstance(x, float) else x


def _identity(problem: Problem) -> str:
    """Two variants are the same problem when they show the same numbers."""
    return json.dumps({k: _rounded(v) for k, v in problem.values.items()}, sort_keys=True)


@functools.cache
def _book_numbers() -> tuple[dict, ...]:
    """The numbers of every box of the book (the chapters print their answers)."""
    return tuple({k: _rounded(v) for k, v in box.book.values.items()}
                 for box in chapter_boxes([number for number, _ in book_chapters()]))


def in_book(problem: Problem) -> bool:
    """Does the book work out these numbers already: a box of the book has the same values for every option the
    two share (softmax of the loss box's z, a step from the gradient box's z and y)?"""
    mine = {k: _rounded(v) for k, v in problem.values.items()}
    return any(shared and all(mine[k] == values[k] for k in shared)
               for values in _book_numbers() for shared in [mine.keys() & values.keys()])


def _weights(z) -> list[Fraction]:
    """The a of z = ln a (the draws' weights 1/2, 1, 2, …, 6)."""
    return [Fraction(math.exp(x)).limit_denominator(2) for x in z]


def _ln(a: Fraction) -> str:
    return "0" if a == 1 else f"ln({a})" if a > 1 else f"-ln({1 / a})"


def _exact_source(problem: Problem) -> str | None:
    """The exact answer of a drawn loss or step (Python, as a box's exact= writes it); other kinds' answers are
    small fractions, which the key finds by itself."""
    if problem.kind == "loss":
        a, y = _weights(problem.values["z"]), problem.values["y"]
        return f"ln({sum(a) / a[y]})"
    if problem.kind == "step":
        a, y, lr = _weights(problem.values["z"]), problem.values["y"], Fraction(str(problem.values["lr"]))
        steps = [lr * (w / sum(a) - (k == y)) for k, w in enumerate(a)]       # η g_k
        parts = [(f"-({s})" if s > 0 else f"{-s}") if _ln(w) == "0" else f"{_ln(w)} {'-' if s > 0 else '+'} {abs(s)}"
                 for w, s in zip(a, steps, strict=True)]
        return "[" + ", ".join(parts) + "]"
    return None


def with_exact(problem: Problem) -> Problem:
    """The problem with the exact form of its answer for the key."""
    source = _exact_source(problem)
    return problem if source is None else replace(problem, exact=exact_form(source, problem.answer))


class Draws(dict):
    """{(box label, variant ID): problem}, drawn as the page draws them (scripts/box_variants.py), a batch per request:
    every student's first candidates at once, then, for a student whose first one is taken, the next ones."""

    def fetch(self, wanted) -> None:
        """Draw the (box, variant ID) pairs not drawn yet."""
        wanted = {(box.label, n): box.kind for box, n in wanted if (box.label, n) not in self}
        drawn = box_variants.draw([(kind, label, n) for (label, n), kind in wanted.items()], error=WorksheetError)
        self.update(zip(wanted, map(with_exact, drawn), strict=True))


@dataclass(frozen=True)
class Item:
    """One problem of a sheet: its number on the sheet, its box, its variant ID and the problem."""

    number: int
    box: Box
    variant: int
    problem: Problem

    @property
    def variant_id(self) -> str:
        return variant_text(self.variant)


@dataclass(frozen=True)
class Sheet:
    student: Student
    items: tuple[Item, ...]


def assign(roster: list[Student], boxes: list[Box], salt: str, per_box: int = 1) -> list[Sheet]:
    """Every student's sheet: `per_box` problems of each box, none shown to another student of the roster."""
    check_salt(salt)
    if not isinstance(per_box, int) or per_box < 1:
        raise WorksheetError(f"--per-box 是每个框出几道题，要一个正整数，收到 {per_box!r}")
    taken = {box.label: set() for box in boxes}
    draws = Draws()
    draws.fetch([(box, candidate(salt, student.id, box.label, k)) for student in roster for box in boxes
                 for k in range(per_box)])
    sheets = []
    for student in roster:
        items = []
        for box in boxes:
            ids = functools.partial(candidate, salt, student.id, box.label)
            start = 0
            for _ in range(per_box):
                start, number, problem = _free(box, ids, start, taken[box.label], len(roster) * per_box, draws)
                taken[box.label].add(_identity(problem))
                items.append(Item(len(items) + 1, box, number, problem))
        sheets.append(Sheet(student, tuple(items)))
    return sheets


def _free(box: Box, ids, start: int, taken: set[str], wanted: int, draws: Draws) -> tuple[int, int, Problem]:
    """The first candidate from the `start`-th on that is free: where to go on from, its variant ID, its problem."""
    ahead = BATCH
    for k in range(start, start + TRIES):
        number = ids(k)
        if (box.label, number) not in draws:   # the later students of a kind with few problems look further ahead
            draws.fetch((box, ids(j)) for j in range(k, k + ahead + 1))
            ahead *= 4
        problem = draws[box.label, number]
        if _identity(problem) not in taken and not in_book(problem):
            return k + 1, number, problem
    raise WorksheetError(f"{box.chapter_label}的框 {box.label} 的不同题目不够 {wanted} 道（已用 {len(taken)} 道）："
                         "减少 --per-box，或把名单分成几组、每组用不同的盐")


# --- the key as a table -----------------------------------------------------------------------------------

def _ascii(text: str) -> str:
    return text.replace("−", "-")


def key_rows(sheets: list[Sheet]) -> list[dict]:
    """key.csv: one row per student and problem, the answer exactly and in decimals, and the box's tolerance."""
    return [{"student": sheet.student.id, "name": sheet.student.name, "problem": item.number,
             "chapter": item.box.chapter, "section": item.box.section, "box": item.box.label, "kind": item.box.kind,
             "variant": item.variant_id,
             "exact": _ascii(exact_text(item.problem.answer, item.problem.exact) or ""),
             "decimal": _ascii(decimal_text(item.problem.answer, places=6, trim=True)),
             "tolerance": f"{item.problem.tolerance:g}"}
            for sheet in sheets for item in sheet.items]


def write_table(path: Path, columns: list[str], rows: list[dict]) -> None:
    """A CSV file in UTF-8 with a BOM, so that Excel shows the Chinese right; the first row names the columns."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8-sig", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
