"""The chapter registry (_ext/chapter_registry.py) covers the book, and every chapter has what it needs.

Each notebook of _toc.yml is a chapter of the registry; these tests fail, naming the chapter, when one lacks its
table in book/chapters.toml, its list of worked figures, its content test or its course-map stage, and when
something else (a table, a stage, a hint's notebook, a notebook file) names a chapter the book does not have.
The tests that cover “each chapter” (answer boxes, “你来写”, pages, handouts, …) take their chapters from the
registry, so a chapter that is here is covered by them all.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import chapter_registry
from figures import FIGURES, figures
from labcode import overview
from labcode.practice.problems import KINDS
from labcode.practice.report import SECTIONS

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = chapter_registry.chapters()
TOML = chapter_registry.FACTS.relative_to(ROOT)


def test_every_notebook_of_the_book_is_a_chapter_of_the_toc():
    files = sorted(p.stem for p in (ROOT / "book").glob("*.ipynb"))
    listed = sorted(c.stem for c in CHAPTERS)
    assert files == listed, f"notebooks in book/ but not in _toc.yml: {sorted(set(files) - set(listed))}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.stem)
def test_every_chapter_has_its_facts(chapter):
    assert chapter.table is not None, f"{chapter.docname} is in _toc.yml: give it a [{chapter.stem}] table in {TOML}"
    assert set(chapter.table) == chapter_registry.FACT_KEYS, f"[{chapter.stem}] in {TOML}: {sorted(chapter.table)}"
    assert chapter.answer_boxes <= set(KINDS), f"[{chapter.stem}]: unknown kinds {chapter.answer_boxes - set(KINDS)}"
    assert isinstance(chapter.you_write, int) and chapter.you_write >= 0, f"[{chapter.stem}]: you_write"


def test_every_table_is_a_chapters():
    stale = set(chapter_registry.facts()) - {c.stem for c in CHAPTERS}
    assert not stale, f"{TOML} has tables for notebooks that are not in _toc.yml: {sorted(stale)}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.stem)
def test_every_chapter_has_its_worked_figures(chapter):
    assert chapter.stem in FIGURES, f"tests/figures.py: add {chapter.stem!r} and its worked figures to FIGURES"
    assert figures(chapter.stem), f"tests/figures.py: the list of {chapter.stem} is empty"


def test_every_list_of_figures_is_a_chapters():
    assert set(FIGURES) <= {c.stem for c in CHAPTERS}, f"FIGURES of tests/figures.py: {sorted(FIGURES)}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.stem)
def test_every_chapter_has_its_content_test(chapter):
    test = chapter.content_test.relative_to(ROOT)
    assert chapter.content_test.is_file(), f"{chapter.docname}: write {test}, the checks of what it prints"


@pytest.mark.parametrize("chapter", chapter_registry.numbered(), ids=lambda c: c.stem)
def test_every_numbered_chapter_lights_its_own_stage_of_the_course_map(chapter):
    stage = chapter.stage
    assert stage, f"{chapter.docname}: the cell under its title shows no `labcode.course_map(\"…\")`"
    assert stage in overview.STAGES, f"{chapter.docname} lights {stage!r}: add it to STAGES in labcode/overview.py"
    assert str(overview.STAGES[stage].chapter) == chapter.number, \
        f"STAGES[{stage!r}] in labcode/overview.py says chapter {overview.STAGES[stage].chapter}, not {chapter.number}"


def test_every_stage_of_the_course_map_is_a_chapters():
    shown = {c.stage for c in chapter_registry.numbered()}
    assert set(overview.STAGES) == shown, f"stages no chapter shows: {sorted(set(overview.STAGES) - shown)}"


@pytest.mark.parametrize("notebook", SECTIONS)
def test_the_hints_link_to_notebooks_of_the_book_with_their_chapters_labels(notebook):
    """The course package links its hints to notebooks by name (it has no _toc.yml): they must be chapters here."""
    chapter = chapter_registry.by_stem(Path(notebook).stem)
    wrong = [label for label in SECTIONS[notebook] if not label.startswith(chapter.prefix)]
    assert not wrong, f"SECTIONS of labcode/practice/report.py: {wrong} under {notebook}, {chapter.label}"
