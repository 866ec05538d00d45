"""Chapter 2: what the stored outputs print and glue (the worked figures are in tests/figures.py)."""
import json
import re

import numpy as np
import pytest

import labcode
import notebook_outputs
from figures import float32_spikes, step_size_curves
from notebook_outputs import BOOK, output_numbers, shown

NOTEBOOK = "02_gradient.ipynb"


def printed_text(notebook=NOTEBOOK):
    return notebook_outputs.printed_text(notebook)


def glued(name, mime="text/plain", notebook=NOTEBOOK):
    return notebook_outputs.glued(notebook, name, mime)


def test_chapter2_shows_exact_fractions_of_the_worked_example():
    text = printed_text()
    assert "['4/7', '-5/7', '1/7']" in text
    assert "['-2/35', '1/14', '-1/70']" in text


def test_chapter2_shows_the_three_step_sizes_below_1e_7():
    z = np.log([2.0, 1.0, 0.5])
    f = lambda v: labcode.cross_entropy(v, 1)  # noqa: E731
    text = printed_text()
    for delta in (1e-4, 1e-5, 1e-6):
        err = labcode.gradcheck(f, labcode.cross_entropy_grad(z, 1), z, delta).max_abs_error
        assert err < 1e-7
        assert f"δ = {delta:.0e}：最大绝对误差 {err:.1e}" in text


def test_chapter2_shows_the_error_curve_minima_for_both_precisions():
    deltas, errs64, errs32 = step_size_curves()
    text = printed_text()
    for name, errs in (("float64", errs64), ("float32", errs32)):
        best = int(errs.argmin())
        assert f"{name}：最小误差 {errs[best]:.1e}，此时 δ = {deltas[best]:.0e}" in text


def test_chapter2_prints_both_curves_side_by_side():
    deltas, errs64, errs32 = step_size_curves()
    text = printed_text()
    for k in np.flatnonzero(deltas >= 1e-6):
        row = f"{deltas[k]:.0e}   {errs64[k]:.1e}   {errs32[k]:.1e}   {errs32[k] / errs64[k]:.3g}"
        assert row in text, f"the comparison table lacks the row {row!r}"


def test_chapter2_glues_where_the_curves_meet_and_how_far_apart_they_are():
    deltas, errs64, errs32 = step_size_curves()
    ratio = errs32 / errs64
    meet = deltas[np.flatnonzero(ratio > 1.1).max() + 1]
    window = (deltas >= 1e-6) & (deltas <= 4e-3)
    assert glued("meet_delta") == pytest.approx(meet, rel=1e-12)
    assert 0.01 < meet < 0.1, "the curves meet only at the largest steps"
    assert glued("ratio_lo") == pytest.approx(ratio[window].min(), rel=1e-12)
    assert glued("ratio_hi") == pytest.approx(ratio[window].max(), rel=1e-12)
    mantissa, exponent = f"{ratio[window].max():.1e}".split("e")
    assert glued("ratio_hi", "text/markdown") == f"${mantissa} \\times 10^{{{int(exponent)}}}$"


def test_chapter2_glues_the_float32_floor_and_its_spike():
    deltas, _, errs32 = step_size_curves()
    z, g = np.log([2.0, 1.0, 0.5]), labcode.cross_entropy_grad(np.log([2.0, 1.0, 0.5]), 1)
    spacing = np.spacing(np.float32(labcode.cross_entropy(z, 1)))
    assert glued("delta_floor") == pytest.approx(spacing / (2 * np.abs(g).max()), rel=1e-12)
    assert glued("f32_flat") == pytest.approx(np.abs(g).max(), rel=1e-6)     # the difference rounds to 0
    assert glued("f32_spike") == pytest.approx(errs32.max(), rel=1e-12)
    assert deltas[errs32.argmax()] < glued("delta_floor"), "the spike lies below the one-spacing step"


def test_chapter2_shows_that_the_spike_depends_on_an_irrelevant_shift():
    spikes = float32_spikes()
    assert 0 < spikes < 201, "a shift that changes nothing mathematically must flip the spike on and off"
    assert f"201 个 c 里，{spikes} 个出现尖峰" in printed_text()


def test_chapter2_figure_text_states_the_computed_curves():
    deltas, errs64, errs32 = step_size_curves()
    cell = figure_cell()
    caption = cell["metadata"]["mystnb"]["figure"]["caption"]
    alt = cell["metadata"]["mystnb"]["image"]["alt"]
    assert "δ" in alt and "$\\delta$" in caption and " h " not in alt
    def short(x):                       # 1e-05 written as 1e-5
        return f"{x:.0e}".replace("e-0", "e-")
    assert f"最低点约 {short(errs64.min())}，在 δ = {short(deltas[errs64.argmin()])}" in alt
    assert f"最低点约 {short(errs32.min())}，在 δ = {short(deltas[errs32.argmin()])}" in alt
    assert f"δ ≥ {glued('meet_delta'):.2f}" in alt
    assert f"{errs32.max():.1f}" in alt and f"{errs32[0]:.2f}" in alt


def figure_cell():
    nb = json.loads((BOOK / NOTEBOOK).read_text(encoding="utf-8"))
    cells = [c for c in nb["cells"] if c["metadata"].get("mystnb", {}).get("figure", {}).get("name")
             == "fig-ch2-step-size"]
    assert len(cells) == 1
    return cells[0]


def test_chapter2_has_the_numbered_error_figure_with_alt_text():
    cell = figure_cell()
    assert cell["metadata"]["mystnb"]["image"]["alt"]
    assert any("image/png" in out.get("data", {}) for out in cell["outputs"])


def test_chapter2_shows_the_batch():
    text = printed_text()
    assert "[[1 3 5]\n [1 4 2]]" in text
    assert "[[   3    5    2]\n [   4    2 -100]]" in text
    assert "有效目标的个数： 5" in text and "EOS 出现： 2 次" in text
    assert "全为 0： True" in text
    assert "ValueError: reduction='mean' 需要至少一个有效目标" in text


def test_chapter2_shows_per_document_averaging():
    numbers = output_numbers(NOTEBOOK)
    losses = np.array([[1.0, 1.5, 2.5], [3.5, 1.5, 0.0]])
    assert shown(numbers, (losses[0].mean() + losses[1, :2].mean()) / 2, 4)


def test_chapter2_shows_the_shapes():
    text = printed_text()
    assert "ids (2, 4) → H (2, 4, 5) → logits (2, 4, 7)" in text
    assert "压平后： (8, 5) (8, 7)" in text


def test_chapter2_shape_example_has_no_two_equal_axes():
    """A transposed square matrix passes every shape check: the worked shapes must all differ."""
    text = printed_text()
    shapes = re.search(r"ids \((\d+), (\d+)\) → H \(\d+, \d+, (\d+)\) → logits \(\d+, \d+, (\d+)\)", text)
    B, T, d, V = map(int, shapes.groups())
    lengths = [B, T, d, V, B * T]
    assert len(set(lengths)) == len(lengths), f"B, T, d, V, B*T = {lengths} must all differ"
    assert "x @ W   = [[1. 2.]] ，形状 (1, 2)" in text and "x @ W.T = [[1. 3.]] ，形状 (1, 2)" in text


def markdown_text(notebook=NOTEBOOK):
    nb = json.loads((BOOK / notebook).read_text(encoding="utf-8"))
    cells = [c for c in nb["cells"] if c["cell_type"] == "markdown"]
    figure = [json.dumps(c["metadata"], ensure_ascii=False) for c in nb["cells"]]
    return "\n".join(["".join(c["source"]) for c in cells] + figure)


@pytest.mark.parametrize("phrase", [
    "两条线重合，斜率为 2",          # the curves coincide only at the largest steps
    "右侧两条线重合",
    "步长 $h$", "$h \\approx", "约 $\\varepsilon/h$",   # the difference step is δ, machine precision ε_mach
    "\\ln Z", "Z = \\sum",                   # the normaliser is S
    "训练时沿它的反方向改分数",      # scoped: only while the scores themselves are the variables
    "对这一个位置来说，不论",
    "第一篇第一个位置", "第三格", "第二个候选（代码里",   # index rule
    "补什么都行", "EOS 只当目标",    # padding: any valid id, EOS does appear as padded input
    "形状是最好的自查工具",          # a transposed square matrix keeps its shape
    "\\top", "第一章", "第二章", "记作 $D$",
])
def test_chapter2_no_longer_says(phrase):
    assert phrase not in markdown_text()


def test_chapter2_scopes_the_direct_update_of_the_scores():
    text = markdown_text()
    for claim in ("每一步都不改变分数的总和", "损失都只降不升"):
        start = text.index(claim)
        around = text[max(0, start - 120):start + 200]
        assert "参数" in around, f"{claim!r} must say that training updates parameters, not the scores"


def test_chapter2_you_write_solutions_reproduce_labcode():
    """The reference central difference agrees with p - e_y, and the reference mean loss gives the batch's ln 6."""
    z, y = np.log([2.0, 1.0, 0.5]), 1
    numeric = labcode.numerical_grad(lambda v: labcode.cross_entropy(v, y), z, 1e-5)
    gap = np.abs(numeric - labcode.cross_entropy_grad(z, y)).max()
    assert gap < 1e-7
    text = printed_text()
    assert f"中心差分与 p - e_y 的最大差距 {gap:.1e}" in text
    docs = [[labcode.BOS, 3, 5, labcode.EOS], [labcode.BOS, 4, labcode.EOS]]
    _, targets = labcode.collate(docs)
    ln6 = labcode.cross_entropy(np.zeros(targets.shape + (6,)), targets)
    assert f"{ln6:.6f}，labcode：{ln6:.6f}" in text
