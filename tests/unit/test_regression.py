"""Unit tests for labcode.regression (mse, mse_grad) and the appendix's printing example."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from labcode import linear, linear_backward, mse, mse_grad, numerical_grad

values = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


def test_printing_example_gradient_through_the_linear_layer():
    X = np.array([[10.0, 2.0], [4.0, 6.0], [8.0, 0.0]])
    W, b, y = np.array([[3.0], [5.0]]), np.array([20.0]), np.array([[62.0], [60.0], [45.0]])
    preds = linear(X, W, b)
    np.testing.assert_array_equal((preds - y).ravel(), [-2.0, 2.0, -1.0])
    assert mse(preds, y) == 3.0
    _, dW, db = linear_backward(mse_grad(preds, y), X, W)
    np.testing.assert_allclose(dW.ravel(), [-40 / 3, 16 / 3], rtol=1e-15)
    np.testing.assert_allclose(db, [-2 / 3], rtol=1e-15)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, shapes, elements=values), st.data())
def test_mse_grad_matches_central_differences(preds, data):
    targets = data.draw(arrays(np.float64, preds.shape, elements=values))
    np.testing.assert_allclose(mse_grad(preds, targets), numerical_grad(lambda v: mse(v, targets), preds),
                               atol=1e-6)


@settings(max_examples=20, deadline=None)
@given(arrays(np.float32, shapes, elements=st.floats(-5, 5, width=32)), st.data())
def test_mse_grad_in_float32(preds, data):
    targets = data.draw(arrays(np.float32, preds.shape, elements=st.floats(-5, 5, width=32)))
    f = lambda v: mse(v, targets)  # noqa: E731
    np.testing.assert_allclose(mse_grad(preds, targets), numerical_grad(f, preds, 1e-2),
                               atol=2e-3 * (1 + f(preds)))


def test_a_sign_error_would_be_caught():
    preds, targets = np.array([1.0, 4.0]), np.array([2.0, 2.0])
    numeric = numerical_grad(lambda v: mse(v, targets), preds)
    assert np.abs(-mse_grad(preds, targets) - numeric).max() > 1.0


def test_column_and_flat_vectors_are_not_broadcast():
    with pytest.raises(ValueError, match=r"preds 与 targets 的形状必须相同（不做广播），收到 \(3, 1\) 与 \(3,\)"):
        mse(np.zeros((3, 1)), np.zeros(3))
    with pytest.raises(ValueError, match="preds 与 targets 的形状必须相同"):
        mse_grad(np.zeros(2), np.zeros(3))


def test_empty_and_non_numeric_inputs_are_rejected():
    with pytest.raises(ValueError, match=r"preds 至少要有一个元素，收到形状 \(0,\)"):
        mse([], [])
    with pytest.raises(TypeError, match="targets 必须是实数数组"):
        mse([1.0], ["a"])
