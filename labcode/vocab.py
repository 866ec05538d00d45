"""词表：符号与编号的互译。第 3 章的字表、第 4 章的字母表和第 5 章的成语字表都是一个 :class:`Vocab`。

约定
----
* 编号从 0 起：先是几个特殊记号（``specials``），再是文本里的字。
* 书里用到三套特殊记号，都写在这里：

  - 文档（第 3 章的语料与 :func:`labcode.collate`）：``<UNK>``、``<BOS>``、``<EOS>``，编号 ``UNK, BOS, EOS = 0, 1, 2``；
  - 词（第 4 章的名字和第 5 章的成语）：只有 ``'.'``（:data:`BOUNDARY`），编号 0，既表示开始也表示结束；
  - 截断的成语字表：``'.'`` 编号 0，再加 ``'□'``（:data:`UNKNOWN`）编号 1，表示词表外的字。
* 有 ``unknown`` 的词表把表外的字编成它（像第 3 章的 ``UNK``）；没有的，遇到表外的字就报错。
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._validate import as_ids, check_1d, check_distinct, check_in_vocab, short_repr

SPECIALS = ("<UNK>", "<BOS>", "<EOS>")  # 文档的特殊记号，依次是编号 UNK, BOS, EOS
UNK, BOS, EOS = range(len(SPECIALS))
BOUNDARY = "."                          # 词的开始与结束
UNKNOWN = "□"                           # 截断词表里表外的字


class Vocab(Mapping):
    """词表：一个只读的字典“符号 → 编号”，另外记得哪些符号是特殊记号，并负责编码与解码。

    ``vocab["a"]`` 是 a 的编号，``vocab.symbols[i]`` 是编号 i 的符号，``list(vocab)`` 按编号列出全部符号。

    参数
    ----
    specials : 特殊记号（非空字符串），依次占编号 0, 1, …
    chars : 其余的符号，每个是一个字，编号接在特殊记号后面
    unknown : 可选，表示“词表外的字”的那个特殊记号

    讲解：:ref:`ch3-corpus`、:ref:`ch4-pairs`
    >>> v = Vocab((".",), "ab")
    >>> v
    Vocab({'.': 0, 'a': 1, 'b': 2})
    >>> v.encode("aba").tolist(), v.decode([0, 1, 2, 0])
    ([1, 2, 1], '.ab.')
    """

    def __init__(self, specials, chars, unknown=None):
        specials, chars = tuple(specials), tuple(chars)
        if not specials or not all(isinstance(s, str) and s for s in specials):
            raise ValueError(f"specials 必须是至少一个非空字符串，收到 {specials!r}")
        if not all(isinstance(c, str) and len(c) == 1 for c in chars):
            raise ValueError(f"chars 的每一项都必须是一个字（长度为 1 的字符串），收到 {short_repr(list(chars))}")
        symbols = check_distinct(specials + chars, "specials 与 chars", "符号")
        if unknown is not None and unknown not in specials:
            raise ValueError(f"unknown 必须是特殊记号之一 {specials}，收到 {unknown!r}")
        self.symbols, self.specials, self.unknown = symbols, specials, unknown
        self._ids = {s: i for i, s in enumerate(symbols)}
        self._chars = {c: i for i, c in enumerate(chars, start=len(specials))}   # 只有字：文本里的字不会被当成特殊记号

    @classmethod
    def from_texts(cls, texts, specials, unknown=None):
        """由文本建词表：特殊记号在前，其后是文本里出现过的每个字，按 Unicode 码位排序。

        >>> Vocab.from_texts(["谢谢", "你"], SPECIALS, unknown="<UNK>")
        Vocab({'<UNK>': 0, '<BOS>': 1, '<EOS>': 2, '你': 3, '谢': 4})
        """
        return cls(specials, sorted(set("".join(texts))), unknown)

    def __getitem__(self, symbol):
        return self._ids[symbol]

    def __iter__(self):
        return iter(self.symbols)

    def __len__(self):
        return len(self.symbols)

    def __eq__(self, other):
        if isinstance(other, Vocab):
            return (self.symbols, self.specials, self.unknown) == (other.symbols, other.specials, other.unknown)
        return Mapping.__eq__(self, other)

    def __repr__(self):
        return f"Vocab({self._ids!r})"

    def missing(self, text):
        """text 里不在词表中的字（去重、按码位排序）；有 unknown 的词表没有“不认识”的字，返回空列表。"""
        return [] if self.unknown is not None else sorted(set(text) - self._chars.keys())

    def ids(self, text):
        """逐字查编号（list[int]）；表外的字编成 unknown。调用者先用 :meth:`missing` 确认没有表外的字。"""
        unknown = self._ids.get(self.unknown)
        return [self._chars.get(ch, unknown) for ch in text]

    def encode(self, text):
        """把文本逐字换成编号，形状 (len(text),) 的 int64 数组；不加任何特殊记号。

        表外的字：有 unknown 时编成它，否则报错。
        """
        if not isinstance(text, str):
            raise TypeError(f"text 必须是字符串（str），收到 {short_repr(text)}（{type(text).__name__}）")
        check_in_vocab(text, self, "text", repr(text))
        return np.array(self.ids(text), dtype=np.int64)

    def decode(self, ids):
        """把一维编号序列换回文字：每个编号写成它的符号，特殊记号也照写（如 ``<BOS>``、``.``）。"""
        ids = check_1d(as_ids(ids, len(self)), "ids", "一次解码一篇的编号序列")
        return "".join(self.symbols[i] for i in ids)


def check_vocab(vocab, *, first=None, size=None, of=None):
    """vocab 必须是 :class:`Vocab`；给了 first 时编号 0 必须是这个特殊记号（如词的边界 ``'.'``），
    给了 size 时词表大小必须等于它（of 是决定大小的那个参数，如 ``"W"``、``"counts"``）。

    讲解：:ref:`ch4-pairs`
    """
    if not isinstance(vocab, Vocab) or (first is not None and vocab.specials[0] != first):
        need = " Vocab" if first is None else f"编号 0 是 {first!r} 的 Vocab（用 build_vocab 建）"
        raise TypeError(f"vocab 必须是{need}，收到 {short_repr(str(vocab))}（{type(vocab).__name__}）")
    if size is not None and len(vocab) != size:
        raise ValueError(f"vocab 的大小必须等于 {of} 的行数 {size}，收到 {len(vocab)} 个符号")
    return vocab
