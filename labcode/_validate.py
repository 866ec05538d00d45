"""公共入口的输入检查：错误信息写明参数名、规则和收到的值。"""
from __future__ import annotations

import numbers

import numpy as np


def _short(value):
    """把收到的值压成一行短文本，放进错误信息。"""
    arr = np.asarray(value)
    text = np.array2string(arr, threshold=8, edgeitems=3) if arr.ndim else repr(arr.item())
    return text if len(text) <= 80 else text[:77] + "..."


def as_float_array(x, name):
    """转成 float64 数组；字符串、对象、复数等非实数输入报 TypeError。"""
    arr = np.asarray(x)
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"{name} 必须是实数数组，收到 dtype {arr.dtype}：{_short(x)}")
    return arr.astype(np.float64, copy=False)


def as_logits(x, name="logits"):
    """检查分数数组：至少一维、候选轴（最后一轴或指定轴）非空、无 NaN、无 +inf、每行至少一个有限值。"""
    z = as_float_array(x, name)
    if z.ndim == 0:
        raise ValueError(f"{name} 至少要有一维（候选轴），收到标量 {_short(x)}")
    if np.isnan(z).any():
        raise ValueError(f"{name} 不能含 NaN，收到 {_short(x)}")
    if np.isposinf(z).any():
        raise ValueError(f"{name} 不能含 +inf（概率无法定义），收到 {_short(x)}")
    return z


def check_axis(axis, ndim, name="axis"):
    """检查轴号是整数且在 [-ndim, ndim) 内，返回非负轴号。"""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"{name} 必须是整数，收到 {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"{name} 必须在 [{-ndim}, {ndim}) 内（数组有 {ndim} 维），收到 {axis}")
    return axis % ndim


def check_classes(z, axis, name="logits"):
    """候选轴不能为空，且每行不能全是 -inf（那一行没有任何可能的候选）。"""
    if z.shape[axis] == 0:
        raise ValueError(f"{name} 的候选轴（axis={axis}）长度必须至少为 1，收到形状 {z.shape}")
    if z.size and np.isneginf(z).all(axis=axis).any():
        raise ValueError(f"{name} 的每一行至少要有一个有限分数，有的行全是 -inf：{_short(z)}")


def check_temperature(temperature):
    """温度必须是有限的正实数。"""
    if isinstance(temperature, bool) or not isinstance(temperature, numbers.Real):
        raise TypeError(f"temperature 必须是正的有限实数，收到 {temperature!r}")
    if not (np.isfinite(temperature) and temperature > 0):
        raise ValueError(f"temperature 必须是正的有限实数，收到 {temperature!r}")
    return float(temperature)


def as_probs(x, axis=-1, name="probs", atol=1e-6):
    """检查概率数组：有限、非负、沿候选轴之和为 1（容差 atol）。"""
    p = as_float_array(x, name)
    if p.ndim == 0:
        raise ValueError(f"{name} 至少要有一维（候选轴），收到标量 {_short(x)}")
    axis = check_axis(axis, p.ndim)
    if p.shape[axis] == 0:
        raise ValueError(f"{name} 的候选轴（axis={axis}）长度必须至少为 1，收到形状 {p.shape}")
    if not np.isfinite(p).all():
        raise ValueError(f"{name} 必须全是有限数，收到 {_short(x)}")
    if (p < 0).any():
        raise ValueError(f"{name} 不能有负数，收到 {_short(x)}")
    sums = p.sum(axis=axis)
    if not np.allclose(sums, 1.0, rtol=0, atol=atol):
        raise ValueError(f"{name} 沿候选轴之和必须为 1（容差 {atol:g}），收到和 {_short(sums)}")
    return p, axis


class IdError(ValueError, IndexError):
    """编号越界或是忽略值：既是 ValueError（坏输入）也是 IndexError（查表越界），两种写法都能捕获。"""


def check_count(n, name):
    """n 必须是正整数（行数、候选数、表长）。"""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{name} 必须是正整数，收到 {n!r}")
    if n < 1:
        raise ValueError(f"{name} 必须是正整数（至少为 1），收到 {n!r}")
    return int(n)


def as_ids(ids, num_embeddings, name="ids"):
    """检查编号数组：整数 dtype（不是布尔）、每个都在 [0, num_embeddings) 内；返回 int64 数组。

    负数（包括忽略值 -100）一律报错，而不是让 NumPy 从表尾倒着取行。
    """
    arr = np.asarray(ids)
    if arr.size == 0 and arr.dtype == np.float64:  # np.asarray([]) 是 float64：空列表也算合法的空编号
        arr = arr.astype(np.int64)
    if arr.dtype == bool:
        raise TypeError(f"{name} 必须是整数编号数组，不能是布尔数组（True/False 会被当成掩码或 1/0），"
                        f"收到 {_short(ids)}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} 必须是整数编号数组，收到 dtype {arr.dtype}：{_short(ids)}")
    bad = (arr < 0) | (arr >= num_embeddings)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        value = int(arr[where])
        at = f"位置 {where if arr.ndim > 1 else where[0]}" if arr.ndim else "标量"
        if value == -100:
            raise IdError(f"{name} 含忽略值 -100（{at}）：它只标记不计损失的目标，不能查表")
        if value < 0:
            raise IdError(f"{name} 的每个编号都必须 >= 0（负数会被 NumPy 从表尾倒着取，悄悄读错行），"
                          f"收到 {value}（{at}）")
        raise IdError(f"{name} 的每个编号都必须 < {num_embeddings}（表只有 {num_embeddings} 行），收到 {value}（{at}）")
    return arr.astype(np.int64, copy=False)


def as_table(x, name):
    """检查参数表（如嵌入表 E、位置表 P）：二维实数数组，形状 (行数, D)。"""
    t = as_float_array(x, name)
    if t.ndim != 2:
        raise ValueError(f"{name} 必须是二维数组（行数, D），收到形状 {t.shape}")
    return t
