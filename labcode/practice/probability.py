"""第 1 章的“你来写”：检查读者写的 softmax、logsumexp 和交叉熵。"""
from __future__ import annotations

import numpy as np

from ..probability import cross_entropy, log_softmax, logsumexp, softmax
from . import hints
from .battery import Probe, coerce_array, coerce_number, draws, passes, run, several_numbers
from .text import show

SEED = 1  # 随机分数的种子：不给 seed 时每次检查都是同样几组数，报告逐字相同
# |z| 超过它时，没减最大值的 exp 在 float32 里就会上溢（float64 里是约 709.78）。
EXTREME = 80.0


def random_targets(rng):
    """随机分数（V = 5、10、50，每个分数取自 N(0, 3²)）各一行，各带一个随机目标：交叉熵和梯度的检查共用。"""
    return [(f"随机分数（V = {V}）", rng.normal(0.0, 3.0, V), int(rng.integers(V))) for V in (5, 10, 50)]


def _score_vectors(seed):
    """(名字, 分数 z)：普通的、随机的、float32 的，最后是书里讲过的极端分数。"""
    rng = draws(seed, SEED)
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


# 读者的函数只接收分数 z（以及目标的编号 y）：z 不许被原地改动
ONE_VECTOR = {"params": ("z", "y"), "modified": {"z": hints.Z_MODIFIED}}


# ---- softmax ----

def check_softmax(fn, *, seed=None):
    """检查读者写的 softmax：``fn(z)`` 接收一维分数数组 z（形状 (V,)），返回同形状的概率。

    参数
    ----
    fn : 读者的函数
    seed : 随机的几项用哪一组数。不给时是书里固定的一组（报告每次逐字相同）；给一个非负整数就换一组新的，
        同一个 seed 总是同一组（评分时每个学生一组，见 :mod:`labcode.grade`）

    返回
    ----
    :class:`~labcode.practice.report.CheckResult`：``.passed`` 与每一项 ``.cases``；在 Jupyter 里显示成报告

    异常
    ----
    TypeError : fn 不是函数；ValueError、TypeError : seed 不是非负整数

    >>> def my_softmax(z):
    ...     e = np.exp(z - z.max())
    ...     return e / e.sum()
    >>> check_softmax(my_softmax).passed
    True
    >>> result = check_softmax(lambda z: np.exp(z) / np.exp(z).sum())   # 没有先减最大值
    >>> result.passed, result.mistakes[0].title
    (False, '没有先减最大值')
    """
    probes = [Probe(name, (z,), softmax(z), f"z = {show(z)}") for name, z in _score_vectors(seed)]
    return run("check_softmax", fn, probes, coerce=coerce_array, predict=_softmax_mistakes,
               explain_error=overflow_error(hints.NO_MAX_SHIFT), advice=hints.ADVICE_SOFTMAX, **ONE_VECTOR)


def _softmax_mistakes(probe):
    z = probe.args[0].astype(np.float64)
    e, from_min, from_mean = np.exp(z), np.exp(z - z.min()), np.exp(z - z.mean())
    return [(hints.NO_MAX_SHIFT, e / e.sum()), (hints.DIVIDE_BY_SUM, z / z.sum()),
            (hints.SELF_SHIFT, np.full(z.shape, 1 / z.size)), (hints.MIN_SHIFT, from_min / from_min.sum()),
            (hints.MEAN_SHIFT, from_mean / from_mean.sum()),
            (hints.NOT_NORMALISED, np.exp(z - z.max())), (hints.NOT_NORMALISED, e), (hints.LOG_PROBS, log_softmax(z))]


def overflow_error(hint):
    """explain_error：没减最大值、用 math.exp 逐个算的写法在极端分数上抛出的错（上溢、除以 0、log 0）就是 hint。"""
    def explain(probe, raised):
        return hint if overflowed(raised, probe.args[0]) else None
    return explain


def overflowed(raised, scores):
    """抛出的错是不是 math.exp 上溢、除以 0 或 log 0，而且分数里有绝对值很大的数。"""
    error = raised.error
    domain = isinstance(error, ValueError) and "math domain" in str(error)
    big = np.abs(np.asarray(scores, dtype=np.float64)).max() > EXTREME
    return big and (isinstance(error, (OverflowError, ZeroDivisionError)) or domain)


# ---- logsumexp ----

def check_logsumexp(fn, *, seed=None):
    """检查读者写的 logsumexp：``fn(z)`` 接收一维分数数组 z，返回一个数 ln Σ_k exp(z_k)。

    返回 float、np.float64 或 0 维数组都可以。参数（fn、seed）、返回与异常同 :func:`check_softmax`。

    >>> def my_logsumexp(z):
    ...     m = z.max()
    ...     return m + np.log(np.sum(np.exp(z - m)))
    >>> check_logsumexp(my_logsumexp).passed
    True
    >>> result = check_logsumexp(lambda z: np.log(np.sum(np.exp(z - z.max()))))   # 忘了加回 m
    >>> result.passed, result.mistakes[0].key
    (False, 'lse_max_not_added_back')
    """
    vectors = _score_vectors(seed)
    vectors.insert(1, ("书里的例子 [ln 2, 0, -ln 2]", np.log([2.0, 1.0, 0.5])))
    # 减最小值会上溢、减平均值不会：分得清这两种错误
    vectors.append(("相差 1000 [0, 1000]", np.array([0.0, 1000.0])))
    probes = [Probe(name, (z,), float(logsumexp(z)), f"z = {show(z)}") for name, z in vectors]
    return run("check_logsumexp", fn, probes, coerce=coerce_number, predict=_logsumexp_mistakes,
               explain_error=overflow_error(hints.NO_MAX_SHIFT_LSE), explain_shape=_logsumexp_shape,
               advice=hints.ADVICE_LOGSUMEXP, **ONE_VECTOR)


def _logsumexp_shape(probe, value):
    """返回了一串数（多半是 log 和 sum 的次序反了，或者漏了 sum）：它们的和、平均都不是 logsumexp。"""
    if several_numbers(value) is None:
        return None
    return "logsumexp 是一个数：先把 exp(z - m) 的各项加起来，再取对数、加回 m：m + np.log(np.sum(np.exp(z - m)))"


def _logsumexp_mistakes(probe):
    z = probe.args[0].astype(np.float64)
    return [(hints.LSE_MAX_NOT_ADDED, np.log(np.sum(np.exp(z - z.max())))),
            (hints.NO_MAX_SHIFT_LSE, np.log(np.sum(np.exp(z)))),
            *((hint, m + np.log(np.sum(np.exp(z - m)))) for hint, m in ((hints.MIN_SHIFT, z.min()),
                                                                         (hints.MEAN_SHIFT, z.mean())))]


# ---- 交叉熵 ----

def _loss_cases(seed):
    """(名字, z, y)：普通的、随机的、float32 的，最后是极端分数（押对、押错、概率下溢）。"""
    rng = draws(seed, SEED + 1)
    return [
        ("书里的例子 [ln 2, 0, -ln 2]，y = 1", np.log([2.0, 1.0, 0.5]), 1),
        ("[0, 1, 2]，目标是最大的分数", np.array([0.0, 1.0, 2.0]), 2),
        ("[0, 1, 2]，目标是最小的分数", np.array([0.0, 1.0, 2.0]), 0),
        ("分数全相等（V = 27）", np.zeros(27), 5),
        ("只有一个候选", np.array([3.5]), 0),
        # 目标和它两边的候选都不是分数最高的：减最大分数与下标错一位的写法在这里得数不同
        ("最高分不在目标旁边 [0.5, 1, -1, 2, 0, 3]，y = 2", np.array([0.5, 1.0, -1.0, 2.0, 0.0, 3.0]), 2),
        *random_targets(rng),
        ("float32 输入", rng.normal(0.0, 3.0, 6).astype(np.float32), 4),
        ("分数都很大 [1000, 1001, 1002]", np.array([1000.0, 1001.0, 1002.0]), 0),
        ("分数都很负 [-1000, -1001, -1002]", np.array([-1000.0, -1001.0, -1002.0]), 2),
        ("近乎确定且押对了 [0, 40]，y = 1", np.array([0.0, 40.0]), 1),
        ("近乎确定却押错了 [0, 40]，y = 0", np.array([0.0, 40.0]), 0),
        ("目标的概率下溢成 0：[1000, -1000]，y = 1", np.array([1000.0, -1000.0]), 1),
    ]


def check_cross_entropy(fn, *, seed=None):
    """检查读者写的交叉熵 ``fn(z, y)``，它返回损失 -ln p_y（一个数）。

    z 是一个位置的分数（形状 (V,)），y 是真实目标的编号。参数（fn、seed）、返回与异常同 :func:`check_softmax`。

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
              for name, z, y in _loss_cases(seed)]
    return run("check_cross_entropy", fn, probes, coerce=coerce_number, predict=_cross_entropy_mistakes,
               explain_error=_cross_entropy_error, explain_shape=_cross_entropy_shape,
               advice=hints.ADVICE_CROSS_ENTROPY, **ONE_VECTOR)


def _cross_entropy_mistakes(probe):
    z, y = probe.args[0].astype(np.float64), probe.args[1]
    expected = probe.expected
    wrong = [(hints.LOSS_SIGN, -expected), (hints.LOG_BASE, expected / np.log(2)),
             (hints.LOG_BASE, expected / np.log(10)), (hints.TARGET_SCORE_MAX, logsumexp(z) - z.max()),
             (hints.TARGET_SCORE_SIGN, logsumexp(z) + z[y])]
    return wrong + [(hint, rows[0]) for hint, rows in loss_mistakes(z[None, :], np.array([y]))]


def _cross_entropy_error(probe, raised):
    z, y = probe.args
    return off_the_end(raised, y, z.size) or overflow_error(hints.NO_MAX_SHIFT_PROBS_LOSS)(probe, raised)


def off_the_end(raised, ys, size):
    """z[y + 1] 的写法在 y 是最后一个编号时越界：NumPy 报 IndexError “index V is out of bounds … with size V”。"""
    return hints.TARGET_OFF_BY_ONE if isinstance(raised.error, IndexError) and np.any(np.asarray(ys) == size - 1) \
        and f"index {size} is out of bounds" in str(raised.error) else None


def _cross_entropy_shape(probe, value):
    """返回了一串数：只有它编号为 y 的一项正是损失时，才让读者取 [y]（.sum()、.mean() 得到的都是错的损失）。"""
    z, y = probe.args
    row = several_numbers(value)
    if row is None:
        return None
    if row.shape == z.shape and passes(row[y], probe.expected):
        return "你返回的是每个候选的 -ln p，损失只要真实目标那一项：在末尾取 [y]（不是 .sum() 或 .mean()）"
    return "损失是一个数，只看真实目标 y：loss = logsumexp(z) - z[y]"


# 读者在对数里常加的小常数：10 的负几次方，或 float64、float32 的机器精度。
EPSILONS = (*(10.0 ** -k for k in range(3, 17)), np.finfo(np.float64).eps, np.finfo(np.float32).eps)


def loss_mistakes(Z, ys, batch_max=()):
    """书里讲过的数值错误算出的每一行损失：[(Hint, 形状 (n,) 的损失)]，分数 Z 形状 (n, V)，目标 ys 形状 (n,)。

    没减最大值（先算概率再取对数，或直接 log Σ exp）、先算概率再取对数（概率下溢成 0）、目标的下标错一位
    （y - 1 或 y + 1）、对数里加 eps；
    batch_max 里的每个数是整批的最大值：每一行都减它（而不是各行自己的最大值）的写法。
    """
    r = np.arange(len(ys))
    e = np.exp(Z)
    p = softmax(Z, axis=1)
    lse = logsumexp(Z, axis=1)
    found = [(hints.NO_MAX_SHIFT_PROBS_LOSS, -np.log(e[r, ys] / e.sum(axis=1))),
             (hints.NO_MAX_SHIFT_LOSS, np.log(e.sum(axis=1)) - Z[r, ys]),
             (hints.LOG_OF_UNDERFLOW, -np.log(p[r, ys])),
             (hints.TARGET_OFF_BY_ONE, lse - Z[r, ys - 1])]                 # ys - 1 = -1：从末尾倒着数
    if (ys + 1 < Z.shape[1]).all():                                         # ys + 1 = V 时读者的函数越界报错
        found.append((hints.TARGET_OFF_BY_ONE, lse - Z[r, ys + 1]))
    found += [(hints.EPS_IN_LOG, -np.log(p[r, ys] + eps)) for eps in EPSILONS]
    for m in batch_max:
        s = Z - m
        es = np.exp(s)
        found += [(hints.GLOBAL_MAX, np.log(es.sum(axis=1)) - s[r, ys]),
                  (hints.GLOBAL_MAX, -np.log(es[r, ys] / es.sum(axis=1)))]
    return found
