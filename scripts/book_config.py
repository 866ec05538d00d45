"""A copy of _config.yml for a build that executes the notebooks through a shared jupyter-cache.

`jupyter-book build --config COPY` reads the copy from another folder, so paths in it are made absolute.
Builds that pass the same fresh cache folder run each notebook once between them (the PDF handouts of
scripts/build_pdf.py, and the test suite's site and PDF builds). The book's own _config.yml keeps
`execute_notebooks: force`: a long-lived cache keys on notebook code only and would miss labcode changes.
"""
from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def write_cached_config(path: Path, cache: Path, sphinx_config: dict | None = None,
                        extensions: dict | None = None) -> Path:
    """Write _config.yml to `path` with execution from `cache`, extra Sphinx settings and local extensions."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config.setdefault("execute", {}).update(execute_notebooks="cache", cache=str(cache))
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
