"""The softmax explorer in a RUNNING KERNEL, in JupyterLab and in Jupyter Notebook 7.

Both front ends are served by the process's one Jupyter server (`jupyter_server` in conftest.py, see
kernel_server.py); each test writes its own notebook into the server's root folder. Headless Chromium opens
the notebook, runs it, moves logit sliders by keyboard and mouse, and asks Python what it now holds; then
Python sets the logits and the page must follow. Python's numbers are checked against labcode, the page's
against Python's. No request may leave 127.0.0.1. Screenshots go to _build/screenshots/.
"""
from __future__ import annotations

import json
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import nbformat
import numpy as np
import pytest

import labcode
from kernel_server import Server

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "_build" / "screenshots"

# front end -> address of its page for `notebook` (the file name in the server's root folder). JupyterLab
# keeps its layout in a workspace named in the URL and restores it on the next load: each notebook gets a
# workspace of its own, so a notebook opened by an earlier test is never restored into a later test's page,
# and `reset` empties it (without it, a fresh config folder's default layout is restored while the notebook
# opens, and about every other time the notebook then never asks for a kernel).
FRONT_ENDS = {
    "jupyterlab": "/lab/workspaces/{workspace}/tree/{notebook}?reset&",
    "notebook7": "/notebooks/{notebook}?",
}

CELLS = [
    'import json\n'
    'import labcode\n'
    'w = labcode.softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")\n'
    'w',
    # The execution count tells one run of this cell from the previous one.
    'print("STATE", json.dumps({"n": get_ipython().execution_count, "logits": w.logits,\n'
    '                           "probs": w.probs, "loss": w.loss, "target": w.target,\n'
    '                           "temperature": w.temperature}))',
    'w.logits = [0, 1, 3]\n'
    'print("SET", w.logits)',
]
START, PROBE, SET = range(3)
TARGET = 2  # 绿
SET_LOGITS = [0.0, 1.0, 3.0]


# ---------------------------------------------------------------- notebook on the server
@dataclass
class OpenNotebook:
    front_end: str
    server: Server
    notebook: str  # file name in the server's root folder
    url: str       # its page in the front end, token included


@pytest.fixture(scope="module", params=list(FRONT_ENDS))
def jupyter(request, jupyter_server):
    """The test notebook in one front end (its kernel is shut down at the end of the module)."""
    return serve_notebook(request, jupyter_server, request.param, CELLS)


def serve_notebook(request, server, front_end, cells):
    """Write a notebook of `cells` into the server's root folder, named after the test module and the front end,
    and return it as an OpenNotebook; when `request` ends, its sessions are deleted (which stops its kernel).

    Other widgets' kernel tests call this with their own cells.
    """
    notebook = f"{request.module.__name__}_{front_end}.ipynb"
    path = server.root / notebook
    assert not path.exists(), f"two kernel tests want the same notebook {notebook}"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(nb, path)
    request.addfinalizer(lambda: server.shut_down(notebook))
    page = FRONT_ENDS[front_end].format(workspace=path.stem, notebook=urllib.parse.quote(notebook))
    return OpenNotebook(front_end, server, notebook, f"{server.base}{page}token={server.token}")


def kernel_idle(nb, seconds):
    """Whether, within `seconds`, the server reports the notebook's kernel as idle.

    (The connection count in the same listing is not used: a websocket handshake the page gives up on
    is counted as a disconnect that never connected, so the count can stay one too low.)
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(s["kernel"]["execution_state"] == "idle" for s in nb.server.sessions(nb.notebook)):
            return True
        time.sleep(0.1)
    return False


def start_session(nb):
    """Start the notebook's kernel through the server's REST API, as the front end itself would.

    The page then finds a running session to attach to, instead of racing to start one while a freshly
    started JupyterLab is still restoring its workspace (it sometimes never asks for a kernel then).
    """
    nb.server.api("sessions", method="POST", body={"path": nb.notebook, "name": nb.notebook, "type": "notebook",
                                                   "kernel": {"name": "python3"}})


def open_and_display(page, nb, attempts=4, root=".sx-root"):
    """Open the notebook (an OpenNotebook), run its first cell and wait for the explorer to appear.

    A front end that has just started can open the notebook without attaching it to the kernel, or
    attach it a moment after its own status already says "idle"; a cell run then is silently dropped.
    So what counts is the widget on the page: if it does not appear, load the page again and rerun.
    """
    start_session(nb)
    page.goto(nb.url)
    for _ in range(attempts):
        cell(page, PROBE).locator(".jp-InputArea-editor").wait_for(timeout=60000)
        # Only a head start: the server's own record can say "busy" long after the kernel has answered,
        # and what counts is the widget below.
        kernel_idle(nb, seconds=5)
        run_cell(page, START)
        try:
            page.locator(root).wait_for(timeout=20000)
            return
        except PlaywrightTimeout:
            page.reload()
    pytest.fail(f"the widget {root} never appeared: the page did not run {nb.notebook} in its kernel "
                f"({attempts} attempts)")


def widget_errors(errors):
    """Page errors, leaving out those raised wholly inside the front end's own core bundle under /static/
    (Notebook 7.6.5 throws one while loading its shortcut settings, with no widget on the page)."""
    def core_only(error):
        frames = [line for line in error.splitlines()[1:] if "://" in line]
        return bool(frames) and all("/static/" in line for line in frames)
    return [e for e in errors if not core_only(e)]


# ---------------------------------------------------------------- page helpers
def cell(page, k):
    return page.locator(".jp-Notebook .jp-Cell").nth(k)


def run_cell(page, k):
    """Put the cursor in cell k and press Shift+Enter, as a reader would."""
    cell(page, k).locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")


def output_text(page, k):
    outputs = cell(page, k).locator(".jp-OutputArea-output")
    return "\n".join(outputs.all_inner_texts())


def probe_python(page, previous_n=0):
    """Run the probe cell and wait for its fresh printout; returns what Python holds."""
    run_cell(page, PROBE)
    page.wait_for_function(
        """([k, prev]) => {
            const cell = document.querySelectorAll('.jp-Notebook .jp-Cell')[k];
            const m = cell && cell.innerText.match(/STATE (\\{.*\\})/);
            return m !== null && JSON.parse(m[1]).n > prev;
        }""", arg=[PROBE, previous_n], timeout=30000)
    line = next(s for s in output_text(page, PROBE).splitlines() if s.startswith("STATE "))
    return json.loads(line[len("STATE "):])


def probe_until(page, py, done, tries=5):
    """Widget messages reach the kernel asynchronously: re-run the probe until Python's state satisfies `done`."""
    for _ in range(tries):
        py = probe_python(page, py["n"])
        if done(py):
            break
    return py


def shown_state(page):
    """Everything the explorer shows, parsed back into numbers."""
    root = page.locator(".sx-root")
    return {
        "sliders": [float(v) for v in root.locator(".sx-logit").evaluate_all("els => els.map(e => e.value)")],
        "logits": [float(t) for t in root.locator(".sx-z").all_inner_texts()],
        "probs": [float(t) for t in root.locator(".sx-p").all_inner_texts()],
        "bars": [float(t) for t in root.locator(".sx-barval").all_inner_texts()],
        "heights": root.locator(".sx-bar").evaluate_all("els => els.map(e => parseFloat(e.style.height))"),
        "loss": float(root.locator(".sx-loss").inner_text()),
    }


def assert_page_shows(s, logits, probs, loss):
    """The page's sliders, readouts and bars show these logits, probabilities and loss (to display precision)."""
    np.testing.assert_allclose(s["sliders"], logits, atol=1e-9, err_msg="slider positions")
    np.testing.assert_allclose(s["logits"], logits, atol=1e-9, err_msg="shown logits")
    np.testing.assert_allclose(s["probs"], probs, atol=0.0005 + 1e-12, err_msg="probability table")
    np.testing.assert_allclose(s["bars"], probs, atol=0.0005 + 1e-12, err_msg="numbers on the bars")
    np.testing.assert_allclose(s["heights"], 100 * np.asarray(probs), atol=0.005 + 1e-9, err_msg="bar heights (%)")
    assert s["loss"] == pytest.approx(loss, abs=0.00005 + 1e-12), "shown loss"


def assert_python_agrees_with_labcode(py):
    assert py["target"] == TARGET and py["temperature"] == 1.0
    np.testing.assert_allclose(py["probs"], labcode.softmax(py["logits"]), rtol=1e-12, atol=1e-15)
    assert py["loss"] == pytest.approx(labcode.cross_entropy(np.asarray(py["logits"]), TARGET), rel=1e-12)


# ---------------------------------------------------------------- test
def test_sliders_and_python_stay_in_sync_in_a_running_kernel(jupyter, offline_page):
    name = jupyter.front_end
    page = offline_page
    errors = []
    page.on("pageerror", lambda e: errors.append(f"{e}\n{e.stack}"))
    page.set_viewport_size({"width": 1280, "height": 1000})
    open_and_display(page, jupyter)
    root = page.locator(".sx-root")
    sliders = root.locator(".sx-logit")
    start = shown_state(page)
    assert_page_shows(start, [0, 1, 2], labcode.softmax([0, 1, 2]),
                      labcode.cross_entropy(np.array([0., 1., 2.]), TARGET))

    # (a) keyboard: three ArrowRight presses on 红's slider move z(红) by three steps, inside the notebook
    #     (the notebook binds arrow keys to cell navigation; the widget must keep them).
    step = float(sliders.nth(0).get_attribute("step"))
    sliders.nth(0).focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    moved_z0 = start["logits"][0] + 3 * step
    # ... and the mouse: drag 黄's thumb from its place to 80 % of the track.
    lo, hi = float(sliders.nth(1).get_attribute("min")), float(sliders.nth(1).get_attribute("max"))
    box = sliders.nth(1).bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * (start["logits"][1] - lo) / (hi - lo), y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.8, y, steps=6)
    page.mouse.up()
    moved = shown_state(page)
    problems = []  # the keyboard result is reported at the end, so one broken input still lets (b) and (c) run
    if moved["logits"][0] != pytest.approx(moved_z0, abs=1e-9):
        problems.append(f"3 x ArrowRight on the focused z(红) slider left z(红) at {moved['logits'][0]}, "
                        f"expected {moved_z0:g}: {name} took the arrow keys away from the widget")
    assert abs(moved["logits"][1] - (lo + 0.8 * (hi - lo))) < 1, f"mouse drag left z(黄) at {moved['logits'][1]}"
    assert moved["logits"][2] == start["logits"][2]

    # (b) Python holds the moved logits and recomputed probs/loss with labcode; the page shows the same.
    #     Slider updates reach the kernel asynchronously (ipywidgets may hold the last one back until the
    #     kernel answers the previous), so re-ask a few times until Python has caught up with the page.
    py = probe_until(page, {"n": 0}, lambda py: np.allclose(py["logits"], moved["logits"], rtol=0, atol=5e-6))
    np.testing.assert_allclose(py["logits"], moved["logits"], rtol=0, atol=5e-6,
                               err_msg="the kernel never received the slider moves")
    assert_python_agrees_with_labcode(py)
    assert_page_shows(shown_state(page), py["logits"], py["probs"], py["loss"])

    # (c) Python sets the logits: the sliders, bars and numbers on the page follow.
    run_cell(page, SET)
    page.wait_for_function("k => document.querySelectorAll('.jp-Notebook .jp-Cell')[k].innerText.includes('SET [')",
                           arg=SET, timeout=30000)
    page.wait_for_function("want => [...document.querySelectorAll('.sx-root .sx-logit')]"
                           ".every((e, k) => e.valueAsNumber === want[k])",
                           arg=SET_LOGITS, timeout=10000)
    py = probe_python(page, py["n"])
    assert py["logits"] == SET_LOGITS
    assert_python_agrees_with_labcode(py)
    expected_probs = labcode.softmax(SET_LOGITS)
    expected_loss = labcode.cross_entropy(np.asarray(SET_LOGITS), TARGET)
    assert_page_shows(shown_state(page), SET_LOGITS, expected_probs, expected_loss)
    assert root.count() == 1, "the explorer was drawn more than once"

    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"kernel_{name}.png"))
    assert page.external == [], f"requests left 127.0.0.1: {page.external}"
    assert widget_errors(errors) == [], f"JavaScript errors in {name}"
    assert problems == []
