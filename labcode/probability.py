"""从分数到概率再到损失：softmax、logsumexp、熵与交叉熵（及其梯度）。

约定
----
* 候选轴默认是最后一轴，形状写作 ``(..., V)``，V 为候选个数（词表大小）。
* ``-inf`` 分数表示"这个候选不可能出现"（屏蔽）：它的概率恰好为 0；
  若它正是真实目标，交叉熵为 ``+inf``（-ln 0），这是真实值而不是溢出。
* ``+inf`` 与 NaN 分数没有定义良好的概率，一律报错；整行都是 ``-inf`` 也报错。
* 所有计算先减去每行最大值，因此任何有限的 float64 分数都得到有限的概率和损失
  （除非损失本身超出 float64 的表示范围，约 1.8e308，那时报错而不是返回 inf）。
"""
from __future__ import annotations

import numpy as np

from ._validate import as_array, as_logits, as_probs, check_choice, check_int, check_temperature

REDUCTIONS = ("mean", "sum", "none")


# ---- 核心函数：数学本身，参数已经检查过 ----

def _shifted(z, axis):
    """每行减去最大值：结果 <= 0，最大处恰为 0。"""
    # 差距超出 float64 范围时结果是 -inf，它的指数恰好是正确的 0。
    with np.errstate(over="ignore"):
        return z - np.max(z, axis=axis, keepdims=True)


def _softmax(z, axis=-1, temperature=1.0):
    """softmax 的计算本身：平移，除以温度 τ，取指数，归一化。"""
    # 先平移再除以 τ：τ 很小时也不会有哪一项变成 +inf。
    with np.errstate(over="ignore"):
        e = np.exp(_shifted(z, axis) / temperature)
    return e / np.sum(e, axis=axis, keepdims=True)


def _logsumexp(z, axis=-1):
    """ln Σ_k exp(z_k)：提出最大值 m，剩下的和在 1 与 V 之间。"""
    m = np.max(z, axis=axis, keepdims=True)
    with np.errstate(over="ignore"):
        rest = np.sum(np.exp(z - m), axis=axis, keepdims=True)
        out = m + np.log(rest)
    return np.squeeze(out, axis=axis)


def _log_softmax(z, axis=-1):
    """ln softmax(z) = 平移后的分数 − ln(平移后的分母)。"""
    s = _shifted(z, axis)
    return s - np.log(np.sum(np.exp(s), axis=axis, keepdims=True))


def _target_losses(logp, ids, ignore_index):
    """逐位置的损失 −ln p_y；目标等于 ignore_index 的位置记 0。"""
    # (...) 有效位置的掩码
    valid = ids != ignore_index
    # 忽略处换成合法编号 0，只为能取值：ignore_index 从不当下标
    safe = np.where(valid, ids, 0)[..., None]
    picked = np.take_along_axis(logp, safe, axis=-1)[..., 0]
    # 忽略处的损失恰为 0
    return np.where(valid, -picked, 0.0)


# ---- 公共函数：先检查参数，再调用核心函数 ----

def logsumexp(logits, axis=-1):
    """稳定地计算 ln Σ_k exp(z_k)。

    参数
    ----
    logits : 形状 (..., V, ...) 的实数数组
    axis : 求和的候选轴，默认最后一轴

    返回
    ----
    去掉 ``axis`` 后形状的数组（一维输入时是 float）

    它对 z 的梯度正是 softmax(z)：所以交叉熵 logsumexp(z) − z_y 的梯度是 p − e_y（第 2 章）。
    参见 ``scipy.special.logsumexp``：它把最大的一项单独提出来，其余各项之和 s 用 log1p(s) 加回去，s 很小时更准。

    讲解：:ref:`ch1-logsumexp`
    >>> float(logsumexp([1000.0, 1000.0]))  # 直接 exp(1000) 会溢出
    1000.6931471805599
    """
    return _logsumexp(as_logits(logits, axis=axis), axis)


def softmax(logits, axis=-1, temperature=1.0):
    """把分数变成概率：p_i = exp(z_i / τ) / Σ_k exp(z_k / τ)。

    参数
    ----
    logits : 形状 (..., V) 的实数数组（候选轴可由 ``axis`` 指定）
    axis : 候选轴，默认最后一轴
    temperature : 温度 τ，正的有限实数；τ < 1 更尖锐，τ > 1 更平坦

    返回
    ----
    与 ``logits`` 同形状的概率，沿 ``axis`` 之和为 1

    讲解：:ref:`ch1-softmax`、:ref:`ch1-temperature`
    >>> softmax([0.0, 1.0, 2.0]).round(8)
    array([0.09003057, 0.24472847, 0.66524096])
    >>> softmax([1000.0, -1000.0]).tolist()
    [1.0, 0.0]
    """
    z = as_logits(logits, axis=axis)
    return _softmax(z, axis, check_temperature(temperature))


def log_softmax(logits, axis=-1):
    """稳定地计算 ln softmax(z) = z - logsumexp(z)，不会出现 ln 0 = -inf（除非分数本身是 -inf）。

    讲解：:ref:`ch1-extreme`
    >>> log_softmax([1000.0, -1000.0]).tolist()
    [0.0, -2000.0]
    """
    return _log_softmax(as_logits(logits, axis=axis), axis)


def entropy(probs, axis=-1):
    """分布自身的熵 H(p) = -Σ p_i ln p_i（约定 0·ln 0 = 0），单位是奈特。

    参数
    ----
    probs : 形状 (..., V) 的概率，非负且沿 ``axis`` 之和为 1

    返回
    ----
    去掉 ``axis`` 后形状的数组（一维输入时是 float）

    讲解：:ref:`ch1-entropy`
    >>> round(float(entropy([0.25, 0.25, 0.25, 0.25])), 6)  # 均匀分布：ln 4
    1.386294
    """
    p, axis = as_probs(probs, axis)
    return -np.sum(p * np.log(np.where(p > 0, p, 1.0)), axis=axis)   # p = 0 处是 0·ln 1 = 0


def _parse_targets(z, targets, ignore_index):
    """检查 targets，返回 (ids, valid, q)：整数目标给 ids（忽略值原样保留）与有效掩码；概率目标给 q。"""
    check_int(ignore_index, "ignore_index")
    t = as_array(targets, "targets")
    if t.shape == z.shape and t.dtype != object:
        q, _ = as_probs(t, -1, name="targets")
        return None, np.ones(z.shape[:-1], dtype=bool), q
    if t.dtype == bool or not np.issubdtype(t.dtype, np.integer):
        raise TypeError(
            f"targets 必须是整数候选编号（形状 {z.shape[:-1]}）或与 logits 同形状 {z.shape} 的概率分布，"
            f"收到 dtype {t.dtype}、形状 {t.shape}")
    if t.shape != z.shape[:-1]:
        raise ValueError(
            f"整数 targets 的形状必须等于 logits.shape[:-1] = {z.shape[:-1]}，收到形状 {t.shape}")
    vocab_size = z.shape[-1]
    valid = t != ignore_index
    bad = valid & ((t < 0) | (t >= vocab_size))
    if bad.any():
        raise IndexError(
            f"targets 必须在 [0, {vocab_size}) 内或等于 ignore_index={ignore_index}，"
            f"收到越界值 {np.unique(t[bad])[:5].tolist()}")
    return t, valid, None


def _target_weights(ids, valid, q, vocab_size):
    """每个位置的目标分布 (..., V)：整数目标是独热行 e_y（被忽略的位置全 0），软目标就是 q。"""
    if q is not None:
        return q
    return ((np.arange(vocab_size) == ids[..., None]) & valid[..., None]).astype(np.float64)


def _count_valid(valid, ignore_index):
    '''"mean" 的分母：有效目标的个数 N；一个都没有时报错，绝不悄悄除以 1。'''
    n = int(valid.sum())
    if n == 0:
        raise ValueError(
            f"reduction='mean' 需要至少一个有效目标，但全部 {valid.size} 个目标都等于 ignore_index={ignore_index}")
    return n


def cross_entropy(logits, targets, *, ignore_index=-100, reduction="mean"):
    """交叉熵损失 -ln p_y = logsumexp(z) - z_y（直接由分数计算，数值稳定）。

    参数
    ----
    logits : 形状 (..., V) 的分数，候选轴在最后
    targets : 真实目标的整数编号，形状 (...)（等于 ignore_index 的位置不计入损失）；
        或与 logits 同形状 (..., V) 的概率分布 q（软目标，损失 -Σ q_i ln p_i）
    ignore_index : 被忽略的目标值，默认 -100
    reduction : "mean"（只对 N 个有效目标取平均）、"sum" 或 "none"（逐位置，忽略处为 0）

    返回
    ----
    "mean"/"sum" 返回 float；"none" 返回形状 (...) 的数组

    讲解：:ref:`ch1-loss`、:ref:`ch2-batch`
    >>> z = np.log([2.0, 1.0, 0.5])        # 分数 [ln 2, 0, -ln 2]
    >>> round(cross_entropy(z, 1), 6)       # -ln(2/7) = ln(7/2)
    1.252763
    >>> cross_entropy([[1000.0, -1000.0]], [1])
    2000.0
    """
    z = as_logits(logits)
    ids, valid, q = _parse_targets(z, targets, ignore_index)
    check_choice(reduction, "reduction", REDUCTIONS)
    logp = _log_softmax(z, -1)                                    # (..., V)
    if q is None:
        losses = _target_losses(logp, ids, ignore_index)          # (...)
    else:
        losses = -np.sum(np.where(q > 0, q * logp, 0.0), axis=-1)
    # 有限的分数却得到 -inf 的对数概率：这一行的取值跨度超出了 float64。这个候选计入损失时报错；
    # 分数本身是 -inf（被屏蔽的候选）时，+inf 的损失是真实值。
    overflow = np.isneginf(logp) & np.isfinite(z)
    if overflow.any() and (overflow & (_target_weights(ids, valid, q, z.shape[-1]) > 0)).any():
        raise ValueError(f"logits 的取值跨度超出 float64 范围，损失无法表示：{np.array2string(z, threshold=8)}")
    if reduction == "none":
        return losses
    total = float(np.sum(losses))
    return total if reduction == "sum" else total / _count_valid(valid, ignore_index)


def cross_entropy_grad(logits, targets, *, ignore_index=-100, reduction="mean"):
    """交叉熵对分数的梯度：每个有效位置是 p - e_y（软目标为 p - q）。

    参数与 :func:`cross_entropy` 相同。"mean" 时再除以有效目标个数 N；
    被忽略的位置梯度恰为 0；"none" 与 "sum" 给出逐位置损失之和的梯度。

    返回
    ----
    与 ``logits`` 同形状 (..., V) 的数组

    讲解：:ref:`ch2-derivation`
    >>> g = cross_entropy_grad(np.log([2.0, 1.0, 0.5]), 1)
    >>> (g * 7).round(12).tolist()          # [4/7, -5/7, 1/7]
    [4.0, -5.0, 1.0]
    """
    z = as_logits(logits)
    ids, valid, q = _parse_targets(z, targets, ignore_index)
    check_choice(reduction, "reduction", REDUCTIONS)
    weights = _target_weights(ids, valid, q, z.shape[-1])         # (..., V)
    grad = np.where(valid[..., None], _softmax(z) - weights, 0.0)  # 被忽略的位置恰为 +0.0
    return grad / _count_valid(valid, ignore_index) if reduction == "mean" else grad


def perplexity(logits, targets, *, ignore_index=-100):
    """困惑度 e^ℓ：平均损失 ℓ 的指数，可以理解为模型“等效地在多少个候选之间犹豫”。

    参数与 :func:`cross_entropy` 相同（取 "mean"，只对有效目标平均）。分数全相等时恰好是 V；
    真实目标是被屏蔽（分数 -inf）的候选时是 ``inf``。

    返回
    ----
    float，不小于 1

    讲解：:ref:`ch1-perplexity`
    >>> round(perplexity(np.zeros(27), 0), 9)   # 均匀分数：恰好是 V
    27.0
    >>> round(perplexity(np.log([2.0, 1.0, 0.5]), 1), 9)   # p_y = 2/7
    3.5
    """
    loss = cross_entropy(logits, targets, ignore_index=ignore_index)
    if np.isfinite(loss) and loss > np.log(np.finfo(np.float64).max):
        raise ValueError(f"logits 与 targets 给出的平均损失 {loss:.6g} 超过 ln(float64 上限) ≈ 709.78，"
                         f"困惑度 e^损失 无法表示")
    return float(np.exp(loss))
