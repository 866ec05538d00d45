"""The embedding explorer in a RUNNING KERNEL in JupyterLab (tests/kernel_server.py): a phrase typed in the page
and the bug switch reach Python's traits, and a phrase set in Python reaches the page. Both sides are checked
against labcode.
"""
from __future__ import annotations

import json

import numpy as np

import labcode
from labcode.corpus import encode

WIDGET = ".ee-root"
START = 'ee = labcode.embedding_explorer("我爱我家")\nee'
PROBE = ('{"text": ee.text, "ids": ee.ids, "rows": ee.rows, "counts": ee.counts, "grad_out": ee.grad_out,\n'
         ' "show_bug": ee.show_bug, "grad_rows": ee.grad_rows, "grad_rows_overwrite": ee.grad_rows_overwrite}')
SET = 'ee.text = "谢谢你谢谢"\nprint("SET", ee.ids)'
TYPED = "天天向上天天"


def assert_python_agrees_with_labcode(py):
    ids = encode(py["text"])
    assert py["ids"] == ids.tolist()
    g = np.asarray(py["grad_out"])[:len(ids)]
    right = labcode.embedding_backward(g, ids, 1 + max(ids))
    wrong = labcode.embedding_backward_overwrite(g, ids, 1 + max(ids))
    assert py["counts"] == [int((ids == i).sum()) for i in py["rows"]]
    assert py["grad_rows"] == right[py["rows"]].tolist()
    assert py["grad_rows_overwrite"] == wrong[py["rows"]].tolist()


def shown(root, rows):
    return [json.loads(t) for t in root.locator(rows).all_inner_texts()]


def test_typing_switch_and_python_stay_in_sync_in_a_running_kernel(kernel_page):
    page, root = kernel_page.page, kernel_page.root
    assert shown(root, ".ee-ids") == [encode("我爱我家").tolist()]

    # (a) the reader types a phrase with a repeated character and flips the bug switch by keyboard.
    box = root.locator(".ee-text")
    box.fill("")
    box.press_sequentially(TYPED)
    root.locator(".ee-bug").focus()
    page.keyboard.press("Space")
    assert shown(root, ".ee-ids") == [encode(TYPED).tolist()]
    py = kernel_page.probe_until(lambda py: py["text"] == TYPED and py["show_bug"])
    assert py["text"] == TYPED and py["show_bug"], "the kernel never received the typed phrase and the switch"
    assert py["counts"] == [4, 1, 1]                     # 天 four times
    assert_python_agrees_with_labcode(py)
    assert shown(root, ".ee-grad-row") == py["grad_rows"]
    assert shown(root, ".ee-bug-row") == py["grad_rows_overwrite"]

    # (b) Python sets the phrase: the text box, ids and gradient rows in the page follow.
    kernel_page.run_set()
    page.wait_for_function("want => document.querySelector('.ee-root .ee-ids').innerText === want",
                           arg=json.dumps(encode("谢谢你谢谢").tolist()), timeout=30000)
    assert box.input_value() == "谢谢你谢谢"
    py = kernel_page.probe_until(lambda py: py["text"] == "谢谢你谢谢", py)
    assert_python_agrees_with_labcode(py)
    assert shown(root, ".ee-grad-row") == py["grad_rows"]
