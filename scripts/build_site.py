#!/usr/bin/env python3
"""Build the site as `make site` does: `jupyter-book build . -W -n --keep-going`, warnings as errors.

Usage: scripts/build_site.py [--out DIR] [--stored-outputs]
  --out DIR         build into DIR/_build/html instead of the book's own _build/html (the tests, the benchmarks),
                    with the course wheel in DIR/_build/kit (built here when it is not there yet)
  --stored-outputs  show the outputs stored in the notebooks instead of running them again (the test suite:
                    nbval checks that a fresh run in the learner's kit gives those outputs)

Both options, and scripts/build_pdf.py, build from a copy of _config.yml (`write_config_copy`), read by
`jupyter-book build --config COPY` from another folder, so paths in it are made absolute. With a cache folder,
the notebooks are executed into that fresh folder (scripts/build_pdf.py without --stored-outputs). The book's
own _config.yml keeps `execute_notebooks: force`: a long-lived cache keys on notebook code only and would miss
labcode changes.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def write_config_copy(path: Path, cache: Path | None, sphinx_config: dict | None = None,
                      extensions: dict | None = None) -> Path:
    """Write _config.yml to `path`, executing through `cache` (None: stored outputs), with extra Sphinx
    settings and local extensions."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    execute = config.setdefault("execute", {})
    if cache is None:
        execute.update(execute_notebooks="off")
    else:
        execute.update(execute_notebooks="cache", cache=str(cache))
    sphinx = config.setdefault("sphinx", {})
    local = {name: str(ROOT / folder) for name, folder in (sphinx.get("local_extensions") or {}).items()}
    sphinx["local_extensions"] = {**local, **(extensions or {})}
    settings = sphinx.setdefault("config", {})
    for key in ("html_static_path", "latex_additional_files"):
        settings[key] = [str(ROOT / entry) for entry in settings.get(key, [])]
    settings.update(sphinx_config or {})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def command(out: Path | None = None, config: Path | None = None) -> list[str]:
    """The site build: into `out` (default: the book's own _build), from `config` (default: _config.yml)."""
    cmd = [str(Path(sys.executable).with_name("jupyter-book")), "build", str(ROOT), "-W", "-n", "--keep-going"]
    if config is not None:
        cmd += ["--config", str(config)]
    if out is not None:
        cmd += ["--path-output", str(out)]
    return cmd


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--out", type=Path, help="build into OUT/_build/html")
    parser.add_argument("--stored-outputs", action="store_true", help="show the stored outputs, run nothing")
    args = parser.parse_args(argv)
    out = args.out.resolve() if args.out else None
    if out is not None and not list((out / "_build" / "kit").glob("*.whl")):
        import build_kit  # a site built elsewhere offers the course package too, as `make site` does

        build_kit.build_wheel(out / "_build" / "kit")
    config = write_config_copy((out or ROOT / "_build") / "_config_stored.yml", None) if args.stored_outputs else None
    return subprocess.run(command(out, config), cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
