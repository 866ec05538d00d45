"""bigram 模型的两种写法：数出来的计数矩阵 C，和用梯度下降训练的一层网络 W（W[i] 是“前一个字是 i”时的分数）。

约定
----
* V 是词表大小；``xs``、``ys`` 是形状 (N,) 的编号（前一个字、后一个字），N 是字符对的个数；
  ``counts`` 是 (V, V) 的计数矩阵 C，C[i, j] 是“i 后面跟着 j”的次数，ΣC = N。
* 网络的分数是 ``logits = W[xs]``（等于独热矩阵乘 W），损失是平均交叉熵加 ``reg * mean(W**2)``（reg 即 λ）。
* 全批量损失只通过 C 依赖数据，所以 :func:`loss_and_grad_from_counts` 只看 C 就给出与
  :func:`loss_and_grad` 相同的损失和梯度，每步只算一个 V×V 的 softmax。
* 平滑的计数模型正好是 ``W = ln(C + alpha)``（:func:`count_weights`）；alpha = 0 时零计数处是 -inf。
"""
from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ._validate import (
    as_counts,
    as_logits,
    as_pairs,
    check_alpha,
    check_callable,
    check_count,
    check_each,
    check_int,
    check_lr,
    check_nonneg,
    check_overflow,
    check_real,
    check_reg,
    check_rng,
    check_size,
    check_square,
    check_temperature,
    finite,
)
from .embedding import embedding_backward
from .probability import _softmax, cross_entropy, cross_entropy_grad
from .vocab import BOUNDARY, Vocab, check_vocab
from .words import build_vocab, check_words, encode_pairs, load_words, split_words

__all__ = ["load_words", "split_words", "build_vocab", "encode_pairs", "BigramData", "bigram_data", "names_data",
           "NAMES_LR", "count_matrix", "count_probs", "count_nll", "count_weights", "smoothed_counts",
           "count_optimum", "check_row_totals", "init_weights", "loss_and_grad", "loss_and_grad_from_counts",
           "train", "lr_limits", "sample_names", "sample_words"]

NAMES_LR = 70.0   # 第 4 章在 names.txt 上的学习率：计数写法从 W = 0 出发，在 lr_limits 给出的边界（约 74.4）以内


# ---- 计数模型 ----

def count_matrix(xs, ys, vocab_size):
    """数一数每个 (前一个字 i, 后一个字 j) 出现了几次：C[i, j]，形状 (V, V) 的 int64 数组。

    讲解：:ref:`ch4-counts`
    >>> count_matrix([0, 1, 2, 1], [1, 2, 1, 0], 3)
    array([[0, 1, 0],
           [1, 0, 1],
           [0, 1, 0]])
    """
    vocab_size = check_count(vocab_size, "vocab_size")
    check_size((vocab_size, vocab_size), "vocab_size", vocab_size)
    xs, ys = as_pairs(xs, ys, vocab_size)
    flat = np.bincount(xs * vocab_size + ys, minlength=vocab_size * vocab_size)
    return flat.reshape(vocab_size, vocab_size)  # (V, V)


def smoothed_counts(counts, alpha):
    """平滑后的计数 C + α：每一格都加上 α 个“假计数”。

    讲解：:ref:`ch4-counts`
    >>> smoothed_counts([[1, 0], [2, 2]], 0.5).tolist()
    [[1.5, 0.5], [2.5, 2.5]]
    """
    C, alpha = as_counts(counts), check_alpha(alpha)
    S = finite(lambda: C + alpha, "C + α", "counts 与 alpha")
    finite(S.sum, "C + α 的总和", "counts 与 alpha")
    return S


def count_probs(counts, alpha=0.0):
    """计数模型的概率：每个计数加 alpha（平滑）后按行归一化，P[i, j] = (C_ij + α) / Σ_k (C_ik + α)。

    讲解：:ref:`ch4-counts`
    >>> count_probs([[1, 3], [0, 2]], alpha=1.0).tolist()
    [[0.3333333333333333, 0.6666666666666666], [0.25, 0.75]]
    """
    S = smoothed_counts(counts, alpha)
    return S / check_row_totals(S.sum(axis=1))[:, None]


def count_nll(counts, alpha=0.0):
    """计数模型在它自己数过的字符对上的平均负对数似然：−Σ C_ij ln P_ij / ΣC（约定 0·ln 0 = 0）。

    讲解：:ref:`ch4-counts`
    >>> round(count_nll([[1, 3], [0, 2]]), 6)   # P = [[1/4, 3/4], [0, 1]]：(ln 4 + 3 ln(4/3) + 0) / 6
    0.37489
    """
    C = as_counts(counts)
    S = smoothed_counts(C, alpha)
    # ln P_ij = ln(C_ij + α) − ln(行和)，只在 C > 0 的格子上取：P 小到下溢成 0 时也不会变成 −inf
    log_p = np.log(np.where(C > 0, S, 1.0)) - np.log(check_row_totals(S.sum(axis=1)))[:, None]
    return float(finite(lambda: -np.sum(C * log_p) / C.sum(), "平均负对数似然", "counts"))


def check_row_totals(totals, ids=None, *, fix="请给 alpha > 0"):
    """平滑后各行的总数（totals[k] 属于编号为 ids[k] 的行，默认 ids = 0, 1, …）都必须大于 0：
    全是 0 的行在 α = 0 时概率没有定义（fix 说怎么办）。返回 totals。

    讲解：:ref:`ch4-counts`
    """
    totals = np.asarray(totals)
    ids = np.arange(len(totals)) if ids is None else np.asarray(ids)
    empty = np.unique(ids[totals == 0])
    if empty.size:
        raise ValueError(f"counts 有的行全是 0（编号为 {empty[:8].tolist()} 的行），"
                         f"alpha = 0 时这些行的概率没有定义；{fix}")
    return totals


def count_optimum(counts, alpha=0.0):
    """在平滑计数 C + α 上训练时，损失的下确界（λ = 0）：``count_nll(C + α)``。

    即计数模型 (C + α) 按行归一化后，在同一份计数 C + α 上的平均负对数似然；
    W = ln(C + α) 时取到（α = 0 且有零计数时只能逼近，那一格需要 −inf）。α = 0 时就是 ``count_nll(C)``。

    讲解：:ref:`ch4-trainer`
    >>> round(count_optimum([[1, 1], [0, 2]]), 4), round(count_optimum([[1, 1], [0, 2]], alpha=1), 4)
    (0.3466, 0.6277)
    """
    return count_nll(smoothed_counts(counts, alpha))


def count_weights(counts, alpha=0.0):
    """把计数矩阵写成网络的权重：W = ln(C + alpha)，softmax(W) 的每一行正好是平滑后的计数概率。

    alpha = 0 时，没出现过的组合得到 −inf（概率恰为 0）：有限的 W 做不到这一点。

    讲解：:ref:`ch4-identity`
    >>> count_weights([[1, 0], [2, 2]]).tolist()
    [[0.0, -inf], [0.6931471805599453, 0.6931471805599453]]
    """
    C = smoothed_counts(counts, alpha)
    with np.errstate(divide="ignore"):
        return np.log(C)  # (V, V)


# ---- 网络模型 ----

def init_weights(vocab_size, rng, scale=1.0):
    """随机初始权重 W，形状 (V, V)，每项取自 N(0, scale²)。

    讲解：:ref:`ch4-network`
    >>> init_weights(3, np.random.default_rng(0)).shape
    (3, 3)
    """
    vocab_size = check_count(vocab_size, "vocab_size")
    check_size((vocab_size, vocab_size), "vocab_size", vocab_size)
    check_rng(rng)
    return check_nonneg(scale, "scale") * rng.standard_normal((vocab_size, vocab_size))


def _pairs_step(W, xs, ys, reg):
    """逐条写法：每个训练对读 W 的一行作分数，梯度再加回它读的那一行。"""
    # (N, V)：编号为 r 的训练对读 W[xs[r]]
    logits = W[xs]
    loss = cross_entropy(logits, ys)
    # (N, V)：(p − e_y) / N
    dlogits = cross_entropy_grad(logits, ys)
    # (V, V)：同一个前一个字出现几次，就累加几次
    dW = embedding_backward(dlogits, xs, len(W))
    return _add_penalty(loss, dW, W, reg)


def loss_and_grad(W, xs, ys, reg=0.0):
    """逐条写法：logits = W[xs]，损失 = 平均交叉熵 + reg·mean(W²)，及其梯度。

    参数
    ----
    W : 形状 (V, V) 的权重
    xs, ys : 形状 (N,) 的编号（前一个字、后一个字）
    reg : 正则化系数 λ ≥ 0

    返回
    ----
    loss : float
    dW : 形状 (V, V)；同一个前一个字出现多次，它那一行的梯度累加

    讲解：:ref:`ch4-gradient`
    >>> loss, dW = loss_and_grad(np.zeros((2, 2)), [0, 1], [1, 1])
    >>> round(loss, 6), dW.tolist()       # ln 2；每行 (p − e_y)/N
    (0.693147, [[0.25, -0.25], [0.25, -0.25]])
    """
    W = _check_W(W)
    xs, ys = as_pairs(xs, ys, len(W))
    reg = check_reg(reg)
    return _finite_step(lambda: _pairs_step(W, xs, ys, reg), W)


def _counts_step(W, C, reg):
    """计数写法：只用计数矩阵 C，算出与逐条写法相同的全批量损失和梯度。"""
    N, n = C.sum(), C.sum(axis=1)  # 训练对总数；每行的总数 n_i
    shifted = W - W.max(axis=1, keepdims=True)  # 每行最大为 0
    e = np.exp(shifted)
    S = e.sum(axis=1)  # 分母：ln p_ij = shifted_ij − ln S_i
    # −Σ C_ij ln p_ij / N；C_ij = 0 的格子不计（0·ln 0 = 0）
    kept = np.where(C > 0, shifted, 0.0)
    loss = float((n @ np.log(S) - np.sum(C * kept)) / N)
    # (V, V)：(n_i p_ij − C_ij) / N，其中 p_ij = e_ij / S_i
    dW = (n[:, None] * (e / S[:, None]) - C) / N
    return _add_penalty(loss, dW, W, reg)


def _add_penalty(loss, dW, W, reg):
    """加上正则化项 λ·mean(W²) 与它的梯度 2λW / W.size。"""
    if reg:  # reg = 0 时不加，免得 0 · inf 变成 NaN
        loss += reg * float(np.mean(W ** 2))
        dW += 2 * reg * W / W.size
    return loss, dW


def loss_and_grad_from_counts(W, counts, reg=0.0):
    """计数写法：只用计数矩阵 C，给出与 :func:`loss_and_grad` 相同的全批量损失和梯度。

    loss = −Σ_ij C_ij ln softmax(W)_ij / N + reg·mean(W²)，
    dW = (rowsum(C)[:, None] · softmax(W) − C) / N + 2·reg·W / W.size，其中 N = ΣC。

    讲解：:ref:`ch4-gradient`、:ref:`ch4-training`
    >>> loss, dW = loss_and_grad_from_counts(np.zeros((2, 2)), [[0, 1], [0, 1]])
    >>> round(loss, 6), dW.tolist()
    (0.693147, [[0.25, -0.25], [0.25, -0.25]])
    """
    W = _check_W(W)
    C, reg = np.asarray(as_counts(counts, len(W)), dtype=np.float64), check_reg(reg)
    return _finite_step(lambda: _counts_step(W, C, reg), W)


def _finite_step(step, W):
    """算出 step() 给的损失和梯度。W 全是有限数时，它们也必须有限：否则是 W 的取值跨度（或 λ·mean(W²)）
    超出了 float64 的范围。W 含 -inf（屏蔽某个组合）时，+inf 的损失是真实值，原样返回。
    """
    with np.errstate(over="ignore", invalid="ignore"):
        loss, dW = step()
    if np.isfinite(W).all():
        check_overflow(np.append(dW, loss), "损失与梯度", "W 或 reg")
    return loss, dW


def train(W, counts, lr, steps, reg=0.0, *, stop_below=None, print_every=0, callback=None):
    """全批量梯度下降（走计数写法）：W ← W − lr·dW，重复 steps 次，记下每一步的损失。

    参数
    ----
    W : 形状 (V, V) 的初始权重（不会被原地修改）
    counts : 形状 (V, V) 的计数矩阵 C
    lr : 学习率 η，正数；steps : 最多更新几次
    reg : 正则化系数 λ ≥ 0
    stop_below : 给定时，损失一旦 ≤ 它就提前停下
    print_every : 正整数 k 时每 k 步打印一次损失（默认 0 不打印）
    callback : 给定时每步调用 ``callback(step, loss)``

    返回
    ----
    W : 训练后的权重；losses : 形状 (步数 + 1,)，losses[k] 是更新 k 次后的损失

    讲解：:ref:`ch4-training`
    >>> W, losses = train(np.zeros((2, 2)), [[1, 3], [2, 2]], lr=1.0, steps=3)
    >>> losses.round(4).tolist()
    [0.6931, 0.6658, 0.6503, 0.6414]
    """
    W = _check_W(W).copy()
    check_each(W, np.isfinite(W), "W", "有限数（初值里不能有 -inf）")
    C = np.asarray(as_counts(counts, len(W)), dtype=np.float64)
    lr, reg, steps = check_lr(lr), check_reg(reg), check_int(steps, "steps", 0)
    check_size((steps + 1,), "steps", steps)            # 每一步记一个损失
    stop_below = None if stop_below is None else check_real(stop_below, "stop_below")
    print_every = check_int(print_every, "print_every", 0, note="每几步打印一次，0 表示不打印")
    callback = check_callable(callback, "callback", optional=True)
    losses = []
    for step in range(steps + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            loss, dW = _counts_step(W, C, reg)
        check_overflow(np.append(dW, loss), f"更新 {step} 次后的损失与梯度", "lr、W 或 reg")
        losses.append(loss)
        if print_every and step % print_every == 0:
            print(f"更新 {step:>5} 次后  损失 {loss:.6f}")
        if callback is not None:
            callback(step, loss)
        if step == steps or (stop_below is not None and loss <= stop_below):
            break
        with np.errstate(over="ignore", invalid="ignore"):
            W -= lr * dW                                  # 溢出由下一步的损失检查报出
    return W, np.array(losses)


def lr_limits(counts):
    """每一行在计数最优点附近的学习率稳定边界 2N / (n_i · μ_max)，形状 (V,)。

    在最优点 p_i = C_i / n_i 附近，损失对 W 中编号为 i 的行的二阶导（Hessian）是 (n_i/N)·(diag(p_i) − outer(p_i, p_i))。
    梯度下降 W ← W − lr·dW 在最优点附近的这一行上稳定，当且仅当 lr·(n_i/N)·μ_max < 2，μ_max 是
    diag(p_i) − outer(p_i, p_i) 的最大特征值；整张表的边界是各行边界的最小值。这是最优点附近的局部条件。
    没出现过的行（n_i = 0）和全部计数落在同一格的行（μ_max = 0）不受限制，记作 inf。带平滑训练时传入 C + α。

    讲解：:ref:`ch4-lr-edge`
    >>> lr_limits([[1, 1], [0, 2]])    # 编号为 0 的行 p = (1/2, 1/2)，μ_max = 1/2：2·4 / (2·0.5)
    array([ 8., inf])
    """
    C = np.asarray(as_counts(counts), dtype=np.float64)
    n = C.sum(axis=1)                                       # (V,) 各行的 n_i
    limits = np.full(C.shape[0], np.inf)                   # (V,)
    for i in np.flatnonzero(n > 0):
        p = C[i] / n[i]                                     # (V,) 这一行的相对频率
        top = np.linalg.eigvalsh(np.diag(p) - np.outer(p, p))[-1]
        if top > 1e-12:
            limits[i] = 2 * C.sum() / (n[i] * top)
    return limits


def sample_names(W, vocab, rng, n=1, temperature=1.0, max_len=50):
    """从 bigram 模型逐字采样 n 个词：从 '.' 出发，按 softmax(W[前一个字] / τ) 抽下一个字，抽到 '.' 结束。

    参数
    ----
    W : 形状 (V, V) 的分数（计数模型用 :func:`count_weights`）
    vocab : :func:`build_vocab` 给出的词表；rng : numpy.random.Generator
    n : 抽几个词；temperature : 温度 τ > 0；max_len : 一个词最多几个字，到了就截断

    讲解：:ref:`ch4-sampling`
    >>> W = count_weights([[0, 1], [1, 0]])          # '.' 后必是 a，a 后必是 '.'
    >>> sample_names(W, build_vocab(["a"]), np.random.default_rng(0), n=2)
    ['a', 'a']
    """
    W = _check_W(W)
    probs = _softmax(W, -1, check_temperature(temperature))   # (V, V)
    return sample_words(probs.__getitem__, check_vocab(vocab, first=BOUNDARY, size=W.shape[0], of="W"), rng, n, max_len)


def sample_words(next_probs, vocab, rng, n=1, max_len=50):
    """采样的循环：从 '.'（编号 0）出发，按 next_probs(前一个字的编号) 抽下一个字，抽到 '.' 或满 max_len 个字就停。

    :func:`sample_names` 与 :func:`labcode.idioms.sample_from_counts` 都用它，只是 next_probs 不同。

    参数
    ----
    next_probs : 函数，前一个字的编号 → 下一个字的概率（形状 (V,)）
    vocab : ``'.'`` 编号 0 的词表；rng : numpy.random.Generator
    n : 抽几个词；max_len : 一个词最多几个字，到了就截断

    讲解：:ref:`ch4-sampling`
    >>> sample_words(lambda i: [0.0, 1.0] if i == 0 else [1.0, 0.0], build_vocab(["a"]), np.random.default_rng(0))
    ['a']
    """
    check_vocab(vocab, first=BOUNDARY)
    check_callable(next_probs, "next_probs")
    check_rng(rng)
    n, max_len = check_int(n, "n", 0), check_int(max_len, "max_len", 1)
    check_size((n, max_len), "n 与 max_len", (n, max_len))   # 最多抽出 n·max_len 个字
    words = []
    for _ in range(n):
        ids, ix = [], 0
        while len(ids) < max_len:
            ix = int(rng.choice(len(vocab), p=next_probs(ix)))
            if ix == 0:
                break
            ids.append(ix)
        words.append(vocab.decode(ids))
    return words


# ---- 整条流水线，只写一次 ----

class BigramData(NamedTuple):
    """一份词表上的 bigram 数据：词、词表、训练对 (xs, ys) 与计数矩阵 C。

    讲解：:ref:`ch4-counts`
    """
    words: list
    vocab: Vocab
    xs: np.ndarray
    ys: np.ndarray
    counts: np.ndarray


def bigram_data(words, vocab=None):
    """第 4 章的流水线：``build_vocab → encode_pairs → count_matrix``，一步给出全部结果（:class:`BigramData`）。

    参数
    ----
    words : 非空的词列表
    vocab : 可选的词表（如 :func:`labcode.idioms.capped_vocab` 给出的）；默认 ``build_vocab(words)``

    讲解：:ref:`ch4-counts`
    >>> data = bigram_data(["aba"])
    >>> data.xs.tolist(), data.counts.sum()
    ([0, 1, 2, 1], np.int64(4))
    """
    words = check_words(words)
    vocab = build_vocab(words) if vocab is None else vocab
    xs, ys = encode_pairs(words, vocab)
    return BigramData(words, vocab, xs, ys, count_matrix(xs, ys, len(vocab)))


@functools.cache
def names_data():
    """names.txt 的 :class:`BigramData`（只读一次；数组是只读的，要改请先复制）。

    讲解：:ref:`ch4-data`
    >>> names_data().counts.shape
    (27, 27)
    """
    data = bigram_data(load_words())
    for arr in (data.xs, data.ys, data.counts):
        arr.setflags(write=False)
    return data


# ---- 关于本模块概念的参数检查 ----

def _check_W(W):
    return check_square(as_logits(W, "W"), "W", "W[i] 是前一个字 i 的分数")
