"""Every page at phone width (360 px): tables and inline code stay readable and inside the page; nothing is cut
off: whatever is wider than its box scrolls and shows it (_ext/scroll_cues.py); every control is big enough for a
finger and nothing fixed covers the text (_ext/touch_targets.py, _ext/site_nav.py); pictures are sharp.

The measurements are taken during the `site_tour` visit of every page (tests/site_tour.py).
"""
from __future__ import annotations

import chapter_registry

CHAPTERS = [c.page for c in chapter_registry.chapters()]


def test_table_first_columns_captions_inline_code_and_code_in_boxes_fit_a_phone(site_tour):
    visits = site_tour["360"]
    assert set(CHAPTERS) <= set(visits)
    squeezed = {path: v["phone"]["squeezed"] for path, v in visits.items() if v["phone"]["squeezed"]}
    wide = {path: v["phone"]["wide"] for path, v in visits.items() if v["phone"]["wide"]}
    assert squeezed == {}, f"first-column cells squeezed to a few characters a line at 360 px: {squeezed}"
    assert wide == {}, f"inline code wider than the screen at 360 px: {wide}"
    captions = {path: v["phone"]["captions"] for path, v in visits.items() if v["phone"]["captions"]}
    assert captions == {}, f"captions of scrolling tables cut off or faded at 360 px: {captions}"
    cramped = {path: v["cramped_code"] for path, v in visits.items() if v["cramped_code"]}
    assert cramped == {}, f"code in a box given less than 85 % of the column at 360 px: {cramped}"


def test_nothing_is_cut_off_and_what_scrolls_shows_it(site_tour):
    visits = site_tour["360"]
    assert set(CHAPTERS) <= set(visits)
    found = {path: v["overflow"] for path, v in visits.items() if v["overflow"]}
    assert found == {}, "at 360 px, elements cut off, past the screen, or scrolling with no cue:\n" + "\n".join(
        f"{path}: {problem}" for path, problems in found.items() for problem in problems)


def test_every_control_is_a_finger_sized_target_and_nothing_fixed_covers_the_text(site_tour):
    visits = site_tour["360"]
    small = {path: v["small_targets"] for path, v in visits.items() if v["small_targets"]}
    covering = {path: v["covering"] for path, v in visits.items() if v["covering"]}
    assert small == {}, "controls under 44 × 44 CSS px at 360 px:\n" + "\n".join(
        f"{path}: {control}" for path, controls in small.items() for control in controls)
    assert covering == {}, f"fixed or sticky elements over the text, halfway down the page: {covering}"


def test_pictures_are_stored_at_twice_the_size_a_phone_shows_them(site_tour):
    """A PNG has at least two pixels per CSS pixel it is shown at (phones have 2-3 device pixels per CSS px);
    an SVG is sharp at any size."""
    images = [(path, *image) for path, v in site_tour["360"].items() for image in v["images"]]
    pngs = [image for image in images if image[1].endswith(".png")]
    assert len(pngs) >= 6 and any(image[1].endswith(".svg") for image in images)
    soft = [image for image in pngs if image[3] < 2 * image[2]]
    assert soft == [], f"pictures with fewer than 2 pixels per CSS px at 360 px (page, file, shown, stored): {soft}"
