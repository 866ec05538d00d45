"""词的数据：读入“一行一个词”的文件，打乱后切分，建字符词表，把词拆成 (前一个字, 后一个字) 的训练对。

约定
----
* 编号 0 是 ``'.'``（:data:`labcode.vocab.BOUNDARY`）：它既表示“词的开始”，也表示“词的结束”；
  其余字符按 Unicode 码位排序，从 1 开始编号。词表是 :class:`labcode.vocab.Vocab`。
* 文件规则（:func:`load_words`）：UTF-8 编码；每行先去掉首尾空白（含 Windows 的 ``\\r``），
  去掉后为空的行跳过；词中间不能有空白，也不能含保留字符 ``'.'``；字符统一做 NFC 规范化
  （“é”不管是一个码位还是“e + 附加符号”都算同一个字）；大小写原样保留。
"""
from __future__ import annotations

import unicodedata
from importlib.resources import files
from pathlib import Path

import numpy as np

from ._validate import as_list, check_in_vocab, check_path, check_rng
from .vocab import BOUNDARY, Vocab, check_vocab

NAMES_FILE = "names.txt"


def load_words(path=None):
    """读入一行一个词的 UTF-8 文本文件，返回词的列表（顺序与文件相同）。

    参数
    ----
    path : 文件路径；默认是随 labcode 一起发布的 names.txt（32,033 个英文名，来源见 labcode/data/README.md）

    返回
    ----
    words : list[str]，每个词非空、不含空白和 ``'.'``

    讲解：:ref:`ch4-data`
    >>> words = load_words()
    >>> len(words), words[:3]
    (32033, ['emma', 'olivia', 'ava'])
    """
    source = files("labcode") / "data" / NAMES_FILE if path is None else Path(check_path(path))
    if path is not None and not source.is_file():
        raise FileNotFoundError(f"path 必须是一个存在的文件，找不到：{str(source)!r}")
    try:
        text = source.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"path 指向的文件必须是 UTF-8 编码，编号为 {err.start} 的字节（从 0 数）"
                         f"{err.object[err.start:err.start + 1]!r} 无法按 UTF-8 解码：{str(source)!r}") from None
    words = [unicodedata.normalize("NFC", line.strip()) for line in text.removeprefix("\ufeff").splitlines()]
    for lineno, word in enumerate(words, start=1):
        if word and (problem := _word_problem(word)):   # 空行跳过
            raise ValueError(f"path 指向的文件 {str(source)!r} 第 {lineno} 行{problem}")
    words = [w for w in words if w]
    if not words:
        raise ValueError(f"path 指向的文件里至少要有一个词（空行不算），收到空文件：{str(source)!r}")
    return words


def split_words(words, rng, fractions=(0.8, 0.1, 0.1)):
    """把词打乱后按比例切成几份（如训练 / 验证 / 测试），返回与 fractions 等长的元组。

    文件里的词往往是排好序的（names.txt 先按一份名单、再按另一份，各自按人数从多到少），按位置切分
    只会量出两段数据的差别；先用带种子的随机数生成器打乱，每一份才都像是从同一个分布里抽出来的。

    参数
    ----
    words : 非空的词列表
    rng : numpy.random.Generator（同一个种子总是给出同样的切分）
    fractions : 每份所占的比例，都是正数，加起来等于 1

    返回
    ----
    parts : tuple[list[str], ...]，每份至少一个词，合起来恰好是 words 的一个重排

    讲解：:ref:`ch5-dev`
    >>> train, dev, test = split_words(list("abcdefghij"), np.random.default_rng(0))
    >>> len(train), len(dev), len(test), sorted(train + dev + test) == list("abcdefghij")
    (8, 1, 1, True)
    """
    words = check_words(words)
    check_rng(rng)
    try:
        shares = np.asarray(fractions, dtype=np.float64)
    except (TypeError, ValueError):
        shares = np.array(np.nan)
    if shares.ndim != 1 or len(shares) < 2 or not np.isfinite(shares).all() or (shares <= 0).any() \
            or abs(shares.sum() - 1) > 1e-9:
        raise ValueError(f"fractions 必须是至少两个正数、加起来等于 1，收到 {fractions!r}")
    cuts = np.round(np.cumsum(shares)[:-1] * len(words)).astype(int)  # 各份的分界位置
    parts = tuple([words[i] for i in chunk] for chunk in np.split(rng.permutation(len(words)), cuts))
    if not all(parts):
        raise ValueError(f"words 只有 {len(words)} 个词，按 fractions = {fractions!r} 切分会有空的一份；"
                         f"请给更多的词或更大的比例")
    return parts


def _word_problem(word):
    """一个词违反了哪条规则（接在“words[i] ”或“第 k 行”后面的半句话）；没有问题时返回 None。"""
    if not isinstance(word, str):
        return f"必须是字符串（一个词），收到 {word!r}"
    if not word:
        return "必须至少有一个字符，收到空字符串"
    if any(ch.isspace() for ch in word):
        return f"的词中间不能有空白（一行只放一个词），收到 {word!r}"
    if BOUNDARY in word:
        return f"的词里不能含 {BOUNDARY!r}（它是表示开始/结束的保留符号），收到 {word!r}"
    return None


def check_words(words):
    """词的列表：非空，每个词是非空字符串，不含空白和 ``'.'``；返回 list[str]。

    讲解：:ref:`ch4-data`
    """
    words = as_list(words, "words", "词")
    for i, word in enumerate(words):
        if problem := _word_problem(word):
            raise (TypeError if not isinstance(word, str) else ValueError)(f"words[{i}] {problem}")
    return words


def build_vocab(words):
    """由词的列表建字符词表：``'.'`` 编号 0，其余字符按码位排序依次编号。

    参数
    ----
    words : 非空的词列表

    返回
    ----
    vocab : :class:`~labcode.vocab.Vocab`，``vocab[字符]`` 是编号，``list(vocab)`` 按编号列出字符

    讲解：:ref:`ch4-pairs`
    >>> build_vocab(["aba", "ca"])
    Vocab({'.': 0, 'a': 1, 'b': 2, 'c': 3})
    """
    return Vocab.from_texts(check_words(words), (BOUNDARY,))


def encode_pairs(words, vocab):
    """把每个词两头各补一个 ``'.'``，拆成相邻字符对：xs 是前一个字，ys 是后一个字（都是编号）。

    词表有表示表外字的记号时（如 :func:`labcode.idioms.capped_vocab` 的 □），表外的字编成它；否则报错。

    参数
    ----
    words : 非空的词列表
    vocab : :func:`build_vocab` 或 :func:`labcode.idioms.capped_vocab` 给出的词表（``'.'`` 编号 0）

    返回
    ----
    xs, ys : 形状 (B,) 的 int64 数组，B = Σ (len(词) + 1)

    讲解：:ref:`ch4-pairs`
    >>> xs, ys = encode_pairs(["aba"], build_vocab(["ab"]))
    >>> xs.tolist(), ys.tolist()
    ([0, 1, 2, 1], [1, 2, 1, 0])
    """
    words = check_words(words)
    check_vocab(vocab, first=BOUNDARY)
    if vocab.missing("".join(words)):
        where = next(i for i, w in enumerate(words) if vocab.missing(w))
        check_in_vocab(words[where], vocab, "words", f"words[{where}] = {words[where]!r}")
    ids = [0]                                        # 编号 0 是 '.'：一个词的结束，也是下一个词的开始
    for word in words:
        ids += [*vocab.ids(word), 0]
    return np.array(ids[:-1], dtype=np.int64), np.array(ids[1:], dtype=np.int64)  # (B,), (B,)
