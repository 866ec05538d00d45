"""候选探索器的公共部分（Softmax 探索器、梯度一步探索器）：候选的分数、名字、真实目标与分数滑块。

Python 端是基类 :class:`CandidateExplorer` 和工厂共用的 :func:`candidate_settings`；
前端对应 ``candidates.js``（柱状图、分数滑块、目标下拉框、读数表）与 ``candidates.css``。
新的候选探索器 = 这个基类的子类 + 一个用这些前端部件的 ``build`` 函数。
"""
from __future__ import annotations

import traitlets

from .._validate import as_finite_array, as_list, check_1d, check_distinct, check_int, check_slider
from ..plots import colours_for
from ._base import WidgetBase

MIN_CANDIDATES, MAX_CANDIDATES = 2, 8
DEFAULT_LOGITS, DEFAULT_LABELS = (0.0, 1.0, 2.0), ("红", "黄", "绿")


# ---------------------------------------------------------------- 关于候选的检查
def check_logits(logits, n=None):
    """2 到 8 个有限实数（一个位置的分数），给了 n 时个数必须等于 n；返回 list[float]。"""
    z = check_1d(as_finite_array(logits, "logits"), "logits", "一个位置的 V 个分数")
    if not MIN_CANDIDATES <= len(z) <= MAX_CANDIDATES:
        raise ValueError(f"logits 的候选个数必须在 {MIN_CANDIDATES} 到 {MAX_CANDIDATES} 之间，"
                         f"收到 {len(z)} 个：{z.tolist()}")
    if n is not None and len(z) != n:
        raise ValueError(f"logits 的长度必须等于候选个数 {n}（与 labels 一致），收到 {len(z)} 个：{z.tolist()}")
    return z.tolist()


def check_labels(labels, n):
    """n 个互不相同的非空候选名；返回 list[str]。"""
    names = [str(label) for label in as_list(labels, "labels", "候选名")]
    if len(names) != n:
        raise ValueError(f"labels 的长度必须等于 logits 的长度 {n}，收到 {len(names)} 个：{names}")
    if not all(names):
        raise ValueError(f"labels 的候选名必须非空，收到 {names}")
    return check_distinct(names, "labels", "候选名")


def check_target(target, labels):
    """真实目标 y：候选名，或 [0, V) 内的编号；返回编号。"""
    if isinstance(target, str):
        if target not in labels:
            raise ValueError(f"target 必须是 labels 中的名字或 [0, {len(labels) - 1}] 内的编号，"
                             f"收到 {target!r}（可选 {labels}）")
        return labels.index(target)
    return check_int(target, "target", 0, len(labels) - 1, note="真实目标的编号")


def candidate_settings(logits, labels, target, logit_range, logit_step):
    """工厂共用的参数检查：返回分数、名字、目标编号和分数滑块的设置（作为 CandidateExplorer 的特性）。

    target 为 None 时取最后一个候选。
    """
    z = check_logits(logits)
    names = check_labels(labels, len(z))
    y = check_target(len(z) - 1 if target is None else target, names)
    lo, hi, step = check_slider(logit_range, logit_step, "logit")
    return {"labels": names, "logits": z, "target": y, "logit_min": lo, "logit_max": hi, "logit_step": step,
            "palette": colours_for(names)}


# ---------------------------------------------------------------- 基类
class CandidateExplorer(WidgetBase):
    """候选探索器的基类：V 个候选（2 到 8 个）的分数 ``logits``、名字 ``labels``、真实目标 ``target``，
    以及分数滑块的范围与刻度间隔。赋值时检查；要改候选个数，在 ``with w.hold_trait_notifications():``
    里同时给 ``labels`` 和 ``logits`` 赋值。子类加上自己的特性，重写 ``target`` 的默认值。
    """

    # 默认值就是一个合法的状态（本章红、黄、绿的例子），所以不带参数的 subclass() 也能显示。
    logits = traitlets.List(traitlets.Float(), default_value=list(DEFAULT_LOGITS)).tag(sync=True)    # (V,)
    labels = traitlets.List(traitlets.Unicode(), default_value=list(DEFAULT_LABELS)).tag(sync=True)  # (V,)
    target = traitlets.Int(0).tag(sync=True)
    palette = traitlets.List(traitlets.Unicode(), default_value=colours_for(DEFAULT_LABELS)).tag(sync=True)
    logit_min = traitlets.Float(-10.0).tag(sync=True)
    logit_max = traitlets.Float(10.0).tag(sync=True)
    logit_step = traitlets.Float(0.1).tag(sync=True)

    @traitlets.validate("logits")
    def _valid_logits(self, proposal):
        return check_logits(proposal["value"], len(self.labels) if self.labels else None)

    @traitlets.validate("labels")
    def _valid_labels(self, proposal):
        return check_labels(proposal["value"], len(self.logits) if self.logits else len(proposal["value"]))

    @traitlets.validate("target")
    def _valid_target(self, proposal):
        return check_target(proposal["value"], self.labels)

    def _ready(self):
        """分数与目标已经一致（构造中途可能还没有）。"""
        return bool(self.logits) and self.target < len(self.logits)
