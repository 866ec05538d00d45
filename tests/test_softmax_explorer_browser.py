"""The softmax explorer on the built static site: live in headless Chromium, no kernel, no network.

Every shown number is parsed and compared with labcode, so a wrong formula, a stale bar or a
formatting change in the page fails here. The page is loaded once; before each test the explorer is put
back, through its own controls, to what a fresh load shows (checked). Screenshots go to _build/screenshots/.
"""
from __future__ import annotations

import numpy as np
import pytest

import labcode
from conftest import SHOTS
from widget_page import DESKTOP, assert_fits_its_column, import_module

PAGE = "book/01_probability_to_loss.html"
WIDGET = ".sx-root"
MARKER = "export function explorerMaths"


# The reader's controls: each slider's value, the temperature slider's value (log10 T) and the chosen target.
CONTROLS_JS = """root => ({
    logits: Array.from(root.querySelectorAll(".sx-logit"), (e) => e.value),
    temperature: root.querySelector(".sx-temp").value,
    target: root.querySelector(".sx-select").value,
})"""
# Set them back as a reader would: each slider moved (an `input` event), the target chosen (`change`).
RESTORE_JS = """(root, controls) => {
    const set = (input, value, type) => {
        input.value = value;
        input.dispatchEvent(new Event(type, {bubbles: true}));
    };
    root.querySelectorAll(".sx-logit").forEach((input, k) => set(input, controls.logits[k], "input"));
    set(root.querySelector(".sx-temp"), controls.temperature, "input");
    set(root.querySelector(".sx-select"), controls.target, "change");
    document.activeElement.blur();
    window.scrollTo(0, 0);
}"""


def widget(page):
    return page.locator(WIDGET).first


def shown_state(page):
    """Everything the first explorer shows, parsed back into numbers."""
    root = widget(page)
    labels = root.locator(".sx-table tbody th").all_inner_texts()
    target_label = root.locator(".sx-select option:checked").inner_text()
    return {
        "logits": [float(t) for t in root.locator(".sx-z").all_inner_texts()],
        "temperature": float(root.locator(".sx-t").inner_text()),
        "target": labels.index(target_label),
        "probs": [float(t) for t in root.locator(".sx-p").all_inner_texts()],
        "bars": [float(t) for t in root.locator(".sx-barval").all_inner_texts()],
        "grad": [float(t) for t in root.locator(".sx-g").all_inner_texts()],
        "loss": float(root.locator(".sx-loss").inner_text()),
        "heights": root.locator(".sx-bar").evaluate_all("els => els.map(e => parseFloat(e.style.height))"),
        "text": root.inner_text(),
        "numbers": "".join(root.locator(".sx-z, .sx-t, .sx-p, .sx-g, .sx-loss, .sx-barval").all_inner_texts()),
    }


def restorable_state(page):
    """Everything the first explorer shows, and where its controls stand."""
    return {**shown_state(page), "controls": widget(page).evaluate(CONTROLS_JS)}


def assert_shows_labcode_values(s):
    """Shown p (3 d.p.), grad (3 d.p.) and loss (4 d.p.) equal labcode's for the shown z, T, y."""
    z = np.asarray(s["logits"]) / s["temperature"]
    probs = labcode.softmax(s["logits"], temperature=s["temperature"])
    loss = labcode.cross_entropy(z, s["target"])
    grad = labcode.cross_entropy_grad(z, s["target"]) / s["temperature"]
    np.testing.assert_allclose(s["probs"], probs, atol=0.0005 + 1e-12)
    np.testing.assert_allclose(s["bars"], probs, atol=0.0005 + 1e-12)
    np.testing.assert_allclose(s["heights"], 100 * probs, atol=0.005 + 1e-9)  # bar height in % of the axis
    np.testing.assert_allclose(s["grad"], grad, atol=0.0005 + 1e-12)
    assert s["loss"] == pytest.approx(loss, abs=0.00005 + 1e-12)
    assert "\u2212" not in s["numbers"]  # readouts use plain "-" as labcode prints (labels write "−1", "−ln")


# ---------------------------------------------------------------- tests
def test_explorer_renders_live_with_labcode_values(page):
    s = shown_state(page)
    assert len(s["logits"]) >= 2
    assert_shows_labcode_values(s)
    assert widget(page).locator("input[type=range].sx-logit").count() == len(s["logits"])


def test_keyboard_moves_one_logit_and_every_bar_follows(page):
    before = shown_state(page)
    slider = widget(page).locator(".sx-logit").first
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    after = shown_state(page)
    step = float(slider.get_attribute("step"))
    assert after["logits"][0] == pytest.approx(before["logits"][0] + 5 * step, abs=1e-9)
    assert after["logits"][1:] == before["logits"][1:]
    assert all(b != a for b, a in zip(before["heights"], after["heights"], strict=True))  # shared denominator
    assert_shows_labcode_values(after)


def test_mouse_drag_moves_a_logit(page):
    slider = widget(page).locator(".sx-logit").nth(1)
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.5, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.9, y, steps=8)
    page.mouse.up()
    s = shown_state(page)
    lo, hi = float(slider.get_attribute("min")), float(slider.get_attribute("max"))
    assert s["logits"][1] > lo + 0.8 * (hi - lo) - 1  # near 90 % of the track
    assert_shows_labcode_values(s)


def test_target_and_temperature_controls_recompute(page):
    root = widget(page)
    labels = root.locator(".sx-table tbody th").all_inner_texts()
    root.locator(".sx-select").select_option(label=labels[0])
    s = shown_state(page)
    assert s["target"] == 0
    assert_shows_labcode_values(s)
    temp = root.locator(".sx-temp")
    temp.focus()
    for _ in range(30):
        page.keyboard.press("ArrowLeft")  # log10 T falls by 0.3: T shrinks about 2x
    s2 = shown_state(page)
    assert s2["temperature"] == pytest.approx(s["temperature"] / 10 ** 0.3, rel=0.01)
    assert np.argmax(s2["probs"]) == np.argmax(s["probs"])  # temperature never changes the argmax
    assert max(s2["probs"]) > max(s["probs"])               # colder is sharper
    assert_shows_labcode_values(s2)


def test_shift_buttons_leave_probabilities_and_loss_unchanged(page):
    before = shown_state(page)
    widget(page).locator(".sx-shift[data-delta='1']").click()
    widget(page).locator(".sx-shift[data-delta='1']").click()
    after = shown_state(page)
    np.testing.assert_allclose(after["logits"], np.asarray(before["logits"]) + 2, atol=1e-9)
    assert after["probs"] == before["probs"] and after["loss"] == before["loss"]
    assert_shows_labcode_values(after)


def test_shift_buttons_stop_at_the_sliders_ends_so_each_slider_shows_its_score(page):
    root = widget(page)
    plus, minus = root.locator(".sx-shift[data-delta='1']"), root.locator(".sx-shift[data-delta='-1']")
    note = root.locator(".sx-shiftnote")
    assert plus.is_enabled() and minus.is_enabled() and note.is_hidden()
    root.locator(".sx-logit").nth(2).evaluate(
        "e => { e.value = '9.5'; e.dispatchEvent(new Event('input', {bubbles: true})); }")
    before = shown_state(page)
    assert plus.is_disabled() and minus.is_enabled()                 # 9.5 + 1 would leave [-10, 10]
    assert "超出范围" in note.inner_text() and "+1" in note.inner_text()
    plus.click(force=True)                                           # a disabled button does nothing
    assert shown_state(page)["logits"] == before["logits"]
    minus.click()
    after = shown_state(page)
    np.testing.assert_allclose(after["logits"], np.asarray(before["logits"]) - 1, atol=1e-9)
    assert after["probs"] == before["probs"] and plus.is_enabled() and note.is_hidden()
    sliders = root.locator(".sx-logit").evaluate_all("els => els.map(e => e.valueAsNumber)")
    np.testing.assert_allclose(sliders, after["logits"], atol=1e-9)  # every thumb where its number says


GRID_LOGITS = [[0, 1, 2], [1000, -1000], [-1000, 1000, 0], [1000, 1000, -1000, 999.5],
               [-3.25, 0.5, 7, -1e-8, 2, 2, -40, 60], [5e-324, 0]]
GRID_T = [1e-3, 0.1, 1.0, 3.7, 1e3]


def test_page_maths_agrees_with_labcode_to_1e9_on_extreme_grid(page):
    """Runs explorerMaths from the module text embedded in the page itself, in Chromium's JS engine."""
    cases = [(z, t, y) for z in GRID_LOGITS for t in GRID_T for y in range(len(z))]
    import_module(page, MARKER)
    results = page.evaluate("cases => cases.map(([z, t, y]) => __widget.module.explorerMaths(z, t, y))", cases)
    assert len(results) == len(cases)
    for (z, t, y), js in zip(cases, results, strict=True):
        scaled = np.asarray(z, dtype=float) / t
        probs = labcode.softmax(z, temperature=t)
        loss = labcode.cross_entropy(scaled, y)
        grad = labcode.cross_entropy_grad(scaled, y) / t
        np.testing.assert_allclose(js["probs"], probs, rtol=1e-9, atol=1e-12, err_msg=f"z={z} T={t} y={y}")
        assert js["loss"] == pytest.approx(loss, rel=1e-9, abs=1e-12), (z, t, y)
        np.testing.assert_allclose(js["grad"], grad, rtol=1e-9, atol=1e-12 / t, err_msg=f"z={z} T={t} y={y}")


@pytest.mark.parametrize("width", [DESKTOP["width"], 360])
def test_screenshots_and_no_overflow_at_desktop_and_phone_width(page_at_width, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    root = widget(page_at_width)
    root.scroll_into_view_if_needed()
    root.screenshot(path=str(SHOTS / f"softmax_explorer_{width}.png"))
    assert_fits_its_column(root, width)
    for box in root.locator(".sx-logit, .sx-temp, .sx-select, .sx-shift").all():
        assert box.bounding_box()["height"] >= 20  # large enough to hit with a finger
