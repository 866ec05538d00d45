#!/usr/bin/env python3
"""Build the learner's kit: the course package `labcode` as a pure Python wheel, in _build/kit/ (`make kit`).

`make build` runs this before the site, and the site serves the wheel beside the chapter notebooks
(_ext/learner_kit.py). The wheel is built by uv from a copy of pyproject.toml and labcode/ in a temporary
folder, so the working tree gets no build/ or *.egg-info folder and two builds can run side by side. Dates
inside the wheel come from SOURCE_DATE_EPOCH, fixed here: the same sources give the same bytes. Older
wheels in the output folder are removed, so the site links the one that is there.

Usage: scripts/build_kit.py [--out DIR] [--tag vX.Y.Z]
  --tag  the release tag the wheel is built for (.github/workflows/pypi.yml): stop unless it names the
         version in pyproject.toml.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "_build" / "kit"
# 2026-01-01 00:00 UTC: any fixed date makes the zip entries, and so the wheel's bytes, reproducible.
SOURCE_DATE_EPOCH = "1767225600"


def build_wheel(out: Path = OUT) -> Path:
    """Build the wheel into `out` (created if needed, older wheels removed); returns its path.

    Raises RuntimeError when uv is missing or the build fails."""
    uv = Path(sys.executable).with_name("uv")
    if not uv.exists():
        raise RuntimeError(f"{uv} is missing: `make` installs uv into .venv (see the Makefile)")
    out = Path(out).resolve()
    with tempfile.TemporaryDirectory(prefix="kit-") as tmp:
        shutil.copyfile(ROOT / "pyproject.toml", Path(tmp, "pyproject.toml"))
        shutil.copytree(ROOT / "labcode", Path(tmp, "labcode"), ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        built = Path(tmp, "dist")
        env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
        proc = subprocess.run([str(uv), "build", "--wheel", "--quiet", "--out-dir", str(built), tmp],
                              capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise RuntimeError(f"uv build failed:\n{proc.stdout}{proc.stderr}")
        [wheel] = built.glob("*.whl")
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.whl"):
            old.unlink()
        return Path(shutil.copyfile(wheel, out / wheel.name))


def check_tag(tag: str) -> None:
    """Raise RuntimeError unless `tag` is "v" followed by the version in pyproject.toml."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    if tag != f"v{version}":
        raise RuntimeError(f"the tag {tag!r} does not name the version in pyproject.toml ({version}): "
                           f"tag the release v{version}, or change the version first")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"default: {OUT.relative_to(ROOT)}")
    parser.add_argument("--tag", help="the release tag, which must be v<version>")
    args = parser.parse_args()
    try:
        if args.tag is not None:
            check_tag(args.tag)
        wheel = build_wheel(args.out)
    except RuntimeError as error:
        sys.exit(str(error))
    print(f"built {wheel.relative_to(ROOT) if wheel.is_relative_to(ROOT) else wheel} "
          f"({wheel.stat().st_size / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
