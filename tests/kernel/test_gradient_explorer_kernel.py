"""The gradient-step explorer in a RUNNING KERNEL in JupyterLab (tests/kernel_server.py): buttons and sliders in
the page reach Python's traits, and Python's steps reach the page. Both sides are checked against a trajectory
computed here with labcode.
"""
from __future__ import annotations

import numpy as np
import pytest

import labcode

WIDGET = ".gx-root"
START = 'gx = labcode.gradient_explorer([0, 1, 2], ["红", "黄", "绿"], target="红", lr=1.0)\ngx'
PROBE = '{"logits": gx.logits, "steps": gx.steps, "history": gx.history, "lr": gx.lr, "start": gx.start_logits}'
SET = 'gx.step(2)\nprint("SET", gx.steps)'
Z0, TARGET = [0.0, 1.0, 2.0], 0


def trajectory(z, lr, n):
    zs = [np.asarray(z, dtype=float)]
    for _ in range(n):
        zs.append(zs[-1] - lr * labcode.cross_entropy_grad(zs[-1], TARGET))
    return zs, [labcode.cross_entropy(v, TARGET) for v in zs]


def page_state(root):
    return {"z": [float(v) for v in root.locator(".gx-z").evaluate_all("els => els.map(e => e.dataset.value)")],
            "history": [float(t) for t in root.locator(".gx-item").all_text_contents()],
            "lr": float(root.locator(".gx-lrval").inner_text())}


def test_buttons_sliders_and_python_agree_in_a_running_kernel(kernel_page):
    page, root = kernel_page.page, kernel_page.root

    # (a) two clicks on 走一步 in the page: Python holds the same logits, step count and loss history.
    for _ in range(2):
        root.locator(".gx-step").click()
    zs, losses = trajectory(Z0, 1.0, 2)
    py = kernel_page.probe_until(lambda py: py["steps"] == 2)
    assert py["steps"] == 2 and py["start"] == Z0, "the kernel never received the steps"
    np.testing.assert_allclose(py["logits"], zs[-1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(py["history"], losses, rtol=1e-12)

    # (b) the learning-rate slider by keyboard (JupyterLab must leave the arrow keys to it): lr only, no restart.
    root.locator(".gx-lr").focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    py = kernel_page.probe_until(lambda py: py["lr"] == pytest.approx(1.5, abs=1e-9), py)
    assert py["lr"] == pytest.approx(1.5, abs=1e-9) and py["steps"] == 2

    # (c) Python steps twice more at lr 1.5: the page follows with the same numbers.
    kernel_page.run_set()
    page.wait_for_function("() => document.querySelector('.gx-root .gx-lossline').dataset.steps === '4'", timeout=30000)
    zs2, losses2 = trajectory(zs[-1], py["lr"], 2)
    shown = page_state(root)
    np.testing.assert_allclose(shown["z"], zs2[-1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(shown["history"], [*losses, *losses2[1:]], atol=0.00005 + 1e-12)
    assert shown["lr"] == 1.5

    # (d) 回到起点 in the page: Python is back at the start.
    root.locator(".gx-reset").click()
    py = kernel_page.probe_until(lambda py: py["steps"] == 0, py)
    assert py["steps"] == 0 and py["logits"] == Z0 and len(py["history"]) == 1
