"""Print a table of the project's timings: site builds, the test suite, and every scripts/bench_*.py row.

Usage: `make bench` (everything) or `python scripts/benchmark.py --skip-tests` (leave out the slow test-suite row).
Goals are printed next to measurements; nothing here fails on a slow number.
"""
from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def timed(cmd) -> tuple[float, bool]:
    """Seconds the command took, and whether it succeeded."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, proc.returncode == 0


def shown(seconds, ok, fmt="{:.1f} s"):
    return fmt.format(seconds) + ("" if ok else " (failed)")


def build_rows():
    with tempfile.TemporaryDirectory() as out:
        cmd = [str(BIN / "jupyter-book"), "build", ".", "-W", "-n", "--keep-going", "--path-output", out]
        cold = timed(cmd)
        cached = timed(cmd)
    return [{"what": "site build, cold (fresh output folder)", "value": shown(*cold), "goal": "-"},
            {"what": "site build, cached (same folder again)", "value": shown(*cached), "goal": "-"}]


def test_rows():
    result = timed([sys.executable, "-m", "pytest", "-q"])
    return [{"what": "test suite (make test)", "value": shown(*result, fmt="{:.0f} s"), "goal": "< 90 min in CI"}]


def plugin_rows():
    rows = []
    for path in sorted((ROOT / "scripts").glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        rows += module.rows()
    return rows


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
    parser.add_argument("--skip-builds", action="store_true", help="leave out the site-build rows")
    args = parser.parse_args()
    rows = [] if args.skip_builds else build_rows()
    rows += [] if args.skip_tests else test_rows()
    rows += plugin_rows()
    print_table(rows)


if __name__ == "__main__":
    main()
