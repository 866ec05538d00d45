"""Print one table of the project's timings: site and PDF builds, the test suite, and the rows of every
scripts/bench_*.py (bench_widgets.py: the widgets in the kernel and in Chromium; bench_bigram.py: the chapter-4
maths; bench_pages.py: each page's weight and time to usable on a slow phone network).

Usage: `make bench` (everything), `python scripts/benchmark.py --skip-tests` (leave out the slow test-suite rows,
which time `make test` and `make check` in a fresh clone of HEAD: commit first to measure a change), or name
benches to run only those (`python scripts/benchmark.py --skip-tests --skip-builds bigram`). The benches share one
site build (`site()`, built when one first asks). Goals are printed next to measurements; nothing here fails on
a slow number.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD_SITE = [sys.executable, str(ROOT / "scripts" / "build_site.py")]


def timings(fn, n: int) -> list[float]:
    """Seconds of each of `n` calls fn(i)."""
    times = []
    for i in range(n):
        start = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - start)
    return times


def ms(values: list[float]) -> str:
    """Median and 95th percentile of timings given in milliseconds."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(values):.3f} ms, p95 {p95:.3f} ms"


def timed(cmd, cwd=ROOT) -> str:
    """Seconds the command took, marked when it failed."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return f"{time.perf_counter() - start:.1f} s" + ("" if proc.returncode == 0 else " (failed)")


def row(what: str, value: str, goal: str = "-") -> dict:
    return {"what": what, "value": value, "goal": goal}


def build_rows(out: Path) -> list[dict]:
    """The site built cold then again into `out` (the benches use it), and the PDFs."""
    import build_pdf

    missing = build_pdf.missing_packages()
    rows = [row("site build, cold (fresh output folder, wheel included)", timed([*BUILD_SITE, "--out", str(out)])),
            row("site build, cached (same folder again)", timed([*BUILD_SITE, "--out", str(out)]))]
    if missing:
        return [*rows, row("PDF build", f"skipped: missing {' '.join(missing)}")]
    pdf = timed([sys.executable, str(ROOT / "scripts" / "build_pdf.py"), "--out", str(out / "pdf")])
    pages = sum(int(build_pdf.page_count(p)) for p in (out / "pdf").glob("*.pdf"))
    return [*rows, row(f"PDF build: {len(build_pdf.chapters())} handouts + answer keys + book ({pages} pages)", pdf,
                       "< 120 s")]


def test_rows() -> list[dict]:
    """`make test` as a new contributor runs it: in a fresh clone of HEAD, creating its .venv (uv's cache helps);
    then `make check`, the edit-test loop, in the same clone."""
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        start = time.perf_counter()
        set_up = timed(["make", "assets"], clone)
        tested = timed(["make", "test"], clone)
        total = f"{time.perf_counter() - start:.1f} s" + ("" if "failed" not in set_up + tested else " (failed)")
        checked = timed(["make", "check"], clone)
    what = "make test from a fresh clone"
    return [row(f"{what}: .venv and assets", set_up), row(f"{what}: the tests (JOBS=2)", tested),
            row(f"{what}: total", total, "< 300 s on 2 cores"),
            row("make check: ruff, unit tests, doctests (JOBS=2)", checked, "< 30 s on 2 cores")]


def print_table(rows: list[dict]) -> None:
    width = max(len(r["what"]) for r in rows)
    vwidth = max(len(r["value"]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>{vwidth}}  goal")
    print(f"{'-' * width}  {'-' * vwidth}  ----")
    for r in rows:
        print(f"{r['what']:<{width}}  {r['value']:>{vwidth}}  {r['goal']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("benches", nargs="*", help="only these scripts/bench_NAME.py (default: all)")
    parser.add_argument("--skip-tests", action="store_true", help="leave out the test-suite rows")
    parser.add_argument("--skip-builds", action="store_true", help="leave out the site- and PDF-build rows")
    args = parser.parse_args()
    names = args.benches or [p.stem.removeprefix("bench_") for p in sorted((ROOT / "scripts").glob("bench_*.py"))]
    with tempfile.TemporaryDirectory(prefix="bench-") as out:
        rows = [] if args.skip_builds else build_rows(Path(out))
        rows += [] if args.skip_tests else test_rows()

        @functools.cache
        def site() -> Path:
            """The built HTML: the build above, or one from the notebooks' stored outputs as the tests build it."""
            if args.skip_builds:
                subprocess.run([*BUILD_SITE, "--out", out, "--stored-outputs"], check=True, stdout=subprocess.DEVNULL)
            return Path(out) / "_build" / "html"

        for name in names:
            rows += importlib.import_module(f"bench_{name}").rows(site)
    print_table(rows)


if __name__ == "__main__":
    main()
