"""梯度一步探索器：把一个位置的分数 z 直接当作变量，沿梯度 p - e_y 走一步，看概率和损失怎样变。

分数本身就是被更新的变量，所以每走一步分数之和不变、损失只降不升；真实训练更新的是产生分数的参数，
学习率太大时损失可以上升（第 4 章）。交互组件的网页、文字摘要和纸面快照都这样说明。

浏览器里的计算由 ``gradient_explorer.js`` 完成（与 labcode 同一套公式），静态网页上没有内核也能走步；
在 Jupyter 内核里，Python 端用 labcode 的 ``gradient_step``、``cross_entropy`` 与 ``cross_entropy_grad``
算出同样的数。
"""
from __future__ import annotations

import numpy as np
import traitlets

from .._validate import check_count, check_lr, check_slider
from ..gradients import gradient_step
from ..plots import PALETTE
from ..probability import cross_entropy, cross_entropy_grad, softmax
from ._base import bundle, figure_png, fmt, short, snapshot_figure, styles
from ._candidates import DEFAULT_LABELS, DEFAULT_LOGITS, CandidateExplorer, candidate_settings

DEFAULT_TARGET, DEFAULT_LR, DEFAULT_MAX_STEPS = 0, 1.0, 100
PREVIEW_STEPS = 20  # 损失图里的虚线：按当前 η 再走这么多步（与 gradient_explorer.js 的 PREVIEW_STEPS 相同）
# 探索器的结论在什么前提下成立：网页、文字摘要、快照里处处都这样说。
SCOPE = "把一个位置的分数 z 直接当作变量更新"


class GradientExplorer(CandidateExplorer):
    """梯度一步探索器（交互组件）。``logits``、``target``、``lr`` 与走步记录是唯一的真值来源。

    在 Python 里给 ``logits`` 或 ``target`` 赋值，等于从当前分数重新开始（记录清零）；改 ``lr`` 不清零，
    只影响以后的步子（它是标量，可以用 ``ipywidgets.jslink`` 接到一个标准滑块上）。
    ``step(n)`` 走 n 步，``reset()`` 回到起点。``start_logits``、``steps``、``history`` 只由这两个方法
    和网页上的按钮改写，在 Python 里是只读的。一般用 :func:`gradient_explorer` 创建。
    候选、目标与分数滑块见 :class:`CandidateExplorer`。
    """

    _esm = bundle("gradient_explorer")
    _css = styles("candidates", "gradient_explorer")

    target = traitlets.Int(DEFAULT_TARGET).tag(sync=True)
    lr = traitlets.Float(DEFAULT_LR).tag(sync=True)
    start_logits = traitlets.List(traitlets.Float(), read_only=True).tag(sync=True)   # (V,) 这一轮的起点
    steps = traitlets.Int(0, read_only=True).tag(sync=True)
    history = traitlets.List(traitlets.Float(), read_only=True).tag(sync=True)        # (steps + 1,) 各步的损失
    max_steps = traitlets.Int(DEFAULT_MAX_STEPS).tag(sync=True)
    lr_min = traitlets.Float(0.1).tag(sync=True)
    lr_max = traitlets.Float(5.0).tag(sync=True)
    lr_step = traitlets.Float(0.1).tag(sync=True)

    probs = traitlets.List(traitlets.Float(), read_only=True)        # (V,) p = softmax(z)
    loss = traitlets.Float(read_only=True)                           # -ln p_y
    grad = traitlets.List(traitlets.Float(), read_only=True)         # (V,) p - e_y
    next_logits = traitlets.List(traitlets.Float(), read_only=True)  # (V,) z - lr * grad
    next_probs = traitlets.List(traitlets.Float(), read_only=True)   # (V,)
    next_loss = traitlets.Float(read_only=True)

    @traitlets.validate("lr")
    def _valid_lr(self, proposal):
        return check_lr(proposal["value"])

    def __init__(self, **kwargs):
        self._from_page = False
        super().__init__(**kwargs)
        self._restart()  # 默认值不会触发变化事件

    def set_state(self, sync_data):
        # 网页发来走一步、回到起点或新起点时，连同它的记录一起发：照收不改。
        self._from_page = True
        try:
            super().set_state(sync_data)
        finally:
            self._from_page = False

    # ------------------------------------------------------------ 走步
    def _restart(self):
        """从当前分数重新开始：起点 = 当前分数，记录里只有起点的损失。"""
        with self.hold_sync():
            self.set_trait("start_logits", list(self.logits))
            self.set_trait("steps", 0)
            self.set_trait("history", [cross_entropy(np.asarray(self.logits), self.target)])
        self._recompute()

    def step(self, n=1):
        """沿梯度走 n 步：每步 z ← z - lr * (p - e_y)，并把新损失记入 ``history``。"""
        n = check_count(n, "n")
        if self.steps + n > self.max_steps:
            raise ValueError(f"n 太大：已走 {self.steps} 步，再走 {n} 步会超过 max_steps={self.max_steps}")
        z, losses = _run(self, n)
        self._set_run(z.tolist(), self.steps + n, self.history + losses)

    def reset(self):
        """回到起点：分数恢复为 ``start_logits``，记录清零。"""
        z = list(self.start_logits)
        self._set_run(z, 0, [cross_entropy(np.asarray(z), self.target)])

    def _set_run(self, logits, steps, history):
        with self.hold_sync():
            self._from_page = True  # 记录是这里写的：不重新开始
            try:
                self.logits = logits
            finally:
                self._from_page = False
            self.set_trait("steps", steps)
            self.set_trait("history", history)

    @traitlets.observe("logits", "target")
    def _on_start_change(self, change):
        if self._from_page:
            self._recompute()
        else:
            self._restart()  # Python 给了新的 z 或 y：重新开始

    @traitlets.observe("lr")
    def _recompute(self, change=None):
        if not self._ready():
            return  # 还在构造中
        z = np.asarray(self.logits)                            # (V,)
        g = cross_entropy_grad(z, self.target)                 # (V,) p - e_y
        z_next = gradient_step(z, self.target, self.lr)        # (V,) z - lr * g
        self.set_trait("probs", softmax(z).tolist())
        self.set_trait("loss", cross_entropy(z, self.target))
        self.set_trait("grad", g.tolist())
        self.set_trait("next_logits", z_next.tolist())
        self.set_trait("next_probs", softmax(z_next).tolist())
        self.set_trait("next_loss", cross_entropy(z_next, self.target))

    # ------------------------------------------------------------ 纸面
    def summary(self):
        """一行文字：分数、真实目标、学习率、步数、这一步前后的损失（纸面和纯文本界面显示它）。"""
        zs = ", ".join(fmt(z, 3) for z in self.logits)
        return (f"梯度一步探索器（{SCOPE}）：z=[{zs}]，真实目标={self.labels[self.target]}，η={short(self.lr)}，"
                f"已走 {self.steps} 步，损失 {fmt(self.loss, 4)} → 再走一步后 {fmt(self.next_loss, 4)}")

    def snapshot_png(self, dpi=100):
        """当前状态的静态图（PNG 字节）：左为这一步前后的概率，右为损失记录及按当前 η 继续走的损失。"""
        fig = snapshot_figure(max(6.4, 0.7 * len(self.labels) + 4.4), 2.8, dpi)
        left, right = fig.subplots(1, 2, width_ratios=[max(3, len(self.labels)), 3])
        _draw_probs(left, self)
        _draw_losses(right, self)
        fig.suptitle(f"{SCOPE}：每步分数之和不变，损失只降不升。训练更新的是参数，学习率太大时损失会上升（第 4 章）",
                     fontsize=8)
        return figure_png(fig)


def _run(w, n):
    """从 w 的当前分数按当前 η 走 n 步：返回走到的分数和每步后的损失（与 gradient_explorer.js 的 runSteps 相同）。"""
    z, losses = np.asarray(w.logits), []
    for _ in range(n):
        z = gradient_step(z, w.target, w.lr)        # (V,)
        losses.append(cross_entropy(z, w.target))
    return z, losses


def _draw_probs(ax, w):
    """每个候选两根柱：实心 = 当前 p，斜线 = 走一步后的 p′；目标的名字后标“（目标）”。"""
    from matplotlib.patches import Patch

    x = np.arange(len(w.labels))
    colours = [w.palette[k % len(w.palette)] for k in x]
    now = ax.bar(x - 0.2, w.probs, 0.38, color=colours)
    after = ax.bar(x + 0.2, w.next_probs, 0.38, color="white", edgecolor=colours, hatch="///")
    for rect, p in zip([*now, *after], [*w.probs, *w.next_probs], strict=True):
        ax.annotate(fmt(p, 2), (rect.get_x() + rect.get_width() / 2, p), ha="center", va="bottom",
                    xytext=(0, 1), textcoords="offset points", fontsize=7)
    names = [f"{name}（目标）" if k == w.target else name for k, name in enumerate(w.labels)]
    ax.set_xticks(x, names)
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("概率")
    keys = [Patch(color="0.35", label="当前 p"),
            Patch(facecolor="white", edgecolor="0.35", hatch="///", label="一步后 p′")]
    ax.legend(handles=keys, loc="upper left", fontsize=7, frameon=False, ncols=2)
    ax.set_title(f"真实目标={w.labels[w.target]}，η={short(w.lr)}，已走 {w.steps} 步", fontsize=9)


def _draw_losses(ax, w):
    """实线 = 已记录的损失；虚线 = 按当前 η 再走 PREVIEW_STEPS 步的损失（网页上的损失图也这样画）。"""
    ax.plot(range(len(w.history)), w.history, "o-", color=PALETTE[7], markersize=3, label="已走的步")
    ahead = [w.history[-1], *_run(w, PREVIEW_STEPS)[1]]
    ax.plot(range(w.steps, w.steps + len(ahead)), ahead, "--", color=PALETTE[0],
            label=f"按当前 η 再走 {PREVIEW_STEPS} 步")
    ax.set_ylim(0, max(w.history[0], ahead[0]) * 1.1)
    ax.set_xlabel("已走的步数")
    ax.set_ylabel("损失")
    ax.legend(fontsize=7, frameon=False)
    done = "（还没走）" if w.steps == 0 else f" → {fmt(w.loss, 3)}"
    ax.set_title(f"损失 {fmt(w.history[0], 3)}{done}", fontsize=9)


# ---------------------------------------------------------------- 工厂函数
def gradient_explorer(logits=DEFAULT_LOGITS, labels=DEFAULT_LABELS, target=DEFAULT_TARGET, lr=DEFAULT_LR, *,
                      logit_range=(-10.0, 10.0), logit_step=0.1, lr_range=(0.1, 5.0), lr_step=0.1,
                      max_steps=DEFAULT_MAX_STEPS):
    """创建梯度一步探索器（返回交互组件，不自动显示；放在单元格最后一行即可显示）。

    参数
    ----
    logits : 2 到 8 个有限实数，每个候选的起始分数 z，形状 (V,)
    labels : 与 logits 等长的候选名，互不相同
    target : 真实目标 y：候选名或编号；默认第一个候选（编号 0）
    lr : 学习率 η，正的有限实数
    logit_range, logit_step : 分数滑块的范围 (最小, 最大) 与刻度间隔；走步可以走出这个范围，滑块停在端点
    lr_range, lr_step : 学习率滑块的范围（下限大于 0）与刻度间隔
    max_steps : 一次最多走多少步（连续走到这里自动停）

    返回
    ----
    GradientExplorer

    讲解：:ref:`ch2-gradient-explorer`
    >>> w = gradient_explorer([0, 1, 2], ["红", "黄", "绿"], target="红", lr=1.0)
    >>> [round(g, 3) for g in w.grad]            # p - e_y
    [-0.91, 0.245, 0.665]
    >>> w.step(3)
    >>> [round(loss, 3) for loss in w.history]   # 分数本身是变量：损失一步步下降
    [2.408, 1.22, 0.593, 0.344]
    """
    settings = candidate_settings(logits, labels, target, logit_range, logit_step)
    lr_lo, lr_hi, lr_step = check_slider(lr_range, lr_step, "lr", positive=True)
    return GradientExplorer(**settings, lr=check_lr(lr), lr_min=lr_lo, lr_max=lr_hi, lr_step=lr_step,
                            max_steps=check_count(max_steps, "max_steps"))
