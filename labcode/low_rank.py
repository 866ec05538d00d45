"""低秩的 bigram 模型：嵌入表 E（形状 (V, d)）直接接输出投影 W_out（形状 (d, V)），用全批量梯度下降训练。

约定
----
* 读到编号 i 以后给候选 j 的分数是 ``(E @ W_out)[i, j]``，这张 (V, V) 分数表的秩不超过 d。
* 训练数据是一批 ``inputs``、``targets``（与 :func:`labcode.collate` 的输出相同，目标 -100 处不计损失）。
  同一对 (前一个字 i, 后一个字 j) 出现几次，损失里就有几项完全相同的 −ln p，所以先数出每一对的次数 C[i, j]，
  再按次数加权：与逐位置计算得到同样的损失和梯度，每一步却只算一张 (V, V) 表。
"""
from __future__ import annotations

import numpy as np

from ._validate import as_array, as_finite_array, as_ids, as_table, check_int, check_lr, check_overflow, check_size
from .batch import IGNORE
from .bigram import _counts_step, count_matrix


def pair_counts(inputs, targets, vocab_size):
    """数一数每一对 (输入 i, 目标 j) 出现了几次，目标为 -100 的位置不算；返回形状 (V, V) 的 float64 数组。

    讲解：:ref:`ch3-train-low-rank`
    >>> pair_counts([[1, 3, 3]], [[3, 3, -100]], 4)[[1, 3], 3].tolist()
    [1.0, 1.0]
    """
    vocab_size = check_int(vocab_size, "vocab_size", 1)
    check_size((vocab_size, vocab_size), "vocab_size", vocab_size)
    inputs = as_ids(inputs, vocab_size, "inputs")
    targets = as_array(targets, "targets")
    if targets.shape != inputs.shape:
        raise ValueError(f"targets 的形状必须与 inputs 相同 {inputs.shape}，收到 {targets.shape}")
    valid = targets != IGNORE
    if not valid.any():
        raise ValueError("targets 至少要有一个不是 -100 的目标，收到的全是 -100（没有可计的损失）")
    ys = as_ids(targets[valid], vocab_size, "targets（-100 以外的目标）")
    return count_matrix(inputs[valid], ys, vocab_size).astype(np.float64)   # 与第 4 章的计数矩阵同一个数法


def _loss_and_grads(E, W_out, C):
    """按次数加权的平均交叉熵，以及它对 E 和 W_out 的梯度：分数表 Z = E @ W_out 上正是 bigram 的计数写法。"""
    loss, dZ = _counts_step(E @ W_out, C, 0.0)     # dZ：每个位置的 p − e_y，按次数加起来再除以 N
    return loss, dZ @ W_out.T, E.T @ dZ            # dE (V, d)，dW_out (d, V)


def train_low_rank_bigram(E, W_out, inputs, targets, lr, steps):
    """全批量梯度下降训练低秩 bigram：E ← E − lr·dE，W_out ← W_out − lr·dW_out，重复 steps 次。

    参数
    ----
    E : 形状 (V, d) 的初始嵌入表；W_out : 形状 (d, V) 的初始输出投影（两者都不会被原地修改）
    inputs, targets : 同形状的编号数组（如 :func:`labcode.corpus.make_batch` 的输出）；目标 -100 处不计损失
    lr : 学习率 η，正数；steps : 更新几次，非负整数

    返回
    ----
    E, W_out : 训练后的两张表；losses : 形状 (steps + 1,)，losses[k] 是更新 k 次后的平均交叉熵，
    等于 ``cross_entropy(embedding(E, inputs) @ W_out, targets)``

    讲解：:ref:`ch3-train-low-rank`
    >>> E0, W0 = np.zeros((3, 1)), np.zeros((1, 3))
    >>> _, _, losses = train_low_rank_bigram(E0, W0, [[0, 1]], [[1, 2]], lr=1.0, steps=2)
    >>> losses.round(4).tolist()      # 两张表全为 0 时梯度也是 0：至少一张要从非零出发
    [1.0986, 1.0986, 1.0986]
    """
    E = as_table(E, "E").copy()
    W_out = as_finite_array(W_out, "W_out").copy()
    V, d = E.shape
    if W_out.shape != (d, V):
        raise ValueError(f"W_out 的形状必须是 (d, V) = ({d}, {V})（与 E 的形状 (V, d) 对应），收到 {W_out.shape}")
    lr, steps = check_lr(lr), check_int(steps, "steps", 0)
    check_size((steps + 1,), "steps", steps)
    C = pair_counts(inputs, targets, V)
    losses = []
    for step in range(steps + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            loss, dE, dW = _loss_and_grads(E, W_out, C)
        check_overflow(np.append(dE, loss), f"更新 {step} 次后的损失与梯度", "lr 或初始的 E、W_out")
        losses.append(loss)
        if step == steps:
            break
        E -= lr * dE
        W_out -= lr * dW
    return E, W_out, np.array(losses)
