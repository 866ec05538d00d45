"""第 2 章的“你来写”：检查读者写的交叉熵梯度 p - e_y，和一批里只对有效目标取平均的损失。"""
from __future__ import annotations

import numpy as np

from ..probability import cross_entropy, cross_entropy_grad, softmax
from . import hints
from .battery import Probe, Raised, as_array, as_number, finite, run, show, similar
from .probability import EXTREME, loss_mistake

SEED = 2
IGNORE = -100


# ---- 一个位置的梯度 ----

def _gradient_cases():
    rng = np.random.default_rng(SEED)
    cases = [
        ("书里的例子 [ln 2, 0, -ln 2]，y = 1", np.log([2.0, 1.0, 0.5]), 1),
        ("[0, 1, 2]，y = 0", np.array([0.0, 1.0, 2.0]), 0),
        ("分数全相等（V = 5）", np.zeros(5), 4),
        ("只有一个候选", np.array([2.0]), 0),
    ]
    for V in (5, 10, 50):
        cases.append((f"随机分数（V = {V}）", rng.normal(0.0, 3.0, V), int(rng.integers(V))))
    cases += [
        ("float32 输入", rng.normal(0.0, 3.0, 6).astype(np.float32), 2),
        ("第 2 章的大分数 [1000, 1001, 999]，y = 1", np.array([1000.0, 1001.0, 999.0]), 1),
        ("分数都很负 [-1000, -1001, -1002]，y = 2", np.array([-1000.0, -1001.0, -1002.0]), 2),
        ("目标的概率下溢成 0：[1000, -1000]，y = 1", np.array([1000.0, -1000.0]), 1),
        ("近乎确定且押对了 [0, 40]，y = 1", np.array([0.0, 40.0]), 1),
    ]
    return cases


def check_cross_entropy_grad(fn):
    """检查读者写的交叉熵梯度 ``fn(z, y)``，它返回 ∂ℓ/∂z = p - e_y（形状 (V,)）。

    z 是一个位置的分数（形状 (V,)），y 是真实目标的编号。
    返回 :class:`~labcode.practice.report.CheckResult`；fn 不是函数时报 TypeError。

    >>> def my_grad(z, y):
    ...     e = np.exp(z - z.max())
    ...     g = e / e.sum()
    ...     g[y] -= 1
    ...     return g
    >>> check_cross_entropy_grad(my_grad).passed
    True
    >>> def flipped(z, y):
    ...     return -my_grad(z, y)
    >>> check_cross_entropy_grad(flipped).mistakes[0].title
    '梯度的符号写反了'
    """
    probes = [Probe(name, (z, y), cross_entropy_grad(z, y), f"z = {show(z)}，y = {y}")
              for name, z, y in _gradient_cases()]
    return run("check_cross_entropy_grad", fn, probes, coerce=as_array, diagnose=_diagnose_gradient,
               advice=hints.ADVICE_GRAD)


def _diagnose_gradient(probe, actual):
    if isinstance(actual, Raised):
        return None
    z, y = probe.args[0].astype(np.float64), probe.args[1]
    p = softmax(z)
    for hint, value in ((hints.MISSING_EY, p), (hints.GRAD_SIGN, -probe.expected), (hints.LABEL_SUBTRACTED, p - y)):
        if similar(actual, value):
            return hint
    if not finite(actual) and np.abs(z).max() > EXTREME:
        return hints.NO_MAX_SHIFT
    return None


# ---- 一批的平均损失 ----

def _denominator_example():
    """第 2 章的分母例子：五个有效目标的损失是 1、1.5、2.5、3.5、1.5（和为 10），最后一个位置被忽略。

    两个候选时，目标分数为 0、另一个为 ln(e^L - 1)，损失恰好是 L。
    """
    losses = np.array([1.0, 1.5, 2.5, 3.5, 1.5])
    targets = np.array([1, 0, 1, 0, 1, IGNORE])
    logits = np.zeros((6, 2))                            # (N, V)
    for i, (L, t) in enumerate(zip(losses, targets[:5], strict=True)):
        logits[i, 1 - t] = np.log(np.expm1(L))
    return logits, targets


def _mean_loss_cases():
    rng = np.random.default_rng(SEED + 1)

    def random_batch(n, V, ignored=(), scale=3.0):
        targets = rng.integers(V, size=n)
        targets[list(ignored)] = IGNORE
        return rng.normal(0.0, scale, (n, V)), targets

    book = (np.zeros((6, 6)), np.array([3, 5, 2, 4, 2, IGNORE]))
    big, under, garbage = random_batch(4, 3), random_batch(4, 3), random_batch(4, 3, ignored=[1])
    big[0][2] = 1000.0 + np.round(4 * big[0][2]) / 4      # 编号为 2 的一行分数都很大（float32 也能精确表示）
    under[0][1] = [1000.0, -1000.0, 0.0]                  # 编号为 1 的一行：目标的概率下溢
    under[1][1] = 1
    garbage[0][1] = [1000.0, -1000.0, 5.0]                # 被忽略的一行分数极端，不该影响结果
    float32 = random_batch(7, 5, ignored=[3])
    return [
        ("书里的一批：分数全为 0，V = 6，最后一个目标被忽略", *book),
        ("书里的分母例子：总损失 10，5 个有效目标", *_denominator_example()),
        ("没有被忽略的目标", *random_batch(8, 5)),
        ("开头和中间有被忽略的目标", *random_batch(10, 7, ignored=[0, 4, 5])),
        ("只有一个有效目标", *random_batch(4, 4, ignored=[0, 1, 3])),
        ("候选多于 100 个（V = 120）", *random_batch(6, 120, ignored=[2])),
        ("float32 的 logits", float32[0].astype(np.float32), float32[1]),
        ("有一行分数都很大（加了 1000）", *big),
        ("有一个目标的概率下溢成 0", *under),
        ("被忽略的一行分数极端", *garbage),
    ]


def check_mean_loss(fn):
    """检查读者写的平均损失 ``fn(logits, targets)``，它返回有效目标上的平均交叉熵（一个数）。

    logits 形状 (N, V)，targets 形状 (N,)，目标为 -100 的位置不计入损失，也不计入分母。
    一批里一个有效目标都没有时，报错或返回 nan 都合理，这里不检查。
    参数、返回与异常同 :func:`check_cross_entropy_grad`。

    >>> def my_mean_loss(logits, targets):
    ...     valid = targets != -100
    ...     z, y = logits[valid], targets[valid]
    ...     m = z.max(axis=1)
    ...     lse = m + np.log(np.exp(z - m[:, None]).sum(axis=1))
    ...     return np.mean(lse - z[np.arange(len(y)), y])
    >>> check_mean_loss(my_mean_loss).passed
    True
    >>> def all_positions(logits, targets):          # 分母用了全部位置
    ...     valid = targets != -100
    ...     return my_mean_loss(logits, targets) * valid.sum() / len(targets)
    >>> check_mean_loss(all_positions).mistakes[0].key
    'denominator_counts_ignored'
    """
    probes = [Probe(name, (logits, targets), cross_entropy(logits, targets),
                    f"logits = {show(logits)}，targets = {show(targets)}")
              for name, logits, targets in _mean_loss_cases()]
    return run("check_mean_loss", fn, probes, coerce=as_number, diagnose=_diagnose_mean_loss,
               advice=hints.ADVICE_MEAN_LOSS)


def _diagnose_mean_loss(probe, actual):
    logits, targets = probe.args[0].astype(np.float64), probe.args[1]
    valid = targets != IGNORE
    if isinstance(actual, Raised):
        return hints.IGNORE_AS_INDEX if isinstance(actual.error, IndexError) and not valid.all() else None
    per_target = cross_entropy(logits, targets, reduction="none")      # (N,)，被忽略处为 0
    total, V = per_target.sum(), logits.shape[1]
    wrong = [(hints.DENOMINATOR_ALL, total / targets.size), (hints.SUM_NOT_MEAN, total)]
    if not valid.all():                                                 # -100 换成 0 以后，损失没有去掉
        as_zero = cross_entropy(logits, np.where(valid, targets, 0), reduction="none")
        wrong += [(hints.IGNORED_COUNTED, as_zero.sum() / valid.sum()), (hints.IGNORED_COUNTED, as_zero.mean())]
    if V >= 100 and not valid.all():                                    # -100 被当成编号为 V - 100 的候选
        as_index = cross_entropy(logits, np.where(valid, targets, V + IGNORE), reduction="none")
        wrong += [(hints.IGNORE_AS_INDEX, as_index.mean()), (hints.IGNORE_AS_INDEX, as_index.sum() / valid.sum())]
    for hint, value in wrong:
        if similar(actual, value):
            return hint
    return loss_mistake(actual, probe.expected, extreme=np.abs(logits).max() > EXTREME,
                        worst=per_target.max())
