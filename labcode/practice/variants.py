"""“动手算”框的变体：每组新数由框的标签和一个四位十六进制的变体号（如 ``7F3A``）决定。

网页上和笔记本里的框（``labcode/widgets/answer_box.js``）点“换一组数”时出的就是这些数，并显示“变体 7F3A”；
在框里写 ``变体 7F3A`` 再核对，或打开 ``…/章节.html#标签:7F3A``，得到的是同一道题。这里用 Python 出同样的数
（同一个随机数发生器 mulberry32、同样的种子、同样的抽取顺序），所以不开浏览器也能由（标签，变体号）
重现一道题，例如给每个学生印一份不同的练习纸：

>>> found = variant("loss", "ch1-ab-loss", "7F3A")
>>> found.kind, variant_text(variant_id("变体 7f3a"))
('loss', '7F3A')

每种题的 ``_draw_*`` 与 ``answer_box.js`` 里同名题型的 ``draw`` 一一对应，改一边就要改另一边；
``tests/unit/test_answer_box_variants.py`` 在几千个变体号上比较两边。答案由 labcode 算出（:mod:`.problems`）。
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable

from .problems import KINDS, Problem, ProblemError, check_label

MASK = 0xFFFFFFFF
IDS = 0x10000            # 变体号 0000 … FFFF
ID_TEXT = re.compile(r"^\s*(?:变体|variant|#)?\s*:?\s*([0-9a-fA-F]{4})\s*$")


def _imul(a: int, b: int) -> int:
    return (a * b) & MASK


def mulberry32(seed: int) -> Callable[[], float]:
    """maths.js 的 mulberry32：同一个种子给出与浏览器里逐位相同的 [0, 1) 随机数序列。"""
    a = seed & MASK

    def rand() -> float:
        nonlocal a
        a = (a + 0x6D2B79F5) & MASK
        t = _imul(a ^ (a >> 15), a | 1)
        t ^= (t + _imul(t ^ (t >> 7), t | 61)) & MASK
        return ((t ^ (t >> 14)) & MASK) / 4294967296
    return rand


def _fnv1a(text: str) -> int:
    h = 0x811C9DC5
    for c in text:
        h = _imul(h ^ ord(c), 0x01000193)
    return h


def seed(label: str, number: int) -> int:
    """框的标签与变体号合成的种子（answer_box.js 的 seed）。"""
    return (_fnv1a(label) ^ _imul(number, 0x9E3779B1)) & MASK


def nth_variant(label: str, k: int) -> int:
    """框上第 k 次点“换一组数”得到的变体号：k·0x9E37 加上标签的散列，模 2^16（65,536 次内各不相同）。"""
    return (_imul(k, 0x9E37) + _fnv1a(label)) & 0xFFFF


def variant_id(text) -> int:
    """“7F3A”、“变体 7f3a” 或 “#7F3A” 的变体号（0 到 65535）。"""
    match = ID_TEXT.match(text) if isinstance(text, str) else None
    if match is None:
        if isinstance(text, int) and not isinstance(text, bool) and 0 <= text < IDS:
            return text
        raise ProblemError(f"变体号必须是四位十六进制数（如 \"7F3A\"）或 0 到 65535 的整数，收到 {text!r}")
    return int(match[1], 16)


def variant_text(number: int) -> str:
    """变体号的四位大写十六进制写法：31546 → “7B3A”。"""
    return f"{variant_id(number):04X}"


# --- 出题：调用 rand() 的先后与 answer_box.js 相同 ---------------------------------------------------------

def _js(x: float) -> str:
    """JavaScript 的 String(x)，对这里出现的数（整数、几位小数）。"""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _num(x: float) -> str:
    return _js(math.floor(x * 1e6 + 0.5) / 1e6).replace("-", "−", 1)


def _vector(a) -> str:
    return "$[" + ", ".join(_num(x) for x in a) + "]$"


def _rows(m) -> str:
    return "、".join(_vector(row) for row in m)


def _int(rand, lo: int, hi: int) -> int:
    return lo + math.floor(rand() * (hi - lo + 1))


def _pick(rand, items):
    return items[math.floor(rand() * len(items))]


def _log_scores(rand):
    """z = ln a，a 取自 1/2…6（不全相同）：p = a / Σa 可以手算。"""
    while True:
        a = [_pick(rand, [0.5, 1, 2, 3, 4, 5, 6]) for _ in range(3)]
        if len(set(a)) > 1:
            break
    text = ["0" if w == 1 else f"−ln {_js(1 / w)}" if w < 1 else f"ln {_js(w)}" for w in a]
    return [math.log(w) for w in a], "$[" + ", ".join(text) + "]$"


def _scores(rand, **extra):
    z, text = _log_scores(rand)
    y = _int(rand, 0, 2)
    return {"z": z, "y": y, **extra}, {"z": text, "y": _num(y), **{k: _num(v) for k, v in extra.items()}}


def _draw_softmax(rand):
    z, text = _log_scores(rand)
    return {"z": z}, {"z": text}


def _draw_step(rand):
    lr = _pick(rand, [0.1, 0.2, 0.5, 1])       # 先抽学习率、再抽分数，与网页的调用顺序一致
    return _scores(rand, lr=lr)


def _draw_mean_loss(rand):
    B, T = _int(rand, 2, 3), _int(rand, 3, 4)
    lengths = [T if b == 0 else _int(rand, 1, T - 1) for b in range(B)]
    losses = [[_int(rand, 1, 8) / 2 if t < n else 0 for t in range(T)] for n in lengths]
    targets = [[_int(rand, 2, 9) if t < n else -100 for t in range(T)] for n in lengths]
    return {"losses": losses, "targets": targets}, {"losses": _rows(losses), "targets": _rows(targets)}


def _draw_row_gradient(rand):
    T, row = _int(rand, 3, 4), _int(rand, 0, 5)
    uses = _int(rand, 2, T - 1)
    ids = []
    for _ in range(T):
        i = _int(rand, 0, 5)
        while i == row:
            i = _int(rand, 0, 5)
        ids.append(i)
    placed = 0
    while placed < uses:
        t = _int(rand, 0, T - 1)
        if ids[t] != row:
            ids[t], placed = row, placed + 1
    # 任何分量上都没有哪一份恰好等于总和（练习 3.3），也不是 [0, 0]；每一份的分量都不是 0，
    # 所以漏加任何一份，每个分量都会变
    while True:
        dH = [[_int(rand, -3, 3), _int(rand, -3, 3)] for _ in ids]
        shares = [g for g, i in zip(dH, ids, strict=True) if i == row]
        total = [sum(g[d] for g in shares) for d in range(2)]
        if any(total) and not any(g[d] == total[d] or g[d] == 0 for g in shares for d in range(2)):
            break
    return {"ids": ids, "dH": dH, "row": row}, {"ids": _vector(ids), "dH": _rows(dH), "row": _num(row)}


def _draw_smoothed_prob(rand):
    letters = []
    while len(letters) < 3:
        c = _pick(rand, "abcdefghijklmnopqrstuvwxyz")
        if c not in letters:
            letters.append(c)
    letters.sort()                      # 书里的约定：“.” 编号 0，字母按字母表顺序
    symbols = [".", *letters]
    while True:
        counts = [_int(rand, 0, 6) for _ in symbols]
        if 0 in counts and sum(counts) > 0:
            break
    zero = [s for s, c in zip(symbols, counts, strict=True) if c == 0]
    seen = [s for s, c in zip(symbols, counts, strict=True) if c > 0]
    following = _pick(rand, zero) if rand() < 0.5 else _pick(rand, seen)   # 没见过的格子与见过的格子各一半
    alpha = _pick(rand, [1, 0.5, 2])
    prev = _pick(rand, letters)
    values = {"symbols": symbols, "counts": counts, "alpha": alpha, "prev": prev, "next": following}
    return values, {"symbols": "、".join(f"“{s}”" for s in symbols), "V": str(len(symbols)),
                    "counts": _vector(counts), "alpha": _num(alpha), "prev": f"“{prev}”", "next": f"“{following}”"}


# 第 5 章的框从成语里的常见字抽词表，与书中的例子一样。
IDIOM_CHARACTERS = "之不一人无可有以心大天生自如而"


def _draw_interpolated_prob(rand):
    letters = []
    while len(letters) < 3:
        c = _pick(rand, IDIOM_CHARACTERS)
        if c not in letters:
            letters.append(c)
    symbols = [".", *letters]
    while True:
        counts = [_int(rand, 0, 4) for _ in symbols]
        if 0 in counts and sum(counts) > 0:
            break
    # 单字频率忘了加一（N_y/N 当成 (N_y + 1)/(N + V)）的答案，要落在容差的两倍之外，否则重抽：
    # 比如 N = N_y·V 时两者相等，这个错就会被判对。
    while True:
        targets = [c + _int(rand, 0, 6) for c in counts]
        zero = [s for s, c in zip(symbols, counts, strict=True) if c == 0]
        following = _pick(rand, zero) if rand() < 0.5 else _pick(rand, symbols)
        gamma = _pick(rand, [0.5, 0.8, 0.9])
        t, N = targets[symbols.index(following)], sum(targets)
        if (1 - gamma) * abs(t / N - (t + 1) / (N + len(symbols))) > 0.002:
            break
    prev = _pick(rand, letters)
    values = {"symbols": symbols, "counts": counts, "targets": targets, "gamma": gamma, "prev": prev,
              "next": following}
    return values, {"symbols": "、".join(f"“{s}”" for s in symbols), "V": str(len(symbols)), "N": str(sum(targets)),
                    "counts": _vector(counts), "targets": _vector(targets), "gamma": _num(gamma),
                    "prev": f"“{prev}”", "next": f"“{following}”"}


def _draw_mse_gradient(rand):
    while True:   # 梯度 (2/n) Xᵀr 是 [0, 0] 时重抽
        X = [[_int(rand, 0, 10), _int(rand, 0, 10)] for _ in range(3)]
        w, b = [_int(rand, 1, 5), _int(rand, 1, 5)], _int(rand, 0, 20)
        y = [x[0] * w[0] + x[1] * w[1] + b + _int(rand, -3, 3) for x in X]
        r = [x[0] * w[0] + x[1] * w[1] + b - t for x, t in zip(X, y, strict=True)]
        if any(sum(x[d] * ri for x, ri in zip(X, r, strict=True)) for d in range(2)):
            break
    return {"X": X, "w": w, "b": b, "y": y}, {"X": _rows(X), "w": _vector(w), "b": _num(b), "y": _vector(y)}


DRAWS = {"softmax": _draw_softmax, "loss": _scores, "gradient": _scores, "step": _draw_step,
         "mean-loss": _draw_mean_loss, "row-gradient": _draw_row_gradient,
         "smoothed-prob": _draw_smoothed_prob, "interpolated-prob": _draw_interpolated_prob,
         "mse-gradient": _draw_mse_gradient}


def variant(kind: str, label: str, variant) -> Problem:
    """标签为 ``label``、题型为 ``kind`` 的框在变体号 ``variant``（“7F3A” 或整数）下的题目：
    数与题目文字与网页上的框逐字相同，答案由 labcode 算出。"""
    if kind not in DRAWS:
        raise ProblemError(f"kind 必须是 {tuple(DRAWS)} 之一，收到 {kind!r}")
    check_label(label)
    values, texts = DRAWS[kind](mulberry32(seed(label, variant_id(variant))))
    answer = KINDS[kind].answer(**values)
    return Problem(kind, values, texts, [float(x) for x in answer] if hasattr(answer, "__len__") else float(answer))
