"""Benchmark rows for the PDF handouts (imported by scripts/benchmark.py): time of one full build."""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOAL = "< 120 s"


def rows() -> list[dict]:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_pdf
    finally:
        sys.path.pop(0)
    what = f"PDF build: {len(build_pdf.chapters())} handout(s) + answer key(s) + book"
    missing = build_pdf.missing_packages()
    if missing:
        return [{"what": what, "value": "skipped: missing " + " ".join(missing), "goal": GOAL}]
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_pdf.py"), "--out", out],
                              cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        counts = [build_pdf.page_count(pdf) for pdf in Path(out).glob("*.pdf")]
    pages = str(sum(int(c) for c in counts)) if all(c.isdigit() for c in counts) else "?"
    value = f"{seconds:.1f} s" + ("" if proc.returncode == 0 else " (failed)")
    return [{"what": what, "value": value, "goal": GOAL},
            {"what": "PDF pages built (all files)", "value": pages, "goal": "-"}]


if __name__ == "__main__":
    for row in rows():
        print(row)
