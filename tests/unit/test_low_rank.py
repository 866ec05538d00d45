"""The low-rank bigram trainer of chapter 3: its loss is the per-position cross-entropy, its gradients are the
central differences' slopes, and it refuses bad arguments by name."""
import numpy as np
import pytest

import labcode
from labcode.low_rank import _loss_and_grads, pair_counts, train_low_rank_bigram

INPUTS = np.array([[1, 3, 4, 3], [1, 4, 3, 2]])
TARGETS = np.array([[3, 4, 3, 2], [4, 3, 2, -100]])   # a repeated pair (3 → 2 twice, 4 → 3 twice) and a pad


def tables(seed=0, V=5, d=2):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(V, d)), rng.normal(size=(d, V))


def per_position_loss(E, W):
    """Written straight from the definition: one −ln p per valid position, then the mean."""
    total, count = 0.0, 0
    for x, y in zip(INPUTS.ravel(), TARGETS.ravel(), strict=True):
        if y == -100:
            continue
        z = E[x] @ W
        total += np.log(np.sum(np.exp(z - z.max()))) - (z[y] - z.max())
        count += 1
    return total / count


def test_pair_counts_count_repeats_and_skip_the_padding():
    C = pair_counts(INPUTS, TARGETS, 5)
    assert C[3, 2] == 2 and C[4, 3] == 2 and C[1, 3] == 1 and C.sum() == 7
    assert C[2].sum() == 0                               # the padded input is not a pair


def test_loss_and_gradients_match_the_definition_and_central_differences():
    E, W = tables()
    loss, dE, dW = _loss_and_grads(E, W, pair_counts(INPUTS, TARGETS, 5))
    assert loss == pytest.approx(per_position_loss(E, W), abs=1e-12)
    assert np.allclose(dE, labcode.numerical_grad(lambda t: per_position_loss(t, W), E), atol=1e-8)
    assert np.allclose(dW, labcode.numerical_grad(lambda t: per_position_loss(E, t), W), atol=1e-8)


def test_training_takes_plain_gradient_steps_and_leaves_its_inputs_alone():
    E, W = tables(1)
    E0, W0 = E.copy(), W.copy()
    E1, W1, losses = train_low_rank_bigram(E, W, INPUTS, TARGETS, lr=0.5, steps=1)
    _, dE, dW = _loss_and_grads(E0, W0, pair_counts(INPUTS, TARGETS, 5))
    assert np.array_equal(E, E0) and np.array_equal(W, W0)
    assert np.allclose(E1, E0 - 0.5 * dE) and np.allclose(W1, W0 - 0.5 * dW)
    assert losses.shape == (2,) and losses[1] == pytest.approx(per_position_loss(E1, W1), abs=1e-12)
    assert losses[1] < losses[0]


@pytest.mark.parametrize(("changed", "named"), [
    (dict(W_out=np.zeros((3, 5))), "W_out"),
    (dict(W_out=np.full((2, 5), np.nan)), "W_out 的每个元素都必须是有限数，收到 nan（位置 (0, 0)）"),
    (dict(E=np.zeros(5)), "E"),
    (dict(targets=TARGETS[:, :3]), "targets"),
    (dict(targets=np.full_like(TARGETS, -100)), "targets"),
    (dict(inputs=INPUTS - 2), "inputs"),
    (dict(targets=TARGETS + 9), "targets"),
    (dict(lr=0.0), "lr"),
    (dict(steps=-1), "steps"),
    (dict(steps=2.5), "steps"),
])
def test_bad_arguments_are_refused_by_name(changed, named):
    E, W = tables()
    args = dict(E=E, W_out=W, inputs=INPUTS, targets=TARGETS, lr=0.5, steps=2) | changed
    with pytest.raises((TypeError, ValueError)) as error:
        train_low_rank_bigram(**args)
    assert named in str(error.value)


def test_a_learning_rate_that_overflows_is_reported_not_returned_as_nan():
    E, W = tables()
    with pytest.raises(ValueError, match="lr"):
        train_low_rank_bigram(E * 1e3, W * 1e3, INPUTS, TARGETS, lr=1e300, steps=3)
