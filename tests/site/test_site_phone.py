"""Every page at phone width (360 px): tables and inline code stay readable and inside the page.

The measurements are taken during the `site_tour` visit of every page (tests/site_tour.py).
"""
from __future__ import annotations

import chapter_registry

CHAPTERS = [c.page for c in chapter_registry.chapters()]


def test_table_first_columns_and_inline_code_fit_a_phone(site_tour):
    visits = site_tour["360"]
    assert set(CHAPTERS) <= set(visits)
    squeezed = {path: v["phone"]["squeezed"] for path, v in visits.items() if v["phone"]["squeezed"]}
    wide = {path: v["phone"]["wide"] for path, v in visits.items() if v["phone"]["wide"]}
    assert squeezed == {}, f"first-column cells squeezed to a few characters a line at 360 px: {squeezed}"
    assert wide == {}, f"inline code wider than the screen at 360 px: {wide}"
