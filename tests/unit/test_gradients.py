"""Every hand-written gradient in labcode against central differences, and the checks of numerical_grad itself.

Tolerances: float64 inputs use h = 1e-5 and must agree within 1e-7 absolute (measured errors are ~1e-10);
float32 inputs use h = 1e-2 (float32 rounding dominates below that) and must agree within 2e-3 · (1 + |f(x)|).
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from labcode import (
    GradCheck,
    cross_entropy,
    cross_entropy_grad,
    gradcheck,
    gradient_step,
    linear,
    linear_backward,
    numerical_grad,
)
from labcode.gradients import _central_difference

values = st.floats(min_value=-8, max_value=8, allow_nan=False, allow_infinity=False, width=32)
shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)
F64_H, F64_ATOL = 1e-5, 1e-7
F32_H = 1e-2


def f32_tol(f_value):
    return 2e-3 * (1 + abs(f_value))


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, shapes, elements=values), st.data())
def test_cross_entropy_grad_with_integer_targets_and_ignore(z, data):
    ids = data.draw(arrays(np.int64, z.shape[:-1], elements=st.integers(-1, z.shape[-1] - 1)))
    ids = np.where(ids < 0, -100, ids)
    reductions = ["sum", "none"] + (["mean"] if (ids != -100).any() else [])
    for reduction in reductions:
        def f(v, reduction=reduction):
            return np.sum(cross_entropy(v, ids, reduction=reduction))
        g = cross_entropy_grad(z, ids, reduction=reduction)
        np.testing.assert_allclose(g, numerical_grad(f, z, F64_H), atol=F64_ATOL, rtol=0)
        assert np.all(g[ids == -100] == 0.0)  # exactly zero, not merely small


@settings(max_examples=30, deadline=None)
@given(arrays(np.float64, shapes, elements=values), st.data())
def test_cross_entropy_grad_with_soft_targets_is_p_minus_q(z, data):
    raw = data.draw(arrays(np.float64, z.shape, elements=st.floats(0.01, 1.0)))
    q = raw / raw.sum(axis=-1, keepdims=True)
    for reduction in ("mean", "sum"):
        g = cross_entropy_grad(z, q, reduction=reduction)
        numeric = numerical_grad(lambda v, r=reduction: cross_entropy(v, q, reduction=r), z, F64_H)
        np.testing.assert_allclose(g, numeric, atol=F64_ATOL, rtol=0)
    n = max(1, int(np.prod(z.shape[:-1])))
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(cross_entropy_grad(z, q, reduction="sum"), e / e.sum(-1, keepdims=True) - q, atol=1e-12)
    np.testing.assert_allclose(cross_entropy_grad(z, q) * n, cross_entropy_grad(z, q, reduction="sum"), atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(arrays(np.float32, shapes, elements=values), st.data())
def test_cross_entropy_grad_in_float32(z, data):
    ids = data.draw(arrays(np.int64, z.shape[:-1], elements=st.integers(0, z.shape[-1] - 1)))
    def f(v):
        return cross_entropy(v, ids, reduction="sum")
    numeric = numerical_grad(f, z, F32_H)
    assert numeric.dtype == np.float32
    np.testing.assert_allclose(cross_entropy_grad(z, ids, reduction="sum"), numeric, atol=f32_tol(f(z)), rtol=0)


def test_mean_divides_by_the_valid_count_not_the_cell_count():
    z = np.zeros((2, 3, 6))
    ids = np.array([[3, 5, 2], [4, 2, -100]])
    np.testing.assert_allclose(cross_entropy_grad(z, ids) * 5, cross_entropy_grad(z, ids, reduction="sum"), atol=1e-15)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.data())
def test_linear_backward_matches_central_differences_for_1_to_3_leading_axes(n_lead, data):
    lead = data.draw(st.lists(st.integers(1, 3), min_size=n_lead, max_size=n_lead).map(tuple))
    d, h = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
    X = data.draw(arrays(np.float64, lead + (d,), elements=values))
    W = data.draw(arrays(np.float64, (d, h), elements=values))
    b = data.draw(arrays(np.float64, (h,), elements=values))
    C = data.draw(arrays(np.float64, lead + (h,), elements=values))   # probe: L = Σ C ⊙ Z, so dL/dZ = C
    dX, dW, db = linear_backward(C, X, W)
    assert (dX.shape, dW.shape, db.shape) == (X.shape, W.shape, b.shape)
    np.testing.assert_allclose(dX, numerical_grad(lambda v: np.sum(C * linear(v, W, b)), X), atol=1e-6)
    np.testing.assert_allclose(dW, numerical_grad(lambda v: np.sum(C * linear(X, v, b)), W), atol=1e-6)
    np.testing.assert_allclose(db, numerical_grad(lambda v: np.sum(C * linear(X, W, v)), b), atol=1e-6)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.data())
def test_linear_then_cross_entropy_chain_rule_in_float32(n_lead, data):
    lead = data.draw(st.lists(st.integers(1, 3), min_size=n_lead, max_size=n_lead).map(tuple))
    X = data.draw(arrays(np.float32, lead + (3,), elements=values))
    W = data.draw(arrays(np.float32, (3, 4), elements=st.floats(-1, 1, width=32)))
    ids = data.draw(arrays(np.int64, lead, elements=st.integers(0, 3)))
    def f(v):
        return cross_entropy(linear(X, v), ids, reduction="sum")
    _, dW, _ = linear_backward(cross_entropy_grad(linear(X, W), ids, reduction="sum"), X, W)
    np.testing.assert_allclose(dW, numerical_grad(f, W, F32_H), atol=f32_tol(f(W)), rtol=0)


def test_numerical_grad_works_for_any_shape_and_leaves_x_unchanged():
    for shape in [(), (3,), (2, 3), (2, 1, 3)]:
        x = np.arange(1.0, 1.0 + np.prod(shape, dtype=int)).reshape(shape)
        before = x.copy()
        g = numerical_grad(lambda v: np.sum(v ** 3), x)
        assert g.shape == x.shape and g.dtype == np.float64
        np.testing.assert_array_equal(x, before)
        np.testing.assert_allclose(g, 3 * x ** 2, rtol=1e-8)


def test_numerical_grad_passes_copies_so_f_cannot_corrupt_x():
    x = np.array([1.0, 2.0])
    def f(v):
        s = float(np.sum(v ** 2))
        v[:] = 0.0   # a careless f that writes into its argument
        return s
    np.testing.assert_allclose(numerical_grad(f, x), [2.0, 4.0], rtol=1e-8)
    np.testing.assert_array_equal(x, [1.0, 2.0])


def test_numerical_grad_accepts_lists_and_integer_points():
    np.testing.assert_allclose(numerical_grad(lambda v: v[0] * v[1], [3, 4]), [4.0, 3.0], rtol=1e-9)


def test_worked_example_errors_stay_below_1e_7_for_three_step_sizes():
    z = np.log([2.0, 1.0, 0.5])
    for h in (1e-4, 1e-5, 1e-6):
        res = gradcheck(lambda v: cross_entropy(v, 1), cross_entropy_grad(z, 1), z, h)
        assert res.max_abs_error < 1e-7


def test_gradcheck_reports_absolute_and_relative_error():
    res = gradcheck(lambda v: np.sum(v ** 2), [2.0, -4.5], [1.0, -2.0])
    assert isinstance(res, GradCheck)
    assert res.max_abs_error == pytest.approx(0.5, abs=1e-6)
    assert res.max_rel_error == pytest.approx(0.5 / 4.5, abs=1e-6)
    np.testing.assert_allclose(res.numeric, [2.0, -4.0], rtol=1e-8)
    zero = gradcheck(lambda v: 7.0, [0.0, 0.0], [1.0, 2.0])
    assert zero.max_abs_error == 0.0 and zero.max_rel_error == 0.0


def test_a_sign_error_in_a_backward_is_caught():
    z = np.array([[0.5, -1.0, 2.0], [1.0, 0.0, 0.0]])
    ids = np.array([2, 0])
    wrong = -cross_entropy_grad(z, ids)   # e_y - p instead of p - e_y
    assert gradcheck(lambda v: cross_entropy(v, ids), wrong, z).max_rel_error > 0.5
    X, W, C = np.ones((2, 2)), np.eye(2), np.array([[1.0, -2.0], [3.0, 0.5]])
    dX, dW, _ = linear_backward(C, X, W)
    assert gradcheck(lambda v: np.sum(C * linear(X, v)), -dW, W).max_rel_error > 0.5


@pytest.mark.parametrize("delta", [0, -1e-5, math.inf, math.nan])
def test_step_must_be_positive_and_finite(delta):
    with pytest.raises(ValueError, match=rf"delta 必须是正的有限实数（差分步长 δ），收到 {delta}"):
        numerical_grad(lambda v: float(v.sum()), [1.0], delta)


def test_step_must_be_a_real_number():
    with pytest.raises(TypeError, match="delta 必须是正的有限实数（差分步长 δ），收到 '1e-5'"):
        numerical_grad(lambda v: float(v.sum()), [1.0], "1e-5")
    with pytest.raises(TypeError, match="delta 必须是正的有限实数（差分步长 δ），收到 True"):
        numerical_grad(lambda v: float(v.sum()), [1.0], delta=True)


def test_f_must_return_a_real_scalar():
    with pytest.raises(TypeError, match=r"f\(x\) 必须返回一个实数标量.*形状 \(2,\)"):
        numerical_grad(lambda v: v * 2, [1.0, 2.0])
    with pytest.raises(TypeError, match=r"f\(x\) 必须返回一个实数标量"):
        numerical_grad(lambda v: "loss", [1.0])
    with pytest.raises(TypeError, match=r"f\(x\) 必须返回一个实数标量"):
        numerical_grad(lambda v: None, [1.0])


def test_f_must_return_a_finite_value():
    with pytest.raises(ValueError, match=r"f\(x\) 必须返回有限数"):
        numerical_grad(lambda v: np.inf, [1.0])
    with pytest.raises(ValueError, match=r"f\(x\) 必须返回有限数，收到 \[nan\]"):
        numerical_grad(lambda v: np.array([np.nan]), [1.0])


def test_x_must_be_real_and_finite():
    with pytest.raises(TypeError, match="x 必须是实数数组"):
        numerical_grad(lambda v: 0.0, ["a"])
    with pytest.raises(ValueError, match=r"x 的每个元素都必须是有限数，收到 nan（位置 0）"):
        numerical_grad(lambda v: 0.0, [np.nan])


def test_gradcheck_shape_mismatch_is_an_error():
    with pytest.raises(ValueError, match=r"grad 的形状必须与 x 相同 \(2,\)，收到形状 \(3,\)"):
        gradcheck(lambda v: float(v.sum()), [1.0, 1.0, 1.0], [0.0, 0.0])


# ---- kernels and the gradient step ----

def test_central_difference_kernel_equals_numerical_grad_and_puts_every_component_back():
    x = np.random.default_rng(3).normal(size=(2, 3))
    before = x.copy()

    def f(v):
        return float(np.sum(np.sin(v) * v))

    np.testing.assert_array_equal(_central_difference(f, x, 1e-5), numerical_grad(f, before, 1e-5))
    np.testing.assert_array_equal(x, before)
    x32 = x.astype(np.float32)
    kernel = _central_difference(lambda v: np.float32(f(v)), x32.copy(), np.float32(1e-3))
    np.testing.assert_array_equal(kernel, numerical_grad(f, x32, 1e-3))


def test_gradient_step_moves_the_scores_against_p_minus_one_hot():
    z = np.log([2.0, 1.0, 0.5])
    z_next = gradient_step(z, 1, 0.7)
    np.testing.assert_allclose(z_next, z - 0.7 * (np.array([4, 2, 1]) / 7 - [0, 1, 0]), rtol=1e-15)
    assert z_next.sum() == pytest.approx(z.sum(), abs=1e-15)        # the update sums to zero
    assert cross_entropy(z_next, 1) < cross_entropy(z, 1)
    np.testing.assert_array_equal(gradient_step([0.0, 0.0], 0, 2.0), [1.0, -1.0])


def test_gradient_step_errors_name_argument_rule_and_value():
    with pytest.raises(ValueError, match=r"lr 必须是正的有限实数（学习率 η），收到 0"):
        gradient_step([0.0, 1.0], 0, 0)
    with pytest.raises(ValueError, match=r"logits 必须是一维的（一个位置的 V 个分数），收到形状 \(2, 2\)"):
        gradient_step(np.zeros((2, 2)), [0, 1], 0.1)
    with pytest.raises(IndexError, match=r"targets 必须在 \[0, 2\) 内"):
        gradient_step([0.0, 1.0], 2, 0.1)
