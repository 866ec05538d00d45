"""Touch on a phone (360 px, touch events): a vertical drag across a slider scrolls the page and leaves the slider
where it was, a sideways drag moves it (labcode/widgets/dom.js, widget.css); a tap anywhere on a solution's title
opens it (_ext/touch_targets.py). Chapter 1 is loaded once. Target sizes are measured on every page by the
site tour (tests/site/test_site_phone.py)."""
from __future__ import annotations

import pytest

PAGE = "book/01_probability_to_loss.html"
PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
SLIDER = ".sx-root input.sx-logit"


@pytest.fixture(scope="module")
def phone(chromium, site_url):
    context = chromium.new_context(**PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site_url}/{PAGE}", wait_until="networkidle")
    page.locator(SLIDER).first.wait_for(timeout=20000)
    page.cdp = context.new_cdp_session(page)
    yield page
    context.close()
    assert errors == []


def drag(page, start, end, steps=10):
    """A finger put down at `start`, moved in `steps` to `end` and lifted (Chromium's touch events)."""
    def point(t):
        return [{"x": start[0] + (end[0] - start[0]) * t, "y": start[1] + (end[1] - start[1]) * t}]

    page.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point(0)})
    for k in range(1, steps + 1):
        page.cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": point(k / steps)})
        page.wait_for_timeout(16)
    page.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(400)


# The page stands still (a fling from an earlier drag has stopped): scrollY unchanged for 300 ms.
STILL = """() => new Promise(done => {
    let last = scrollY, since = performance.now();
    const look = () => {
        if (scrollY !== last) { last = scrollY; since = performance.now(); }
        if (performance.now() - since > 300) done(true); else requestAnimationFrame(look);
    };
    look();
})"""


def slider_on_screen(page, index=1):
    page.evaluate(STILL)
    slider = page.locator(SLIDER).nth(index)
    slider.evaluate("el => el.scrollIntoView({block: 'center'})")
    page.evaluate(STILL)
    return slider, slider.bounding_box()


def test_a_vertical_drag_over_a_slider_scrolls_the_page_and_leaves_the_slider(phone):
    slider, box = slider_on_screen(phone)
    readouts = phone.locator(".sx-root").first.inner_text()
    value, scrolled = slider.input_value(), phone.evaluate("scrollY")
    y = box["y"] + box["height"] / 2
    drag(phone, (box["x"] + 0.2 * box["width"], y), (box["x"] + 0.25 * box["width"], y - 250))
    assert phone.evaluate("scrollY") > scrolled + 100, "the page did not scroll"
    assert slider.input_value() == value, "the drag moved the slider"
    assert phone.locator(".sx-root").first.inner_text() == readouts, "the widget shows another state"


def test_a_sideways_drag_moves_the_slider(phone):
    """The finger slides from the left of the track to 60 % of it: the value follows to about 60 % of its range."""
    slider, box = slider_on_screen(phone)
    low, high = float(slider.get_attribute("min")), float(slider.get_attribute("max"))
    y = box["y"] + box["height"] / 2
    drag(phone, (box["x"] + 0.1 * box["width"], y), (box["x"] + 0.6 * box["width"], y + 2))
    assert float(slider.input_value()) == pytest.approx(low + 0.6 * (high - low), abs=0.1 * (high - low))


def test_a_tap_on_a_solutions_title_opens_it(phone):
    title = phone.locator(".solution .admonition-title").nth(1)
    title.scroll_into_view_if_needed()
    assert title.locator("a").count() == 0, "the title is still a link back to the exercise"
    button = title.locator("button.toggle-button")
    assert button.get_attribute("aria-expanded") == "false"
    assert button.get_attribute("aria-label") == title.inner_text().strip()
    words, arrow = title.locator(".lc-title-text").bounding_box(), button.locator("svg").bounding_box()
    url = phone.url
    phone.touchscreen.tap(words["x"] + words["width"] / 2, words["y"] + words["height"] / 2)   # on the words
    phone.wait_for_function("b => b.getAttribute('aria-expanded') === 'true'", arg=button.element_handle())
    assert phone.url == url
    assert title.locator("xpath=..").locator(".cell").first.is_visible()
    phone.touchscreen.tap(arrow["x"] + arrow["width"] / 2, arrow["y"] + arrow["height"] / 2)  # on the arrow's stroke
    phone.wait_for_function("b => b.getAttribute('aria-expanded') === 'false'", arg=button.element_handle())
