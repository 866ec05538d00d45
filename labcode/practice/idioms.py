"""第 5 章的“你来写”：检查读者写的插值模型的平均负对数似然（计数概率与加一的单字频率按 γ 混合）。"""
from __future__ import annotations

import numpy as np

from ..idioms import interpolated_nll
from . import hints
from .battery import Probe, coerce_number, draws, run
from .text import show

SEED = 6


def _interpolated_cases(seed):
    rng = draws(seed, SEED)

    def random_case(V, N, fill, gamma):
        C = rng.integers(1, 6, (V, V)) * (rng.random((V, V)) < fill)
        return C, rng.integers(V, size=N), rng.integers(V, size=N), gamma

    seen = rng.integers(1, 4, (4, 4)) * (rng.random((4, 4)) < 0.5)
    seen[np.arange(4), rng.integers(4, size=4)] += 1                   # 每一行至少一个计数
    rows, columns = np.nonzero(seen)
    picked = rng.integers(len(rows), size=8)                          # 只取见过的字对
    empty_row = np.array([[0, 3, 1], [2, 0, 1], [0, 0, 0]])           # 编号为 2 的行没有计数
    unseen_column = np.array([[1, 0, 2], [3, 0, 1], [1, 0, 0]])       # 编号为 1 的字一次也没作过后一个字
    return [
        # 前两项 len(xs) + V ≠ C.sum()：N 写成 len(xs) 与分母没加 V 这两种错误，从第一项起就分得清
        ("两个字的小例子：C = [[0, 2], [1, 1]]，γ = 0.5", np.array([[0, 2], [1, 1]]), np.array([0, 1, 1]),
         np.array([1, 0, 1]), 0.5),
        ("有一行没有计数：整个退回单字频率", empty_row, np.array([0, 2, 1, 2, 0]), np.array([1, 0, 2, 2, 2]), 0.3),
        ("有一个字从没作过后一个字", unseen_column, np.array([0, 2, 1]), np.array([1, 1, 0]), 0.7),
        ("γ = 0：只看单字频率", *random_case(5, 12, 0.5, 0.0)),
        ("随机计数（V = 6），30 个字对，γ = 0.8", *random_case(6, 30, 0.6, 0.8)),
        ("稀疏的大词表（V = 40），其中有没见过的字对", *random_case(40, 50, 0.05, 0.4)),
        ("γ = 1：只在见过的字对上，就是计数概率", seen, rows[picked], columns[picked], 1.0),
    ]


def check_interpolated_nll(fn, *, seed=None):
    """检查读者写的插值模型 ``fn(C, xs, ys, gamma)``，它返回字对 (xs, ys) 上的平均负对数似然（一个数）。

    C 形状 (V, V)，C[i, j] 是训练集里“前一个字是 i、后一个字是 j”的次数；xs、ys 形状 (N,)；0 ≤ gamma ≤ 1。
    p(y | x) = γ C_xy / n_x + (1 − γ) p̂(y)，p̂ = (C.sum(axis=0) + 1) / (C.sum() + V)；n_x = 0 的行只用 p̂(y)。
    seed 同 :func:`~labcode.practice.check_softmax`：不给时是固定的一组数，给一个非负整数就换一组随机的数。
    返回 :class:`~labcode.practice.report.CheckResult`；fn 不是函数时报 TypeError。

    >>> def my_interpolated_nll(C, xs, ys, gamma):
    ...     n = C.sum(axis=1)
    ...     unigram = (C.sum(axis=0) + 1) / (C.sum() + len(C))
    ...     w = np.where(n[xs] > 0, gamma, 0.0)
    ...     p = w * C[xs, ys] / np.maximum(n[xs], 1) + (1 - w) * unigram[ys]
    ...     return -np.mean(np.log(p))
    >>> check_interpolated_nll(my_interpolated_nll).passed
    True
    >>> def swapped(C, xs, ys, gamma):                      # γ 乘在了单字频率上
    ...     return my_interpolated_nll(C, xs, ys, 1 - gamma)
    >>> check_interpolated_nll(swapped).mistakes[0].key
    'gamma_swapped'
    """
    probes = [Probe(name, (C, xs, ys, gamma), interpolated_nll(C, xs, ys, gamma),
                    f"C = {show(C)}，xs = {show(xs)}，ys = {show(ys)}，gamma = {gamma}")
              for name, C, xs, ys, gamma in _interpolated_cases(seed)]
    return run("check_interpolated_nll", fn, probes, coerce=coerce_number, predict=_interpolated_mistakes,
               advice=hints.ADVICE_INTERPOLATED, params=("C", "xs", "ys", "gamma"),
               modified={"C": hints.C_MODIFIED, **hints.PAIRS_MODIFIED})


def _interpolated_mistakes(probe):
    """插值模型的常见错误写法，各自在这一项上算出的数。"""
    C, xs, ys, gamma = probe.args
    C = C.astype(np.float64)
    N, V, n = C.sum(), len(C), C.sum(axis=1)
    unigram = (C.sum(axis=0) + 1) / (N + V)

    def nll(uni, weight=gamma, empty_keeps_gamma=False):
        w = np.full(len(xs), weight) if empty_keeps_gamma else np.where(n[xs] > 0, weight, 0.0)
        return float(-np.mean(np.log(w * C[xs, ys] / np.maximum(n[xs], 1) + (1 - w) * uni[ys])))

    return [
        (hints.UNIGRAM_NOT_SMOOTHED, nll(C.sum(axis=0) / N)),
        (hints.UNIGRAM_FROM_ROWS, nll((n + 1) / (N + V))),
        (hints.UNIGRAM_NOT_NORMALISED, nll((C.sum(axis=0) + 1) / N)),
        (hints.UNIGRAM_N_FROM_PAIRS, nll((C.sum(axis=0) + 1) / (len(xs) + V))),
        (hints.GAMMA_SWAPPED, nll(unigram, 1 - gamma)),
        (hints.EMPTY_ROW_KEEPS_GAMMA, nll(unigram, empty_keeps_gamma=True)),
        (hints.INTERPOLATED_SUM_NOT_MEAN, probe.expected * len(xs)),
        (hints.INTERPOLATED_SIGN, -probe.expected),
    ]
