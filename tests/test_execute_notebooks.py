"""`make execute` refreshes stored outputs deterministically: two runs write the same bytes."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "book").glob("*.ipynb"))


def execute(path):
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "execute_notebooks.py"), str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return path.read_bytes()


def test_two_refreshes_write_identical_notebooks(tmp_path):
    for source in NOTEBOOKS:
        copy = tmp_path / source.name
        shutil.copy(source, copy)
        first = execute(copy)
        assert execute(copy) == first, f"{source.name} changes from one refresh to the next"


def test_stored_notebooks_have_no_timings_and_consistent_widget_state():
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert all("execution" not in c.get("metadata", {}) for c in nb["cells"]), path.name
        state = nb["metadata"].get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        text = json.dumps(nb)
        referenced = set(re.findall(r"IPY_MODEL_([0-9a-f]{32})", text))
        referenced |= {o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
                       for c in nb["cells"] for o in c.get("outputs", [])
                       if "application/vnd.jupyter.widget-view+json" in o.get("data", {})}
        assert referenced <= set(state), f"{path.name} refers to widget models it does not store"
