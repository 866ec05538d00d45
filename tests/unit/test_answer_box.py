"""Answer boxes: the boxes in the book, the answers from labcode (labcode.practice.problems), the widget a running
notebook shows (labcode.widgets.answer_box), and what the site's build makes of a box's code cell (_ext/answer_box).

The box's script is checked in Chromium by tests/site/test_answer_box_browser.py (the site) and
tests/kernel/test_answer_box_kernel.py (JupyterLab); here, what Python decides: the options an author writes, the answer
for the book's own numbers, the widget's state and text, and what HTML and LaTeX a box's cell becomes (a small
Sphinx project with one notebook, built as the site, the student handout and the answer key).
"""
from __future__ import annotations

import html
import json
import re
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import answer_box
import labcode
from box_latex import answer_text, to_latex
from labcode.practice import problems
from labcode.practice.problems import KINDS, ProblemError, box_problem, problem
from labcode.widgets._base import STATIC
from labcode.widgets.answer_box import WHERE
from page_script import run_page_script

ROOT = Path(__file__).resolve().parents[2]

# --- the answers: the book's own numbers, computed with labcode ------------------------------------------

BOOK_Z = "[ln(2), 0, -ln(2)]"


def exact(values):
    return [Fraction(v).limit_denominator(1000) for v in np.ravel(values)]


def test_the_answers_are_the_hand_computations_of_the_book():
    z = np.log([2.0, 1.0, 0.5])
    assert problem("softmax", {"z": "[0, 1, 2]"}).answer == pytest.approx(np.exp([0, 1, 2]) / np.exp([0, 1, 2]).sum())
    assert problem("loss", {"z": BOOK_Z, "y": "1"}).answer == pytest.approx(np.log(7 / 2), rel=1e-14)
    assert exact(problem("gradient", {"z": BOOK_Z, "y": "1"}).answer) == [Fraction(4, 7), Fraction(-5, 7),
                                                                       Fraction(1, 7)]
    step = problem("step", {"z": BOOK_Z, "y": "1", "lr": "0.1"}).answer
    assert exact(np.subtract(step, z)) == [Fraction(-2, 35), Fraction(1, 14), Fraction(-1, 70)]
    mean = problem("mean-loss", {"losses": "[[1, 1.5, 2.5], [3.5, 1.5, 0]]", "targets": "[[3, 5, 2], [4, 2, -100]]"})
    assert mean.answer == 10 / 5                                     # not 10 / 6: the padding is not a target
    rows = problem("row-gradient", {"ids": "[3, 5, 3]", "dH": "[[1, 2], [-1, 1], [3, -1]]", "row": "3"})
    assert rows.answer == [1 + 3, 2 - 1]                             # positions 0 and 2 read row 3
    smooth = problem("smoothed-prob", {"symbols": ". a b", "counts": "[1, 0, 1]", "alpha": "1", "prev": "a",
                                       "next": "a"})
    assert smooth.answer == pytest.approx((0 + 1) / (2 + 3 * 1))
    mse = problem("mse-gradient", {"X": "[[10, 2], [4, 6], [8, 0]]", "w": "[3, 5]", "b": "20", "y": "[62, 60, 45]"})
    assert exact(mse.answer) == [Fraction(-40, 3), Fraction(16, 3)]


def test_the_docstring_of_answer_box_names_every_kind():
    listed = labcode.widgets.answer_box.__doc__.split("kind :", 1)[1].split("label :", 1)[0]
    assert [kind for kind in KINDS if kind not in listed] == []


def test_each_answer_follows_labcode():
    """A changed labcode function changes the box's answer: the answer is computed, not stored."""
    found = problem("loss", {"z": "[1, 2.5, -0.5, 0]", "y": "2"})
    assert found.answer == labcode.cross_entropy([1, 2.5, -0.5, 0], 2)
    found = problem("mean-loss", {"losses": "[[0.5, 2]]", "targets": "[[-100, 4]]"})
    assert found.answer == labcode.valid_mean([[0.5, 2.0]], [[-100, 4]]) == 2.0


def test_options_are_shown_as_an_author_writes_them():
    found = problem("step", {"z": BOOK_Z, "y": "1", "lr": "0.1"})
    assert found.texts == {"z": "$[ln 2, 0, −ln 2]$", "y": "1", "lr": "0.1"}
    assert problem("row-gradient", {"ids": "[3, 5, 3]", "dH": "[[1, 2], [-1, 1], [3, -1]]", "row": "3"}).texts[
        "dH"] == "$[1, 2]$、$[−1, 1]$、$[3, −1]$"
    assert problems.parse_numbers("exp(1)/(1 + e) * 2**-1")[1] == "exp 1/(1 + e)·2^(−1)"
    assert problems.parse_numbers("-(1 - 2)")[1] == "−(1 − 2)"


@pytest.mark.parametrize("kind, options, message", [
    ("sigmoid", {}, r"kind 必须是 \('softmax', 'loss', .* 之一，收到 'sigmoid'"),
    ("loss", {"z": "[0, 1]"}, r"loss 题的选项是 z, y；缺少 y$"),
    ("softmax", {"z": "[0, 1]", "y": "1"}, r"softmax 题的选项是 z；多出 y$"),
    ("softmax", {"z": "[0, 1, x]"}, r"选项 z：只能用数、e、pi、.*收到 'x'"),
    ("softmax", {"z": "__import__('os')"}, r"选项 z：只能用数"),
    ("softmax", {"z": "3"}, r"选项 z：要一个非空的向量 \[a, b, …\]，收到 '3'"),
    ("softmax", {"z": "[ln(0), 1]"}, r"选项 z：ln 0 没有定义"),
    ("loss", {"z": "[0, 1]", "y": "1.5"}, r"选项 y：要一个整数，收到 '1.5'"),
    ("loss", {"z": "[0, 1]", "y": "2"}, r"^选项 y 必须是 z 的一个编号（0 到 1），收到 2$"),
    ("step", {"z": "[0, 1, 2]", "y": "-1", "lr": "0.1"}, r"^选项 y 必须是 z 的一个编号（0 到 2），收到 -1$"),
    ("mean-loss", {"losses": "[[1, 2], [3]]", "targets": "[[1, 2], [3]]"}, r"要一个矩阵 .*每行一样长"),
    ("smoothed-prob", {"symbols": ". a", "counts": "[1, 2]", "alpha": "1", "prev": "a", "next": "z"},
     r"next 必须是 symbols 里的一个名字"),
    # Only the operation written is computed: 50 + 400 is no overflow of 50 ** 400, 0 * -1 no 0 ** -1.
    ("softmax", {"z": "[10**400, 0]"}, r"^选项 z：10\^400 太大了，不是有限数$"),
    ("softmax", {"z": "[exp(1000), 0]"}, r"^选项 z：exp 1000 太大了，不是有限数$"),
    ("softmax", {"z": "[1/0, 0]"}, r"^选项 z：1/0：除数是 0$"),
    ("softmax", {"z": "[0**-1, 0]"}, r"^选项 z：0\^\(−1\)：0 的负数次方没有定义$"),
    ("softmax", {"z": "[(-8)**(1/3), 0]"}, r"^选项 z：\(−8\)\^\(1/3\)：负数的非整数次方在实数里没有定义$"),
    ("row-gradient", {"ids": "[0.5, 1]", "dH": "[[1, 2], [3, 4]]", "row": "1"},
     r"^选项 ids：每个编号都要是整数，收到 '\[0\.5, 1\]'$"),
    ("mean-loss", {"losses": "[[1, 2]]", "targets": "[[1.5, 2]]"}, r"^选项 targets：每个编号都要是整数"),
])
def test_bad_options_get_a_clear_error(kind, options, message):
    with pytest.raises(ValueError, match=message):
        problem(kind, options)


@pytest.mark.parametrize("z, answer", [("[50+400, 0]", [1.0, 0.0]), ("[2*3000, 0]", [1.0, 0.0]),
                                       ("[0*-1, 1]", [1 / (1 + np.e), np.e / (1 + np.e)]),
                                       ("[0 + -2, 0]", [1 / (1 + np.e ** 2), np.e ** 2 / (1 + np.e ** 2)])])
def test_an_option_computes_only_the_operations_it_writes(z, answer):
    np.testing.assert_allclose(problem("softmax", {"z": z}).answer, answer, atol=1e-15)


# An author's option from any characters of the expressions' alphabet: an answer, or a ProblemError that names
# the option; never another exception (overflow, division by zero, recursion) and never a silent NaN.
OPTION_TEXT = st.lists(st.sampled_from(["0", "1", "2", "9", "400", "1e308", ".5", "-", "+", "*", "/", "**", "(", ")",
                                        "[", "]", ", ", "e", "pi", "ln(", "exp(", "sqrt(", "x", " "]),
                       max_size=20).map("".join)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(z=OPTION_TEXT, y=OPTION_TEXT)
def test_any_option_text_gives_an_answer_or_a_clear_error(z, y):
    try:
        found = problem("loss", {"z": z, "y": y})
    except ProblemError as err:
        assert str(err).startswith(("选项 z：", "选项 y", "loss 题的答案算不出来")), str(err)
    else:
        assert np.isfinite(found.answer)


@pytest.mark.parametrize("args, options, message", [
    (("sigmoid",), {"label": "ch1-ab-x"}, r"kind 必须是 \('softmax', .* 之一，收到 'sigmoid'"),
    (("softmax",), {"label": "Ch1 box", "z": "[0, 1]"}, r"label 必须以小写字母开头.*收到 'Ch1 box'"),
    (("softmax",), {"label": 1, "z": "[0, 1]"}, r"label 必须以小写字母开头.*收到 1"),
    (("softmax",), {"label": "ch1-ab-x"}, r"softmax 题的选项是 z；缺少 z$"),
    (("softmax",), {"label": "ch1-ab-x", "z": "[0, 1]", "tau": 2}, r"softmax 题的选项是 z；多出 tau$"),
    (("softmax",), {"label": "ch1-ab-x", "z": [0, 1]}, r"选项 z 必须是字符串.*或一个数，收到 \[0, 1\]"),
    (("loss",), {"label": "ch1-ab-x", "z": "[0, 1]", "y": True}, r"选项 y 必须是字符串.*收到 True"),
    (("loss",), {"label": "ch1-ab-x", "z": "[ln(2), 0, -ln(2)]", "y": 1, "exact": "ln(7/3)"},
     r"^exact='ln\(7/3\)' 与算出的答案不一致：它等于 0\.847298，答案是 1\.252763$"),
    (("loss",), {"label": "ch1-ab-x", "z": "[ln(2), 0, -ln(2)]", "y": 1, "exact": 1.2528},
     r"^exact 必须是字符串（如 \"ln\(7/2\)\"），收到 1\.2528$"),
    (("gradient",), {"label": "ch1-ab-x", "z": "[ln(2), 0, -ln(2)]", "y": 1, "exact": "[4/7, -5/7]"},
     r"^exact='\[4/7, -5/7\]' 与算出的答案不一致"),
    (("softmax",), {"label": "ch1-ab-x", "z": "[0, 1]", "exact": "[1, e]/0"},
     r"^exact：只能用一个向量除以一个不为 0 的数"),
])
def test_a_box_called_in_a_notebook_names_the_bad_argument(args, options, message):
    with pytest.raises(ValueError, match=message):
        labcode.practice.answer_box(*args, **options)


def test_the_widget_holds_the_problem_and_reads_as_text_without_a_front_end():
    """Its synced state is what the box's script needs (the book's numbers, the templates, the tolerance); its
    text, what a notebook viewer without widgets shows, is the question with the book's numbers and where the
    box works. nbval compares that text, so it must not change from one run to the next."""
    box = labcode.practice.answer_box("loss", label="ch1-ab-loss", z="[ln(2), 0, -ln(2)]", y=1)
    assert box.label == "ch1-ab-loss"
    assert box.spec == box_problem("loss", "ch1-ab-loss", {"z": "[ln(2), 0, -ln(2)]", "y": "1"}).spec()
    assert box.spec["values"] == {"z": [np.log(2), 0.0, -np.log(2)], "y": 1} and box.spec["tolerance"] == 0.001
    text = box._repr_mimebundle_()[0]["text/plain"]
    assert text == repr(box) == ("动手算：分数 z = [ln 2, 0, −ln 2]，真实目标的编号 y = 1"
                                 "（编号从 0 数）。这个位置的损失 ℓ = −ln p_y 是多少？\n" + WHERE)
    assert "1.2528" not in text and "7/2" not in text and "ch1-ab-loss" not in text   # no answer, no author's label
    assert "Run All Cells" in WHERE and "网站上可以直接在框里作答" in WHERE
    again = labcode.practice.answer_box("loss", label="ch1-ab-loss", z="[ln(2), 0, -ln(2)]", y=1)
    assert again._repr_mimebundle_()[0]["text/plain"] == text


def test_the_answer_key_prints_fractions_when_they_are_exact():
    assert answer_text([4 / 7, -5 / 7, 1 / 7]) == "[4/7, −5/7, 1/7] ≈ [0.5714, −0.7143, 0.1429]"
    assert answer_text(0.2) == "1/5 = 0.2"
    assert answer_text([4.0, 1.0]) == "[4, 1]"
    assert answer_text(float(np.log(3.5))) == "≈ 1.2528"
    assert answer_text([0.09003057, 0.5]) == "≈ [0.0900, 0.5000]"


def test_the_answer_key_prints_the_exact_form_an_author_gives():
    """exact= is checked against the computed answer (it must agree to about 1e-9) and printed before it."""
    loss = box_problem("loss", "ch1-ab-loss", {"z": BOOK_Z, "y": 1, "exact": "ln(7/2)"})
    assert answer_text(loss.answer, loss.exact) == "ln(7/2) ≈ 1.2528"
    softmax = box_problem("softmax", "ch1-ab-softmax", {"z": "[0, 1, 2]", "exact": "[1, e, e**2]/(1 + e + e**2)"})
    assert answer_text(softmax.answer, softmax.exact) == "[1, e, e^2]/(1 + e + e^2) ≈ [0.0900, 0.2447, 0.6652]"
    step = box_problem("step", "ch2-ab-step", {"z": BOOK_Z, "y": 1, "lr": 0.1,
                                                 "exact": "[ln(2) - 2/35, 1/14, -ln(2) - 1/70]"})
    assert step.exact == "[ln 2 − 2/35, 1/14, −ln 2 − 1/70]"
    mean = box_problem("mean-loss", "ch2-ab-mean-loss", {"losses": "[[1, 1.5], [2.5, 0]]",
                                                          "targets": "[[3, 5], [2, -100]]", "exact": "5/3"})
    assert answer_text(mean.answer, mean.exact) == "5/3 ≈ 1.6667"
    assert answer_text(2.0, "10/5") == "10/5 = 2" and answer_text(2.0, "2") == "2"
    assert box_problem("loss", "ch1-ab-loss", {"z": BOOK_Z, "y": 1}).exact is None    # the kinds' fractions stay
    near = np.log(3.5) + 1e-7                                                        # agrees to 1e-7 only
    with pytest.raises(ValueError, match="exact='ln\\(7/2\\)' 与算出的答案不一致"):
        problems.exact_form("ln(7/2)", near)


def test_question_maths_for_print():
    text = "损失 $ℓ = −ln p_y$，$Σ_i r_i^2$ < {x} & $[1, −2]$ $dE[3]$"
    assert to_latex(text) == r"损失 $\ell  = -\ln p_y$，$\sum _i r_i^2$ < \{x\} \& $[1, -2]$ $dE[3]$"
    assert to_latex("概率 $p̂$、$ŷ_i$") == r"概率 $\hat{p}$、$\hat{y}_i$"


def test_the_box_writes_its_maths_as_the_book_sets_it(tmp_path):
    """The box's module writes its HTML for the site's build and the widget alike: maths in <span class="ab-math">
    (variables italic, ln upright, _i and ^2 as <sub>/<sup>, e^{z_0} nested), what a reader types in <code>,
    and the reader's own text escaped."""
    spec = {**box_problem("loss", "ch1-ab-loss", {"z": BOOK_Z, "y": 1}).spec(),
            "question": "损失 $ℓ = −ln p_y$，$Σ_i r_i^2$ < {z} & 写 `ln(5/3)` <b>", "help": "$e^{z_0}$"}
    site, widget = run_page_script(tmp_path, f"const spec = {json.dumps(spec)}, write = labAnswerBoxes.markup;\n"
                                             "console.log(JSON.stringify([write(spec, 'ch1-ab-loss', true),"
                                             " write(spec, 'w1')]));\n")
    question = re.search(r'<p class="ab-question" id="ch1-ab-loss-question">(.*?)</p>', site)[1]
    assert question == ('损失 <span class="ab-math">ℓ = −ln <i>p</i><sub><i>y</i></sub></span>，'
                        '<span class="ab-math">Σ<sub><i>i</i></sub> <i>r</i><sub><i>i</i></sub><sup>2</sup></span>'
                        ' &lt; <span class="ab-math">[ln 2, 0, −ln 2]</span> &amp; 写 '
                        '<code class="ab-typed">ln(5/3)</code> &lt;b&gt;')
    assert '<span class="ab-math"><i>e</i><sup><i>z</i><sub>0</sub></sup></span>' in site
    assert json.loads(html.unescape(re.search(r'data-answer-box="([^"]*)"', site)[1])) == spec
    assert '<p class="ab-progress">' in site and "data-answer-box" not in widget and "ab-progress" not in widget
    bare = re.sub(r' data-answer-box="[^"]*"|<p class="ab-progress"></p>\n', "", site)
    assert widget == bare.replace("ch1-ab-loss", "w1")        # one markup: the site's adds the spec and the count


def test_a_new_row_gradient_draw_never_lets_the_overwrite_answer_pass(tmp_path):
    """“换一组数” in the row-gradient box: over many seeds, no single position's share equals the sum in any
    component (exercise 3.3's rule for a test), so “only one share kept” is never the right answer; and the
    draw's answer is what labcode gives."""
    draws = run_page_script(tmp_path,
        'const seeds = Array.from({ length: 2000 }, (_, k) => k + 1);\n'
        'const draw = (s) => window.labAnswerBoxes.variant("row-gradient", "ch3-x", s).values;\n'
        'console.log(JSON.stringify(seeds.map(draw)));\n')
    assert len({json.dumps(d) for d in draws}) > 1000                  # the seeds give different sets
    for values in draws:
        ids, dH, row = np.array(values["ids"]), np.array(values["dH"], dtype=float), values["row"]
        shares = dH[ids == row]
        assert len(shares) >= 2, values                                    # the row is read at least twice
        right = labcode.embedding_backward(dH, ids, max(ids.max(), row) + 1)[row]
        assert not np.any(shares == right), values                       # per component, as exercise 3.3(4)
        assert np.all(shares != 0), values                               # leaving out a share changes the sum
        kept = labcode.embedding_backward_overwrite(dH, ids, max(ids.max(), row) + 1)[row]
        assert not np.allclose(kept, right), values


def test_every_smoothed_prob_question_states_its_vocabulary_and_names_the_27_symbol_slip(tmp_path):
    """“换一组数” in the smoothed-prob box: each question says that the vocabulary is the listed symbols and gives
    V; dividing by the names' V = 27 (or leaving out “.”) gets a hint that names V, not a bare “不对”."""
    book = problem("smoothed-prob", {"symbols": ". a b", "counts": "[1, 0, 1]", "alpha": "1", "prev": "a",
                                      "next": "a"})
    assert "词表只有“.”、“a”、“b”这 $V = 3$ 个符号" in book.question()
    cases = run_page_script(tmp_path,
        'const boxes = window.labAnswerBoxes, kind = boxes.kinds["smoothed-prob"];\n'
        'console.log(JSON.stringify(Array.from({ length: 200 }, (_, k) => {\n'
        '  const d = boxes.variant("smoothed-prob", "ch4-x", k + 1), v = d.values;\n'
        '  const n = v.counts.reduce((s, c) => s + c, 0), c = v.counts[v.symbols.indexOf(v.next)];\n'
        '  const judged = (W) => boxes.judge("smoothed-prob", v, String((c + v.alpha) / (n + W * v.alpha)), 0.001);\n'
        '  return [v, d.texts, judged(27), judged(v.symbols.length - 1), judged(v.symbols.length)];\n'
        '})));\n')
    named = {"27": 0, "dot": 0}
    for values, texts, with_27, without_dot, right in cases:
        V = len(values["symbols"])
        question = problems.fill(KINDS["smoothed-prob"].question, texts)
        assert f"这 $V = {V}$ 个符号" in question and texts["symbols"] in question, question
        assert right["ok"] and right["message"].startswith("正确！"), (values, right)
        n, c, alpha = sum(values["counts"]), values["counts"][values["symbols"].index(values["next"])], values["alpha"]
        for W, wrong in ((27, with_27), (V - 1, without_dot)):
            if abs((c + alpha) / (n + W * alpha) - (c + alpha) / (n + V * alpha)) <= 0.001:
                continue                          # within the tolerance: right, and said so
            # a hint: this one, or an earlier slip with the same value
            assert not wrong["ok"] and "提示：" in wrong["message"], (values, wrong)
        named["27"] += f"$V = 27$）：这道题的词表只有题中的 {V} 个符号" in with_27["message"]
        named["dot"] += "“.” 也在词表里" in without_dot["message"]
    assert min(named.values()) > 0.9 * len(cases), named


def test_a_near_miss_is_blamed_on_rounding_only_when_the_answer_needs_more_decimals(tmp_path):
    """0.21 for 1/5 is an arithmetic slip (1/5 needs no rounding); 0.15 for 1/7 may come from rounding."""
    smooth = {"symbols": [".", "a", "b"], "counts": [1, 0, 1], "alpha": 1, "prev": "a", "next": "a"}
    gradient = {"z": [float(np.log(2)), 0.0, float(-np.log(2))], "y": 1}
    exact, rounded = run_page_script(tmp_path,
        f'const judge = window.labAnswerBoxes.judge;\n'
        f'console.log(JSON.stringify([judge("smoothed-prob", {json.dumps(smooth)}, "0.21", 0.001),\n'
        f'                            judge("gradient", {json.dumps(gradient)}, "[4/7, -5/7, 0.15]", 0.001)]));\n')
    assert not exact["ok"] and "很接近" in exact["message"] and "出在算术上" in exact["message"], exact
    assert "多保留几位小数" not in exact["message"]
    assert not rounded["ok"] and "多保留几位小数（至少 3 位）" in rounded["message"], rounded
    # The probability kinds' smaller tolerance asks for one more decimal: 0.0905 for 1/11 = 0.0909…
    eleventh = {"symbols": [".", "a", "b"], "counts": [5, 0, 3], "alpha": 1, "prev": "a", "next": "a"}
    finer, = run_page_script(tmp_path,
        f'console.log(JSON.stringify([window.labAnswerBoxes.judge("smoothed-prob", {json.dumps(eleventh)}, '
        f'"0.0905", 0.0001)]));\n')
    assert not finer["ok"] and "多保留几位小数（至少 4 位）" in finer["message"], finer


BOOK_SMOOTHED = {"symbols": [".", "a", "b", "c"], "counts": [3, 0, 5, 0], "alpha": 2, "prev": "a", "next": "a"}
BOOK_GRADIENT = {"z": [float(np.log(2)), 0.0, float(-np.log(2))], "y": 1}
MEAN_LOSS = {"losses": [[1, 1.5, 2.5], [3.5, 1.5, 0]], "targets": [[3, 5, 2], [4, 2, -100]]}


@pytest.mark.parametrize("kind, values, typed, said", [
    ("smoothed-prob", BOOK_SMOOTHED, "2/12", "不对。提示：分母里 $Vα$ 少了因子 $α$。"),   # V, not Vα: 1/8 is 2/16
    ("smoothed-prob", BOOK_SMOOTHED, "2/16 * -1", "不对。提示：符号反了。"),
    ("loss", BOOK_GRADIENT, "ln(3/2)", "不对。提示：分母里少了 $e^{z_0}$ 这一项。"),
    ("loss", BOOK_GRADIENT, "-ln 2/7", "不对。提示：`−ln 2/7` 读作 `−(ln 2)/7`；想写 `−ln(2/7)`，请加括号。"),
    ("mean-loss", MEAN_LOSS, "7.5/5", "不对。提示：分子里少了 $2.5$ 这一项。"),
    ("softmax", {"z": BOOK_GRADIENT["z"]}, "[4/7, 2/7, 1/2]",
     "不对：编号为 2 的分量不对，其余分量都对。提示：编号为 2 的分量：没有除以分母 $S$。"),
    ("step", {**BOOK_GRADIENT, "lr": 0.1}, "[-2/35, 1/14, -ln 2 - 1/70]",
     "不对：编号为 0 的分量不对，其余分量都对。提示：编号为 0 的分量：少了 $z_0$ 这一项。"),
    ("row-gradient", {"ids": [3, 5, 3], "dH": [[1, 2], [-1, 1], [3, -1]], "row": 3}, "[-2, 3]",
     "不对：每个分量都不对。提示：$dH[2]$ 的符号反了。"),
    ("mse-gradient", {"X": [[10, 2], [4, 6], [8, 0]], "w": [3, 5], "b": 20, "y": [62, 60, 45]}, "[-920/3, -304/3]",
     "不对：每个分量都不对。提示：残差 $r_i$ 里少了 $b$ 这一项。"),
])
def test_an_unnamed_wrong_answer_is_told_which_part_is_off(tmp_path, kind, values, typed, said):
    """No slip of the kind's list matches: the box changes one part of its own formula at a time (a term or a
    factor left out, a sign, a fraction upside down) and says which change gives what the reader wrote."""
    verdict = run_page_script(tmp_path, f'console.log(JSON.stringify(labAnswerBoxes.judge('
                                        f'{json.dumps(kind)}, {json.dumps(values)}, {json.dumps(typed)}, 0.001)));\n')
    assert verdict == {"ok": False, "message": said}


BOOK_INTERPOLATED = {"symbols": [".", "之", "不", "可"], "counts": [1, 0, 0, 3], "targets": [10, 3, 4, 19],
                     "gamma": 0.5, "prev": "不", "next": "之"}
# Chapter 4's variant BF6D as it was once drawn: 6/12 (the unsmoothed “a”) and 2/(12 − 8) (Vα with its sign turned)
# are both 0.5
LOOK_ALIKE = {"symbols": [".", "a", "b", "c"], "counts": [0, 6, 3, 3], "alpha": 2, "prev": "a", "next": "."}


@pytest.mark.parametrize("kind, values, typed, said", [
    ("interpolated-prob", BOOK_INTERPOLATED, "3/36", ["没有加一的单字频率 $Σ_i C_{iy}/N$", "也还没有插值"]),
    ("interpolated-prob", BOOK_INTERPOLATED, "(0+1)/(4+4)*0.5+0.5*4/40", ["计数那一项不加一"]),
    ("interpolated-prob", BOOK_INTERPOLATED, "1/8", ["加一平滑的 bigram 概率 $(C + 1)/(n + V)$，不是插值"]),
    ("interpolated-prob", BOOK_INTERPOLATED, "3/40*0.5", ["$p̂(y)$ 的分子里少了加上的 $1$ 这一项"]),
    # 1/16 is both the row's count taken for the unigram count and the right formula on “不”'s column
    ("interpolated-prob", BOOK_INTERPOLATED, "1/16", ["2 种错误都得到这个数", "不是这一行的计数",
                                                      "这是下一个字为“不”的概率：题目问的是“之”"]),
    ("smoothed-prob", LOOK_ALIKE, "6/12", ["下一个字为“a”、没有平滑时的概率", "题目问的是“.”"]),
])
def test_a_plausible_slip_on_the_book_numbers_gets_its_own_hint(tmp_path, kind, values, typed, said):
    """The slips two cold readers typed: each is told what it is (not a bare “不对”, nor another slip's hint), in
    the chapter's symbols (Σ_i C_iy, never N_y), with no stray space beside Chinese words."""
    verdict = run_page_script(tmp_path, f'console.log(JSON.stringify(labAnswerBoxes.judge('
                                        f'{json.dumps(kind)}, {json.dumps(values)}, {json.dumps(typed)}, 0.001)));\n')
    assert not verdict["ok"] and "提示：" in verdict["message"], verdict
    for words in said:
        assert words in verdict["message"], verdict["message"]
    message = verdict["message"]
    assert "N_y" not in message and "少了 加上的" not in message and "符号反了" not in message


def test_no_hint_of_the_interpolation_box_writes_n_y(tmp_path):
    """Chapter 5 writes the unigram frequency as (Σ_i C_iy + 1)/(N + V): no named slip nor part of the formula says
    N_y, and no part's name has a space between two Chinese characters."""
    said = run_page_script(tmp_path,
        f'const v = {json.dumps(BOOK_INTERPOLATED)};\n'
        'console.log(JSON.stringify([...labAnswerBoxes.kinds["interpolated-prob"].mistakes(v).map(([, h]) => h),\n'
        '                            ...labAnswerBoxes.slips("interpolated-prob", v).map(([, s]) => s)]));\n')
    assert len(said) > 10 and not [text for text in said if "N_y" in text], said
    assert not [text for text in said if re.search(r"(?<![$\w)])  |[\u4e00-\u9fff] [\u4e00-\u9fff]", text)], said


@pytest.mark.parametrize("kind", ["smoothed-prob", "interpolated-prob"])
def test_no_drawn_problem_lets_two_slips_or_a_slip_and_the_answer_agree(tmp_path, kind):
    """“换一组数” keeps a draw only when each named slip (another column's probability, smoothed or not, among them)
    gives its own number, away from the answer: else a reader's slip is told another slip's hint, or passes."""
    drawn = run_page_script(tmp_path,
        f'const boxes = window.labAnswerBoxes, kind = boxes.kinds[{json.dumps(kind)}];\n'
        'console.log(JSON.stringify(Array.from({ length: 1500 }, (_, k) => {\n'
        f'  const v = boxes.variant({json.dumps(kind)}, "ch9-ab-x", k * 43).values;\n'
        '  return [v, kind.solve(v), kind.mistakes(v)];\n'
        '})));\n')
    for values, right, slips in drawn:
        for i, (value, hint) in enumerate(slips):
            assert abs(value - right) > 0.002, (values, hint)
            for other, other_hint in slips[i + 1:]:
                assert other_hint == hint or abs(value - other) > 0.002, (values, hint, other_hint)


def test_every_single_change_of_a_formula_gets_a_hint(tmp_path):
    """Over many drawn problems of every kind: whatever one change of the box's formula gives (made in each
    component), typed as the answer, is refused with a hint (a named slip or the part that is off), never a bare
    “不对”."""
    cases = run_page_script(tmp_path,
        'const boxes = window.labAnswerBoxes;\n'
        'console.log(JSON.stringify(Object.keys(boxes.kinds).flatMap((kind) => Array.from({ length: 12 }, (_, k) => {\n'
        '  const v = boxes.variant(kind, "ch9-ab-x", k * 4099).values, right = [boxes.kinds[kind].solve(v)].flat();\n'
        '  return boxes.slips(kind, v).filter(([got]) => got.some((x, i) => Math.abs(x - right[i]) > 0.02)\n'
        '                                                 && got.every(Number.isFinite))\n'
        '    .map(([got, says]) => [kind, says, boxes.judge(kind, v, JSON.stringify(got), 0.001)]);\n'
        '}).flat())));\n')
    assert len(cases) > 250
    bare = [(kind, says, verdict["message"]) for kind, says, verdict in cases if "提示：" not in verdict["message"]]
    assert not bare, bare[:5]
    assert all(not verdict["ok"] for _, _, verdict in cases)


# --- the box's code cell on the site and in the handouts: a small Sphinx project ---------------------------

BOX_CALL = ('labcode.practice.answer_box("gradient", label="ch1-ab-gradient", z="[ln(2), 0, -ln(2)]", y=1, '
            'exact="[2/3.5, 1/3.5 - 1, 0.5/3.5]")')
BOX_MODEL, BOX_LAYOUT, OTHER_MODEL = "a" * 32, "b" * 32, "c" * 32


def chapter_notebook(box_source=BOX_CALL):
    """A chapter: a section with prose, the lead-in and the box's cell, then an exercise. Its stored output shows
    the box's widget (model BOX_MODEL, with its layout BOX_LAYOUT); the notebook's widget state also holds another
    widget (OTHER_MODEL), as a chapter with a slider has."""
    import nbformat

    view = {"application/vnd.jupyter.widget-view+json": {"model_id": BOX_MODEL, "version_major": 2,
                                                         "version_minor": 1}, "text/plain": "动手算"}
    box = nbformat.v4.new_code_cell(box_source, metadata={"tags": ["answer-box"]},
                                    outputs=[nbformat.v4.new_output("display_data", data=view)])
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# 第一章\n\n## 梯度下降的一步\n\n正文，不进答案。\n\n先自己算。"), box,
        nbformat.v4.new_markdown_cell(":::{exercise} 一道练习\n:label: ch1-ex-one\n\n算一算。\n:::")])

    def model(name, module, **state):
        return {"model_module": module, "model_module_version": "*", "model_name": name, "state": state}
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"version_major": 2, "version_minor": 0,
        "state": {BOX_MODEL: model("AnyModel", "anywidget", _esm="// the box", layout=f"IPY_MODEL_{BOX_LAYOUT}"),
                  BOX_LAYOUT: model("LayoutModel", "@jupyter-widgets/base"),
                  OTHER_MODEL: model("AnyModel", "anywidget", _esm="// a slider")}}}
    return nbformat.writes(nb)


def build_small_book(src, out, builder, mode="student", chapter=None):
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    (src / "book").mkdir(parents=True, exist_ok=True)
    (src / "conf.py").write_text(textwrap.dedent(f"""\
        import sys
        sys.path[:0] = [{str(ROOT / "_ext")!r}, {str(ROOT / "latex")!r}]
        extensions = ["myst_nb", "sphinx_exercise", "answer_box", "handout_filter"]
        myst_enable_extensions = ["colon_fence"]
        nb_execution_mode = "off"
        root_doc = "intro"
        exclude_patterns = ["_build"]
        latex_documents = [("book/ch", "ch.tex", "第 1 章", "作者", "manual")]
        """), encoding="utf-8")
    (src / "intro.md").write_text("# 课程\n\n```{toctree}\nbook/ch\n```\n", encoding="utf-8")
    (src / "book" / "ch.ipynb").write_text(chapter or chapter_notebook(), encoding="utf-8")
    with docutils_namespace():   # each build registers its nodes afresh
        app = Sphinx(src, src, out, out / ".doctrees", builder, confoverrides={"handout_mode": mode},
                     status=None, warning=None, freshenv=True, warningiserror=True)
        app.build()
    return out


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    """The chapter above in a small book, built as the site, the student handout and the answer key (the real
    site's boxes are checked in tests/site/test_answer_box_browser.py)."""
    src = tmp_path_factory.mktemp("answer-box-book")
    return {name: build_small_book(src, src.parent / f"{src.name}-{name}", builder, mode)
            for name, builder, mode in (("site", "html", "student"), ("student", "latex", "student"),
                                        ("key", "latex", "answers"))}


def test_the_site_shows_the_box_without_the_cell_or_its_widget_model(small_book):
    page = (small_book["site"] / "book" / "ch.html").read_text(encoding="utf-8")
    box = re.search(r'<div class="answer-box" id="ch1-ab-gradient".*?</div>\n</div>', page, re.S)[0]
    assert '梯度 <span class="ab-math"><i>g</i></span>' in box and "每个分量与答案相差不超过 0.001 就算对" in box
    assert '<code class="ab-typed">ln(5/3)</code>' in box                      # what to type, in a typewriter face
    spec = json.loads(html.unescape(re.search(r'data-answer-box="([^"]*)"', box)[1]))
    assert spec == {**box_problem("gradient", "ch1-ab-gradient", {"z": "[ln(2), 0, -ln(2)]", "y": 1}).spec(),
                    "scope": "本章"}
    assert "answer_box(" not in page and "先自己算" in page and "先自己算" not in box   # the lead-in is prose
    state = json.loads(re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>',
                                 page, re.S)[1].replace("<\\/", "</"))
    assert set(state["state"]) == {OTHER_MODEL}, "the box's widget model (or its layout) reached the page"
    assert (small_book["site"] / "_static" / answer_box.SCRIPT).read_text(encoding="utf-8") == \
        (STATIC / "answer_box.page.js").read_text(encoding="utf-8")


def test_the_student_handout_has_a_blank_and_no_answer(small_book):
    tex = (small_book["student"] / "ch.tex").read_text(encoding="utf-8")
    assert r"\textbf{动手算}" in tex and r"$g = \partial \ell /\partial z$" in tex
    assert r"\fbox{\parbox[t][2.6em][t]" in tex and "答案：" not in tex and "4/7" not in tex and "1/3.5" not in tex
    assert "梯度下降的一步”一节" not in tex and "answer\\_box(" not in tex


def test_the_answer_key_keeps_the_box_with_its_answer_and_its_section(small_book):
    tex = (small_book["key"] / "ch.tex").read_text(encoding="utf-8")
    body = tex[tex.index(r"\begin{document}"):]
    assert "正文，不进答案" not in body and "先自己算" not in body and "算一算" in body   # exercises and boxes only
    assert r"\textbf{动手算}（见“梯度下降的一步”一节）" in body
    assert r"答案：$[2/3.5, 1/3.5 - 1, 0.5/3.5] \approx  [0.5714, -0.7143, 0.1429]$" in body   # exact= as written
    assert r"\fbox" not in body
    assert body.index("动手算") < body.index("算一算")                  # in reading order


@pytest.mark.parametrize("source, message", [
    ('labcode.practice.answer_box("gradient", label="ch1-ab-gradient", z=Z, y=1)',
     r"（answer-box \?）：题型和选项只能"),
    ('box = labcode.practice.answer_box("gradient", label="ch1-ab-gradient")',
     r"（answer-box \?）：单元格里只能有一个调用"),
    ('labcode.practice.answer_box("gradient", label="ch1-ab-gradient", z="[0, 1]")',
     r"（answer-box ch1-ab-gradient）：gradient 题的选项是 z, y；缺少 y"),
    ('labcode.practice.answer_box("gradient", label="ch1-ab-gradient", z="[ln(2), 0, -ln(2)]", y=1, '
     'exact="[4/7, -5/7, 2/7]")', r"（answer-box ch1-ab-gradient）：exact='\[4/7, -5/7, 2/7\]' 与算出的答案不一致"),
])
def test_a_malformed_box_cell_stops_the_build_naming_its_cell(tmp_path, source, message):
    from sphinx.errors import SphinxError

    with pytest.raises(SphinxError, match=r"^book/ch\.ipynb，第 2 个单元格" + message):
        build_small_book(tmp_path / "src", tmp_path / "out", "html", chapter=chapter_notebook(source))
