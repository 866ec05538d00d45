"""把若干篇文档（编号序列）拼成一个批次：特殊词元、右侧填充与错位一格的目标。

约定
----
* 特殊词元 ``UNK, BOS, EOS = 0, 1, 2``（:mod:`labcode.vocab`）：未知词、文档开头、文档结尾；``IGNORE = -100`` 是
  “这个位置没有目标”的标记，交叉熵（``ignore_index=-100``）跳过它。
* 传给 :func:`collate` 的每篇文档已经带好首尾：以 BOS 开头、以 EOS 结尾，中间只有普通编号
  （UNK 可以出现在中间）。输入是文档去掉最后一个编号，目标是文档去掉第一个编号，
  所以位置 t 读到 doc[t]，要预测 doc[t+1]；文档自己的 EOS 只当目标，BOS 只当输入。
* 较短的文档在右侧补齐：输入补 EOS（补的输入也要查表，所以必须是合法编号；哪一个都行，
  它的目标是 IGNORE，不影响损失），目标补 IGNORE。
"""
from __future__ import annotations

import numpy as np

from ._validate import as_array, as_finite_array, as_list, check_int, finite, short_repr
from .vocab import BOS, EOS, UNK

IGNORE = -100


def _check_doc(doc, i, vocab_size):
    """检查 docs[i]：非空整数序列，BOS 开头、EOS 结尾，中间不含 BOS/EOS/负数。"""
    arr = as_array(doc, f"docs[{i}]")
    if arr.dtype == bool or arr.ndim != 1 or not (np.issubdtype(arr.dtype, np.integer) or arr.size == 0):
        raise TypeError(f"docs[{i}] 必须是一维整数编号序列，"
                        f"收到 dtype {arr.dtype}、形状 {arr.shape}：{short_repr(doc)}")
    if arr.size < 2:
        raise ValueError(f"docs[{i}] 至少要有 BOS 和 EOS 两个编号（空文档写作 [{BOS}, {EOS}]），收到 {short_repr(doc)}")
    if arr[0] != BOS or arr[-1] != EOS:
        raise ValueError(f"docs[{i}] 必须以 BOS={BOS} 开头、以 EOS={EOS} 结尾，收到 {short_repr(doc)}")
    inner = arr[1:-1]
    if np.isin(inner, [BOS, EOS]).any() or (inner < 0).any():
        raise ValueError(f"docs[{i}] 中间的编号必须是 UNK={UNK} 或 >= 3 的普通编号"
                         f"（BOS/EOS 只能在首尾，负数不是编号），收到 {short_repr(doc)}")
    if vocab_size is not None and arr.max() >= vocab_size:
        raise IndexError(f"docs[{i}] 的编号必须小于 vocab_size={vocab_size}，收到 {short_repr(doc)}")
    return arr.astype(np.int64)


def collate(docs, vocab_size=None):
    """把带首尾标记的文档拼成右侧填充的批次 (inputs, targets)。

    参数
    ----
    docs : 由 B 篇文档组成的序列，每篇是以 BOS 开头、EOS 结尾的整数编号序列
    vocab_size : 可选，词表大小；给出时检查每个编号都小于它

    返回
    ----
    inputs : 形状 (B, T) 的 int64 数组，T = 最长文档长度 - 1，右侧补 EOS
    targets : 形状 (B, T) 的 int64 数组，inputs 向左错一格，右侧补 IGNORE

    讲解：:ref:`ch3-batch`
    >>> inputs, targets = collate([[1, 3, 5, 2], [1, 4, 2]])
    >>> inputs.tolist(), targets.tolist()
    ([[1, 3, 5], [1, 4, 2]], [[3, 5, 2], [4, 2, -100]])
    """
    docs = as_list(docs, "docs", "文档（编号序列）")
    if vocab_size is not None:
        check_int(vocab_size, "vocab_size", EOS + 1, note="要容纳特殊词元 UNK、BOS、EOS")
    arrays = [_check_doc(doc, i, vocab_size) for i, doc in enumerate(docs)]
    T = max(len(a) for a in arrays) - 1
    inputs = np.full((len(arrays), T), EOS, dtype=np.int64)     # (B, T)
    targets = np.full((len(arrays), T), IGNORE, dtype=np.int64)  # (B, T)
    for b, a in enumerate(arrays):
        inputs[b, :len(a) - 1] = a[:-1]
        targets[b, :len(a) - 1] = a[1:]
    return inputs, targets


def valid_mean(losses, targets, ignore_index=IGNORE):
    """只对有效目标取平均：有效位置的损失之和除以有效目标的个数 N（``cross_entropy`` 的 "mean" 就这样除）。

    参数
    ----
    losses : 逐位置的损失，形状 (...)，例如 ``cross_entropy(..., reduction="none")`` 的结果
    targets : 与 losses 同形状的整数目标；等于 ignore_index 的位置不计入分子，也不计入分母
    ignore_index : 被忽略的目标值，默认 IGNORE = -100

    讲解：:ref:`ch2-denominator`
    >>> valid_mean([[1.0, 1.5, 2.5], [3.5, 1.5, 0.0]], [[3, 5, 2], [4, 2, IGNORE]])  # 10 / 5，不是 10 / 6
    2.0
    """
    values = as_finite_array(losses, "losses")
    t = as_array(targets, "targets")
    if t.size == 0 and t.dtype == np.float64:   # np.asarray([]) 是 float64：空列表也算整数目标
        t = t.astype(np.int64)
    if t.dtype == bool or not np.issubdtype(t.dtype, np.integer):
        raise TypeError(f"targets 必须是整数目标编号，收到 dtype {t.dtype}：{short_repr(targets)}")
    if t.shape != values.shape:
        raise ValueError(f"losses 与 targets 的形状必须相同，收到 {values.shape} 与 {t.shape}")
    ignore_index = check_int(ignore_index, "ignore_index")
    valid = t != ignore_index
    n = int(valid.sum())
    if n == 0:  # 平均值没有定义：绝不悄悄除以 1 或得到 nan
        got = "空数组" if t.size == 0 else f"全部 {t.size} 个都等于 ignore_index={ignore_index}"
        raise ValueError(f"targets 至少要有一个有效目标，收到{got}")
    return float(finite(lambda: values[valid].sum(), "有效位置的损失之和", "losses") / n)
