"""A chapter page with a widget, loaded once per browser-test module and put back before each test.

Loading a chapter (MathJax, the widget runtime) costs seconds of CPU, so a module loads its page once
(`loaded_page`) and each test gets it back with its first widget returned, through the widget's own
controls, to the state a fresh load showed (`restored_page`, which checks that it really is). The
fixtures of tests/test_browser.py show the pattern; the generators here are their bodies.
"""
from __future__ import annotations

from conftest import offline_context

DESKTOP = {"width": 1200, "height": 900}


def open_widget_page(chromium, url, root, **options):
    """An offline page (`offline_context` in conftest) at `url`, once its first `root` widget is drawn.

    Script and console errors go to `page.errors` and failed requests to `page.missing`; returns (context, page).
    """
    context, page = offline_context(chromium, **options)
    page.errors, page.missing = [], []
    page.on("pageerror", lambda e: page.errors.append(f"{e}\n{e.stack}"))
    # A missing resource is checked by kind (assert_page_clean); every other console error counts.
    page.on("console", lambda m: m.type == "error" and not m.text.startswith("Failed to load resource")
            and page.errors.append(m.text))
    page.on("response", lambda r: r.status >= 400 and page.missing.append(r.url))
    page.goto(url)
    page.locator(root).first.wait_for(timeout=20000)
    return context, page


def assert_page_clean(page):
    assert page.external == [], "requests left 127.0.0.1"
    assert page.errors == [], f"script errors on the page: {page.errors}"
    assert [m for m in page.missing if m.endswith((".js", ".css")) or "/_static/" in m] == [], (
        f"scripts, styles or static files missing: {page.missing}")


def loaded_page(chromium, url, root, state):
    """Module fixture body: the page at desktop size, with `page.fresh = state(page)` as first loaded."""
    context, page = open_widget_page(chromium, url, root, viewport=DESKTOP)
    page.fresh = state(page)
    yield page
    context.close()


def restored_page(loaded, root, state, restore_js):
    """Test fixture body: `restore_js(root element, loaded.fresh["controls"])` sets the first widget's controls
    back as a reader would; the state must then equal the fresh load's. The page must stay clean."""
    loaded.locator(root).first.evaluate(restore_js, loaded.fresh["controls"])
    assert state(loaded) == loaded.fresh, "the widget did not return to the state of a fresh load"
    yield loaded
    assert_page_clean(loaded)


def page_at_width(request, chromium, url, root, width):
    """Test fixture body: the page laid out from its load at `width`: the module's restored `page` fixture at
    desktop width, else a page loaded at that width in a context of its own, as a phone would."""
    if width == DESKTOP["width"]:
        yield request.getfixturevalue("page")
        return
    context, page = open_widget_page(chromium, url, root, viewport={**DESKTOP, "width": width})
    try:
        yield page
        assert_page_clean(page)
    finally:
        context.close()
