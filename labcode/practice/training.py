"""第 4 章的“你来写”：检查读者写的训练循环（每一步先算损失和梯度，再沿梯度的反方向更新一次）。

读者的循环接收一个 ``loss_and_grad(W)``，所以同一个循环既能配逐条写法，也能配计数写法；
这里用检查自己的 ``loss_and_grad`` 去驱动它，循环里的错误不会和梯度里的错误混在一起。
"""
from __future__ import annotations

import numpy as np

from ..bigram import NAMES_LR, bigram_data, loss_and_grad, loss_and_grad_from_counts, names_data
from . import hints
from .battery import Probe, Returned, coerce_array, draws, run, same_values
from .text import show


def descend(loss_and_grad, W, lr, steps, *, sign=-1.0, fresh=True, move=True):
    """参考的训练循环：返回 (最后的 W, steps + 1 个损失)，losses[k] 是更新 k 次之后的损失。

    sign、fresh、move 只用来模拟常见错误：更新方向、每一步是否重新求梯度、W 是否真的更新。
    """
    W = np.array(W, dtype=np.float64, copy=True)
    losses, first = [], None
    for step in range(steps + 1):
        loss, dW = loss_and_grad(W)
        losses.append(float(loss))
        first = dW if first is None else first
        if step < steps and move:
            W = W + sign * lr * (dW if fresh else first)
    return W, np.array(losses)


def _quadratic(W):
    target = np.array([3.0, -1.0])
    return float(np.sum((W - target) ** 2) / 2), W - target


SEED = 5


def _training_cases(seed):
    """(名字, loss_and_grad, W, lr, steps, 报告里的写法)：二次函数、书里的 “aba”、随机的出发点和 names.txt。"""
    toy = bigram_data(["aba"])
    start = draws(seed, SEED).normal(0.0, 1.0, (3, 3))
    C = names_data().counts
    V = C.shape[0]
    return [
        ("二次函数 ℓ(W) = ½ Σ (W - [3, -1])²，lr = 0.1，4 步", _quadratic, np.zeros(2), 0.1, 4,
         "ℓ(W) = ½ Σ (W - [3, -1])²"),
        ("书里的 “aba”，逐条写法，lr = 1，5 步", lambda W: loss_and_grad(W, toy.xs, toy.ys), np.zeros((3, 3)), 1.0, 5,
         "bigram.loss_and_grad(W, xs, ys)，“aba” 的 4 个训练对"),
        ("随机出发点，“aba”，lr = 0.5，4 步", lambda W: loss_and_grad(W, toy.xs, toy.ys), start, 0.5, 4,
         "bigram.loss_and_grad(W, xs, ys)，“aba” 的 4 个训练对"),
        (f"names.txt，计数写法，lr = {NAMES_LR:g}，3 步（第 4 章“训练循环”一节的数）",
         lambda W: loss_and_grad_from_counts(W, C), np.zeros((V, V)), NAMES_LR, 3,
         "bigram.loss_and_grad_from_counts(W, C)，names.txt 的计数矩阵"),
        ("只更新一次：lr = 0.5，1 步", _quadratic, np.array([1.0, 1.0]), 0.5, 1, "ℓ(W) = ½ Σ (W - [3, -1])²"),
        ("0 步：只有出发点的损失", _quadratic, np.array([1.0, 1.0]), 0.5, 0, "ℓ(W) = ½ Σ (W - [3, -1])²"),
    ]


def check_training_loop(fn, *, seed=None):
    """检查读者写的训练循环 ``fn(loss_and_grad, W, lr, steps)``，它返回 (W, losses)。

    ``loss_and_grad(W)`` 返回 (损失, 与 W 同形状的梯度)。每一步先算损失和梯度，再更新 W ← W - lr·dW，
    共更新 steps 次；losses 有 steps + 1 个数：losses[k] 是更新 k 次之后的损失（与 ``bigram.train`` 相同），
    W 是更新 steps 次之后的权重。losses 可以是列表或数组。出发时的 W 是调用者的，不许被原地改动。
    seed 同 :func:`~labcode.practice.check_softmax`：不给时是书里固定的一组数，给一个非负整数就换一个随机出发点。
    返回 :class:`~labcode.practice.report.CheckResult`；fn 不是函数时报 TypeError。

    >>> def my_train(loss_and_grad, W, lr, steps):
    ...     losses = []
    ...     for step in range(steps):
    ...         loss, dW = loss_and_grad(W)
    ...         losses.append(loss)
    ...         W = W - lr * dW
    ...     losses.append(loss_and_grad(W)[0])          # 最后一次更新之后的损失
    ...     return W, losses
    >>> check_training_loop(my_train).passed
    True
    >>> def uphill(loss_and_grad, W, lr, steps):
    ...     return my_train(lambda v: tuple(-a for a in loss_and_grad(v)), W, lr, steps)
    >>> check_training_loop(uphill).passed
    False
    """
    probes = [Probe(name, (step_fn, W, lr, steps), Returned(("W", "losses"), descend(step_fn, W, lr, steps)),
                    f"loss_and_grad：{formula}；W = {show(W)}，lr = {lr:g}，steps = {steps}")
              for name, step_fn, W, lr, steps, formula in _training_cases(seed)]
    return run("check_training_loop", fn, probes, coerce=_as_weights_and_losses, predict=_training_mistakes,
               advice=hints.ADVICE_TRAINING, params=("loss_and_grad", "W", "lr", "steps"),
               modified={"W": hints.START_MODIFIED})


def _as_weights_and_losses(value, expected):
    """读者应返回 (W, losses)：W 与出发时同形状，losses 是 steps + 1 个数（列表或数组都行）。"""
    if value is None:
        return None, "函数返回了 None：是不是忘了写 return？"
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        return None, f"应返回两个值 (W, losses)，收到 {type(value).__name__}"
    W, problem = coerce_array(value[0], expected[0])
    if problem:
        return None, f"W：{problem}"
    try:
        losses = np.asarray(value[1], dtype=np.float64)
    except (TypeError, ValueError):
        return None, f"losses：应是一串数（列表或数组），收到 {type(value[1]).__name__}"
    want = expected[1]
    if losses.ndim != 1:
        return None, f"losses：应是一维的一串数，收到形状 {losses.shape}"
    if losses.size != want.size:
        return None, _length_problem(losses, want)
    return Returned(("W", "losses"), (W, losses)), None


def _length_problem(losses, want):
    steps = want.size - 1
    head = f"losses：应有 steps + 1 = {want.size} 个数（出发点的损失，和每次更新之后的损失），收到 {losses.size} 个"
    if losses.size == steps and steps > 0:
        if same_values(losses, want[1:]):
            return head + "：少了出发点（更新之前）的损失"
        if same_values(losses, want[:-1]):
            return head + ("：前几个都对，少了最后一次更新之后的损失（循环结束后还要再记一次；"
                           "如果循环只走了 steps - 1 步，W 也少更新了一次）")
    return head


def _training_mistakes(probe):
    step_fn, W, lr, steps = probe.args
    wrong = [(hints.DESCENT_SIGN, descend(step_fn, W, lr, steps, sign=+1.0)),
             (hints.STALE_GRADIENT, descend(step_fn, W, lr, steps, fresh=False)),
             (hints.W_NOT_UPDATED, descend(step_fn, W, lr, steps, move=False)),
             (hints.START_W_RETURNED, (W, probe.expected[1]))]
    if lr != 1:
        wrong.append((hints.LR_IGNORED, descend(step_fn, W, 1.0, steps)))
    return wrong
