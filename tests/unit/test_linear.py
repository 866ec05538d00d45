"""Unit tests for labcode.linear (its gradients are checked in test_gradients.py)."""
import numpy as np
import pytest

from labcode import cross_entropy_grad, linear, linear_backward, softmax
from labcode.linear import _linear_backward


def test_chapter_example_scores_and_chain_rule():
    h = np.array([1.0, 2.0])
    W = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    z = linear(h, W)
    np.testing.assert_array_equal(z, [1.0, 2.0, -1.0])
    np.testing.assert_allclose(softmax(z), [0.259496, 0.705385, 0.035119], atol=5e-7)
    g = cross_entropy_grad(z, 1)
    dh, dW, db = linear_backward(g, h, W)
    np.testing.assert_allclose(dh, [0.224377, -0.294615], atol=5e-7)
    np.testing.assert_allclose(dW, [g, 2 * g], atol=1e-15)
    np.testing.assert_array_equal(db, g)


def test_matrix_form_and_shapes_for_batched_logits():
    rng = np.random.default_rng(0)
    X, W, b = rng.normal(size=(2, 4, 8)), rng.normal(size=(8, 7)), rng.normal(size=7)
    Z = linear(X, W, b)
    assert Z.shape == (2, 4, 7)
    dZ = rng.normal(size=Z.shape)
    dX, dW, db = linear_backward(dZ, X, W)
    np.testing.assert_allclose(dW, X.reshape(8, 8).T @ dZ.reshape(8, 7), atol=1e-12)
    np.testing.assert_allclose(dX, dZ @ W.T, atol=1e-12)
    np.testing.assert_allclose(db, dZ.sum(axis=(0, 1)), atol=1e-12)


def test_bias_is_added_to_every_row():
    np.testing.assert_array_equal(linear([[1.0], [2.0]], [[3.0]], [10.0]), [[13.0], [16.0]])


def test_inner_dimensions_must_agree():
    with pytest.raises(ValueError, match=r"X 的最后一轴必须等于 W 的行数 d=3，收到 X 的形状 \(2, 2\)"):
        linear(np.ones((2, 2)), np.ones((3, 4)))
    with pytest.raises(ValueError, match="X 的最后一轴必须等于 W 的行数"):
        linear(1.0, np.ones((1, 4)))


def test_weights_must_be_a_matrix():
    with pytest.raises(ValueError, match=r"W 必须是二维矩阵.*收到形状 \(3,\)"):
        linear(np.ones(3), np.ones(3))


def test_bias_shape_must_match_the_outputs():
    with pytest.raises(ValueError, match=r"b 的形状必须是 \(4,\)，收到形状 \(3,\)"):
        linear(np.ones(2), np.ones((2, 4)), np.ones(3))


def test_grad_out_shape_must_match_the_forward_output():
    rule = r"grad_out 的形状必须是 X.shape\[:-1\] \+ \(V,\) = \(5, 4\)，收到形状 \(5, 3\)"
    with pytest.raises(ValueError, match=rule):
        linear_backward(np.ones((5, 3)), np.ones((5, 2)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="X 的最后一轴必须等于 W 的行数"):
        linear_backward(np.ones((5, 4)), np.ones((5, 3)), np.ones((2, 4)))


def test_inputs_must_be_real_arrays():
    with pytest.raises(TypeError, match="X 必须是实数数组"):
        linear([["a"]], np.ones((1, 1)))
    with pytest.raises(TypeError, match="grad_out 必须是实数数组"):
        linear_backward([[None]], np.ones((1, 1)), np.ones((1, 1)))


def test_backward_kernel_equals_the_checked_function():
    rng = np.random.default_rng(2)
    X, W, dZ = rng.normal(size=(2, 3, 4)), rng.normal(size=(4, 5)), rng.normal(size=(2, 3, 5))
    for kernel, checked in zip(_linear_backward(dZ, X, W), linear_backward(dZ, X, W), strict=True):
        np.testing.assert_array_equal(kernel, checked)
    dX, dW, db = _linear_backward(dZ, X, W)
    np.testing.assert_allclose(dW, np.einsum("btd,btv->dv", X, dZ), rtol=1e-12)
    np.testing.assert_allclose(db, dZ.sum(axis=(0, 1)), rtol=1e-12)
