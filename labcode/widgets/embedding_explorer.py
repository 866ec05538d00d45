"""嵌入探索器：输入一个短语，看它读了嵌入表 E 的哪几行，以及每行的梯度怎样逐次相加。

同一个字出现两次，它那一行就被读两次，梯度行是两次上游梯度之和；打开“错误写法”开关，
并排显示 ``dE[ids] += dH`` 的结果（dH 是各位置的上游梯度 ``grad_out``）：重复的行的每个元素只留下
其中一次写入，其余几份丢了（NumPy 不规定留下的是哪一次）。
浏览器里的编码、查表和累加由 ``embedding_explorer.js``（数学在共用的 ``maths.js``）完成，
冻结的词表随交互组件状态一起放进网页，所以静态网页上没有内核、不联网也能边打字边更新；
在 Jupyter 内核里，Python 端用 labcode 的 ``encode``、``embedding``、``embedding_backward`` 算同样的数。
"""
from __future__ import annotations

import numpy as np
import traitlets

from .._validate import as_finite_array, as_list, as_table, check_bool, check_distinct, check_int, check_rng, check_text
from ..corpus import UNK, encode, vocab
from ..embedding import embedding, embedding_backward, embedding_backward_overwrite, rows_read
from ..plots import PALETTE, vector_text
from ._base import WidgetBase, bundle, figure_png, snapshot_figure, styles

MAX_LEN, DIM, MAX_DIM = 12, 2, 4
EXAMPLES = ("我爱我家", "谢谢", "天天向上", "好好学习，天天向上", "谢谢侬")
PROBE_ROWS = ((1.0, 2.0), (-1.0, 1.0), (3.0, -1.0))  # 第 3 章探针的系数 A（dH = A），t = 0, 1, 2
DEFAULT_SEED = 3


# ---------------------------------------------------------------- 关于本交互组件参数的检查
def _check_text(text, max_len):
    check_text(text, "text", note="字符串（一个中文短语）", empty=True)
    if len(text) > max_len:
        raise ValueError(f"text 最多 {max_len} 个字（grad_out 只有 {max_len} 行），收到 {len(text)} 个：{text!r}")
    return text


def _check_examples(examples, max_len):
    names = as_list(examples, "examples", "短语")
    if not all(isinstance(e, str) and 0 < len(e) <= max_len for e in names):
        raise ValueError(f"examples 的每一项必须是 1 到 {max_len} 个字的字符串，收到 {names!r}")
    return check_distinct(names, "examples", "短语")


def _check_grad_out(grad_out, dim):
    """上游梯度 dH：形状 (n, d)，1 <= n <= MAX_LEN，全是有限实数。"""
    g = as_finite_array(grad_out, "grad_out")
    if g.ndim != 2 or not 1 <= g.shape[0] <= MAX_LEN or not 1 <= g.shape[1] <= MAX_DIM:
        raise ValueError(f"grad_out 的形状必须是 (n, d)，1 <= n <= {MAX_LEN}、1 <= d <= {MAX_DIM}，收到形状 {g.shape}")
    if g.shape[1] != dim:
        raise ValueError(f"grad_out 的宽度必须等于 E 的宽度 d = {dim}，收到形状 {g.shape}")
    return g


def _check_table(E, n_rows):
    E = as_table(E, "E")
    if E.shape[0] != n_rows or not 1 <= E.shape[1] <= MAX_DIM:
        raise ValueError(f"E 的形状必须是 (V, d)，V = 词表大小 {n_rows}、1 <= d <= {MAX_DIM}，收到形状 {E.shape}")
    return E


def default_tables(rng, dim=DIM, max_len=MAX_LEN):
    """交互组件的小嵌入表 E（V, d）和每个位置的上游梯度 grad_out = dH（max_len, d）。

    E 的元素保留一位小数；grad_out 是 -3 到 3 的整数，前三个位置用第 3 章探针的系数 A 的三行
    [1, 2]、[-1, 1]、[3, -1]（d = 2 时），所以累加一眼就能核对。
    """
    E = rng.normal(size=(len(vocab()), dim)).round(1) + 0.0  # (V, d)；加 0.0 把 -0.0 变成 0.0
    grad_out = rng.integers(-3, 4, size=(max_len, dim)).astype(np.float64)  # (T_max, d)
    if dim == len(PROBE_ROWS[0]):
        grad_out[:len(PROBE_ROWS)] = PROBE_ROWS
    return E, grad_out


# ---------------------------------------------------------------- 交互组件
class EmbeddingExplorer(WidgetBase):
    """嵌入探索器（交互组件）。``text``（短语）和 ``show_bug``（错误写法开关）是读者改动的特性，
    ``vocab``、``E``、``grad_out`` 随状态进入网页；在浏览器里打字会改 ``text``，
    在 Python 里赋值（如 ``w.text = "谢谢"``）会改网页。

    ``ids``、``rows``、``counts``、``H``、``grad_rows``、``grad_rows_overwrite`` 由 labcode 算出
    （只在 Python 端，浏览器自己算同样的数）。一般用 :func:`embedding_explorer` 创建。
    """

    _esm = bundle("embedding_explorer")
    _css = styles("embedding_explorer")

    text = traitlets.Unicode(EXAMPLES[0]).tag(sync=True)
    show_bug = traitlets.Bool(False).tag(sync=True)
    examples = traitlets.List(traitlets.Unicode(), default_value=list(EXAMPLES)).tag(sync=True)
    vocab = traitlets.List(traitlets.Unicode(), default_value=list(vocab()), read_only=True).tag(sync=True)  # (V,)
    unk = traitlets.Int(UNK, read_only=True).tag(sync=True)
    E = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)         # (V, d)
    grad_out = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)  # (T_max, d) 上游梯度 dH

    ids = traitlets.List(traitlets.Int(), read_only=True)                   # (T,) encode(text)
    rows = traitlets.List(traitlets.Int(), read_only=True)                  # (R,) 读到的行，按第一次读到的先后
    counts = traitlets.List(traitlets.Int(), read_only=True)                # (R,) 每行读了几次
    H = traitlets.List(traitlets.List(traitlets.Float()), read_only=True)   # (T, d) = E[ids]
    grad_rows = traitlets.List(traitlets.List(traitlets.Float()), read_only=True)            # (R, d) dE[rows]
    grad_rows_overwrite = traitlets.List(traitlets.List(traitlets.Float()), read_only=True)  # (R, d) 错误写法的结果

    @traitlets.default("E")
    def _default_E(self):
        return default_tables(np.random.default_rng(DEFAULT_SEED))[0].tolist()

    @traitlets.default("grad_out")
    def _default_grad_out(self):
        return default_tables(np.random.default_rng(DEFAULT_SEED))[1].tolist()

    @traitlets.validate("text")
    def _valid_text(self, proposal):
        return _check_text(proposal["value"], len(self.grad_out))

    @traitlets.validate("examples")
    def _valid_examples(self, proposal):
        return _check_examples(proposal["value"], len(self.grad_out))

    @traitlets.validate("E")
    def _valid_E(self, proposal):
        return _check_table(proposal["value"], len(self.vocab)).tolist()

    @traitlets.validate("grad_out")
    def _valid_grad_out(self, proposal):
        g = _check_grad_out(proposal["value"], len(self.E[0]))
        if len(self.text) > g.shape[0]:
            raise ValueError(f"grad_out 至少要有 len(text) = {len(self.text)} 行，收到形状 {g.shape}")
        return g.tolist()

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._recompute()  # 默认值不会触发变化事件

    @traitlets.observe("text", "E", "grad_out")
    def _recompute(self, change=None):
        ids = np.asarray(encode(self.text), dtype=np.int64)  # (T,)
        V = len(self.vocab)
        g = np.asarray(self.grad_out, dtype=np.float64)[:len(ids)]  # (T, d)
        dE = embedding_backward(g, ids, V)                     # (V, d)，重复的编号累加
        dE_bug = embedding_backward_overwrite(g, ids, V)      # (V, d)，错误写法：每个元素只留下一次写入
        rows, counts = rows_read(ids)                          # (R,), (R,) 按第一次读到的先后
        self.set_trait("ids", ids.tolist())
        self.set_trait("rows", rows.tolist())
        self.set_trait("counts", counts.tolist())
        self.set_trait("H", embedding(np.asarray(self.E), ids).tolist())
        self.set_trait("grad_rows", dE[rows].tolist())
        self.set_trait("grad_rows_overwrite", dE_bug[rows].tolist())

    def token(self, i):
        """编号 i 在图上的名字：特殊词元写 UNK 等，其余就是那个字。"""
        return "UNK" if i == self.unk else self.vocab[i]

    def summary(self):
        """一行可读的文字：短语、编号、每行读了几次、梯度行（开关打开时加上错误写法的结果）。"""
        if not self.text:
            return "嵌入探索器：（空短语，没有读任何一行）"
        def per_row(values, show):
            return "、".join(f"{self.token(i)}{show(v)}" for i, v in zip(self.rows, values, strict=True))

        line = (f"嵌入探索器：“{self.text}” → ids={self.ids}；读取 {per_row(self.counts, lambda n: f'×{n}')}；"
                f"梯度行 {per_row(self.grad_rows, lambda r: '=' + vector_text(r))}")
        if self.show_bug:
            line += f"；错误写法 dE[ids] += dH 得到 {per_row(self.grad_rows_overwrite, lambda r: '=' + vector_text(r))}"
        return line

    def snapshot_png(self, dpi=100):
        """当前状态的静态图（PNG 字节）：各位置读哪一行、梯度行怎样相加、错误写法丢了什么。"""
        return figure_png(_snapshot_figure(self, dpi))


def _snapshot_figure(w, dpi):
    """纸面版：左列是各位置（字 → 编号、上游梯度），连线指向被读的行，右边两列是正确与错误的梯度行。"""
    T, R = len(w.ids), len(w.rows)
    n = max(T, R, 1)
    fig = snapshot_figure(7.6, 0.95 + 0.34 * n, dpi)
    ax = fig.subplots()
    ax.set_axis_off()
    ax.set_xlim(0, 10)
    ax.set_ylim(-n + 0.4, 1.3)
    heads = [(0, "位置 t：字 → 编号，上游梯度 dH"), (3.45, "被读的行"), (5.3, "正确：逐次相加"),
             (8.0, "错误：dE[ids] += dH")]
    for x, head in heads:
        ax.text(x, 0.75, head, fontsize=9, va="center", color="#444444")
    if T == 0:
        ax.text(0, 0, "（空短语：没有读任何一行，所有梯度行都是 0）", fontsize=9, va="center")
    where = {i: r for r, i in enumerate(w.rows)}
    for t, (ch, i) in enumerate(zip(w.text, w.ids, strict=True)):
        code = "UNK" if i == w.unk else str(i)
        shown = "␣" if ch.isspace() else ch       # 打进来的空格显示成 ␣
        ax.text(0, -t, f"t={t}  {shown} → {code}   dH={vector_text(w.grad_out[t])}", fontsize=9, va="center")
        ax.plot([2.75, 3.35], [-t, -where[i]], color=PALETTE[where[i] % len(PALETTE)], lw=1.2)
    read = zip(w.rows, w.counts, w.grad_rows, w.grad_rows_overwrite, strict=True)
    for r, (i, k, good, bad) in enumerate(read):
        uses = [vector_text(w.grad_out[t]) for t, j in enumerate(w.ids) if j == i]
        ax.text(3.45, -r, f"{w.token(i)}（{i}）读 ×{k}", fontsize=9, va="center")
        ax.text(5.3, -r, " + ".join(uses) + (f" = {vector_text(good)}" if k > 1 else ""), fontsize=9, va="center")
        lost = "" if good == bad else f"（丢了 {k - 1} 份）"
        ax.text(8.0, -r, vector_text(bad) + lost, fontsize=9, va="center")
    ax.set_title(f"“{w.text}”读了 E 的哪些行，梯度行怎样相加", fontsize=10)
    return fig


# ---------------------------------------------------------------- 工厂函数
def embedding_explorer(text=EXAMPLES[0], *, examples=None, grad_out=None, dim=DIM, show_bug=False, rng=None):
    """创建嵌入探索器（返回交互组件，不自动显示；放在单元格最后一行即可显示）。

    参数
    ----
    text : 开始时的短语，最多 len(grad_out) 个字；词表外的字编码成 UNK
    examples : 下拉框里的例句；默认是“我爱我家”“谢谢”“天天向上”等放得下的几句
    grad_out : 形状 (n, d) 的上游梯度 dH，grad_out[t] 属于位置 t；默认由 rng 生成（见 :func:`default_tables`）
    dim : 嵌入宽度 d（1 到 4），E 由 rng 生成
    show_bug : 是否一开始就并排显示错误写法 ``dE[ids] += dH`` 的结果
    rng : numpy.random.Generator；默认 ``np.random.default_rng(3)``，每次得到同样的 E

    返回
    ----
    EmbeddingExplorer

    讲解：:ref:`ch3-explorer`
    >>> w = embedding_explorer("我爱我家")
    >>> w.counts, w.grad_rows[0]      # “我”读了两次：[1, 2] + [3, -1]
    ([2, 1, 1], [4.0, 1.0])
    """
    dim = check_int(dim, "dim", 1, MAX_DIM, note="嵌入宽度 d，交互组件只画得下这么宽")
    rng = np.random.default_rng(DEFAULT_SEED) if rng is None else check_rng(rng)
    E, default_grad = default_tables(rng, dim)
    g = default_grad if grad_out is None else _check_grad_out(grad_out, dim)
    text = _check_text(text, g.shape[0])
    if examples is None:
        examples = [e for e in EXAMPLES if len(e) <= g.shape[0]]
    examples = _check_examples(examples, g.shape[0])
    return EmbeddingExplorer(E=E.tolist(), grad_out=g.tolist(), text=text, examples=examples,
                             show_bug=check_bool(show_bug, "show_bug"))
