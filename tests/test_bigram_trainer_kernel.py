"""The bigram trainer in a RUNNING KERNEL in JupyterLab (tests/kernel_server.py): the page trains and Python reads
the result; Python trains and the page follows. The page's training run is compared step by step with labcode's.
"""
from __future__ import annotations

import numpy as np
import pytest

from labcode.bigram import NAMES_LR, loss_and_grad_from_counts, train
from labcode.widgets.bigram_trainer import default_counts

WIDGET = ".bt-root"
STEPS = 200
START = f'bt = labcode.bigram_trainer(steps={STEPS})\nbt'
PROBE = '{"history": bt.history, "lr": bt.lr, "W": bt.W, "loss": bt.loss(), "optimum": bt.optimum()}'
SET = 'bt.train(300)\nprint("SET", len(bt.history))'


def shown(root):
    return {"steps": int(root.locator(".bt-steps").inner_text()), "loss": float(root.locator(".bt-loss").inner_text()),
            "lr": float(root.locator(".bt-lr-val").inner_text())}


def test_page_trains_python_reads_python_trains_page_follows(kernel_page):
    page, root = kernel_page.page, kernel_page.root
    assert shown(root)["steps"] == 0

    # (a) The page trains (no Python involved) and writes W and the history back to the kernel.
    root.locator(".bt-train").click()
    page.wait_for_function("() => document.querySelector('.bt-root .bt-train').textContent.startsWith('训练')",
                           timeout=30000)
    after = shown(root)
    assert after["steps"] == STEPS
    py = kernel_page.probe_until(lambda p: len(p["history"]) == STEPS)
    assert len(py["history"]) == STEPS and len(py["W"]) == 27, "the kernel never received the page's run"
    counts, _ = default_counts()
    N = counts + 0.0  # the default alpha is 0, lr NAMES_LR: the chapter's run
    W, losses = train(np.zeros((27, 27)), N, NAMES_LR, STEPS)
    np.testing.assert_allclose(py["history"], losses[:-1], rtol=1e-9)   # the page's run equals labcode's
    np.testing.assert_allclose(py["W"], W, rtol=1e-8, atol=1e-9)
    assert min(py["history"]) >= py["optimum"]
    assert py["loss"] == pytest.approx(loss_and_grad_from_counts(W, N, 0.0)[0], rel=1e-9)
    assert after["loss"] == pytest.approx(py["loss"], abs=5e-5 + 1e-12)

    # (b) Keyboard on the learning-rate slider, inside the notebook: Python follows.
    root.locator(".bt-lr").focus()
    page.keyboard.press("ArrowLeft")
    py = kernel_page.probe_until(lambda p: p["lr"] == 69.0, py)
    assert py["lr"] == 69.0 and shown(root)["lr"] == 69.0

    # (c) Python trains 300 more steps with labcode: the page shows the new step count and loss.
    assert kernel_page.run_set() == f"SET {STEPS + 300}"
    page.wait_for_function(f"() => document.querySelector('.bt-root .bt-steps').textContent === '{STEPS + 300}'",
                           timeout=10000)
    py = kernel_page.probe(py["n"])
    assert shown(root)["loss"] == pytest.approx(py["loss"], abs=5e-5 + 1e-12)
