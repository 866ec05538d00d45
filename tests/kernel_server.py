"""Widgets in a RUNNING KERNEL: one Jupyter server and one open notebook per front end, shared by the kernel tests.

JupyterLab is the learner's kit's (server, extensions and kernel of tests/kit_venv.py); Notebook 7 is this
environment's (the kit has no `notebook` package). Opening a notebook costs seconds of CPU, so each front end gets one
page per test process (`kernel_notebooks` in conftest.py) showing one notebook: a first cell that imports json and
labcode and prints the kernel's Python, then the cells of every kernel test module collected, each with variable
names of its own. A module sets WIDGET (the root's selector), START (displays the widget), PROBE (a dict expression
of what Python holds; its cell prints "STATE {json}" with the execution count as "n"), SET (changes the widget from
Python and prints "SET …") and FRONT_ENDS when it runs in more than JupyterLab; the `kernel_page` fixture gives it
a `KernelPage`.
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
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from browser import free_port

# The server loads every extension installed in its venv: keep those that would reach the internet quiet.
SERVER_CONFIG = {
    # (window.jupyterapp: tests/kernel/test_learner_notebooks_kernel.py opens one notebook after another in one page)
    "LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
               "extension_manager": "readonly", "expose_app_in_browser": True},
    "LanguageServerManager": {"autodetect": False},
}
# JupyterLab restores the layout of its workspace while the notebook opens; `reset` empties it (without it, about
# every other time the notebook then never asks for a kernel).
FRONT_ENDS = {"jupyterlab": "/lab/tree/{notebook}?reset&", "notebook7": "/notebooks/{notebook}?"}
NOTEBOOK = "kernel_tests.ipynb"
FIRST_CELL = 'import json\nimport sys\nimport labcode\nprint("PYTHON", sys.executable)'
PROBE_CELL = 'print("STATE", json.dumps({{"n": get_ipython().execution_count, **{}}}, ensure_ascii=False))'
START, PROBE, SET = range(3)  # a module's cells, from its first (START, its probe and SET)


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

    def shut_down(self, notebook, within: float = 30):
        """Delete the notebook's sessions, which shuts their kernels down; fails if one is still listed after
        `within` seconds. A kernel that is still starting on a busy machine may outlive the first deletion, or its
        session be listed again a moment later: delete what is listed until nothing is."""
        deadline = time.monotonic() + within
        while (left := self.sessions(notebook)) and time.monotonic() < deadline:
            for session in left:
                with suppress(urllib.error.HTTPError):   # already gone (404)
                    self.api(f"sessions/{urllib.parse.quote(session['id'])}", method="DELETE")
            time.sleep(0.5)
        assert left == [], f"the kernel of {notebook} is still running {within} s after its session was deleted: {left}"


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


def start(tmp: Path, kit=None):
    """Start `jupyter lab` (the kit's, or this environment's) in the empty folder `tmp`; returns (Server, stop)."""
    if kit is None and importlib.util.find_spec("notebook") is None:
        pytest.fail(f"the package notebook is not installed in {sys.prefix}: pip install -r requirements.txt")
    jupyter_bin = kit.bin / "jupyter" if kit else Path(sys.executable).with_name("jupyter")
    base = kit.environ() if kit else os.environ
    root, config = tmp / "root", tmp / "config"
    root.mkdir()
    config.mkdir()
    (config / "jupyter_server_config.json").write_text(json.dumps(SERVER_CONFIG), encoding="utf-8")
    # no "get notified about Jupyter news?" toast over the notebook
    settings = config / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}', encoding="utf-8")
    # every cell drawn, not only those near the viewport: tests/kernel/test_learner_notebooks_kernel.py reads them all
    tracker = config / "lab" / "user-settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True)
    (tracker / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}', encoding="utf-8")

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


def cells(module) -> list[str]:
    return [module.START, *([PROBE_CELL.format(module.PROBE), module.SET] if hasattr(module, "PROBE") else [])]


class FrontEnds(ExitStack):
    """The shared notebook open in each front end, on first use, until the exit (`kernel_notebooks` in conftest.py)."""

    def __init__(self, request, chromium, keep_log):
        super().__init__()
        self.request, self.chromium, self.keep_log, self.open = request, chromium, keep_log, {}
        modules = dict.fromkeys(getattr(item, "module", None) for item in request.session.items)
        # the kernel test modules collected (tests/test_<widget>_kernel.py; other test modules may name a START too)
        self.modules = [m for m in modules if m is not None and m.__name__.endswith("_kernel") and hasattr(m, "START")]

    def __call__(self, front_end) -> OpenNotebook:
        if front_end not in self.open:
            self.open[front_end] = self.enter_context(self._open(front_end))
        return self.open[front_end]

    @contextmanager
    def _open(self, front_end):
        """Start the front end's server and open the notebook of its modules in a page of its own, offline, at
        1280 px; on exit stop the kernel and the server and keep the server's log."""
        from widget_page import offline_context

        kit = self.request.getfixturevalue("kit_env") if front_end == "jupyterlab" else None
        server, stop = start(self.request.getfixturevalue("tmp_path_factory").mktemp(front_end), kit)
        context, page = offline_context(self.chromium, viewport={"width": 1280, "height": 1000})
        try:
            modules = [m for m in self.modules if front_end in getattr(m, "FRONT_ENDS", ["jupyterlab"])]
            notebook = OpenNotebook(page, server, front_end, modules)
            if kit:  # the learner's kernel, not this environment's
                assert Path(notebook.python).is_relative_to(kit.venv), f"the kernel runs {notebook.python}"
            yield notebook
            server.shut_down(NOTEBOOK)
        finally:
            context.close()
            stop()
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            self.keep_log(f"jupyter-{front_end}-{worker}", server.log.read_text(encoding="utf-8"))


class OpenNotebook:
    """The shared notebook open in a front end (a Playwright page), its first cell run in the kernel."""

    def __init__(self, page, server: Server, front_end: str, modules: list):
        self.page, self.server, self.front_end, self.errors = page, server, front_end, []
        page.on("pageerror", lambda e: self.errors.append(f"{e}\n{e.stack}"))
        self.first, source = {}, [FIRST_CELL]
        for module in modules:
            self.first[module.__name__] = len(source)
            source += cells(module)
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in source])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
        nbformat.write(nb, server.root / NOTEBOOK)
        self.python = self._open(FRONT_ENDS[front_end].format(notebook=NOTEBOOK))
        for module in modules:
            self.run(self.first[module.__name__] + START)

    def _open(self, address, attempts=4) -> str:
        """Start the kernel, open the notebook and run its first cell; returns the kernel's Python.

        The kernel is started through the REST API, as the front end itself would: the page then finds a running
        session to attach to, instead of racing to start one while a freshly started JupyterLab is still restoring
        its workspace. The first cell runs once the page says its kernel is idle; a front end that has just started
        can still drop that run (or never attach the notebook to the kernel): then the page is loaded again.
        """
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        self.server.api("sessions", method="POST", body={"path": NOTEBOOK, "name": NOTEBOOK, "type": "notebook",
                                                         "kernel": {"name": "python3"}})
        self.page.goto(f"{self.server.base}{address}token={self.server.token}")
        for _ in range(attempts):
            try:
                self.page.locator(".jp-Notebook-ExecutionIndicator[data-status=idle]").wait_for(timeout=30000)
                self.run(0)
                self.wait_for_output(0, "PYTHON ", timeout=10000)
                return self.output(0).split("PYTHON ", 1)[1].strip()
            except PlaywrightTimeout:
                self.page.reload()
        pytest.fail(f"the page never ran {NOTEBOOK} in its kernel ({attempts} attempts)")

    def cell(self, k):
        return self.page.locator(".jp-Notebook .jp-Cell").nth(k)

    def run(self, k):
        """Put the cursor in cell k and press Shift+Enter, as a reader would."""
        self.cell(k).locator(".jp-InputArea-editor").click()
        self.page.keyboard.press("Shift+Enter")

    def output(self, k):
        return "\n".join(self.cell(k).locator(".jp-OutputArea-output").all_inner_texts())

    def wait_for_output(self, k, text, timeout=30000):
        self.page.wait_for_function("([k, text]) => document.querySelectorAll('.jp-Notebook .jp-Cell')[k]"
                                    ".innerText.includes(text)", arg=[k, text], timeout=timeout)

    def assert_clean(self, screenshot: Path):
        """Take a screenshot; no request may have left 127.0.0.1, nor any script error been raised, since the last
        check."""
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(screenshot))
        external, errors = list(self.page.external), widget_errors(self.errors)
        self.page.external.clear()
        self.errors.clear()
        assert external == [], f"requests left 127.0.0.1: {external}"
        assert errors == [], f"JavaScript errors: {errors}"

    def widget(self, module) -> KernelPage:
        kernel_page = KernelPage(self, self.first[module.__name__], module.WIDGET)
        kernel_page.root.wait_for(timeout=30000)
        # JupyterLab skips drawing cells far from the viewport (content-visibility), and a skipped cell's inner
        # text reads as "": bring the module's widget on screen before its test reads it.
        kernel_page.root.scroll_into_view_if_needed()
        return kernel_page


@dataclass
class KernelPage:
    """A test module's cells in the open notebook, its widget displayed by the running kernel."""
    notebook: OpenNotebook
    first: int     # the module's START cell
    widget: str    # the root's selector

    @property
    def page(self):
        return self.notebook.page

    @property
    def root(self):
        return self.page.locator(self.widget)

    def run_set(self) -> str:
        """Run the module's SET cell and wait for what it prints (it prints "SET …"); returns that."""
        self.notebook.run(self.first + SET)
        self.notebook.wait_for_output(self.first + SET, "SET ")
        return self.notebook.output(self.first + SET).strip()

    def probe(self, previous_n=0):
        """Run the probe cell and wait for its fresh printout; returns what Python holds."""
        self.notebook.run(self.first + PROBE)
        self.page.wait_for_function(
            """([k, prev]) => {
                const cell = document.querySelectorAll('.jp-Notebook .jp-Cell')[k];
                const m = cell && cell.innerText.match(/STATE (\\{.*\\})/);
                return m !== null && JSON.parse(m[1]).n > prev;
            }""", arg=[self.first + PROBE, previous_n], timeout=30000)
        line = next(s for s in self.notebook.output(self.first + PROBE).splitlines() if s.startswith("STATE "))
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
