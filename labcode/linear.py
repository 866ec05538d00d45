"""线性层 Z = X W + b 及其反向传播（链式法则的矩阵形式）。"""
from __future__ import annotations

from ._validate import as_float_array


def _check_xw(X, W):
    X, W = as_float_array(X, "X"), as_float_array(W, "W")
    if W.ndim != 2:
        raise ValueError(f"W 必须是二维矩阵，形状 (d, m)，收到形状 {W.shape}")
    if X.ndim == 0 or X.shape[-1] != W.shape[0]:
        raise ValueError(f"X 的最后一轴必须等于 W 的行数 d={W.shape[0]}，收到 X 的形状 {X.shape}")
    return X, W


def linear(X, W, b=None):
    """线性层：Z = X @ W (+ b)，X 可以有任意多个前导批次轴。

    参数
    ----
    X : 形状 (..., d) 的输入，例如 (B, T, d)
    W : 形状 (d, m) 的权重
    b : 可选，形状 (m,) 的偏置

    返回
    ----
    形状 (..., m) 的输出

    >>> linear([1.0, 2.0], [[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]]).tolist()
    [1.0, 2.0, -1.0]
    """
    X, W = _check_xw(X, W)
    Z = X @ W                                                  # (..., m)
    if b is None:
        return Z
    b = as_float_array(b, "b")
    if b.shape != (W.shape[1],):
        raise ValueError(f"b 的形状必须是 ({W.shape[1]},)，收到形状 {b.shape}")
    return Z + b


def linear_backward(grad_out, X, W):
    """线性层的反向传播：给定 dL/dZ，求 dL/dX、dL/dW、dL/db。

    参数
    ----
    grad_out : 形状 (..., m) 的 dL/dZ，前导轴与 X 相同
    X : 前向时的输入，形状 (..., d)
    W : 前向时的权重，形状 (d, m)

    返回
    ----
    (dX, dW, db)：形状 (..., d)、(d, m)、(m,)。dX = dZ @ W.T；dW = X.T @ dZ，
    先把所有前导轴压成一轴 (N, d)；db 是 dZ 沿所有前导轴之和

    >>> dX, dW, db = linear_backward([[1.0, -1.0]], [[2.0, 3.0]], [[1.0, 0.0], [0.0, 1.0]])
    >>> dX.tolist(), dW.tolist(), db.tolist()
    ([[1.0, -1.0]], [[2.0, -2.0], [3.0, -3.0]], [1.0, -1.0])
    """
    X, W = _check_xw(X, W)
    dZ = as_float_array(grad_out, "grad_out")
    if dZ.shape != X.shape[:-1] + (W.shape[1],):
        raise ValueError(f"grad_out 的形状必须是 X.shape[:-1] + (m,) = {X.shape[:-1] + (W.shape[1],)}，"
                         f"收到形状 {dZ.shape}")
    d, m = W.shape
    dX = dZ @ W.T                                              # (..., d)
    dW = X.reshape(-1, d).T @ dZ.reshape(-1, m)                # (d, N) @ (N, m) -> (d, m)
    db = dZ.reshape(-1, m).sum(axis=0)                         # (m,)
    return dX, dW, db
