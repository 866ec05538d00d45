"""Bigram 训练器：在网页里用梯度下降从计数矩阵训练 27×27 的权重 W，并从训练好的 W 采样名字。

训练目标是 ``labcode.bigram.loss_and_grad_from_counts(W, C + α, λ)``：平滑 α 当作每格多出的
“假计数”，λ 是正则化系数。浏览器里的计算由 ``maths.js`` 的 ``lossAndGradFromCounts``（与 labcode
同一公式）完成，所以静态网页上没有内核也能训练。虚线是“计数最优”``labcode.bigram.count_optimum``：
计数模型 P = (C + α) / 行和 在同一份计数 C + α 上的平均负对数似然，λ = 0 时没有哪个 W 能低于它。
"""
from __future__ import annotations

import numpy as np
import traitlets

from .._validate import as_counts, check_alpha, check_each, check_int, check_lr, check_reg, check_temperature
from ..bigram import (
    NAMES_LR,
    check_row_totals,
    count_optimum,
    loss_and_grad_from_counts,
    names_data,
    sample_names,
    smoothed_counts,
    train,
)
from ..plots import PALETTE
from ..vocab import BOUNDARY, Vocab, check_vocab
from ._base import WidgetBase, bundle, figure_png, fmt, short, snapshot_figure, styles

MAX_NAME = 20            # 采样的名字最多这么多个字：网页上和这里相同
SEED_MAX = 2**32 - 1     # 网页的随机数生成器（mulberry32）用 32 位的种子
MAX_STEPS = 10**6


# ---------------------------------------------------------------- 关于训练器参数的检查
def check_trainer_counts(counts):
    """训练器的计数矩阵：``as_counts`` 的规则，再加上整数（次数）、至少两个符号、
    每一行至少一个正计数（这样 α = 0 时计数模型的每一行也有定义）。返回 int64 数组。"""
    C = as_counts(counts)
    check_each(C, C == np.round(C), "counts", "整数（次数）")
    if C.shape[0] < 2:
        raise ValueError(f"counts 至少要有两个符号（'.' 和一个字），收到形状 {C.shape}")
    check_row_totals(C.sum(axis=1), fix="训练器的 α 可以调到 0，所以每个符号后面都要跟过字符")
    return C.astype(np.int64)


def trainer_vocab(vocab, V):
    """符号表：``build_vocab`` 给出的 Vocab，或按编号排列的符号序列（编号 0 是 '.'，其余每个是一个字）。

    返回大小为 V、编号 0 是 '.' 的 :class:`~labcode.vocab.Vocab`。
    """
    if not isinstance(vocab, Vocab):
        if isinstance(vocab, str | bytes | dict) or not hasattr(vocab, "__len__"):
            raise TypeError(f"vocab 必须是 build_vocab 给出的 Vocab 或按编号排列的符号序列，收到 {vocab!r}")
        symbols = [str(s) for s in vocab]
        vocab = Vocab(symbols[:1], symbols[1:])
    return check_vocab(vocab, first=BOUNDARY, size=V, of="counts")


# 网页上的滑块：特性、标签、最小值、最大值、步长（范围之外的值照样能从 Python 设置，滑块停在端点）。
SLIDERS = (
    ("alpha", "平滑 α", 0.0, 5.0, 0.1),
    ("reg", "正则化 λ", 0.0, 0.1, 0.001),
    ("lr", "学习率 η", 1.0, 100.0, 1.0),
    ("temperature", "采样温度 τ", 0.1, 3.0, 0.05),
)


# ---------------------------------------------------------------- 交互组件
class BigramTrainer(WidgetBase):
    """Bigram 训练器（交互组件）。训练在浏览器里进行（静态网页也能训练），Python 端也能用 labcode 训练。

    特性（traitlets，唯一的真值来源）：``counts``（V×V 整数）与 ``vocab`` 是数据；``alpha``、``reg``、
    ``lr``、``temperature``、``seed`` 对应网页上的滑块与输入框（可以 ``jslink``）；``W`` 与 ``history``
    是训练结果：网页每次训练结束（或暂停）时把它们写回，内核里 Python 就能读到；Python 调用
    :meth:`train` 时也会更新它们，网页随之重画。``W == []`` 表示 W = 0（均匀分布）。
    改变 ``alpha`` 或 ``reg`` 会换一个训练目标，所以 W 与损失曲线都从头开始。

    采样：网页用种子为 ``seed`` 的 mulberry32 生成器，同一种子在网页上总是给出同一批名字，
    每个名字最多 ``max_name_len`` 个字（两边相同）；
    :meth:`sample` 在 Python 里用 ``numpy.random.default_rng(seed)``，同样可复现，但与网页上的名字
    不逐个相同（两边的随机数序列不同）。
    """

    _esm = bundle("bigram_trainer")
    _css = styles("bigram_trainer")

    counts = traitlets.List(traitlets.List(traitlets.Int())).tag(sync=True)  # (V, V) 计数矩阵 C
    vocab = traitlets.List(traitlets.Unicode()).tag(sync=True)               # (V,)
    alpha = traitlets.Float(0.0).tag(sync=True)
    reg = traitlets.Float(0.0).tag(sync=True)
    lr = traitlets.Float(NAMES_LR).tag(sync=True)
    temperature = traitlets.Float(1.0).tag(sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    steps = traitlets.Int(1000).tag(sync=True)        # 每按一次“训练”走的步数
    frame_steps = traitlets.Int(20).tag(sync=True)    # 每一帧动画画出的步数
    n_names = traitlets.Int(8).tag(sync=True)
    W = traitlets.List(traitlets.List(traitlets.Float())).tag(sync=True)    # (V, V)；[] 表示全零
    history = traitlets.List(traitlets.Float()).tag(sync=True)              # 每一步之前的损失
    max_name_len = traitlets.Int(MAX_NAME, read_only=True).tag(sync=True)
    seed_max = traitlets.Int(SEED_MAX, read_only=True).tag(sync=True)
    sliders = traitlets.List(list(map(list, SLIDERS)), read_only=True).tag(sync=True)   # 网页上的滑块，见 SLIDERS

    @traitlets.default("counts")
    def _default_counts(self):
        return default_counts()[0].tolist()

    @traitlets.default("vocab")
    def _default_vocab(self):
        return default_counts()[1]

    @traitlets.validate("counts")
    def _valid_counts(self, proposal):
        return check_trainer_counts(proposal["value"]).tolist()

    @traitlets.validate("alpha", "reg", "lr", "temperature")
    def _valid_scalar(self, proposal):
        check = {"alpha": check_alpha, "reg": check_reg, "lr": check_lr, "temperature": check_temperature}
        return check[proposal["trait"].name](proposal["value"])

    @traitlets.validate("seed")
    def _valid_seed(self, proposal):
        return check_int(proposal["value"], "seed", 0, SEED_MAX)

    @traitlets.validate("steps", "frame_steps", "n_names")
    def _valid_positive(self, proposal):
        return check_int(proposal["value"], proposal["trait"].name, 1, MAX_STEPS)

    @traitlets.observe("alpha", "reg", "counts")
    def _new_objective(self, change):
        self.reset()

    # ---- 网页上显示的数，用 labcode 算
    @property
    def V(self):
        return len(self.vocab)

    def weights(self):
        """当前的 W（形状 (V, V) 的数组；还没训练时是全零）。"""
        return np.array(self.W, dtype=np.float64) if self.W else np.zeros((self.V, self.V))

    def optimum(self):
        """虚线的值：计数模型在 C + α 上的平均负对数似然（λ = 0 时训练损失的下确界）。"""
        return count_optimum(self.counts, self.alpha)

    def loss(self):
        """当前 W 的训练损失 ``loss_and_grad_from_counts(W, C + α, λ)``。"""
        return float(loss_and_grad_from_counts(self.weights(), smoothed_counts(self.counts, self.alpha), self.reg)[0])

    # ---- Python 端的训练与采样
    def train(self, steps=None):
        """在 Python 里用 labcode 训练 ``steps`` 步（默认 ``self.steps``），更新 ``W`` 与 ``history``。"""
        steps = self.steps if steps is None else check_int(steps, "steps", 1, MAX_STEPS)
        W, losses = self._run(self.weights(), steps)
        with self.hold_trait_notifications():
            self.W = W.tolist()
            self.history = self.history + losses
        return self

    def reset(self):
        """W 回到 0，损失曲线清空。"""
        with self.hold_trait_notifications():
            self.W = []
            self.history = []

    def sample(self, n=None, temperature=None):
        """用 ``numpy.random.default_rng(seed)`` 从当前 W 抽 n 个名字（可复现；与网页上的名字不逐个相同）。"""
        n = self.n_names if n is None else check_int(n, "n", 1, 10**4)
        tau = self.temperature if temperature is None else check_temperature(temperature)
        return self._sample(self.weights(), n, tau)

    def _run(self, W, steps):
        """labcode.bigram.train on C + α; returns W and the loss before each of the steps (as the page records it)."""
        W, losses = train(W, smoothed_counts(self.counts, self.alpha), self.lr, steps, self.reg)
        return W, losses[:-1].tolist()

    def _sample(self, W, n, temperature):
        vocab = Vocab(self.vocab[:1], self.vocab[1:])
        return sample_names(W, vocab, np.random.default_rng(self.seed), n, temperature, max_len=self.max_name_len)

    # ---- 文字与纸面的样子
    def summary(self):
        """一行文字：数据规模、超参数、已训练步数、当前损失与计数最优。"""
        total = int(np.sum(self.counts))
        return (f"Bigram 训练器：{self.V} 个符号、{total} 对；α={short(self.alpha)}，λ={short(self.reg)}，"
                f"η={short(self.lr)}；已训练 {len(self.history)} 步，损失 {fmt(self.loss(), 4)}，"
                f"计数最优（虚线）{fmt(self.optimum(), 4)}")

    def snapshot_png(self, dpi=100):
        """损失曲线对虚线（计数最优）和几个采样名字的静态图（PNG 字节）。

        还没训练时，曲线是 Python 用 labcode 从 W = 0 训练 ``steps`` 步的预览（与网页上按一次“训练”相同）。
        """
        history, W = list(self.history), self.weights()
        preview = not history
        if preview:
            W, history = self._run(W, self.steps)
        names = self._sample(W, self.n_names, self.temperature)
        title = (f"α={short(self.alpha)}，λ={short(self.reg)}，η={short(self.lr)}"
                 + (f"（预览：从 W = 0 训练 {self.steps} 步）" if preview else ""))
        return figure_png(_snapshot_figure(history, self.optimum(), names, title, self.temperature, dpi))


def _snapshot_figure(history, optimum, names, title, temperature, dpi):
    """左：损失曲线（实线）与计数最优（虚线，带文字）；中：与虚线之差（对数刻度）；右：采样名字。"""
    steps = np.arange(len(history))
    history = np.asarray(history)
    fig = snapshot_figure(7.6, 2.6, dpi)
    ax, gap, side = fig.subplots(1, 3, width_ratios=[3, 2.2, 1.2])
    ax.plot(steps, history, color=PALETTE[0], linewidth=1.8, label="训练损失")
    ax.axhline(optimum, color=PALETTE[7], linestyle=(0, (5, 3)), linewidth=1.2,
               label=f"计数最优 {fmt(optimum, 4)}（虚线）")
    ax.set_xlabel("步数")
    ax.set_ylabel("平均负对数似然")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    gap.semilogy(steps, np.maximum(history - optimum, 1e-12), color=PALETTE[0], linewidth=1.8)
    gap.set_xlabel("步数")
    gap.set_title("与虚线之差（对数刻度）", fontsize=10)
    mantissa, exponent = f"{history[-1] - optimum:.1e}".split("e")  # 与网页的写法相同：3.2×10⁻⁴
    # 放在空着的右上角：放在曲线末端旁边会压住曲线。
    gap.text(0.97, 0.95, rf"最后一步 ${mantissa}\times 10^{{{int(exponent)}}}$", transform=gap.transAxes,
             ha="right", va="top", fontsize=8)
    side.axis("off")
    side.set_title(f"采样名字（τ={short(temperature)}）", fontsize=10)
    side.text(0.02, 0.98, "\n".join(name or "（空）" for name in names), va="top", ha="left",
              transform=side.transAxes, fontsize=9)
    return fig


def default_counts():
    """names.txt 的计数矩阵与符号表：(counts (V, V) int64 的副本, 符号列表)。"""
    data = names_data()
    return data.counts.astype(np.int64), list(data.vocab)


# ---------------------------------------------------------------- 工厂函数
def bigram_trainer(counts=None, vocab=None, *, alpha=0.0, reg=0.0, lr=NAMES_LR, temperature=1.0, seed=0,
                   steps=1000, n_names=8):
    """创建 Bigram 训练器（返回交互组件，不自动显示；放在单元格最后一行即可显示）。

    参数
    ----
    counts : 形状 (V, V) 的非负整数计数矩阵 C；默认是 names.txt 的 27×27 计数矩阵
    vocab : 长度 V 的符号表，编号 0 是起止符 '.'；counts 为默认值时可省略，否则必须给出
    alpha : 平滑 α ≥ 0（训练用 C + α）
    reg : 正则化系数 λ ≥ 0（损失加上 λ·mean(W²)）
    lr : 学习率 η > 0
    temperature : 采样温度 τ > 0
    seed : 采样的随机种子，0 到 2**32 - 1
    steps : 每按一次“训练”走的步数
    n_names : 每次采样的名字个数

    返回
    ----
    BigramTrainer

    讲解：:ref:`ch4-trainer`
    >>> w = bigram_trainer([[0, 3], [2, 1]], [".", "a"], alpha=0)
    >>> round(w.loss(), 4), round(w.optimum(), 4)   # W = 0：每行均匀，ln 2
    (0.6931, 0.3183)
    >>> w.train(200).loss() > w.optimum()
    True
    """
    C, symbols = default_counts() if counts is None else (check_trainer_counts(counts), None)
    if vocab is not None:
        symbols = list(trainer_vocab(vocab, C.shape[0]))
    elif counts is not None:
        raise TypeError("给了 counts 就必须同时给 vocab（长度等于 counts 边长的符号表）")
    return BigramTrainer(counts=C.tolist(), vocab=symbols, alpha=check_alpha(alpha), reg=check_reg(reg),
                         lr=check_lr(lr), temperature=check_temperature(temperature),
                         seed=check_int(seed, "seed", 0, SEED_MAX), steps=check_int(steps, "steps", 1, MAX_STEPS),
                         n_names=check_int(n_names, "n_names", 1, 100))
