"""The answer boxes in the book's notebooks: each chapter checks its hand computations, under its own labels
(what a box is and does: tests/unit/test_answer_box.py)."""
import numpy as np

from labcode.practice.problems import box_problem
from notebook_outputs import book_boxes

# The hand computations issue #17 asks the book to check, by chapter.
REQUIRED = {"01_probability_to_loss": {"softmax", "loss"}, "02_gradient": {"gradient", "step", "mean-loss"},
            "03_shared_embedding": {"row-gradient"}, "04_bigram": {"smoothed-prob"}, "appendix": {"mse-gradient"}}


# --- the boxes in the book ----------------------------------------------------------------------------

def test_every_chapter_has_its_hand_computations_checked():
    kinds = {}
    for stem, kind, _ in book_boxes():
        kinds.setdefault(stem, set()).add(kind)
    for stem, wanted in REQUIRED.items():
        assert wanted <= kinds.get(stem, set()), f"{stem} lacks answer boxes for {wanted - kinds.get(stem, set())}"


def test_every_box_of_the_book_builds_with_a_chapter_label():
    labels = [options["label"] for _, _, options in book_boxes()]
    assert len(labels) == len(set(labels)) >= 8
    prefixes = {"01": "ch1-", "02": "ch2-", "03": "ch3-", "04": "ch4-", "ap": "app-"}
    for stem, kind, options in book_boxes():
        assert options["label"].startswith(prefixes[stem[:2]]), options["label"]
        found = box_problem(kind, options["label"], {k: v for k, v in options.items() if k != "label"})
        assert np.all(np.isfinite(found.answer))
