"""把值写成报告里的文字：与全局 printoptions 无关，逐字确定（存进笔记本的报告要能被 nbval 逐字比较）。

小数组完整列出；大数组给出形状和一小段，期望和实际列出同一处（差得最多的那个数附近）。
"""
from __future__ import annotations

import re
import sys

import numpy as np

# 报告里完整列出的数组最多有几个数：一维的一两行放得下，多维的像 4×4；更长的只给形状和一小段（show），
# 每个数都相同的浮点数组写成 np.zeros(…) 或 np.full(…)，不算省略。
FULL_ARRAY_1D, FULL_ARRAY_ND = 24, 16


def big_array(value) -> bool:
    """value 是报告里不完整列出的数组吗？"""
    if not isinstance(value, np.ndarray) or value.ndim == 0:
        return False
    return value.size > (FULL_ARRAY_1D if value.ndim == 1 else FULL_ARRAY_ND)


def constant(value) -> bool:
    """每个数都相同的浮点数组（大的在报告里写成 np.zeros 或 np.full）。"""
    return value.dtype.kind == "f" and value.size > 0 and bool((value == value.flat[0]).all())


def long_array(value) -> bool:
    """value 是报告里只列出一小段的数组吗（大，而且不是每个数都相同）？"""
    return big_array(value) and not constant(value)


def names(value):
    """一组返回值在报告里的名字：Returned 带着自己的，普通的 tuple 是 (loss, dW)。"""
    return getattr(value, "names", ("loss", "dW"))


def worst(actual, expected):
    """actual 与 expected（同形状）差得最多的下标；有 nan 或 inf 时是第一个这样的下标。"""
    a = np.asarray(actual, dtype=np.float64)
    bad = ~np.isfinite(a)
    if bad.any():
        return tuple(np.argwhere(bad)[0])
    return np.unravel_index(np.argmax(np.abs(a - expected)), a.shape)


def show(value, at=None):
    """值的报告文字。小数组完整列出；每个数都相同的写成 np.zeros/np.full；其余的大数组给出形状和一小段：
    一维的列出头尾各三个，多维的列出前两行，或者（给了下标 at 时）at 所在的那一行里 at 附近的几个数；
    多维的那一小段另起一行。
    value 是一组值（如 (loss, dW)）时，at 是每个值各自的下标（或 None）。"""
    if isinstance(value, tuple):
        where = at if at is not None else (None,) * len(value)
        return "，".join(f"{name} = {show(v, k)}" for name, v, k in zip(names(value), value, where, strict=True))
    if not (isinstance(value, np.ndarray) and value.ndim > 0):
        return number(value)
    tag = "（float32）" if value.dtype == np.float32 else ""
    if not big_array(value):
        return _array(value) + tag
    if constant(value):
        dtype = ", dtype=np.float32" if value.dtype == np.float32 else ""
        first = value.flat[0]
        return f"np.zeros({value.shape}{dtype})" if first == 0 else f"np.full({value.shape}, {number(first)}{dtype})"
    if value.ndim == 1:
        return f"{_array(value, summary=True)}{tag}（共 {value.size} 个数）"
    head = f"形状 {value.shape} 的数组{tag}"
    if at is not None:
        return f"{head}，编号为 {at[0]} 的{'行' if value.ndim == 2 else '一块'}{_window(value[at[0]], at[1:])}"
    if value.ndim == 2:
        return f"{head}，前两行：\n[" + ",\n ".join(_array(r, summary=True) for r in value[:2]) + ",\n ...]"
    return f"{head}：\n{_array(value, summary=True, edgeitems=1)}"


def _window(part, where, width=3):
    """一行（或一块）里下标 where 附近的几个数；短的一行整行列出。"""
    if not long_array(part) or part.ndim > 1:
        return f"：\n{show(part)}"
    k = where[0]
    lo, hi = max(0, k - width), min(part.size, k + width + 1)
    return f"里编号为 {lo} 到 {hi - 1} 的数：\n{_array(part[lo:hi])}"


def _array(value, summary=False, edgeitems=3):
    return np.array2string(value, precision=6, separator=", ", threshold=0 if summary else sys.maxsize,
                           edgeitems=edgeitems, max_line_width=76, floatmode="maxprec", suppress_small=False,
                           sign="-")


def raw(value):
    """任意返回值的短文字：数值数组照常显示，其余用 repr（去掉内存地址，最多 120 个字符）。"""
    if isinstance(value, (list, tuple)):
        try:
            arr = np.asarray(value, dtype=np.float64)
        except Exception:
            arr = None
        if arr is not None and arr.ndim > 0:
            return f"{type(value).__name__} {show(arr)}"
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    text = re.sub(r"0x[0-9a-fA-F]+", "0x…", text)
    return text if len(text) <= 120 else text[:117] + "..."


def first_line(err):
    lines = str(err).strip().splitlines()
    text = lines[0] if lines else "（没有说明）"
    return text if len(text) <= 200 else text[:197] + "..."


def number(x):
    return f"{float(x):.10g}"


def index_text(k):
    return "[" + ", ".join(str(int(i)) for i in k) + "]"
