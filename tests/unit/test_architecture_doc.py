"""ARCHITECTURE.md cannot rot silently: every path it names exists, and every extension of _ext/ and every module
of labcode has its line in it."""
from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "ARCHITECTURE.md"
CODE = re.compile(r"`([^`\s]+)`")
FILE_TYPES = (".py", ".js", ".mjs", ".cjs", ".css", ".sty", ".toml", ".yml", ".md", ".ipynb", ".txt", ".json")
SKIP_DIRS = {".git", ".venv", "node_modules", "_build", "_vendor", "__pycache__", ".pytest_cache", ".hypothesis"}


def build_products() -> tuple[str, ...]:
    """What `make clean` removes: named in the doc, made by the build, absent from a fresh clone."""
    line = next(line for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
                if line.strip().startswith("rm -rf _build"))
    return tuple(line.split("rm -rf", 1)[1].split())


def named_paths(text: str) -> list[str]:
    """The code spans of `text` that name a file or folder: with a slash, or a file name with a known type."""
    return [span for span in CODE.findall(text)
            if re.fullmatch(r"[\w./*-]+", span) and ("/" in span or span.endswith(FILE_TYPES))]


def exists(span: str, everywhere: set[str]) -> bool:
    if "/" not in span:                       # a bare file name: somewhere in the repository
        return span in everywhere
    return any(ROOT.glob(span.rstrip("/"))) if "*" in span else (ROOT / span).exists()


def file_names() -> set[str]:
    names = set()
    for _, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        names.update(files)
    return names


def test_every_path_the_architecture_names_exists():
    text = DOC.read_text(encoding="utf-8")
    spans = named_paths(text)
    assert len(spans) > 50, "ARCHITECTURE.md names its files in `code`: the test found almost none"
    products = build_products()
    everywhere = file_names()
    missing = sorted({s for s in spans if not s.startswith(products) and not exists(s, everywhere)})
    assert not missing, f"ARCHITECTURE.md names paths that do not exist (moved or renamed? update the doc): {missing}"


def test_every_extension_and_labcode_module_is_on_the_map():
    text = DOC.read_text(encoding="utf-8")
    modules = [p for p in (ROOT / "_ext").glob("*.py")] + [p / "__init__.py" for p in (ROOT / "_ext").iterdir()
                                                            if (p / "__init__.py").is_file()]
    modules += [p for p in (ROOT / "labcode").glob("*.py") if p.name != "__init__.py"]
    unnamed = sorted(str(p.relative_to(ROOT)) for p in modules if f"`{p.relative_to(ROOT).as_posix()}`" not in text)
    assert not unnamed, f"give these their line in ARCHITECTURE.md (extensions, or the labcode map): {unnamed}"


def test_the_path_finder_sees_paths_and_only_paths():
    found = named_paths("`labcode/vocab.py`, `_config.yml`, `tests/unit/`, `book/*.ipynb`, `make check`, `check_*`, "
                        "`CI=true`, `maths.js`, `chN-`")
    assert found == ["labcode/vocab.py", "_config.yml", "tests/unit/", "book/*.ipynb", "maths.js"]
    assert not exists("labcode/no_such_module.py", set()) and not exists("nowhere.js", {"maths.js"})
    assert exists("book/*.ipynb", set()) and exists("maths.js", {"maths.js"})


def test_the_package_docstring_names_every_module_of_labcode():
    """`help(labcode)` is a learner's map from chapters to modules: a new module gets its place in it."""
    import pkgutil

    import labcode
    missing = [m.name for m in pkgutil.iter_modules(labcode.__path__)
               if f"``{m.name}``" not in labcode.__doc__ and m.name.lstrip("_") not in labcode.__doc__]
    assert missing == [], f"labcode/__init__.py's docstring does not name {missing}"
