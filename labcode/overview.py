"""课程全图：一个位置从编号走到损失（前向），再从损失走回参数的梯度（反向），每章点亮自己那一段。

图只有一种画法（matplotlib），从它得到三种输出：
* 笔记本：PNG（JupyterLab、Notebook 7、VS Code 和 GitHub 都直接显示）；
* PDF 讲义：同一张图的矢量 PDF；
* 网页：同一张图的 SVG，文字是真文字，墨色换成 ``currentColor``，跟着亮色、暗色主题走；有横排（宽屏）和
  竖排（手机，360 像素宽也读得清）两种排法，按窗口宽度自动选一种（网页构建时由 ``_ext/course_map.py`` 放进页面）。

本章那一段用粗框、粗体和浅色底标出，其余部分变淡变细；前向是实线箭头，反向是橙色虚线箭头。
替代文字（:func:`course_map_alt`）以“你在这里：”开头，说出本章是哪一段。
"""
from __future__ import annotations

import base64
import html
import io
import math
import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Stage:
    chapter: int
    keys: frozenset
    alt: str


# 每章的一段：它点亮的部分（下面节点与箭头的键）和替代文字。新增一章只需加一项。
STAGES = {
    "softmax": Stage(1, frozenset({"h", "W", "f2", "z", "f3", "softmax", "p", "f4", "nll", "loss"}),
                     "你在这里：第 1 章，从分数到概率，再到损失。隐状态 h 乘输出权重 W 得到分数 z，"
                     "softmax 把分数变成概率 p，−ln p_y 给出损失 ℓ。"),
    "gradient": Stage(2, frozenset({"loss", "b1", "g", "b2", "dh", "b4", "dW"}),
                      "你在这里：第 2 章，从损失回到梯度。损失对分数的梯度是 g = p − e_y，"
                      "再经过 W 往回传，得到 W 的梯度 dW（dW_ik = h_i g_k）和隐状态的梯度 g Wᵀ。"),
    "embedding": Stage(3, frozenset({"ids", "E", "f1", "h", "dh", "b3", "dE"}),
                       "你在这里：第 3 章，共享嵌入。编号 ids 在嵌入表 E 里各查出一行，"
                       "模型读前文时从这些行算出隐状态 h；"
                       "反向时，h 的梯度按编号累加进 dE，同一个字读了几次，它那一行就收到几份。"),
    "bigram": Stage(4, frozenset({"ids", "f1", "h", "f2", "W", "z", "f3", "softmax", "p", "f4", "nll", "loss",
                                  "b1", "g", "b4", "dW", "u", "update"}),
                    "你在这里：第 4 章，在 bigram 模型上走完整个循环。前一个字的编号变成独热向量 h，"
                    "乘 W 得到分数，softmax 给出概率，算出损失和梯度 g = p − e_y，由它得到 dW，"
                    "一步更新 W，再从头来一遍。"),
    "idioms": Stage(5, frozenset({"ids", "f1", "h", "f2", "W", "z", "f3", "softmax", "p", "f4", "nll", "loss"}),
                    "你在这里：第 5 章，同一个 bigram 换上四千多个汉字。前一个字的编号取出 W 的一行分数"
                    "（计数模型的 W = ln(C + α)），softmax 给出下一个字的概率，"
                    "在没见过的成语上算 −ln p_y，看平滑怎样改变损失。"),
}
WHOLE_ALT = ("课程全图。前向：编号 ids 在嵌入表 E 里各查出一行，模型读完前文，从这些行算出隐状态 h，"
             "乘输出权重 W 得到分数 z，softmax 给出概率 p，−ln p_y 给出损失 ℓ。"
             "反向：损失对分数的梯度是 g = p − e_y，由它得到 W 的梯度 dW（dW_ik = h_i g_k）"
             "和隐状态的梯度 g Wᵀ，后者按编号累加进 dE；最后一步更新 W ← W − η dW。")


# ---- 图的内容，只描述一次 ----
# 节点位于（道, 步）：“op”道放作用在前向箭头上的东西（参数 E、W，以及
# 函数 softmax 与 −ln p_y），0 道放前向的量，1 道放反向流回的梯度，
# 2 道放参数的梯度和更新。步沿前向路径排：ids 0、h 1、z 2、p 3、ℓ 4。
# 标签用 matplotlib 的 mathtext（$…$）。

@dataclass(frozen=True)
class Node:
    lane: str | int             # "op"，或 0、1、2 道
    step: float
    lines: tuple
    kind: str = "quantity"      # 取值：quantity | param | label | update


@dataclass(frozen=True)
class Edge:
    path: tuple                 # 节点的键，或其间经过的（道, 步）点
    kind: str                   # 取值：forward | backward | feed


NODES = {
    "ids": Node(0, 0, ("ids", "编号")),
    "h": Node(0, 1, ("$h$", "隐状态")),
    "z": Node(0, 2, ("$z$", "分数")),
    "p": Node(0, 3, ("$p$", "概率")),
    "loss": Node(0, 4, (r"$\ell$", "损失")),
    "E": Node("op", 0.5, ("嵌入表 $E$",), "param"),
    "W": Node("op", 1.5, ("输出权重 $W$",), "param"),
    "softmax": Node("op", 2.5, ("softmax",), "label"),
    "nll": Node("op", 3.5, (r"$-\ln p_y$",), "label"),
    "g": Node(1, 2, ("$g = p - e_y$", "分数的梯度")),
    "dh": Node(1, 1, (r"$g\,W^{\mathrm{T}}$", "$h$ 的梯度")),
    "dE": Node(2, 0.5, ("$dE$", "按编号累加")),
    "dW": Node(2, 1.5, (r"$dW_{ik} = h_i\, g_k$", "$W$ 的梯度")),
    "update": Node(2, 3, (r"$W \leftarrow W - \eta\, dW$", "一步更新"), "update"),
}
EDGES = {
    "f1": Edge(("ids", "h"), "forward"),
    "f2": Edge(("h", "z"), "forward"),
    "f3": Edge(("z", "p"), "forward"),
    "f4": Edge(("p", "loss"), "forward"),
    "feedE": Edge(("E", "f1"), "feed"),
    "feedW": Edge(("W", "f2"), "feed"),
    "feedS": Edge(("softmax", "f3"), "feed"),
    "feedL": Edge(("nll", "f4"), "feed"),
    "b1": Edge(("loss", (1, 4), "g"), "backward"),
    "b2": Edge(("g", "dh"), "backward"),
    "b3": Edge(("dh", "dE"), "backward"),
    "b4": Edge(("g", "dW"), "backward"),
    "u": Edge(("dW", "update"), "backward"),
}


@dataclass(frozen=True)
class Layout:
    """一种排法：各道和各步放在哪里，方框多大（单位是像素，即 SVG 的单位）。"""
    name: str
    width: float
    height: float
    lanes: dict                 # 道 -> 横穿路径方向的坐标
    step0: float
    pitch: float
    sizes: dict                 # 节点的键 -> (宽, 高)
    legend_at: tuple            # 图例第一行的 (x, y)
    legend_rows: int            # 1：排成一行；2：排成两行
    places: dict = field(default_factory=dict)   # 节点的键 -> (道, 步)：这种排法挪动的节点

    def centre(self, lane, step):
        across, along = self.lanes[lane], self.step0 + step * self.pitch
        return (along, across) if self.name == "wide" else (across, along)

    def place(self, key):
        """节点方框的中心。"""
        node = NODES[key]
        return self.centre(*self.places.get(key, (node.lane, node.step)))


_BOX = (76, 42)                 # 排法里没写大小的方框（横排的前向量）
WIDE = Layout(
    "wide", 548, 296, {"op": 24, 0: 80, 1: 162, 2: 236}, 50, 112,
    {"g": (100, 42), "dh": (84, 42), "dE": (86, 42), "dW": (104, 42), "update": (126, 42),
     "E": (82, 24), "W": (96, 24), "softmax": (64, 18), "nll": (64, 18)},
    (12, 284), 1)
NARROW = Layout(
    "narrow", 348, 496, {"op": 34, 0: 108, 1: 194, 2: 292}, 40, 92,
    {"ids": (62, 42), "h": (62, 42), "z": (62, 42), "p": (62, 42), "loss": (62, 42),
     "g": (92, 42), "dh": (76, 42), "dE": (80, 42), "dW": (98, 42), "update": (100, 58),
     "E": (62, 40), "W": (62, 40), "softmax": (60, 18), "nll": (60, 18)},
    (8, 460), 2,
    # 竖排时 g 与 dW 会角对角相碰：把 dW 上移，两者之间的箭头才有长度。
    {"dW": (2, 1.2)})
LAYOUTS = {"wide": WIDE, "narrow": NARROW}

# PNG 与 PDF 的墨色；网页的 SVG 改用 currentColor，即页面正文的颜色。
INK = "#1a1a1a"
BACKWARD_COLOUR = "#D55E00"   # Okabe-Ito 朱红：浅色与深色页面上都看得清
ACCENT = "#0072B2"            # Okabe-Ito 蓝，作本章方框后的浅色底
TINT, MUTED = 0.16, 0.38      # 浅色底的不透明度；本章不涉及部分的不透明度
LINE_WIDTH = {"lit": 2.6, "plain": 1.6, "muted": 1.2}
BOX_WIDTH = {"lit": 2.6, "plain": 1.3, "muted": 1.0}
SIZE_SYMBOL, SIZE_NAME = 15, 12.5
# SVG 文字用网页的字体（PNG 与 PDF 用 labcode.fonts 找到的中文字体）。
FONT = "Noto Sans CJK SC, Noto Sans SC, Source Han Sans SC, PingFang SC, Microsoft YaHei, sans-serif"


# ---- 状态：点亮、淡化或普通 ----

def _states(stage):
    if stage is None:
        return {key: "plain" for key in (*NODES, *EDGES)}
    lit = STAGES[stage].keys                   # 喂线（kind "feed"）随它所喂的那一项一起点亮
    lit |= {key for key, edge in EDGES.items() if edge.kind == "feed" and edge.path[0] in lit}
    return {key: "lit" if key in lit else "muted" for key in (*NODES, *EDGES)}


def _check_stage(stage):
    if stage is not None and (not isinstance(stage, str) or stage not in STAGES):
        names = "、".join(f"{name!r}（第 {s.chapter} 章）" for name, s in STAGES.items())
        raise ValueError(f"stage 必须是 None（全图，不点亮哪一段）或 {names} 之一，收到 {stage!r}")
    return stage


def course_map_alt(stage=None):
    """课程全图的替代文字：给了 stage 时以“你在这里：第 N 章，……”开头，说出这一章是哪一段。

    >>> course_map_alt("softmax")[:17]
    '你在这里：第 1 章，从分数到概率'
    """
    stage = _check_stage(stage)
    return WHOLE_ALT if stage is None else STAGES[stage].alt


# ---- 几何 ----

def _rect(layout, key):
    (cx, cy), (w, h) = layout.place(key), layout.sizes.get(key, _BOX)
    return cx - w / 2, cy - h / 2, w, h


def _clip(rect, inside, outside, gap=3.0):
    """从 ``inside``（方框中心）到 ``outside`` 的线段穿出方框的点，再往外留 ``gap``。"""
    x, y, w, h = rect
    (x0, y0), (x1, y1) = inside, outside
    dx, dy = x1 - x0, y1 - y0
    t = min((w / 2 + gap) / abs(dx) if dx else math.inf, (h / 2 + gap) / abs(dy) if dy else math.inf)
    return x0 + dx * t, y0 + dy * t


def _edge_points(layout, key):
    """一条边的折线：两端在节点的方框边上截断；汇入线停在它汇入的那条箭头的中点。"""
    edge = EDGES[key]
    path, points = edge.path, []
    for item in path:
        if isinstance(item, str) and item in NODES:
            points.append(layout.place(item))
        elif isinstance(item, str):                      # 另一条箭头：取其中点
            a, b = _edge_points(layout, item)[:2]
            points.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        else:
            points.append(layout.centre(*item))
    points[0] = _clip(_rect(layout, path[0]), points[0], points[1], gap=1.0 if edge.kind == "feed" else 3.0)
    if isinstance(path[-1], str) and path[-1] in NODES:
        points[-1] = _clip(_rect(layout, path[-1]), points[-1], points[-2])
    return points


def _arrowhead(points, size=7.0):
    (x0, y0), (x1, y1) = points[-2], points[-1]
    angle = math.atan2(y1 - y0, x1 - x0)
    left = (x1 - size * math.cos(angle - 0.42), y1 - size * math.sin(angle - 0.42))
    right = (x1 - size * math.cos(angle + 0.42), y1 - size * math.sin(angle + 0.42))
    return [left, (x1, y1), right]


def _text_rows(layout, key):
    """节点每一行的 (文字, 字号, 基线相对方框中心的偏移)。窄排法里参数的名字放在符号上面，更新分三行写。"""
    node = NODES[key]
    lines = node.lines
    if layout.name == "narrow" and node.kind == "param":
        name, symbol = lines[0].split(" ", 1)
        lines = (symbol, name)
    if layout.name == "narrow" and key == "update":
        lines = (r"$W \leftarrow$", r"$W - \eta\, dW$", lines[1])
    if len(lines) == 1:
        return [(lines[0], SIZE_NAME if node.kind == "label" else SIZE_SYMBOL - 1.5, 4.5)]
    if len(lines) == 3:
        return [(lines[0], SIZE_SYMBOL - 1.5, -10), (lines[1], SIZE_SYMBOL - 1.5, 6), (lines[2], SIZE_NAME - 1, 21)]
    first = SIZE_SYMBOL if node.kind != "param" else SIZE_SYMBOL - 1
    return [(lines[0], first, -2.5), (lines[1], SIZE_NAME, 14.5)]


# ---- 唯一的画法 ----

def _figure(stage, layout=WIDE, *, svg=False):
    """课程全图的 matplotlib Figure：一个单位一个像素（72 dpi），y 向下；每个图元的 gid 是 "lc-" 加它所属部分的键。
    变淡的部分用 MUTED 的不透明度画，本章的标签描一圈细墨线（随包的字体没有粗体）。``svg=True`` 时这两件事交给
    SVG 的分组（``_svg``）：每组设一次不透明度，仍是文字的词用网页字体加粗。"""
    from matplotlib import patheffects
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.patches import FancyBboxPatch, PathPatch, Polygon
    from matplotlib.textpath import TextPath, TextToPath
    from matplotlib.transforms import Affine2D

    from .fonts import use_cjk_font

    use_cjk_font()
    states = _states(stage)
    fig = Figure(figsize=(layout.width / 72, layout.height / 72), dpi=72)
    if svg:
        fig.patch.set_visible(False)     # 不画背景：透出页面自己的底色
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, layout.width)
    ax.set_ylim(layout.height, 0)
    ax.axis("off")
    tint = to_rgba(ACCENT, TINT)
    measure = TextToPath()

    def alpha(state):
        return MUTED if state == "muted" and not svg else 1.0

    def text(x, y, content, size, state, key, ha="center"):
        """标签的一行：数学（$…$）画成轮廓，在每种输出里都一样（浏览器没有数学字体）；文字仍是文字。"""
        lit = state == "lit"
        prop = FontProperties(size=size)
        runs = [(run, i % 2 == 1) for i, run in enumerate(content.split("$")) if run]
        widths = [measure.get_text_width_height_descent(f"${run}$" if maths else run, prop, ismath=maths)[0]
                  for run, maths in runs]
        left = x - sum(widths) / 2 if ha == "center" else x
        for (run, maths), width in zip(runs, widths, strict=True):
            if maths:
                outline = TextPath((0, 0), f"${run}$", size=size, prop=prop).transformed(
                    Affine2D().scale(1, -1).translate(left, y))
                ax.add_patch(PathPatch(outline, facecolor=INK, edgecolor=INK if lit else "none",
                                       lw=0.7 if lit else 0, alpha=alpha(state), clip_on=False, gid=f"lc-{key}"))
            else:  # （浏览器会丢掉 SVG 文字两端的空格：改成位移）
                lead = width - measure.get_text_width_height_descent(run.lstrip(), prop, ismath=False)[0]
                bold = [patheffects.withStroke(linewidth=0.7, foreground=INK)] if lit and not svg else []
                ax.text(left + lead, y, run.strip(), fontsize=size, ha="left", va="baseline", color=INK,
                        alpha=alpha(state), path_effects=bold, gid=f"lc-{key}")
            left += width

    def arrow(points, colour, width, state, key, dashed, head=True):
        ax.plot(*zip(*points, strict=True), color=colour, lw=width, alpha=alpha(state), solid_capstyle="butt",
                linestyle=(0, (6 / width, 4 / width)) if dashed else "-", clip_on=False, gid=f"lc-{key}")
        if head:
            ax.add_patch(Polygon(_arrowhead(points, 6 + width), closed=True, color=colour, alpha=alpha(state), lw=0,
                                 clip_on=False, gid=f"lc-{key}"))

    for key, edge in EDGES.items():
        feed = edge.kind == "feed"                       # 喂给前向箭头的细线：不随状态变粗，没有箭头
        arrow(_edge_points(layout, key), BACKWARD_COLOUR if edge.kind == "backward" else INK,
              1.2 if feed else LINE_WIDTH[states[key]], states[key], key, edge.kind == "backward", head=not feed)
    for key, node in NODES.items():
        state = states[key]
        x, y, w, h = _rect(layout, key)
        if node.kind != "label":                        # softmax 与 −ln p_y 只有文字，没有框
            radius = 10 if node.kind == "param" else 4
            ax.add_patch(FancyBboxPatch(
                (x + radius, y + radius), w - 2 * radius, h - 2 * radius, boxstyle=f"round,pad={radius}",
                lw=BOX_WIDTH[state], edgecolor=to_rgba(INK, alpha(state)), facecolor=tint if state == "lit" else "none",
                linestyle=(0, (2, 2.5)) if node.kind == "update" and state != "lit" else "-", clip_on=False,
                gid=f"lc-{key}"))
        for content, size, offset in _text_rows(layout, key):
            text(x + w / 2, y + h / 2 + offset, content, size, state, key)
    legend = [("forward", "前向：算出损失"), ("backward", "反向：算出梯度")]
    if stage is not None:
        legend.append(("lit", f"本章（第 {STAGES[stage].chapter} 章）"))
    x0, y0 = layout.legend_at
    x, y = x0, y0
    for i, (kind, label) in enumerate(legend):
        if layout.legend_rows == 2 and i == 2:
            x, y = x0, y0 + 22
        if kind == "lit":
            ax.add_patch(FancyBboxPatch((x + 3, y - 7), 20, 8, boxstyle="round,pad=3", lw=LINE_WIDTH["lit"],
                                        edgecolor=INK, facecolor=tint, clip_on=False, gid="lc-legend"))
        else:
            arrow([(x, y - 3), (x + 28, y - 3)], BACKWARD_COLOUR if kind == "backward" else INK,
                  LINE_WIDTH["plain"], "plain", "legend", kind == "backward")
        text(x + 34, y + 1, label, 12, "plain", "legend", "left")
        x += 34 + 13 * len(label) + 18
    return fig


def _render(fig, fmt, **options):
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, **options)
    return buffer.getvalue()


# ---- 网页的 SVG：同一张图，墨色换成 currentColor ----

_PART = re.compile(r'<g id="lc-([\w-]+)">')
_OWN_IDS = re.compile(r'<g id="(?:figure|axes|patch|line2d|text|legend)_\d+">')
_COMMENT = re.compile(r"\s*<!--.*?-->", re.S)
_STYLE = re.compile(r"\s*<defs>\s*<style[^>]*>.*?</style>\s*</defs>", re.S)
_ROOT = re.compile(r"<svg [^>]*>")
_PATH_DATA = re.compile(r'd="([^"]*)"')
_NUMBER = re.compile(r"-?\d+\.\d+")


def _short_path(match):
    """路径数据写成一行，精确到十分之一像素（比任何屏幕显示这张图时都细）。"""
    rounded = _NUMBER.sub(lambda number: f"{float(number.group()):.1f}".removesuffix(".0"), match.group(1))
    return 'd="' + " ".join(rounded.split()) + '"'


def _svg(stage, layout):
    """内嵌进网页的 SVG：不带自己的 id（一页里有两张图），每个部分一组（``data-part``），组上记着它的状态；
    文字用网站的字体，墨色用 ``currentColor``。"""
    from .plots import figure_svg

    states = _states(stage)
    svg = figure_svg(_figure(stage, layout, svg=True), tight=False)
    svg = svg[svg.index("<svg "):]                                   # 内嵌时不要 XML 声明和 doctype
    svg = _STYLE.sub("", _COMMENT.sub("", svg)).replace(INK, "currentColor")
    svg = _PATH_DATA.sub(_short_path, _OWN_IDS.sub("<g>", svg))
    svg = re.sub(r">\s+<", "><", svg)

    def part(match):
        key = match.group(1)
        state = states.get(key, "plain")
        extra = {"lit": ' font-weight="bold"', "muted": f' opacity="{MUTED}"'}.get(state, "")
        return f'<g data-part="{key}"{extra}>'

    svg = _PART.sub(part, svg)
    alt = html.escape(course_map_alt(stage))
    root = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {layout.width} {layout.height}" '
            f'width="{layout.width}" height="{layout.height}" class="lc-map-{layout.name}" role="img" '
            f'aria-label="{alt}" font-family="{FONT}" fill="currentColor" stroke-linejoin="round">'
            f"\n <title>{alt}</title>")
    return _ROOT.sub(root, svg, count=1)


# ---- 可显示的对象 ----

# 宽于 600 px 显示横排图，否则显示竖排图。pydata-sphinx-theme 在深色模式下给 HTML 输出铺浅色底
# （为黑色绘制的输出准备）；全图用 currentColor 绘制，因此保留页面自己的配色。
STYLE = ("<style>.lc-map{margin:0.5rem 0 1rem}.lc-map svg{display:block;margin:0 auto;height:auto;width:100%}"
         ".lc-map .lc-map-wide{max-width:600px}.lc-map .lc-map-narrow{display:none;max-width:380px}"
         "@media (max-width:600px){.lc-map .lc-map-wide{display:none}.lc-map .lc-map-narrow{display:block}}"
         "html[data-theme] .bd-content div.cell_output div.text_html:has(> div.lc-map)"
         "{background:none;color:inherit;padding:0}</style>")
PNG_DPI = 144   # 每单位两个像素：按图本身的宽度显示，高密度屏上也清晰
PNG_COLOURS = 32


class CourseMap:
    """课程全图；给了 stage 时点亮那一章的一段，其余变淡。在笔记本里作为单元格最后一个值即可显示。

    参数
    ----
    stage : None（全图），或 :data:`STAGES` 里的一个名字：``"softmax"``（第 1 章）、``"gradient"``（第 2 章）……
        每一章一个，点亮这一章讲的那一段

    属性 ``stage`` 是点亮的那一段（None 为全图），``alt`` 是替代文字。``png()`` 与 ``pdf()`` 给出横排的 PNG
    与 PDF 字节，``svg()`` 给出网页用的横排或竖排 SVG 文本，``html()`` 给出网页上的两种排法。显示时给出
    PNG（笔记本）、PDF（讲义）和替代文字；网页构建时换成 ``html()``。

    >>> course_map("gradient").alt.startswith("你在这里：第 2 章")
    True
    """

    def __init__(self, stage=None):
        self.stage = _check_stage(stage)
        self.alt = course_map_alt(stage)

    def svg(self, layout="wide"):
        if layout not in LAYOUTS:
            raise ValueError(f"layout 必须是 'wide'（横排）或 'narrow'（竖排），收到 {layout!r}")
        return _svg(self.stage, LAYOUTS[layout])

    def html(self):
        return f'<div class="lc-map">{STYLE}\n{self.svg("wide")}\n{self.svg("narrow")}\n</div>'

    def pdf(self):
        # 不写创建日期：同一张图得到同样的字节（笔记本存储的输出要逐一比较）。
        return _render(_figure(self.stage), "pdf", metadata={"CreationDate": None})

    def png(self):
        # 少量纯色：32 色调色板外观不变，每个笔记本存的字节只有原来的四分之一。
        from PIL import Image

        drawn = Image.open(io.BytesIO(_render(_figure(self.stage), "png", dpi=PNG_DPI))).convert("RGB")
        buffer = io.BytesIO()
        drawn.quantize(PNG_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            buffer, format="png", optimize=True)
        return buffer.getvalue()

    def __repr__(self):
        return self.alt

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = {
            "text/plain": self.alt,
            "image/png": base64.b64encode(self.png()).decode("ascii"),
            "application/pdf": base64.b64encode(self.pdf()).decode("ascii"),
        }
        return data, {"image/png": {"width": WIDE.width, "height": WIDE.height}}


course_map = CourseMap   # 书里写 course_map("softmax")
