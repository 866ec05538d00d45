"""Ruff (pinned in requirements.txt, configured in pyproject.toml) finds nothing in the code or the notebooks;
labcode's comments are in one language."""
import io
import re
import subprocess
import sys
import tokenize
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


# One comment language per layer (CONTRIBUTING, "Comments"): Chinese in labcode's Python, English elsewhere.
ENGLISH_PROSE = re.compile(r"\b(the|a|an|of|to|is|are|and|or|in|on|for|with|by|as|from|this|that|it|not|no|when|"
                           r"each|per|only|its|into|than|but|if|we|one|all|be|here)\b", re.IGNORECASE)
CJK = re.compile(r"[\u4e00-\u9fff]")


def english_comments(path):
    """The comments of a Python file written in English prose: no Chinese, and an English function word."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [f"{path.name}:{t.start[0]}: {t.string}" for t in tokens
            if t.type == tokenize.COMMENT and not CJK.search(t.string) and ENGLISH_PROSE.search(t.string)
            and not re.match(r"#\s*(noqa|type:|pragma|doctest:)", t.string)]


def test_labcode_comments_are_in_chinese():
    package = ROOT / "labcode"
    modules = {p.relative_to(package).as_posix(): p for p in package.rglob("*.py")}
    english = [line for _, path in sorted(modules.items()) for line in english_comments(path)]
    assert english == [], "labcode's comments are in Chinese (CONTRIBUTING):\n" + "\n".join(english)


def test_the_comment_check_reads_english_and_lets_shapes_and_chinese_pass(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("x = 1  # (B, T, V)\ny = 2  # 先平移再除以 τ\nz = 3  # the span of the row\n", encoding="utf-8")
    assert english_comments(sample) == ["sample.py:3: # the span of the row"]
