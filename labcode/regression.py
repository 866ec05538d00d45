"""均方误差（MSE）及其对预测值的梯度：附录里线性回归例子用的损失。"""
from __future__ import annotations

from ._validate import as_finite_array, finite


def _check_pair(preds, targets):
    """preds 与 targets 必须是同形状、非空的有限数组：不让 (n, 1) 与 (n,) 悄悄广播成 (n, n)。"""
    preds, targets = as_finite_array(preds, "preds"), as_finite_array(targets, "targets")
    if preds.shape != targets.shape:
        raise ValueError(f"preds 与 targets 的形状必须相同（不做广播），收到 {preds.shape} 与 {targets.shape}")
    if preds.size == 0:
        raise ValueError(f"preds 至少要有一个元素，收到形状 {preds.shape}")
    return preds, targets


def mse(preds, targets):
    """均方误差 ℓ = (1/n) Σ (preds - targets)²，n 是元素个数。

    参数
    ----
    preds : 任意形状的预测值
    targets : 与 preds 同形状的真实值

    返回
    ----
    float；单位是 targets 单位的平方

    讲解：:ref:`app-mse`
    >>> mse([60.0, 62.0, 44.0], [62.0, 60.0, 45.0])
    3.0
    """
    preds, targets = _check_pair(preds, targets)
    return float(finite(lambda: ((preds - targets) ** 2).mean(), "均方误差", "preds 与 targets"))


def mse_grad(preds, targets):
    """均方误差对预测值的梯度 ∂ℓ/∂preds = 2 (preds - targets) / n，形状同 preds。

    讲解：:ref:`app-mse`
    >>> mse_grad([60.0, 62.0, 44.0], [62.0, 60.0, 45.0]) * 3
    array([-4.,  4., -2.])
    """
    preds, targets = _check_pair(preds, targets)
    return finite(lambda: 2.0 * (preds - targets) / preds.size, "梯度 2 (preds - targets) / n", "preds 与 targets")
