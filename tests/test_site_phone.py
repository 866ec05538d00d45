"""Every page at phone width (360 px): tables and inline code stay readable and inside the page, and nothing is
cut off: whatever is wider than its box scrolls and shows it (_ext/scroll_cues.py).

The measurements are taken during the `site_tour` visit of every page (tests/site_tour.py).
"""
from __future__ import annotations

CHAPTERS = ["book/01_probability_to_loss.html", "book/02_gradient.html", "book/03_shared_embedding.html",
            "book/04_bigram.html", "book/appendix.html"]


def test_table_first_columns_and_inline_code_fit_a_phone(site_tour):
    visits = site_tour["360"]
    assert set(CHAPTERS) <= set(visits)
    squeezed = {path: v["phone"]["squeezed"] for path, v in visits.items() if v["phone"]["squeezed"]}
    wide = {path: v["phone"]["wide"] for path, v in visits.items() if v["phone"]["wide"]}
    assert squeezed == {}, f"first-column cells squeezed to a few characters a line at 360 px: {squeezed}"
    assert wide == {}, f"inline code wider than the screen at 360 px: {wide}"


def test_nothing_is_cut_off_and_what_scrolls_shows_it(site_tour):
    visits = site_tour["360"]
    assert set(CHAPTERS) <= set(visits)
    found = {path: v["overflow"] for path, v in visits.items() if v["overflow"]}
    assert found == {}, "at 360 px, elements cut off, past the screen, or scrolling with no cue:\n" + "\n".join(
        f"{path}: {problem}" for path, problems in found.items() for problem in problems)
