"""Unit and property tests for labcode.probability."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from labcode import cross_entropy, cross_entropy_grad, entropy, log_softmax, logsumexp, perplexity, softmax
from labcode.probability import _log_softmax, _logsumexp, _shifted, _softmax, _target_losses

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
logit_rows = arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 7)), elements=finite)
huge = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)


def test_softmax_reference_values_of_red_yellow_green():
    np.testing.assert_allclose(softmax([0.0, 1.0, 2.0]), [0.09003057, 0.24472847, 0.66524096], atol=5e-9)
    np.testing.assert_allclose(softmax([0.0, 1.0, 3.0]), [0.04201007, 0.11419520, 0.84379473], atol=5e-9)


def test_softmax_matches_the_definition_on_small_scores():
    z = np.array([[0.3, -1.2, 2.0], [0.0, 0.0, 0.5]])
    expected = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(softmax(z), expected, rtol=1e-14)
    np.testing.assert_allclose(softmax(z.T, axis=0), expected.T, rtol=1e-14)


@given(logit_rows)
def test_softmax_rows_are_probabilities(z):
    p = softmax(z)
    assert p.shape == z.shape
    assert np.all(p >= 0) and np.all(np.isfinite(p))
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, rtol=0, atol=1e-12)


@given(logit_rows, st.sampled_from([0.0, 100.0, -1000.0, 1e5]))
def test_softmax_is_invariant_to_shifting_every_score(z, offset):
    np.testing.assert_allclose(softmax(z + offset), softmax(z), rtol=1e-6, atol=1e-12)


@given(arrays(np.float64, st.integers(1, 6), elements=huge))
def test_extreme_finite_scores_give_finite_probabilities_and_loss(z):
    p = softmax(z)
    assert np.all(np.isfinite(p))
    assert abs(p.sum() - 1.0) < 1e-12
    loss = cross_entropy(z, int(np.argmin(z)))
    assert math.isfinite(loss) and loss >= 0


@given(logit_rows, st.data())
def test_cross_entropy_equals_logsumexp_minus_target_score(z, data):
    ids = data.draw(arrays(np.int64, z.shape[:-1], elements=st.integers(0, z.shape[-1] - 1)))
    per_row = cross_entropy(z, ids, reduction="none")
    expected = logsumexp(z) - np.take_along_axis(z, ids[:, None], axis=1)[:, 0]
    np.testing.assert_allclose(per_row, expected, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(per_row, -np.take_along_axis(log_softmax(z), ids[:, None], 1)[:, 0], atol=1e-9)


@given(logit_rows, st.data())
def test_reductions_agree_with_each_other(z, data):
    ids = data.draw(arrays(np.int64, z.shape[:-1], elements=st.integers(-1, z.shape[-1] - 1)))
    ids = np.where(ids < 0, -100, ids)
    per_row = cross_entropy(z, ids, reduction="none")
    assert np.all(per_row[ids == -100] == 0.0)
    assert cross_entropy(z, ids, reduction="sum") == pytest.approx(per_row.sum(), rel=1e-12, abs=1e-12)
    n_valid = int((ids != -100).sum())
    if n_valid:
        assert cross_entropy(z, ids) == pytest.approx(per_row.sum() / n_valid, rel=1e-12, abs=1e-12)


def test_worked_example_ln2_0_minus_ln2():
    z = np.array([math.log(2), 0.0, -math.log(2)])
    np.testing.assert_allclose(softmax(z), [4 / 7, 2 / 7, 1 / 7], rtol=1e-14)
    assert cross_entropy(z, 1) == pytest.approx(math.log(7 / 2), rel=1e-14)
    np.testing.assert_allclose(cross_entropy_grad(z, 1), [4 / 7, -5 / 7, 1 / 7], atol=1e-15)


def test_scores_1000_and_minus_1000_give_loss_exactly_2000():
    assert softmax([1000.0, -1000.0])[1] == 0.0  # underflows, yet the loss is exact
    assert cross_entropy([1000.0, -1000.0], 1) == 2000.0
    assert cross_entropy([1e300, 0.0], 1) == 1e300


def test_uniform_scores_give_log_vocab_size():
    for vocab_size in (2, 6, 27):
        loss = cross_entropy(np.zeros((5, vocab_size)), np.arange(5) % vocab_size)
        assert loss == pytest.approx(math.log(vocab_size))


def test_mean_divides_by_valid_targets_only():
    targets = np.array([[3, 5, 2], [4, 2, -100]])
    logits = np.zeros((2, 3, 6))
    assert cross_entropy(logits, targets) == pytest.approx(math.log(6))
    assert cross_entropy(logits, targets, reduction="sum") == pytest.approx(5 * math.log(6))
    grad = cross_entropy_grad(logits, targets)
    assert np.all(grad[1, 2] == 0.0)
    np.testing.assert_allclose(grad[0, 0], (np.full(6, 1 / 6) - np.eye(6)[3]) / 5)


def test_soft_targets_match_hard_targets_when_one_hot():
    z = np.array([[0.5, -1.0, 2.0], [1.0, 1.0, 0.0]])
    ids = np.array([2, 0])
    q = np.eye(3)[ids]
    assert cross_entropy(z, q) == pytest.approx(cross_entropy(z, ids), rel=1e-14)
    np.testing.assert_allclose(cross_entropy_grad(z, q), cross_entropy_grad(z, ids), atol=1e-15)


def test_soft_target_loss_is_cross_entropy_of_distributions():
    z = np.array([1.0, 2.0, 3.0])
    q = np.array([0.2, 0.3, 0.5])
    assert cross_entropy(z, q) == pytest.approx(-(q * np.log(softmax(z))).sum(), rel=1e-14)
    np.testing.assert_allclose(cross_entropy_grad(z, q), softmax(z) - q, atol=1e-15)


@settings(max_examples=50)
@given(arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(2, 5)), elements=st.floats(-5, 5)), st.data())
def test_gradient_matches_central_differences(z, data):
    ids = data.draw(arrays(np.int64, z.shape[:-1], elements=st.integers(0, z.shape[-1] - 1)))
    grad = cross_entropy_grad(z, ids)
    h = 1e-6
    numeric = np.zeros_like(z)
    for idx in np.ndindex(z.shape):
        step = np.zeros_like(z)
        step[idx] = h
        numeric[idx] = (cross_entropy(z + step, ids) - cross_entropy(z - step, ids)) / (2 * h)
    np.testing.assert_allclose(grad, numeric, atol=1e-7)
    np.testing.assert_allclose(grad.sum(axis=-1), 0.0, atol=1e-12)


def test_temperature_reference_entropies_and_argmax():
    z = np.array([2.0, 1.0, 0.0])
    got = [float(entropy(softmax(z, temperature=t))) for t in (0.5, 1.0, 2.0)]
    np.testing.assert_allclose(got, [0.4411, 0.8324, 1.0202], atol=5e-5)
    for t in (1e-3, 0.5, 2.0, 1e3):
        assert np.argmax(softmax(z, temperature=t)) == 0


def test_tiny_temperature_is_stable():
    p = softmax([1e300, -1e300, 0.0], temperature=1e-300)
    assert p.tolist() == [1.0, 0.0, 0.0]


def test_entropy_uses_zero_log_zero_and_agrees_with_definition():
    assert entropy([1.0, 0.0]) == 0.0
    p = np.array([0.1, 0.2, 0.7])
    assert entropy(p) == pytest.approx(-(p * np.log(p)).sum(), rel=1e-14)


def test_confident_wrong_prediction_has_low_entropy_but_high_loss():
    z = np.array([10.0, 0.0, 0.0])
    assert entropy(softmax(z)) < 0.01
    assert cross_entropy(z, 2) > 9.0


# --- -inf means "impossible class" ---------------------------------------------------------

def test_minus_inf_score_is_an_impossible_class():
    z = np.array([0.0, -np.inf, 1.0])
    p = softmax(z)
    assert p[1] == 0.0
    np.testing.assert_allclose(p[[0, 2]], softmax([0.0, 1.0]))
    assert cross_entropy(z, 2) == pytest.approx(cross_entropy([0.0, 1.0], 1))
    assert log_softmax(z)[1] == -np.inf


def test_target_on_an_impossible_class_has_infinite_loss_and_finite_gradient():
    z = np.array([0.0, -np.inf, 1.0])
    assert cross_entropy(z, 1) == np.inf
    assert np.all(np.isfinite(cross_entropy_grad(z, 1)))


# --- errors: every case names the argument, the rule and the value -------------------------

@pytest.mark.parametrize("fn", [softmax, log_softmax, logsumexp])
def test_empty_class_axis_is_rejected(fn):
    with pytest.raises(ValueError, match=r"logits 的候选轴.*至少为 1.*\(2, 0\)"):
        fn(np.zeros((2, 0)))


@pytest.mark.parametrize("fn", [softmax, log_softmax, logsumexp, lambda z: cross_entropy(z, 0)])
def test_nan_scores_are_rejected(fn):
    with pytest.raises(ValueError, match="logits 不能含 NaN"):
        fn(np.array([0.0, np.nan]))


def test_plus_inf_scores_are_rejected():
    with pytest.raises(ValueError, match=r"logits 不能含 \+inf"):
        softmax([0.0, np.inf])


def test_all_minus_inf_row_is_rejected():
    with pytest.raises(ValueError, match="至少要有一个有限分数"):
        softmax([[0.0, 1.0], [-np.inf, -np.inf]])


def test_scalar_and_text_logits_are_rejected():
    with pytest.raises(ValueError, match="至少要有一维"):
        softmax(3.0)
    with pytest.raises(TypeError, match="logits 必须是实数数组.*<U"):
        softmax(["a", "b"])


def test_axis_out_of_range_is_rejected():
    with pytest.raises(ValueError, match=r"axis 必须在 \[-2, 2\) 内.*收到 2"):
        softmax(np.zeros((2, 3)), axis=2)


def test_non_integer_targets_are_rejected():
    with pytest.raises(TypeError, match="targets 必须是整数候选编号.*float64"):
        cross_entropy(np.zeros((2, 3)), np.array([1.0, 2.0]))


def test_out_of_range_targets_are_rejected():
    with pytest.raises(IndexError, match=r"targets 必须在 \[0, 3\) 内或等于 ignore_index=-100.*\[-1, 3\]"):
        cross_entropy(np.zeros((3, 3)), [0, 3, -1])


def test_target_shape_mismatch_is_rejected():
    with pytest.raises(ValueError, match=r"logits.shape\[:-1\] = \(2,\).*\(3,\)"):
        cross_entropy(np.zeros((2, 4)), [0, 1, 2])


def test_soft_targets_must_be_distributions():
    with pytest.raises(ValueError, match="targets 不能有负数"):
        cross_entropy(np.zeros(3), np.array([1.2, -0.2, 0.0]))
    with pytest.raises(ValueError, match=r"targets 沿候选轴之和必须为 1.*收到和 0\.89"):
        cross_entropy(np.zeros(3), np.array([0.5, 0.2, 0.2]))


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), "2", True])
def test_temperature_must_be_a_positive_finite_number(bad):
    with pytest.raises((ValueError, TypeError), match="temperature 必须是正的有限实数"):
        softmax([0.0, 1.0], temperature=bad)


@pytest.mark.parametrize("fn", [cross_entropy, cross_entropy_grad])
def test_mean_over_only_ignored_targets_is_an_error(fn):
    with pytest.raises(ValueError, match=r"reduction='mean' 需要至少一个有效目标.*3 个目标都等于 ignore_index=-100"):
        fn(np.zeros((3, 4)), [-100, -100, -100])


def test_sum_over_only_ignored_targets_is_zero():
    assert cross_entropy(np.zeros((2, 4)), [-100, -100], reduction="sum") == 0.0


def test_unknown_reduction_is_rejected():
    with pytest.raises(ValueError, match=r"reduction 必须是.*收到 'avg'"):
        cross_entropy(np.zeros(3), 0, reduction="avg")


def test_loss_beyond_float64_range_is_an_error_not_inf():
    with pytest.raises(ValueError, match="超出 float64 范围"):
        cross_entropy([1e308, -1e308], 1)


def test_entropy_rejects_non_distributions():
    with pytest.raises(ValueError, match="probs 沿候选轴之和必须为 1"):
        entropy([0.5, 0.6])
    with pytest.raises(ValueError, match="probs 不能有负数"):
        entropy([1.5, -0.5])


# --- perplexity ------------------------------------------------------------------

@pytest.mark.parametrize("vocab_size", [2, 3, 27, 1000])
def test_perplexity_of_uniform_scores_is_the_vocabulary_size(vocab_size):
    assert perplexity(np.zeros((5, vocab_size)), np.arange(5) % vocab_size) == pytest.approx(vocab_size, rel=1e-12)


def test_perplexity_of_the_worked_example_is_seven_halves():
    assert perplexity(np.log([2.0, 1.0, 0.5]), 1) == pytest.approx(3.5, rel=1e-12)


@settings(max_examples=50, deadline=None)
@given(arrays(np.float64, (3, 5), elements=st.floats(-20, 20)))
def test_perplexity_is_the_exponential_of_the_mean_loss_and_ignores_ignored_targets(z):
    targets = np.array([0, -100, 4])
    assert perplexity(z, targets) == pytest.approx(math.exp(cross_entropy(z, targets)), rel=1e-12)
    assert perplexity(z, targets) >= 1.0


def test_perplexity_of_a_masked_target_is_inf():
    assert perplexity([0.0, -np.inf, 1.0], 1) == math.inf


def test_perplexity_beyond_float64_range_is_an_error_not_inf():
    with pytest.raises(ValueError, match=r"平均损失 2000 超过 ln\(float64 上限\) ≈ 709.78"):
        perplexity([1000.0, -1000.0], 1)


def test_perplexity_checks_its_arguments_like_cross_entropy():
    with pytest.raises(IndexError, match=r"targets 必须在 \[0, 3\) 内"):
        perplexity(np.zeros(3), 3)


# --- kernels: the short functions the book prints are exactly what the checked functions run ---------

@given(logit_rows, st.sampled_from([0.05, 1.0, 7.0]))
def test_kernels_equal_the_checked_functions(z, tau):
    np.testing.assert_array_equal(_softmax(z, -1, tau), softmax(z, temperature=tau))
    np.testing.assert_array_equal(_softmax(z.T, 0, tau), softmax(z.T, axis=0, temperature=tau))
    np.testing.assert_array_equal(_logsumexp(z, -1), logsumexp(z))
    np.testing.assert_array_equal(_log_softmax(z, -1), log_softmax(z))
    np.testing.assert_array_equal(_shifted(z, -1).max(axis=-1), 0.0)


def test_target_losses_kernel_zeroes_ignored_positions_without_reading_their_ids():
    z = np.array([[0.5, -1.0, 2.0], [1.0, 3.0, 0.0], [0.0, 0.0, 9.0]])
    logp = log_softmax(z)
    losses = _target_losses(logp, np.array([2, -100, 0]), -100)
    np.testing.assert_array_equal(losses, [-logp[0, 2], 0.0, -logp[2, 0]])
    np.testing.assert_array_equal(losses, cross_entropy(z, [2, -100, 0], reduction="none"))
    # ignore_index = -1 is also a NumPy index (the last candidate): it must mark the position, not be read
    np.testing.assert_array_equal(_target_losses(logp, np.array([-1, 1, -1]), -1), [0.0, -logp[1, 1], 0.0])
