"""The answer boxes' page script (labcode/widgets/static/answer_box.page.js) run in Node, with no page around it."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import require_tool
from labcode.widgets._family import STATIC


def run_page_script(tmp_path: Path, body: str):
    """The page script in Node with no page around it; `body` (JavaScript) prints one JSON value."""
    node = require_tool("node", "sudo apt-get install nodejs (also needed for `make assets`)")
    (tmp_path / "page.js").write_text((STATIC / "answer_box.page.js").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "run.js").write_text(
        'globalThis.window = globalThis;\n'
        'globalThis.document = { readyState: "complete", querySelectorAll: () => [] };\n'
        'globalThis.location = { pathname: "/book/test.html", hash: "" };\n'
        'globalThis.addEventListener = () => {};\n'
        'require("./page.js");\n' + body, encoding="utf-8")
    proc = subprocess.run([node, "run.js"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)
