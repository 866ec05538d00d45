"""Every package the code imports is declared, requirements.lock pins what requirements.txt asks for, and .venv
holds what the lock says (`make` installs from it; `make lock` rewrites it after requirements.txt changes)."""
from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ["labcode", "tests", "scripts", "_ext", "latex"]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.M)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_modules(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def code_cells(notebook: Path) -> str:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    lines = "".join("".join(c["source"]) + "\n" for c in cells if c["cell_type"] == "code").splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))  # IPython magics


def third_party_imports() -> dict[str, list[str]]:
    """{module: distributions} for every module the project's code and notebooks import from outside itself."""
    sources = [p.read_text(encoding="utf-8") for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")]
    sources += [code_cells(nb) for nb in sorted((ROOT / "book").glob("*.ipynb"))]
    modules = set().union(*map(imported_modules, sources)) - set(sys.stdlib_module_names)
    distributions = importlib.metadata.packages_distributions()
    own = {p.parent.name if p.name == "__init__.py" else p.stem for folder in FOLDERS
           for p in (ROOT / folder).rglob("*.py")}
    return {m: distributions.get(m, []) for m in sorted(modules - own)}


def declared() -> set[str]:
    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    names = {canonical(m.group(1)) for m in PIN.finditer(text)}
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    dependencies = re.search(r"^dependencies = \[(.*?)\]", project, re.M | re.S).group(1)
    return names | {canonical(re.match(r'\s*"([A-Za-z0-9._-]+)', d).group(1)) for d in dependencies.split(",")}


def locked() -> dict[str, str]:
    return {canonical(name): version
            for name, version in PIN.findall((ROOT / "requirements.lock").read_text(encoding="utf-8"))}


def test_every_imported_package_is_declared():
    imports = third_party_imports()
    assert {"numpy", "yaml", "bs4", "playwright"} <= set(imports)  # the scan sees the code
    undeclared = {m: d for m, d in imports.items() if not {canonical(x) for x in d} & declared()}
    assert undeclared == {}, f"declare these in requirements.txt (or pyproject.toml), then `make lock`: {undeclared}"


def test_the_lock_pins_every_requirement_at_its_version():
    pins = dict(PIN.findall((ROOT / "requirements.txt").read_text(encoding="utf-8")))
    lock = locked()
    stale = {name: (version, lock.get(canonical(name))) for name, version in pins.items()
             if lock.get(canonical(name)) != version}
    assert len(pins) > 20 and stale == {}, f"requirements.txt and requirements.lock differ, run `make lock`: {stale}"
    assert "--hash=sha256:" in (ROOT / "requirements.lock").read_text(encoding="utf-8")


def test_the_environment_holds_the_locked_versions():
    """Every locked package that is installed has its locked version (platform-only ones, e.g. for Windows, are not)."""
    installed = {canonical(d.metadata["Name"]): d.version for d in importlib.metadata.distributions()}
    lock = locked()
    assert {"numpy", "jupyter-book", "sphinx-book-theme"} <= set(lock)
    # A package with a marker (one version per Python range, or one platform only) is left out.
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    marked = {canonical(n) for n in re.findall(r"^([A-Za-z0-9._-]+)==[^\n]*;", text, re.M)}
    wrong = {name: (version, installed.get(name)) for name, version in lock.items()
             if name not in marked and installed.get(name) != version}
    assert wrong == {}, f"the environment is not the locked one (locked, installed); `make` reinstalls it: {wrong}"
