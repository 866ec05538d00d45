"""“动手算”框能出的手算题：作者写下的数、题目和答案。

每种题（kind）规定它的选项（书中的数，写成 Python 算式，如 ``"[ln(2), 0, -ln(2)]"``）、题目和输入框的
标签（模板：``{选项名}`` 换成选项的显示形式，``$…$`` 标出数学式）、用 labcode 算出的答案，以及读者的答案
与它相差多少以内算对（容差）。交互组件与网页共用的脚本 ``labcode/widgets/answer_box.js`` 有同样的题型：
它出新的数（每组有变体号，练习纸也在 Node 里用它出题），用每种题的公式求解，认出常见的错，并说出错答案差在哪一部分。
"""
from __future__ import annotations

import ast
import dataclasses
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._validate import check_choice
from ..batch import valid_mean
from ..bigram import count_probs
from ..embedding import embedding_backward
from ..gradients import gradient_step
from ..idioms import interpolated_probs
from ..linear import linear, linear_backward
from ..probability import cross_entropy, cross_entropy_grad, softmax
from ..regression import mse_grad

FUNCTIONS = {"ln": math.log, "exp": math.exp, "sqrt": math.sqrt}
CONSTANTS = {"e": (math.e, "e"), "pi": (math.pi, "π")}
OPERATORS = {ast.Add: ("+", 1), ast.Sub: ("−", 1), ast.Mult: ("·", 2), ast.Div: ("/", 2), ast.Pow: ("^", 3)}
OPERATIONS = {"+": operator.add, "−": operator.sub, "·": operator.mul, "/": operator.truediv, "^": operator.pow}


class ProblemError(ValueError):
    """作者写的题型、标签或选项用不了：错误信息写明是哪个参数、规则和收到的值。"""


# --- 作者写的数：Python 算式，用 ast 读，从不运行 ---------------------------------------------------------------

def number_text(value: float) -> str:
    """1.0 写成 "1"，0.5 写成 "0.5"，-100 写成 "−100"（印刷用的负号）。"""
    return f"{value:.10g}".replace("-", "−")


def _operate(symbol: str, a: float, b: float, text: str) -> float:
    """只算这一个运算（不先把五种都算一遍）；除以 0、溢出和负数的非整数次方都说清楚。"""
    try:
        value = OPERATIONS[symbol](a, b)
    except ZeroDivisionError:
        raise ProblemError(f"{text}：除数是 0" if symbol == "/" else f"{text}：0 的负数次方没有定义") from None
    except OverflowError:
        raise ProblemError(f"{text} 太大了，不是有限数") from None
    if isinstance(value, complex):
        raise ProblemError(f"{text}：负数的非整数次方在实数里没有定义")
    return value


def _expression(node) -> tuple[float, str, int]:
    """数、e、pi、+ − · / ^ 或 ln / exp / sqrt 的（值，显示形式，优先级）。"""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value), number_text(node.value), 4
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
        text = f"{left} {symbol} {right}" if rank == 1 else f"{left}{symbol}{right}"
        return _operate(symbol, a, b, text), text, rank
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
            and len(node.args) == 1 and not node.keywords):
        value, text, rank = _expression(node.args[0])
        shown = f"{node.func.id} {text}" if rank == 4 and not text.startswith("(") else f"{node.func.id}({text})"
        try:
            return FUNCTIONS[node.func.id](value), shown, 3
        except OverflowError:
            raise ProblemError(f"{shown} 太大了，不是有限数") from None
        except ValueError:
            raise ProblemError(f"{shown} 没有定义") from None
    raise ProblemError(f"只能用数、e、pi、+ - * / **、ln()、exp()、sqrt()，收到 {ast.unparse(node)!r}")


def _tree(node):
    """列表得到嵌套的（值，显示形式）列表，单个算式得到一对（值，显示形式）。"""
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
    """一个选项的（值，显示形式）。

    >>> parse_numbers("[ln(2), 0, -ln(2)]")[1]
    '[ln 2, 0, −ln 2]'
    """
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


def _whole(values, source):
    if any(v != int(v) for v in np.ravel(values)):
        raise ProblemError(f"每个编号都要是整数，收到 {source!r}")
    return np.asarray(values, dtype=int).tolist()


def integers(source):
    """编号组成的向量（如 ids），每个都是整数。"""
    values, text = vector(source)
    return _whole(values, source), text


def integer_rows(source):
    """编号组成的矩阵（如 targets），每个都是整数。"""
    values, text = rows(source)
    return _whole(values, source), text


def rows(source):
    """矩阵，逐行显示：“$[1, 2]$、$[−1, 1]$”。"""
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
    """用空格隔开的符号名（“. a b”），显示时加中文引号。"""
    names = source.split()
    if not names:
        raise ProblemError("要至少一个名字，用空格隔开")
    return names, "、".join(f"“{name}”" for name in names)


def symbol(source):
    name = source.strip()
    if not name or " " in name:
        raise ProblemError(f"要一个名字，收到 {source!r}")
    return name, f"“{name}”"


# --- 题型 ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Kind:
    options: dict[str, Callable]
    question: str
    label: str
    answer: Callable            # 由选项的值用 labcode 算出
    tolerance: float            # 绝对容差；概率的两种题答案常只有百分之几，容差 0.0001（答案册印 4 位小数）
    derived: Callable | None = None   # 题目里用到的其他文字，由选项的值得出（{V} = len(symbols)）


def _target(z, y) -> int:
    """y 是 z 的一个编号：错误信息用框的选项名（y、z），不用 labcode 函数的参数名。"""
    if not 0 <= y < len(z):
        raise ProblemError(f"选项 y 必须是 z 的一个编号（0 到 {len(z) - 1}），收到 {y}")
    return y


def _row_gradient(ids, dH, row):
    return embedding_backward(dH, ids, max(max(ids), row) + 1)[row]


def _check_symbols(symbols, prev, next):
    """prev 与 next 都是 symbols 里的名字。"""
    for name, value in (("prev", prev), ("next", next)):
        if value not in symbols:
            raise ProblemError(f"{name} 必须是 symbols 里的一个名字 {symbols}，收到 {value!r}")


def _smoothed(counts, alpha, symbols, prev, next):
    """count_probs 给出的 P[prev, next]：计数矩阵中 prev 那一行是 counts（各行互不影响）。"""
    _check_symbols(symbols, prev, next)
    if len(symbols) != len(counts):
        raise ProblemError(f"symbols 与 counts 要一样长，收到 {len(symbols)} 个名字、{len(counts)} 个计数")
    N = np.ones((len(symbols), len(symbols)))                           # (V, V)
    N[symbols.index(prev)] = counts
    return count_probs(N, alpha)[symbols.index(prev), symbols.index(next)]


def _interpolated(counts, targets, gamma, symbols, prev, next):
    """插值模型的一个概率：γ C/n + (1 − γ)(Σ_i C_iy + 1)/(N + V)，C 是 prev 那一行的计数，targets 是各字作后一个字的
    次数 Σ_i C_iy。"""
    _check_symbols(symbols, prev, next)
    if not len(symbols) == len(counts) == len(targets):
        raise ProblemError(f"symbols、counts 与 targets 要一样长，"
                           f"收到 {len(symbols)}、{len(counts)}、{len(targets)} 个")
    if any(t < c for c, t in zip(counts, targets, strict=True)):
        raise ProblemError(f"targets 的每一项都不能小于 counts 的同一项（这一行的计数也算在里面），收到 {targets}")
    if not 0 <= gamma <= 1 or sum(counts) <= 0:
        raise ProblemError(f"gamma 要在 [0, 1] 里、counts 之和要大于 0，收到 gamma = {gamma}、counts = {counts}")
    C = np.zeros((len(symbols), len(symbols)))                           # (V, V)：只有两行有数
    C[symbols.index(prev)] = counts
    C[symbols.index(prev) - 1] = np.asarray(targets) - np.asarray(counts)   # 其余的后一个字放在另一行
    return interpolated_probs(C, symbols.index(prev), gamma)[symbols.index(next)]


def _mse_gradient(X, w, b, y):
    W = np.asarray(w, dtype=float)[:, None]                            # (d, 1)
    preds = linear(X, W, [b])                                   # (n, 1)
    _, dW, _ = linear_backward(mse_grad(preds, np.asarray(y, dtype=float)[:, None]), X, W)
    return dW[:, 0]


KINDS = {
    "softmax": Kind(
        {"z": vector},
        "分数 $z$ = {z}。softmax 给各候选的概率 $p$ 是多少？按候选的顺序写成向量。",
        "概率 $p$", lambda z: softmax(z), 0.001),
    "loss": Kind(
        {"z": vector, "y": integer},
        "分数 $z$ = {z}，真实目标的编号 $y = {y}$（编号从 0 数）。这个位置的损失 $ℓ = −ln p_y$ 是多少？",
        "损失 $ℓ$", lambda z, y: cross_entropy(z, _target(z, y)), 0.001),
    "gradient": Kind(
        {"z": vector, "y": integer},
        "分数 $z$ = {z}，真实目标的编号 $y = {y}$。损失对分数的梯度 $g = ∂ℓ/∂z$ 是多少？按分量写成向量。",
        "梯度 $g$", lambda z, y: cross_entropy_grad(z, _target(z, y)), 0.001),
    "step": Kind(
        {"z": vector, "y": integer, "lr": number},
        "分数 $z$ = {z}，真实目标的编号 $y = {y}$，学习率 $η = {lr}$。按 $z ← z − ηg$ 走一步梯度下降，新的分数是多少？",
        "新的分数 $z$", lambda z, y, lr: gradient_step(z, _target(z, y), lr), 0.001),
    "mean-loss": Kind(
        {"losses": rows, "targets": integer_rows},
        "一批文档，各篇每个位置的损失依次是 {losses}，对应的目标依次是 {targets}（目标 $−100$ 是忽略标记："
        "那一格是填充，不计分）。按本书的约定（也是 PyTorch 的默认做法），这一批的平均损失是多少？",
        "平均损失", lambda losses, targets: valid_mean(losses, targets), 0.001),
    "row-gradient": Kind(
        {"ids": integers, "dH": rows, "row": integer},
        "用编号序列 {ids} 查嵌入表 $E$，各位置传回的上游梯度 $dH$ 依次是 {dH}。"
        "表中编号为 {row} 的那一行，梯度 $dE[{row}]$ 是多少？",
        "梯度 $dE[{row}]$", _row_gradient, 0.001),
    "smoothed-prob": Kind(
        {"symbols": symbols, "counts": vector, "alpha": number, "prev": symbol, "next": symbol},
        "计数模型的词表只有{symbols}这 $V = {V}$ 个符号。前一个字是{prev}时，下一个字是这几个符号的次数依次为 "
        "{counts}。每个计数加 $α = {alpha}$ 平滑以后，下一个字是{next}的概率 $p̂$ 是多少？",
        "概率 $p̂$", _smoothed, 0.0001, lambda symbols, **_: {"V": str(len(symbols))}),
    "interpolated-prob": Kind(
        {"symbols": symbols, "counts": vector, "targets": vector, "gamma": number, "prev": symbol, "next": symbol},
        "词表只有{symbols}这 $V = {V}$ 个符号。前一个字是{prev}时，下一个字是这几个符号的次数依次为 {counts}；"
        "整个训练集里，它们作后一个字的次数依次为 {targets}，共 $N = {N}$ 次。把计数概率和加一平滑的单字频率"
        "按 $γ = {gamma}$ 插值以后，下一个字是{next}的概率 $p$ 是多少？",
        "概率 $p$", _interpolated, 0.0001,
        lambda symbols, targets, **_: {"V": str(len(symbols)), "N": str(int(sum(targets)))}),
    "mse-gradient": Kind(
        {"X": rows, "w": vector, "b": number, "y": vector},
        "输入 $X$ 的各行是 {X}，权重 $w$ = {w}，偏置 $b = {b}$，目标 $y$ = {y}。"
        "均方误差 $ℓ = (1/n) Σ_i r_i^2$（残差 $r_i = ŷ_i − y_i$）对权重的梯度 $∂ℓ/∂w$ 是多少？",
        "梯度 $∂ℓ/∂w$", _mse_gradient, 0.01),
}


TITLE = "动手算"
# `…` 标出读者要输入的内容（用等宽字体排，l 和 I 分得开）。
HELP = ("可以写小数、分数（`2/3`）或算式（`ln(5/3)`、`e^2`；`log` 也按自然对数 `ln` 算）；"
        "中文输入法打出的全角数字、括号、逗号、负号和句号也可以。")
HELP_VECTOR = "向量写成 `[1/3, -1/2, 0.25]`，每个分量与答案相差不超过 {tolerance} 就算对。"
HELP_SCALAR = "与答案相差不超过 {tolerance} 就算对。"
# 最后说变体号：先讲怎样写答案，再讲怎样回到某一组数（练习纸上印的就是变体号）。
HELP_VARIANT = ("“换一组数”给出的每组数都有变体号，显示在标题旁（如“变体 7F3A”）；"
                "在框里写 `变体 7F3A`、点“核对”，就回到那一组数。")
LABEL = re.compile(r"^[a-z][a-z0-9-]*$")


@dataclass(frozen=True)
class Problem:
    """一道题，用书中的数：``values`` 用来计算，``texts`` 是题目里的显示形式，``answer`` 由 labcode 算出。"""
    kind: str
    values: dict
    texts: dict
    answer: float | list[float]
    exact: str | None = None     # 答案的精确写法，与书里（答案册）一致，如 "ln(7/2)"

    @property
    def tolerance(self) -> float:
        return KINDS[self.kind].tolerance

    def question(self) -> str:
        return fill(KINDS[self.kind].question, self.texts)

    def label(self) -> str:
        return fill(KINDS[self.kind].label, self.texts)

    def help(self) -> str:
        """输入框下的说明：怎样写答案，以及容差（`…` 标出读者要打的字）。"""
        tail = HELP_VECTOR if isinstance(self.answer, list) else HELP_SCALAR
        return HELP + tail.format(tolerance=f"{self.tolerance:g}") + HELP_VARIANT

    def spec(self) -> dict:
        """框的脚本（answer_box.js）需要的一切：题型、模板、书中的数、容差和文字，可以写成 JSON。"""
        kind = KINDS[self.kind]
        return {"kind": self.kind, "question": kind.question, "label": kind.label, "values": self.values,
                "texts": self.texts, "tolerance": self.tolerance, "title": TITLE, "help": self.help()}


def problem(kind: str, options: dict[str, str]) -> Problem:
    """一种题和它的选项（作者写下的文字）得到的题目，答案由 labcode 算出。

    >>> round(problem("loss", {"z": "[ln(2), 0, -ln(2)]", "y": "1"}).answer, 4)   # ln(7/2)
    1.2528
    """
    spec = KINDS[check_choice(kind, "kind", KINDS)]
    missing, extra = set(spec.options) - set(options), set(options) - set(spec.options)
    if missing or extra:
        wrong = [f"{what} {', '.join(sorted(names))}" for what, names in (("缺少", missing), ("多出", extra)) if names]
        raise ProblemError(f"{kind} 题的选项是 {', '.join(spec.options)}；{'，'.join(wrong)}")
    values, texts = {}, {}
    for name, parse in spec.options.items():
        try:
            values[name], texts[name] = parse(options[name])
        except ProblemError as err:
            raise ProblemError(f"选项 {name}：{err}") from None
    try:
        answer = spec.answer(**values)
    except ProblemError:
        raise
    except (ValueError, TypeError, IndexError) as err:
        raise ProblemError(f"{kind} 题的答案算不出来：{err}") from None
    if spec.derived:
        texts.update(spec.derived(**values))
    answer = np.asarray(answer, dtype=float)
    return Problem(kind, values, texts, float(answer) if answer.ndim == 0 else answer.tolist())


def _option_text(name, value) -> str:
    """选项写成字符串（"[ln(2), 0, -ln(2)]"、". a b"），一个数也可以直接写（y=1、lr=0.1）。"""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return repr(value)
    raise ProblemError(f"选项 {name} 必须是字符串（如 \"[ln(2), 0, -ln(2)]\"）或一个数，收到 {value!r}")


def _exact_tree(node):
    """exact 的（值，显示形式）：一个算式、一个列表，或列表除以一个数（``[1, e, e**2]/(1 + e + e**2)``）。"""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.left, (ast.List, ast.Tuple)):
        items = _tree(node.left)
        divisor, text, rank = _expression(node.right)
        if not _is_vector(items) or divisor == 0:
            raise ProblemError(f"只能用一个向量除以一个不为 0 的数，收到 {ast.unparse(node)!r}")
        return [value / divisor for value in _values(items)], f"{_text(items)}/{text if rank > 2 else f'({text})'}"
    tree = _tree(node)
    return _values(tree), _text(tree)


def exact_form(source, answer) -> str:
    """作者写下的精确答案（如 ``"ln(7/2)"``）的显示形式；它必须与 labcode 算出的答案一致（相差约 1e-9 以内）。

    >>> exact_form("[ln(2) - 2/35, 1/14]", [math.log(2) - 2 / 35, 1 / 14])
    '[ln 2 − 2/35, 1/14]'
    """
    if not isinstance(source, str):
        raise ProblemError(f"exact 必须是字符串（如 \"ln(7/2)\"），收到 {source!r}")
    try:
        values, text = _exact_tree(ast.parse(source.strip(), mode="eval").body)
    except SyntaxError:
        raise ProblemError(f"exact 不是一个算式或 [..] 列表：{source!r}") from None
    except ProblemError as err:
        raise ProblemError(f"exact：{err}") from None
    if np.shape(values) != np.shape(answer) or not np.allclose(values, answer, rtol=1e-9, atol=1e-12):
        raise ProblemError(f"exact={source!r} 与算出的答案不一致：它等于 {np.round(values, 6).tolist()}，"
                           f"答案是 {np.round(answer, 6).tolist()}")
    return text


def check_label(label) -> None:
    """框的标签：小写字母开头，只含小写字母、数字和 -（它给新数定种子，也记着读者的进度）。"""
    if not isinstance(label, str) or not LABEL.match(label):
        raise ProblemError(f"label 必须以小写字母开头，只含小写字母、数字和 -（如 ch1-ab-softmax），收到 {label!r}")


def box_problem(kind: str, label: str, options: dict) -> Problem:
    """“动手算”框的参数检查：题型、标签（小写字母开头，只含小写字母、数字和 -）、选项和可选的 exact
    （答案册印出的精确答案，与算出的答案核对）；返回题目。

    >>> box_problem("gradient", "ch2-ab-gradient", {"z": "[ln(2), 0, -ln(2)]", "y": 1}).label()
    '梯度 $g$'
    >>> box_problem("loss", "ch1-ab-loss", {"z": "[ln(2), 0, -ln(2)]", "y": 1, "exact": "ln(7/2)"}).exact
    'ln(7/2)'
    """
    check_label(label)
    options = dict(options)
    exact = options.pop("exact", None)
    found = problem(kind, {name: _option_text(name, value) for name, value in options.items()})
    return found if exact is None else dataclasses.replace(found, exact=exact_form(exact, found.answer))


def fill(template: str, texts: dict) -> str:
    """把模板里的 ``{选项名}`` 换成选项的显示形式。"""
    return re.sub(r"\{(\w+)\}", lambda m: texts[m.group(1)], template)


def plain(text: str) -> str:
    """去掉数学标记 $ 的纯文本（纯文本界面显示它）。"""
    return text.replace("$", "")
