"""The embedding explorer in a RUNNING KERNEL in JupyterLab (server and page helpers from
test_kernel_widgets.py): a phrase typed in the page and the bug switch reach Python's traits, and a
phrase set in Python reaches the page. Both sides are checked against labcode.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import labcode
from labcode.corpus import encode as _encode
from test_softmax_explorer_kernel import (
    SHOTS,
    open_and_display,
    probe_until,
    run_cell,
    serve_notebook,
    widget_errors,
)


@pytest.fixture(scope="module")
def jupyterlab(request, jupyter_server):
    return serve_notebook(request, jupyter_server, "jupyterlab", CELLS)


def encode(text):
    return _encode(text).tolist()


CELLS = [
    'import json\n'
    'import labcode\n'
    'w = labcode.embedding_explorer("我爱我家")\n'
    'w',
    'print("STATE", json.dumps({"n": get_ipython().execution_count, "text": w.text, "ids": w.ids,\n'
    '                           "rows": w.rows, "counts": w.counts, "grad_out": w.grad_out, "show_bug": w.show_bug,\n'
    '                           "grad_rows": w.grad_rows, "grad_rows_overwrite": w.grad_rows_overwrite},\n'
    '                          ensure_ascii=False))',
    'w.text = "谢谢你谢谢"\n'
    'print("SET", w.ids)',
]
START, PROBE, SET = range(3)
TYPED = "天天向上天天"


def assert_python_agrees_with_labcode(py):
    ids = np.asarray(encode(py["text"]), dtype=np.int64)
    assert py["ids"] == ids.tolist()
    g = np.asarray(py["grad_out"])[:len(ids)]
    right = labcode.embedding_backward(g, ids, 1 + max(ids))
    wrong = labcode.embedding_backward_overwrite(g, ids, 1 + max(ids))
    assert py["counts"] == [int((ids == i).sum()) for i in py["rows"]]
    assert py["grad_rows"] == right[py["rows"]].tolist()
    assert py["grad_rows_overwrite"] == wrong[py["rows"]].tolist()


def page_ids(page):
    return json.loads(page.locator(".ee-root .ee-ids").inner_text())


def test_typing_switch_and_python_stay_in_sync_in_a_running_kernel(jupyterlab, offline_page):
    name = jupyterlab.front_end
    page = offline_page
    errors = []
    page.on("pageerror", lambda e: errors.append(f"{e}\n{e.stack}"))
    page.set_viewport_size({"width": 1280, "height": 1000})
    open_and_display(page, jupyterlab, root=".ee-root")
    root = page.locator(".ee-root")
    assert page_ids(page) == encode("我爱我家")

    # (a) the reader types a phrase with a repeated character and flips the bug switch by keyboard.
    box = root.locator(".ee-text")
    box.fill("")
    box.press_sequentially(TYPED)
    root.locator(".ee-bug").focus()
    page.keyboard.press("Space")
    assert page_ids(page) == encode(TYPED)
    py = probe_until(page, {"n": 0}, lambda py: py["text"] == TYPED and py["show_bug"])
    assert py["text"] == TYPED and py["show_bug"], "the kernel never received the typed phrase and the switch"
    assert py["counts"] == [4, 1, 1]                     # 天 four times
    assert_python_agrees_with_labcode(py)
    shown = [[float(v) for v in json.loads(t)] for t in root.locator(".ee-grad-row").all_inner_texts()]
    assert shown == py["grad_rows"]
    assert [json.loads(t) for t in root.locator(".ee-bug-row").all_inner_texts()] == py["grad_rows_overwrite"]

    # (b) Python sets the phrase: the text box, ids and gradient rows in the page follow.
    run_cell(page, SET)
    want = encode("谢谢你谢谢")
    page.wait_for_function("want => document.querySelector('.ee-root .ee-ids').innerText === want",
                           arg=json.dumps(want), timeout=30000)
    assert box.input_value() == "谢谢你谢谢"
    py = probe_until(page, py, lambda py: py["text"] == "谢谢你谢谢")
    assert_python_agrees_with_labcode(py)
    assert [json.loads(t) for t in root.locator(".ee-grad-row").all_inner_texts()] == py["grad_rows"]
    assert root.count() == 1, "the explorer was drawn more than once"

    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"kernel_embedding_{name}.png"))
    assert page.external == [], f"requests left 127.0.0.1: {page.external}"
    assert widget_errors(errors) == [], f"JavaScript errors in {name}"
