"""The bigram trainer in a RUNNING KERNEL (JupyterLab): the page trains and Python reads the result;
Python trains and the page follows.

Reuses the server and page helpers of tests/test_kernel_widgets.py (one front end is enough here).
The page's training run is compared step by step with labcode's; no request may leave 127.0.0.1.
"""
from __future__ import annotations

import numpy as np
import pytest

from labcode.bigram import loss_and_grad_from_counts, train
from labcode.widgets.bigram_trainer import default_counts
from test_softmax_explorer_kernel import (
    PROBE,
    SET,
    SHOTS,
    START,
    cell,
    open_and_display,
    output_text,
    probe_python,
    probe_until,
    run_cell,
    serve_notebook,
    widget_errors,
)

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
assert (START, PROBE, SET) == (0, 1, 2)


@pytest.fixture(scope="module")
def jupyterlab(request, jupyter_server):
    return serve_notebook(request, jupyter_server, "jupyterlab", CELLS)


def shown(page):
    root = page.locator(".bt-root")
    return {"steps": int(root.locator(".bt-steps").inner_text()), "loss": float(root.locator(".bt-loss").inner_text()),
            "lr": float(root.locator(".bt-lr-val").inner_text()), "train": root.locator(".bt-train").inner_text()}


def test_page_trains_python_reads_python_trains_page_follows(jupyterlab, offline_page):
    name = jupyterlab.front_end
    page = offline_page
    errors = []
    page.on("pageerror", lambda e: errors.append(f"{e}\n{e.stack}"))
    page.set_viewport_size({"width": 1280, "height": 1000})
    open_and_display(page, jupyterlab, root=".bt-root")
    root = page.locator(".bt-root")
    assert shown(page)["steps"] == 0

    # (a) The page trains (no Python involved) and writes W and the history back to the kernel.
    root.locator(".bt-train").click()
    page.wait_for_function("() => document.querySelector('.bt-root .bt-train').textContent.startsWith('训练')",
                           timeout=30000)
    after = shown(page)
    assert after["steps"] == STEPS
    py = probe_until(page, {"n": 0}, lambda p: len(p["history"]) == STEPS)
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
    py = probe_until(page, py, lambda p: p["lr"] == 69.0)
    assert py["lr"] == 69.0 and shown(page)["lr"] == 69.0

    # (c) Python trains 300 more steps with labcode: the page shows the new step count and loss.
    run_cell(page, SET)
    page.wait_for_function("k => document.querySelectorAll('.jp-Notebook .jp-Cell')[k].innerText.includes('SET ')",
                           arg=SET, timeout=30000)
    assert f"SET {STEPS + 300}" in output_text(page, SET)
    page.wait_for_function(f"() => document.querySelector('.bt-root .bt-steps').textContent === '{STEPS + 300}'",
                           timeout=10000)
    py = probe_python(page, py["n"])
    assert shown(page)["loss"] == pytest.approx(py["loss"], abs=5e-5 + 1e-12)
    assert root.count() == 1

    SHOTS.mkdir(parents=True, exist_ok=True)
    root.scroll_into_view_if_needed()
    root.screenshot(path=str(SHOTS / f"kernel_bigram_trainer_{name}.png"))
    assert page.external == [], f"requests left 127.0.0.1: {page.external}"
    assert widget_errors(errors) == [], f"JavaScript errors in {name}"
    assert cell(page, START).count() == 1
