"""Every test file sits in the folder of the heaviest thing it needs (CONTRIBUTING.md, “Where a test goes”):
`make check` runs tests/unit/ alone, and the workers start the files by folder (tests/conftest.py)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
LAYERS = ("kernel", "pdf", "site", "book", "unit")
# The shared fixtures (tests/conftest.py) that make a test heavy, by the layer they need, heaviest first.
NEEDS = {"kernel": {"kernel_page", "kernel_notebooks"},
         "pdf": {"pdf_dir"},
         "site": {"site_build", "built_site", "site_url", "site_tour", "chromium", "loaded", "page", "offline_page",
                  "kit_wheel", "kit_env"}}
FILES = sorted(TESTS.glob("*/test_*.py"))


def test_every_test_file_is_in_a_layer():
    loose = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert not loose, f"put these into the folder of what they need (CONTRIBUTING.md, “Where a test goes”): {loose}"
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(LAYERS), f"tests/ has the folders {sorted(folders)}, not the layers {LAYERS}"
    names = [p.name for p in FILES]
    assert len(names) == len(set(names)), "two test files share a name: the helpers import test modules by name"


def asked_fixtures(path: Path) -> set[str]:
    """The argument names of the module's functions: the fixtures its tests and its own fixtures ask for."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {arg.arg for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) for arg in node.args.args}


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_test_file_is_in_the_folder_of_the_heaviest_fixture_it_asks_for(path):
    asked = asked_fixtures(path)
    needed = next((layer for layer, fixtures in NEEDS.items() if asked & fixtures), None)
    folder = path.parent.name
    if needed:
        assert folder == needed, f"{path.name} asks for {sorted(asked & NEEDS[needed])}: it belongs in tests/{needed}/"
    else:
        assert folder in ("book", "unit"), f"{path.name} needs no build, browser or kernel: tests/unit/ or tests/book/"
