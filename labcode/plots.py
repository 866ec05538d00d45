"""课程插图：概率柱状图等（只有本模块和 widgets 导入 matplotlib）。

各章的画图函数每次新建一个 matplotlib Figure 并返回它：不用 pyplot 的全局状态，也不调用 show；
在笔记本里作为单元格最后一个值即可显示。
"""
from __future__ import annotations

import io
import re

import matplotlib
import numpy as np
from matplotlib import ticker
from matplotlib.figure import Figure

from ._validate import (
    as_counts,
    as_finite_array,
    as_ids,
    as_probs,
    as_row,
    as_table,
    check_1d,
    check_each,
    check_temperature,
    short_repr,
)
from .fonts import use_cjk_font
from .probability import entropy, softmax

# Okabe–Ito 调色板：常见的几种色盲都能分辨。
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
TARGET_EDGE = "#000000"
# A candidate named after a colour is drawn in it (the Okabe–Ito shade nearest that name): “红” is never blue.
NAMED_COLOURS = {"红": "#D55E00", "黄": "#E69F00", "绿": "#009E73", "蓝": "#0072B2", "紫": "#CC79A7"}

# 多数读者用手机读，网页把 PNG 缩到正文栏的宽度（360 px 的屏上约 312 CSS px）。w 英寸宽的图上 s 磅的文字
# 于是显示为 s * 312 / (72 * w) px 高，所以各章的图画成 FIGURE_WIDTH 英寸宽，文字不小于 LABEL_PT 磅：
# 手机上至少 11 px。桌面上（每英寸 100 px）和纸上（原尺寸），同一张 PNG 也大约与正文栏一样宽。
# 笔记本按两倍分辨率存 PNG（`InlineBackend.figure_formats = ["retina"]`），显示尺寸不变：手机屏上也清晰。
FIGURE_WIDTH = 4.8
LABEL_PT = 12.5


def colours_for(labels):
    """每个候选一种颜色：名字是颜色的（红、黄、绿……）用那种颜色，其余按 PALETTE 的顺序取还没用过的颜色。

    返回的列表先是各候选的颜色，再接上 PALETTE 里剩下的颜色（交互组件按编号取色，候选变多时也有颜色可用）；
    没有一个名字是颜色时，它就是 PALETTE 本身。
    """
    named = [NAMED_COLOURS.get(str(label)) for label in labels]
    spare = [c for c in PALETTE if c not in named]
    own = [c if c is not None else spare.pop(0) if spare else PALETTE[k % len(PALETTE)]
           for k, c in enumerate(named)]
    return own + spare


def bar_probs(ax, probs, labels, *, target=None, title=None, fontsize=9):
    """在 ``ax`` 上画一行概率的柱状图，柱顶标出数值。

    参数
    ----
    ax : matplotlib Axes
    probs : 形状 (V,) 的概率
    labels : 长度 V 的候选名
    target : 真实目标的下标；它的柱子加粗黑框
    title : 图标题
    fontsize : 柱顶数值的字号（磅）

    返回
    ----
    bars : matplotlib 的 BarContainer，可用 ``set_height`` 更新而不必重画
    """
    use_cjk_font()
    probs = as_row(as_probs(probs)[0], "probs", labels)   # 有限、非负、和为 1，每个候选一个
    colors = colours_for(labels)[:len(labels)]
    bars = ax.bar(range(len(labels)), probs, color=colors, edgecolor="none")
    if target is not None:
        bars[target].set_edgecolor(TARGET_EDGE)
        bars[target].set_linewidth(2.5)
    for rect, p in zip(bars, probs, strict=True):
        ax.annotate(f"{p:.3f}", (rect.get_x() + rect.get_width() / 2, p), ha="center", va="bottom",
                    xytext=(0, 2), textcoords="offset points", fontsize=fontsize)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("概率")
    if title:
        ax.set_title(title)
    return bars


# ---- 第 1 章的图 ----

def _legible(fig, size=LABEL_PT):
    """把图里每段文字（刻度、轴标签、标题、图例、注释）都放大到至少 ``size`` 磅，返回 fig。"""
    for ax in fig.axes:
        ax.tick_params(labelsize=size)    # 也管 matplotlib 绘制时才生成的刻度标签
    for text in fig.findobj(matplotlib.text.Text):
        if text.get_fontsize() < size:
            text.set_fontsize(size)
    return fig


def vector_text(values):
    """一行向量的最短写法，图上和交互组件的文字里都用它：[1, -0.5, 2]。

    >>> vector_text([1.0, -0.5, 2])
    '[1, -0.5, 2]'
    """
    return "[" + ", ".join(f"{v:g}" for v in np.asarray(values, dtype=float)) + "]"


def softmax_before_after(logits_before, logits_after, labels, *, titles=("修改前", "修改后")):
    """并排两张柱状图：同一组候选在改分数前、后的 softmax 概率。

    参数
    ----
    logits_before, logits_after : 形状 (V,) 的分数
    labels : 长度 V 的候选名
    titles : 两张子图的标题前缀
    """
    use_cjk_font()
    rows = [as_row(logits_before, "logits_before", labels), as_row(logits_after, "logits_after", labels)]
    if isinstance(titles, str) or len(titles) != 2:
        raise ValueError(f"titles 必须正好是两个标题（修改前、修改后），收到 {titles!r}")
    fig = Figure(figsize=(FIGURE_WIDTH, 3.0), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    for ax, z, title in zip(axes, rows, titles, strict=True):
        bar_probs(ax, softmax(z), labels, title=f"{title}\n分数 {vector_text(z)}", fontsize=LABEL_PT)
        ax.set_yticks([0, 0.5, 1])
    axes[1].set_ylabel("")
    return _legible(fig)


def temperature_bars(logits, temperatures, labels):
    """每个温度一张柱状图：softmax(logits / τ)，标题给出温度 τ 和分布的熵（单位：奈特）。

    参数
    ----
    logits : 形状 (V,) 的分数
    temperatures : 一个或多个正的温度
    labels : 长度 V 的候选名
    """
    use_cjk_font()
    z = as_row(logits, "logits", labels)
    temps = [check_temperature(t) for t in np.atleast_1d(np.asarray(temperatures, dtype=object)).tolist()]
    if not temps:
        raise ValueError("temperatures 至少要有一个温度，收到空序列")
    # 一行最多并排三幅，多的换行：每幅都宽得下它的数字。
    ncols = min(len(temps), 3)
    nrows = -(-len(temps) // ncols)
    fig = Figure(figsize=(min(1.6 * ncols + 0.3, FIGURE_WIDTH), 2.9 * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, sharey=True, squeeze=False).ravel()
    for ax in axes[len(temps):]:
        ax.remove()
    for i, (ax, t) in enumerate(zip(axes[:len(temps)], temps, strict=True)):
        probs = softmax(z, temperature=t)
        bar_probs(ax, probs, labels, title=f"温度 τ = {t:g}\n熵 {float(entropy(probs)):.4f}", fontsize=LABEL_PT)
        ax.set_yticks([0, 0.5, 1])
        if i % ncols:
            ax.set_ylabel("")
    return _legible(fig)


def nll_curve(highlight=None, *, p_min=0.01):
    """损失曲线 −ln p：真实目标分到的概率越小，损失越大；可在曲线上标出若干点。

    参数
    ----
    highlight : 要标出的概率值序列，每个都须在 (0, 1] 内
    p_min : 横轴起点，须在 (0, 1) 内
    """
    use_cjk_font()
    if not (isinstance(p_min, (int, float)) and 0 < p_min < 1):
        raise ValueError(f"p_min 必须在 (0, 1) 内，收到 {p_min!r}")
    points = check_1d(np.atleast_1d(as_finite_array([] if highlight is None else highlight, "highlight")),
                      "highlight", "若干个概率")
    check_each(points, (points > 0) & (points <= 1), "highlight", " (0, 1] 内的概率")
    p = np.linspace(p_min, 1.0, 400)
    fig = Figure(figsize=(FIGURE_WIDTH, 3.2), layout="constrained")
    ax = fig.subplots()
    ax.plot(p, -np.log(p), color=PALETTE[0])
    for q in points:
        ax.plot([q], [-np.log(q)], "o", color=PALETTE[5])
        # p = 0.5 右边曲线又低又平：那里的标注往左上方放，避开曲线。
        far = q > 0.5
        ax.annotate(f"$p_y$ = {q:.3f}\n损失 {-np.log(q):.3f}", (q, -np.log(q)), xytext=(-70, 20) if far else (8, 6),
                    textcoords="offset points", arrowprops={"arrowstyle": "-", "color": "0.5"} if far else None)
    ax.set_xlabel("分给真实目标的概率 $p_y$")
    ax.set_ylabel("损失 $-\\ln p_y$")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    return _legible(fig)


# ---- 第 2 章的图 ----

def _power_of_ten(x):
    """10 的整数次幂的 mathtext 写法：1e-6 写成 10^{-6}，1 写成 1。"""
    exponent = round(np.log10(x))
    return "1" if exponent == 0 else f"10^{{{exponent}}}"


def _times_ten(x):
    """一个正数的 a × 10^b 写法（mathtext，一位小数），如 3.3e-06 写成 3.3 × 10^{-6}。"""
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"${mantissa} \\times 10^{{{int(exponent)}}}$"


def step_size_error_curve(f, x, grad, deltas):
    """中心差分的误差随差分步长 δ 的变化：float64 与 float32 两条曲线（双对数坐标）。

    每条曲线的最低点画空心大圈，图例写出最小误差和对应的 δ。

    参数
    ----
    f : 标量函数，如 ``lambda v: cross_entropy(v, y)``
    x : 求梯度的点（float64 曲线用它本身，float32 曲线用它的单精度副本）
    grad : 与 x 同形状的解析梯度
    deltas : 一列正的差分步长 δ
    """
    from .gradients import step_size_errors

    use_cjk_font()
    deltas = np.asarray(deltas, dtype=float)
    fig = Figure(figsize=(FIGURE_WIDTH, 4.4), layout="constrained")
    ax = fig.subplots()
    for dtype, name, colour, marker in ((np.float64, "float64（双精度）", PALETTE[0], "o"),
                                        (np.float32, "float32（单精度）", PALETTE[5], "s")):
        errs = step_size_errors(f, np.asarray(x, dtype=dtype), grad, deltas)
        shown = np.maximum(errs, 1e-18)            # 误差恰为 0 时画在底部，不让对数坐标出错
        best = int(np.argmin(errs))
        ax.loglog(deltas, shown, marker=marker, markersize=3.5, color=colour,
                  label=f"{name}\n最小误差 {_times_ten(errs[best])}\n（$\\delta = {_power_of_ten(deltas[best])}$）")
        ax.plot(deltas[best], shown[best], marker=marker, markersize=11, markerfacecolor="none", color=colour)
    ax.set_xlabel("差分步长 $\\delta$（对数刻度）")
    ax.set_ylabel("与解析梯度的最大绝对误差")
    # 左下角和右上角都不碰两条曲线（误差左边大、右边小）。
    # 注释里的上下标会排得更小：注释大一号，上下标才看得清。
    note = LABEL_PT + 1.5
    ax.text(0.02, 0.03, "← 舍入误差主导\n（约 $\\varepsilon_{\\mathrm{mach}}/\\delta$）", transform=ax.transAxes,
            fontsize=note)
    ax.text(0.98, 0.97, "截断误差主导 →\n（约 $\\delta^2$）", transform=ax.transAxes, va="top", ha="right",
            fontsize=note)
    # 每隔三个数量级标一个刻度，写法与正文相同：10⁻⁶，不写 1e-6。
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(ticker.LogLocator(base=1000))
        axis.set_minor_locator(ticker.LogLocator(base=10, numticks=30))
        axis.set_minor_formatter(ticker.NullFormatter())
        axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"${_power_of_ten(v)}$"))
    ax.grid(alpha=0.3, which="major")
    fig.legend(loc="outside lower center", ncols=2)
    return _legible(fig)


# ---- 第 3 章的图：查表读了哪些行，它们的梯度行怎样累加 ----

def _box(ax, x, y, width, height, text, color=None):
    """一个带文字的格子（中心高度 y）；被读到的行填浅色、边框加粗（文字里另写“读 k 次”，不只靠颜色区分）。"""
    from matplotlib.patches import FancyBboxPatch
    ax.add_patch(FancyBboxPatch((x, y - height / 2), width, height, boxstyle="round,pad=0.02",
                                facecolor=(color + "30") if color else "none",
                                edgecolor=color or "#999999", linewidth=2.0 if color else 0.8))
    ax.text(x + 0.07, y, text, va="center", ha="left", fontsize=LABEL_PT, linespacing=1.2)


def _arrow(ax, start, end, color, dashed=False):
    ax.annotate("", end, start, arrowprops={"arrowstyle": "->", "color": color, "lw": 1.6,
                                            "linestyle": "--" if dashed else "-", "shrinkA": 0, "shrinkB": 0})


def embedding_rows(E, ids, grad_out):
    """查表与反向的示意图：哪些行被读到（读几次），每个位置的梯度又怎样加回它读过的那一行。

    左列是嵌入表 E 的各行，中列是各位置（读出的向量 H[t] 与上游梯度），右列是梯度表 dE。
    实线箭头是前向（读行），虚线箭头是反向（梯度回到同一行并相加）。
    每个格子的文字分两三行写，三列才能并排放进手机屏幕的宽度。

    参数
    ----
    E : 形状 (V, D) 的嵌入表（V 至多 10，D 至多 3，否则画不下）
    ids : 形状 (T,) 的编号，T 至多 8
    grad_out : 形状 (T, D) 的上游梯度，第 t 行属于位置 t
    """
    from .embedding import embedding, embedding_backward
    use_cjk_font()
    H = embedding(E, ids)                                  # 顺带检查 E 与 ids
    E, ids = np.asarray(E, dtype=float), np.asarray(ids)
    if ids.ndim != 1 or ids.shape[0] > 8 or E.shape[0] > 10 or E.shape[1] > 3:
        raise ValueError(f"ids 必须是一维且至多 8 个，E 至多 10 行、3 列才画得下，"
                         f"收到 ids 形状 {ids.shape}、E 形状 {E.shape}")
    V, T = E.shape[0], ids.shape[0]
    dE = embedding_backward(grad_out, ids, V)              # 顺带检查 grad_out 的形状
    grad_out = np.asarray(grad_out, dtype=float)
    colour = {i: PALETTE[k % len(PALETTE)] for k, i in enumerate(dict.fromkeys(ids.tolist()))}
    counts = np.bincount(ids, minlength=V)
    # 以英寸为单位作图（一个数据单位 = 图上一英寸），方框大小随 LABEL_PT 的文字而定。
    line = LABEL_PT * 1.2 / 72                             # 一行文字的高度（英寸）
    row_h, pos_h = 2 * line + 0.12, 3 * line + 0.12       # E/dE 方框放两行，位置方框放三行
    pitch = max(row_h + 0.1, (pos_h + 0.1) * T / V)       # 无论哪一列更长，每个方框都放得下
    head = 3 * line + 0.1
    height = V * pitch + head
    (ex, ew), (px, pw), (dx, dw) = columns = ((0.0, 1.2), (1.55, 1.3), (3.2, 1.15))
    left = 0.04                                           # 给方框的圆角留出位置
    width = left + dx + dw + left
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    row_y = [height - head - (i + 0.5) * pitch for i in range(V)]
    pos_y = [height - head - (t + 0.5) * V * pitch / T for t in range(T)]
    titles = ("嵌入表 E\n（读几次）", "各位置 t\n读出 H[t]\n收到梯度", "梯度 dE\n同一行相加")
    for (x, w), title in zip(columns, titles, strict=True):
        ax.text(x + w / 2, height - 0.05, title, ha="center", va="top", fontsize=LABEL_PT, linespacing=1.2)
    for i in range(V):
        note = f"读 {counts[i]} 次" if counts[i] else "未读"
        _box(ax, ex, row_y[i], ew, row_h, f"E[{i}] = {vector_text(E[i])}\n{note}", colour.get(i))
        parts = [vector_text(grad_out[t]) for t in range(T) if ids[t] == i]
        total = (f"{parts[0]}\n+ " + " + ".join(parts[1:]) + f" = {vector_text(dE[i])}") if len(parts) > 1 \
            else f"{vector_text(dE[i])}"
        _box(ax, dx, row_y[i], dw, row_h, f"dE[{i}] = {total}", colour.get(i))
    for t in range(T):
        i = int(ids[t])
        text = f"位置 {t}（编号 {i}）\nH = {vector_text(H[t])}\n梯度 {vector_text(grad_out[t])}"
        _box(ax, px, pos_y[t], pw, pos_h, text, colour[i])
        _arrow(ax, (ex + ew, row_y[i]), (px, pos_y[t] + 0.1), colour[i])
        _arrow(ax, (px + pw, pos_y[t] - 0.1), (dx, row_y[i]), colour[i], dashed=True)
    ax.set_xlim(-left, width - left)
    ax.set_ylim(0, height)
    ax.axis("off")
    return fig


# ---- 第 4 章的图 ----

class SvgFigure(Figure):
    """显示时除了 PNG 还附上一份 SVG 的 Figure。

    网页显示 SVG（文字是真正的文字，放大不糊，体积约为 PNG 的二十分之一），
    PDF 讲义和只认 PNG 的界面仍用同一张 PNG。
    """

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"image/svg+xml": figure_svg(self)}


# matplotlib 的 SVG 里浏览器用不着的部分：元数据块、每段文字各自的字体列表（改成一条 CSS 规则），
# 以及不旋转的文字上的零度旋转。
_SVG_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_SVG_FONT_LIST = re.compile(r" font-family: ([^;\"]*);")
_SVG_NO_ROTATION = re.compile(r' transform="rotate\(-0 [\d.]+ [\d.]+\)"')
_SVG_SIZE = re.compile(r'width="([\d.]+)pt" height="([\d.]+)pt"')


def figure_svg(fig, *, tight=True):
    """Figure 的 SVG 文本：可重复（同一张图每次得到相同的文本），文字保留为文字，
    显示尺寸与同一张图的 PNG 相同（每英寸 ``fig.dpi`` 个像素）。``tight=False`` 时保留整张画布，不裁掉空白。"""
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "labcode", "svg.fonttype": "none"}):
        # dpi 只决定嵌入的位图部分（imshow）的分辨率；72 与 SVG 自己的单位一致。
        fig.savefig(buf, format="svg", bbox_inches="tight" if tight else None, dpi=72, metadata={"Date": None})
    svg = _SVG_METADATA.sub("", buf.getvalue())
    if fonts := _SVG_FONT_LIST.search(svg):
        svg = _SVG_FONT_LIST.sub("", svg).replace("<defs>", f"<defs>\n  <style>text{{font-family: {fonts.group(1)}}}"
                                                  "</style>", 1)
    svg = _SVG_NO_ROTATION.sub("", svg)
    scale = fig.dpi / 72
    return _SVG_SIZE.sub(lambda m: f'width="{float(m.group(1)) * scale:.0f}px" '
                                   f'height="{float(m.group(2)) * scale:.0f}px"', svg, count=1)


def count_heatmap(counts, symbols):
    """计数矩阵的热图：第 i 行第 j 列是“i 后面跟着 j”的次数，格子里写出这对字和次数。

    颜色深浅按次数的平方根（小计数也看得出），准确值看格子里的数字；返回 :class:`SvgFigure`（网页上显示 SVG）。

    参数
    ----
    counts : 形状 (V, V) 的非负计数
    symbols : 长度 V 的符号（编号 → 字符，如 ``list(vocab)``）
    """
    from matplotlib.colors import PowerNorm

    use_cjk_font()
    V = len(symbols)
    N = as_counts(counts, V, nonzero=False, note="与 symbols 的长度一致")
    size = max(4.0, 0.4 * V)
    # 每英寸 100 px：8 磅的数字按原尺寸显示为 11 CSS px，手机上就这样显示（_ext/wide_figures.py）
    fig = SvgFigure(figsize=(size, size + 0.4), layout="constrained", dpi=100)
    ax = fig.subplots()
    norm = PowerNorm(gamma=0.5, vmin=0, vmax=max(N.max(), 1))
    ax.imshow(N, cmap="Blues", norm=norm)
    # 格子里的数字都在坐标轴内，排版无须测量它们（2 × V² 段文字，省一半时间）。
    cell = {"ha": "center", "va": "center", "in_layout": False}
    for i in range(V):
        for j in range(V):
            dark = norm(N[i, j]) > 0.55
            colour = "white" if dark else "#222222"
            ax.text(j, i - 0.2, symbols[i] + symbols[j], fontsize=8.5, color=colour, **cell)
            ax.text(j, i + 0.22, f"{N[i, j]:g}", fontsize=8, color=colour, **cell)
    ax.set_xticks(range(V), symbols)
    ax.set_yticks(range(V), symbols)
    ax.tick_params(top=True, labeltop=True, bottom=False, labelbottom=False, length=0, labelsize=11)
    ax.set_xlabel("后一个字 j", fontsize=13)
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("前一个字 i", fontsize=13)
    return fig


def loss_curve(losses, optimum):
    """训练损失曲线与计数模型的最优值：上图是损失，下图是损失与最优值之差（对数纵轴）。

    参数
    ----
    losses : 形状 (S + 1,) 的损失，losses[k] 是更新 k 次后的值
    optimum : 计数模型的平均负对数似然（训练损失的下界）
    """
    use_cjk_font()
    losses = check_1d(as_finite_array(losses, "losses"), "losses", "更新 0, 1, … 次后的损失")
    if losses.size < 2:
        raise ValueError(f"losses 必须至少有两个值（更新 0 次和 1 次后），收到 {losses.size} 个")
    steps = np.arange(losses.size)
    # 上下两幅，各占正文栏的宽度：并排的话，手机会把文字缩小。
    fig = Figure(figsize=(FIGURE_WIDTH, 5.6), layout="constrained")
    left, right = fig.subplots(2, 1)
    left.plot(steps, losses, color=PALETTE[0], label="梯度下降（计数写法）")
    left.axhline(optimum, color=PALETTE[5], linestyle="--", label=f"计数模型 {optimum:.4f}")
    left.set_ylim(optimum - 0.05, min(losses.max(), optimum + 1.0) + 0.05)
    left.set_xscale("symlog", linthresh=1)   # 前几步下降最快：横轴在 1 以后按对数展开
    left.set_xlim(0, steps[-1] * 1.2)
    left.set_xlabel("更新次数（1 以后为对数刻度）")
    left.set_ylabel("平均损失（奈特）")
    left.legend()
    gap = losses - optimum
    right.semilogy(steps[gap > 0], gap[gap > 0], color=PALETTE[0])
    for tol in (1e-3, 1e-4):
        right.axhline(tol, color="0.5", linewidth=0.8, linestyle=":")
        right.annotate(f"{tol:g}", (steps[-1], tol), xytext=(-2, 2), textcoords="offset points", ha="right",
                       color="0.3")
    right.set_xlabel("更新次数")
    right.set_ylabel("与最优值之差（对数刻度）")
    for ax in (left, right):
        ax.grid(alpha=0.3)
    return _legible(fig)


def embedding_plane(E, symbols, show):
    """宽度 d = 2 的嵌入表画成平面上的点：每个字一个点，坐标是它那一行 E[i] = (第 0 维, 第 1 维)。

    参数
    ----
    E : 形状 (V, 2) 的嵌入表
    symbols : 长度 V 的符号（编号 → 字，如 ``vocab.symbols``）
    show : 要标出字的编号（一维整数数组，不重复，至多 40 个）；其余的行画成灰色小点

    讲解：:ref:`ch3-train-low-rank`
    """
    use_cjk_font()
    E = as_table(E, "E")
    if E.shape[1] != 2 or len(symbols) != E.shape[0]:
        raise ValueError(f"E 必须是 (V, 2) 的表，symbols 必须有 V 项，收到 E 形状 {E.shape}、symbols {len(symbols)} 项")
    show = as_ids(show, E.shape[0], "show")
    if show.ndim != 1 or show.size > 40 or np.unique(show).size != show.size:
        raise ValueError(f"show 必须是一维、不重复、至多 40 个编号，收到 {short_repr(show)}")
    fig = Figure(figsize=(FIGURE_WIDTH, FIGURE_WIDTH), layout="constrained")
    ax = fig.subplots()
    rest = np.setdiff1d(np.arange(E.shape[0]), show)
    ax.scatter(E[rest, 0], E[rest, 1], s=6, color="0.75", label="其余的字")
    ax.scatter(E[show, 0], E[show, 1], s=10, color=PALETTE[0])
    for i in show:
        ax.annotate(symbols[i], E[i], xytext=(3, 3), textcoords="offset points", color=PALETTE[0])
    ax.set_xlabel("嵌入的第 0 维 E[i, 0]")
    ax.set_ylabel("嵌入的第 1 维 E[i, 1]")
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    return _legible(fig)
