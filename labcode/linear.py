"""线性层 Z = X W + b 及其反向传播（链式法则的矩阵形式）。"""
from __future__ import annotations

from ._validate import as_finite_array, finite


def _check_xw(X, W):
    X, W = as_finite_array(X, "X"), as_finite_array(W, "W")
    if W.ndim != 2:
        raise ValueError(f"W 必须是二维矩阵，形状 (d, V)，收到形状 {W.shape}")
    if X.ndim == 0 or X.shape[-1] != W.shape[0]:
        raise ValueError(f"X 的最后一轴必须等于 W 的行数 d={W.shape[0]}，收到 X 的形状 {X.shape}")
    return X, W


def linear(X, W, b=None):
    """线性层：Z = X @ W (+ b)，X 可以有任意多个前导批次轴。

    参数
    ----
    X : 形状 (..., d) 的输入，例如 (n, d) 或 (B, T, d)
    W : 形状 (d, V) 的权重
    b : 可选，形状 (V,) 的偏置

    返回
    ----
    形状 (..., V) 的输出

    讲解：:ref:`ch2-linear`
    >>> linear([1.0, 2.0], [[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]]).tolist()
    [1.0, 2.0, -1.0]
    """
    X, W = _check_xw(X, W)
    if b is not None:
        b = as_finite_array(b, "b")
        if b.shape != (W.shape[1],):
            raise ValueError(f"b 的形状必须是 ({W.shape[1]},)，收到形状 {b.shape}")
    return finite(lambda: X @ W if b is None else X @ W + b, "Z = X @ W + b", "X、W 与 b")   # (..., V)


def _linear_backward(dZ, X, W):
    """dX = dZ @ W.T，dW = X.T @ dZ，db = dZ 沿所有位置之和。"""
    d, V = W.shape
    dX = dZ @ W.T  # (..., d)
    # 前导轴先压成一轴：(d, n) @ (n, V) -> (d, V)
    dW = X.reshape(-1, d).T @ dZ.reshape(-1, V)
    db = dZ.reshape(-1, V).sum(axis=0)  # (V,)
    return dX, dW, db


def linear_backward(grad_out, X, W):
    """线性层的反向传播：给定 dZ = ∂ℓ/∂Z，求 dX、dW、db。

    参数
    ----
    grad_out : 形状 (..., V) 的 dZ，前导轴与 X 相同
    X : 前向时的输入，形状 (..., d)
    W : 前向时的权重，形状 (d, V)

    返回
    ----
    (dX, dW, db)：形状 (..., d)、(d, V)、(V,)。dX = dZ @ W.T；dW = X.T @ dZ，
    先把所有前导轴压成一轴 (n, d)；db 是 dZ 沿所有前导轴之和

    讲解：:ref:`ch2-linear`
    >>> dX, dW, db = linear_backward([[1.0, -1.0]], [[2.0, 3.0]], [[1.0, 0.0], [0.0, 1.0]])
    >>> dX.tolist(), dW.tolist(), db.tolist()
    ([[1.0, -1.0]], [[2.0, -2.0], [3.0, -3.0]], [1.0, -1.0])
    """
    X, W = _check_xw(X, W)
    dZ = as_finite_array(grad_out, "grad_out")
    if dZ.shape != X.shape[:-1] + (W.shape[1],):
        raise ValueError(f"grad_out 的形状必须是 X.shape[:-1] + (V,) = {X.shape[:-1] + (W.shape[1],)}，"
                         f"收到形状 {dZ.shape}")
    return finite(lambda: _linear_backward(dZ, X, W), "dX、dW 与 db", "grad_out、X 与 W")
