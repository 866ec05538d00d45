"""第 3 章的“你来写”：检查读者写的嵌入反向传播（重复的编号要累加）。"""
from __future__ import annotations

import numpy as np

from ..embedding import embedding_backward
from . import hints
from .battery import Probe, Raised, as_array, run, show, similar

SEED = 3


def _embedding_cases():
    rng = np.random.default_rng(SEED)

    def random_case(T, V, d, dtype=np.float64):
        return rng.integers(V, size=T), rng.normal(0.0, 1.0, (T, d)).astype(dtype), V

    book = (np.array([3, 5, 3]), np.array([[1.0, 2.0], [-1.0, 1.0], [3.0, -1.0]]), 6)
    return [
        ("书里的例子：ids = [3, 5, 3]", *book),
        ("没有重复的编号", np.array([0, 2, 1]), rng.normal(0.0, 1.0, (3, 3)), 4),
        ("只有一个位置", np.array([2]), np.array([[0.5, -1.5, 2.0]]), 3),
        ("同一个编号出现三次", np.array([1, 1, 1]), np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0]]), 3),
        ("随机编号，重复很多（T = 12，V = 5）", *random_case(12, 5, 3)),
        ("随机编号（T = 20，V = 27，d = 8）", *random_case(20, 27, 8)),
        ("float32 的 dH", *random_case(9, 4, 2, np.float32)),
    ]


def check_embedding_backward(fn):
    """检查读者写的嵌入反向 ``fn(ids, dH, vocab_size)``，它返回 dE（形状 (vocab_size, d)）。

    ids 是编号（形状 (T,)），dH 是上游梯度（形状 (T, d)）。
    每个位置的 dH[t] 加到编号为 ids[t] 的行；同一个编号出现几次就加几次，没被读到的行是 0。
    返回 :class:`~labcode.practice.report.CheckResult`；fn 不是函数时报 TypeError。

    >>> def my_backward(ids, dH, vocab_size):
    ...     dE = np.zeros((vocab_size, dH.shape[1]))
    ...     np.add.at(dE, ids, dH)
    ...     return dE
    >>> check_embedding_backward(my_backward).passed
    True
    >>> def overwrite(ids, dH, vocab_size):
    ...     dE = np.zeros((vocab_size, dH.shape[1]))
    ...     dE[ids] += dH
    ...     return dE
    >>> check_embedding_backward(overwrite).mistakes[0].title
    '重复的编号只留下了一份梯度'
    """
    probes = [Probe(name, (ids, dH, V), embedding_backward(dH, ids, V),
                    f"ids = {show(ids)}，dH = {show(dH)}，vocab_size = {V}")
              for name, ids, dH, V in _embedding_cases()]
    return run("check_embedding_backward", fn, probes, coerce=as_array, diagnose=_diagnose_embedding,
               advice=hints.ADVICE_EMBEDDING)


def _diagnose_embedding(probe, actual):
    ids, dH, V = probe.args
    if isinstance(actual, Raised):
        # X @ dH 没有转置：X 是 (T, V)，只有 V = T 时才乘得起来
        matmul = isinstance(actual.error, ValueError) and "matmul" in str(actual.error)
        return hints.MISSING_TRANSPOSE if matmul and len(ids) != V else None
    if len(ids) == V and similar(actual, np.eye(V)[ids] @ dH):
        return hints.MISSING_TRANSPOSE
    return hints.OVERWRITE if kept_one_copy(actual, ids, dH) else None


def kept_one_copy(actual, ids, rows):
    """重复编号的错误写法：每个被读到的行恰好等于它的某一份梯度（而不是几份之和），其余行为 0。"""
    for i in range(actual.shape[0]):
        mine = rows[ids == i]
        if len(mine) == 0:
            if not similar(actual[i], np.zeros_like(actual[i])):
                return False
        elif not any(similar(actual[i], row) for row in mine):
            return False
    return True
