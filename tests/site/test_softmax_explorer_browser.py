"""The softmax explorer on the built static site (tests/widget_page.py): no kernel, no network.

Every shown number is parsed and compared with labcode, so a wrong formula, a stale bar or a
formatting change in the page fails here.
"""
from __future__ import annotations

import numpy as np
import pytest

import labcode
from widget_page import CONTROLS_JS, assert_fits_desktop_and_phone, call_module, enter, numbers, press

PAGE = "book/01_probability_to_loss.html"
WIDGET = ".sx-root"
MARKER = "function explorerMaths("


def widget(page):
    return page.locator(WIDGET).first


def shown_state(page):
    """Everything the first explorer shows, parsed back into numbers."""
    root = widget(page)
    labels = root.locator(".sx-table tbody th").all_inner_texts()
    target_label = root.locator(".sx-select option:checked").inner_text()
    return {
        "logits": numbers(root, ".sx-z"),
        "temperature": float(root.locator(".sx-t").inner_text()),
        "target": labels.index(target_label),
        "probs": numbers(root, ".sx-p"),
        "bars": numbers(root, ".sx-barval"),
        "grad": numbers(root, ".sx-g"),
        "loss": float(root.locator(".sx-loss").inner_text()),
        "heights": root.locator(".sx-bar").evaluate_all("els => els.map(e => parseFloat(e.style.height))"),
        "text": root.inner_text(),
        "numbers": "".join(root.locator(".sx-z, .sx-t, .sx-p, .sx-g, .sx-loss, .sx-barval").all_inner_texts()),
    }


def restorable_state(page):
    """Everything the first explorer shows, and where its controls stand."""
    return {**shown_state(page), "controls": widget(page).evaluate(CONTROLS_JS)}


def labcode_maths(z, t, y):
    """p, loss and dloss/dz for scores z at temperature t and target y, with labcode (on z / t)."""
    scaled = np.asarray(z, dtype=float) / t
    return {"probs": labcode.softmax(z, temperature=t), "loss": labcode.cross_entropy(scaled, y),
            "grad": labcode.cross_entropy_grad(scaled, y) / t}


def assert_shows_labcode_values(s):
    """Shown p (3 d.p.), grad (3 d.p.) and loss (4 d.p.) equal labcode's for the shown z, T, y."""
    want = labcode_maths(s["logits"], s["temperature"], s["target"])
    np.testing.assert_allclose(s["probs"], want["probs"], atol=0.0005 + 1e-12)
    np.testing.assert_allclose(s["bars"], want["probs"], atol=0.0005 + 1e-12)
    np.testing.assert_allclose(s["heights"], 100 * want["probs"], atol=0.005 + 1e-9)  # bar height in % of the axis
    np.testing.assert_allclose(s["grad"], want["grad"], atol=0.0005 + 1e-12)
    assert s["loss"] == pytest.approx(want["loss"], abs=0.00005 + 1e-12)
    assert "-" not in s["numbers"]  # a negative readout is set with U+2212, as the book sets a minus


# ---------------------------------------------------------------- tests
def test_explorer_renders_live_with_labcode_values(page):
    s = shown_state(page)
    assert len(s["logits"]) >= 2
    assert_shows_labcode_values(s)
    assert widget(page).locator("input[type=range].sx-logit").count() == len(s["logits"])


def test_keyboard_moves_one_logit_and_every_bar_follows(page):
    before = shown_state(page)
    slider = widget(page).locator(".sx-logit").first
    press(slider, "ArrowRight", 5)
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
    press(root.locator(".sx-temp"), "ArrowLeft", 30)  # log10 T falls by 0.3: T shrinks about 2x
    s2 = shown_state(page)
    assert s2["temperature"] == pytest.approx(s["temperature"] / 10 ** 0.3, rel=0.01)
    assert np.argmax(s2["probs"]) == np.argmax(s["probs"])  # temperature never changes the argmax
    assert max(s2["probs"]) > max(s["probs"])               # colder is sharper
    assert_shows_labcode_values(s2)
    assert min(s2["grad"]) < 0 and "\u2212" in s2["numbers"]  # the target's gradient, with its minus sign


def test_the_loss_line_sets_p_y_with_a_subscript_and_says_when_the_loss_is_tempered(page):
    """ℓ = −ln p_y with y as a subscript (never an ASCII underscore); at τ ≠ 1 the line says that the loss shown is the
    tempered distribution's, which the book's training objective does not use (chapter 1, “温度”)."""
    root = widget(page)
    line = root.locator(".sx-lossline")
    assert "_" not in line.inner_text() and line.locator("sub").all_inner_texts() == ["y"]
    assert line.inner_text().startswith("交叉熵损失 ℓ = −ln p") and root.locator(".sx-tempnote").count() == 0
    press(root.locator(".sx-temp"), "ArrowLeft", 30)
    assert shown_state(page)["temperature"] != 1
    assert line.inner_text().startswith("温度 τ 下的损失 −ln p") and "_" not in line.inner_text()
    assert "训练用的损失是 τ = 1 时的" in root.locator(".sx-tempnote").inner_text().replace("\u00a0", " ")
    press(root.locator(".sx-temp"), "ArrowRight", 30)
    assert shown_state(page)["temperature"] == 1 and root.locator(".sx-tempnote").count() == 0


def test_shift_buttons_leave_p_and_loss_unchanged_and_stop_at_the_sliders_ends(page):
    root = widget(page)
    plus, minus = root.locator(".sx-shift[data-delta='1']"), root.locator(".sx-shift[data-delta='-1']")
    note = root.locator(".sx-shiftnote")
    assert plus.is_enabled() and minus.is_enabled() and note.is_hidden()
    start = shown_state(page)
    plus.click()
    plus.click()
    shifted = shown_state(page)
    np.testing.assert_allclose(shifted["logits"], np.asarray(start["logits"]) + 2, atol=1e-9)
    assert shifted["probs"] == start["probs"] and shifted["loss"] == start["loss"]
    assert_shows_labcode_values(shifted)
    enter(root.locator(".sx-logit").nth(2), "9.5")
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
    cases = [(z, t, y) for z in GRID_LOGITS for t in GRID_T for y in range(len(z))]
    for (z, t, y), js in zip(cases, call_module(page, MARKER, "explorerMaths", cases), strict=True):
        want = labcode_maths(z, t, y)
        np.testing.assert_allclose(js["probs"], want["probs"], rtol=1e-9, atol=1e-12, err_msg=f"z={z} T={t} y={y}")
        assert js["loss"] == pytest.approx(want["loss"], rel=1e-9, abs=1e-12), (z, t, y)
        np.testing.assert_allclose(js["grad"], want["grad"], rtol=1e-9, atol=1e-12 / t, err_msg=f"z={z} T={t} y={y}")


def test_screenshots_and_no_overflow_at_desktop_and_phone_width(page):
    assert_fits_desktop_and_phone(page, widget(page), "softmax_explorer", ".sx-logit, .sx-temp, .sx-select, .sx-shift")
