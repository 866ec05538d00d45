"""Benchmark rows for the seeded worksheets: a class of 30, chapters 1 and 2, sheets and keys typeset offline, then
every student's typed answers graded (`python scripts/benchmark.py --skip-tests --skip-builds worksheets`)."""
from __future__ import annotations

import csv
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import build_pdf
from benchmark import row

ROOT = Path(__file__).resolve().parents[1]
STUDENTS = 30


def rows(site):
    if build_pdf.missing_packages():
        return [row(f"worksheets: {STUDENTS} students, chapters 1-2", "skipped: TeX missing")]
    with tempfile.TemporaryDirectory(prefix="bench-worksheets-") as tmp:
        roster, out = Path(tmp) / "roster.csv", Path(tmp) / "out"
        roster.write_text("学号,姓名\n" + "".join(f"2026{k:03d},学生{k}\n" for k in range(STUDENTS)), encoding="utf-8")
        start = time.perf_counter()
        made = subprocess.run([sys.executable, str(ROOT / "scripts" / "worksheets.py"), str(roster), "--chapters",
                               "1,2", "--out", str(out), "--salt", "benchmark-salt"], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if made.returncode != 0:
            return [row(f"worksheets: {STUDENTS} students, chapters 1-2", f"failed: {made.stderr[-200:]}")]
        pages = sum(int(build_pdf.page_count(p)) for p in (out / "worksheets").glob("*.pdf"))
        size = sum(p.stat().st_size for p in (out / "worksheets").glob("*.pdf")) / STUDENTS / 1024
        with (out / "private" / "key.csv").open(encoding="utf-8-sig", newline="") as source:
            key = list(csv.DictReader(source))
        answers = Path(tmp) / "answers.csv"
        with answers.open("w", encoding="utf-8", newline="") as typed:
            csv.writer(typed).writerows([["student", "problem", "answer"],
                                         *([r["student"], r["problem"], r["exact"]] for r in key)])
        start = time.perf_counter()
        graded = subprocess.run([sys.executable, str(ROOT / "scripts" / "grade_worksheets.py"), str(answers),
                                 "--key", str(out / "private" / "key.csv"), "--out", str(out)], capture_output=True)
        grading = time.perf_counter() - start
    return [row(f"worksheets: {STUDENTS} students, chapters 1-2, sheets + keys + key.csv ({pages} sheet pages, "
                f"{size:.0f} KB a sheet)", f"{seconds:.1f} s", "< 60 s"),
            row(f"worksheets: grade {len(key)} typed answers (the page's judge in Node)",
                f"{grading:.1f} s" + ("" if graded.returncode == 0 else " (failed)"), "< 10 s")]
