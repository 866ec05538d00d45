"""Timings of grading without a server (labcode.grade): 30 students' chapter-4 notebooks (scripts/sample_submissions.py:
right, wrong, edited and broken ones, one of each kind in turn but the one that defeats every time limit), graded
with the default limits, two notebooks at a time."""
from __future__ import annotations

import statistics
import tempfile
import time

import sample_submissions
from benchmark import row
from labcode.grade import Limits
from labcode.grade.batch import grade_folder

STUDENTS = 30


def rows(site):
    kinds = [kind for kind in sample_submissions.KINDS if kind != "stuck"]
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as folder:
        expected = sample_submissions.write(folder, STUDENTS, (4,), kinds)
        start = time.perf_counter()
        graded, notebooks, _ = grade_folder(folder, jobs=2)
        elapsed = time.perf_counter() - start
    seconds = [run["seconds"] for own in notebooks.values() for run in own.values() if "seconds" in run]
    wrong = sum(not agrees(r, expected[r.student, r.exercise.function]) for r in graded)
    bound = -(-len(seconds) // 2) * Limits().notebook_seconds
    check = "" if not wrong else f" ({wrong} rows not as expected)"
    return [row(f"grading {len(seconds)} notebooks of {STUDENTS} students (chapter 4, {len(graded)} rows), 2 jobs",
                f"{elapsed:.1f} s{check}", f"< 60 s; never > {bound:.0f} s (deadlines)"),
            row("grading: one notebook in its own process (median, slowest)",
                f"{statistics.median(seconds):.2f} s, {max(seconds):.2f} s", "median < 2 s")]


def agrees(graded, want):
    """The row says what scripts/sample_submissions.py meant: passed, the named mistake, or a word of the note."""
    if want == "pass":
        return graded.passed
    kind, value = want.split(":", 1)
    return not graded.passed and (graded.mistake_key == value if kind == "mistake" else value in graded.note)
