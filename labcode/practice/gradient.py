"""第 2 章的“你来写”：检查读者写的交叉熵梯度 p - e_y、中心差分，和一批里只对有效目标取平均的损失。"""
from __future__ import annotations

import re

import numpy as np

from ..gradients import numerical_grad
from ..probability import cross_entropy, cross_entropy_grad, softmax
from . import hints
from .battery import ATOL, RTOL, Probe, coerce_array, coerce_number, draws, passes, run, several_numbers
from .probability import ONE_VECTOR, loss_mistakes, off_the_end, overflow_error, overflowed, random_targets
from .text import show

SEED = 2
IGNORE = -100
# 差分在 float32 里误差大得多（第 2 章“差分步长 δ 该取多大”），这里不像其他检查那样放过 float32。
DIFFERENCE_TOLERANCE = (f"np.allclose(实际, 期望, rtol={RTOL:g}, atol={ATOL:g})，期望值由 labcode.numerical_grad "
                        "用同一个 delta 在 float64 里算出")


# ---- 一个位置的梯度 ----

def _gradient_cases(seed):
    rng = draws(seed, SEED)
    return [
        ("书里的例子 [ln 2, 0, -ln 2]，y = 1", np.log([2.0, 1.0, 0.5]), 1),
        ("[0, 1, 2]，y = 0", np.array([0.0, 1.0, 2.0]), 0),
        ("分数全相等（V = 5）", np.zeros(5), 4),
        ("只有一个候选", np.array([2.0]), 0),
        *random_targets(rng),
        ("float32 输入", rng.normal(0.0, 3.0, 6).astype(np.float32), 2),
        ("第 2 章的大分数 [1000, 1001, 999]，y = 1", np.array([1000.0, 1001.0, 999.0]), 1),
        ("分数都很负 [-1000, -1001, -1002]，y = 2", np.array([-1000.0, -1001.0, -1002.0]), 2),
        ("目标的概率下溢成 0：[1000, -1000]，y = 1", np.array([1000.0, -1000.0]), 1),
        ("近乎确定且押对了 [0, 40]，y = 1", np.array([0.0, 40.0]), 1),
    ]


def check_cross_entropy_grad(fn, *, seed=None):
    """检查读者写的交叉熵梯度 ``fn(z, y)``，它返回 ∂ℓ/∂z = p - e_y（形状 (V,)）。

    z 是一个位置的分数（形状 (V,)），y 是真实目标的编号。seed 同 :func:`~labcode.practice.check_softmax`：
    不给时是书里固定的一组数，给一个非负整数就换一组新的随机分数。
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
              for name, z, y in _gradient_cases(seed)]
    return run("check_cross_entropy_grad", fn, probes, coerce=coerce_array, predict=_gradient_mistakes,
               explain_error=_gradient_error, advice=hints.ADVICE_GRAD, **ONE_VECTOR)


def _gradient_mistakes(probe):
    z, y = probe.args[0].astype(np.float64), probe.args[1]
    p, eye, e = softmax(z), np.eye(z.size), np.exp(z)
    e_y = eye[y]
    wrong = [(hints.MISSING_EY, p), (hints.GRAD_SIGN, -probe.expected), (hints.LABEL_SUBTRACTED, p - y),
             (hints.ALL_MINUS_ONE, p - 1), (hints.WRT_PROBABILITY, -e_y / p[y]),
             (hints.NO_MAX_SHIFT, e / e.sum() - e_y),
             (hints.GRAD_OFF_BY_ONE, p - eye[y - 1])]                     # y = 0 时 g[-1]：最后一个候选
    if y + 1 < z.size:                                                     # y + 1 = V 时读者的函数越界报错
        wrong.append((hints.GRAD_OFF_BY_ONE, p - eye[y + 1]))
    return wrong


def _gradient_error(probe, raised):
    z, y = probe.args
    if off_the_end(raised, y, z.size):
        return hints.GRAD_OFF_BY_ONE
    return overflow_error(hints.NO_MAX_SHIFT)(probe, raised)


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


def _mean_loss_cases(seed):
    rng = draws(seed, SEED + 1)

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


def check_mean_loss(fn, *, seed=None):
    """检查读者写的平均损失 ``fn(logits, targets)``，它返回有效目标上的平均交叉熵（一个数）。

    logits 形状 (N, V)，targets 形状 (N,)，目标为 -100 的位置不计入损失，也不计入分母。
    一批里一个有效目标都没有时，报错或返回 nan 都合理，这里不检查。
    参数（fn、seed）、返回与异常同 :func:`check_cross_entropy_grad`。

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
              for name, logits, targets in _mean_loss_cases(seed)]
    return run("check_mean_loss", fn, probes, coerce=coerce_number, predict=_mean_loss_mistakes,
               explain_error=_mean_loss_error, explain_shape=_mean_loss_shape, advice=hints.ADVICE_MEAN_LOSS,
               params=("logits", "targets"),
               modified={"logits": hints.LOGITS_MODIFIED, "targets": hints.TARGETS_MODIFIED})


def _mean_loss_shape(probe, value):
    """返回了每个位置的损失：.mean() 会把被忽略的位置算进分母，只有先挑出有效目标再平均才对。"""
    rows = several_numbers(value)
    if rows is None:
        return None
    logits, targets = probe.args
    valid = targets != IGNORE
    per_target = cross_entropy(logits.astype(np.float64), targets, reduction="none")
    if rows.shape == targets.shape and passes(rows[valid], per_target[valid]):
        return ("你返回的是每个位置的损失。平均只算有效目标：把有效位置的损失加起来，再除以有效目标的个数 valid.sum()"
                "（直接 .mean() 会把被忽略的位置也算进分母）")
    if rows.shape == (valid.sum(),) and passes(rows, per_target[valid]):
        return "你返回的是每个有效目标的损失，再取它们的平均 .mean() 就对了"
    return "平均损失是一个数：有效目标上的损失之和，除以有效目标的个数 valid.sum()"


def _mean_loss_mistakes(probe):
    logits, targets = probe.args[0].astype(np.float64), probe.args[1]
    valid = targets != IGNORE
    per_target = cross_entropy(logits, targets, reduction="none")      # (N,)，被忽略处为 0
    total, V = per_target.sum(), logits.shape[1]
    wrong = [(hints.DENOMINATOR_ALL, total / targets.size), (hints.SUM_NOT_MEAN, total)]
    if not valid.all():                                                 # -100 换成 0 以后，损失没有去掉
        as_zero = cross_entropy(logits, np.where(valid, targets, 0), reduction="none")
        wrong += [(hints.IGNORED_COUNTED, as_zero.sum() / valid.sum()), (hints.IGNORED_COUNTED, as_zero.mean())]
    if V >= 100 and not valid.all():                                    # -100 被当成编号为 V - 100 的候选
        as_index = cross_entropy(logits, np.where(valid, targets, V + IGNORE), reduction="none")
        wrong += [(hints.IGNORE_AS_INDEX, as_index.mean()), (hints.IGNORE_AS_INDEX, as_index.sum() / valid.sum()),
                  # 先拿 -100 取下标、再用掩码去掉这些位置：V ≥ 100 时不报错，结果也对（V < 100 时才报 IndexError）
                  (hints.IGNORE_AS_INDEX, probe.expected)]
    Z, ys = logits[valid], targets[valid]
    return wrong + [(hint, rows.mean()) for hint, rows in loss_mistakes(Z, ys, batch_max=(logits.max(), Z.max()))]


def _mean_loss_error(probe, raised):
    logits, targets = probe.args
    return raised_in_batch(raised, logits, targets != IGNORE, targets)


def raised_in_batch(raised, scores, rows, targets):
    """一批分数（形状 (N, V)）上抛出的错认得出的几种：拿 -100 当下标、目标下标 + 1 越界、少了 keepdims、没减最大值。

    rows 是有效的行（掩码），targets 是每一行的目标编号（形状 (N,)）。
    """
    error, message = raised.error, str(raised.error)
    N, V = scores.shape
    if not rows.all() and isinstance(error, IndexError) and ("-100" in message or "out of range" in message):
        return hints.IGNORE_AS_INDEX
    if off_the_end(raised, targets[rows], V):
        return hints.TARGET_OFF_BY_ONE
    # 形状 (n,) 的行最大值（或行和）与 (n, V) 的分数相减：NumPy 说 “shapes (n,V) (n,)”
    for n, v, m in re.findall(r"\((\d+), ?(\d+)\) \((\d+),\)", message if isinstance(error, ValueError) else ""):
        if n == m and int(v) == V and int(n) != V:
            return hints.KEEPDIMS
    return hints.NO_MAX_SHIFT_PROBS_LOSS if overflowed(raised, scores) else None


# ---- 中心差分 ----

def _numerical_grad_cases(seed):
    """(名字, f, x, delta, 报告里 f 的写法)：书里的例子、矩阵输入、整数输入，和让常见错误显出差别的大 delta。"""
    h, W = np.array([1.0, 2.0]), np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    rng = draws(seed, SEED + 2)
    a, A = rng.normal(0.0, 1.0, 10), rng.normal(0.0, 1.0, (2, 2, 2))
    return [
        ("书里的例子：交叉熵，z = [ln 2, 0, -ln 2]，y = 1", lambda v: cross_entropy(v, 1), np.log([2.0, 1.0, 0.5]),
         1e-5, "f(v) = 交叉熵(v, y = 1)"),
        ("delta 取 0.1：f(v) = Σ v³", lambda v: float(np.sum(v ** 3)), np.array([1.0, 2.0, -1.0]), 0.1, "f(v) = Σ v³"),
        ("f 只看编号为 0 的分量：f(v) = v[0]²", lambda v: float(v[0] ** 2), np.array([1.5, -2.0, 0.5]), 1e-3,
         "f(v) = v[0]²"),
        ("分量互相牵连：f(v) = (v[0]·v[1] + v[2])²", lambda v: float((v[0] * v[1] + v[2]) ** 2),
         np.array([1.0, 2.0, -0.5]), 1e-2, "f(v) = (v[0]·v[1] + v[2])²"),
        ("矩阵输入：第 2 章线性层的 W（形状 (2, 3)）", lambda M: cross_entropy(h @ M, 1), W, 1e-3,
         "f(W) = 交叉熵(h W, y = 1)，h = [1, 2]"),
        ("只有一个分量", lambda v: float(np.exp(v[0])), np.array([0.5]), 1e-4, "f(v) = exp(v[0])"),
        ("随机的 x（10 个分量）", lambda v: float(a @ np.sin(v)), rng.normal(0.0, 2.0, 10), 1e-4,
         "f(v) = Σ a_k sin(v_k)"),
        ("三维数组输入（形状 (2, 2, 2)）", lambda v: float(np.sum(A * v ** 2)), rng.normal(0.0, 1.0, (2, 2, 2)), 1e-3,
         "f(v) = Σ A ⊙ v²"),
        ("整数数组 x", lambda v: float(np.sum(v ** 2)), rng.choice([-3, -2, -1, 1, 2, 3], 3), 1e-5, "f(v) = Σ v²"),
    ]


def check_numerical_grad(fn, *, seed=None):
    """检查读者写的中心差分 ``fn(f, x, delta)``，它返回与 x 同形状的数组。

    编号为 k 的分量是 (f(x + δ e_k) - f(x - δ e_k)) / (2δ)，δ 就是传入的 delta；
    x 是任意形状的数组（整数数组也要处理：先转成浮点数），f 接收与 x 同形状的数组、返回一个数。
    期望值由 :func:`labcode.numerical_grad` 用同一个 delta 算出。seed 同 :func:`check_cross_entropy_grad`。
    返回 :class:`~labcode.practice.report.CheckResult`；fn 不是函数时报 TypeError。

    >>> def my_numerical_grad(f, x, delta=1e-5):
    ...     x = np.asarray(x, dtype=float)                # 整数数组里存不下 delta
    ...     grad = np.zeros_like(x)
    ...     for k in np.ndindex(x.shape):
    ...         step = np.zeros_like(x)
    ...         step[k] = delta
    ...         grad[k] = (f(x + step) - f(x - step)) / (2 * delta)
    ...     return grad
    >>> check_numerical_grad(my_numerical_grad).passed
    True
    >>> def forward(f, x, delta=1e-5):                   # 只往一侧走
    ...     return np.array([(f(x + delta * e) - f(x)) / delta for e in np.eye(x.size)])
    >>> check_numerical_grad(forward).mistakes[0].key
    'one_sided_difference'
    >>> def zeroes_x(f, x, delta=1e-5):                  # 梯度对了，却把 x 改掉了
    ...     grad = my_numerical_grad(f, x, delta)
    ...     x[...] = 0
    ...     return grad
    >>> check_numerical_grad(zeroes_x).mistakes[0].key
    'input_modified'
    """
    probes = [Probe(name, (f, x, delta), numerical_grad(f, x, delta), f"{formula}，x = {show(x)}，delta = {delta:g}")
              for name, f, x, delta, formula in _numerical_grad_cases(seed)]
    return run("check_numerical_grad", fn, probes, coerce=coerce_array, predict=_numerical_grad_mistakes,
               explain_error=_numerical_grad_error, explain_shape=_numerical_grad_shape,
               params=("f", "x", "delta"), modified={"x": CHANGES_X},
               advice=hints.ADVICE_NUMERICAL_GRAD, tolerance=DIFFERENCE_TOLERANCE, float32=False)


# 改动了 x 的写法：x 被改动了；没复原、在 x 本身上算一次、xp = x 没有 copy，这几种错误本身也会改动 x
CHANGES_X = (hints.X_MODIFIED, hints.NOT_RESTORED, hints.ONE_POINT_AT_X, hints.SHARED_ARRAY)


def _numerical_grad_mistakes(probe):
    f, x, delta = probe.args
    if x.dtype.kind != "f":                                # 整数的 step、x 存不下 delta：两次在同一点上算
        return [(hints.INTEGER_INPUT, np.zeros_like(probe.expected))]
    forward, backward = _one_sided(f, x, delta, +1), _one_sided(f, x, delta, -1)
    wrong = [(hints.ONE_SIDED, forward), (hints.ONE_SIDED, backward), (hints.HALF_DENOMINATOR, 2 * probe.expected),
             (hints.PRECEDENCE, probe.expected * delta ** 2), (hints.ALL_AT_ONCE, _all_at_once(f, x, delta)),
             (hints.ROWS_AT_ONCE, _by_rows(f, x, delta)), (hints.NOT_RESTORED, _not_restored(f, x, delta)),
             (hints.ONE_POINT_AT_X, forward / 2), (hints.ONE_POINT_AT_X, backward / 2),
             (hints.SHARED_ARRAY, np.zeros_like(probe.expected))]    # 两次函数值在同一点上算：差商全是 0
    return wrong + [(hints.DELTA_IGNORED, numerical_grad(f, x, other)) for other in (1e-4, 1e-5, 1e-6)
                    if other != delta]


def _numerical_grad_error(probe, raised):
    x = probe.args[1]
    # 整数数组上 x[k] += delta：NumPy 报 “Cannot cast ufunc 'add' output from float64 to int64”
    if x.dtype.kind != "f" and "cast" in str(raised.error):
        return hints.INTEGER_INPUT
    # 把矩阵压平（或只取一行）再交给 f：f 里的矩阵乘法对不上形状
    return hints.FLATTENED_INPUT if x.ndim > 1 else None


def _numerical_grad_shape(probe, value):
    """整数 x 上返回了整数数组（grad = np.zeros_like(x)）：认出“整数数组里存不下 delta”。"""
    x = probe.args[1]
    integer = isinstance(value, np.ndarray) and value.dtype.kind in "iub"
    return hints.INTEGER_INPUT if integer and x.dtype.kind != "f" else None


def _unit(x, k, delta):
    step = np.zeros_like(x)
    step[k] = delta
    return step


def _one_sided(f, x, delta, side):
    """只往一侧走：side = +1 是 (f(x + δe_k) - f(x))/δ，side = -1 是 (f(x) - f(x - δe_k))/δ。"""
    return np.array([side * (f(x + side * _unit(x, k, delta)) - f(x)) / delta
                     for k in np.ndindex(x.shape)]).reshape(x.shape)


def _all_at_once(f, x, delta):
    """所有分量一起扰动：每个分量都得到同一个数（沿全 1 方向的变化率）。"""
    return np.full(x.shape, (f(x + delta) - f(x - delta)) / (2 * delta))


def _by_rows(f, x, delta):
    """只沿第一个轴循环：x[k] 是一整行（或一整块），一次扰动整块，差商填满这一块。"""
    grad = np.zeros_like(x)
    for k in range(len(x)):
        step = _unit(x, k, delta)
        grad[k] = (f(x + step) - f(x - step)) / (2 * delta)
    return grad


def _not_restored(f, x, delta):
    """x_k 先加 δ、再减 2δ，算完不复原：后面的分量都在挪过的点上求差分。"""
    x, grad = x.copy(), np.zeros_like(x)
    for k in np.ndindex(x.shape):
        x[k] += delta
        plus = f(x.copy())
        x[k] -= 2 * delta
        grad[k] = (plus - f(x.copy())) / (2 * delta)
    return grad
