"""第 1 章的“你来写”：检查读者写的 softmax、logsumexp 和交叉熵。"""
from __future__ import annotations

import numpy as np

from ..probability import cross_entropy, logsumexp, softmax
from . import hints
from .battery import Probe, Raised, as_array, as_number, finite, run, show, similar

SEED = 1  # 随机分数的种子：每次检查都是同样几组数，报告逐字相同
# |z| 超过它时，没减最大值的 exp 在 float32 里就会上溢（float64 里是约 709.78）。
EXTREME = 80.0


def _score_vectors():
    """(名字, 分数 z)：普通的、随机的、float32 的，最后是书里讲过的极端分数。"""
    rng = np.random.default_rng(SEED)
    return [
        ("书里的例子 [0, 1, 2]", np.array([0.0, 1.0, 2.0])),
        ("分数全相等", np.zeros(4)),
        ("只有一个候选", np.array([3.5])),
        ("有正有负、总和为 0", np.array([-1.0, 0.0, 1.0])),
        ("随机分数（V = 7）", rng.normal(0.0, 3.0, 7)),
        ("随机分数（V = 27）", rng.normal(0.0, 3.0, 27)),
        ("随机分数（V = 100）", rng.normal(0.0, 5.0, 100)),
        ("float32 输入", rng.normal(0.0, 3.0, 6).astype(np.float32)),
        ("分数都很大 [1000, 1001, 1002]", np.array([1000.0, 1001.0, 1002.0])),
        ("分数都很负 [-1000, -1001, -1002]", np.array([-1000.0, -1001.0, -1002.0])),
        ("跨度很大 [-1000, 0, 1000]", np.array([-1000.0, 0.0, 1000.0])),
        ("近乎确定 [0, 40]", np.array([0.0, 40.0])),
    ]


# ---- softmax ----

def check_softmax(fn):
    """检查读者写的 softmax：``fn(z)`` 接收一维分数数组 z（形状 (V,)），返回同形状的概率。

    参数
    ----
    fn : 读者的函数

    返回
    ----
    :class:`~labcode.practice.report.CheckResult`：``.passed`` 与每一项 ``.cases``；在 Jupyter 里显示成报告

    异常
    ----
    TypeError : fn 不是函数

    >>> def my_softmax(z):
    ...     e = np.exp(z - z.max())
    ...     return e / e.sum()
    >>> check_softmax(my_softmax).passed
    True
    >>> result = check_softmax(lambda z: np.exp(z) / np.exp(z).sum())   # 没有先减最大值
    >>> result.passed, result.mistakes[0].title
    (False, '没有先减最大值')
    """
    probes = [Probe(name, (z,), softmax(z), f"z = {show(z)}") for name, z in _score_vectors()]
    return run("check_softmax", fn, probes, coerce=as_array, diagnose=_diagnose_softmax,
               advice=hints.ADVICE_SOFTMAX)


def _diagnose_softmax(probe, actual):
    if isinstance(actual, Raised):
        return None
    z = probe.args[0].astype(np.float64)
    wrong = [(hints.DIVIDE_BY_SUM, z / z.sum()), (hints.SELF_SHIFT, np.full(z.shape, 1 / z.size)),
             (hints.MIN_SHIFT, np.exp(z - z.min()) / np.exp(z - z.min()).sum()),
             (hints.NOT_NORMALISED, np.exp(z - z.max())), (hints.NOT_NORMALISED, np.exp(z))]
    for hint, value in wrong:
        if similar(actual, value):
            return hint
    if not finite(actual) and np.abs(z).max() > EXTREME:
        return hints.NO_MAX_SHIFT
    return None


# ---- logsumexp ----

def check_logsumexp(fn):
    """检查读者写的 logsumexp：``fn(z)`` 接收一维分数数组 z，返回一个数 ln Σ_k exp(z_k)。

    返回 float、np.float64 或 0 维数组都可以。参数、返回与异常同 :func:`check_softmax`。

    >>> def my_logsumexp(z):
    ...     m = z.max()
    ...     return m + np.log(np.sum(np.exp(z - m)))
    >>> check_logsumexp(my_logsumexp).passed
    True
    >>> result = check_logsumexp(lambda z: np.log(np.sum(np.exp(z - z.max()))))   # 忘了加回 m
    >>> result.passed, result.mistakes[0].key
    (False, 'lse_max_not_added_back')
    """
    vectors = _score_vectors()
    vectors.insert(1, ("书里的例子 [ln 2, 0, -ln 2]", np.log([2.0, 1.0, 0.5])))
    probes = [Probe(name, (z,), float(logsumexp(z)), f"z = {show(z)}") for name, z in vectors]
    return run("check_logsumexp", fn, probes, coerce=as_number, diagnose=_diagnose_logsumexp,
               advice=hints.ADVICE_LOGSUMEXP)


def _diagnose_logsumexp(probe, actual):
    if isinstance(actual, Raised):
        return None
    z = probe.args[0].astype(np.float64)
    if similar(actual, np.log(np.sum(np.exp(z - z.max())))):
        return hints.LSE_MAX_NOT_ADDED
    if not finite(actual) and np.abs(z).max() > EXTREME:
        return hints.NO_MAX_SHIFT_LSE
    return None


# ---- 交叉熵 ----

def _loss_cases():
    """(名字, z, y)：普通的、随机的、float32 的，最后是极端分数（押对、押错、概率下溢）。"""
    rng = np.random.default_rng(SEED + 1)
    cases = [
        ("书里的例子 [ln 2, 0, -ln 2]，y = 1", np.log([2.0, 1.0, 0.5]), 1),
        ("[0, 1, 2]，目标是最大的分数", np.array([0.0, 1.0, 2.0]), 2),
        ("[0, 1, 2]，目标是最小的分数", np.array([0.0, 1.0, 2.0]), 0),
        ("分数全相等（V = 27）", np.zeros(27), 5),
        ("只有一个候选", np.array([3.5]), 0),
    ]
    for V in (5, 10, 50):
        cases.append((f"随机分数（V = {V}）", rng.normal(0.0, 3.0, V), int(rng.integers(V))))
    cases += [
        ("float32 输入", rng.normal(0.0, 3.0, 6).astype(np.float32), 4),
        ("分数都很大 [1000, 1001, 1002]", np.array([1000.0, 1001.0, 1002.0]), 0),
        ("分数都很负 [-1000, -1001, -1002]", np.array([-1000.0, -1001.0, -1002.0]), 2),
        ("近乎确定且押对了 [0, 40]，y = 1", np.array([0.0, 40.0]), 1),
        ("近乎确定却押错了 [0, 40]，y = 0", np.array([0.0, 40.0]), 0),
        ("目标的概率下溢成 0：[1000, -1000]，y = 1", np.array([1000.0, -1000.0]), 1),
    ]
    return cases


def check_cross_entropy(fn):
    """检查读者写的交叉熵 ``fn(z, y)``，它返回损失 -ln p_y（一个数）。

    z 是一个位置的分数（形状 (V,)），y 是真实目标的编号。参数、返回与异常同 :func:`check_softmax`。

    >>> def my_cross_entropy(z, y):
    ...     m = z.max()
    ...     return m + np.log(np.sum(np.exp(z - m))) - z[y]
    >>> check_cross_entropy(my_cross_entropy).passed
    True
    >>> def with_eps(z, y):
    ...     p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    ...     return -np.log(p[y] + 1e-9)
    >>> check_cross_entropy(with_eps).mistakes[0].title
    '在对数里加了一个小常数 eps'
    """
    probes = [Probe(name, (z, y), float(cross_entropy(z, y)), f"z = {show(z)}，y = {y}")
              for name, z, y in _loss_cases()]
    return run("check_cross_entropy", fn, probes, coerce=as_number, diagnose=_diagnose_cross_entropy,
               advice=hints.ADVICE_CROSS_ENTROPY)


def _diagnose_cross_entropy(probe, actual):
    if isinstance(actual, Raised):
        return None
    z, expected = probe.args[0].astype(np.float64), probe.expected
    for hint, value in ((hints.LOSS_SIGN, -expected), (hints.LOG_BASE, expected / np.log(2)),
                        (hints.LOG_BASE, expected / np.log(10))):
        if similar(actual, value):
            return hint
    return loss_mistake(actual, expected, extreme=np.abs(z).max() > EXTREME, worst=expected)


# 目标的损失超过它时，p_y = e^(-损失) 在 float64 里下溢成 0（约 744.4）。
UNDERFLOW_LOSS = -np.log(np.finfo(np.float64).smallest_subnormal)


def loss_mistake(actual, expected, *, extreme, worst):
    """损失算错时，认出书里讲过的三种数值错误：没减最大值、先算概率再取对数、对数里加 eps。

    extreme : 输入里有绝对值很大的分数；worst : 这一项里最大的单个目标损失 -ln p_y
    （超过 UNDERFLOW_LOSS 时 p_y 下溢成 0，超过 14 时 p_y < 1e-6，加 eps 就会明显改变损失）。
    """
    if not finite(actual):
        if extreme and actual == np.inf and worst > UNDERFLOW_LOSS:
            return hints.LOG_OF_UNDERFLOW
        return hints.NO_MAX_SHIFT_LOSS if extreme else None
    if worst > 14 and 0 <= actual < expected - 1e-3:
        return hints.EPS_IN_LOG
    return None
