"""Every worked figure of the appendix is in its stored outputs, computed by labcode."""
from fractions import Fraction

import numpy as np
import pytest

import labcode
from test_chapter1_content import output_numbers, shown
from test_chapter2_content import printed_text as _printed_text

NOTEBOOK = "appendix.ipynb"


def printed_text():
    return _printed_text(NOTEBOOK)


def appendix_figures():
    X = np.array([[10.0, 2.0], [4.0, 6.0], [8.0, 0.0]])
    W, b, y = np.array([[3.0], [5.0]]), np.array([20.0]), np.array([[62.0], [60.0], [45.0]])
    preds = labcode.linear(X, W, b)
    _, dW, db = labcode.linear_backward(labcode.mse_grad(preds, y), X, W)
    sample = np.array([0.0, 1.0, 1.0, 2.0])
    return {
        "residuals": ((preds - y).ravel(), 0),
        "MSE in seconds squared": (labcode.mse(preds, y), 0),
        "RMSE in seconds": (np.sqrt(labcode.mse(preds, y)), 4),
        "dL/dw": (dW.ravel(), 6),
        "dL/db": (db, 6),
        "population and sample variance": ([np.var(sample), np.var(sample, ddof=1)], 4),
    }


@pytest.mark.parametrize("name", list(appendix_figures()))
def test_appendix_shows_every_required_figure(name):
    numbers = output_numbers(NOTEBOOK)
    values, decimals = appendix_figures()[name]
    missing = [float(v) for v in np.ravel(values) if not shown(numbers, float(v), decimals)]
    assert not missing, f"{name}: not in the stored outputs: {missing}"


def test_appendix_shows_the_exact_fractions():
    text = printed_text()
    assert "['-40/3', '16/3']" in text
    xs, ps = [0, 1, 2], [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)]
    mu = sum(p * x for p, x in zip(ps, xs, strict=True))
    var = sum(p * (x - mu) ** 2 for p, x in zip(ps, xs, strict=True))
    assert (mu, var) == (1, Fraction(1, 2))
    assert f"期望 {mu}，方差 {var}" in text


def test_appendix_shows_the_broadcasting_pitfall_and_index_errors():
    text = printed_text()
    assert "(3, 1) 减 (3,) 的形状： (3, 3)" in text
    assert "IndexError: targets 必须在 [0, 3) 内" in text
    assert "ValueError: X 的最后一轴必须等于 W 的行数" in text
