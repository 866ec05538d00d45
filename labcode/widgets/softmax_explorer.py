"""Softmax 探索器：拖动某个候选的分数，所有概率柱一起变（它们共用一个分母）。

浏览器里的计算由 ``softmax_explorer.js`` 完成，所以静态网页上没有内核也能实时更新；
在 Jupyter 内核里，Python 端用 labcode 的函数重新算出 ``probs``、``loss``、``grad``。
"""
from __future__ import annotations

import numpy as np
import traitlets

from .._validate import check_range, check_temperature, finite
from ..plots import bar_probs
from ..probability import cross_entropy, cross_entropy_grad, softmax
from ._base import bundle, figure_png, fmt, short, snapshot_figure, styles
from ._candidates import DEFAULT_LABELS, DEFAULT_LOGITS, CandidateExplorer, candidate_settings


class SoftmaxExplorer(CandidateExplorer):
    """Softmax 探索器（交互组件）。``logits``、``temperature``、``target`` 三个特性是唯一的真值来源：

    在浏览器里拖动滑块会改它们，在 Python 里赋值（如 ``w.logits = [0, 1, 3]``）会移动滑块。
    ``probs``、``loss``、``grad`` 由 labcode 算出（只在 Python 端，浏览器自己算同样的数）。
    一般用 :func:`softmax_explorer` 创建。候选、目标与分数滑块见 :class:`CandidateExplorer`。
    """

    _esm = bundle("softmax_explorer")
    _css = styles("candidates", "softmax_explorer")

    target = traitlets.Int(len(DEFAULT_LOGITS) - 1).tag(sync=True)
    temperature = traitlets.Float(1.0).tag(sync=True)
    temperature_min = traitlets.Float(0.1).tag(sync=True)
    temperature_max = traitlets.Float(10.0).tag(sync=True)

    probs = traitlets.List(traitlets.Float(), read_only=True)      # (V,) = softmax(z / τ)
    loss = traitlets.Float(read_only=True)                         # -ln p_y
    grad = traitlets.List(traitlets.Float(), read_only=True)       # (V,) dℓ/dz = (p - e_y) / τ

    @traitlets.validate("temperature")
    def _valid_temperature(self, proposal):
        return check_temperature(proposal["value"])

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._recompute()  # 默认值不会触发变化事件

    @traitlets.observe("logits", "temperature", "target")
    def _recompute(self, change=None):
        if not self._ready():
            return  # 还在构造中
        scaled = finite(lambda: np.asarray(self.logits) / self.temperature, "logits / temperature",
                        "logits 与 temperature")   # (V,)
        self.set_trait("probs", softmax(self.logits, temperature=self.temperature).tolist())
        self.set_trait("loss", cross_entropy(scaled, self.target))
        self.set_trait("grad", (cross_entropy_grad(scaled, self.target) / self.temperature).tolist())

    def _state_line(self):
        return (f"z=[{', '.join(short(z) for z in self.logits)}]，τ={short(self.temperature)}，"
                f"真实目标={self.labels[self.target]}")

    def summary(self):
        """一行可读的文字：分数、温度、真实目标、概率和损失（纸面和纯文本界面显示它）。"""
        ps = ", ".join(fmt(p, 3) for p in self.probs)
        return f"Softmax 探索器：{self._state_line()}，p=[{ps}]，损失={fmt(self.loss, 4)}"

    def snapshot_png(self, dpi=100):
        """当前状态的柱状图（PNG 字节），供 PDF 与不能运行交互组件的页面使用。"""
        fig = snapshot_figure(max(3.4, 0.6 * len(self.labels) + 1.6), 2.4, dpi)
        title = f"{self._state_line()}，损失={fmt(self.loss, 4)}"
        bar_probs(fig.subplots(), self.probs, self.labels, target=self.target, title=title)
        return figure_png(fig)


def softmax_explorer(logits=DEFAULT_LOGITS, labels=DEFAULT_LABELS, target=None, temperature=1.0, *,
                     logit_range=(-10.0, 10.0), logit_step=0.1, temperature_range=(0.1, 10.0)):
    """创建 Softmax 探索器（返回交互组件，不自动显示；放在单元格最后一行即可显示）。

    参数
    ----
    logits : 2 到 8 个有限实数，每个候选的分数 z
    labels : 与 logits 等长的候选名，互不相同
    target : 真实目标 y：候选名或编号；默认最后一个候选
    temperature : 温度 τ，正的有限实数
    logit_range : 分数滑块的范围 (最小, 最大)；超出范围的分数照样计算，只是滑块停在端点
    logit_step : 分数滑块的刻度间隔
    temperature_range : 温度滑块的范围 (最小, 最大)，下限大于 0，按对数刻度移动

    返回
    ----
    SoftmaxExplorer

    讲解：:ref:`softmax-explorer`
    >>> w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")
    >>> [round(p, 3) for p in w.probs]
    [0.09, 0.245, 0.665]
    >>> w.logits = [0, 1, 3]          # 只有绿的分数变大，红的概率也下降
    >>> round(w.probs[0], 3)
    0.042
    """
    settings = candidate_settings(logits, labels, target, logit_range, logit_step)
    t_lo, t_hi = check_range(temperature_range, "temperature_range", positive=True)
    return SoftmaxExplorer(**settings, temperature=check_temperature(temperature),
                           temperature_min=t_lo, temperature_max=t_hi)
