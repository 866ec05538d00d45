"""The softmax explorer in a RUNNING KERNEL, in JupyterLab and in Jupyter Notebook 7.

Each front end gets its own server (temporary config, runtime and data folders; the venv's data path
still supplies the anywidget extension and the kernel). Headless Chromium opens a small notebook,
runs it, moves logit sliders by keyboard and mouse, and asks Python what it now holds; then Python
sets the logits and the page must follow. Python's numbers are checked against labcode, the page's
against Python's. No request may leave 127.0.0.1. Screenshots go to _build/screenshots/.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import numpy as np
import pytest

import labcode

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "_build" / "screenshots"
NOTEBOOK = "kernel_widgets.ipynb"
INSTALL_HINT = "pip install -r requirements.txt (jupyterlab and notebook are pinned there)"

# front end -> (jupyter subcommand, address of the notebook page). Without `reset`, JupyterLab's first
# start (a fresh config folder) restores its default workspace while opening the notebook, and about
# every other time the notebook then never asks for a kernel.
FRONT_ENDS = {
    "jupyterlab": ("lab", f"/lab/tree/{NOTEBOOK}?reset&"),
    "notebook7": ("notebook", f"/notebooks/{NOTEBOOK}?"),
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

# The server loads every extension installed in the venv: keep those that would reach the internet quiet.
SERVER_CONFIG = {
    "LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
               "extension_manager": "readonly"},
    "LanguageServerManager": {"autodetect": False},
}


# ---------------------------------------------------------------- server
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _stop(server: subprocess.Popen) -> None:
    """SIGTERM lets the server shut its kernel down; whatever is left of its process group is killed."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(server.pid, signal.SIGKILL)  # the group is the server's own (start_new_session)
    except ProcessLookupError:
        pass
    server.wait(timeout=10)


@pytest.fixture(scope="module", params=list(FRONT_ENDS))
def jupyter(request, tmp_path_factory):
    """A Jupyter server for one front end, with the test notebook in its root folder; yields the notebook URL."""
    return serve_notebook(request, tmp_path_factory, request.param, CELLS)


def serve_notebook(request, tmp_path_factory, name, cells):
    """Start a Jupyter server for front end `name` with a notebook of `cells` (stopped at the end of `request`).

    Returns (name, base URL, token, notebook URL). Other widgets' kernel tests call this with their own cells.
    """
    subcommand, page_path = FRONT_ENDS[name]
    jupyter_bin = Path(sys.executable).with_name("jupyter")
    probe = subprocess.run([str(jupyter_bin), subcommand, "--version"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.fail(f"`jupyter {subcommand}` is not available in {jupyter_bin.parent}; {INSTALL_HINT}\n{probe.stderr}")

    tmp = tmp_path_factory.mktemp(name)
    root, config = tmp / "root", tmp / "config"
    root.mkdir()
    config.mkdir()
    (config / "jupyter_server_config.json").write_text(json.dumps(SERVER_CONFIG), encoding="utf-8")
    if name == "jupyterlab":  # no "get notified about Jupyter news?" toast over the notebook
        settings = config / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}', encoding="utf-8")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(nb, root / NOTEBOOK)

    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ,
               PATH=f"{jupyter_bin.parent}{os.pathsep}{os.environ.get('PATH', '')}",
               JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               JUPYTER_DATA_DIR=str(tmp / "data"), IPYTHONDIR=str(tmp / "ipython"))
    log = open(tmp / "server.log", "w", encoding="utf-8")
    server = subprocess.Popen(
        [str(jupyter_bin), subcommand, "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
         "--ServerApp.port_retries=0", f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}",
         "--ServerApp.allow_root=True"],
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    request.addfinalizer(log.close)
    request.addfinalizer(lambda: _stop(server))

    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1).close()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                log = (tmp / "server.log").read_text(encoding="utf-8")
                pytest.fail(f"the {name} server did not start:\n" + log[-4000:])
            time.sleep(0.1)
    return name, base, token, f"{base}{page_path}token={token}"


def kernel_idle(base, token, seconds):
    """Whether, within `seconds`, the server reports the notebook's kernel as idle.

    (The connection count in the same listing is not used: a websocket handshake the page gives up on
    is counted as a disconnect that never connected, so the count can stay one too low.)
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{base}/api/sessions?token={token}", timeout=5) as reply:
            sessions = json.load(reply)
        if any(s["name"] == NOTEBOOK and s["kernel"]["execution_state"] == "idle" for s in sessions):
            return True
        time.sleep(0.1)
    return False


def start_session(base, token):
    """Start the notebook's kernel through the server's REST API, as the front end itself would.

    The page then finds a running session to attach to, instead of racing to start one while a freshly
    started JupyterLab is still restoring its workspace (it sometimes never asks for a kernel then).
    """
    body = json.dumps({"path": NOTEBOOK, "name": NOTEBOOK, "type": "notebook", "kernel": {"name": "python3"}})
    request = urllib.request.Request(f"{base}/api/sessions?token={token}", data=body.encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=30).close()


def open_and_display(page, url, base, token, attempts=4, root=".sx-root"):
    """Open the notebook, run its first cell and wait for the explorer to appear.

    A front end that has just started can open the notebook without attaching it to the kernel, or
    attach it a moment after its own status already says "idle"; a cell run then is silently dropped.
    So what counts is the widget on the page: if it does not appear, load the page again and rerun.
    """
    start_session(base, token)
    page.goto(url)
    for _ in range(attempts):
        cell(page, PROBE).locator(".jp-InputArea-editor").wait_for(timeout=60000)
        # Only a head start: the server's own record can say "busy" long after the kernel has answered,
        # and what counts is the widget below.
        kernel_idle(base, token, seconds=5)
        run_cell(page, START)
        try:
            page.locator(root).wait_for(timeout=20000)
            return
        except PlaywrightTimeout:
            page.reload()
    pytest.fail(f"the widget {root} never appeared: the page did not run {NOTEBOOK} in its kernel "
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
    name, base, token, url = jupyter
    page = offline_page
    errors = []
    page.on("pageerror", lambda e: errors.append(f"{e}\n{e.stack}"))
    page.set_viewport_size({"width": 1280, "height": 1000})
    open_and_display(page, url, base, token)
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
