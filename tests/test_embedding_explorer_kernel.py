"""The embedding explorer in a RUNNING KERNEL in JupyterLab (tests/kernel_server.py): a phrase typed in the page
and the bug switch reach Python's traits, and a phrase set in Python reaches the page. Both sides are checked
against labcode.
"""
from __future__ import annotations

import json

import numpy as np

import labcode
from kernel_server import SET
from labcode.corpus import encode as _encode

WIDGET = ".ee-root"


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


def test_typing_switch_and_python_stay_in_sync_in_a_running_kernel(kernel_page):
    page = kernel_page.page
    root = page.locator(WIDGET)
    assert page_ids(page) == encode("我爱我家")

    # (a) the reader types a phrase with a repeated character and flips the bug switch by keyboard.
    box = root.locator(".ee-text")
    box.fill("")
    box.press_sequentially(TYPED)
    root.locator(".ee-bug").focus()
    page.keyboard.press("Space")
    assert page_ids(page) == encode(TYPED)
    py = kernel_page.probe_until(lambda py: py["text"] == TYPED and py["show_bug"])
    assert py["text"] == TYPED and py["show_bug"], "the kernel never received the typed phrase and the switch"
    assert py["counts"] == [4, 1, 1]                     # 天 four times
    assert_python_agrees_with_labcode(py)
    shown = [[float(v) for v in json.loads(t)] for t in root.locator(".ee-grad-row").all_inner_texts()]
    assert shown == py["grad_rows"]
    assert [json.loads(t) for t in root.locator(".ee-bug-row").all_inner_texts()] == py["grad_rows_overwrite"]

    # (b) Python sets the phrase: the text box, ids and gradient rows in the page follow.
    kernel_page.run(SET)
    want = encode("谢谢你谢谢")
    page.wait_for_function("want => document.querySelector('.ee-root .ee-ids').innerText === want",
                           arg=json.dumps(want), timeout=30000)
    assert box.input_value() == "谢谢你谢谢"
    py = kernel_page.probe_until(lambda py: py["text"] == "谢谢你谢谢", py)
    assert_python_agrees_with_labcode(py)
    assert [json.loads(t) for t in root.locator(".ee-grad-row").all_inner_texts()] == py["grad_rows"]
    assert root.count() == 1, "the explorer was drawn more than once"
