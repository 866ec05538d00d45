"""Named variants of the answer boxes: a box's label and a four-digit ID give the same problem in the page's script
(labcode/widgets/answer_box.js, run in Node) and in Python (labcode.practice.variants), and no draw is degenerate.

The page itself (typing “变体 7F3A”, a link to it) is checked in tests/site/test_answer_box_browser.py.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from labcode.practice.problems import KINDS, ProblemError
from labcode.practice.variants import IDS, nth_variant, variant, variant_id, variant_text
from notebook_outputs import book_boxes
from page_script import run_page_script

# Spread over the whole ID space (2003 is prime, so the IDs are distinct), for the book's labels and one other.
IDS_CHECKED = [k * 2003 % IDS for k in range(250)]
LABELS = {kind: [options["label"] for _, k, options in book_boxes() if k == kind] + ["ch9-ab-x"] for kind in KINDS}


@pytest.fixture(scope="module")
def page_draws(tmp_path_factory):
    """Every (kind, label, ID) above, drawn by the page's script: its values, texts and answer."""
    cases = [[kind, label, vid] for kind in KINDS for label in LABELS[kind] for vid in IDS_CHECKED]
    drawn = run_page_script(tmp_path_factory.mktemp("variants"),
                            f"const cases = {json.dumps(cases)};\n"
                            "console.log(JSON.stringify(cases.map(([k, l, v]) => labAnswerBoxes.variant(k, l, v))));\n")
    return list(zip(map(tuple, cases), drawn, strict=True))


def test_python_draws_every_variant_the_page_draws(page_draws):
    for (kind, label, vid), js in page_draws:
        mine = variant(kind, label, vid)
        assert js["id"] == variant_text(vid)
        assert js["texts"] == mine.texts, (kind, label, js["id"])               # the question, word for word
        for name, value in mine.values.items():
            if isinstance(value, str) or (isinstance(value, list) and isinstance(value[0], str)):
                assert js["values"][name] == value, (kind, name)
            else:
                np.testing.assert_allclose(js["values"][name], value, rtol=1e-15, atol=0, err_msg=f"{kind} {name}")
        np.testing.assert_allclose(js["answer"], mine.answer, rtol=1e-12, atol=1e-12, err_msg=f"{kind} {js['id']}")


def test_no_draw_is_degenerate(page_draws):
    """Every answer has a component that is not 0 (a row gradient or an MSE gradient of [0, 0] teaches nothing),
    over many more IDs in Python (the draws are the page's, as above)."""
    for kind in KINDS:
        for vid in range(0, IDS, 61):
            answer = np.ravel(variant(kind, "ch9-ab-x", vid).answer)
            assert np.abs(answer).max() > 1e-9, (kind, variant_text(vid), answer.tolist())
    for (kind, _, vid), js in page_draws:
        assert np.abs(np.ravel(js["answer"])).max() > 1e-9, (kind, vid)


def test_forgetting_the_add_one_of_the_unigram_never_gives_the_right_answer():
    """Chapter 5's box: were N = N_y·V, the unsmoothed N_y/N would equal (N_y + 1)/(N + V) and the slip would pass."""
    for vid in range(0, IDS, 7):
        v = variant("interpolated-prob", "ch5-ab-interpolated", vid).values
        j, n, N = v["symbols"].index(v["next"]), sum(v["counts"]), sum(v["targets"])
        slip = v["gamma"] * v["counts"][j] / n + (1 - v["gamma"]) * v["targets"][j] / N
        right = v["gamma"] * v["counts"][j] / n + (1 - v["gamma"]) * (v["targets"][j] + 1) / (N + len(v["symbols"]))
        assert abs(slip - right) > KINDS["interpolated-prob"].tolerance, (variant_text(vid), v)


def test_the_variants_differ_and_new_numbers_walk_through_every_id(tmp_path):
    questions = {variant("softmax", "ch1-ab-softmax", vid).question() for vid in range(200)}
    assert len(questions) > 100                     # z = ln a over seven weights: about 300 problems in all
    presses = run_page_script(tmp_path, "console.log(JSON.stringify(Array.from({ length: 40 }, (_, k) =>"
                                        " labAnswerBoxes.nthVariant('ch2-ab-step', k + 1))));\n")
    assert presses == [nth_variant("ch2-ab-step", k + 1) for k in range(40)]
    assert len({nth_variant("ch2-ab-step", k) for k in range(IDS)}) == IDS


@pytest.mark.parametrize("text, number", [("7F3A", 0x7F3A), ("变体 7f3a", 0x7F3A), ("#0001", 1),
                                          (" 变体:FFFF ", 0xFFFF), (42, 42)])
def test_a_variant_id_is_read_as_a_reader_or_an_instructor_writes_it(text, number):
    assert variant_id(text) == number
    assert variant_text(number) == f"{number:04X}"


@pytest.mark.parametrize("kind, label, vid, message", [
    ("softmax", "ch1-ab-softmax", "7F3", r"^变体号必须是四位十六进制数（如 \"7F3A\"）或 0 到 65535 的整数，收到 '7F3'"),
    ("softmax", "ch1-ab-softmax", 65536, r"收到 65536$"),
    ("softmax", "ch1-ab-softmax", True, r"收到 True$"),
    ("sigmoid", "ch1-ab-softmax", "7F3A", r"^kind 必须是 \('softmax', .* 之一，收到 'sigmoid'$"),
    ("softmax", "Ch1", "7F3A", r"^label 必须以小写字母开头.*收到 'Ch1'$"),
])
def test_a_bad_variant_request_names_what_is_wrong(kind, label, vid, message):
    with pytest.raises(ProblemError, match=message):
        variant(kind, label, vid)


def test_smoothed_prob_draws_keep_the_books_order_and_ask_about_seen_cells_too(page_draws):
    """The letters after “.” come in alphabetical order (the book's vocabulary convention), and a fair share of the
    questions ask about a cell the data has seen (not only about zero counts); the page's draws are the same."""
    seen_asked = 0
    for vid in range(0, IDS, 97):
        values = variant("smoothed-prob", "ch4-ab-smoothed-prob", vid).values
        assert values["symbols"][0] == "." and values["symbols"][1:] == sorted(values["symbols"][1:]), values
        seen_asked += values["counts"][values["symbols"].index(values["next"])] > 0
    draws = len(range(0, IDS, 97))
    assert 0.3 * draws < seen_asked < 0.8 * draws, (seen_asked, draws)
    for (kind, _, _), js in page_draws:
        if kind == "smoothed-prob":
            assert js["values"]["symbols"][1:] == sorted(js["values"]["symbols"][1:])
