"""Chapter 2: what the stored outputs print and glue (the worked figures are in tests/figures.py)."""
import json
import re

import numpy as np
import pytest

import hidden_cells
import labcode
import notebook_outputs
from figures import step_size_curves
from notebook_outputs import BOOK, GLUED_REL, output_numbers, shown
from test_chapter1_content import _source, deep_boxes

NOTEBOOK = "02_gradient.ipynb"


def printed_text(notebook=NOTEBOOK):
    return notebook_outputs.printed_text(notebook)


def glued(name, mime="text/plain", notebook=NOTEBOOK):
    return notebook_outputs.glued(notebook, name, mime)


def test_chapter2_shows_exact_fractions_of_the_worked_example():
    text = printed_text()
    assert "['4/7', '-5/7', '1/7']" in text
    assert "['-2/35', '1/14', '-1/70']" in text


def test_chapter2_passes_the_three_step_sizes_on_the_relative_error():
    """The check passes on gradcheck's relative error (an absolute error scales with the gradient)."""
    z = np.log([2.0, 1.0, 0.5])
    f = lambda v: labcode.cross_entropy(v, 1)  # noqa: E731
    text = printed_text()
    for delta in (1e-4, 1e-5, 1e-6):
        check = labcode.gradcheck(f, labcode.cross_entropy_grad(z, 1), z, delta)
        assert check.max_rel_error < 1e-7
        assert (f"δ = {delta:.0e}：最大绝对误差 {check.max_abs_error:.1e}，相对误差 {check.max_rel_error:.1e}，"
                f"小于 1e-7：True") in text
    assert "判断通过与否看**相对误差**" in markdown_text()


def test_chapter2_shows_the_error_curve_minima_for_both_precisions():
    deltas, errs64, errs32 = step_size_curves()
    text = printed_text()
    for name, errs in (("float64", errs64), ("float32", errs32)):
        best = int(errs.argmin())
        assert f"{name}：最小误差 {errs[best]:.1e}，此时 δ = {deltas[best]:.0e}" in text


def test_chapter2_glues_where_the_curves_meet_and_how_far_apart_they_are():
    deltas, errs64, errs32 = step_size_curves()
    ratio = errs32 / errs64
    meet = deltas[np.flatnonzero(ratio > 1.1).max() + 1]
    window = (deltas >= 1e-6) & (deltas <= 4e-3)
    assert glued("meet_delta") == pytest.approx(meet, rel=GLUED_REL)
    assert 0.01 < meet < 0.1, "the curves meet only at the largest steps"
    assert glued("ratio_lo") == pytest.approx(ratio[window].min(), rel=GLUED_REL)
    assert glued("ratio_hi") == pytest.approx(ratio[window].max(), rel=GLUED_REL)
    mantissa, exponent = f"{ratio[window].max():.1e}".split("e")
    assert glued("ratio_hi", "text/markdown") == f"${mantissa} \\times 10^{{{int(exponent)}}}$"


def test_chapter2_glues_the_float32_floor_and_its_spike():
    deltas, _, errs32 = step_size_curves()
    z, g = np.log([2.0, 1.0, 0.5]), labcode.cross_entropy_grad(np.log([2.0, 1.0, 0.5]), 1)
    spacing = np.spacing(np.float32(labcode.cross_entropy(z, 1)))
    assert glued("delta_floor") == pytest.approx(spacing / (2 * np.abs(g).max()), rel=GLUED_REL)
    assert glued("f32_flat") == pytest.approx(np.abs(g).max(), rel=1e-6)     # the difference rounds to 0
    assert glued("f32_spike") == pytest.approx(errs32.max(), rel=GLUED_REL)
    assert deltas[errs32.argmax()] < glued("delta_floor"), "the spike lies below the one-spacing step"


def test_chapter2_says_the_input_itself_rounds_away_the_smallest_steps():
    """For δ ≤ 1e-8, z_k ± δ rounds back to z_k in float32 for z_k = ±ln 2 (half a spacing is 3e-8), not for z_1 = 0."""
    z32 = np.log([2.0, 1.0, 0.5]).astype(np.float32)
    for delta in (1e-9, 1e-8):
        d = np.float32(delta)
        assert (z32 + d)[[0, 2]].tolist() == z32[[0, 2]].tolist() and (z32 - d)[[0, 2]].tolist() == z32[[0, 2]].tolist()
        assert (z32 + d)[1] != z32[1]
    assert (z32 + np.float32(3e-8))[0] != z32[0]                  # the next step of the figure survives
    spacing = float(np.nextafter(np.float32(np.log(2.0)), np.float32(1)) - np.float32(np.log(2.0)))
    assert glued("z_spacing") == pytest.approx(spacing, rel=GLUED_REL)
    text = markdown_text()
    assert "所以 $\\delta \\le 10^{-8}$ 时，这两个分量的扰动在输入这一步就舍掉了" in text
    assert "$z_k \\pm \\delta$ 存成 float32 就舍回了 $z_k$ 本身" in text


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


def test_chapter2_shows_the_batch_of_targets_and_its_mask():
    text = printed_text()
    assert "IGNORE = -100" in text and "有效目标的个数： 5" in text
    assert "valid =\n [[ True  True  True]\n [ True  True False]]" in text
    assert "被忽略位置的梯度： [0. 0. 0. 0. 0. 0.] ，全为 0： True" in text
    assert "big_row[-100] = 49900.0" in text                       # filter -100 before indexing
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
    targets = np.array([[3, 5, 2], [4, 2, labcode.IGNORE]])
    ln6 = labcode.cross_entropy(np.zeros(targets.shape + (6,)), targets)
    assert f"{ln6:.6f}，labcode：{ln6:.6f}" in text


# --- the main path: the map, the 深入 boxes, what moved to chapter 3, what is said once ---------------

def cells(notebook=NOTEBOOK):
    return json.loads((BOOK / notebook).read_text(encoding="utf-8"))["cells"]


def section_label(cells, index):
    """The label of the section (## or ###) cell `index` sits in."""
    for cell in reversed(cells[:index + 1]):
        if cell["cell_type"] == "markdown":
            found = re.findall(r"^\((ch\d-[\w-]+)\)=\n#+ ", _source(cell), re.M)
            if found:
                return found[-1]
    return None


def main_line(cells):
    """The cells a first reading sees: outside every 深入 box."""
    boxed = {id(c) for _, inside in deep_boxes(cells) for c in inside}
    return [c for c in cells if id(c) not in boxed]


def boxed_code(cells, title_part):
    """The code of the one 深入 box whose title contains `title_part`."""
    found = [inside for title, inside in deep_boxes(cells) if title_part in title]
    assert len(found) == 1, f"expected one 深入 box titled …{title_part}…, found {len(found)}"
    return "\n".join(_source(c) for c in found[0] if c["cell_type"] == "code")


def opening(nb):
    """The chapter's opening: the Markdown before its first section (the title cell and the text under the map)."""
    first = next(i for i, c in enumerate(nb) if re.search(r"^## ", _source(c), re.M))
    return "\n".join(_source(c) for c in nb[:first] if c["cell_type"] == "markdown")


def assert_map_right_under_the_title(nb, label, stage):
    """The title cell holds only the label, the H1 and the question the chapter answers (_ext/chapter_opening.py);
    the map follows, hidden code; then the opening text."""
    title = _source(nb[0])
    assert re.fullmatch(rf"\({label}\)=\n# [^\n]+(?:\n\n:::\{{chapter-question\}}\n[^\n]+\n:::)?", title), title[:80]
    cell = nb[1]
    assert cell["cell_type"] == "code" and _source(cell) == f'import labcode\n\nlabcode.course_map("{stage}")'
    text = nb[2]
    assert text["cell_type"] == "markdown" and text["id"] == "intro-text"
    assert "**学完本章，你将能够：**" in _source(text)


def test_map_opens_the_chapter_at_its_stage():
    """Right under the title, as in chapter 4: the map of the gradient stage, its code hidden."""
    nb = cells()
    assert_map_right_under_the_title(nb, "ch2-gradient", "gradient")
    cell = nb[1]
    assert cell["cell_type"] == "code" and _source(cell) == 'import labcode\n\nlabcode.course_map("gradient")'
    assert cell["metadata"].get("tags") == ["remove-input"] and "mystnb" not in cell["metadata"]
    alt = "".join(cell["outputs"][0]["data"]["text/plain"])
    assert alt.strip("'").startswith("你在这里：第 2 章，"), alt[:30]


def test_the_rounding_analysis_is_folded_and_the_rule_of_thumb_stays():
    nb = cells()
    taylor = boxed_code(nb, "泰勒展开")
    float32 = boxed_code(nb, "单精度曲线")
    assert "third = p * (1 - p) * (1 - 2 * p)" in taylor
    for line in ('glue("meet_delta"', "np.spacing(np.float32(loss))", "np.spacing(z32)"):
        assert line in float32, line
    main = main_line(nb)
    main_code = "\n".join(_source(c) for c in main if c["cell_type"] == "code")
    main_text = "\n".join(_source(c) for c in main if c["cell_type"] == "markdown")
    for line in ("eps**(1/3)", "plots.step_size_error_curve(", "errs32 = labcode.step_size_errors("):
        assert line in main_code, f"{line} left the main path"
    assert "检查梯度时用 float64、$\\delta$ 取 $10^{-5}$ 左右" in main_text
    assert "泰勒公式" not in main_text and "np.spacing" not in main_text
    assert "### 单精度曲线的左端" not in main_text, "a folded subsection keeps no heading"
    for index, cell in enumerate(nb):
        text = _source(cell)
        if "{deep-start}" in text:
            assert "深入框" in text[:text.index(":::{deep-start}")], "the main line does not say what the box holds"
            end = next(j for j in range(index + 1, len(nb)) if _source(nb[j]).startswith(":::{deep-end}"))
            assert section_label(nb, index) == section_label(nb, end), "a 深入 box spans two sections"
    boxes = {title: section_label(nb, nb.index(inside[0])) for title, inside in deep_boxes(nb)}
    assert sorted(boxes.values()) == ["ch2-denominator", "ch2-derivation", "ch2-derivation", "ch2-step-size",
                                      "ch2-step-size"], boxes


def test_per_sequence_averaging_is_folded_and_the_book_s_mean_stays_on_the_main_line():
    nb = cells()
    assert "seq_means = [token_losses[s][valid[s]].mean()" in boxed_code(nb, "按条平均")
    main = "\n".join(_source(c) for c in main_line(nb) if c["cell_type"] == "markdown")
    assert "与 PyTorch 的默认做法相同：除以有效目标的个数 $N$" in main


def test_the_taylor_box_predicts_the_valleys_it_is_compared_with():
    """δ* = (3 ε |ℓ| / max|ℓ'''|)^(1/3), with ℓ''' = p(1 - p)(1 - 2p), next to the measured valley."""
    z = np.log([2.0, 1.0, 0.5])
    p, loss = labcode.softmax(z), labcode.cross_entropy(z, 1)
    third = p * (1 - p) * (1 - 2 * p)
    deltas, errs64, errs32 = step_size_curves()
    text = printed_text()
    for dtype, errs in ((np.float64, errs64), (np.float32, errs32)):
        best = (3 * float(np.finfo(dtype).eps) * loss / np.abs(third).max()) ** (1 / 3)
        valley = deltas[errs.argmin()]
        assert 1 / 4 < best / valley < 4, "the prediction and the measured valley are of the same size"
        assert f"{dtype.__name__}：预测的最好步长 δ ≈ {best:.0e}，实测的谷底 δ = {valley:.0e}" in text


def test_the_prose_says_the_printed_kernel_changes_x_and_the_public_function_does_not():
    nb = cells()
    index = next(i for i, c in enumerate(nb) if "getsource(labcode.gradients._central_difference)" in _source(c))
    lead = _source(nb[index - 1])
    assert "`_central_difference`" in lead and "临时" in lead and "复制" in lead
    assert "输入本身不会被改动" not in markdown_text()


def test_batching_and_padding_moved_to_chapter_3():
    """Chapter 2 keeps -100, its zero gradient, filtering before indexing and the denominator; collate, the
    special ids and padded inputs live next to the embedding, in chapter 3's batch section."""
    code = "\n".join(_source(c) for c in cells() if c["cell_type"] == "code")
    text = markdown_text()
    assert "labcode.collate(" not in code and "labcode.BOS" not in code
    assert "`UNK`" not in text and "| `BOS` |" not in text and "{term}`特殊词元`" not in text
    assert "<ch3-batch>" in text and "{term}`忽略标记`" in text and "{term}`掩码`" in text
    ch3 = "\n".join(_source(c) for c in cells("03_shared_embedding.ipynb"))
    assert "labcode.collate(docs)" in ch3 and "<ch2-batch>" in ch3


def test_the_checkers_still_link_to_sections_on_the_main_line():
    from labcode.practice import hints

    nb = cells()
    boxed = {id(c) for _, inside in deep_boxes(nb) for c in inside}
    labels = {h.label for h in vars(hints).values() if isinstance(h, hints.Hint) and h.chapter == 2}
    assert "ch2-batch" in labels and "ch2-step-size" in labels
    for hint in (h for h in vars(hints).values() if isinstance(h, hints.Hint) and h.chapter == 2):
        holder = [c for c in nb if re.search(rf"^\({hint.label}\)=\n#+ (.+)$", _source(c), re.M)]
        assert len(holder) == 1 and id(holder[0]) not in boxed, hint.label
        title = re.search(rf"^\({hint.label}\)=\n#+ (.+)$", _source(holder[0]), re.M).group(1)
        assert hint.section.replace("δ", "$\\delta$") in title, f"{hint.key} names the section {hint.section!r}"


def test_ideas_said_once():
    """ch 1 shows the overflow of exp(1000); one-hot × matrix = row is explained in chapter 3, pointed to here."""
    code = "\n".join(_source(c) for c in cells() if c["cell_type"] == "code")
    text = markdown_text()
    assert "np.exp(z_big)" not in code and "<ch1-overflow>" in text
    assert "<ch3-one-hot-linear>" in text


@pytest.mark.parametrize("term", ["偏置", "机器精度", "差分步长 <步长>", "标签平滑", "一阶近似", "掩码", "反向传播"])
def test_chapter2_links_the_new_glossary_terms(term):
    assert f"{{term}}`{term}`" in markdown_text()


def _box_and_its_fold(label, section):
    """The prose of the box's section before the box, and the cells of the answer fold right after it."""
    cells = json.loads((BOOK / NOTEBOOK).read_text(encoding="utf-8"))["cells"]
    at = next(i for i, c in enumerate(cells) if "answer-box" in c["metadata"].get("tags", [])
              and f'label="{label}"' in "".join(c["source"]))
    start = next(i for i, c in enumerate(cells) if f"({section})=" in "".join(c["source"]))
    before = "".join("".join(c["source"]) for c in cells[start:at] if c["cell_type"] == "markdown")
    fold = next((s, e) for s, e in hidden_cells.folds(cells) if s == at + 1)
    return before.replace(f"({section})=", ""), cells[fold[0] + 1:fold[1]]


def test_the_step_box_is_answered_after_it_not_before():
    """The update −ηg is the reader's to compute: the prose before the box does not give it; the answer fold
    after the box prints the update and the new scores."""
    before, fold = _box_and_its_fold("ch2-ab-step", "ch2-step")
    assert not re.search(r"\\tfrac\{2\}\{35\}|\\tfrac\{1\}\{14\}|2/35", before), before
    assert "update = -lr * g" in "".join(fold[0]["source"])
    z = np.log([2.0, 1.0, 0.5])
    new = z - 0.1 * labcode.cross_entropy_grad(z, 1)
    printed = "".join("".join(o.get("text", "")) for c in fold for o in c.get("outputs", []))
    scores = re.search(r"新的分数： \[([^\]]+)\]", printed)
    assert scores and np.allclose([float(v) for v in scores.group(1).split()], new, atol=1e-6), printed


def test_the_mean_loss_box_is_not_answered_before_it():
    """The box tests the denominator: the prose before it gives neither the count of valid targets nor the sum;
    the fold after it computes both."""
    before, fold = _box_and_its_fold("ch2-ab-mean-loss", "ch2-denominator")
    assert not re.search(r"10|五个|5 个|总和", before), before
    assert "total / valid.sum()" in "".join(fold[0]["source"])


def test_the_jacobian_box_derives_p_minus_e_y_through_diag_p_minus_p_p_t():
    nb = cells()
    code = boxed_code(nb, "雅可比矩阵")
    assert "np.diag(p) - np.outer(p, p)" in code
    p = np.array([4, 2, 1]) / 7
    jacobian = np.array([[p[i] * ((i == j) - p[j]) for j in range(3)] for i in range(3)])
    assert np.allclose(jacobian.T @ (-np.eye(3)[1] / p[1]), p - np.eye(3)[1])
    text = printed_text()
    assert str(np.round(jacobian * 49, 6)) in text or str(jacobian * 49) in text
    assert "与中心差分一致： True" in text and "等于 p - e_y： True" in text
    assert "\\operatorname{diag}(p) - p\\,p^{\\mathsf T}" in markdown_text()


def test_the_mse_box_shows_the_confidently_wrong_gradient_vanish():
    """MSE on probabilities: its gradient through the softmax Jacobian is tiny where the model is confidently wrong."""
    z = np.array([8.0, 0.0, 0.0])
    p = np.exp(z) / np.exp(z).sum()
    e = np.eye(3)[2]
    g_mse = (np.diag(p) - np.outer(p, p)) @ (2 * (p - e))
    assert np.abs(g_mse).max() < 0.01 < 0.99 < np.abs(p - e).max()
    text = printed_text()
    assert f"均方误差 {np.sum((p - e) ** 2):.4f}，对分数的梯度 {g_mse.round(4)}" in text
    assert f"交叉熵   {-np.log(p[2]):.4f}，对分数的梯度" in text


def test_exercise_2_6_shapes_agree_with_its_five_character_vocabulary():
    nb = cells()
    index = next(i for i, c in enumerate(nb) if ":label: ch2-ex-repeated" in _source(c))
    question = _source(nb[index])
    assert "词表有 5 个字" in question and "$W$ 的形状是 $(5, 5)$，$dZ$ 的形状是 $(4, 5)$" in question
    code = next(_source(c) for c in nb[index:] if "X_hot = " in _source(c))
    assert "np.eye(5)[" in code and "size=(4, 5)" in code and "np.zeros((5, 5))" in code


def test_the_explorer_paragraph_describes_the_dashed_preview_the_widget_draws():
    from labcode.widgets.gradient_explorer import PREVIEW_STEPS

    text = markdown_text()
    assert "右图" not in text
    assert "虚线是按当前的 $\\eta$ 再走 {glue:text}`preview_steps` 步的损失" in text
    assert glued("preview_steps") == PREVIEW_STEPS


def test_rows_of_dz_are_numbered_with_i_not_the_residual_r():
    text = markdown_text()
    assert "dZ_r" not in text and "编号为 $r$" not in text and "dZ_i$ 是 $dZ$ 编号为 $i$ 的行" in text
