"""A chapter page with a widget on the built site, for the browser tests (`test_<widget>_browser.py`).

A browser test module sets PAGE (the chapter's HTML path), WIDGET (the root's selector) and MARKER (text of the
widget's ES module, which the page embeds in its widget state). Loading a chapter (MathJax, the widget runtime)
costs seconds of CPU, so the module's page is loaded once (`loaded` in conftest.py), offline, and each test gets it
back (`page`) with its first widget returned, through the widget's own controls, to the state a fresh load showed:
the module's RESTORE_JS sets the controls its `restorable_state(page)` recorded, and the state must then equal the
fresh load's (a widget that cannot say so, such as the gradient explorer, is only put back by its reset button).
`page_at_width` loads the page at another width in a context of its own, as a phone would.
"""
from __future__ import annotations

import browser

DESKTOP = {"width": 1200, "height": 900}

# Runs in the page: imports the ES module of the widget whose module text holds `marker`, from the widget state the
# page embeds, into window.__widget = {module, state}; returns the state (without the module's text).
IMPORT_MODULE_JS = """async (marker) => {
    const state = JSON.parse(document.querySelector(
        'script[type="application/vnd.jupyter.widget-state+json"]').textContent).state;
    const model = Object.values(state).find(m => m.state._esm && m.state._esm.includes(marker));
    const url = URL.createObjectURL(new Blob([model.state._esm], {type: "text/javascript"}));
    window.__widget = {module: await import(url), state: model.state};
    return Object.fromEntries(Object.entries(model.state).filter(([k]) => k !== "_esm" && k !== "_css"));
}"""


def import_module(page, marker):
    """The page's own module of the widget (`window.__widget.module` in the page); returns the widget's state."""
    return page.evaluate(IMPORT_MODULE_JS, marker)


def offline_context(chromium, **options):
    """A new browser context and page whose requests to anything but 127.0.0.1 are blocked and recorded in
    `page.external`; returns (context, page)."""
    context = chromium.new_context(**options)
    page = context.new_page()
    page.external = browser.offline(context)
    return context, page


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


def assert_fits_its_column(root, width):
    """A widget at viewport `width` is no wider than its column and ends on the screen (1 px of rounding)."""
    overflow = root.evaluate("el => el.scrollWidth - el.clientWidth")
    assert overflow <= 1, f"the widget is wider than its column at {width}px by {overflow}px"
    assert root.evaluate("el => el.getBoundingClientRect().right <= document.documentElement.clientWidth + 1"), (
        f"the widget runs off the screen at {width}px")


def restore(loaded, module):
    """Put the first widget back through its own controls (the module's RESTORE_JS), and check that it shows the
    fresh load's state where the module can say what that is (`restorable_state`)."""
    state = getattr(module, "restorable_state", None)
    loaded.locator(module.WIDGET).first.evaluate(module.RESTORE_JS, loaded.fresh and loaded.fresh.get("controls"))
    if state:
        assert state(loaded) == loaded.fresh, "the widget did not return to the state of a fresh load"
