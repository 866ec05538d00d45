"""The learner's environment, as the site tells a learner to make it: a fresh virtual environment holding only
the course wheel and JupyterLab (with what they require), nothing of the repository (`kit_env` in conftest.py).

uv creates it from its cache in a few seconds. Its packages are pinned to the versions of this test environment,
so the notebooks it runs must write exactly the stored outputs (made here by `make execute`). Processes in it
run from an empty folder, with this environment's bin folder, PYTHONPATH and user site-packages out of reach.
Its Python is also a Jupyter kernel, KERNEL_NAME, in the Jupyter data folder `jupyter` (put it on JUPYTER_PATH):
the kernel in which nbval runs the notebooks (tests/nbval_kit.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import build_kit
from per_run import once_per_run, run_root

KERNEL_NAME = "lm-by-hand"


@dataclass
class KitEnv:
    venv: Path     # the virtual environment
    work: Path     # an empty folder to run in
    jupyter: Path  # a Jupyter data folder whose kernels/KERNEL_NAME is the venv's Python as a Jupyter kernel

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    @property
    def python(self) -> Path:
        return self.bin / "python"

    def environ(self) -> dict:
        """os.environ with the kit's bin folder instead of the test environment's, and no way back to the repository."""
        ours = Path(sys.executable).parent
        path = [str(self.bin), *(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and Path(p) != ours)]
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONSTARTUP")}
        return {**env, "PATH": os.pathsep.join(path), "PYTHONNOUSERSITE": "1"}

    def run(self, *args) -> subprocess.CompletedProcess:
        """Run the kit's Python with `args` in the empty folder."""
        return subprocess.run([str(self.python), *map(str, args)], cwd=self.work, env=self.environ(),
                              capture_output=True, text=True)


def _uv(*args) -> None:
    uv = Path(sys.executable).with_name("uv")
    proc = subprocess.run([str(uv), *map(str, args)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"uv {' '.join(map(str, args[:2]))} failed:\n{proc.stdout}{proc.stderr}")


def at(root: Path) -> KitEnv:
    """The kit's environment that `create` makes in `root`."""
    return KitEnv(root / "venv", root / "work", root / "jupyter")


def create(root: Path, wheel: Path) -> KitEnv:
    """Make the kit's environment in `root` (which must not exist) from `wheel`."""
    kit = at(root)
    root.mkdir(parents=True)
    kit.work.mkdir()
    # The exact versions installed here, as constraints: the kit gets the same numpy, matplotlib, ipykernel...
    freeze = subprocess.run([str(Path(sys.executable).with_name("uv")), "pip", "freeze", "--python", sys.executable],
                            capture_output=True, text=True, check=True).stdout
    pins = root / "pins.txt"
    pins.write_text("".join(f"{line}\n" for line in freeze.splitlines() if "==" in line), encoding="utf-8")
    _uv("venv", "--quiet", "--python", sys.executable, kit.venv)
    _uv("pip", "install", "--quiet", "--python", kit.python, wheel, "jupyterlab", "--constraints", pins)
    spec = kit.jupyter / "kernels" / KERNEL_NAME / "kernel.json"
    spec.parent.mkdir(parents=True)
    spec.write_text(json.dumps({
        # Whatever folder a client starts it in (nbval: the notebook's own, inside the repository), the kernel works
        # in the empty folder, as a notebook downloaded on its own: IPython's sys.path entry "" is that folder, so
        # nothing of the repository can be imported, or read by a relative path.
        "argv": [str(kit.python), "-m", "ipykernel_launcher", "-f", "{connection_file}",
                 f"--IPKernelApp.exec_lines=__import__('os').chdir({str(kit.work)!r})"],
        "display_name": "Python 3 (lm-by-hand)", "language": "python",
        # PYTHONHASHSEED and MPLBACKEND as `make execute` runs the notebooks (Makefile), however pytest was started.
        "env": {"PATH": kit.environ()["PATH"], "PYTHONPATH": "", "PYTHONNOUSERSITE": "1",
                "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg"},
    }), encoding="utf-8")
    return kit


# --- once per test run, shared by the pytest-xdist workers (fixtures kit_wheel and kit_env; nbval's kernel) ---

def built_wheel(tmp_path_factory) -> Path:
    """The course wheel, built once per run by scripts/build_kit.py where the site build looks for it: in
    site-build/_build/kit/, beside the HTML, as `make build` puts it."""
    out = run_root(tmp_path_factory) / "site-build" / "_build" / "kit"
    return Path(once_per_run(tmp_path_factory, "kit-wheel", lambda: str(build_kit.build_wheel(out))))


def built_env(tmp_path_factory) -> KitEnv:
    """The kit's environment, made once per run from `built_wheel`."""
    root = run_root(tmp_path_factory) / "kit"
    once_per_run(tmp_path_factory, "kit-env", lambda: str(create(root, built_wheel(tmp_path_factory)).venv))
    return at(root)
