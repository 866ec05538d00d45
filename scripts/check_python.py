#!/usr/bin/env python3
"""Exit with a clear message (Chinese and English) when this Python is older than the project's floor.

The floor is read from `requires-python` in pyproject.toml, so it is stated in one place.
Written for old interpreters too (runs on Python 3.6 and newer).
"""
import re
import sys
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def floor():
    match = re.search(r'^requires-python\s*=\s*">=\s*(\d+)\.(\d+)"', PYPROJECT.read_text(encoding="utf-8"), re.M)
    if not match:
        sys.exit("pyproject.toml has no requires-python = \">=X.Y\" line")
    return int(match.group(1)), int(match.group(2))


def message(found, need):
    need_text = "{}.{}".format(*need)
    return "\n".join([
        f"本课程需要 Python {need_text} 或更新版本，当前的 python3 是 {found}（{sys.executable}）。",
        f"This course needs Python {need_text} or newer; python3 here is {found} ({sys.executable}).",
        "",
        "安装较新的 Python，任选一种 / Get a newer Python, any one of:",
        "  uv python install 3.13               # https://docs.astral.sh/uv/  (any Linux, macOS)",
        "  pyenv install 3.13 && pyenv local 3.13",
        "  sudo add-apt-repository ppa:deadsnakes/ppa && sudo apt-get install python3.13 python3.13-venv"
        "   # Ubuntu",
        "然后用它重新运行 / then run make with it:",
        "  make PYTHON=python3.13 build",
    ])


def main():
    need = floor()
    if sys.version_info[:2] < need:
        found = ".".join(str(part) for part in sys.version_info[:3])
        sys.stderr.write(message(found, need) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
