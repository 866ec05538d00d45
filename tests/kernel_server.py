"""One Jupyter server for the running-kernel tests of a pytest process (the `jupyter_server` fixture in conftest.py).

`jupyter lab` with temporary config, runtime and data folders (the venv's data path still supplies the anywidget
extension and the kernel). With the `notebook` package installed it also serves Notebook 7's pages, so both
front ends are tested against the same server. Each test writes its own notebook into the root folder and
shuts its kernel down through the REST API when it ends.
"""
from __future__ import annotations

import importlib.util
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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

    port, token = _free_port(), secrets.token_hex(16)
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
