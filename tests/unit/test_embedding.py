"""Tests for labcode.embedding: lookup, one-hot products, accumulated gradients, position table, errors."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from labcode import (
    embed_with_positions,
    embed_with_positions_backward,
    embedding,
    embedding_backward,
    embedding_backward_overwrite,
    numerical_grad,
    one_hot,
)
from labcode.embedding import _embedding_backward, rows_read


def loop_backward(grad_out, ids, V):
    """Reference: visit every position and add its gradient row to the row it read."""
    grad_out, ids = np.asarray(grad_out, float), np.asarray(ids)
    dE = np.zeros((V, grad_out.shape[-1]))
    for pos in np.ndindex(ids.shape):
        dE[ids[pos]] = dE[ids[pos]] + grad_out[pos]
    return dE


@st.composite
def table_and_ids(draw, max_V=5):
    """A small table and ids of any shape drawn from few rows, so repeats are the rule."""
    V = draw(st.integers(1, max_V))
    D = draw(st.integers(1, 4))
    E = draw(arrays(np.float64, (V, D), elements=st.floats(-1e3, 1e3, allow_nan=False)))
    ids = draw(arrays(np.int64, array_shapes(min_dims=1, max_dims=3, max_side=6), elements=st.integers(0, V - 1)))
    return E, ids


# ---- the chapter's worked example ----

E_BOOK = np.array([[0., 0.], [0., 0.], [0., 0.], [1., 0.], [0., 0.], [0., 2.]])
IDS_BOOK = np.array([3, 5, 3])
C_BOOK = np.array([[1., 2.], [-1., 1.], [3., -1.]])


def test_worked_example_lookup_and_probe_gradient():
    H = embedding(E_BOOK, IDS_BOOK)
    np.testing.assert_array_equal(H, [[1, 0], [0, 2], [1, 0]])
    assert float(np.sum(C_BOOK * H)) == 6.0
    dE = embedding_backward(C_BOOK, IDS_BOOK, 6)
    np.testing.assert_array_equal(dE[3], [4, 1])
    np.testing.assert_array_equal(dE[5], [-1, 1])
    np.testing.assert_array_equal(dE[[0, 1, 2, 4]], 0)


def test_overwrite_keeps_only_the_last_write_and_finite_differences_side_with_add_at():
    wrong = embedding_backward_overwrite(C_BOOK, IDS_BOOK, 6)
    np.testing.assert_array_equal(wrong[3], [3, -1])
    numeric = numerical_grad(lambda E: np.sum(C_BOOK * embedding(E, IDS_BOOK)), E_BOOK)
    np.testing.assert_allclose(numeric, embedding_backward(C_BOOK, IDS_BOOK, 6), atol=1e-9)
    assert abs(numeric[3, 0] - 4) < 1e-9


# ---- properties on random ids with heavy repetition ----

@given(table_and_ids())
def test_lookup_equals_one_hot_product_exactly(case):
    E, ids = case
    H = embedding(E, ids)
    assert H.shape == ids.shape + (E.shape[1],)
    np.testing.assert_array_equal(H, one_hot(ids, E.shape[0]) @ E)
    np.testing.assert_array_equal(one_hot(ids, E.shape[0]), np.eye(E.shape[0])[ids])


@given(table_and_ids(), st.data())
def test_backward_equals_one_hot_transpose_product_and_a_loop(case, data):
    E, ids = case
    V, D = E.shape
    G = data.draw(arrays(np.float64, ids.shape + (D,), elements=st.integers(-50, 50).map(float)))
    dE = embedding_backward(G, ids, V)
    S = one_hot(ids, V).reshape(-1, V)
    np.testing.assert_array_equal(dE, S.T @ G.reshape(-1, D))  # small integers: sums are exact
    np.testing.assert_array_equal(dE, loop_backward(G, ids, V))


def test_one_id_many_times_gets_the_sum_of_all_its_gradients():
    ids = np.full(1000, 2)
    G = np.arange(2000.0).reshape(1000, 2)
    dE = embedding_backward(G, ids, 4)
    np.testing.assert_array_equal(dE[2], G.sum(axis=0))
    np.testing.assert_array_equal(dE[[0, 1, 3]], 0)


def test_every_id_once_is_a_permutation_of_the_gradient_rows():
    rng = np.random.default_rng(3)
    ids = rng.permutation(7)
    G = rng.normal(size=(7, 3))
    np.testing.assert_array_equal(embedding_backward(G, ids, 7)[ids], G)


def test_three_dimensional_ids():
    rng = np.random.default_rng(0)
    E = rng.normal(size=(5, 3))
    ids = rng.integers(0, 5, size=(2, 3, 4))
    assert embedding(E, ids).shape == (2, 3, 4, 3)
    assert one_hot(ids, 5).shape == (2, 3, 4, 5)
    G = rng.normal(size=(2, 3, 4, 3))
    np.testing.assert_allclose(embedding_backward(G, ids, 5), loop_backward(G, ids, 5), rtol=1e-12, atol=1e-12)
    numeric = numerical_grad(lambda T: np.sum(G * embedding(T, ids)), E)
    np.testing.assert_allclose(embedding_backward(G, ids, 5), numeric, atol=1e-7)


def test_scalar_and_empty_ids():
    E = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(embedding(E, 2), [4, 5])
    assert embedding(E, []).shape == (0, 2)
    np.testing.assert_array_equal(embedding_backward(np.zeros((0, 2)), [], 3), np.zeros((3, 2)))


def test_lookup_returns_a_copy():
    E = np.zeros((3, 2))
    H = embedding(E, [1, 1])
    H[0, 0] = 7.0
    assert E[1, 0] == 0.0


def test_unread_rows_get_exactly_zero_gradient():
    dE = embedding_backward(np.ones((4, 2)), [0, 0, 2, 2], 5)
    np.testing.assert_array_equal(dE[[1, 3, 4]], 0)


# ---- the learned absolute position table ----

def test_positions_add_the_row_of_each_position():
    E = np.array([[1., 0.], [0., 2.]])
    P = np.array([[0., 0.], [10., 20.], [30., 40.], [50., 60.]])
    ids = np.array([[0, 1, 0], [1, 1, 0]])
    x = embed_with_positions(E, P, ids)
    np.testing.assert_array_equal(x, E[ids] + P[None, :3])
    np.testing.assert_array_equal(x[0, 0], [1, 0])
    np.testing.assert_array_equal(x[1, 2], [31, 40])


def test_the_same_character_at_two_positions_gets_two_different_vectors():
    E = np.array([[1., 0.], [0., 2.]])
    P = np.array([[0., 0.], [0.5, 0.5]])
    x = embed_with_positions(E, P, [0, 0])
    assert not np.array_equal(x[0], x[1])
    # swapping two characters now changes the set of vectors, not only their order
    rows = lambda ids: sorted(map(tuple, embed_with_positions(E, P, ids).tolist()))  # noqa: E731
    assert rows([0, 1]) != rows([1, 0])
    assert sorted(map(tuple, embedding(E, [0, 1]).tolist())) == sorted(map(tuple, embedding(E, [1, 0]).tolist()))


def test_position_gradients_accumulate_per_use_in_both_tables():
    rng = np.random.default_rng(1)
    E, P = rng.normal(size=(4, 3)), rng.normal(size=(6, 3))
    ids = np.array([[2, 2, 2, 1], [0, 2, 1, 1]])
    G = rng.normal(size=(2, 4, 3))
    dE, dP = embed_with_positions_backward(G, ids, 4, 6)
    assert dE.shape == (4, 3) and dP.shape == (6, 3)
    np.testing.assert_allclose(dE, loop_backward(G, ids, 4), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dP[:4], G[0] + G[1], rtol=1e-12)
    np.testing.assert_array_equal(dP[4:], 0)
    loss = lambda E_, P_: np.sum(G * embed_with_positions(E_, P_, ids))  # noqa: E731
    np.testing.assert_allclose(dE, numerical_grad(lambda E_: loss(E_, P), E), atol=1e-7)
    np.testing.assert_allclose(dP, numerical_grad(lambda P_: loss(E, P_), P), atol=1e-7)


def test_positions_with_one_sequence_and_with_three_axes():
    rng = np.random.default_rng(2)
    ids = rng.integers(0, 3, size=(2, 2, 5))
    G = rng.normal(size=(2, 2, 5, 2))
    _, dP = embed_with_positions_backward(G, ids, 3, 5)
    np.testing.assert_allclose(dP, G.sum(axis=(0, 1)), rtol=1e-12)
    _, dP1 = embed_with_positions_backward(G[0, 0], ids[0, 0], 3, 5)
    np.testing.assert_array_equal(dP1, G[0, 0])


# ---- errors: the argument, the rule and the value ----

E3 = np.zeros((3, 2))


@pytest.mark.parametrize("bad, kind, pattern", [
    ([0, -1], IndexError, r"ids 的每个编号都必须 >= 0.*收到 -1（位置 1）"),
    ([0, -1], ValueError, r"倒着取"),
    ([[0, 1], [2, 3]], IndexError, r"ids 的每个编号都必须 < 3（表只有 3 行），收到 3（位置 \(1, 1\)）"),
    ([1, -100], ValueError, r"ids 含忽略值 -100（位置 1）"),
    (np.array([0.0, 1.0]), TypeError, r"ids 必须是整数编号数组，收到 dtype float64"),
    (np.array([True, False]), TypeError, r"ids 必须是整数编号数组，不能是布尔数组"),
    (["a"], TypeError, r"ids 必须是整数编号数组，收到 dtype <U1"),
    (5, IndexError, r"收到 5（标量）"),
])
def test_bad_ids_are_refused_everywhere(bad, kind, pattern):
    with pytest.raises(kind, match=pattern):
        embedding(E3, bad)
    with pytest.raises(kind, match=pattern):
        one_hot(bad, 3)
    grad = np.zeros(np.shape(bad) + (2,))
    with pytest.raises(kind, match=pattern):
        embedding_backward(grad, bad, 3)
    with pytest.raises(kind, match=pattern):
        embedding_backward_overwrite(grad, bad, 3)


def test_negative_ids_never_wrap_around_to_the_last_row():
    E = np.arange(6.0).reshape(3, 2)
    with pytest.raises(IndexError):
        embedding(E, [-1])
    with pytest.raises(IndexError):
        embed_with_positions(E, np.zeros((2, 2)), [[0, -3]])


@pytest.mark.parametrize("n, kind, pattern", [
    (0, ValueError, r"vocab_size 必须是正整数，收到 0"),
    (2.0, TypeError, r"vocab_size 必须是正整数，收到 2.0"),
    (True, TypeError, r"vocab_size 必须是正整数，收到 True"),
])
def test_one_hot_needs_a_positive_integer_class_count(n, kind, pattern):
    with pytest.raises(kind, match=pattern):
        one_hot([0], n)


def test_bad_tables_and_gradients():
    with pytest.raises(ValueError, match=r"E 必须是至少一行的二维数组（行数, d），收到形状 \(3,\)"):
        embedding(np.zeros(3), [0])
    with pytest.raises(TypeError, match=r"E 必须是实数数组"):
        embedding(np.array([["a"]]), [0])
    pattern = r"grad_out 的形状必须是 ids.shape \+ \(d,\) = \(3,\) \+ \(d,\)，收到形状 \(2, 2\)"
    with pytest.raises(ValueError, match=pattern):
        embedding_backward(np.zeros((2, 2)), [0, 1, 2], 3)
    with pytest.raises(ValueError, match=r"grad_out 的形状必须是.*收到形状 \(3,\)"):
        embedding_backward(np.zeros(3), [0, 1, 2], 3)
    with pytest.raises(ValueError, match=r"num_embeddings 必须是正整数，收到 -2"):
        embedding_backward(np.zeros((1, 2)), [0], -2)


def test_bad_position_inputs():
    P = np.zeros((2, 2))
    with pytest.raises(ValueError, match=r"ids 的序列长度 T 不能超过位置表的行数 2，收到 T = 3"):
        embed_with_positions(E3, P, [0, 1, 2])
    with pytest.raises(ValueError, match=r"ids 的序列长度 T 不能超过位置表的行数 2，收到 T = 3"):
        embed_with_positions_backward(np.zeros((3, 2)), [0, 1, 2], 3, 2)
    with pytest.raises(ValueError, match=r"P 的宽度必须与 E 相同（d = 2），收到 P 的形状 \(2, 3\)"):
        embed_with_positions(E3, np.zeros((2, 3)), [0])
    with pytest.raises(ValueError, match=r"ids 至少要有一维（最后一轴是位置），收到标量 1"):
        embed_with_positions(E3, P, 1)
    with pytest.raises(ValueError, match=r"ids 含忽略值 -100"):
        embed_with_positions(E3, P, [-100])
    with pytest.raises(ValueError, match=r"num_positions 必须是正整数，收到 0"):
        embed_with_positions_backward(np.zeros((1, 2)), [0], 3, 0)


def test_backward_kernel_equals_the_checked_function_and_adds_repeated_ids():
    rng = np.random.default_rng(5)
    ids = np.array([[1, 2, 1], [0, 1, 1]])
    dH = rng.normal(size=(2, 3, 4))
    dE = _embedding_backward(dH, ids, 4)
    np.testing.assert_array_equal(dE, embedding_backward(dH, ids, 4))
    np.testing.assert_allclose(dE[1], dH[0, 0] + dH[0, 2] + dH[1, 1] + dH[1, 2], rtol=1e-12)
    np.testing.assert_array_equal(dE[3], 0.0)


def test_overwrite_bug_keeps_one_write_per_element_of_a_repeated_row():
    dH = np.array([[1.0, 2.0], [-1.0, 1.0], [3.0, -1.0]])
    kept = embedding_backward_overwrite(dH, [1, 2, 1], 3)[1]
    assert kept[0] in (1.0, 3.0) and kept[1] in (2.0, -1.0) and not np.array_equal(kept, dH[0] + dH[2])


def test_rows_read_lists_each_row_once_in_first_use_order_with_its_count():
    rows, counts = rows_read([[3, 0], [3, 3], [1, 0]])
    assert rows.tolist() == [3, 0, 1] and counts.tolist() == [3, 2, 1]
    rows, counts = rows_read([])
    assert rows.tolist() == [] and counts.tolist() == []
    with pytest.raises(ValueError, match=r"ids 含忽略值 -100"):
        rows_read([1, -100])
