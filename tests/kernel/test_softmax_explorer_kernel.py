"""The softmax explorer in a RUNNING KERNEL, in the learner's kit's JupyterLab and in Notebook 7
(tests/kernel_server.py).

Headless Chromium moves logit sliders by keyboard and mouse and asks Python what it now holds; then Python sets the
logits and the page must follow. Python's numbers are checked against labcode, the page's against Python's.
"""
from __future__ import annotations

import numpy as np
import pytest

import labcode

WIDGET = ".sx-root"
FRONT_ENDS = ["jupyterlab", "notebook7"]
START = 'sx = labcode.softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")\nsx'
PROBE = '{"logits": sx.logits, "probs": sx.probs, "loss": sx.loss, "target": sx.target, "temperature": sx.temperature}'
SET_LOGITS = [0.0, 1.0, 3.0]
SET = f'sx.logits = {SET_LOGITS}\nprint("SET", sx.logits)'
TARGET = 2  # 绿


def shown_state(page):
    """Everything the explorer shows, parsed back into numbers."""
    root = page.locator(WIDGET)
    return {
        "sliders": [float(v) for v in root.locator(".sx-logit").evaluate_all("els => els.map(e => e.value)")],
        "logits": [float(t) for t in root.locator(".sx-z").all_inner_texts()],
        "probs": [float(t) for t in root.locator(".sx-p").all_inner_texts()],
        "bars": [float(t) for t in root.locator(".sx-barval").all_inner_texts()],
        "heights": root.locator(".sx-bar").evaluate_all("els => els.map(e => parseFloat(e.style.height))"),
        "loss": float(root.locator(".sx-loss").inner_text()),
    }


def assert_page_shows(page, logits, probs=None, loss=None):
    """The page's sliders, readouts and bars show these logits, probabilities and loss (to display precision);
    by default labcode's for these logits."""
    probs = labcode.softmax(logits) if probs is None else probs
    loss = labcode.cross_entropy(np.asarray(logits, dtype=float), TARGET) if loss is None else loss
    s = shown_state(page)
    np.testing.assert_allclose(s["sliders"], logits, atol=1e-9, err_msg="slider positions")
    np.testing.assert_allclose(s["logits"], logits, atol=1e-9, err_msg="shown logits")
    np.testing.assert_allclose(s["probs"], probs, atol=0.0005 + 1e-12, err_msg="probability table")
    np.testing.assert_allclose(s["bars"], probs, atol=0.0005 + 1e-12, err_msg="numbers on the bars")
    np.testing.assert_allclose(s["heights"], 100 * np.asarray(probs), atol=0.005 + 1e-9, err_msg="bar heights (%)")
    assert s["loss"] == pytest.approx(loss, abs=0.00005 + 1e-12), "shown loss"


def assert_python_agrees_with_labcode(py):
    assert py["target"] == TARGET and py["temperature"] == 1.0
    np.testing.assert_allclose(py["probs"], labcode.softmax(py["logits"]), rtol=1e-12, atol=1e-15)
    assert py["loss"] == pytest.approx(labcode.cross_entropy(np.asarray(py["logits"]), TARGET), rel=1e-12)


@pytest.mark.parametrize("kernel_page", FRONT_ENDS, indirect=True)
def test_sliders_and_python_stay_in_sync_in_a_running_kernel(kernel_page):
    page, sliders = kernel_page.page, kernel_page.root.locator(".sx-logit")
    assert_page_shows(page, [0.0, 1.0, 2.0])

    # (a) keyboard: three ArrowRight presses on 红's slider move z(红) by three steps, inside the notebook
    #     (the notebook binds arrow keys to cell navigation; the widget must keep them).
    sliders.nth(0).focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    moved_z0 = 3 * float(sliders.nth(0).get_attribute("step"))
    # ... and the mouse: drag 黄's thumb from its place (z = 1) to 80 % of the track.
    lo, hi = float(sliders.nth(1).get_attribute("min")), float(sliders.nth(1).get_attribute("max"))
    box = sliders.nth(1).bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * (1 - lo) / (hi - lo), y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.8, y, steps=6)
    page.mouse.up()
    moved = shown_state(page)["logits"]
    problems = []  # the keyboard result is reported at the end, so one broken input still lets (b) and (c) run
    if moved[0] != pytest.approx(moved_z0, abs=1e-9):
        problems.append(f"3 x ArrowRight on the focused z(红) slider left z(红) at {moved[0]}, expected "
                        f"{moved_z0:g}: {kernel_page.notebook.front_end} took the arrow keys away from the widget")
    assert abs(moved[1] - (lo + 0.8 * (hi - lo))) < 1, f"mouse drag left z(黄) at {moved[1]}"
    assert moved[2] == 2.0

    # (b) Python holds the moved logits and recomputed probs/loss with labcode; the page shows the same.
    #     Slider updates reach the kernel asynchronously (ipywidgets may hold the last one back until the
    #     kernel answers the previous), so re-ask a few times until Python has caught up with the page.
    py = kernel_page.probe_until(lambda py: np.allclose(py["logits"], moved, rtol=0, atol=5e-6))
    np.testing.assert_allclose(py["logits"], moved, rtol=0, atol=5e-6, err_msg="the kernel never received the moves")
    assert_python_agrees_with_labcode(py)
    assert_page_shows(page, py["logits"], py["probs"], py["loss"])

    # (c) Python sets the logits: the sliders, bars and numbers on the page follow.
    kernel_page.run_set()
    page.wait_for_function("want => [...document.querySelectorAll('.sx-root .sx-logit')]"
                           ".every((e, k) => e.valueAsNumber === want[k])", arg=SET_LOGITS, timeout=30000)
    py = kernel_page.probe(py["n"])
    assert py["logits"] == SET_LOGITS
    assert_python_agrees_with_labcode(py)
    assert_page_shows(page, SET_LOGITS)
    assert problems == []
