"""The notebook cells a reader opens only when they ask: those of answer folds and of exercise solutions.

A fold is the run of cells between two markdown markers, ``:::{answer-start}`` … ``:::{answer-end}``
(_ext/answer_folds.py) or ``{solution-start}`` … ``{solution-end}`` (sphinx-exercise). The start marker ends its
cell and the end marker starts its cell, so the cells strictly between are the fold's, and the markers' cells hold
no answer. The site folds them by the directives; JupyterLab and Notebook 7 fold a cell by its metadata
``jupyter.source_hidden`` (a markdown cell collapses whole) and, for code, ``jupyter.outputs_hidden``.
`make execute` sets that metadata (scripts/execute_notebooks.py); tests/book/test_answer_folds.py checks it.
"""
from __future__ import annotations

import re

# A marker as a markdown cell writes it: the answer folds' colon fence, the solutions' backtick fence (its options,
# such as :class: dropdown, on the lines after the directive).
START = re.compile(r"(?:^|\n)(:::\{answer-start\}[^\n]*\n:::|```\{solution-start\}[^\n]*\n(?::[^\n]*\n)*```)"
                   r"[ \t]*\n*\Z")
END = re.compile(r"\A\s*(:::\{answer-end\}[ \t]*\n:::|```\{solution-end\}[ \t]*\n```)")
ANY_START = re.compile(r"\{(answer|solution)-start\}")
ANY_END = re.compile(r"\{(answer|solution)-end\}")


def source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def folds(cells) -> list[tuple[int, int]]:
    """(start, end): the indices of each fold's marker cells, in order; the fold is the cells strictly between."""
    found, start = [], None
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        if ANY_END.search(text) and start is not None:
            found.append((start, i))
            start = None
        if ANY_START.search(text):
            start = i
    return found


def misplaced_markers(cells) -> list[str]:
    """What a reader in JupyterLab would see of a fold because a marker shares its cell with the fold's content:
    a start marker followed by more text in its cell, an end marker after text in its cell."""
    problems = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        if ANY_START.search(text) and not START.search(text):
            problems.append(f"cell {i} ({cell.get('id')}): text after the start marker, in the same cell")
        if ANY_END.search(text) and not END.search(text):
            problems.append(f"cell {i} ({cell.get('id')}): text before the end marker, in the same cell")
    return problems


def folded(cells) -> list[int]:
    """The indices of the cells inside folds."""
    return [i for start, end in folds(cells) for i in range(start + 1, end)]


def hidden(cell) -> bool:
    """Does JupyterLab keep the whole cell closed (its source, and a code cell's outputs)?"""
    flags = cell.get("metadata", {}).get("jupyter", {})
    return flags.get("source_hidden") is True and (cell["cell_type"] != "code" or flags.get("outputs_hidden") is True)


def hide_folds(cells) -> int:
    """Give every cell inside a fold the metadata that closes it in JupyterLab; return how many cells changed."""
    opened = [cells[i] for i in folded(cells) if not hidden(cells[i])]
    for cell in opened:
        flags = cell.setdefault("metadata", {}).setdefault("jupyter", {})
        flags["source_hidden"] = True
        if cell["cell_type"] == "code":
            flags["outputs_hidden"] = True
    return len(opened)
