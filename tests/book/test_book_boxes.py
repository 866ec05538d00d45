"""The answer boxes in the book's notebooks: each chapter checks the hand computations the registry asks of it
(book/chapters.toml, answer_boxes), under its own labels (what a box is and does: tests/unit/test_answer_box.py)."""
import numpy as np
import pytest

import chapter_registry
from labcode.practice.problems import box_problem
from notebook_outputs import book_boxes

CHAPTERS = chapter_registry.chapters()


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.stem)
def test_every_chapter_has_its_hand_computations_checked(chapter):
    kinds = {kind for stem, kind, _ in book_boxes() if stem == chapter.stem}
    assert chapter.answer_boxes <= kinds, f"{chapter.stem} lacks answer boxes for {chapter.answer_boxes - kinds}"


def test_every_box_of_the_book_builds_with_its_chapters_label():
    labels = [options["label"] for _, _, options in book_boxes()]
    assert len(labels) == len(set(labels)) >= 8
    for stem, kind, options in book_boxes():
        prefix = chapter_registry.by_stem(stem).prefix
        assert options["label"].startswith(f"{prefix}ab-"), f"{stem}: {options['label']} does not start {prefix}ab-"
        found = box_problem(kind, options["label"], {k: v for k, v in options.items() if k != "label"})
        assert np.all(np.isfinite(found.answer))
