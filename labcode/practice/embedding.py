"""第 3 章的“你来写”：检查读者写的嵌入反向传播（重复的编号要累加）。"""
from __future__ import annotations

import numpy as np

from ..embedding import embedding_backward
from . import hints
from .battery import Probe, coerce_array, draws, run
from .text import show

SEED = 3


def _embedding_cases(seed):
    rng = draws(seed, SEED)

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


def check_embedding_backward(fn, *, seed=None):
    """检查读者写的嵌入反向 ``fn(dH, ids, vocab_size)``，它返回 dE（形状 (vocab_size, d)）。

    参数的顺序与 :func:`labcode.embedding_backward` 相同：dH 是上游梯度（形状 (T, d)），ids 是编号（形状 (T,)）。
    每个位置的 dH[t] 加到编号为 ids[t] 的行；同一个编号出现几次就加几次，没被读到的行是 0。
    seed 同 :func:`~labcode.practice.check_softmax`：不给时是书里固定的一组数，给一个非负整数就换一组随机编号和梯度。
    返回 :class:`~labcode.practice.report.CheckResult`；fn 不是函数时报 TypeError。

    >>> def my_backward(dH, ids, vocab_size):
    ...     dE = np.zeros((vocab_size, dH.shape[1]))
    ...     np.add.at(dE, ids, dH)
    ...     return dE
    >>> check_embedding_backward(my_backward).passed
    True
    >>> def overwrite(dH, ids, vocab_size):
    ...     dE = np.zeros((vocab_size, dH.shape[1]))
    ...     dE[ids] += dH
    ...     return dE
    >>> check_embedding_backward(overwrite).mistakes[0].title
    '重复的编号只留下了一份梯度'
    """
    probes = [Probe(name, (dH, ids, V), embedding_backward(dH, ids, V),
                    f"dH = {show(dH)}，ids = {show(ids)}，vocab_size = {V}")
              for name, ids, dH, V in _embedding_cases(seed)]
    return run("check_embedding_backward", fn, probes, coerce=_as_gradient_table, predict=_embedding_mistakes,
               explain_error=_embedding_error, advice=hints.ADVICE_EMBEDDING, params=("dH", "ids", "vocab_size"),
               modified={"ids": hints.IDS_MODIFIED, "dH": hints.DH_MODIFIED})


def _as_gradient_table(value, expected):
    """dE 与 coerce_array 的要求一样；形状不对时，说出它该是什么形状。"""
    value, problem = coerce_array(value, expected)
    if problem and problem.startswith("形状应为"):
        problem += "（dE 与嵌入表 E 同形状 (vocab_size, d)：每个编号一行，没被读到的行是 0）"
    return value, problem


def _embedding_mistakes(probe):
    dH, ids, V = probe.args
    wrong = [(hints.OVERWRITE, value) for value in kept_one_copy(ids, dH, V)]
    if len(ids) == V:                                    # X @ dH 没有转置，只有 T = V 时乘得起来
        wrong.append((hints.MISSING_TRANSPOSE, np.eye(V)[ids] @ dH))
    return wrong


def _embedding_error(probe, raised):
    dH, ids, V = probe.args
    error, message = raised.error, str(raised.error)
    # X @ dH 没有转置：X 是 (T, V)，只有 V = T 时才乘得起来
    if isinstance(error, ValueError) and "matmul" in message and len(ids) != V:
        return hints.MISSING_TRANSPOSE
    # dE = np.zeros_like(dH)：只有 T 行，编号大于等于 T 时越界
    if isinstance(error, IndexError) and f"with size {len(ids)}" in message and ids.max() >= len(ids):
        return hints.DE_SHAPE
    return None


def kept_one_copy(ids, rows, size):
    """重复编号的错误写法（dE[ids] += dH，或逐个赋值 dE[ids[t]] = dH[t]）会得到的结果：同一个编号出现几次，
    只留下一份。NumPy 不保证留下的是哪一份：给出留下最后一份和留下第一份的两种。"""
    last = np.zeros((size, rows.shape[1]))
    last[ids] = rows                                     # 重复的下标：最后一次写入留下
    first = np.zeros((size, rows.shape[1]))
    first[ids[::-1]] = rows[::-1]
    return [last, first]
