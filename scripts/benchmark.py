"""Print one table of the project's timings: site and PDF builds, the test suite, and every scripts/bench_*.py row
(bench_widgets.py: the widgets in the kernel and in Chromium; bench_bigram.py: the chapter-4 maths), then the tables
of the benches that print their own, such as the page weights of scripts/bench_pages.py.

Usage: `make bench` (everything) or `python scripts/benchmark.py --skip-tests` (leave out the slow test-suite rows,
which time `make test` in a fresh clone of HEAD: commit first to measure a change).
Goals are printed next to measurements; nothing here fails on a slow number.
"""
from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(cmd) -> tuple[float, bool]:
    """Seconds the command took, and whether it succeeded."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, proc.returncode == 0


def shown(seconds, ok, fmt="{:.1f} s"):
    return fmt.format(seconds) + ("" if ok else " (failed)")


def build_rows():
    import build_pdf
    import build_site

    missing = build_pdf.missing_packages()
    with tempfile.TemporaryDirectory() as out:
        cold = timed(build_site.command(Path(out)))
        cached = timed(build_site.command(Path(out)))
        if not missing:
            pdf = timed([sys.executable, str(ROOT / "scripts" / "build_pdf.py"), "--out", out])
            pages = sum(int(build_pdf.page_count(p)) for p in Path(out).glob("*.pdf"))
    return [{"what": "site build, cold (fresh output folder)", "value": shown(*cold), "goal": "-"},
            {"what": "site build, cached (same folder again)", "value": shown(*cached), "goal": "-"},
            {"what": f"PDF build: {len(build_pdf.chapters())} handouts + answer keys + book"
                     + ("" if missing else f" ({pages} pages)"),
             "value": f"skipped: missing {' '.join(missing)}" if missing else shown(*pdf), "goal": "< 120 s"}]


def test_rows():
    """`make test` as a new contributor runs it: in a fresh clone of HEAD, creating its .venv (pip's cache helps)."""
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        start = time.perf_counter()
        setup = subprocess.run(["make", "assets"], cwd=clone, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        installed = time.perf_counter()
        suite = subprocess.run(["make", "test"], cwd=clone, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        done = time.perf_counter()
    set_up, tested = setup.returncode == 0, suite.returncode == 0
    what = "make test from a fresh clone"
    return [{"what": f"{what}: .venv and assets", "value": shown(installed - start, set_up), "goal": "-"},
            {"what": f"{what}: the tests (JOBS=2)", "value": shown(done - installed, tested), "goal": "-"},
            {"what": f"{what}: total", "value": shown(done - start, set_up and tested), "goal": "< 300 s on 2 cores"}]


def plugins():
    return [importlib.import_module(path.stem) for path in sorted((ROOT / "scripts").glob("bench_*.py"))]


def plugin_rows(modules):
    return [row for module in modules for row in module.rows()]


def plugin_tables(modules):
    """Tables of their own (a `table()` function), for measures with several columns, such as page weights."""
    return [module.table() for module in modules if hasattr(module, "table")]


def print_table(rows):
    width = max(len(r["what"]) for r in rows)
    vwidth = max(len(r["value"]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>{vwidth}}  goal")
    print(f"{'-' * width}  {'-' * vwidth}  ----")
    for r in rows:
        print(f"{r['what']:<{width}}  {r['value']:>{vwidth}}  {r['goal']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-tests", action="store_true", help="leave out the test-suite row")
    parser.add_argument("--skip-builds", action="store_true", help="leave out the site- and PDF-build rows")
    args = parser.parse_args()
    rows = [] if args.skip_builds else build_rows()
    rows += [] if args.skip_tests else test_rows()
    modules = list(plugins())
    rows += plugin_rows(modules)
    print_table(rows)
    for table in plugin_tables(modules):
        print()
        print(table)


if __name__ == "__main__":
    main()
