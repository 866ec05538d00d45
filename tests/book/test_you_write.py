"""The “你来写” exercises: where a chapter teaches a function, the reader writes it.

Each is a gated exercise (label ``chN-ex-write-…``) holding a skeleton that raises NotImplementedError and a check
cell whose stored output is the checker's deterministic “还没写” report; its solution (folded on the site, hidden in
JupyterLab, left out of the student handout) defines other names, so it never overwrites the reader's function,
and its check passes. The expected reports are recomputed here from ``labcode.practice``, not copied.
"""
import json
import re

import pytest

import chapter_registry
import labcode.practice
from notebook_outputs import BOOK

# How many “你来写” each chapter asks for (issue #17: two or three in a chapter that teaches a function) is the
# registry's `you_write`, the chapter's rows of labcode/practice/exercises.py.
CHAPTERS = chapter_registry.chapters()
SKELETON = re.compile(r'^def (my_\w+)\(.*\):\n    """.+?"""\n    raise NotImplementedError\("在这里写你的代码"\)$',
                      re.M | re.S)
CHECK_CALL = re.compile(r"labcode\.practice\.(check_\w+)\(")
START = re.compile(r"^```\{exercise-start\} (.+)\n:label: ((?:ch\d+|app)-ex-write-[\w-]+)\n(?::[\w-]+:.*\n)*```", re.M)


def skeleton(*args):
    raise NotImplementedError("在这里写你的代码")


def _source(cell):
    return "".join(cell["source"])


def _plain(cell):
    return "".join("".join(out.get("data", {}).get("text/plain", "")) for out in cell.get("outputs", []))


def exercises(name):
    """(title, label, exercise cells, solution cells) of every “你来写” in a notebook, in order."""
    cells = json.loads((BOOK / name).read_text(encoding="utf-8"))["cells"]
    found = []
    for i, cell in enumerate(cells):
        match = START.match(_source(cell)) if cell["cell_type"] == "markdown" else None
        if not match:
            continue
        end = next(j for j in range(i, len(cells)) if _source(cells[j]).startswith("```{exercise-end}"))
        start = next(j for j in range(end, len(cells))
                     if _source(cells[j]).startswith(f"```{{solution-start}} {match.group(2)}\n"))
        stop = next(j for j in range(start, len(cells)) if "```{solution-end}" in _source(cells[j]))
        found.append((match.group(1), match.group(2), cells[i:end + 1], cells[start:stop + 1]))
    return found


def everything():
    """Every “你来写” of every chapter."""
    names = [chapter.notebook.name for chapter in CHAPTERS]
    return [pytest.param(name, *exercise, id=exercise[1]) for name in names for exercise in exercises(name)]


def _opening(cells):
    """The chapter's opening: its Markdown before the first section (the title cell, and the text under the map)."""
    first = next(i for i, c in enumerate(cells) if re.search(r"^## ", _source(c), re.M))
    return "\n".join(_source(c) for c in cells[:first] if c["cell_type"] == "markdown")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.stem)
def test_each_chapter_asks_the_reader_to_write_its_functions_and_says_so_at_the_top(chapter):
    name = chapter.notebook.name
    found = exercises(name)
    assert len(found) == chapter.you_write, \
        f"{name} asks for {[label for _, label, _, _ in found]}; book/chapters.toml says {chapter.you_write}"
    opening = _opening(json.loads((BOOK / name).read_text(encoding="utf-8"))["cells"])
    for title, label, _, _ in found:
        assert title.startswith("你来写："), title
        assert label.startswith(chapter.prefix), f"{name}: {label} is not labelled {chapter.prefix}…"
        assert f"{{numref}}`{label}`" in opening, f"the chapter's opening does not point at {label}"


@pytest.mark.parametrize("name, title, label, task, solution", everything())
def test_the_stored_check_is_the_not_written_report_of_the_skeleton(name, title, label, task, solution):
    code = [cell for cell in task if cell["cell_type"] == "code"]
    skeletons = [m.group(1) for cell in code for m in SKELETON.finditer(_source(cell))]
    assert skeletons, f"{label}: no skeleton `def my_…` that raises NotImplementedError"
    checks = [(cell, CHECK_CALL.findall(_source(cell))) for cell in code if CHECK_CALL.search(_source(cell))]
    assert len(checks) == len(skeletons), f"{label}: one check cell per skeleton"
    for cell, (check,) in checks:
        expected = str(getattr(labcode.practice, check)(skeleton))
        assert expected.startswith(f"{check}：还没写")
        assert _plain(cell) == expected, f"{label}: the stored output of {check} is not its not-written report"
        assert any(re.search(rf"\b{s}\b", _source(cell)) for s in skeletons), f"{label}: {check} checks no skeleton"


@pytest.mark.parametrize("name, title, label, task, solution", everything())
def test_the_solution_passes_is_hidden_in_jupyter_and_keeps_the_readers_names(name, title, label, task, solution):
    code = [cell for cell in solution if cell["cell_type"] == "code"]
    assert code, f"{label}: the solution has no code"
    checks = [(cell, check) for cell in code for check in CHECK_CALL.findall(_source(cell))]
    task_checks = [check for cell in task if cell["cell_type"] == "code" for check in CHECK_CALL.findall(_source(cell))]
    assert sorted(check for _, check in checks) == sorted(task_checks), f"{label}: the solution checks another thing"
    for cell, check in checks:
        assert _plain(cell).startswith(f"{check}：通过（全部"), f"{label}: the solution's {check} does not pass"
    for cell in code:
        shown = "remove-cell" in cell["metadata"].get("tags", [])
        assert shown or cell["metadata"].get("jupyter", {}).get("source_hidden") is True, \
            f"{label}: a solution cell is open in JupyterLab: {_source(cell)[:60]!r}"
        assert not re.search(r"^def my_\w+", _source(cell), re.M), f"{label}: the solution redefines the reader's my_…"


# The kernel of labcode that does what a “你来写” asks is printed (inspect.getsource) only in or after its solution:
# a reader who meets the answer a few cells before the exercise has nothing left to write.
KERNEL_AFTER = {"ch2-ex-write-numerical-grad": "_central_difference", "ch2-ex-write-mean-loss": "_target_losses",
                "ch3-ex-write-backward": "_embedding_backward"}


@pytest.mark.parametrize("label, kernel", KERNEL_AFTER.items())
def test_labcodes_own_kernel_is_shown_only_after_the_reader_has_written_it(label, kernel):
    name = chapter_registry.by_label(label).notebook.name
    cells = json.loads((BOOK / name).read_text(encoding="utf-8"))["cells"]
    start = next(i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and START.match(_source(c))
                 and START.match(_source(c)).group(2) == label)
    printed = [i for i, c in enumerate(cells) if c["cell_type"] == "code"
               and re.search(rf"getsource\([\w.]*\b{kernel}\)", _source(c))]
    assert printed, f"{kernel} is no longer printed: point this test at where it is"
    assert all(i > start for i in printed), f"{name}: {kernel} is printed before {label} asks the reader to write it"


@pytest.mark.parametrize("name, title, label, task, solution", everything())
def test_the_printed_solution_passes_its_checker_as_the_checker_is_today(name, title, label, task, solution):
    """Not the stored output (that is redone by `make execute`): the solution's own code, run now against the current
    checkers, with their edge cases (W = ln C for the counts form, an integer x for the central difference)."""
    import ast

    import numpy as np

    import labcode
    for cell in solution:
        source = _source(cell)
        if cell["cell_type"] != "code" or not CHECK_CALL.search(source):
            continue
        tree = ast.parse(source)
        names = {"np": np, "labcode": labcode}
        exec(compile(ast.Module(tree.body[:-1], type_ignores=[]), label, "exec"), names)
        result = eval(compile(ast.Expression(tree.body[-1].value), label, "eval"), names)
        assert result.passed, f"{label}:\n{result}"
