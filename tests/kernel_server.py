"""A widget in a RUNNING KERNEL: one Jupyter server per pytest process, and a test notebook opened in it.

The server (the `jupyter_server` fixture in conftest.py) is `jupyter lab` with temporary config, runtime and data
folders (the venv's data path still supplies the anywidget extension and the kernel). With the `notebook` package
installed it also serves Notebook 7's pages, so both front ends are tested against the same server.

A kernel test module sets CELLS (cell 0 displays the widget as `w`, cell 1 prints "STATE {json}" of what Python
holds with the execution count as "n", cell 2 changes the widget from Python) and WIDGET (the root's selector);
the `kernel_page` fixture in conftest.py writes the notebook, opens it in headless Chromium, runs cell 0 and gives
a `KernelPage`. The notebook's kernel is shut down through the REST API when the test ends.
"""
from __future__ import annotations

import importlib.util
import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from browser import free_port

INSTALL_HINT = "pip install -r requirements.txt (jupyterlab and notebook are pinned there)"

# The server loads every extension installed in the venv: keep those that would reach the internet quiet.
SERVER_CONFIG = {
    "LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
               "extension_manager": "readonly"},
    "LanguageServerManager": {"autodetect": False},
}


@dataclass
class Server:
    base: str
    token: str
    root: Path
    log: Path

    def api(self, path, method="GET", body=None):
        """Call the server's REST API; returns the decoded JSON answer (None when there is none)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}/api/{path}?token={self.token}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as reply:
            text = reply.read()
        return json.loads(text) if text else None

    def sessions(self, notebook):
        return [s for s in self.api("sessions") if s["path"] == notebook]

    def shut_down(self, notebook):
        """Delete the notebook's sessions, which shuts their kernels down; fails if one is still listed."""
        for session in self.sessions(notebook):
            self.api(f"sessions/{urllib.parse.quote(session['id'])}", method="DELETE")
        left = self.sessions(notebook)
        assert left == [], f"the kernel of {notebook} is still running after its session was deleted: {left}"


def _stop(server: subprocess.Popen) -> None:
    """SIGTERM lets the server shut its kernels down; whatever is left of its process group is killed."""
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


def start(tmp: Path, jupyter: Path | None = None, environ: dict | None = None):
    """Start the server in the empty folder `tmp`; returns (Server, stop function).

    By default the server is this environment's; `jupyter` and `environ` start another's (the learner's kit,
    tests/kit_venv.py, which has JupyterLab but not Notebook 7)."""
    if jupyter is None:
        for package in ("jupyterlab", "notebook"):
            if importlib.util.find_spec(package) is None:
                pytest.fail(f"the Python package {package} is not installed in {sys.prefix}; {INSTALL_HINT}")
    jupyter_bin = jupyter or Path(sys.executable).with_name("jupyter")
    base = os.environ if environ is None else environ
    root, config = tmp / "root", tmp / "config"
    root.mkdir()
    config.mkdir()
    (config / "jupyter_server_config.json").write_text(json.dumps(SERVER_CONFIG), encoding="utf-8")
    # no "get notified about Jupyter news?" toast over the notebook
    settings = config / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}', encoding="utf-8")

    port, token = free_port(), secrets.token_hex(16)
    env = dict(base,
               PATH=f"{jupyter_bin.parent}{os.pathsep}{base.get('PATH', '')}",
               JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               JUPYTER_DATA_DIR=str(tmp / "data"), IPYTHONDIR=str(tmp / "ipython"))
    log_path = tmp / "server.log"
    with open(log_path, "w", encoding="utf-8") as log:
        process = subprocess.Popen(
            [str(jupyter_bin), "lab", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
             "--ServerApp.port_retries=0", f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}",
             "--ServerApp.allow_root=True"],
            cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}", token, root, log_path)
    deadline = time.monotonic() + 60
    while True:
        try:
            server.api("status")
            return server, lambda: _stop(process)
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                _stop(process)
                pytest.fail("the Jupyter server did not start:\n" + log_path.read_text(encoding="utf-8")[-4000:])
            time.sleep(0.1)


# ---------------------------------------------------------------- a test notebook in a front end
# front end -> address of its page for `notebook` (the file name in the server's root folder). JupyterLab
# keeps its layout in a workspace named in the URL and restores it on the next load: each notebook gets a
# workspace of its own, so a notebook opened by an earlier test is never restored into a later test's page,
# and `reset` empties it (without it, a fresh config folder's default layout is restored while the notebook
# opens, and about every other time the notebook then never asks for a kernel).
FRONT_ENDS = {
    "jupyterlab": "/lab/workspaces/{workspace}/tree/{notebook}?reset&",
    "notebook7": "/notebooks/{notebook}?",
}
START, PROBE, SET = range(3)  # the cells of a kernel test's notebook


def write_notebook(server: Server, name: str, cells: list[str]) -> str:
    """Write a notebook of `cells` into the server's root folder; returns its file name."""
    notebook = f"{name}.ipynb"
    path = server.root / notebook
    assert not path.exists(), f"two kernel tests want the same notebook {notebook}"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(nb, path)
    return notebook


@dataclass
class KernelPage:
    """A test notebook open in a front end (a Playwright page), its widget displayed by a running kernel."""
    page: object
    server: Server
    notebook: str
    front_end: str
    widget: str  # the root's selector

    def open(self, attempts=4):
        """Start the kernel, open the notebook, run its first cell and wait for the widget to appear.

        The kernel is started through the REST API, as the front end itself would: the page then finds a running
        session to attach to, instead of racing to start one while a freshly started JupyterLab is still restoring
        its workspace. A front end that has just started can still open the notebook without attaching it to the
        kernel, or attach it a moment after its own status already says "idle"; a cell run then is silently
        dropped. So what counts is the widget on the page: if it does not appear, load the page again and rerun.
        """
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        self.server.api("sessions", method="POST", body={"path": self.notebook, "name": self.notebook,
                                                         "type": "notebook", "kernel": {"name": "python3"}})
        address = FRONT_ENDS[self.front_end].format(workspace=Path(self.notebook).stem,
                                                    notebook=urllib.parse.quote(self.notebook))
        self.page.goto(f"{self.server.base}{address}token={self.server.token}")
        for _ in range(attempts):
            self.cell(PROBE).locator(".jp-InputArea-editor").wait_for(timeout=60000)
            self.kernel_idle(seconds=5)  # a head start only: the server's record can say "busy" long after
            self.run(START)
            try:
                self.page.locator(self.widget).wait_for(timeout=20000)
                return self
            except PlaywrightTimeout:
                self.page.reload()
        pytest.fail(f"the widget {self.widget} never appeared: the page did not run {self.notebook} in its kernel "
                    f"({attempts} attempts)")

    def kernel_idle(self, seconds):
        """Whether, within `seconds`, the server reports the notebook's kernel as idle. (Its connection count is not
        used: a websocket handshake the page gives up on counts as a disconnect that never connected.)"""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(s["kernel"]["execution_state"] == "idle" for s in self.server.sessions(self.notebook)):
                return True
            time.sleep(0.1)
        return False

    def cell(self, k):
        return self.page.locator(".jp-Notebook .jp-Cell").nth(k)

    def run(self, k):
        """Put the cursor in cell k and press Shift+Enter, as a reader would."""
        self.cell(k).locator(".jp-InputArea-editor").click()
        self.page.keyboard.press("Shift+Enter")

    def output(self, k):
        return "\n".join(self.cell(k).locator(".jp-OutputArea-output").all_inner_texts())

    def wait_for_output(self, k, text):
        self.page.wait_for_function("([k, text]) => document.querySelectorAll('.jp-Notebook .jp-Cell')[k]"
                                    ".innerText.includes(text)", arg=[k, text], timeout=30000)

    def probe(self, previous_n=0):
        """Run the probe cell and wait for its fresh printout; returns what Python holds."""
        self.run(PROBE)
        self.page.wait_for_function(
            """([k, prev]) => {
                const cell = document.querySelectorAll('.jp-Notebook .jp-Cell')[k];
                const m = cell && cell.innerText.match(/STATE (\\{.*\\})/);
                return m !== null && JSON.parse(m[1]).n > prev;
            }""", arg=[PROBE, previous_n], timeout=30000)
        line = next(s for s in self.output(PROBE).splitlines() if s.startswith("STATE "))
        return json.loads(line[len("STATE "):])

    def probe_until(self, done, py=None, tries=5):
        """Widget messages reach the kernel asynchronously: re-run the probe until Python's state satisfies `done`."""
        py = py or {"n": 0}
        for _ in range(tries):
            py = self.probe(py["n"])
            if done(py):
                break
        return py


def widget_errors(errors):
    """Page errors, leaving out those raised wholly inside the front end's own core bundle under /static/
    (Notebook 7.6.5 throws one while loading its shortcut settings, with no widget on the page)."""
    def core_only(error):
        frames = [line for line in error.splitlines()[1:] if "://" in line]
        return bool(frames) and all("/static/" in line for line in frames)
    return [e for e in errors if not core_only(e)]
