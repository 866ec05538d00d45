"""A chapter page with a widget on the built site, for the browser tests (`test_<widget>_browser.py`).

A browser test module sets PAGE (the chapter's HTML path), WIDGET (the root's selector) and MARKER (text of the
widget's ES module, which the page embeds in its widget state). Loading a chapter (MathJax, the widget runtime)
costs seconds of CPU, so the module's page is loaded once (`loaded` in conftest.py), offline, and each test gets it
back (`page`) with its first widget returned, through the widget's own controls, to the state a fresh load showed:
its inputs are set back as a reader would (SET_CONTROLS_JS, or the module's own RESTORE_JS; then the module's RESET
button is clicked, if it has one), and the module's
`restorable_state(page)` must then equal the fresh load's (a widget that cannot say so, such as the gradient
explorer, is only put back by its reset button).
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

# Where the widget's inputs stand (a switch: checked or not), in document order.
CONTROLS_JS = """root => Array.from(root.querySelectorAll("input, select, textarea"),
    (e) => e.type === "checkbox" ? e.checked : e.value)"""
# Set them back as a reader would: each value entered (the `input` and `change` events a browser sends), a switch
# clicked if it moved.
SET_CONTROLS_JS = """(root, values) => {
    root.querySelectorAll("input, select, textarea").forEach((e, k) => {
        if (e.type === "checkbox") {
            if (e.checked !== values[k]) e.click();
            return;
        }
        e.value = values[k];
        for (const type of ["input", "change"]) e.dispatchEvent(new Event(type, {bubbles: true}));
    });
    document.activeElement.blur();
    window.scrollTo(0, 0);
}"""
NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def import_module(page, marker):
    """The page's own module of the widget (`window.__widget.module` in the page); returns the widget's state."""
    return page.evaluate(IMPORT_MODULE_JS, marker)


def call_module(page, marker, function, cases):
    """`function` of the page's own module of the widget (a dotted name: "maths.softmax"), run in Chromium's JS
    engine on each case's arguments; returns the results."""
    import_module(page, marker)
    return page.evaluate("""([name, cases]) => {
        const f = name.split(".").reduce((o, key) => o[key], window.__widget.module);
        return cases.map((args) => f(...args));
    }""", [function, cases])


def numbers(root, selector):
    """The numbers shown in every element of `root` matching `selector` (an element not rendered has no number);
    a readout may write its minus as U+2212, as the book sets it."""
    return [float(t.replace("\u2212", "-")) for t in root.locator(selector).all_inner_texts()]


# Keys that reach the document: in JupyterLab or Notebook 7 they would run notebook commands instead of moving the
# control (the widget keeps them: keepControlKeys in labcode/widgets/dom.js).
ESCAPED_KEYS_JS = """() => {
    if (!window.__escaped) document.addEventListener("keydown", (e) => window.__escaped.push(e.key));
    window.__escaped = [];
}"""


def press(control, key, times=1):
    """Focus `control` and press `key` on the keyboard `times` times, as a reader would; the widget keeps the keys."""
    control.page.evaluate(ESCAPED_KEYS_JS)
    control.focus()
    for _ in range(times):
        control.page.keyboard.press(key)
    assert control.page.evaluate("window.__escaped") == [], f"{key} left the widget for the page"


def enter(control, value):
    """Set an input to `value` as typing or dragging it would (an `input` event)."""
    control.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }", value)


def offline_context(chromium, **options):
    """A new browser context and page whose requests to anything but 127.0.0.1 are blocked and recorded in
    `page.external`; returns (context, page)."""
    context = chromium.new_context(**options)
    page = context.new_page()
    page.external = browser.offline(context)
    return context, page


def open_widget_page(chromium, url, root, **options):
    """An offline page (`offline_context`) at `url`, once its first `root` widget is drawn.

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


def assert_fits_desktop_and_phone(page, root, name, controls, least=20, also=None):
    """At 1200 and at 360 px, in each theme (the page follows the system's): a screenshot of the widget in
    _build/screenshots/, the widget inside its column and on the screen, every `controls` element at least `least`
    px high (large enough to hit with a finger), and `also(root, width)`. The page is left light at desktop size."""
    from conftest import SHOTS

    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        # A new width lays the whole chapter out again, a new theme repaints it: light, dark, then dark, light.
        for width, schemes in ((DESKTOP["width"], ("light", "dark")), (360, ("dark", "light"))):
            page.set_viewport_size({**DESKTOP, "width": width})
            page.evaluate(NEXT_FRAMES)  # resize observers and layout have run
            for scheme in schemes:
                page.emulate_media(color_scheme=scheme)
                page.wait_for_function("s => document.documentElement.dataset.theme === s", arg=scheme)
                root.scroll_into_view_if_needed()
                root.screenshot(path=str(SHOTS / f"{name}_{scheme}_{width}.png"))
                assert_fits_its_column(root, width)
                small = root.locator(controls).evaluate_all(
                    "(els, least) => els.filter(e => e.getBoundingClientRect().height < least).map(e => e.outerHTML)",
                    least)
                assert small == [], f"controls too small to hit with a finger at {width}px ({scheme}): {small}"
                if also:
                    also(root, width)
    finally:
        page.set_viewport_size(DESKTOP)
        if page.evaluate("document.documentElement.dataset.theme") != "light":  # the loop stopped on a failure
            page.emulate_media(color_scheme="light")


def restore(loaded, module):
    """Put the first widget back through its own controls (the module's RESTORE_JS, else SET_CONTROLS_JS, then its
    RESET button), and check that it shows the fresh load's state where the module can say what that is
    (`restorable_state`)."""
    state = getattr(module, "restorable_state", None)
    controls = loaded.fresh and loaded.fresh.get("controls")
    root = loaded.locator(module.WIDGET).first
    root.evaluate(getattr(module, "RESTORE_JS", SET_CONTROLS_JS), controls)
    if hasattr(module, "RESET"):
        root.locator(module.RESET).click()
    if state:
        assert state(loaded) == loaded.fresh, "the widget did not return to the state of a fresh load"

