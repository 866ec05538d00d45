"""公共入口的参数检查：错误信息写明参数名、规则和收到的值（仿照 NumPy 的写法）。

每个公共函数只在入口检查参数，用的都是这里的函数；各模块只保留关于自己那个概念的检查
（例如 bigram 里 W 必须是方阵），而且也由这里的函数搭成。同一个参数的规则（如学习率 η、伪计数 α）
只在这里写一次，所以各处的错误信息一字不差（``tests/unit/test_validate.py`` 检查别的模块没有自己的通用检查）。

大小的上限：一个函数要新建的数组最多 :data:`MAX_ELEMENTS` 个数（float64 约 400 MB），
超过时在分配之前报错（:func:`check_size`），而不是先占满内存。
"""
from __future__ import annotations

import math
import numbers
import os

import numpy as np

MAX_ELEMENTS = 5 * 10**7   # 新建数组的元素个数上限：float64 约 400 MB；书里最大的是成语的计数矩阵，约 2,350 万格


def short_repr(value):
    """把收到的值压成一行短文本，放进错误信息（参差不齐的列表、任意对象也行）。"""
    try:
        arr = np.asarray(value)
        text = np.array2string(arr, threshold=8, edgeitems=3) if arr.ndim else repr(arr.item())
    except (TypeError, ValueError):
        text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def _show(x):
    """标量的写法：NumPy 标量写成对应的 Python 数（0.5 而不是 np.float64(0.5)）。"""
    return repr(x.item()) if isinstance(x, np.generic) else repr(x)


def _at(arr, where):
    """数组中一个元素的位置，写进错误信息。"""
    if arr.ndim == 0:
        return "标量"
    return f"位置 {where if arr.ndim > 1 else where[0]}"


def _with(rule, note):
    return f"{rule}（{note}）" if note else rule


# ---------------------------------------------------------------- 标量
def _real(x, name, rule, ok, note=None):
    """x 必须是满足 ok 的有限实数（布尔值不算）；返回 float。类型不对与取值不对，报的是同一句话。"""
    message = f"{name} 必须是{_with(rule, note)}，收到 {_show(x)}"
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(message)
    if not (np.isfinite(x) and ok(x)):
        raise ValueError(message)
    return float(x)


def check_real(x, name, *, note=None):
    """有限实数，返回 float。

    >>> check_real(float("nan"), "x")
    Traceback (most recent call last):
    ValueError: x 必须是有限实数，收到 nan
    """
    return _real(x, name, "有限实数", lambda v: True, note)


def check_positive(x, name, *, note=None):
    """正的有限实数，返回 float。

    >>> check_positive(0, "lr", note="学习率 η")
    Traceback (most recent call last):
    ValueError: lr 必须是正的有限实数（学习率 η），收到 0
    """
    return _real(x, name, "正的有限实数", lambda v: v > 0, note)


def check_nonneg(x, name, *, note=None):
    """非负的有限实数，返回 float。

    >>> check_nonneg(-0.5, "alpha")
    Traceback (most recent call last):
    ValueError: alpha 必须是非负的有限实数，收到 -0.5
    """
    return _real(x, name, "非负的有限实数", lambda v: v >= 0, note)


def check_temperature(temperature):
    """温度 τ：正的有限实数。"""
    return check_positive(temperature, "temperature")


def check_lr(lr):
    """学习率 η：正的有限实数。"""
    return check_positive(lr, "lr", note="学习率 η")


def check_alpha(alpha):
    """平滑的伪计数 α：非负的有限实数。"""
    return check_nonneg(alpha, "alpha", note="平滑的伪计数 α")


def check_gamma(gamma):
    """插值权重 γ：[0, 1] 内的有限实数。

    >>> check_gamma(1.5)
    Traceback (most recent call last):
    ValueError: gamma 必须是 [0, 1] 内的有限实数（插值权重 γ），收到 1.5
    """
    return _real(gamma, "gamma", " [0, 1] 内的有限实数", lambda v: 0 <= v <= 1, "插值权重 γ")


def check_reg(reg):
    """正则化系数 λ：非负的有限实数。"""
    return check_nonneg(reg, "reg", note="正则化系数 λ")


def check_int(n, name, low=None, high=None, *, note=None):
    """整数（布尔值不算），且 low <= n <= high（不给就不限）；返回 int。

    >>> check_int(-3, "seed", 0, 2**32 - 1)
    Traceback (most recent call last):
    ValueError: seed 必须是 [0, 4294967295] 内的整数，收到 -3
    """
    if high is not None:
        rule = f" [{low}, {high}] 内的整数"
    else:
        rule = {None: "整数", 0: "非负整数", 1: "正整数"}.get(low, f"不小于 {low} 的整数")
    message = f"{name} 必须是{_with(rule, note)}，收到 {_show(n)}"
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(message)
    if (low is not None and n < low) or (high is not None and n > high):
        raise ValueError(message)
    return int(n)


def check_prev(prev, vocab_size):
    """前一个字的编号：[0, V − 1] 内的整数，返回 int。"""
    return check_int(prev, "prev", 0, vocab_size - 1, note="前一个字的编号")


def check_count(n, name):
    """正整数（行数、候选个数、表长、步数），返回 int。"""
    return check_int(n, name, 1)


def check_range(pair, name, *, positive=False):
    """区间 (最小, 最大)：两个有限实数，最小 < 最大；positive 时还要 0 < 最小。返回 (float, float)。

    >>> check_range((5, -5), "logit_range")
    Traceback (most recent call last):
    ValueError: logit_range 必须是两个有限实数 (最小, 最大)，且 最小 < 最大，收到 (5, -5)
    """
    rule = "0 < 最小 < 最大" if positive else "最小 < 最大"
    message = f"{name} 必须是两个有限实数 (最小, 最大)，且 {rule}，收到 {pair!r}"
    try:
        lo, hi = pair
    except (TypeError, ValueError):
        raise TypeError(message) from None
    if isinstance(pair, (str, bytes)) or not all(isinstance(v, numbers.Real) and not isinstance(v, bool)
                                                 for v in (lo, hi)):
        raise TypeError(message)
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi) or (positive and lo <= 0):
        raise ValueError(message)
    return float(lo), float(hi)


def check_choice(value, name, choices):
    """value 必须是 choices（若干字符串）之一。"""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} 必须是 {tuple(choices)} 之一，收到 {value!r}")
    return value


def check_distinct(items, name, what):
    """items 里的 what 互不相同；返回 items。

    >>> check_distinct(["a", "b", "a"], "labels", "候选名")
    Traceback (most recent call last):
    ...
    ValueError: labels 的候选名必须互不相同，['a'] 出现了不止一次
    """
    if len(set(items)) != len(items):
        twice = sorted({x for x in items if items.count(x) > 1})
        raise ValueError(f"{name} 的{what}必须互不相同，{twice} 出现了不止一次")
    return items


def check_text(value, name, *, note="非空字符串", empty=False):
    """非空字符串（empty 时也可以是空串），返回它。"""
    if not isinstance(value, str):
        raise TypeError(f"{name} 必须是{note}，收到 {short_repr(value)}（{type(value).__name__}）")
    if not value and not empty:
        raise ValueError(f"{name} 必须是{note}，收到 ''")
    return value


def as_list(value, name, what):
    """由若干项（至少一项）组成的序列（列表、元组……），不能是单个字符串；返回 list。"""
    if isinstance(value, str | bytes):
        raise TypeError(f"{name} 必须是由{what}组成的列表，收到单个字符串 {value!r}；只有一项也要写成 [{value!r}]")
    try:
        items = list(value)
    except TypeError:
        got = f"{short_repr(value)}（{type(value).__name__}）"
        raise TypeError(f"{name} 必须是由{what}组成的列表，收到 {got}") from None
    if not items:
        raise ValueError(f"{name} 至少要有一个{what}，收到空序列")
    return items


def check_callable(f, name, *, optional=False):
    """函数（可调用对象）；optional 时也可以是 None。"""
    if optional and f is None:
        return None
    if not callable(f):
        rule = "函数（可调用对象）或 None" if optional else "函数（可调用对象）"
        raise TypeError(f"{name} 必须是{rule}，收到 {short_repr(f)}（{type(f).__name__}）")
    return f


def check_path(path):
    """文件路径：str 或 os.PathLike（如 pathlib.Path）。"""
    if not isinstance(path, str | os.PathLike) or (isinstance(path, str) and not path):
        raise TypeError(f"path 必须是文件路径（非空 str 或 pathlib.Path），"
                        f"收到 {short_repr(path)}（{type(path).__name__}）")
    return path


def check_size(shape, name, value):
    """将要新建的数组形状 shape 由参数 name（收到 value）决定：元素个数不能超过 :data:`MAX_ELEMENTS`（在分配之前查）。

    >>> check_size((1, 10**8), "vocab_size", 10**8)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: vocab_size 必须让结果不超过 50,000,000 个数（float64 约 400 MB），收到 100000000：结果形状 ...
    """
    n = math.prod(shape)
    if n > MAX_ELEMENTS:
        raise ValueError(f"{name} 必须让结果不超过 {MAX_ELEMENTS:,} 个数（float64 约 400 MB），收到 {_show(value)}："
                         f"结果形状 {tuple(shape)} 有 {n:,} 个数")
    return shape


def check_slider(value_range, step, name, *, positive=False):
    """滑块 ``name`` 的范围 (最小, 最大) 与刻度间隔 step：step 是正数且不超过范围的宽度。返回 (最小, 最大, step)。"""
    lo, hi = check_range(value_range, f"{name}_range", positive=positive)
    step = check_positive(step, f"{name}_step")
    if step > hi - lo:
        raise ValueError(f"{name}_step 必须不超过滑块范围的宽度 {hi - lo:g}，收到 {step!r}")
    return lo, hi, step


def check_in_vocab(text, vocab, name, got):
    """text（参数 name 里收到的 got）的每个字都是词表 vocab 里的字；有 unknown 的词表不查（表外的字编成它）。

    >>> from labcode.vocab import Vocab
    >>> check_in_vocab("a.", Vocab((".",), "ab"), "text", "'a.'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: text 的每个字都必须是词表里的字（2 个：'ab'；特殊记号 ['.'] 不是文本里的字），收到 'a.'，...
    """
    if unknown := vocab.missing(text):
        chars = [s for s in vocab.symbols if s not in vocab.specials]
        raise ValueError(f"{name} 的每个字都必须是词表里的字（{len(chars)} 个：{short_repr(''.join(chars))}；"
                         f"特殊记号 {list(vocab.specials)} 不是文本里的字），收到 {got}，含表外的字 {unknown}")
    return text


def check_bool(value, name):
    """True 或 False（NumPy 的布尔标量也可以），返回 bool。"""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} 必须是 True 或 False，收到 {value!r}")
    return bool(value)


def check_rng(rng):
    """随机数生成器：numpy.random.Generator（不用全局随机状态）。"""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng 必须是 numpy.random.Generator（如 np.random.default_rng(0)），"
                        f"收到 {short_repr(rng)}（{type(rng).__name__}）")
    return rng


# ---------------------------------------------------------------- 数组
def as_array(x, name):
    """np.asarray，但参差不齐的嵌套列表（各行长短不一）报出参数名，而不是 NumPy 的英文错误。"""
    try:
        return np.asarray(x)
    except ValueError:
        raise ValueError(f"{name} 必须是形状整齐的数组（同一层的每一行一样长），收到 {short_repr(x)}") from None


def as_float_array(x, name):
    """转成 float64 数组；字符串、对象、复数、布尔等非实数输入报 TypeError。"""
    arr = as_array(x, name)
    if arr.dtype.kind not in "iuf":                  # 整数或浮点数（布尔值、复数、字符串、对象都不算）
        raise TypeError(f"{name} 必须是实数数组，收到 dtype {arr.dtype}：{short_repr(x)}")
    return arr.astype(np.float64, copy=False)


def as_finite_array(x, name):
    """float64 数组，每个元素都是有限数（NaN、±inf 报错，并指出第一个的位置）。"""
    arr = as_float_array(x, name)
    return check_each(arr, np.isfinite(arr), name, "有限数")


def check_overflow(result, what, culprits):
    """由有限的输入算出的 result 也必须有限：溢出成 inf 或 NaN 时报错，说明是哪些参数的取值太大。

    >>> check_overflow(np.array([np.inf]), "X @ W", "X 与 W")
    Traceback (most recent call last):
    ValueError: X 与 W 的取值太大：X @ W 必须在 float64 的范围内（绝对值不超过约 1.8e308），算出 [inf]
    """
    if not all(np.isfinite(part).all() for part in (result if isinstance(result, tuple) else (result,))):
        raise ValueError(f"{culprits} 的取值太大：{what} 必须在 float64 的范围内（绝对值不超过约 1.8e308），"
                         f"算出 {short_repr(result)}")
    return result


def finite(compute, what, culprits):
    """算出 compute()（溢出时 NumPy 不另发警告），再用 :func:`check_overflow` 检查结果（可以是几个数组的元组）。"""
    with np.errstate(over="ignore", invalid="ignore"):
        result = compute()
    return check_overflow(result, what, culprits)


def check_each(arr, ok, name, rule):
    """ok 是与 arr 同形状的布尔数组：每个元素都要满足规则，否则报出第一个不满足的元素和它的位置。

    >>> check_each(np.array([1.0, np.inf]), np.isfinite([1.0, np.inf]), "x", "有限数")
    Traceback (most recent call last):
    ValueError: x 的每个元素都必须是有限数，收到 inf（位置 1）
    """
    bad = ~np.asarray(ok, dtype=bool)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} 的每个元素都必须是{rule}，收到 {_show(arr[where])}（{_at(arr, where)}）")
    return arr


def check_1d(arr, name, note):
    """一维数组（note 说它是什么）；返回 arr。

    >>> check_1d(np.zeros((2, 2)), "logits", "一个位置的 V 个分数")
    Traceback (most recent call last):
    ValueError: logits 必须是一维的（一个位置的 V 个分数），收到形状 (2, 2)
    """
    if arr.ndim != 1:
        raise ValueError(f"{name} 必须是一维的（{note}），收到形状 {arr.shape}")
    return arr


def check_square(arr, name, note=None):
    """至少一行的方阵，形状 (V, V)；返回 arr。"""
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] < 1:
        raise ValueError(f"{name} 必须是{_with(' (V, V) 的方阵', note)}，收到形状 {arr.shape}")
    return arr


def check_axis(axis, ndim):
    """轴号：整数，且在 [-ndim, ndim) 内；返回非负轴号。"""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"axis 必须是整数，收到 {axis!r}")
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis 必须在 [{-ndim}, {ndim}) 内（数组有 {ndim} 维），收到 {axis}")
    return axis % ndim


def _along_candidates(x, name, axis):
    """实数数组，至少一维，axis 是合法的候选轴且长度至少为 1；返回 (float64 数组, 非负轴号)。"""
    arr = as_float_array(x, name)
    if arr.ndim == 0:
        raise ValueError(f"{name} 至少要有一维（候选轴），收到标量 {short_repr(x)}")
    axis = check_axis(axis, arr.ndim)
    if arr.shape[axis] == 0:
        raise ValueError(f"{name} 的候选轴（axis={axis}）长度必须至少为 1，收到形状 {arr.shape}")
    return arr, axis


def as_logits(x, name="logits", axis=-1):
    """分数数组：实数、至少一维，``axis`` 是合法的候选轴且非空，无 NaN、无 +inf，每一行至少一个有限分数。

    ``-inf`` 表示“这个候选不可能出现”，可以有；整行都是 ``-inf`` 则没有任何可能的候选，报错。
    返回 float64 数组。
    """
    z, axis = _along_candidates(x, name, axis)
    if np.isnan(z).any():
        raise ValueError(f"{name} 不能含 NaN，收到 {short_repr(x)}")
    if np.isposinf(z).any():
        raise ValueError(f"{name} 不能含 +inf（概率无法定义），收到 {short_repr(x)}")
    if z.size and np.isneginf(z).all(axis=axis).any():
        raise ValueError(f"{name} 的每一行至少要有一个有限分数，有的行全是 -inf：{short_repr(z)}")
    return z


def as_probs(x, axis=-1, name="probs", atol=1e-6):
    """概率数组：有限、非负、沿候选轴之和为 1（容差 atol）。返回 (float64 数组, 非负轴号)。"""
    p, axis = _along_candidates(x, name, axis)
    if not np.isfinite(p).all():
        raise ValueError(f"{name} 必须全是有限数，收到 {short_repr(x)}")
    if (p < 0).any():
        raise ValueError(f"{name} 不能有负数，收到 {short_repr(x)}")
    sums = p.sum(axis=axis)
    if not np.allclose(sums, 1.0, rtol=0, atol=atol):
        raise ValueError(f"{name} 沿候选轴之和必须为 1（容差 {atol:g}），收到和 {short_repr(sums)}")
    return p, axis


class IdError(ValueError, IndexError):
    """编号越界或是忽略值：既是 ValueError（坏输入）也是 IndexError（查表越界），两种写法都能捕获。"""


def as_ids(ids, num_embeddings, name="ids"):
    """编号数组：整数 dtype（不是布尔）、每个都在 [0, num_embeddings) 内；返回 int64 数组。

    负数（包括忽略值 -100）一律报错，而不是让 NumPy 从表尾倒着取行。
    """
    arr = as_array(ids, name)
    if arr.size == 0 and arr.dtype == np.float64:  # np.asarray([]) 是 float64：空列表也算合法的空编号
        arr = arr.astype(np.int64)
    if arr.dtype == bool:
        raise TypeError(f"{name} 必须是整数编号数组，不能是布尔数组（True/False 会被当成掩码或 1/0），"
                        f"收到 {short_repr(ids)}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} 必须是整数编号数组，收到 dtype {arr.dtype}：{short_repr(ids)}")
    bad = (arr < 0) | (arr >= num_embeddings)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        value, at = int(arr[where]), _at(arr, where)
        if value == -100:
            raise IdError(f"{name} 含忽略值 -100（{at}）：它只标记不计损失的目标，不能查表")
        if value < 0:
            raise IdError(f"{name} 的每个编号都必须 >= 0（负数会被 NumPy 从表尾倒着取，悄悄读错行），"
                          f"收到 {value}（{at}）")
        raise IdError(f"{name} 的每个编号都必须 < {num_embeddings}（表只有 {num_embeddings} 行），收到 {value}（{at}）")
    return arr.astype(np.int64, copy=False)


def as_table(x, name):
    """参数表（如嵌入表 E、位置表 P）：二维有限实数数组，形状 (行数, d)，至少一行。"""
    t = as_float_array(x, name)
    if t.ndim != 2 or t.shape[0] == 0:
        raise ValueError(f"{name} 必须是至少一行的二维数组（行数, d），收到形状 {t.shape}")
    return check_each(t, np.isfinite(t), name, "有限数")


def as_pairs(xs, ys, vocab_size):
    """训练对的编号 xs（前一个字）与 ys（后一个字）：等长、非空的一维编号数组，每个都在 [0, vocab_size) 内。"""
    xs, ys = as_ids(xs, vocab_size, "xs"), as_ids(ys, vocab_size, "ys")
    if xs.ndim != 1 or xs.shape != ys.shape or xs.size == 0:
        raise ValueError(f"xs 与 ys 必须是等长的非空一维编号数组，收到形状 {xs.shape} 与 {ys.shape}")
    return xs, ys


def as_counts(counts, vocab_size=None, *, nonzero=True, note="与 W 相同"):
    """计数矩阵 C：(V, V) 的方阵（给了 vocab_size 时 V 必须等于它，note 说 V 从哪里来），有限、非负，总和有限；
    nonzero 时（要除以总数 N 的函数）还要至少一个正计数。

    整数 dtype 原样返回（成语的大矩阵不必再复制一份），其余转成 float64。

    >>> as_counts([[1, -1], [0, 2]])
    Traceback (most recent call last):
    ValueError: counts 的每个元素都必须是有限的非负数（次数不能为负），收到 -1（位置 (0, 1)）
    """
    C = as_array(counts, "counts")
    if not np.issubdtype(C.dtype, np.integer) or C.dtype == bool:
        C = as_float_array(C, "counts")
    check_square(C, "counts")
    if vocab_size is not None and C.shape[0] != vocab_size:
        raise ValueError(f"counts 的形状必须是 ({vocab_size}, {vocab_size})（{note}），收到 {C.shape}")
    check_each(C, np.isfinite(C) & (C >= 0), "counts", "有限的非负数（次数不能为负）")
    with np.errstate(over="ignore"):
        total = float(C.sum(dtype=np.float64))
    if nonzero and total == 0:
        raise ValueError("counts 至少要有一个正的计数，收到全 0 矩阵")
    if not total < (2.0**62 if C.dtype.kind in "iu" else np.finfo(np.float64).max):
        raise ValueError(f"counts 的总和必须能用 {C.dtype} 表示（计数太大），收到总和 {total:.3g}")
    return C


def as_row(values, name, labels):
    """一行数：一维，且与 labels 等长（每个候选一个数）。"""
    arr = as_float_array(values, name)
    if arr.ndim != 1 or arr.shape[0] != len(labels):
        raise ValueError(f"{name} 必须是一维且与 labels 等长（{len(labels)} 项），收到形状 {arr.shape}")
    return arr
