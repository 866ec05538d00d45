"""课程自带的小型中文语料：两百来句日常短句、冻结的字表，以及字与编号的互译。

约定
----
* 语料在 ``labcode/data/zh_corpus.txt``，一行一句，每句是一篇“文档”。
* 字表冻结在 ``labcode/data/zh_vocab.txt``，一行一项：前三行是特殊记号
  ``<UNK>``、``<BOS>``、``<EOS>``（编号 ``UNK, BOS, EOS = 0, 1, 2``，见 :mod:`labcode.vocab`），
  其后是语料里出现过的每个字（含标点），按 Unicode 码位排序。
  字表存在仓库里、不在运行时重建，所以改了语料也不会悄悄改变编号；
  测试会检查字表与语料是否一致。
* :func:`encode` 把字表里没有的字一律编成 ``UNK``（编号 0），因此
  ``decode(encode(s)) == s`` 只对全部由字表内的字组成的文本成立。
"""
from __future__ import annotations

from functools import cache
from importlib.resources import files

import numpy as np

from ._validate import as_list, check_text
from .batch import collate
from .vocab import BOS, EOS, SPECIALS, UNK, Vocab


def _read_lines(name):
    text = files("labcode").joinpath("data", name).read_text(encoding="utf-8")
    return tuple(line for line in text.splitlines() if line)


@cache
def sentences():
    """语料里的全部句子（按文件顺序），每句是一个 str。

    讲解：:ref:`ch3-corpus`
    >>> sentences()[0]
    '谢谢。'
    """
    return _read_lines("zh_corpus.txt")


@cache
def vocab():
    """冻结的字表（:class:`~labcode.vocab.Vocab`）：``vocab()[字]`` 是编号，``vocab().symbols[i]`` 是编号 i 的项；
    前三项是 ``<UNK>``、``<BOS>``、``<EOS>``。

    讲解：:ref:`ch3-corpus`
    >>> vocab().symbols[:3], vocab()["谢"] > EOS
    (('<UNK>', '<BOS>', '<EOS>'), True)
    """
    lines = _read_lines("zh_vocab.txt")
    return Vocab(lines[:len(SPECIALS)], lines[len(SPECIALS):], unknown=SPECIALS[UNK])


def encode(text):
    """把一句话（str）逐字换成编号，形状 (len(text),) 的 int64 数组；字表里没有的字编成 ``UNK``（0）。不加 BOS/EOS。

    讲解：:ref:`ch3-corpus`
    >>> decode(encode("谢谢"))
    '谢谢'
    >>> int(encode("㐀")[0]) == UNK  # 生僻字不在字表里
    True
    """
    return vocab().encode(text)


def decode(ids):
    """把一维编号序列换回文字；特殊词元写成 ``<UNK>``、``<BOS>``、``<EOS>``。

    讲解：:ref:`ch3-corpus`
    >>> decode([1, *encode("你好"), 2])
    '<BOS>你好<EOS>'
    """
    return vocab().decode(ids)


def document(text):
    """一篇文档的编号：``[BOS, *encode(text), EOS]``，正是 :func:`labcode.collate` 要的格式。

    讲解：:ref:`ch3-batch`
    >>> document("谢谢").tolist() == [BOS, *encode("谢谢").tolist(), EOS]
    True
    """
    return np.concatenate([[BOS], encode(text), [EOS]]).astype(np.int64)


def make_batch(texts):
    """把几句话拼成一个批次：``collate([document(t) for t in texts])``。

    返回
    ----
    inputs, targets : 形状 (B, T) 的 int64 数组；targets 在填充处是 -100

    讲解：:ref:`ch3-batch`
    >>> inputs, targets = make_batch(["谢谢", "你好吗"])
    >>> inputs.shape, targets.shape
    ((2, 4), (2, 4))
    """
    texts = as_list(texts, "texts", "句子")
    for i, text in enumerate(texts):
        check_text(text, f"texts[{i}]", note="字符串（一句话）", empty=True)
    return collate([document(t) for t in texts], vocab_size=len(vocab()))
