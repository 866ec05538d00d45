"""The labcode source the book prints (`inspect.getsource` in the chapters) is short and is the idea.

A printed function is a kernel: at most 12 lines with its one-line docstring, no argument checks
(those live in the public function that calls it, and in labcode/_validate.py).
"""
from __future__ import annotations

import inspect
import json
import re

import pytest

import chapter_registry

PRINTED = re.compile(r"inspect\.getsource\(([\w.]+)\)")
IMPORTS = re.compile(r"^(?:import labcode\b.*|from labcode\b.* import .*)$", re.M)
MAX_LINES = 12


def printed_functions():
    """(notebook, expression, the notebook's labcode imports) for every getsource call in its code cells."""
    found = []
    for path in (c.notebook for c in chapter_registry.chapters()):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        imports = "\n".join(IMPORTS.findall(code))
        found += [(path.name, expr, imports) for expr in PRINTED.findall(code)]
    return found


def resolve(expr, imports):
    """The object `expr` names in a notebook, after the notebook's own labcode imports."""
    names = {}
    exec(imports, names)  # only `import labcode…` / `from labcode… import …` lines
    obj = names[expr.split(".")[0]]
    for part in expr.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def test_the_book_prints_labcode_source():
    assert len(printed_functions()) >= 5, "the chapters no longer show labcode's kernels with inspect.getsource"


@pytest.mark.parametrize("notebook, expr, imports", printed_functions(), ids=lambda v: v if "\n" not in v else "")
def test_each_printed_function_is_a_short_kernel_without_checks(notebook, expr, imports):
    function = resolve(expr, imports)
    source = inspect.getsource(function)
    lines = source.rstrip("\n").splitlines()
    assert len(lines) <= MAX_LINES, f"{notebook} prints {expr}: {len(lines)} lines (at most {MAX_LINES})"
    assert "raise " not in source and not re.search(r"\b(check_\w+|as_\w+)\(", source), (
        f"{notebook} prints {expr}, which checks its arguments: print its kernel instead")
    docstring = inspect.getdoc(function) or ""
    assert docstring and "\n" not in docstring, f"{expr} needs a one-line docstring"
