"""Softmax 探索器：拖动某个候选的分数，所有概率柱一起变（它们共用一个分母）。

浏览器里的计算由 ``softmax_explorer.js`` 完成，所以静态网页上没有内核也能实时更新；
在 Jupyter 内核里，Python 端用 labcode 的函数重新算出 ``probs``、``loss``、``grad``。
"""
from __future__ import annotations

import math
import numbers

import numpy as np
import traitlets

from .._validate import check_temperature
from ..plots import PALETTE, bar_probs
from ..probability import cross_entropy, cross_entropy_grad, softmax
from ._family import FamilyWidget, figure_png, fmt, front_end, styles
from ._family import short as _short

MIN_CLASSES, MAX_CLASSES = 2, 8
DEFAULT_LOGITS, DEFAULT_LABELS = (0.0, 1.0, 2.0), ("红", "黄", "绿")


# ---------------------------------------------------------------- validation
def _check_logits(logits, n=None):
    if isinstance(logits, (str, bytes)) or not hasattr(logits, "__len__"):
        raise TypeError(f"logits 必须是实数序列，收到 {logits!r}")
    if not all(isinstance(z, numbers.Real) and not isinstance(z, bool) for z in logits):
        raise TypeError(f"logits 的每个元素必须是实数，收到 {list(logits)!r}")
    z = [float(v) for v in logits]
    if not MIN_CLASSES <= len(z) <= MAX_CLASSES:
        raise ValueError(f"logits 的候选个数必须在 {MIN_CLASSES} 到 {MAX_CLASSES} 之间，收到 {len(z)} 个：{z}")
    if n is not None and len(z) != n:
        raise ValueError(f"logits 的长度必须等于候选个数 {n}（与 labels 一致），收到 {len(z)} 个：{z}")
    if not all(math.isfinite(v) for v in z):
        raise ValueError(f"logits 必须全是有限实数，收到 {z}")
    return z


def _check_labels(labels, n):
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__"):
        raise TypeError(f"labels 必须是字符串序列，收到 {labels!r}")
    names = [str(label) for label in labels]
    if len(names) != n:
        raise ValueError(f"labels 的长度必须等于 logits 的长度 {n}，收到 {len(names)} 个：{names}")
    if len(set(names)) != len(names) or not all(names):
        raise ValueError(f"labels 必须是互不相同的非空名字，收到 {names}")
    return names


def _check_target(target, n):
    if isinstance(target, bool) or not isinstance(target, numbers.Integral):
        raise TypeError(f"target 必须是候选下标（整数）或候选名，收到 {target!r}")
    if not 0 <= target < n:
        raise ValueError(f"target 必须在 [0, {n}) 内，收到 {target}")
    return int(target)


# ---------------------------------------------------------------- widget
class SoftmaxExplorer(FamilyWidget):
    """Softmax 探索器插件。``logits``、``temperature``、``target`` 三个特性是唯一的真值来源：

    在浏览器里拖动滑块会改它们，在 Python 里赋值（如 ``w.logits = [0, 1, 3]``）会移动滑块。
    ``probs``、``loss``、``grad`` 由 labcode 算出（只在 Python 端，浏览器自己算同样的数）。
    一般用 :func:`softmax_explorer` 创建。要改候选个数，在 ``with w.hold_trait_notifications():``
    里同时给 ``labels`` 和 ``logits`` 赋值。
    """

    _esm = front_end("softmax_explorer")
    _css = styles("softmax_explorer")

    # The defaults are a valid state (the chapter's red/yellow/green example), so SoftmaxExplorer() displays.
    logits = traitlets.List(traitlets.Float(), default_value=list(DEFAULT_LOGITS)).tag(sync=True)    # (V,)
    labels = traitlets.List(traitlets.Unicode(), default_value=list(DEFAULT_LABELS)).tag(sync=True)  # (V,)
    temperature = traitlets.Float(1.0).tag(sync=True)
    target = traitlets.Int(len(DEFAULT_LOGITS) - 1).tag(sync=True)
    palette = traitlets.List(traitlets.Unicode(), default_value=list(PALETTE)).tag(sync=True)
    logit_min = traitlets.Float(-10.0).tag(sync=True)
    logit_max = traitlets.Float(10.0).tag(sync=True)
    step = traitlets.Float(0.1).tag(sync=True)
    temperature_min = traitlets.Float(0.1).tag(sync=True)
    temperature_max = traitlets.Float(10.0).tag(sync=True)

    probs = traitlets.List(traitlets.Float(), read_only=True)      # (V,) = softmax(z / T)
    loss = traitlets.Float(read_only=True)                         # -ln p_y
    grad = traitlets.List(traitlets.Float(), read_only=True)       # (V,) dL/dz = (p - e_y) / T

    @traitlets.validate("logits")
    def _valid_logits(self, proposal):
        return _check_logits(proposal["value"], len(self.labels) if self.labels else None)

    @traitlets.validate("labels")
    def _valid_labels(self, proposal):
        return _check_labels(proposal["value"], len(self.logits) if self.logits else len(proposal["value"]))

    @traitlets.validate("temperature")
    def _valid_temperature(self, proposal):
        return check_temperature(proposal["value"])

    @traitlets.validate("target")
    def _valid_target(self, proposal):
        return _check_target(proposal["value"], len(self.logits))

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._recompute()  # the defaults send no change event

    @traitlets.observe("logits", "temperature", "target")
    def _recompute(self, change=None):
        if not self.logits or self.target >= len(self.logits):
            return  # still being constructed
        scaled = np.asarray(self.logits) / self.temperature          # (V,)
        if not np.isfinite(scaled).all():
            raise ValueError(f"logits / temperature 必须是有限数，"
                             f"收到 logits={self.logits}，temperature={self.temperature}")
        self.set_trait("probs", softmax(self.logits, temperature=self.temperature).tolist())
        self.set_trait("loss", cross_entropy(scaled, self.target))
        self.set_trait("grad", (cross_entropy_grad(scaled, self.target) / self.temperature).tolist())

    def summary(self):
        """一行可读的文字：分数、温度、真实目标、概率和损失（纸面和纯文本界面显示它）。"""
        zs = ", ".join(_short(z) for z in self.logits)
        ps = ", ".join(fmt(p, 3) for p in self.probs)
        return (f"Softmax 探索器：logits=[{zs}]，T={_short(self.temperature)}，"
                f"真实目标={self.labels[self.target]}，p=[{ps}]，损失={fmt(self.loss, 4)}")

    def snapshot_png(self, dpi=100):
        """当前状态的柱状图（PNG 字节），供 PDF 与不能运行插件的页面使用。"""
        from matplotlib.figure import Figure  # no pyplot: nothing is shown or kept open

        fig = Figure(figsize=(max(3.4, 0.6 * len(self.labels) + 1.6), 2.4), dpi=dpi, layout="constrained")
        title = (f"z=[{', '.join(_short(z) for z in self.logits)}]，T={_short(self.temperature)}，"
                 f"真实目标={self.labels[self.target]}，损失={fmt(self.loss, 4)}")
        bar_probs(fig.subplots(), self.probs, self.labels, target=self.target, title=title)
        return figure_png(fig)


# ---------------------------------------------------------------- factory
def softmax_explorer(logits=DEFAULT_LOGITS, labels=DEFAULT_LABELS, target=None, temperature=1.0, *,
                     logit_range=(-10.0, 10.0), step=0.1, temperature_range=(0.1, 10.0)):
    """创建 Softmax 探索器（返回插件，不自动显示；放在单元格最后一行即可显示）。

    参数
    ----
    logits : 2 到 8 个有限实数，每个候选的分数 z
    labels : 与 logits 等长的候选名，互不相同
    target : 真实目标 y：候选下标或候选名；默认最后一个候选
    temperature : 温度 T，正的有限实数
    logit_range : 分数滑块的范围 (最小, 最大)；超出范围的分数照样计算，只是滑块停在端点
    step : 分数滑块的步长
    temperature_range : 温度滑块的范围 (最小, 最大)，按对数刻度移动

    返回
    ----
    SoftmaxExplorer

    >>> w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")
    >>> [round(p, 3) for p in w.probs]
    [0.09, 0.245, 0.665]
    >>> w.logits = [0, 1, 3]          # 只有绿的分数变大，红的概率也下降
    >>> round(w.probs[0], 3)
    0.042
    """
    z = _check_logits(logits)
    names = _check_labels(labels, len(z))
    if target is None:
        target = len(z) - 1
    elif isinstance(target, str):
        if target not in names:
            raise ValueError(f"target 必须是 labels 中的名字或下标，收到 {target!r}（可选 {names}）")
        target = names.index(target)
    target = _check_target(target, len(z))
    T = check_temperature(temperature)
    lo, hi = _check_range(logit_range, "logit_range")
    t_lo, t_hi = _check_range(temperature_range, "temperature_range")
    if t_lo <= 0:
        raise ValueError(f"temperature_range 的下限必须大于 0，收到 {temperature_range!r}")
    step_ok = isinstance(step, numbers.Real) and not isinstance(step, bool) and math.isfinite(step)
    if not (step_ok and 0 < step <= hi - lo):
        raise ValueError(f"step 必须是正数且不超过滑块范围 {hi - lo:g}，收到 {step!r}")
    return SoftmaxExplorer(labels=names, logits=z, target=target, temperature=T,
                           logit_min=lo, logit_max=hi, step=float(step),
                           temperature_min=t_lo, temperature_max=t_hi)


def _check_range(pair, name):
    try:
        lo, hi = (float(v) for v in pair)
    except (TypeError, ValueError):
        raise TypeError(f"{name} 必须是两个实数 (最小, 最大)，收到 {pair!r}") from None
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"{name} 必须是有限的 (最小, 最大) 且最小 < 最大，收到 {pair!r}")
    return lo, hi
