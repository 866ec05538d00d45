"""Every labcode name the notebooks' code uses exists: `labcode.module.name` and `from labcode.module import name`,
private kernels the book prints included. Renaming one breaks a chapter, and this says so in `make check` (nbval,
which runs the chapters, is in `make test` only)."""
from __future__ import annotations

import ast
import importlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = [ROOT / "intro.ipynb", *sorted((ROOT / "book").glob("*.ipynb"))]


def used_names(source: str) -> set[tuple[str, str]]:
    """(module, name) for each `from labcode… import name` and each dotted `labcode.….name` in the code."""
    try:
        tree = ast.parse(source)
    except SyntaxError:   # IPython magics, a reader's skeleton with "..." lines: checked by nbval
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "labcode":
            found |= {(node.module, alias.name) for alias in node.names}
        elif isinstance(node, ast.Attribute):
            parts, value = [node.attr], node.value
            while isinstance(value, ast.Attribute):
                parts.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id == "labcode":
                dotted = ["labcode", *reversed(parts)]
                found.add((".".join(dotted[:-1]), dotted[-1]))
    return found


def resolves(module: str, name: str) -> bool:
    parts = module.split(".")
    for k in range(len(parts), 0, -1):   # labcode.probability._softmax: a module, then attributes
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for attr in [*parts[k:], name]:
            if not hasattr(obj, attr):
                try:
                    obj = importlib.import_module(f"{obj.__name__}.{attr}")
                    continue
                except (ImportError, AttributeError):
                    return False
            obj = getattr(obj, attr)
        return True
    return False


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_labcode_name_a_notebook_uses_exists(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    used = set().union(*(used_names("".join(c["source"])) for c in cells if c["cell_type"] == "code"))
    assert used, f"{path.name} uses no labcode name"
    missing = sorted(f"{m}.{n}" for m, n in used if not resolves(m, n))
    assert missing == [], f"{path.name} uses names labcode does not have: {missing}"


def test_a_renamed_kernel_is_reported():
    assert resolves("labcode.probability", "_softmax") and resolves("labcode", "softmax")
    assert not resolves("labcode.probability", "softmax_unchecked")
    used = used_names("from labcode.embedding import _embedding_backward\nlabcode.probability._softmax(z)")
    assert {("labcode.embedding", "_embedding_backward"), ("labcode.probability", "_softmax")} <= used
