"""The learner's environment, as the site tells a learner to make it: a fresh virtual environment holding only
the course wheel and JupyterLab (with what they require), nothing of the repository (`kit_env` in conftest.py).

uv creates it from its cache in a few seconds. Its packages are pinned to the versions of this test environment,
so the notebooks it runs must write exactly the stored outputs (made here by `make execute`). Processes in it
run from an empty folder, with this environment's bin folder, PYTHONPATH and user site-packages out of reach.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

KERNEL_NAME = "lm-by-hand"


@dataclass
class KitEnv:
    venv: Path    # the virtual environment
    work: Path    # an empty folder to run in
    kernels: Path  # a kernelspec folder holding KERNEL_NAME: the venv's Python as a Jupyter kernel

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

    def run(self, *args, env: dict | None = None) -> subprocess.CompletedProcess:
        """Run the kit's Python with `args` in the empty folder (in `env`, by default `environ()`)."""
        return subprocess.run([str(self.python), *map(str, args)], cwd=self.work, env=env or self.environ(),
                              capture_output=True, text=True)

    def kernel_manager(self):
        """A jupyter_client KernelManager that starts the kit's Python as the notebook's kernel."""
        from jupyter_client.kernelspec import KernelSpecManager
        from jupyter_client.manager import KernelManager
        specs = KernelSpecManager(kernel_dirs=[str(self.kernels)])
        return KernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=specs)


def _uv(*args) -> None:
    uv = Path(sys.executable).with_name("uv")
    proc = subprocess.run([str(uv), *map(str, args)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"uv {' '.join(map(str, args[:2]))} failed:\n{proc.stdout}{proc.stderr}")


def create(root: Path, wheel: Path) -> KitEnv:
    """Make the kit's environment in `root` (which must not exist) from `wheel`."""
    kit = KitEnv(root / "venv", root / "work", root / "kernels")
    root.mkdir(parents=True)
    kit.work.mkdir()
    # The exact versions installed here, as constraints: the kit gets the same numpy, matplotlib, ipykernel...
    freeze = subprocess.run([str(Path(sys.executable).with_name("uv")), "pip", "freeze", "--python", sys.executable],
                            capture_output=True, text=True, check=True).stdout
    pins = root / "pins.txt"
    pins.write_text("".join(f"{line}\n" for line in freeze.splitlines() if "==" in line), encoding="utf-8")
    _uv("venv", "--quiet", "--python", sys.executable, kit.venv)
    _uv("pip", "install", "--quiet", "--python", kit.python, wheel, "jupyterlab", "--constraints", pins)
    spec = kit.kernels / KERNEL_NAME / "kernel.json"
    spec.parent.mkdir(parents=True)
    spec.write_text(json.dumps({
        "argv": [str(kit.python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (lm-by-hand)", "language": "python",
        "env": {"PATH": kit.environ()["PATH"], "PYTHONPATH": "", "PYTHONNOUSERSITE": "1"},
    }), encoding="utf-8")
    return kit
