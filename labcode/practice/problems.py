"""The hand computations an answer box can ask for: what the author writes, the question, the answer.

Each kind names its options (the book's own numbers, written as Python expressions: ``[ln(2), 0, -ln(2)]``),
a question and an input label (templates: ``{option}`` is replaced by the option as shown, ``$…$`` marks maths),
the answer computed with labcode, and the tolerance within which a reader's answer counts as right.
The page's script (answer_box.js) has the same kinds: it draws new numbers and computes them with maths.js.
"""
from __future__ import annotations

import ast
import html
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

import labcode

FUNCTIONS = {"ln": math.log, "exp": math.exp, "sqrt": math.sqrt}
CONSTANTS = {"e": (math.e, "e"), "pi": (math.pi, "π")}
OPERATORS = {ast.Add: ("+", 1), ast.Sub: ("−", 1), ast.Mult: ("·", 2), ast.Div: ("/", 2), ast.Pow: ("^", 3)}


class ProblemError(ValueError):
    """An option an author wrote that the kind cannot use."""


# --- the author's numbers: Python expressions, evaluated without eval ----------------------------------

def _number(value: float) -> str:
    """1.0 -> "1", 0.5 -> "0.5", -100 -> "−100" (the minus sign of print)."""
    return f"{value:.10g}".replace("-", "−")


def _expression(node) -> tuple[float, str, int]:
    """(value, text as shown, precedence) of a number, e, pi, + − · / ^, or ln / exp / sqrt of one."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value), _number(node.value), 4
    if isinstance(node, ast.Name) and node.id in CONSTANTS:
        return *CONSTANTS[node.id], 4
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value, text, rank = _expression(node.operand)
        text = text if rank > 1 else f"({text})"
        return (-value, "−" + text, 1) if isinstance(node.op, ast.USub) else (value, text, rank)
    if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
        symbol, rank = OPERATORS[type(node.op)]
        (a, left, left_rank), (b, right, right_rank) = _expression(node.left), _expression(node.right)
        left = left if left_rank >= rank else f"({left})"
        right = right if right_rank > rank or (right_rank == rank and symbol in "+·") else f"({right})"
        value = {"+": a + b, "−": a - b, "·": a * b, "/": a / b if b else math.inf, "^": a ** b}[symbol]
        return value, f"{left} {symbol} {right}" if rank == 1 else f"{left}{symbol}{right}", rank
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
            and len(node.args) == 1 and not node.keywords):
        value, text, rank = _expression(node.args[0])
        shown = f"{node.func.id} {text}" if rank == 4 and not text.startswith("(") else f"{node.func.id}({text})"
        try:
            return FUNCTIONS[node.func.id](value), shown, 3
        except (ValueError, OverflowError):
            raise ProblemError(f"{shown} 没有定义") from None
    raise ProblemError(f"只能用数、e、pi、+ - * / **、ln()、exp()、sqrt()，收到 {ast.unparse(node)!r}")


def _tree(node):
    """Nested lists of (value, text) for a list, or one (value, text)."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_tree(item) for item in node.elts]
    value, text, _ = _expression(node)
    if not math.isfinite(value):
        raise ProblemError(f"{text} 不是有限数")
    return value, text


def _parse(source: str):
    try:
        return _tree(ast.parse(source.strip(), mode="eval").body)
    except SyntaxError:
        raise ProblemError(f"不是一个算式或 [..] 列表：{source!r}") from None


def _values(tree):
    return [_values(item) for item in tree] if isinstance(tree, list) else tree[0]


def _text(tree) -> str:
    return "[" + ", ".join(_text(item) for item in tree) + "]" if isinstance(tree, list) else tree[1]


def parse_numbers(source: str):
    """An option as (values, text): ``"[ln(2), 0, -ln(2)]"`` -> ([0.693…, 0.0, -0.693…], "[ln 2, 0, −ln 2]")."""
    tree = _parse(source)
    return _values(tree), _text(tree)


# --- options ------------------------------------------------------------------------------------------

def _is_vector(tree) -> bool:
    return isinstance(tree, list) and bool(tree) and all(isinstance(x, tuple) for x in tree)


def vector(source):
    tree = _parse(source)
    if not _is_vector(tree):
        raise ProblemError(f"要一个非空的向量 [a, b, …]，收到 {source!r}")
    return _values(tree), f"${_text(tree)}$"


def rows(source):
    """A matrix shown row by row: “$[1, 2]$、$[−1, 1]$”."""
    tree = _parse(source)
    if not (isinstance(tree, list) and tree and all(_is_vector(row) and len(row) == len(tree[0]) for row in tree)):
        raise ProblemError(f"要一个矩阵 [[a, b], [c, d], …]（每行一样长），收到 {source!r}")
    return _values(tree), "、".join(f"${_text(row)}$" for row in tree)


def integer(source):
    values, text = parse_numbers(source)
    if isinstance(values, list) or values != int(values):
        raise ProblemError(f"要一个整数，收到 {source!r}")
    return int(values), text


def number(source):
    values, text = parse_numbers(source)
    if isinstance(values, list):
        raise ProblemError(f"要一个数，收到 {source!r}")
    return values, text


def symbols(source):
    """Names of candidates separated by spaces (“. a b”), shown in Chinese quotes."""
    names = source.split()
    if not names:
        raise ProblemError("要至少一个名字，用空格隔开")
    return names, "、".join(f"“{name}”" for name in names)


def symbol(source):
    name = source.strip()
    if not name or " " in name:
        raise ProblemError(f"要一个名字，收到 {source!r}")
    return name, f"“{name}”"


# --- the kinds -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Kind:
    options: dict[str, Callable]
    question: str
    label: str
    answer: Callable            # labcode, from the options' values
    tolerance: float
    derived: Callable | None = None   # more texts for the question, from the options' values ({V} = len(symbols))


def _row_gradient(ids, dH, row):
    ids = [int(i) for i in ids]
    return labcode.embedding_backward(dH, ids, max(max(ids), row) + 1)[row]


def _smoothed(counts, alpha, symbols, prev, next):
    """P[prev, next] of count_probs, for a count matrix whose row `prev` is `counts` (rows are independent)."""
    for name, value in (("prev", prev), ("next", next)):
        if value not in symbols:
            raise ProblemError(f"{name} 必须是 symbols 里的一个名字 {symbols}，收到 {value!r}")
    if len(symbols) != len(counts):
        raise ProblemError(f"symbols 与 counts 要一样长，收到 {len(symbols)} 个名字、{len(counts)} 个计数")
    N = np.ones((len(symbols), len(symbols)))                           # (V, V)
    N[symbols.index(prev)] = counts
    return labcode.count_probs(N, alpha)[symbols.index(prev), symbols.index(next)]


def _mse_gradient(X, w, b, y):
    W = np.asarray(w, dtype=float)[:, None]                            # (d, 1)
    preds = labcode.linear(X, W, [b])                                   # (n, 1)
    _, dW, _ = labcode.linear_backward(labcode.mse_grad(preds, np.asarray(y, dtype=float)[:, None]), X, W)
    return dW[:, 0]


KINDS = {
    "softmax": Kind(
        {"z": vector},
        "分数 $z$ = {z}。softmax 给各候选的概率 $p$ 是多少？按候选的顺序写成向量。",
        "概率 $p$", lambda z: labcode.softmax(z), 0.001),
    "loss": Kind(
        {"z": vector, "y": integer},
        "分数 $z$ = {z}，真实目标的编号 $y = {y}$（编号从 0 数）。这个位置的损失 $ℓ = −ln p_y$ 是多少？",
        "损失 $ℓ$", lambda z, y: labcode.cross_entropy(z, y), 0.001),
    "gradient": Kind(
        {"z": vector, "y": integer},
        "分数 $z$ = {z}，真实目标的编号 $y = {y}$。损失对分数的梯度 $g = ∂ℓ/∂z$ 是多少？按分量写成向量。",
        "梯度 $g$", lambda z, y: labcode.cross_entropy_grad(z, y), 0.001),
    "step": Kind(
        {"z": vector, "y": integer, "lr": number},
        "分数 $z$ = {z}，真实目标的编号 $y = {y}$，学习率 $η = {lr}$。按 $z ← z − ηg$ 走一步梯度下降，新的分数是多少？",
        "新的分数 $z$", lambda z, y, lr: labcode.gradient_step(z, y, lr), 0.001),
    "mean-loss": Kind(
        {"losses": rows, "targets": rows},
        "一批文档，各篇每个位置的损失依次是 {losses}，对应的目标依次是 {targets}（目标 $−100$ 表示填充，"
        "那一格不计分）。按本书的约定（也是 PyTorch 的默认做法），这一批的平均损失是多少？",
        "平均损失", lambda losses, targets: labcode.valid_mean(losses, np.asarray(targets, dtype=int)), 0.001),
    "row-gradient": Kind(
        {"ids": vector, "dH": rows, "row": integer},
        "编号序列 {ids} 查嵌入表 $E$，各位置传回的上游梯度 $dH$ 依次是 {dH}。"
        "表中编号为 {row} 的那一行，梯度 $dE[{row}]$ 是多少？",
        "梯度 $dE[{row}]$", _row_gradient, 0.001),
    "smoothed-prob": Kind(
        {"symbols": symbols, "counts": vector, "alpha": number, "prev": symbol, "next": symbol},
        "计数模型的词表只有{symbols}这 $V = {V}$ 个符号。前一个字是{prev}时，后一个字是这几个符号的次数依次为 "
        "{counts}。每个计数加 $α = {alpha}$ 平滑以后，下一个字是{next}的概率是多少？",
        "概率", _smoothed, 0.001, lambda symbols, **_: {"V": str(len(symbols))}),
    "mse-gradient": Kind(
        {"X": rows, "w": vector, "b": number, "y": vector},
        "输入 $X$ 的各行是 {X}，权重 $w$ = {w}，偏置 $b = {b}$，目标 $y$ = {y}。"
        "均方误差 $ℓ = (1/n) Σ_i r_i^2$（残差 $r_i = ŷ_i − y_i$）对权重的梯度 $∂ℓ/∂w$ 是多少？",
        "梯度 $∂ℓ/∂w$", _mse_gradient, 0.01),
}


@dataclass(frozen=True)
class Problem:
    """One answer box with the book's numbers: ``values`` for the maths, ``texts`` as the question shows them."""
    kind: str
    values: dict
    texts: dict
    answer: float | list[float]

    @property
    def tolerance(self) -> float:
        return KINDS[self.kind].tolerance

    def question(self) -> str:
        return fill(KINDS[self.kind].question, self.texts)

    def label(self) -> str:
        return fill(KINDS[self.kind].label, self.texts)


def problem(kind: str, options: dict[str, str]) -> Problem:
    """The problem of an ``answer-box`` directive: its kind and its options as written; the answer from labcode."""
    if kind not in KINDS:
        raise ProblemError(f"answer-box 的种类必须是 {', '.join(KINDS)} 之一，收到 {kind!r}")
    spec = KINDS[kind]
    missing, extra = set(spec.options) - set(options), set(options) - set(spec.options)
    if missing or extra:
        raise ProblemError(f"{kind} 的选项是 {', '.join(f':{o}:' for o in spec.options)}；"
                           f"缺少 {sorted(missing)}，多出 {sorted(extra)}")
    values, texts = {}, {}
    for name, parse in spec.options.items():
        try:
            values[name], texts[name] = parse(options[name])
        except ProblemError as err:
            raise ProblemError(f"选项 :{name}: {err}") from None
    try:
        answer = spec.answer(**values)
    except (ValueError, TypeError, IndexError) as err:
        raise ProblemError(f"{kind} 的答案算不出来：{err}") from None
    if spec.derived:
        texts.update(spec.derived(**values))
    answer = np.asarray(answer, dtype=float)
    return Problem(kind, values, texts, float(answer) if answer.ndim == 0 else answer.tolist())


# --- templates: {option} and $…$ ------------------------------------------------------------------------

def fill(template: str, texts: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: texts[m.group(1)], template)


MATHS = re.compile(r"\$([^$]*)\$")
SCRIPT = re.compile(r"([_^])(\{[^}]*\}|.)")


def to_html(text: str) -> str:
    """Plain text with maths in <span class="ab-math">, ``_i`` and ``^2`` as <sub>/<sup> (answer_box.js: toHtml)."""
    def script(match):
        tag = "sub" if match.group(1) == "_" else "sup"
        return f"<{tag}>{match.group(2).strip('{}')}</{tag}>"

    parts = MATHS.split(text)
    return "".join(f'<span class="ab-math">{SCRIPT.sub(script, html.escape(p, quote=False))}</span>' if k % 2
                   else html.escape(p, quote=False) for k, p in enumerate(parts))


LATEX_MATHS = {"−": "-", "ℓ": r"\ell ", "η": r"\eta ", "α": r"\alpha ", "∂": r"\partial ", "Σ": r"\sum ",
               "←": r"\leftarrow ", "π": r"\pi ", "·": r"\cdot ", "ŷ": r"\hat{y}",
               "≈": r"\approx "}
LATEX_TEXT = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
              "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def to_latex(text: str) -> str:
    """Text escaped for LaTeX, maths as $…$ with ln, exp, Greek letters and ∂ as LaTeX commands."""
    def maths(source):
        source = re.sub(r"\b(ln|exp|sqrt)\b\s*", lambda m: f"\\{m.group(1)} " if m.group(1) != "sqrt" else r"\sqrt ",
                        source)
        return "$" + "".join(LATEX_MATHS.get(ch, ch) for ch in source) + "$"
    parts = MATHS.split(text)
    return "".join(maths(p) if k % 2 else "".join(LATEX_TEXT.get(ch, ch) for ch in p) for k, p in enumerate(parts))


# --- the answer as the answer key prints it ----------------------------------------------------------

def _exact(value: float) -> str | None:
    """4/7 for 0.5714285714…, "2" for 2.0; None when no small fraction equals the value."""
    fraction = Fraction(value).limit_denominator(200)
    if abs(float(fraction) - value) > 1e-12 * max(1.0, abs(value)):
        return None
    return _number(fraction.numerator) if fraction.denominator == 1 else \
        f"{'−' if fraction < 0 else ''}{abs(fraction.numerator)}/{fraction.denominator}"


def _decimal(value: float) -> str:
    return f"{value:.4f}".replace("-", "−")


def answer_text(answer) -> str:
    """How the answer key prints an answer: ``[4/7, −5/7, 1/7] ≈ [0.5714, −0.7143, 0.1429]``, ``2/5 = 0.4``,
    ``2``, ``≈ 1.2528`` (a value no small fraction equals)."""
    values = answer if isinstance(answer, list) else [answer]
    exact = [_exact(v) for v in values]
    decimals = [_decimal(v) for v in values]
    plain = [d.rstrip("0").rstrip(".") for d in decimals]

    def join(items):
        return "[" + ", ".join(items) + "]" if isinstance(answer, list) else items[0]
    if not all(exact):
        return f"≈ {join(decimals)}"
    if exact == plain:
        return join(exact)
    same = all(float(p.replace("−", "-")) == v for p, v in zip(plain, values, strict=True))
    return f"{join(exact)} = {join(plain)}" if same else f"{join(exact)} ≈ {join(decimals)}"
