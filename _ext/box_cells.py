"""The answer boxes (动手算) as a chapter notebook writes them: a code cell tagged ``answer-box`` holding one call
with literal arguments, read with ``ast`` and never run, and the section the cell sits in.

The site's and the handouts' build (_ext/answer_box) reads each cell with ``read_call``; the worksheets
(scripts/worksheets.py) read a whole notebook with ``notebook_boxes``. Nothing here needs Sphinx.
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

TAG = "answer-box"
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})")


def read_call(source: str):
    """(kind, label, options) of ``labcode.practice.answer_box("kind", label="…", option=…)``, the values literals."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        raise ValueError(f"不是合法的 Python：{err.msg}") from None
    call = tree.body[0].value if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr) else None
    name = ast.unparse(call.func) if isinstance(call, ast.Call) else ""
    if not name.endswith("answer_box") or len(call.args) != 1 or any(k.arg is None for k in call.keywords):
        raise ValueError("单元格里只能有一个调用 labcode.practice.answer_box(\"题型\", label=\"…\", 选项=…)")
    try:
        kind, options = ast.literal_eval(call.args[0]), {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except ValueError:
        raise ValueError("题型和选项只能直接写字符串或数（不能用变量或表达式）") from None
    return kind, options.pop("label", None), options


@dataclass(frozen=True)
class NotebookBox:
    """One box of a notebook: its call, and the section it sits in, numbered as the site numbers it."""

    kind: str
    label: str
    options: dict     # the book's numbers (and exact=), as the call writes them
    section: str      # "1.3", "3.3.1", "A.5"
    title: str        # that section's heading, as the notebook writes it (maths in $…$)


def _headings(markdown: str):
    """(level, text) of each Markdown heading outside fenced blocks (code, MyST directives)."""
    fence = None
    for line in markdown.splitlines():
        mark = FENCE.match(line)
        if fence is None and mark:
            fence = mark.group(1)
        elif fence is not None:
            if mark and mark.group(1)[0] == fence[0] and len(mark.group(1)) >= len(fence) \
                    and not line.strip()[len(mark.group(1)):].strip():
                fence = None
        elif found := HEADING.match(line):
            yield len(found.group(1)), found.group(2)


def notebook_boxes(path: Path, number: str) -> list[NotebookBox]:
    """The boxes of the notebook at `path`, in order; `number` is its chapter's (“1”, or “A” for the appendix):
    its `##` headings are sections 1.1, 1.2, …, a `###` under 1.3 is 1.3.1, as on the site."""
    found, counts, section, title = [], [], number, ""
    for cell in json.loads(Path(path).read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for level, text in _headings(source):
                if level >= 2:                       # counts[i]: the current heading's number at level i + 2
                    counts = counts[:level - 1] + [0] * (level - 1 - len(counts))
                    counts[level - 2] += 1
                    section, title = ".".join([number, *map(str, counts)]), text
        elif TAG in cell.get("metadata", {}).get("tags", []):
            kind, label, options = read_call(source)
            found.append(NotebookBox(kind, label, options, section, title))
    return found
