"""A small Sphinx project built in the test process (a notebook or two and a glossary), for the extensions that
change how cells are gathered and written: a few seconds, no site build (tests/test_deep_boxes.py,
tests/test_answer_folds.py)."""
from __future__ import annotations

import io
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


def conf(*extensions: str, extra: str = "") -> str:
    """conf.py loading myst_nb and the book's `extensions` (from _ext and latex/)."""
    return f"""
import sys
sys.path[:0] = [{str(ROOT / "_ext")!r}, {str(ROOT / "latex")!r}]
extensions = {["myst_nb", *extensions]!r}
myst_enable_extensions = ["colon_fence", "dollarmath"]
nb_execution_mode = "off"
numfig = True
language = "zh_CN"
html_search_language = "en"  # the Chinese search index would load jieba's dictionary: seconds for nothing here
root_doc = "index"
exclude_patterns = ["_build"]
""" + extra


def md(text):
    return {"cell_type": "markdown", "id": f"m{abs(hash(text)) % 10**8}", "metadata": {}, "source": text}


def code(source, outputs, metadata=None):
    return {"cell_type": "code", "id": f"c{abs(hash(source)) % 10**8}", "metadata": metadata or {},
            "execution_count": 1, "source": source, "outputs": outputs}


def notebook(cells) -> dict:
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "cells": cells}


def build(src: Path, builder: str, files: dict, conf_py: str, fresh: bool = True) -> tuple[Path, str]:
    """Build `files` (name -> text) with `conf_py`; (output folder, warnings)."""
    from sphinx.application import Sphinx
    from sphinx.util.console import nocolor
    from sphinx.util.docutils import docutils_namespace

    src.mkdir(parents=True, exist_ok=True)
    (src / "conf.py").write_text(conf_py, encoding="utf-8")
    for name, text in files.items():
        (src / name).write_text(text, encoding="utf-8")
    warnings = io.StringIO()
    nocolor()
    with docutils_namespace():  # each build registers its directives and nodes afresh
        app = Sphinx(str(src), str(src), str(src / "_build" / builder), str(src / "_build" / "doctrees"), builder,
                     status=None, warning=warnings, freshenv=fresh)
        app.build()
    return src / "_build" / builder, warnings.getvalue()
