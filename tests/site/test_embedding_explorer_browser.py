"""The embedding explorer on the built chapter-3 page (tests/widget_page.py): no kernel, no network.

The reader's phrase is typed into the page; the ids, the read-count marks and the gradient rows the page
shows are parsed back and compared with labcode (encode, embedding_backward) on the state the page holds.
"""
from __future__ import annotations

import json
import re

import numpy as np

from labcode import embedding_backward
from labcode.corpus import UNK
from labcode.corpus import encode as _encode
from widget_page import CONTROLS_JS, assert_fits_desktop_and_phone, call_module, import_module, press

PAGE = "book/03_shared_embedding.html"
WIDGET = ".ee-root"
MARKER = "function explorerState("


def encode(text):
    return _encode(text).tolist()


def widget(page):
    return page.locator(WIDGET).first


IDS_JS = "els => els.map(e => e.dataset.id)"


def vector(text):
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", text)]


def shown(page):
    """What the explorer shows, parsed back into numbers (once the lines of the current phrase are drawn)."""
    root = widget(page)
    page.wait_for_function("el => el.querySelector('.ee-lines').dataset.text === el.querySelector('.ee-text').value",
                           arg=root.element_handle(), timeout=5000)
    rows = root.locator(".ee-rows .ee-row")
    bug_cells = root.locator(".ee-bug-row")
    return {
        "text": root.locator(".ee-text").input_value(),
        "ids": json.loads(root.locator(".ee-ids").inner_text()),
        "positions": root.locator(".ee-pos").count(),
        "lines": root.locator(".ee-lines line").count(),
        "rows": [int(i) for i in rows.evaluate_all(IDS_JS)],
        "counts": [int(t.lstrip("×")) for t in root.locator(".ee-rows .ee-count").all_inner_texts()],
        "repeated": [int(i) for i in root.locator(".ee-row.ee-repeated").evaluate_all(IDS_JS)],
        "table_rows": [int(i) for i in root.locator(".ee-grad tbody tr").evaluate_all(IDS_JS)],
        "grad": [vector(t) for t in root.locator(".ee-grad-row").all_inner_texts()],
        "bug": [vector(t) for t in bug_cells.all_inner_texts()] if bug_cells.count() else None,
        "verdicts": root.locator(".ee-verdict").all_inner_texts(),
        "unk_marked": root.locator(".ee-pos.ee-is-unk").all_inner_texts(),
    }


def restorable_state(page):
    """What the explorer shows (all of its text too), and where its controls stand."""
    return {**shown(page), "all_text": widget(page).inner_text(), "controls": widget(page).evaluate(CONTROLS_JS),
            "theme": page.evaluate("document.documentElement.dataset.theme")}


def backward(g, ids, V):
    """dE with labcode (every use of a row adds), and with the overwrite bug `dE[ids] += g` (one use survives)."""
    dE = embedding_backward(g, ids, V)
    dE_bug = np.zeros_like(dE)
    dE_bug[ids] += g
    return dE, dE_bug


def expected(page, text):
    """labcode's answer for this phrase, with the upstream gradients the page holds."""
    state = import_module(page, MARKER)
    ids = np.asarray(encode(text), dtype=np.int64)
    dE, dE_bug = backward(np.asarray(state["grad_out"], dtype=float)[:len(ids)], ids, len(state["vocab"]))
    rows = list(dict.fromkeys(ids.tolist()))
    return {"ids": ids.tolist(), "rows": rows, "counts": [int((ids == i).sum()) for i in rows],
            "grad": dE[rows].tolist(), "bug": dE_bug[rows].tolist()}


def type_phrase(page, text):
    box = widget(page).locator(".ee-text")
    box.fill("")
    box.press_sequentially(text)  # one character at a time, as typed


def test_typing_repeated_characters_shows_labcode_ids_marks_and_gradient_rows(page):
    text = "天天向上谢谢侬天"
    type_phrase(page, text)
    s, want = shown(page), expected(page, text)
    assert s["text"] == text
    assert s["ids"] == want["ids"] and want["ids"][6] == UNK
    assert s["positions"] == s["lines"] == len(text)           # one line from each position to its row
    assert s["rows"] == s["table_rows"] == want["rows"]
    assert s["counts"] == want["counts"] == [3, 1, 1, 2, 1]     # 天 ×3, 谢 ×2
    assert s["repeated"] == [i for i, n in zip(want["rows"], want["counts"], strict=True) if n > 1]
    assert s["grad"] == want["grad"]
    assert s["bug"] is None                                     # the switch starts off
    assert len(s["unk_marked"]) == 1 and "UNK" in s["unk_marked"][0] and "侬" in s["unk_marked"][0]
    assert "UNK" in widget(page).locator(".ee-idsline").inner_text()


def test_bug_switch_by_keyboard_shows_the_overwrite_result_next_to_the_sum(page):
    text = "谢谢你谢谢"
    type_phrase(page, text)
    switch = widget(page).locator(".ee-bug")
    press(switch, "Space")
    assert switch.is_checked()
    s, want = shown(page), expected(page, text)
    assert s["grad"] == want["grad"] and s["bug"] == want["bug"]
    xie = want["rows"].index(encode("谢")[0])
    assert s["bug"][xie] != s["grad"][xie]                      # 4 uses, only one survives
    assert s["verdicts"][xie].strip() == "✗ 丢了 3 份"
    assert all(v.strip() == "✓ 相同" for k, v in enumerate(s["verdicts"]) if k != xie)
    assert widget(page).locator(".ee-note").inner_text().endswith("（NumPy 不规定是哪一次），“谢”的梯度丢了其余几份。")
    type_phrase(page, "")
    assert widget(page).locator(".ee-note").inner_text() == "（空短语）"
    press(switch, "Space")
    assert shown(page)["bug"] is None


def test_example_select_sets_the_phrase(page):
    widget(page).locator(".ee-examples").select_option("谢谢")
    s = shown(page)
    assert s["text"] == "谢谢" and s["counts"] == [2] and s["grad"] == expected(page, "谢谢")["grad"]
    type_phrase(page, "谢谢你")
    assert widget(page).locator(".ee-examples").input_value() == ""  # no longer an example


def test_page_maths_agrees_with_labcode_under_heavy_repetition(page):
    """embeddingBackward and its overwrite twin from the module text embedded in the page, on random ids."""
    rng = np.random.default_rng(0)
    cases = [(rng.integers(0, V, size=T).tolist(), rng.integers(-3, 4, size=(T, D)).tolist(), V)
             for V, T, D in [(3, 12, 2), (1, 7, 3), (50, 40, 1), (8, 8, 4), (365, 12, 2)]]
    args = [(g, ids, V) for ids, g, V in cases]
    rights = call_module(page, MARKER, "maths.embeddingBackward", args)
    wrongs = call_module(page, MARKER, "maths.embeddingBackwardOverwrite", args)
    for (ids, g, V), right, wrong in zip(cases, rights, wrongs, strict=True):
        ids, g = np.asarray(ids, dtype=np.int64), np.asarray(g, dtype=float).reshape(len(ids), -1)
        dE, bug = backward(g, ids, V)
        np.testing.assert_array_equal(np.asarray(right).reshape(dE.shape), dE)
        np.testing.assert_array_equal(np.asarray(wrong).reshape(dE.shape), bug)


def test_screenshots_in_both_themes_and_no_overflow_at_phone_and_desktop_width(page):
    """Contrast in both themes is checked for every widget page by test_widget_themes.py."""
    root = widget(page)
    type_phrase(page, "我爱我家，谢谢")
    root.locator(".ee-bug").check()
    assert shown(page)["lines"] == 7
    assert_fits_desktop_and_phone(page, root, "embedding_explorer", ".ee-text, .ee-examples, .ee-bug", least=18)


def test_the_phrase_limit_counts_characters_and_says_what_was_cut(page):
    """The limit is one character per row of grad_out, counted as Python counts a string (code points): eight
    emoji or rare characters (two UTF-16 units each) all stay; a phrase past the limit is cut and the widget says so."""
    limit = len(import_module(page, MARKER)["grad_out"])
    wide = "😀𠀀" * 4                                              # 8 characters, 16 UTF-16 units
    type_phrase(page, wide)
    s = shown(page)
    assert s["text"] == wide and len(s["ids"]) == 8 and s["positions"] == 8
    assert widget(page).locator(".ee-cut").inner_text() == ""
    long = "好好学习天天向上谢谢你们大家"                                 # 14 characters
    assert len(long) == limit + 2
    widget(page).locator(".ee-text").fill(long)                       # pasted at once
    s = shown(page)
    assert s["text"] == long[:limit] and len(s["ids"]) == limit
    assert widget(page).locator(".ee-cut").inner_text() == \
        f"短语最多 {limit} 个字：只取了前 {limit} 个，后面的 2 个没有用上。"
    type_phrase(page, "谢谢")
    assert widget(page).locator(".ee-cut").inner_text() == ""


def test_a_typed_space_is_shown_as_a_visible_mark_and_the_box_states_its_limit(page):
    """A space is not in the vocabulary (it reads the UNK row): the position shows ␣, not an empty box."""
    limit = len(import_module(page, MARKER)["grad_out"])
    assert widget(page).locator(".ee-text").get_attribute("placeholder") == f"最多 {limit} 个字"
    type_phrase(page, "我 爱")
    s = shown(page)
    assert s["ids"] == encode("我 爱") and s["ids"][1] == UNK
    chars = widget(page).locator(".ee-char").all_inner_texts()
    assert chars == ["我", "␣", "爱"]
