"""Reading mode (_ext/reading_mode.py): one switch, remembered in the browser, folds the code so that a page is
prose, figures, widgets and answer boxes; on at phone width by default, off on a desktop.

What every page shows at both widths is gathered by the `site_tour` visit (tests/site_tour.py); the switch, its
memory and junk in that memory are driven here on chapter 1.
"""
from __future__ import annotations

import pytest

import chapter_registry
import reading_mode

PAGE = "book/01_probability_to_loss.html"
LIGHT = "intro.html"  # a third of the glossary's size, a seventh of a chapter's
KEY = "lc-reading-mode"
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1200, "height": 900}}
# the code the mode folds: not a solution's, a “你来写” exercise's, or a cell tagged keep-in-reading-mode
SHOWN_CODE = """() => [...document.querySelectorAll(
        '.bd-article .cell_input:not(:is(.lc-you-write .cell, .cell.tag_keep-in-reading-mode) > .cell_input)')]
    .filter(el => el.getClientRects().length && !el.closest('.solution, details:not([open])')).length"""
ON = "() => document.documentElement.classList.contains('lc-reading')"


def test_phone_pages_open_in_reading_mode_and_desktop_pages_show_the_code(site_tour):
    phone, desktop = site_tour["360"], site_tour["1200"]
    with_code = [path for path, visit in desktop.items() if visit["reading"]["code"]]
    assert PAGE in with_code and len(with_code) >= 5
    for path in with_code:
        on_phone, on_desktop = phone[path]["reading"], desktop[path]["reading"]
        assert on_phone["on"] and on_phone["code"] == 0, (path, on_phone)
        assert not on_desktop["on"], (path, on_desktop)
        # what the mode keeps is still there, the code the text asks the reader to look at included
        for kept in ("kept", "figures", "widgets", "answer_boxes", "printouts"):
            assert on_phone[kept] == on_desktop[kept], (path, kept, on_phone, on_desktop)
    assert phone[PAGE]["reading"]["figures"] >= 3 and phone[PAGE]["reading"]["widgets"] >= 1
    assert phone[PAGE]["reading"]["printouts"] >= 10
    # a “你来写” shows its skeleton and its check cell (the text says “补全下面这一格”)
    for chapter in chapter_registry.chapters():
        assert phone[chapter.page]["reading"]["kept"] >= 2 * chapter.you_write, (chapter.page, phone[chapter.page])


@pytest.fixture
def context(chromium):
    made = []

    def new(**options):
        made.append(chromium.new_context(**options))
        return made[-1]

    yield new
    for context in made:
        context.close()


def open_page(context, site_url, stored=None, path=PAGE):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    if stored is not None:  # what the browser kept, before the page's own scripts run
        page.add_init_script(f"try {{ localStorage.setItem({KEY!r}, {stored!r}); }} catch (e) {{}}")
    page.goto(f"{site_url}/{path}", wait_until="networkidle")
    return page


def test_the_switch_folds_and_shows_the_code_and_is_remembered(context, site_url):
    phone = context(**PHONE)
    page = open_page(phone, site_url)
    assert page.evaluate(ON) and page.evaluate(SHOWN_CODE) == 0
    switch = page.locator(".bd-header-article .btn-reading-mode-button")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.tap()
    assert not page.evaluate(ON) and page.evaluate(SHOWN_CODE) > 20
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.evaluate(f"localStorage.getItem({KEY!r})") == "off"
    page.reload(wait_until="networkidle")
    assert not page.evaluate(ON), "the choice was not remembered"
    page.locator(".lc-reading-state .lc-reading-toggle").tap()  # the line under the title switches it too
    assert page.evaluate(ON) and page.evaluate(f"localStorage.getItem({KEY!r})") == "on"
    assert page.errors == []
    # a desktop with the choice "on" keeps it; with no choice, it shows the code (on the light home page: the switch
    # and its memory are the same script on every page)
    assert open_page(context(**DESKTOP), site_url, stored="on", path=LIGHT).evaluate(ON)
    assert not open_page(context(**DESKTOP), site_url, path=LIGHT).evaluate(ON)


JUNK = ["", "true", "{}", "1e308", "ON", "<b>off</b>", "off "]


def test_junk_in_the_browser_memory_counts_as_no_choice(context, site_url):
    """On the light home page, one phone, each junk value stored before a reload."""
    page = open_page(context(**PHONE), site_url, path=LIGHT)
    switch = page.locator(".bd-header-article .btn-reading-mode-button")
    for junk in JUNK:
        page.evaluate(f"localStorage.setItem({KEY!r}, {junk!r})")
        page.reload(wait_until="networkidle")
        assert page.evaluate(ON), f"{junk!r}: a phone with no valid choice reads in reading mode"
        assert page.evaluate(f"localStorage.getItem({KEY!r})") is None, f"{junk!r}: the junk is left behind"
        switch.tap()
        page.wait_for_function(f"() => !({ON})()", timeout=3000)
        assert page.evaluate(f"localStorage.getItem({KEY!r})") == "off", junk
    assert page.errors == []


def test_a_you_write_exercise_shows_its_cells_and_tells_a_phone_reader_what_to_do_instead(context, site_url):
    page = open_page(context(**PHONE), site_url)
    note = page.locator("#ch1-ex-write-softmax .lc-reading-note")
    assert note.is_visible() and "纸上" in note.inner_text() and "解答" in note.inner_text()
    code = page.locator("#ch1-ex-write-softmax .cell_input")
    assert code.count() >= 2 and all(c.is_visible() for c in code.all()), "the skeleton or its check is folded"
    assert "NotImplementedError" in code.first.inner_text()
    # a cell tagged keep-in-reading-mode (MyST-NB writes a cell's tags as its classes) stays too; the others fold
    tagged, other = page.evaluate(f"""() => {{
        const cells = [...document.querySelectorAll('.bd-article .cell:not(.solution .cell, .lc-you-write .cell)')]
            .filter(c => c.querySelector('.cell_input'));
        cells[0].classList.add('tag_{reading_mode.KEEP_TAG}');
        return [cells[0], cells[1]].map(c => c.querySelector('.cell_input').getClientRects().length > 0);
    }}""")
    assert tagged and not other
    page.set_viewport_size(DESKTOP["viewport"])
    page.wait_for_function(f"() => !({ON})()")
    assert not note.is_visible()
