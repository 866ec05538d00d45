"""第 4 章的“你来写”：检查读者写的 bigram 损失与梯度，逐条写法（logits = W[xs]）和计数写法（只用 C）。"""
from __future__ import annotations

import numpy as np

from ..bigram import count_matrix, count_weights, loss_and_grad, loss_and_grad_from_counts
from ..embedding import _embedding_backward, embedding_backward
from ..probability import _logsumexp, cross_entropy, log_softmax, softmax
from . import hints
from .battery import ANY, Probe, coerce_loss_and_grad, draws, passes, run, several_numbers
from .embedding import kept_one_copy
from .gradient import raised_in_batch
from .probability import loss_mistakes
from .text import show

SEED = 4


def _bigram_cases(seed):
    rng = draws(seed, SEED)

    def random_case(V, N, scale=1.0):
        return rng.normal(0.0, scale, (V, V)), rng.integers(V, size=N), rng.integers(V, size=N)

    big, under = random_case(4, 10), random_case(4, 10)
    big[0][2] = 1000.0 + np.round(4 * big[0][2]) / 4     # 编号为 2 的一行分数都很大（float32 也能精确表示）
    big[1][:3] = 2                                       # 让这一行确实被用到
    under[0][1] = [1000.0, -1000.0, 0.0, 1.0]            # 编号为 1 的一行：目标 1 的概率下溢
    under[1][:2], under[2][:2] = 1, 1
    W32, xs32, ys32 = random_case(5, 12)
    other = draws(seed, SEED + 2)                        # 后来加的一项用自己的随机数：前面各项的数不变
    apart = (np.round(4 * other.normal(0.0, 1.0, (4, 4))) / 4 + np.array([[700.0], [-100.0], [-100.0], [-100.0]]),
             np.concatenate([[0, 1], other.integers(4, size=8)]), other.integers(4, size=10))
    return [
        ("书里的“aba”：W = 0，V = 3", np.zeros((3, 3)), np.array([0, 1, 2, 1]), np.array([1, 2, 1, 0])),
        ("随机 W（V = 5），20 个训练对", *random_case(5, 20)),
        ("随机 W（V = 27），60 个训练对", *random_case(27, 60, scale=2.0)),
        ("只有一个训练对", *random_case(4, 1)),
        ("float32 的 W", W32.astype(np.float32), xs32, ys32),
        ("有一行分数都很大（加了 1000）", *big),
        ("有一个目标的概率下溢成 0", *under),
        # exp(700) 还没上溢，没减最大值也对；整批只减一个最大值时，低 800 的行全部下溢成 0：分得清这两种错误
        ("两行相差 800：编号为 0 的行在 700 附近，其余在 -100 附近", *apart),
    ]


PAIRS = {"params": ("W", "xs", "ys"), "modified": {"W": hints.W_MODIFIED, **hints.PAIRS_MODIFIED}}


def check_bigram_loss_and_grad(fn, *, seed=None):
    """检查读者写的 bigram 损失与梯度 ``fn(W, xs, ys)``，它返回 (平均负对数似然, dW)。

    W 形状 (V, V)，训练对 xs、ys 形状 (N,)。
    分数是 W[xs]（编号为 i 的行是“前一个字是 i”时的分数），损失是 N 个训练对上 -ln p 的平均，dW 与 W 同形状。
    seed 同 :func:`~labcode.practice.check_softmax`：不给时是书里固定的一组数，给一个非负整数就换一组随机的 W 和训练对。
    返回 :class:`~labcode.practice.report.CheckResult`；fn 不是函数时报 TypeError。

    >>> def my_bigram(W, xs, ys):
    ...     N = len(xs)
    ...     logits = W[xs]                                   # (N, V)
    ...     s = logits - logits.max(axis=1, keepdims=True)
    ...     logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    ...     loss = -logp[np.arange(N), ys].mean()
    ...     dlogits = np.exp(logp)
    ...     dlogits[np.arange(N), ys] -= 1
    ...     dW = np.zeros_like(W, dtype=float)
    ...     np.add.at(dW, xs, dlogits / N)
    ...     return loss, dW
    >>> check_bigram_loss_and_grad(my_bigram).passed
    True
    >>> def wrong_axis(W, xs, ys):                           # 沿 axis=0 归一化：每一列之和为 1
    ...     P = np.exp(W) / np.exp(W).sum(axis=0)
    ...     return -np.log(P[xs, ys]).mean(), np.zeros_like(W)
    >>> check_bigram_loss_and_grad(wrong_axis).mistakes[0].key
    'wrong_axis'
    """
    probes = [Probe(name, (W, xs, ys), loss_and_grad(W, xs, ys),
                    f"W = {show(W)}，xs = {show(xs)}，ys = {show(ys)}")
              for name, W, xs, ys in _bigram_cases(seed)]
    return run("check_bigram_loss_and_grad", fn, probes, coerce=coerce_loss_and_grad, predict=_bigram_mistakes,
               explain_error=_bigram_error, explain_shape=_bigram_loss_shape, advice=hints.ADVICE_BIGRAM, **PAIRS)


def _bigram_loss_shape(probe, value):
    """loss 返回了一串数：只有它正是每个训练对的损失时，才让读者取平均。"""
    rows = several_numbers(value[0]) if isinstance(value, (tuple, list)) and len(value) == 2 else None
    if rows is None:
        return None
    W, xs, ys = probe.args
    if rows.shape == xs.shape and passes(rows, cross_entropy(W[xs].astype(np.float64), ys, reduction="none")):
        return "你返回的是每个训练对的损失，loss 是它们的平均：取 .mean()"
    return "loss 是一个数：N 个训练对上 -ln p 的平均"


def _bigram_mistakes(probe):
    """(loss, dW) 的常见错误写法；只写错了损失的，梯度不管（ANY），只写错了梯度的，损失不管。"""
    W, xs, ys = probe.args
    W = W.astype(np.float64)
    (loss_ref, dW_ref), N, V = probe.expected, len(xs), W.shape[0]
    onehot = np.eye(V)[ys]                                                   # (N, V)
    columns = softmax(W, axis=0)[xs]                                         # 每一列归一化的 W
    across = softmax(W[xs], axis=0)                                          # 沿这一批归一化
    probs = softmax(W[xs])                                                   # (N, V)
    swapped, transposed = loss_and_grad(W, ys, xs), loss_and_grad(W.T, xs, ys)
    wrong = [(hints.SWAPPED_PAIRS, swapped), (hints.W_COLUMNS, (transposed[0], transposed[1].T))]
    logp = log_softmax(W[xs], axis=1)                                        # (N, V)
    wrong += [(hint, (loss, ANY)) for hint, loss in [
        (hints.WRONG_AXIS, -np.log(columns[np.arange(N), ys]).mean()),
        (hints.WRONG_AXIS, -np.log(across[np.arange(N), ys]).mean()),
        (hints.BIGRAM_SUM_NOT_MEAN, loss_ref * N), (hints.LOSS_SIGN, -loss_ref),
        (hints.ALL_TARGETS_PER_ROW, -logp[:, ys].mean()),                    # (N, N)：每行取了全部目标
        (hints.ALL_TARGETS_PER_ROW, -np.log(probs[:, ys]).mean())]]
    wrong += [(hint, (rows.mean(), ANY)) for hint, rows in loss_mistakes(W[xs], ys, batch_max=(W[xs].max(), W.max()))]
    wrong += [(hint, (ANY, dW)) for hint, dW in [
        (hints.MISSING_EY, embedding_backward(probs / N, xs, V)), (hints.GRAD_SIGN, -dW_ref),
        (hints.NOT_DIVIDED_BY_N, dW_ref * N), (hints.WRONG_AXIS, embedding_backward((columns - onehot) / N, xs, V)),
        (hints.GRAD_ROWS_BY_YS, embedding_backward((probs - onehot) / N, ys, V)),
        (hints.WRONG_AXIS, embedding_backward((across - onehot) / N, xs, V)),
        *((hints.BIGRAM_OVERWRITE, dW) for dW in kept_one_copy(xs, (probs - onehot) / N, V))]]
    C, p = count_matrix(xs, ys, V), softmax(W, axis=1)                       # 计数写法的两种梯度错误
    n = C.sum(axis=1)
    wrong += [(hints.COUNTS_MISSING_N, (ANY, (p - C) / N)), (hints.COUNTS_N_COLUMNS, (ANY, (n[None, :] * p - C) / N)),
              (hints.COUNTS_N_COLUMNS, (ANY, (C.sum(axis=0, keepdims=True) * p - C) / N))]
    e = np.exp(W[xs])                  # 没减最大值的 softmax：可能是 nan（predict 在 safely 里运行，不报警告）
    unshifted = (e / e.sum(axis=1, keepdims=True) - onehot) / N
    return wrong + [(hints.NO_MAX_SHIFT, (ANY, _embedding_backward(unshifted, xs, V)))]   # 核心函数：nan 照样累加


def _bigram_error(probe, raised):
    W, xs, ys = probe.args
    return raised_in_batch(raised, W[xs], np.ones(len(xs), dtype=bool), ys)    # 每一行都有效


def _optimum_case(seed):
    """W = ln C（第 4 章的计数最优点，梯度为 0）：没出现过的组合是 -inf，约定 0·ln 0 = 0 要由代码做到。
    每一行至少有一个计数（全是 -inf 的行没有定义），也至少有一个 0。"""
    rng = draws(seed, SEED + 3)
    V = 5
    C = rng.integers(1, 5, (V, V)) * (rng.random((V, V)) < 0.6)
    seen, unseen = rng.permutation(V), rng.integers(1, V, V)
    C[np.arange(V), seen] += 1
    C[np.arange(V), (seen + unseen) % V] = 0
    return "W = ln C：计数的最优点（零计数的格子是 -inf）", count_weights(C), C


def _lopsided_case(seed):
    """行和不等于列和的 C（“aba”的 C 是对称的）：n 乘到了列上、或者 n 是列和，从第一项起就看得出来。"""
    W = np.round(4 * draws(seed, SEED + 4).normal(0.0, 1.0, (3, 3))) / 4
    return "行和不等于列和的小例子（V = 3）", W, np.array([[0, 2, 1], [1, 0, 3], [0, 1, 0]])


def check_counts_loss_and_grad(fn, *, seed=None):
    """检查读者写的计数写法 ``fn(W, C)``，它只用计数矩阵 C 返回 (平均负对数似然, dW)。

    W 与 C 形状都是 (V, V)，C[i, j] 是“前一个字是 i、后一个字是 j”的次数；N = C.sum()，n_i = C[i].sum()，
    损失是 -(1/N) Σ C_ij ln p_ij（约定 0·ln 0 = 0），dW = (n_i p_i - C_i)/N。检查用的 W 与训练对和
    :func:`check_bigram_loss_and_grad` 相同，只是先数成 C；另有一项是 W = ln C，零计数的格子上 W 是 -inf。
    seed 同 :func:`check_bigram_loss_and_grad`。
    返回 :class:`~labcode.practice.report.CheckResult`；fn 不是函数时报 TypeError。

    >>> def my_counts(W, C):
    ...     N, n = C.sum(), C.sum(axis=1)
    ...     s = W - W.max(axis=1, keepdims=True)
    ...     logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    ...     loss = -(C * np.where(C > 0, logp, 0.0)).sum() / N       # 0·ln 0 = 0（W = ln C 处 logp 有 -inf）
    ...     return loss, (n[:, None] * np.exp(logp) - C) / N
    >>> check_counts_loss_and_grad(my_counts).passed
    True
    >>> def without_n(W, C):                                 # 梯度少乘了 n_i
    ...     loss, _ = my_counts(W, C)
    ...     p = np.exp(W - W.max(axis=1, keepdims=True))
    ...     return loss, (p / p.sum(axis=1, keepdims=True) - C) / C.sum()
    >>> check_counts_loss_and_grad(without_n).mistakes[0].key
    'counts_missing_n'
    """
    cases = [_lopsided_case(seed),
             *((name, W, count_matrix(xs, ys, W.shape[0])) for name, W, xs, ys in _bigram_cases(seed)),
             _optimum_case(seed)]
    probes = [Probe(name, (W, C), loss_and_grad_from_counts(W, C), f"W = {show(W)}，C = {show(C)}")
              for name, W, C in cases]
    return run("check_counts_loss_and_grad", fn, probes, coerce=coerce_loss_and_grad, predict=_counts_mistakes,
               advice=hints.ADVICE_COUNTS, params=("W", "C"), modified={"W": hints.W_MODIFIED, "C": hints.C_MODIFIED})


def _counts_mistakes(probe):
    """计数写法 (loss, dW) 的常见错误写法（与 :func:`_bigram_mistakes` 一样，只写错一半的，另一半不管）。

    W 里可以有 -inf（W = ln C 那一项）：这里直接用 NumPy 算，整列都是 -inf 时得到 nan，不报错。
    """
    W, C = probe.args
    W, C = W.astype(np.float64), C.astype(np.float64)
    (loss_ref, dW_ref), N, n = probe.expected, C.sum(), C.sum(axis=1)
    logp, log_columns = W - _logsumexp(W, 1)[:, None], W - _logsumexp(W, 0)[None, :]
    p, columns = np.exp(logp), np.exp(log_columns)
    e = np.exp(W)                                                            # 没减最大值
    return [
        (hints.COUNTS_LOG_OF_UNDERFLOW, (-(C * np.log(p)).sum() / N, ANY)),   # 概率下溢成 0 再取对数
        (hints.BIGRAM_SUM_NOT_MEAN, (loss_ref * N, ANY)), (hints.LOSS_SIGN, (-loss_ref, ANY)),
        (hints.COUNTS_NO_MAX_SHIFT, ((n @ np.log(e.sum(axis=1)) - (C * W).sum()) / N, ANY)),
        (hints.COUNTS_NO_MAX_SHIFT, (-(C * np.log(e / e.sum(axis=1, keepdims=True))).sum() / N, ANY)),
        (hints.COUNTS_ZERO_TIMES_INF, (-(C * logp).sum() / N, ANY)),         # 0 × (-inf)，ln p 本身是稳定的
        (hints.COUNTS_ZERO_TIMES_INF, ((n @ _logsumexp(W, 1) - (C * W).sum()) / N, ANY)),  # C * W：同一个 0 × (-inf)
        (hints.COUNTS_WRONG_AXIS, (-(C * log_columns).sum() / N, ANY)),
        (hints.COUNTS_MISSING_N, (ANY, (p - C) / N)),
        (hints.COUNTS_N_COLUMNS, (ANY, (n[None, :] * p - C) / N)),               # n 的形状是 (V,)
        (hints.COUNTS_N_COLUMNS, (ANY, (C.sum(axis=0, keepdims=True) * p - C) / N)),   # 列和，形状 (1, V)
        (hints.NOT_DIVIDED_BY_N, (ANY, dW_ref * N)), (hints.COUNTS_GRAD_SIGN, (ANY, -dW_ref)),
        (hints.COUNTS_WRONG_AXIS, (ANY, (n[:, None] * columns - C) / N)),
        (hints.COUNTS_NO_MAX_SHIFT, (ANY, (n[:, None] * e / e.sum(axis=1, keepdims=True) - C) / N)),
    ]
