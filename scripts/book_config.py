"""A copy of _config.yml for a build that runs the notebooks through a shared jupyter-cache, or not at all.

`jupyter-book build --config COPY` reads the copy from another folder, so paths in it are made absolute.
- With a cache folder, builds that pass the same fresh folder run each notebook once between them (the
  two Sphinx builds of scripts/build_pdf.py).
- Without one, the build prints the outputs stored in the notebooks. The test suite builds the site and
  the PDFs this way: tests/test_kit.py checks that a fresh run of every notebook writes exactly those
  outputs, so running them again in each build would add nothing.
The book's own _config.yml keeps `execute_notebooks: force`: a long-lived cache keys on notebook code
only and would miss labcode changes.
"""
from __future__ import annotations

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
