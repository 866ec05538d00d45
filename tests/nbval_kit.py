"""nbval in the learner's kit: the suite's one run of every notebook, which is also the determinism check.

nbval (`testpaths` and `--nbval-kernel-name` in pyproject.toml) runs intro.ipynb and book/*.ipynb cell by cell and
compares each cell's outputs with the stored ones. The hooks of the root conftest.py make that run check more:
- it runs in the learner's kit: the kernel is the kit's Python (tests/kit_venv.py), found through JUPYTER_PATH
  while nbval starts it, and works in an empty folder, as a notebook downloaded on its own;
- pictures and output metadata (where glue names a value) are compared too, which nbval skips by default:
  `make execute` writes them again byte for byte;
- after a notebook's last cell, two items ask the kernel that ran it whether labcode was the wheel's, with nothing
  of the repository or of the test tools importable, and whether the widgets the cells show, and every widget's
  state (its bundled JS and CSS, its traits), are the ones stored in the notebook, which nbval does not compare.
Still not compared: execution counts (tests/book/test_execute_notebooks.py checks that the stored ones run 1, 2, 3…),
tracebacks, and the order of outputs of different kinds within one cell.
"""
from __future__ import annotations

import json
from pathlib import Path
from queue import Empty

import nbformat
import pytest
from nbval.plugin import IPyNbCell, IPyNbFile

import execute_notebooks
import kit_venv

KIT = pytest.StashKey[kit_venv.KitEnv]()  # the kit whose kernel runs the notebooks (the root conftest.py stores it)
# nbval skips these when it compares a cell's outputs; `make execute` writes them again exactly, and an output's
# metadata holds what glue names the value (the site looks the number up by that name).
COMPARED_TOO = ("image/png", "image/jpeg", "metadata", "output_type")
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"
DEV_ONLY = ("myst_nb", "jupyter_book", "nbval", "pytest", "playwright")  # the kit must not have them

KERNEL_FACTS = f"""
import importlib.util as _util, json as _json, os as _os, sys as _sys
import labcode as _labcode
print(_json.dumps({{"labcode": _labcode.__file__, "cwd": _os.getcwd(),
                   "path": [_os.path.abspath(p) for p in _sys.path],
                   "dev_only": [m for m in {DEV_ONLY!r} if _util.find_spec(m)]}}))
"""
WIDGET_DUMP = """
import json as _json, ipywidgets as _ipywidgets
print(_json.dumps(_ipywidgets.Widget.get_manager_state()))
"""


def is_notebook_item(item) -> bool:
    return isinstance(item.parent, IPyNbFile)


def run_in_kernel(kernel, code: str, timeout: float = 60) -> str:
    """Run `code` in nbval's running kernel, not in the notebook's history; return what it printed on stdout."""
    msg_id = kernel.execute_cell_input(code, allow_stdin=False)
    try:
        kernel.await_reply(msg_id, timeout=timeout)
        printed = []
        while True:
            msg = kernel.get_message("iopub", timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "error":
                raise AssertionError("the kernel raised:\n" + "\n".join(content["traceback"]))
            if kind == "stream" and content["name"] == "stdout":
                printed.append(content["text"])
            elif kind == "stream":
                raise AssertionError(f"the kernel wrote on {content['name']}: {content['text']}")
            elif kind == "status" and content["execution_state"] == "idle":
                return "".join(printed)
    except Empty:
        raise AssertionError(f"the kernel did not answer within {timeout} s") from None


class KernelCheck(pytest.Item):
    """An item after a notebook's last cell, run in the kernel nbval ran the notebook in (the same IPyNbFile)."""

    def __init__(self, *, cells: list[IPyNbCell], **kwargs):
        super().__init__(**kwargs)
        self.cells = cells

    def runtest(self):
        kernel = self.parent.kernel
        if kernel is None or not kernel.is_alive():
            raise AssertionError("the notebook's kernel is not running (a cell above timed out or killed it)")
        self.check(kernel)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, AssertionError):
            return f"{self.path.name}: {excinfo.value}"
        return super().repr_failure(excinfo)


class RanInTheKit(KernelCheck):
    def check(self, kernel):
        kit = self.config.stash[KIT]
        facts = json.loads(run_in_kernel(kernel, KERNEL_FACTS))
        assert Path(facts["labcode"]).is_relative_to(kit.venv), f"labcode came from {facts['labcode']}, not the wheel"
        assert Path(facts["cwd"]) == kit.work, f"the kernel worked in {facts['cwd']}, not in an empty folder"
        repository = self.config.rootpath
        seen = [p for p in facts["path"] if Path(p).is_relative_to(repository)]
        assert not seen, f"the kernel could import from the repository: {seen}"
        assert facts["dev_only"] == [], f"the kernel could import {facts['dev_only']}, which a learner would not have"


class WidgetStateAsStored(KernelCheck):
    def check(self, kernel):
        if any(cell.test_outputs is None for cell in self.cells):
            pytest.skip("not every cell of the notebook ran, so its widgets cannot be compared")
        stored = nbformat.read(self.path, as_version=4)
        # This run as `make execute` would store it: the kernel's widgets, numbered from the views the cells showed.
        run = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=cell.test_outputs)
                                              for cell in self.cells])
        run.metadata["widgets"] = {WIDGET_STATE: json.loads(run_in_kernel(kernel, WIDGET_DUMP))}
        run = execute_notebooks.stable_widget_ids(run)
        assert views(run) == views(stored), (f"the cells show the widgets {views(run)}, the stored notebook "
                                             f"{views(stored)} (`make execute` refreshes it)")
        ran, kept = (nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}) for nb in (run, stored))
        assert ran == kept, ("the widgets' state differs from the one stored: " + ", ".join(differences(ran, kept))
                             + " (`make execute` refreshes it)")


def views(nb) -> list[tuple[int, str]]:
    """(code cell number, model id) of every widget view the notebook's cells show, in order."""
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    return [(i, out["data"][VIEW]["model_id"]) for i, cell in enumerate(code) for out in cell.outputs
            if VIEW in out.get("data", {})]


def differences(ran: dict, stored: dict) -> list[str]:
    """Which widgets, and which of their traits, differ: "widget 0568622d… (AnyModel): _esm, logits"."""
    found = []
    for model in sorted(set(ran) | set(stored)):
        new, old = ran.get(model), stored.get(model)
        name = (new or old)["model_name"]
        if new is None or old is None:
            found.append(f"widget {model} ({name}) {'is new' if old is None else 'is no longer made'}")
        elif new != old:
            a, b = new["state"], old["state"]
            traits = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            found.append(f"widget {model} ({name}): {', '.join(traits) or 'its model or buffers'}")
    return found


def add_kernel_checks(items: list) -> None:
    """Compare pictures and output metadata in every notebook, and put the two kernel checks after its last cell."""
    notebooks: dict[IPyNbFile, list[IPyNbCell]] = {}
    for item in items:
        if isinstance(item, IPyNbCell):
            notebooks.setdefault(item.parent, []).append(item)
    for notebook, cells in notebooks.items():
        notebook.skip_compare = tuple(key for key in notebook.skip_compare if key not in COMPARED_TOO)
        at = items.index(cells[-1]) + 1
        items[at:at] = [RanInTheKit.from_parent(notebook, name="ran in the kit", cells=cells),
                        WidgetStateAsStored.from_parent(notebook, name="widget state as stored", cells=cells)]
