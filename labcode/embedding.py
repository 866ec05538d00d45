"""共享嵌入：按编号查表、独热矩阵乘法，以及可学习的绝对位置表（及其梯度）。

约定
----
* 嵌入表 ``E`` 形状 (V, d)：``E[i]`` 是编号 i 的向量；位置表 ``P`` 形状 (T_max, d)：``P[t]`` 属于位置 t。
* ``ids`` 是任意形状的整数数组，查表结果 H 的形状为 ``ids.shape + (d,)``。
* 同一个编号出现几次，它那一行就被读几次；反向时这几次的梯度相加（``np.add.at``），
  而不是像 ``dE[ids] += dH`` 那样每个元素只留下其中一次写入、丢掉其余几份（NumPy 不规定留下的是哪一次，
  连同一行的元素来自同一次写入也不保证）。
* 负编号（包括忽略值 -100）和 >= V 的编号一律报错，绝不让 NumPy 从表尾倒着取行。
"""
from __future__ import annotations

import numpy as np

from ._validate import as_finite_array, as_ids, as_table, check_count, check_size, finite, short_repr


def _backward_args(grad_out, ids, num_embeddings):
    """反向的参数：V 是正整数，编号在 [0, V) 内，dH 有限、形状是 ids.shape + (d,)，(V, d) 的 dE 不超过大小上限。"""
    num_embeddings = check_count(num_embeddings, "num_embeddings")
    ids = as_ids(ids, num_embeddings)
    g = as_finite_array(grad_out, "grad_out")
    if g.ndim != ids.ndim + 1 or g.shape[:-1] != ids.shape:
        raise ValueError(f"grad_out 的形状必须是 ids.shape + (d,) = {ids.shape} + (d,)，收到形状 {g.shape}")
    check_size((num_embeddings, g.shape[-1]), "num_embeddings", num_embeddings)
    return g, ids, num_embeddings


def one_hot(ids, vocab_size):
    """把编号变成独热向量：编号 i 变成只在下标 i 处为 1 的行。

    参数
    ----
    ids : 任意形状的整数数组，每个编号在 [0, vocab_size) 内
    vocab_size : 候选个数（词表大小）V

    返回
    ----
    形状 ``ids.shape + (V,)`` 的 float64 数组

    讲解：:ref:`ch3-one-hot`
    >>> one_hot([3, 1], 4)
    array([[0., 0., 0., 1.],
           [0., 1., 0., 0.]])
    """
    vocab_size = check_count(vocab_size, "vocab_size")
    ids = as_ids(ids, vocab_size)
    check_size(ids.shape + (vocab_size,), "vocab_size", vocab_size)
    out = np.zeros(ids.shape + (vocab_size,))  # (..., V)
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return out


def embedding(E, ids):
    """查表：返回 E[ids]，等于 ``one_hot(ids, V) @ E``（逐位完全相等）。

    参数
    ----
    E : 形状 (V, d) 的嵌入表
    ids : 任意形状的整数数组，每个编号在 [0, V) 内

    返回
    ----
    H : 形状 ``ids.shape + (d,)`` 的数组（副本，改它不会改 E）

    讲解：:ref:`ch3-lookup`
    >>> E = np.array([[0., 0.], [1., 0.], [0., 2.]])
    >>> embedding(E, [1, 2, 1])
    array([[1., 0.],
           [0., 2.],
           [1., 0.]])
    """
    E = as_table(E, "E")
    ids = as_ids(ids, E.shape[0])
    return E[ids]  # (..., d)


def _embedding_backward(dH, ids, num_embeddings):
    """把每个位置的上游梯度加到它读过的那一行：重复的编号逐次相加。"""
    # (V, d)；没被读到的行保持 0
    dE = np.zeros((num_embeddings, dH.shape[-1]))
    # 重复的编号逐次相加，不会像 dE[ids] += dH 那样丢掉几份
    np.add.at(dE, ids, dH)
    return dE


def embedding_backward(grad_out, ids, num_embeddings):
    """查表的反向：每个位置的上游梯度加到它读过的那一行，重复编号累加。

    等于 ``one_hot(ids, V).reshape(-1, V).T @ grad_out.reshape(-1, d)``。

    参数
    ----
    grad_out : 形状 ``ids.shape + (d,)`` 的上游梯度 dH = ∂ℓ/∂H
    ids : 前向时用的编号
    num_embeddings : 嵌入表的行数 V

    返回
    ----
    dE : 形状 (V, d)；没被读到的行恰好是 0

    讲解：:ref:`ch3-gradient`
    >>> embedding_backward([[1., 2.], [-1., 1.], [3., -1.]], [1, 2, 1], 3)
    array([[ 0.,  0.],
           [ 4.,  1.],
           [-1.,  1.]])
    """
    g, ids, num_embeddings = _backward_args(grad_out, ids, num_embeddings)
    return finite(lambda: _embedding_backward(g, ids, num_embeddings), "dE（重复编号的梯度之和）", "grad_out")


def embedding_backward_overwrite(grad_out, ids, num_embeddings):
    """错误示范（只用于对照）：``dE[ids] += grad_out`` 的结果，重复的编号只留下一份梯度。

    NumPy 先把各行读出来、各自加上、再写回；同一个元素被写了几次，只有其中一次写入留下，其余几份丢了。
    留下的是哪一次，NumPy 不作规定。参数与返回同 :func:`embedding_backward`。

    讲解：:ref:`ch3-overwrite-bug`、:ref:`ch3-chain`
    >>> row = embedding_backward_overwrite([[1., 2.], [-1., 1.], [3., -1.]], [1, 2, 1], 3)[1]
    >>> bool(row[0] in (1., 3.) and row[1] in (2., -1.))   # 编号 1 读了两次：[1, 2] 与 [3, -1] 只剩一份
    True
    """
    g, ids, num_embeddings = _backward_args(grad_out, ids, num_embeddings)
    dE = np.zeros((num_embeddings, g.shape[-1]))
    dE[ids] += g  # 同一个元素被写了几次，只留下其中一次写入
    return dE


def rows_read(ids):
    """查表读到了哪些行、各读了几次：(rows, counts)，rows 按第一次读到的先后排列。

    讲解：:ref:`ch3-gradient`
    >>> rows, counts = rows_read([4, 1, 4, 2])
    >>> rows.tolist(), counts.tolist()
    ([4, 1, 2], [2, 1, 1])
    """
    ids = as_ids(ids, np.iinfo(np.int64).max).reshape(-1)
    rows, first, counts = np.unique(ids, return_index=True, return_counts=True)
    order = np.argsort(first)                        # 从按编号排序改回按第一次读到的先后
    return rows[order], counts[order]


def embed_with_positions(E, P, ids):
    """字的嵌入加位置表的一行：H[..., t, :] = E[ids[..., t]] + P[t]。

    参数
    ----
    E : 形状 (V, d) 的嵌入表
    P : 形状 (T_max, d) 的位置表（可学习的绝对位置）
    ids : 形状 (..., T) 的整数数组，最后一轴是位置，T <= T_max

    返回
    ----
    H : 形状 ``ids.shape + (d,)`` 的数组

    讲解：:ref:`ch3-positions`
    >>> E = np.array([[1., 0.], [0., 2.]])
    >>> P = np.array([[0., 0.], [10., 10.], [20., 20.]])
    >>> embed_with_positions(E, P, [1, 0])
    array([[ 0.,  2.],
           [11., 10.]])
    """
    E, P = as_table(E, "E"), as_table(P, "P")
    if P.shape[1] != E.shape[1]:
        raise ValueError(f"P 的宽度必须与 E 相同（d = {E.shape[1]}），收到 P 的形状 {P.shape}")
    ids = as_ids(ids, E.shape[0])
    _check_length(ids, P.shape[0])
    T = ids.shape[-1]
    return finite(lambda: E[ids] + P[:T], "E[ids] + P", "E 与 P")  # (..., T, d) + (T, d)


def embed_with_positions_backward(grad_out, ids, num_embeddings, num_positions):
    """:func:`embed_with_positions` 的反向：返回 (dE, dP)，两张表都按使用次数累加。

    参数
    ----
    grad_out : 形状 ``ids.shape + (d,)`` 的上游梯度 dH
    ids : 形状 (..., T) 的编号
    num_embeddings : 嵌入表行数 V
    num_positions : 位置表行数 T_max

    返回
    ----
    dE : 形状 (V, d)，每次读到某个字，就把那个位置的梯度加到它那一行
    dP : 形状 (T_max, d)，dP[t] 是所有序列在位置 t 的梯度之和；没用到的位置为 0

    讲解：:ref:`ch3-position-gradient`
    >>> dE, dP = embed_with_positions_backward([[[1., 0.], [0., 1.]], [[2., 0.], [0., 3.]]], [[0, 0], [1, 0]], 2, 3)
    >>> dE
    array([[1., 4.],
           [2., 0.]])
    >>> dP
    array([[3., 0.],
           [0., 4.],
           [0., 0.]])
    """
    num_positions = check_count(num_positions, "num_positions")
    g, ids, num_embeddings = _backward_args(grad_out, ids, num_embeddings)
    _check_length(ids, num_positions)
    check_size((num_positions, g.shape[-1]), "num_positions", num_positions)
    T = ids.shape[-1]
    dP = np.zeros((num_positions, g.shape[-1]))  # (T_max, d)
    dP[:T] = finite(lambda: g.sum(axis=tuple(range(g.ndim - 2))), "dP（各序列同一位置的梯度之和）", "grad_out")
    return finite(lambda: _embedding_backward(g, ids, num_embeddings), "dE", "grad_out"), dP


def _check_length(ids, num_positions):
    """ids 至少一维（最后一轴是位置），且长度 T 不超过位置表行数。"""
    if ids.ndim == 0:
        raise ValueError(f"ids 至少要有一维（最后一轴是位置），收到标量 {short_repr(ids)}")
    if ids.shape[-1] > num_positions:
        raise ValueError(f"ids 的序列长度 T 不能超过位置表的行数 {num_positions}，收到 T = {ids.shape[-1]}"
                         f"（形状 {ids.shape}）")
