"""Ruff (pinned in requirements.txt, configured in pyproject.toml) finds nothing in the code or the notebooks."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUFF = Path(sys.executable).with_name("ruff")
# The notebooks' code cells are linted too: ruff reads .ipynb (extend-include in pyproject.toml).
TARGETS = ["labcode", "scripts", "tests", "book", "_ext", "latex"]


def run_ruff(*args, cwd=ROOT):
    if not RUFF.exists():
        pytest.fail(f"{RUFF} is missing: `make` installs it from requirements.txt")
    return subprocess.run([str(RUFF), *args], capture_output=True, text=True, cwd=cwd)


def test_ruff_finds_nothing():
    proc = run_ruff("check", "--no-cache", "--output-format", "concise", *TARGETS)
    assert proc.returncode == 0, f"ruff check found problems (fix them, or run `ruff check --fix`):\n{proc.stdout}"


def test_ruff_uses_the_project_rules_and_reports_a_real_problem(tmp_path):
    """The check above can fail: the same configuration flags an unused import and an unsorted import block."""
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nimport os\n\nprint(os.sep)\n", encoding="utf-8")
    proc = run_ruff("check", "--no-cache", "--output-format", "concise",
                    "--config", str(ROOT / "pyproject.toml"), str(bad))
    assert proc.returncode == 1
    assert "F401" in proc.stdout and "I001" in proc.stdout
