"""Every public function of labcode's maths and data says in its docstring which section of the book teaches it
("讲解：:ref:`ch4-counts`", as d2l's "Defined in :numref:"), and the section exists and speaks of it."""
import importlib
import inspect
import json
import pkgutil
import re
from pathlib import Path

import pytest

import labcode
import labcode.widgets

ROOT = Path(__file__).resolve().parents[2]
# Every public module of labcode, but the ones that teach nothing themselves: the figures, the course map, the fonts.
NOT_TAUGHT = {"plots", "overview", "fonts"}
MODULES = [importlib.import_module(f"labcode.{m.name}") for m in pkgutil.iter_modules(labcode.__path__)
           if not m.ispkg and not m.name.startswith("_") and m.name not in NOT_TAUGHT]
WIDGETS = [getattr(labcode.widgets, name) for name in labcode._WIDGETS if name.islower()]
LABEL = re.compile(r"^\(([\w-]+)\)=\s*$", re.M)
REFERENCE = re.compile(r":(ref|doc):`([^`]+)`")


def public_callables():
    """(qualified name, object) of every public function and class defined in the modules, and the widget factories."""
    found = [(f"{m.__name__}.{name}", obj) for m in MODULES for name, obj in vars(m).items()
             if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
             and obj.__module__ == m.__name__]
    return found + [(f"labcode.widgets.{f.__name__}", f) for f in WIDGETS]


def test_every_teaching_module_and_widget_is_read():
    assert {"probability", "bigram", "low_rank", "vocab"} <= {m.__name__.split(".")[-1] for m in MODULES}
    # the scan sees the factories (a new widget needs no entry here)
    assert {"softmax_explorer", "bigram_trainer"} <= {f.__name__ for f in WIDGETS} and all(map(callable, WIDGETS))


def book_sections():
    """label -> the text (prose and code) from that label to the next one; "/intro"-style paths -> a whole page."""
    sections = {}
    for page in [ROOT / "intro.ipynb", *sorted((ROOT / "book").glob("*.ipynb"))]:
        cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells)
        sections["/" + page.relative_to(ROOT).with_suffix("").as_posix()] = text
        pieces = LABEL.split(text)             # text, label, text, label, text, ...
        sections.update(zip(pieces[1::2], pieces[2::2], strict=True))
    for page in sorted((ROOT / "book").glob("*.md")):
        sections.update((label, "") for label in LABEL.findall(page.read_text(encoding="utf-8")))
    return sections


def problems(callables, sections):
    """What is wrong with the sections the docstrings point at."""
    found, book = [], "\n".join(sections.values())
    for name, obj in callables:
        short = name.rsplit(".", 1)[1]
        line = next((ln for ln in (obj.__doc__ or "").splitlines() if ln.strip().startswith("讲解：")), None)
        if line is None:
            found.append(f"{name}: no line 讲解：:ref:`label` in its docstring")
            continue
        targets = [target for _, target in REFERENCE.findall(line)]
        missing = [t for t in targets if t not in sections]
        if missing or not targets:
            found.append(f"{name}: points at {missing or line!r}, which the book does not have")
        elif re.search(rf"\b{short}\b", book) and not any(re.search(rf"\b{short}\b", sections[t]) for t in targets):
            found.append(f"{name}: the book uses it, but not in {targets}")
    return found


def test_every_public_docstring_points_at_a_section_that_teaches_it():
    assert problems(public_callables(), book_sections()) == []


def test_the_check_sees_a_missing_line_a_missing_label_and_a_section_that_does_not_use_the_function():
    def count_matrix():
        """数一数。

        讲解：:ref:`ch5-counts`
        """

    def count_probs():
        """概率。

        讲解：:ref:`ch1-softmax`
        """

    sections = {"ch4-counts": "bigram.count_probs(C)", "ch1-softmax": "labcode.softmax(z)"}
    found = problems([("m.entropy", len), ("m.count_matrix", count_matrix), ("m.count_probs", count_probs)], sections)
    assert [f.split(":")[0] for f in found] == ["m.entropy", "m.count_matrix", "m.count_probs"], found


@pytest.mark.parametrize("label", ["ch4-counts", "ch3-corpus", "/intro"])
def test_the_sections_are_read_from_the_notebooks(label):
    assert len(book_sections()[label]) > 200
