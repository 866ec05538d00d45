"""Run one of web/'s Node scripts on JSON: the request on stdin, the answer on stdout.

The site build typesets formulas (web/render_maths.cjs) and writes the answer boxes' HTML (web/render_boxes.mjs) this
way (the worksheets keep one Node process for their many requests: scripts/box_variants.py).
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path


def run(script: Path, request, *, needs: Path, missing: str, error: type[Exception] = RuntimeError,
        cwd: Path | None = None):
    """`script`'s answer to `request`. Raise `error(missing)` when node or `needs` (what `make assets` writes) is
    absent, and `error` with the end of the script's stderr when it fails."""
    node = shutil.which("node")
    if node is None or not needs.exists():
        raise error(missing)
    proc = subprocess.run([node, str(script)], input=json.dumps(request, ensure_ascii=False), capture_output=True,
                          text=True, encoding="utf-8", check=False, cwd=cwd)
    if proc.returncode != 0:
        raise error(f"web/{script.name} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout)
