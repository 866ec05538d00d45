"""The chapter registry: every notebook of _toc.yml after the home page (the numbered chapters, then the
appendix), with what is known about it, in one place.

The tests that cover “each chapter”, the PDF build and the benchmarks take their chapters from `chapters()`, so a
notebook added to _toc.yml is covered by all of them, and tests/book/test_chapters.py fails, naming the chapter,
when something a chapter needs is missing (its facts below, its figures, its content test, its course-map stage).

Read from _toc.yml and the notebook itself: the order, the number (1, 2, … then A, … by the rules of book_layout),
the title (the first heading), the file names, the page, the label prefix (ch2-, app-) and the course-map stage its
map cell lights. From book/chapters.toml (FACTS), one table per notebook: what the notebook cannot say about itself
because the notebook is checked against it, the kinds of answer box it must hold. Its “你来写” are the rows of the
course package's exercise table (labcode/practice/exercises.py), which the grader also reads.

The course package does not read this (the learner's kit has the wheel and the notebooks, no _toc.yml): labcode
knows only the notebooks its hints link to (SECTIONS in labcode/practice/report.py) and the stages of its
course map (STAGES in labcode/overview.py); tests/book/test_chapters.py holds both to the registry.
"""
from __future__ import annotations

import functools
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import yaml

import book_layout
from labcode.practice.exercises import EXERCISES

ROOT = Path(__file__).resolve().parents[1]
TOC = ROOT / "_toc.yml"
FACTS = ROOT / "book" / "chapters.toml"
FACT_KEYS = {"answer_boxes"}
COURSE_MAP = re.compile(r"""\bcourse_map\(\s*["']([\w-]+)["']""")


def toc_files() -> list[str]:
    """Docnames of every page in _toc.yml after the root, in order."""
    toc = yaml.safe_load(TOC.read_text(encoding="utf-8"))
    entries = list(toc.get("chapters", []))
    for part in toc.get("parts", []):
        entries += part.get("chapters", [])
    return [str(Path(e["file"]).with_suffix("")) for e in entries]


def root_doc() -> str:
    """The home page's docname (_toc.yml's root)."""
    return yaml.safe_load(TOC.read_text(encoding="utf-8"))["root"]


@functools.cache
def _cells(path: Path) -> tuple[dict, ...]:
    return tuple(json.loads(path.read_text(encoding="utf-8"))["cells"])


def first_heading(docname: str) -> str:
    """The page's first `# ` heading (its title); the file name when it has none."""
    path = ROOT / f"{docname}.ipynb"
    if path.exists():
        text = "\n".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")
    else:
        path = path.with_suffix(".md")
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    match = re.search(r"^#\s+(.+)$", text, flags=re.M)
    return match.group(1).strip() if match else Path(docname).name


def toc_pages() -> list[tuple[str, str, bool]]:
    """(docname, title, notebook) of every page after the root, as book_layout.numbers takes them."""
    return [(d, first_heading(d), (ROOT / f"{d}.ipynb").exists()) for d in toc_files()]


def facts() -> dict[str, dict]:
    """book/chapters.toml: {notebook stem: its table}."""
    return tomllib.loads(FACTS.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Chapter:
    """One notebook of _toc.yml: a numbered chapter or an appendix."""

    docname: str          # book/02_gradient
    title: str            # its first heading
    number: str           # "2"; "A" for the first page of the back matter
    table: dict | None    # its table in book/chapters.toml, None when it has none

    @property
    def stem(self) -> str:
        return Path(self.docname).name

    @property
    def appendix(self) -> bool:
        return not self.number.isdigit()

    @property
    def label(self) -> str:
        """第 2 章, or 附录 A."""
        return book_layout.label(self.number)

    @property
    def handout_title(self) -> str:
        return book_layout.handout_title(self.number, self.title)

    @property
    def prefix(self) -> str:
        """How the chapter's labels start (sections, exercises, answer boxes): ch2-, or app- in the appendix."""
        return "app-" if self.appendix else f"ch{self.number}-"

    @property
    def notebook(self) -> Path:
        return ROOT / f"{self.docname}.ipynb"

    @property
    def page(self) -> str:
        """Its page in the built site, from the site's root."""
        return f"{self.docname}.html"

    @property
    def content_test(self) -> Path:
        """The test file of what it prints: tests/book/test_chapter2_content.py, test_appendix_content.py."""
        name = self.stem if self.appendix else f"chapter{self.number}"
        return ROOT / "tests" / "book" / f"test_{name}_content.py"

    @property
    def stage(self) -> str | None:
        """The course-map stage its map cell lights (`labcode.course_map("gradient")`); None without a map."""
        found = (COURSE_MAP.search("".join(c["source"])) for c in _cells(self.notebook) if c["cell_type"] == "code")
        return next((match.group(1) for match in found if match), None)

    def _fact(self, key: str):
        if self.table is None:
            raise LookupError(f"{self.docname} is in _toc.yml but {FACTS.relative_to(ROOT)} has no [{self.stem}] table")
        if key not in self.table:
            raise LookupError(f"[{self.stem}] in {FACTS.relative_to(ROOT)} does not say {key}")
        return self.table[key]

    @property
    def answer_boxes(self) -> frozenset[str]:
        """The kinds of answer box (动手算) it must hold, at least one box of each."""
        return frozenset(self._fact("answer_boxes"))

    @property
    def you_write(self) -> int:
        """How many “你来写” it asks for: its numbers in labcode's exercise table (one may ask for two functions)."""
        return len({e.number for e in EXERCISES if e.notebook == self.notebook.name})


@functools.cache
def chapters() -> tuple[Chapter, ...]:
    """Every notebook of _toc.yml after the root, in order (the glossary, a Markdown page, is in book.pdf only)."""
    pages, tables = toc_pages(), facts()
    numbers = book_layout.numbers(pages)
    return tuple(Chapter(d, title, numbers[d], tables.get(Path(d).name)) for d, title, notebook in pages if notebook)


def numbered() -> tuple[Chapter, ...]:
    """The numbered chapters (第 1 章, …), without the back matter."""
    return tuple(c for c in chapters() if not c.appendix)


def by_stem(stem: str) -> Chapter:
    found = [c for c in chapters() if c.stem == stem]
    if not found:
        raise LookupError(f"{stem} is not a notebook of _toc.yml: {[c.stem for c in chapters()]}")
    return found[0]


def by_label(label: str) -> Chapter:
    """The chapter a label belongs to, by its prefix (ch2-ex-write-… -> chapter 2)."""
    found = [c for c in chapters() if label.startswith(c.prefix)]
    if not found:
        raise LookupError(f"{label!r} starts with no chapter's prefix: {[c.prefix for c in chapters()]}")
    return found[0]
