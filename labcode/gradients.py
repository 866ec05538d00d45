"""梯度：用中心差分核对手写的梯度，以及沿梯度走一步。

中心差分 (f(x + δ e_i) - f(x - δ e_i)) / (2δ) 的截断误差约为 δ² 量级，
舍入误差约为 (机器精度 ε_mach × |f|) / δ：差分步长 δ 太大、太小都不准，float64 下取 1e-5 左右合适。
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import (
    as_array,
    as_finite_array,
    as_logits,
    check_1d,
    check_callable,
    check_lr,
    check_overflow,
    check_positive,
    finite,
    short_repr,
)
from .probability import cross_entropy_grad


def _central_difference(f, x, delta):
    """逐个分量 i 求中心差分；x 被临时改动，算完一个分量就复原。"""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + delta
        f_plus = f(x)
        x[i] = old - delta
        f_minus = f(x)
        x[i] = old
        grad[i] = (f_plus - f_minus) / (2 * delta)
    return grad


def _scalar(value):
    """f 的返回值必须是有限的实数标量（0 维数组或只含一个元素的数组也可以）。"""
    arr = as_array(value, "f(x)")
    if arr.size != 1 or arr.dtype.kind not in "iuf":      # 整数或浮点数（布尔值、复数不算）
        raise TypeError(f"f(x) 必须返回一个实数标量，收到 dtype {arr.dtype}、形状 {arr.shape}：{short_repr(value)}")
    if not math.isfinite(arr.item()):
        raise ValueError(f"f(x) 必须返回有限数，收到 {short_repr(value)}")
    return arr.reshape(())


def numerical_grad(f, x, delta=1e-5):
    """用中心差分估计标量函数 f 在 x 处的梯度。

    参数
    ----
    f : 接收与 x 同形状数组、返回一个有限实数标量的函数
    x : 任意形状的实数数组；整数输入按 float64 处理。x 是 float32 时，
        扰动后的输入、函数值和差商都按 float32 存储，用来观察单精度的舍入误差
    delta : 差分步长 δ，正的有限实数，默认 1e-5

    返回
    ----
    与 x 同形状（同为 float32 或 float64）的数组；x 本身不被修改

    讲解：:ref:`ch2-finite-diff`
    >>> numerical_grad(lambda v: (v ** 2).sum(), [1.0, -2.0]).round(6)
    array([ 2., -4.])
    """
    check_callable(f, "f")
    delta = check_positive(delta, "delta", note="差分步长 δ")
    dtype = np.float32 if as_array(x, "x").dtype == np.float32 else np.float64
    x = np.array(as_finite_array(x, "x"), dtype=dtype, copy=True)   # 在自己的副本上扰动：调用者的 x 不变
    # f 每次拿到一份副本（它可以留着或改动自己的参数）；返回值先检查，再按 dtype 存下。
    return finite(lambda: _central_difference(lambda v: _scalar(f(v.copy())).astype(dtype), x, dtype(delta)),
                  "差商 (f(x + δ) - f(x - δ)) / (2δ)", "f")


class GradCheck(NamedTuple):
    """梯度检查的结果：最大绝对误差、相对误差（除以两个梯度中最大的绝对值）和数值梯度本身。

    讲解：:ref:`ch2-finite-diff`
    """
    max_abs_error: float
    max_rel_error: float
    numeric: np.ndarray


def gradcheck(f, grad, x, delta=1e-5):
    """把解析梯度 grad 与 f 在 x 处的中心差分梯度比较。

    参数
    ----
    f : 标量函数，同 :func:`numerical_grad`
    grad : 手写（解析）梯度，与 x 同形状的数组
    x : 求梯度的点
    delta : 差分步长 δ

    返回
    ----
    GradCheck(max_abs_error, max_rel_error, numeric)：max_rel_error 是最大绝对误差除以
    max(|grad| 的最大值, |numeric| 的最大值)，两者都为 0 时相对误差记为 0。
    grad 含 NaN 或 ±inf 时报错：检查绝不能把不是数的梯度报成“误差为 0”

    讲解：:ref:`ch2-finite-diff`
    >>> res = gradcheck(lambda v: (v ** 2).sum(), [2.0, -4.0], [1.0, -2.0])
    >>> res.max_abs_error < 1e-8, res.max_rel_error < 1e-9
    (True, True)
    """
    analytic = as_finite_array(grad, "grad")
    numeric = numerical_grad(f, x, delta)
    if analytic.shape != numeric.shape:
        raise ValueError(f"grad 的形状必须与 x 相同 {numeric.shape}，收到形状 {analytic.shape}")
    max_abs = float(finite(lambda: np.abs(analytic - numeric).max(initial=0.0), "grad 与数值梯度之差", "grad"))
    scale = max(float(np.abs(analytic).max(initial=0.0)), float(np.abs(numeric).max(initial=0.0)))
    return GradCheck(max_abs, max_abs / scale if scale > 0 else 0.0, numeric)


def step_size_errors(f, x, grad, deltas):
    """对每个差分步长 δ，求中心差分梯度与解析梯度 grad 的最大绝对误差。

    参数
    ----
    f, x : 同 :func:`numerical_grad`；x 是 float32 时整条曲线都按单精度计算
    grad : 与 x 同形状的解析梯度
    deltas : 一个或多个正的差分步长

    返回
    ----
    形状 (len(deltas),) 的 float64 数组

    讲解：:ref:`ch2-step-size`
    >>> errs = step_size_errors(lambda v: (v ** 3).sum(), [1.0], [3.0], [1e-1, 1e-3])
    >>> [f"{e:.0e}" for e in errs]                      # 截断误差恰为 δ²
    ['1e-02', '1e-06']
    """
    steps = np.atleast_1d(np.asarray(deltas, dtype=object))
    if steps.ndim != 1 or steps.size == 0:
        raise ValueError(f"deltas 必须是非空的一维差分步长序列，收到 {deltas!r}")
    deltas = [check_positive(d, f"deltas[{i}]", note="差分步长 δ") for i, d in enumerate(steps.tolist())]
    return np.array([gradcheck(f, grad, x, delta).max_abs_error for delta in deltas])


def gradient_step(logits, target, lr):
    """一步梯度下降，把一个位置的分数直接当作变量来更新：z ← z − η (p − e_y)。

    这是第 2 章的练习场景：分数本身就是被更新的变量，于是每一步分数之和不变，损失也不会上升。
    真实训练更新的是产生分数的参数，学习率太大时损失可以上升（第 4 章）。

    参数
    ----
    logits : 形状 (V,) 的分数 z
    target : 真实目标的编号 y
    lr : 学习率 η，正的有限实数

    返回
    ----
    形状 (V,) 的新分数

    讲解：:ref:`ch2-step`
    >>> gradient_step(np.log([2.0, 1.0, 0.5]), 1, 0.7).round(4)   # p = [4/7, 2/7, 1/7]
    array([ 0.2931,  0.5   , -0.7931])
    """
    z = check_1d(as_logits(logits), "logits", "一个位置的 V 个分数")
    lr = check_lr(lr)
    with np.errstate(over="ignore", invalid="ignore"):
        new = z - lr * cross_entropy_grad(z, target)
    check_overflow(new[np.isfinite(z)], "新分数 z − η (p − e_y)", "lr 与 logits")   # -inf 的分数仍是 -inf
    return new
