"""The bigram trainer in a RUNNING KERNEL in JupyterLab (tests/kernel_server.py): the page trains and Python reads
the result; Python trains and the page follows. The page's training run is compared step by step with labcode's.
"""
from __future__ import annotations

import numpy as np
import pytest

from kernel_server import SET
from labcode.bigram import loss_and_grad_from_counts, train
from labcode.widgets.bigram_trainer import default_counts

WIDGET = ".bt-root"
STEPS = 200
CELLS = [
    'import json\n'
    'import labcode\n'
    f'w = labcode.bigram_trainer(steps={STEPS})\n'
    'w',
    'print("STATE", json.dumps({"n": get_ipython().execution_count, "history": w.history, "lr": w.lr,\n'
    '                           "W": w.W, "loss": w.loss(), "optimum": w.optimum()}))',
    'w.train(300)\n'
    'print("SET", len(w.history))',
]


def shown(page):
    root = page.locator(WIDGET)
    return {"steps": int(root.locator(".bt-steps").inner_text()), "loss": float(root.locator(".bt-loss").inner_text()),
            "lr": float(root.locator(".bt-lr-val").inner_text()), "train": root.locator(".bt-train").inner_text()}


def test_page_trains_python_reads_python_trains_page_follows(kernel_page):
    page = kernel_page.page
    root = page.locator(WIDGET)
    assert shown(page)["steps"] == 0

    # (a) The page trains (no Python involved) and writes W and the history back to the kernel.
    root.locator(".bt-train").click()
    page.wait_for_function("() => document.querySelector('.bt-root .bt-train').textContent.startsWith('训练')",
                           timeout=30000)
    after = shown(page)
    assert after["steps"] == STEPS
    py = kernel_page.probe_until(lambda p: len(p["history"]) == STEPS)
    assert len(py["history"]) == STEPS and len(py["W"]) == 27, "the kernel never received the page's run"
    counts, _ = default_counts()
    N = counts + 0.0  # the default alpha is 0, lr 70: the chapter's run
    W, losses = train(np.zeros((27, 27)), N, 70.0, STEPS)
    np.testing.assert_allclose(py["history"], losses[:-1], rtol=1e-9)   # the page's run equals labcode's
    np.testing.assert_allclose(py["W"], W, rtol=1e-8, atol=1e-9)
    assert min(py["history"]) >= py["optimum"]
    assert py["loss"] == pytest.approx(loss_and_grad_from_counts(W, N, 0.0)[0], rel=1e-9)
    assert after["loss"] == pytest.approx(py["loss"], abs=5e-5 + 1e-12)

    # (b) Keyboard on the learning-rate slider, inside the notebook: Python follows.
    root.locator(".bt-lr").focus()
    page.keyboard.press("ArrowLeft")
    py = kernel_page.probe_until(lambda p: p["lr"] == 69.0, py)
    assert py["lr"] == 69.0 and shown(page)["lr"] == 69.0

    # (c) Python trains 300 more steps with labcode: the page shows the new step count and loss.
    kernel_page.run(SET)
    kernel_page.wait_for_output(SET, "SET ")
    assert f"SET {STEPS + 300}" in kernel_page.output(SET)
    page.wait_for_function(f"() => document.querySelector('.bt-root .bt-steps').textContent === '{STEPS + 300}'",
                           timeout=10000)
    py = kernel_page.probe(py["n"])
    assert shown(page)["loss"] == pytest.approx(py["loss"], abs=5e-5 + 1e-12)
    assert root.count() == 1
    root.scroll_into_view_if_needed()
