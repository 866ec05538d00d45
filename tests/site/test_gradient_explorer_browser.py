"""The gradient-step explorer on the built static site (tests/widget_page.py): no kernel, no network.

The page steps by itself; every shown number is parsed and compared with a trajectory computed here
with labcode (z <- z - lr * cross_entropy_grad(z, y)).
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import labcode
from labcode.widgets.gradient_explorer import PREVIEW_STEPS
from widget_page import assert_fits_desktop_and_phone, call_module, import_module, numbers, press

PAGE = "book/02_gradient.html"
WIDGET = ".gx-root"
MARKER = "function stepMaths("
RESTORE_JS = "root => root.querySelector('.gx-reset').click()"  # back to the start of the run (not to the page's)


def widget(page):
    return page.locator(WIDGET).first


def shown_state(page):
    """Everything the first explorer shows, parsed back into numbers (keys of stepMaths where it shows them)."""
    root = widget(page)
    labels = root.locator(".gx-table tbody th").all_inner_texts()
    return {
        "exact_z": [float(v) for v in root.locator(".gx-z").evaluate_all("els => els.map(e => e.dataset.value)")],
        "z": numbers(root, ".gx-z"), "probs": numbers(root, ".gx-p"), "grad": numbers(root, ".gx-g"),
        "nextLogits": numbers(root, ".gx-zn"), "nextProbs": numbers(root, ".gx-pn"),
        "sliders": [float(v) for v in root.locator(".gx-logit").evaluate_all("els => els.map(e => e.value)")],
        "lr": float(root.locator(".gx-lrval").inner_text()),
        "target": labels.index(root.locator(".gx-select option:checked").inner_text()),
        "loss": float(root.locator(".gx-loss").inner_text()),
        "nextLoss": float(root.locator(".gx-nextloss").inner_text()),
        "steps": int(root.locator(".gx-lossline").get_attribute("data-steps")),
        "history": [float(t) for t in root.locator(".gx-item").all_text_contents()],  # in a folded <details>
        "preview": [float(v) for v in json.loads(root.locator(".gx-ahead").get_attribute("data-losses"))],
        "preview_points": len(root.locator(".gx-ahead").get_attribute("points").split()),
        "heights": root.locator(".gx-now").evaluate_all("els => els.map(e => parseFloat(e.style.height))"),
        "next_heights": root.locator(".gx-after").evaluate_all("els => els.map(e => parseFloat(e.style.height))"),
    }


def labcode_step(z, y, lr):
    """What stepMaths computes for scores z, target y and learning rate lr, with labcode."""
    z = np.asarray(z, dtype=float)
    z_next = z - lr * labcode.cross_entropy_grad(z, y)
    return {"probs": labcode.softmax(z), "grad": labcode.cross_entropy_grad(z, y), "nextLogits": z_next,
            "nextProbs": labcode.softmax(z_next), "loss": labcode.cross_entropy(z, y),
            "nextLoss": labcode.cross_entropy(z_next, y)}


def trajectory(start, target, lr, n):
    """Logits after each of n steps and the loss at each step, with labcode."""
    zs = [np.asarray(start, dtype=float)]
    for _ in range(n):
        zs.append(zs[-1] - lr * labcode.cross_entropy_grad(zs[-1], target))
    return zs, [labcode.cross_entropy(z, target) for z in zs]


def assert_shows(s, z, target, lr, history):
    """Shown z, p, g, z', p' (3 d.p.), losses (4 d.p.) and bar heights equal labcode's for this z, y, lr."""
    want = labcode_step(z, target, lr)
    np.testing.assert_allclose(s["exact_z"], z, rtol=1e-12, atol=1e-12, err_msg="z (exact)")
    np.testing.assert_allclose(s["z"], z, atol=0.0005 + 1e-12, rtol=0, err_msg="z")
    for key in ("probs", "grad", "nextLogits", "nextProbs"):
        np.testing.assert_allclose(s[key], want[key], atol=0.0005 + 1e-12, rtol=0, err_msg=key)
    for key in ("loss", "nextLoss"):
        assert s[key] == pytest.approx(want[key], abs=0.00005 + 1e-12), key
    np.testing.assert_allclose(s["heights"], 100 * want["probs"], atol=0.005 + 1e-9)
    np.testing.assert_allclose(s["next_heights"], 100 * want["nextProbs"], atol=0.005 + 1e-9)
    np.testing.assert_allclose(s["history"], history, atol=0.00005 + 1e-12, err_msg="loss history")
    assert s["steps"] == len(history) - 1 and s["target"] == target and s["lr"] == lr
    _, ahead = trajectory(z, target, lr, PREVIEW_STEPS)                # the dashed line: PREVIEW_STEPS more steps
    np.testing.assert_allclose(s["preview"], ahead[1:], rtol=1e-9, atol=1e-12, err_msg="dashed preview")
    assert s["preview_points"] == PREVIEW_STEPS + 1                     # drawn from the latest loss on


# ---------------------------------------------------------------- tests
def test_explorer_renders_live_with_labcode_values(page):
    s = shown_state(page)
    assert 2 <= len(s["z"]) <= 8 and s["steps"] == 0
    step = float(widget(page).locator(".gx-logit").first.get_attribute("step"))
    np.testing.assert_allclose(s["sliders"], s["exact_z"], atol=step / 2 + 1e-9)  # sliders snap to their grid
    _, losses = trajectory(s["exact_z"], s["target"], s["lr"], 0)
    assert_shows(s, s["exact_z"], s["target"], s["lr"], losses)
    assert sum(s["grad"]) == pytest.approx(0, abs=0.002)  # the gradient sums to zero
    title = widget(page).locator(".gx-histtitle").inner_text()
    assert title == f"损失记录：起点 {losses[0]:.4f}（还没走）"  # no arrow from the start to the start


def test_step_button_follows_labcode_and_the_loss_falls(page):
    start = shown_state(page)
    for _ in range(3):
        widget(page).locator(".gx-step").click()
    zs, losses = trajectory(start["exact_z"], start["target"], start["lr"], 3)
    s = shown_state(page)
    assert_shows(s, zs[-1], start["target"], start["lr"], losses)
    assert all(b < a for a, b in zip(s["history"], s["history"][1:], strict=False))
    assert s["loss"] == s["history"][-1]
    title = widget(page).locator(".gx-histtitle").inner_text()
    assert title == f"损失记录：起点 {losses[0]:.4f} → 走 3 步后 {losses[3]:.4f}"
    widget(page).locator(".gx-reset").click()
    assert_shows(shown_state(page), zs[0], start["target"], start["lr"], losses[:1])


def test_the_dashed_line_previews_the_current_lr_before_a_step_is_taken(page):
    """Moving η redraws the dashed preview (and nothing else of the run): the reader sees where η would lead."""
    root = widget(page)
    start = shown_state(page)
    press(root.locator(".gx-lr"), "ArrowRight", 10)
    s = shown_state(page)
    assert s["steps"] == 0 and s["history"] == start["history"] and s["lr"] > start["lr"]
    assert s["preview"][-1] < start["preview"][-1]               # a larger η gets further in the same steps
    assert root.locator(".gx-ahead").evaluate("e => getComputedStyle(e).strokeDasharray") not in ("none", "")
    key = root.locator(".gx-sparkkey").inner_text()
    assert f"按当前 η 再走 {PREVIEW_STEPS} 步" in key and "横轴：步数" in key
    press(root.locator(".gx-lr"), "ArrowLeft", 10)                 # η back where the page had it
    assert shown_state(page)["preview"] == start["preview"]


def test_formula_sets_e_y_with_a_subscript_and_negative_readouts_with_a_minus_sign(page):
    root = widget(page)
    formula = root.locator(".gx-formula")
    assert "_" not in formula.inner_text() and formula.locator("sub").all_inner_texts() == ["y"]
    shown = "".join(root.locator(".gx-z, .gx-g, .gx-zn, .gx-zval").all_inner_texts())
    assert "\u2212" in shown and "-" not in shown             # the worked example has negative z and g


def test_play_keeps_stepping_until_paused(page):
    start = shown_state(page)
    play = widget(page).locator(".gx-play")
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    page.wait_for_function("() => Number(document.querySelector('.gx-root .gx-lossline').dataset.steps) >= 4",
                           timeout=10000)
    play.click()
    assert play.get_attribute("aria-pressed") == "false"
    n = shown_state(page)["steps"]
    page.wait_for_timeout(700)  # more than two play intervals: nothing moves once paused
    s = shown_state(page)
    assert s["steps"] == n >= 4
    zs, losses = trajectory(start["exact_z"], start["target"], start["lr"], n)
    assert_shows(s, zs[-1], start["target"], start["lr"], losses)


def test_keyboard_on_lr_keeps_the_run_and_a_new_logit_or_target_restarts_it(page):
    root = widget(page)
    start = shown_state(page)
    root.locator(".gx-step").click()
    lr_slider = root.locator(".gx-lr")
    press(lr_slider, "ArrowRight")  # one slider step up: only the next steps change
    lr = round(start["lr"] + float(lr_slider.get_attribute("step")), 10)
    zs, losses = trajectory(start["exact_z"], start["target"], start["lr"], 1)
    assert_shows(shown_state(page), zs[-1], start["target"], lr, losses)
    press(root.locator(".gx-logit").nth(1), "ArrowLeft")  # a new start where the slider now is
    s = shown_state(page)
    assert s["steps"] == 0 and s["exact_z"][1] == s["sliders"][1] < zs[-1][1]
    assert s["exact_z"][0] == zs[-1][0] and s["exact_z"][2:] == list(zs[-1][2:])
    first_loss = labcode.cross_entropy(np.asarray(s["exact_z"]), start["target"])
    assert_shows(s, s["exact_z"], start["target"], lr, [first_loss])
    root.locator(".gx-step").click()
    new_target = (start["target"] + 1) % len(s["exact_z"])
    labels = root.locator(".gx-table tbody th").all_inner_texts()
    root.locator(".gx-select").select_option(label=labels[new_target])  # a new start where the run now is
    zs, _ = trajectory(s["exact_z"], start["target"], lr, 1)
    assert_shows(shown_state(page), zs[-1], new_target, lr, [labcode.cross_entropy(zs[-1], new_target)])


GRID = [([0, 1, 2], 0), ([1000, -1000], 1), ([-1000, 1000, 0], 2), ([1000, 1000, -1000, 999.5], 3),
        ([-3.25, 0.5, 7, -1e-8, 2, 2, -40, 60], 4), ([5e-324, 0], 0)]
GRID_LR = [1e-3, 0.1, 1.0, 7.5]


def test_page_maths_agrees_with_labcode_to_1e9(page):
    cases = [(z, y, lr) for z, y in GRID for lr in GRID_LR]
    ones = call_module(page, MARKER, "stepMaths", cases)
    runs = call_module(page, MARKER, "runSteps", [case + (5,) for case in cases])
    for (z, y, lr), one, run in zip(cases, ones, runs, strict=True):
        want, (zs, losses), where = labcode_step(z, y, lr), trajectory(z, y, lr, 5), f"z={z} y={y} lr={lr}"
        for key, atol in (("probs", 1e-12), ("grad", 1e-12), ("nextLogits", 1e-9), ("nextProbs", 1e-12),
                          ("loss", 1e-12), ("nextLoss", 1e-9)):
            assert np.asarray(one[key]) == pytest.approx(want[key], rel=1e-9, abs=atol), f"{key} {where}"
        np.testing.assert_allclose(run["logits"], zs[-1], rtol=1e-9, atol=1e-9, err_msg=where)
        np.testing.assert_allclose(run["losses"], losses[1:], rtol=1e-9, atol=1e-9, err_msg=where)


def test_screenshots_and_no_overflow(page):
    root = widget(page)
    root.locator(".gx-step").click()
    assert_fits_desktop_and_phone(page, root, "gradient_explorer", ".gx-logit, .gx-lr, .gx-select, .gx-step, .gx-play, "
                                  ".gx-reset")


def test_the_focus_stays_in_the_widget_when_the_last_step_disables_the_step_button(page):
    """At the step limit 走一步 disables itself under the reader's focus: the focus goes to 回到起点, not to the page,
    and Enter there starts again."""
    root = widget(page)
    limit = import_module(page, MARKER)["max_steps"]
    step = root.locator(".gx-step")
    step.focus()
    for _ in range(limit):
        page.keyboard.press("Enter")
    assert shown_state(page)["steps"] == limit and step.is_disabled()
    assert page.evaluate("document.activeElement.className") == "gx-reset"
    page.keyboard.press("Enter")
    assert shown_state(page)["steps"] == 0 and not step.is_disabled()
