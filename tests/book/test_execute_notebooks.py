"""What `make execute` stores (scripts/execute_notebooks.py) is reproducible and checkable by nbval.

The fresh run of every notebook, compared with the stored one, is nbval's, once per test run in the learner's kit
(tests/nbval_kit.py). Here: the stored files themselves, and the refusal to store what nbval could not compare.
"""
import json
import re
from pathlib import Path

import nbformat
import pytest

import chapter_registry
import execute_notebooks

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = [ROOT / "intro.ipynb", *(c.notebook for c in chapter_registry.chapters())]


def test_stored_notebooks_ran_top_to_bottom_in_one_go():
    """Execution counts 1, 2, 3… in cell order: `make execute` stored every cell in one run. (nbval compares no counts,
    and it does not compare the outputs of a cell stored unrun: a cell added without `make execute` shows here.)"""
    for path in NOTEBOOKS:
        code = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
        counts = [c.execution_count for c in code]
        assert counts == list(range(1, len(code) + 1)), f"{path.name}: execution counts {counts}"
        results = [(c.execution_count, o.execution_count) for c in code for o in c.outputs
                   if o.output_type == "execute_result"]
        assert all(a == b for a, b in results), f"{path.name}: a result's count is not its cell's"


def test_stored_notebooks_have_no_timings_and_consistent_widget_state():
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert all("execution" not in c.get("metadata", {}) for c in nb["cells"]), path.name
        state = nb["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        text = json.dumps(nb)
        referenced = set(re.findall(r"IPY_MODEL_([0-9a-f]{32})", text))
        referenced |= {o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
                       for c in nb["cells"] for o in c.get("outputs", [])
                       if "application/vnd.jupyter.widget-view+json" in o.get("data", {})}
        assert referenced <= set(state), f"{path.name} refers to widget models it does not store"


def test_a_cell_that_clears_its_output_is_not_stored(tmp_path):
    """nbval ignores clear_output and would compare the printout the cell cleared with the stored output."""
    cells = ['print("留下")', 'from IPython.display import clear_output\nprint("旧")\nclear_output()\nprint("新")']
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in cells])
    with pytest.raises(execute_notebooks.NotebookError, match=r"cells \[1\] clear, update or divert"):
        execute_notebooks.run(nb, tmp_path)


def test_cells_tagged_for_nbval_may_clear_their_output():
    cell = nbformat.v4.new_code_cell("clear_output()")
    assert not execute_notebooks.nbval_exempt(cell)
    cell.metadata["tags"] = ["nbval-ignore-output"]
    assert execute_notebooks.nbval_exempt(cell)
    assert execute_notebooks.nbval_exempt(nbformat.v4.new_code_cell("# NBVAL_SKIP\nclear_output()"))
