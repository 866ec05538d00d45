"""Named variants of the answer boxes: a box's label and a four-digit ID name one problem, drawn by the page's script
(labcode/widgets/answer_box.js, run in Node by web/answer_boxes.cjs as the instructor's tools run it). Here: every draw
is a problem labcode answers as the page does, none is degenerate, and an ID is read as readers and instructors write
it (scripts/box_variants.py).

The page itself (typing “变体 7F3A”, a link to it) is checked in tests/site/test_answer_box_browser.py.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import box_variants
from box_variants import IDS, variant_id, variant_text
from labcode.practice.problems import KINDS, ProblemError, box_problem
from notebook_outputs import book_boxes
from page_script import run_page_script

ROOT = Path(__file__).resolve().parents[2]
# Spread over the whole ID space (2003 is prime, so the IDs are distinct), for the book's labels and one other.
IDS_CHECKED = [k * 2003 % IDS for k in range(250)]
LABELS = {kind: [options["label"] for _, k, options in book_boxes() if k == kind] + ["ch9-ab-x"] for kind in KINDS}
# More IDs, for the properties every draw of a kind must have (one Node process for all of them).
MANY = {kind: range(0, IDS, 61) for kind in KINDS} | {"interpolated-prob": range(0, IDS, 7),
                                                       "smoothed-prob": range(0, IDS, 97)}


@pytest.fixture(scope="module")
def page_draws():
    """Every (kind, label, ID) above and MANY's, drawn by the page's script: its values, texts and answer."""
    cases = [(kind, label, vid) for kind in KINDS for label in LABELS[kind] for vid in IDS_CHECKED]
    cases += [(kind, "ch9-ab-y", vid) for kind, ids in MANY.items() for vid in ids]
    return list(zip(cases, box_variants.draw(cases), strict=True))


def test_labcode_answers_every_problem_the_page_draws_as_the_page_does(page_draws):
    """The page's maths (maths.js) and labcode's (:mod:`labcode.practice.problems`) give the same answer for every
    drawn problem, and the question's texts show the drawn values."""
    for (kind, label, vid), problem in page_draws:
        if label == "ch9-ab-y":    # MANY's draws, for the properties below
            continue
        mine = KINDS[kind].answer(**problem.values)
        np.testing.assert_allclose(problem.answer, mine, rtol=1e-12, atol=1e-12, err_msg=f"{kind} {label} {vid}")
        assert "{" not in problem.question() and "{" not in problem.label(), (kind, vid, problem.texts)


def test_no_draw_is_degenerate(page_draws):
    """Every answer has a component that is not 0 (a row gradient or an MSE gradient of [0, 0] teaches nothing)."""
    for (kind, _, vid), problem in page_draws:
        assert np.abs(np.ravel(problem.answer)).max() > 1e-9, (kind, variant_text(vid), problem.answer)


def test_forgetting_the_add_one_of_the_unigram_never_gives_the_right_answer(page_draws):
    """Chapter 5's box: were N = N_y·V, the unsmoothed N_y/N would equal (N_y + 1)/(N + V) and the slip would pass."""
    drawn = [p.values for (kind, _, _), p in page_draws if kind == "interpolated-prob"]
    assert len(drawn) > len(MANY["interpolated-prob"])
    for v in drawn:
        j, n, N = v["symbols"].index(v["next"]), sum(v["counts"]), sum(v["targets"])
        slip = v["gamma"] * v["counts"][j] / n + (1 - v["gamma"]) * v["targets"][j] / N
        right = v["gamma"] * v["counts"][j] / n + (1 - v["gamma"]) * (v["targets"][j] + 1) / (N + len(v["symbols"]))
        assert abs(slip - right) > KINDS["interpolated-prob"].tolerance, v


def test_the_previous_characters_count_as_the_next_one_is_its_rows_total(page_draws):
    """Chapter 5's box: in idioms each character is once the previous and once the next character, so the row
    shown (what follows the previous character) sums to that character's own count as a next character; and "."
    ends every idiom."""
    drawn = [p.values for (kind, _, _), p in page_draws if kind == "interpolated-prob"]
    book = [options for _, kind, options in book_boxes() if kind == "interpolated-prob"]
    assert book
    for options in book:
        rest = {name: value for name, value in options.items() if name != "label"}
        drawn.append(box_problem("interpolated-prob", options["label"], rest).values)
    for v in drawn:
        shown_row, t, c = v["symbols"].index(v["prev"]), v["targets"], v["counts"]
        assert t[shown_row] == sum(c), v
        assert t[0] >= 1, v         # every idiom ends with ".", so "." is a next symbol at least once
        # ... whose ends come from rows with counts (the row shown, the others), whose starts fit the other columns
        assert t[0] - c[0] <= sum(t[j] for j in range(1, len(t)) if j != shown_row), v
        assert t[0] <= sum(t[j] - c[j] for j in range(1, len(t))), v


def test_smoothed_prob_draws_keep_the_books_order_and_ask_about_seen_cells_too(page_draws):
    """The letters after “.” come in alphabetical order (the book's vocabulary convention), and a fair share of the
    questions ask about a cell the data has seen (not only about zero counts)."""
    drawn = [p.values for (kind, _, _), p in page_draws if kind == "smoothed-prob"]
    for values in drawn:
        assert values["symbols"][0] == "." and values["symbols"][1:] == sorted(values["symbols"][1:]), values
    seen_asked = sum(v["counts"][v["symbols"].index(v["next"])] > 0 for v in drawn)
    assert 0.3 * len(drawn) < seen_asked < 0.8 * len(drawn), (seen_asked, len(drawn))


def test_the_variants_differ_and_new_numbers_walk_through_every_id(tmp_path, page_draws):
    questions = {p.question() for (kind, label, _), p in page_draws if kind == "softmax" and label == "ch9-ab-y"}
    assert len(questions) > 250                     # z = ln a over seven weights: 336 problems in all
    presses = run_page_script(tmp_path, "console.log(JSON.stringify(Array.from({ length: 65536 }, (_, k) =>"
                                        " labAnswerBoxes.nthVariant('ch2-ab-step', k))));\n")
    assert len(set(presses)) == IDS and all(0 <= p < IDS for p in presses)


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
        box_variants.variant(kind, label, vid)


def test_a_request_node_cannot_answer_names_the_failure_and_the_next_one_starts_afresh():
    with pytest.raises(RuntimeError, match=r"answer_boxes\.cjs failed:[\s\S]*unknown request \"what\""):
        box_variants.run([["what", "softmax", "ch1-ab-softmax", 1]])
    assert box_variants.variant("softmax", "ch1-ab-softmax", "7F3A").question()


def test_the_node_process_ends_with_python_and_leaves_nothing_open(tmp_path):
    code = ("import sys; sys.path[:0] = ['scripts']\nimport box_variants\n"
            "print(box_variants.variant('softmax', 'ch1-ab-softmax', 1).texts['z'])")
    proc = subprocess.run([sys.executable, "-X", "dev", "-W", "error::ResourceWarning", "-c", code],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.startswith("$[") and "ResourceWarning" not in proc.stderr, proc.stderr
