"""The bigram trainer on the built static site (tests/widget_page.py): it trains with no kernel, no network.

The page's own maths (the module text embedded in the page) is compared with labcode.bigram to 1e-9;
the shown losses are parsed and checked against the count optimum and against labcode's training.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from labcode.bigram import count_optimum, loss_and_grad_from_counts, train
from widget_page import CONTROLS_JS, assert_fits_desktop_and_phone, call_module, enter, import_module, press

PAGE = "book/04_bigram.html"
WIDGET = ".bt-root"
MARKER = "function trainerState("


RESET = ".bt-reset"  # after the controls are set back: W = 0 again, as on a fresh load


def widget(page):
    return page.locator(WIDGET).first


SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def scientific(text):
    """The page's a×10ⁿ (“3.21×10⁻⁴”, or “1.50” when n = 0) as a float; anything else fails."""
    match = re.fullmatch(r"(-?\d\.\d\d)(?:×10([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?", text)
    assert match, f"not written as a×10ⁿ: {text!r}"
    return float(match[1]) * 10.0 ** int((match[2] or "0").translate(SUPERSCRIPTS))


def shown(page):
    root = widget(page)
    return {"steps": int(root.locator(".bt-steps").inner_text()),
            "loss": float(root.locator(".bt-loss").inner_text()),
            "optimum": float(root.locator(".bt-opt").inner_text()),
            "gap": scientific(root.locator(".bt-gap").inner_text()),
            "nll": float(root.locator(".bt-nll").inner_text()),
            "names": root.locator(".bt-names li").all_inner_texts(),
            "train": root.locator(".bt-train").inner_text()}


def restorable_state(page):
    return {**shown(page), "controls": widget(page).evaluate(CONTROLS_JS)}


# Press “训练” and read the shown step count and loss on every animation frame until the run ends. The page
# samples itself: a busy test machine answering one round trip per sample could miss most of a short run.
TRAIN_AND_SAMPLE = """async (root) => {
    const read = () => ({steps: Number(root.querySelector('.bt-steps').textContent),
                         loss: Number(root.querySelector('.bt-loss').textContent)});
    const done = () => root.querySelector('.bt-train').textContent.startsWith('训练');
    root.querySelector('.bt-train').click();
    const samples = [];
    while (!done()) {
        samples.push(read());
        await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return samples;
}"""


def train_once(page):
    """Press “训练” and sample the shown loss while the curve grows; returns the samples and the end state."""
    samples = widget(page).evaluate(TRAIN_AND_SAMPLE)
    return samples, shown(page)


# ---------------------------------------------------------------- tests
def test_page_loss_and_gradient_equal_labcode_to_1e9(page):
    data = import_module(page, MARKER)
    counts = np.asarray(data["counts"], dtype=float)
    V = counts.shape[0]
    rng = np.random.default_rng(4)
    weights = [np.zeros((V, V)), rng.normal(size=(V, V)), 5 * rng.normal(size=(V, V)), np.log(counts + 1.0)]
    cases = [(W, N, reg) for W in weights for N in (counts, counts + 0.7) for reg in (0.0, 0.01, 0.3)]
    results = call_module(page, MARKER, "maths.lossAndGradFromCounts",
                          [(W.tolist(), N.tolist(), reg) for W, N, reg in cases])
    for (W, N, reg), js in zip(cases, results, strict=True):
        loss, grad = loss_and_grad_from_counts(W, N, reg)
        assert js["loss"] == pytest.approx(loss, rel=1e-9, abs=1e-12), reg
        np.testing.assert_allclose(js["grad"], grad, rtol=1e-9, atol=1e-12)
    for alpha in (0.0, 1.0, 2.5):
        js_opt = page.evaluate("([N, V]) => __widget.module.maths.countOptimum(Float64Array.from(N.flat()), V)",
                               [(counts + alpha).tolist(), V])
        assert js_opt == pytest.approx(count_optimum(counts, alpha), rel=1e-12)


def test_training_falls_toward_the_count_optimum_and_never_below(page):
    data = import_module(page, MARKER)
    counts = np.asarray(data["counts"])
    N = counts + data["alpha"]
    optimum = count_optimum(counts, data["alpha"])
    start = shown(page)
    assert start["steps"] == 0 and start["optimum"] == pytest.approx(optimum, abs=5e-5)
    assert start["loss"] == pytest.approx(np.log(len(data["vocab"])), abs=5e-5)  # W = 0: uniform rows
    samples, end = train_once(page)
    assert end["steps"] == data["steps"]
    losses = [s["loss"] for s in samples] + [end["loss"]]
    assert len(samples) >= 3, "the curve did not grow over several frames"
    assert all(b <= a for a, b in zip(losses, losses[1:], strict=False)), f"the shown loss went up: {losses}"
    assert min(losses) >= round(optimum, 4), "the loss went below the count optimum"
    # Same run in Python with labcode: the page ends at the same loss (shown to 4 decimals).
    W, losses = train(np.zeros(counts.shape), N, data["lr"], data["steps"], data["reg"])
    final = losses[-1]
    assert end["loss"] == pytest.approx(final, abs=5e-5 + 1e-12)
    assert final - optimum < 2e-3  # one press at the default lr comes close
    assert end["gap"] == pytest.approx(final - optimum, rel=0.01)  # “差”, to three significant digits
    # The page's curve points: one per step, drawn inside the chart.
    assert widget(page).locator(".bt-losschart .bt-curve").get_attribute("points").count(",") > 100
    # A second press continues from the trained W.
    _, again = train_once(page)
    assert again["steps"] == 2 * data["steps"] and optimum - 5e-5 <= again["loss"] <= end["loss"]


def test_controls_work_from_the_keyboard_and_a_new_alpha_restarts(page):
    root = widget(page)
    train_once(page)
    press(root.locator(".bt-lr"), "ArrowLeft")
    assert root.locator(".bt-lr-val").inner_text() == "69"
    assert shown(page)["steps"] > 0  # the learning rate does not change the objective
    press(root.locator(".bt-alpha"), "ArrowRight", 10)  # alpha from 0 to 1: add-one smoothing, a new objective
    s = shown(page)
    assert root.locator(".bt-alpha-val").inner_text() == "1" and s["steps"] == 0
    data = import_module(page, MARKER)
    assert s["optimum"] == pytest.approx(count_optimum(np.asarray(data["counts"]), 1.0), abs=5e-5)
    press(root.locator(".bt-train"), "Enter")
    page.wait_for_function("() => document.querySelector('.bt-train').textContent.startsWith('训练')")
    assert shown(page)["loss"] >= s["optimum"]
    for control in root.locator("input, button").all():  # every control is labelled
        name = control.evaluate("e => e.getAttribute('aria-label') || (e.closest('label') || e).textContent.trim()")
        assert name, control.evaluate("e => e.outerHTML")


def test_steppers_set_an_exact_value_a_finger_cannot_hit_on_the_slider(page):
    """lr = 80, which the text asks for, on a phone's slider is two pixels wide: − and + move it one step."""
    root = widget(page)
    start = int(root.locator(".bt-lr-val").inner_text())
    up = root.locator(".lc-row:has(.bt-lr) .lc-step-up")
    for _ in range(80 - start):
        up.click()
    assert root.locator(".bt-lr-val").inner_text() == "80" and root.locator(".bt-lr").input_value() == "80"
    root.locator(".lc-row:has(.bt-lr) .lc-step-down").click()
    assert root.locator(".bt-lr-val").inner_text() == "79"
    train_once(page)
    assert shown(page)["steps"] > 0
    # α stops at its end (0), and a step up is a new objective, as a move of the slider is: the run starts again
    root.locator(".lc-row:has(.bt-alpha) .lc-step-down").click()
    assert root.locator(".bt-alpha-val").inner_text() == "0" and shown(page)["steps"] > 0
    root.locator(".lc-row:has(.bt-alpha) .lc-step-up").click()
    assert root.locator(".bt-alpha-val").inner_text() == "0.1" and shown(page)["steps"] == 0


def test_sampled_names_are_reproducible_for_a_seed(page):
    root = widget(page)
    train_once(page)
    first = shown(page)["names"]
    assert len(first) == 8 and all(re.fullmatch(r"[a-z]+|（空）", n) for n in first)
    root.locator(".bt-nextseed").click()
    other = shown(page)["names"]
    assert other != first
    root.locator(".bt-seed").fill("0")
    root.locator(".bt-seed").press("Enter")
    assert shown(page)["names"] == first
    # Another temperature draws other names from the same seed and W.
    press(root.locator(".bt-temperature"), "ArrowLeft", 10)  # colder: names closer to the most likely letters
    cold = shown(page)["names"]
    assert root.locator(".bt-temperature-val").inner_text() == "0.5" and cold != first
    page.keyboard.press("End")
    assert shown(page)["names"] != cold


def test_an_unstable_learning_rate_draws_a_zigzag_on_round_ticks(page):
    root = widget(page)
    enter(root.locator(".bt-lr"), "80")
    assert root.locator(".bt-lr-val").inner_text() == "80"
    train_once(page)
    # Above the stability edge (about 74.4) the loss goes up every other step: the curves must show it.
    for chart in ("bt-losschart", "bt-gapchart"):
        heights = [float(p.split(",")[1]) for p in root.locator(f".{chart} .bt-curve").get_attribute("points").split()]
        turns = sum((b - a) * (c - b) < 0 for a, b, c in zip(heights, heights[1:], heights[2:], strict=False))
        assert turns > 300, (chart, turns)
    labels = root.locator(".bt-losschart .bt-axes text").all_text_contents()
    ticks = [float(t) for t in labels if re.fullmatch(r"\d+\.\d{1,2}", t)]
    steps = {round(b - a, 6) for a, b in zip(ticks, ticks[1:], strict=False)}
    assert len(ticks) >= 3 and len(steps) == 1 and steps <= {0.05, 0.1, 0.2, 0.5}, labels
    powers = [t for t in root.locator(".bt-gapchart .bt-axes text").all_text_contents()
              if t.startswith("10") and not t.isascii()]
    assert powers and all(re.fullmatch(r"10⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+", t) for t in powers), powers


def assert_names_keep_to_their_columns(root, width):
    """The sampled names at viewport `width`: a long name wraps inside its column, and each column's number
    (drawn left of the column, in the gap) has as much room as the first column's (the list's padding)."""
    names = root.locator(".bt-names")
    kept = names.evaluate("""ol => {
        const item = ol.querySelector('li'), text = item.textContent;
        item.textContent = 'fclnpqlofbxksqupocfvaiakaddonarmyile';
        const fits = item.scrollWidth <= item.clientWidth + 1 && item.getBoundingClientRect().right
                     <= ol.getBoundingClientRect().right + 1;
        item.textContent = text;
        const style = getComputedStyle(ol);
        return { fits, gap: parseFloat(style.columnGap), padding: parseFloat(style.paddingLeft),
                 columns: style.gridTemplateColumns.split(' ').length };
    }""")
    assert kept["fits"], f"a long sampled name runs out of its column at {width}px"
    assert kept["columns"] == 1 or kept["gap"] >= kept["padding"] >= 24, (width, kept)


def test_screenshots_light_and_dark_at_desktop_and_phone_width_without_overflow(page):
    root = widget(page)
    train_once(page)
    texts = set()

    def curve_and_names(root, width):
        text, curve = root.evaluate("el => [getComputedStyle(el).color, "
                                    "getComputedStyle(el.querySelector('.bt-curve')).stroke]")
        assert curve == text  # the curve follows the page's text colour (light or dark)
        texts.add(text)
        assert_names_keep_to_their_columns(root, width)

    assert_fits_desktop_and_phone(page, root, "bigram_trainer", "input, button", also=curve_and_names)
    assert len(texts) == 2  # the page's theme really switched, and the widget's text with it
