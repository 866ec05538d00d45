"""`make execute` is reproducible: refreshing a clean tree writes the stored notebooks again."""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = [ROOT / "intro.ipynb", *sorted((ROOT / "book").glob("*.ipynb"))]


def execute(paths):
    """`make execute` on these notebooks, in one process (it refreshes them in place)."""
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "execute_notebooks.py"), *map(str, paths)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def comparable(raw: bytes) -> dict:
    """The notebook as JSON, without the one field that names the interpreter's patch version."""
    nb = json.loads(raw)
    nb["metadata"].get("language_info", {}).pop("version", None)
    return nb


def differing_cells(new: dict, old: dict) -> list[str]:
    names = [f"cell {i}" for i, (a, b) in enumerate(zip(new["cells"], old["cells"], strict=False)) if a != b]
    if len(new["cells"]) != len(old["cells"]):
        names.append("the number of cells")
    if new["metadata"] != old["metadata"]:
        names.append("the notebook metadata (widget state)")
    return names


def test_a_refresh_writes_the_stored_notebooks_again(tmp_path):
    """One refresh of a copy equals the stored file (byte for byte but for the Python patch version): outputs,
    widget ids, widget code and PNGs are reproducible, and no stored output is stale or was edited by hand.
    nbval compares the outputs too, but not the widget state nor every byte of a picture."""
    copies = [Path(shutil.copy(source, tmp_path / source.name)) for source in NOTEBOOKS]
    execute(copies)
    stale = []
    for source, copy in zip(NOTEBOOKS, copies, strict=True):
        new, old = comparable(copy.read_bytes()), comparable(source.read_bytes())
        if new != old:
            stale.append(f"{source.name}: {', '.join(differing_cells(new, old))}")
    assert not stale, "`make execute` would change the stored notebooks:\n" + "\n".join(stale)


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
