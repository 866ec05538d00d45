"""Every worked figure chapter 2 must show is in its stored outputs, computed by labcode."""
import json
import math

import numpy as np
import pytest

import labcode
from test_chapter_content import BOOK, output_numbers, shown

NOTEBOOK = "02_gradient.ipynb"


def printed_text(notebook=NOTEBOOK):
    """Everything a notebook prints or glues, as one string."""
    nb = json.loads((BOOK / notebook).read_text(encoding="utf-8"))
    texts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            texts.append("".join(out.get("text", "")))
            texts += ["".join(v) for k, v in out.get("data", {}).items() if k.endswith("text/plain")]
    return "\n".join(texts)


def chapter2_figures():
    z, y = np.log([2.0, 1.0, 0.5]), 1
    g = labcode.cross_entropy_grad(z, y)
    z_big = np.array([1000.0, 1001.0, 999.0])
    q = np.array([0.1, 0.8, 0.1])
    docs = [[labcode.BOS, 3, 5, labcode.EOS], [labcode.BOS, 4, labcode.EOS]]
    _, targets = labcode.collate(docs)
    logits = np.zeros(targets.shape + (6,))
    h, W = np.array([1.0, 2.0]), np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    z_lin = labcode.linear(h, W)
    g_lin = labcode.cross_entropy_grad(z_lin, 1)
    dh, dW, _ = labcode.linear_backward(g_lin, h, W)
    return {
        "gradient p - e_y": (g, 6),
        "one step with lr 0.1": (-0.1 * g, 6),
        "loss after the step": (labcode.cross_entropy(z - 0.1 * g, y), 6),
        "p of [1000, 1001, 999]": (labcode.softmax(z_big), 6),
        "loss of [1000, 1001, 999]": (labcode.cross_entropy(z_big, 1), 6),
        "gradient of [1000, 1001, 999]": (labcode.cross_entropy_grad(z_big, 1), 6),
        "soft target gradient p - q": (labcode.cross_entropy_grad(z, q), 6),
        "batch mean loss ln 6": (labcode.cross_entropy(logits, targets), 6),
        "batch perplexity 6": (math.exp(labcode.cross_entropy(logits, targets)), 4),
        "batch gradient times N": (labcode.cross_entropy_grad(logits, targets)[0, 0] * 5, 6),
        "denominators 10/5 and 10/6": ([10 / 5, 10 / 6], 4),
        "linear scores": (z_lin, 0),
        "linear probabilities": (labcode.softmax(z_lin), 6),
        "linear g": (g_lin, 6),
        "dL/dh": (dh, 6),
        "dL/dW rows g and 2g": (dW, 6),
    }


@pytest.mark.parametrize("name", list(chapter2_figures()))
def test_chapter2_shows_every_required_figure(name):
    numbers = output_numbers(NOTEBOOK)
    values, decimals = chapter2_figures()[name]
    missing = [float(v) for v in np.ravel(values) if not shown(numbers, float(v), decimals)]
    assert not missing, f"{name}: not in the stored outputs: {missing}"


def test_chapter2_shows_exact_fractions_of_the_worked_example():
    text = printed_text()
    assert "['4/7', '-5/7', '1/7']" in text
    assert "['-2/35', '1/14', '-1/70']" in text


def test_chapter2_shows_the_three_step_sizes_below_1e_7():
    z = np.log([2.0, 1.0, 0.5])
    f = lambda v: labcode.cross_entropy(v, 1)  # noqa: E731
    text = printed_text()
    for h in (1e-4, 1e-5, 1e-6):
        err = labcode.gradcheck(f, labcode.cross_entropy_grad(z, 1), z, h).max_abs_error
        assert err < 1e-7
        assert f"h = {h:.0e}：最大绝对误差 {err:.1e}" in text


def test_chapter2_shows_the_error_curve_minima_for_both_precisions():
    z = np.log([2.0, 1.0, 0.5])
    g = labcode.cross_entropy_grad(z, 1)
    hs = np.logspace(-12, 0, 25)
    text = printed_text()
    for dtype in (np.float64, np.float32):
        errs = labcode.step_size_errors(lambda v: labcode.cross_entropy(v, 1), z.astype(dtype), g, hs)
        best = int(errs.argmin())
        assert f"{dtype.__name__}：最小误差 {errs[best]:.1e}，此时 h = {hs[best]:.0e}" in text


def test_chapter2_has_the_numbered_error_figure_with_alt_text():
    nb = json.loads((BOOK / NOTEBOOK).read_text(encoding="utf-8"))
    cells = [c for c in nb["cells"] if c["metadata"].get("mystnb", {}).get("figure", {}).get("name")
             == "fig-ch2-step-size"]
    assert len(cells) == 1
    assert cells[0]["metadata"]["mystnb"]["image"]["alt"]
    assert any("image/png" in out.get("data", {}) for out in cells[0]["outputs"])


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
    assert "ids (2, 4) → X (2, 4, 8) → logits (2, 4, 7)" in text
    assert "压平后： (8, 8) (8, 7)" in text
