"""Re-execute the book's notebooks and store their outputs: the reference that nbval compares against.

Run with `make execute` (the home page intro.ipynb and every book/*.ipynb) or
`make execute NB=book/01_probability_to_loss.ipynb`.
Outputs are made reproducible: no cell timings, widget model ids numbered in order of appearance,
and any output on stderr is an error (warnings do not belong in the book). So is a cell whose outputs
nbval could not compare with the stored ones (cleared, updated, or taken by an Output widget) unless
tagged for nbval: what this script stores is what `pytest --nbval` checks. The cells of answer folds and
solutions get the metadata that keeps them closed in JupyterLab (scripts/hidden_cells.py). `make test` runs
nbval on every notebook once, in the learner's kit (tests/nbval_kit.py), and compares the widget state too.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import uuid
from pathlib import Path

import nbformat
from nbclient import NotebookClient

import hidden_cells

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
HOME = ROOT / "intro.ipynb"
MODEL_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")  # also inside "IPY_MODEL_<id>"
MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def stable_widget_ids(nb):
    """Replace random widget model ids with ids derived from their place, so re-runs give equal files.

    Models are numbered in a fixed walk: the widget views in cell order, each followed by the models its
    state refers to (keys sorted), then any model no view reaches.
    """
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    if not state:
        return nb
    order = []

    def visit(model_id):
        if model_id in state and model_id not in order:
            order.append(model_id)
            for ref in MODEL_REF.findall(json.dumps(state[model_id].get("state", {}), sort_keys=True)):
                visit(ref)

    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view:
                visit(view["model_id"])
    for model_id in sorted(state, key=lambda m: (state[m].get("model_name", ""), m)):
        visit(model_id)
    mapping = {old: uuid.uuid5(uuid.NAMESPACE_URL, f"widget-{i}").hex for i, old in enumerate(order)}
    text = MODEL_ID.sub(lambda m: mapping.get(m.group(0), m.group(0)), json.dumps(nb))
    return nbformat.from_dict(json.loads(text))


def merge_streams(nb):
    """Join consecutive pieces of the same stream: how ipykernel splits them depends on timing."""
    for cell in nb.cells:
        merged = []
        for out in cell.get("outputs", []):
            last = merged[-1] if merged else None
            if (out.get("output_type") == "stream" and last is not None and last.get("output_type") == "stream"
                    and last.get("name") == out.get("name")):
                last["text"] += out["text"]
            else:
                merged.append(out)
        if "outputs" in cell:
            cell["outputs"] = merged


class NotebookError(Exception):
    """A notebook whose outputs may not be stored: a cell wrote to stderr, or nbval could not compare a cell."""


# nbval compares the outputs a cell sends, in the order it sends them; it ignores clear_output and
# update_display_data, and it does not know that an ipywidgets Output widget takes a cell's outputs.
NBVAL_EXEMPT = ("nbval-ignore-output", "nbval-skip")  # cell tags, or comments such as "# NBVAL_SKIP"


def nbval_exempt(cell) -> bool:
    tags = cell.metadata.get("tags", [])
    return any(mark in tags or f"# {mark.upper().replace('-', '_')}" in cell.source for mark in NBVAL_EXEMPT)


class NbvalAwareClient(NotebookClient):
    """nbclient, noting the cells whose stored outputs nbval would not see as stored."""

    def process_message(self, msg, cell, cell_index):
        parent = msg["parent_header"].get("msg_id")
        if msg["msg_type"] in ("clear_output", "update_display_data") or (
                self.output_hook_stack[parent] and msg["msg_type"] in ("stream", "display_data", "execute_result")):
            self.nbval_blind.add(cell_index)
        return super().process_message(msg, cell, cell_index)


def run(nb, folder: Path):
    """Execute `nb` in a kernel working in `folder` and return it with reproducible outputs (what `make execute`
    stores). Raises NotebookError."""
    client = NbvalAwareClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                              store_widget_state=True, resources={"metadata": {"path": str(folder)}})
    client.nbval_blind = set()
    client.execute()
    merge_streams(nb)
    noise = [(index, out.get("text", "")) for index, cell in enumerate(nb.cells) for out in cell.get("outputs", [])
             if out.get("output_type") == "stream" and out.get("name") == "stderr"]
    if noise:
        index, text = noise[0]
        raise NotebookError(f"cell {index} wrote to stderr (fix the cause, do not store it):\n{text}")
    blind = [i for i in sorted(client.nbval_blind) if not nbval_exempt(nb.cells[i])]
    if blind:
        raise NotebookError(f"cells {blind} clear, update or divert their outputs (an Output widget), which nbval "
                            "cannot compare: change the cell, or tag it nbval-ignore-output")
    hidden_cells.hide_folds(nb.cells)
    return stable_widget_ids(nb)


def execute(path: Path):
    nb = nbformat.read(path, as_version=4)
    try:
        nb = run(nb, path.parent)
    except NotebookError as error:
        sys.exit(f"{path.name}: {error}")
    nbformat.write(nb, path)
    print(f"executed {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: intro.ipynb and every book/*.ipynb")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")
    os.environ.setdefault("MPLBACKEND", "Agg")
    for path in args.notebooks or [HOME, *sorted(BOOK.glob("*.ipynb"))]:
        execute(path.resolve())


if __name__ == "__main__":
    main()
