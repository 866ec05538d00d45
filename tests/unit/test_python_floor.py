"""The Python floor is stated once (pyproject.toml) and said the same way everywhere, with a clear message below it."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "scripts" / "check_python.py"


def floor():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    major, minor = re.search(r'^requires-python = ">=(\d+)\.(\d+)"$', text, re.M).groups()
    return f"{major}.{minor}"


def run_check_as(version):
    """Run scripts/check_python.py as if the interpreter were `version` (a tuple)."""
    code = (f"import runpy, sys; sys.version_info = {version!r}; "
            f"runpy.run_path({str(CHECK)!r}, run_name='__main__')")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_floor_is_what_the_pins_need_and_what_this_interpreter_meets():
    assert floor() == "3.11"  # numpy 2.4, matplotlib 3.11 and hypothesis 6.170 need 3.11
    assert sys.version_info[:2] >= tuple(int(p) for p in floor().split("."))


def test_older_python_gets_a_bilingual_message_with_a_way_out():
    proc = run_check_as((3, 10, 13))
    assert proc.returncode == 1
    assert "本课程需要 Python 3.11 或更新版本" in proc.stderr and "3.10.13" in proc.stderr
    assert "This course needs Python 3.11 or newer" in proc.stderr
    for way in ("uv python install", "pyenv install", "deadsnakes", "make PYTHON="):
        assert way in proc.stderr


def test_floor_itself_passes_quietly():
    proc = run_check_as((3, 11, 0))
    assert proc.returncode == 0 and proc.stderr == ""


def test_makefile_and_readme_state_the_same_floor():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "scripts/check_python.py" in makefile.split("$(STAMP):", 1)[1].split("\n\n")[0]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Python {floor()} or newer" in readme and f"Python {floor()} 或更新版本" in readme
    assert "3.10)" in readme and "≥ 3.10" not in readme  # 3.10 is only named as the too-old example
