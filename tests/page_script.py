"""The answer boxes' page script run in Node with no page around it (web/answer_boxes.cjs, as the instructor's
tools run it)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import require_tool

HARNESS = Path(__file__).resolve().parents[1] / "web" / "answer_boxes.cjs"


def run_page_script(tmp_path: Path, body: str):
    """`body` (JavaScript, with the boxes' API as `labAnswerBoxes`) run in Node; it prints one JSON value."""
    node = require_tool("node", "sudo apt-get install nodejs (also needed for `make assets`)")
    (tmp_path / "run.js").write_text(f"const labAnswerBoxes = require({json.dumps(str(HARNESS))});\n{body}",
                                     encoding="utf-8")
    proc = subprocess.run([node, "run.js"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)
