"""课程全图：一个位置从编号走到损失（前向），再从损失走回参数的梯度（反向），每章点亮自己那一段。

:func:`course_map` 返回一个可以直接显示的对象，一次给出几种格式：
* 网页和 Jupyter：内嵌的 SVG，文字是真文字，线条和文字用 ``currentColor``，跟着亮色、暗色主题走；
  有横排（宽屏）和竖排（手机，360 像素宽也读得清）两种排法，按窗口宽度自动选一种；
* PDF 讲义：同一张图的横排，用 matplotlib 画成矢量 PDF（``png()`` 另给 PNG）。

本章那一段用粗框、粗体和浅色底标出，其余部分变淡变细；前向是实线箭头，反向是橙色虚线箭头。
替代文字（:func:`course_map_alt`）以“你在这里：”开头，说出本章是哪一段。
"""
from __future__ import annotations

import base64
import html
import io
import math
import re
from dataclasses import dataclass

__all__ = ["STAGES", "course_map", "course_map_alt", "CourseMap"]


@dataclass(frozen=True)
class Stage:
    chapter: int
    keys: frozenset
    alt: str


# Each chapter's stage: the elements it lights up (node and edge keys below) and its alt text.
STAGES = {
    "softmax": Stage(1, frozenset({"h", "W", "f2", "z", "f3", "softmax", "p", "f4", "nll", "loss"}),
                     "你在这里：第 1 章，从分数到概率，再到损失。位置向量 h 乘输出权重 W 得到分数 z，"
                     "softmax 把分数变成概率 p，−ln p_y 给出损失 ℓ。"),
    "gradient": Stage(2, frozenset({"loss", "b1", "g", "b2", "dh", "b4", "dW"}),
                      "你在这里：第 2 章，从损失回到梯度。损失对分数的梯度是 g = p − e_y，"
                      "再经过 W 往回传，得到 W 的梯度 dW（dW_ik = h_i g_k）和位置向量的梯度 g Wᵀ。"),
    "embedding": Stage(3, frozenset({"ids", "E", "f1", "h", "dh", "b3", "dE"}),
                       "你在这里：第 3 章，共享嵌入。编号 ids 在嵌入表 E 里各查出一行，模型读前文时从这些行算出位置向量 h；"
                       "反向时，h 的梯度按编号累加进 dE，同一个字读了几次，它那一行就收到几份。"),
    "bigram": Stage(4, frozenset({"ids", "f1", "h", "f2", "W", "z", "f3", "softmax", "p", "f4", "nll", "loss",
                                  "b1", "g", "b4", "dW", "u", "update"}),
                    "你在这里：第 4 章，在 bigram 模型上走完整个循环。前一个字的编号变成独热向量 h，"
                    "乘 W 得到分数，softmax 给出概率，算出损失和梯度 g = p − e_y，由它得到 dW，"
                    "一步更新 W，再从头来一遍。"),
}
WHOLE_ALT = ("课程全图。前向：编号 ids 在嵌入表 E 里各查出一行，模型读完前文，从这些行算出位置向量 h，乘输出权重 W 得到分数 z，"
             "softmax 给出概率 p，−ln p_y 给出损失 ℓ。反向：损失对分数的梯度是 g = p − e_y，"
             "由它得到 W 的梯度 dW（dW_ik = h_i g_k）和位置向量的梯度 g Wᵀ，后者按编号累加进 dE；最后一步更新 W ← W − η dW。")


# ---- the picture, described once ----
# A node sits at (lane, step): lane "op" holds what acts on a forward arrow (the parameters E and W, and
# the functions softmax and −ln p_y), lane 0 the forward quantities, lane 1 the gradients flowing back,
# lane 2 the parameters' gradients and the update. Steps run along the forward path: ids 0, h 1, z 2, p 3, ℓ 4.
# Text uses a little TeX ($…$: letters italic, _ subscript, ^{\mathsf T}, \ell, \eta, \ln, \leftarrow, \,).

@dataclass(frozen=True)
class Node:
    lane: object
    step: float
    lines: tuple
    kind: str = "quantity"      # quantity | param | label | update


@dataclass(frozen=True)
class Edge:
    path: tuple                 # node keys, or (lane, step) waypoints in between
    kind: str                   # forward | backward | feed


NODES = {
    "ids": Node(0, 0, ("ids", "编号")),
    "h": Node(0, 1, ("$h$", "位置向量")),
    "z": Node(0, 2, ("$z$", "分数")),
    "p": Node(0, 3, ("$p$", "概率")),
    "loss": Node(0, 4, (r"$\ell$", "损失")),
    "E": Node("op", 0.5, ("嵌入表 $E$",), "param"),
    "W": Node("op", 1.5, ("输出权重 $W$",), "param"),
    "softmax": Node("op", 2.5, ("softmax",), "label"),
    "nll": Node("op", 3.5, (r"$-\ln p_y$",), "label"),
    "g": Node(1, 2, ("$g = p - e_y$", "分数的梯度")),
    "dh": Node(1, 1, (r"$g\,W^{\mathsf T}$", "$h$ 的梯度")),
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
FEEDS = {"feedE": "E", "feedW": "W", "feedS": "softmax", "feedL": "nll"}  # lit with what feeds the arrow


@dataclass(frozen=True)
class Layout:
    """One arrangement: where lanes and steps go, and how big boxes are."""
    name: str
    width: float
    height: float
    lanes: dict                 # lane -> coordinate across the path
    step0: float
    pitch: float
    sizes: dict                 # node key -> (width, height)
    legend_at: tuple            # (x, y) of the legend's first line
    legend_rows: int            # 1: one line, 2: two lines
    places: dict = None         # node key -> (lane, step), where this layout moves a node

    def centre(self, lane, step):
        across, along = self.lanes[lane], self.step0 + step * self.pitch
        return (along, across) if self.name == "wide" else (across, along)

    def place(self, key):
        """The centre of a node's box."""
        node = NODES[key]
        return self.centre(*(self.places or {}).get(key, (node.lane, node.step)))


_BOX = (76, 42)
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
    # Stacked, g and dW would touch corner to corner: dW moves up, so the arrow between them has length.
    {"dW": (2, 1.2)})
FONT = 'font-family="Noto Sans CJK SC, Noto Sans SC, Source Han Sans SC, PingFang SC, Microsoft YaHei, sans-serif"'
SIZE_SYMBOL, SIZE_NAME = 15, 12.5
BACKWARD_COLOUR = "#D55E00"   # Okabe-Ito vermillion: readable on light and dark pages
ACCENT = "#0072B2"            # Okabe-Ito blue, as a light tint behind this chapter's boxes


def _size(layout, key):
    node = NODES[key]
    return layout.sizes.get(key, _BOX if node.kind != "param" else (62, 24))


def _lines(layout, key):
    """Lines of a node in this layout: the narrow chips put the name above the symbol."""
    lines = NODES[key].lines
    if layout.name == "narrow" and NODES[key].kind == "param":
        name, symbol = lines[0].split(" ", 1)
        return (symbol, name)
    if layout.name == "narrow" and key == "update":
        return (r"$W \leftarrow$", r"$W - \eta\, dW$", lines[1])
    return lines


# ---- states: lit, muted or plain ----

def _states(stage):
    if stage is None:
        return {key: "plain" for key in (*NODES, *EDGES)}
    lit = STAGES[stage].keys | {edge for edge, node in FEEDS.items() if node in STAGES[stage].keys}
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


# ---- geometry shared by both renderers ----

def _rect(layout, key):
    (cx, cy), (w, h) = layout.place(key), _size(layout, key)
    return cx - w / 2, cy - h / 2, w, h


def _clip(rect, inside, outside, gap=3.0):
    """The point where the segment from `inside` (the box centre) to `outside` leaves the box, plus a gap."""
    x, y, w, h = rect
    (x0, y0), (x1, y1) = inside, outside
    dx, dy = x1 - x0, y1 - y0
    t = min((w / 2 + gap) / abs(dx) if dx else math.inf, (h / 2 + gap) / abs(dy) if dy else math.inf)
    return x0 + dx * t, y0 + dy * t


def _edge_points(layout, key):
    """The polyline of an edge: node ends clipped to their boxes; a feed line ends on its arrow's middle."""
    edge = EDGES[key]
    path, points = edge.path, []
    for item in path:
        if isinstance(item, str) and item in NODES:
            points.append(layout.place(item))
        elif isinstance(item, str):                      # another edge: its middle
            a, b = _edge_points(layout, item)[:2]
            points.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        else:
            points.append(layout.centre(*item))
    first, last = path[0], path[-1]
    points[0] = _clip(_rect(layout, first), points[0], points[1], gap=1.0 if edge.kind == "feed" else 3.0)
    if isinstance(last, str) and last in NODES:
        points[-1] = _clip(_rect(layout, last), points[-1], points[-2])
    return points


def _arrowhead(points, size=7.0):
    (x0, y0), (x1, y1) = points[-2], points[-1]
    angle = math.atan2(y1 - y0, x1 - x0)
    left = (x1 - size * math.cos(angle - 0.42), y1 - size * math.sin(angle - 0.42))
    right = (x1 - size * math.cos(angle + 0.42), y1 - size * math.sin(angle + 0.42))
    return [left, (x1, y1), right]


# ---- text: the little TeX of the labels ----

_TOKEN = re.compile(r"\\[A-Za-z]+|\\,|[_^]\{[^}]*\}|[_^].|\s|.")
_COMMANDS = {r"\ell": ("ℓ", ""), r"\eta": ("η", "i"), r"\leftarrow": ("←", "op"), r"\ln": ("ln\u2009", ""),
             r"\,": ("\u2009", "")}


def _runs(text):
    """'$g = p - e_y$ 的梯度' -> [('g', 'i'), ('=', 'op'), …, ('y', 'sub'), (' 的梯度', '')].

    Styles: '' upright, 'i' italic, 'sub' italic subscript, 'sup' upright superscript, 'op' a binary operator
    (spaced on both sides, as TeX spaces =, − and ←).
    """
    runs = []
    for i, part in enumerate(text.split("$")):
        if i % 2 == 0:
            if part:
                runs.append((part, ""))
            continue
        for token in _TOKEN.findall(part):
            if token.isspace():
                continue
            if token[0] == "_":
                runs.append((token[1:].strip("{}"), "sub"))
            elif token[0] == "^":                        # only ^{\mathsf T} (transpose) is used
                runs.append((token[1:].strip("{}").replace(r"\mathsf", "").strip(), "sup"))
            elif token in _COMMANDS:
                runs.append(_COMMANDS[token])
            elif token == "=":
                runs.append(("=", "op"))
            elif token == "-":
                binary = bool(runs) and runs[-1][1] != "op"
                runs.append(("−", "op" if binary else ""))
            elif token.isalpha():
                runs.append((token, "i"))
            else:
                runs.append((token, ""))
    return runs


def _svg_text(x, y, text, size, weight, anchor="middle"):
    shift, gap = round(0.28 * size, 1), round(0.28 * size, 1)
    parts, lowered, pending = [], 0, 0
    for chunk, style in _runs(text):
        attrs = []
        if style == "op" or pending:
            attrs.append(f'dx="{gap if style == "op" else pending}"')
        pending = gap if style == "op" else 0
        if style in ("i", "sub"):
            attrs.append('font-style="italic"')
        if style in ("sub", "sup"):
            attrs.append(f'font-size="{round(size * 0.72, 1)}"')
        dy = {"sub": shift, "sup": -shift * 1.4}.get(style, 0)
        if lowered:
            dy -= lowered
        if dy:
            attrs.append(f'dy="{round(dy, 1)}"')
        lowered = {"sub": shift, "sup": -shift * 1.4}.get(style, 0)
        body = html.escape(chunk, quote=False).replace(" ", "&#160;") if chunk.strip() != chunk else html.escape(chunk)
        parts.append(f"<tspan {' '.join(attrs)}>{body}</tspan>" if attrs else body)
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{bold}>'
            f'{"".join(parts)}</text>')


def _text_rows(layout, key):
    """(text, font size, baseline offset from the box centre) for each line of a node."""
    lines = _lines(layout, key)
    if len(lines) == 1:
        return [(lines[0], SIZE_NAME if NODES[key].kind == "label" else SIZE_SYMBOL - 1.5, 4.5)]
    if len(lines) == 3:
        return [(lines[0], SIZE_SYMBOL - 1.5, -10), (lines[1], SIZE_SYMBOL - 1.5, 6), (lines[2], SIZE_NAME - 1, 21)]
    first = SIZE_SYMBOL if NODES[key].kind != "param" else SIZE_SYMBOL - 1
    return [(lines[0], first, -2.5), (lines[1], SIZE_NAME, 14.5)]


# ---- SVG ----

def _svg(layout, stage):
    states = _states(stage)
    width, height = layout.width, layout.height
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
           f'height="{height}" class="lc-map-{layout.name}" role="img" '
           f'aria-label="{html.escape(course_map_alt(stage))}" {FONT} fill="currentColor">',
           f"<title>{html.escape(course_map_alt(stage))}</title>"]
    for key, edge in EDGES.items():
        out.append(_svg_edge(layout, key, edge, states[key]))
    for key, node in NODES.items():
        out.append(_svg_node(layout, key, node, states[key]))
    out.append(_svg_legend(layout, stage))
    out.append("</svg>")
    return "\n".join(part for part in out if part)


def _opacity(state):
    return ' opacity="0.38"' if state == "muted" else ""


def _svg_edge(layout, key, edge, state):
    points = _edge_points(layout, key)
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    colour = BACKWARD_COLOUR if edge.kind == "backward" else "currentColor"
    width = {"lit": 2.6, "plain": 1.6, "muted": 1.2}[state] if edge.kind != "feed" else 1.2
    dash = ' stroke-dasharray="6 4"' if edge.kind == "backward" else ""
    line = (f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{width}"'
            f' stroke-linejoin="round"{dash}/>')
    if edge.kind == "feed":
        return f'<g data-part="{key}"{_opacity(state)}>{line}</g>'
    head = " ".join(f"{x:.1f},{y:.1f}" for x, y in _arrowhead(points, 6 + width))
    return f'<g data-part="{key}"{_opacity(state)}>{line}<polygon points="{head}" fill="{colour}"/></g>'


def _svg_node(layout, key, node, state):
    weight = "bold" if state == "lit" else "normal"
    parts = []
    if node.kind == "label":
        x, y = layout.place(key)
        parts.append(_svg_text(x, y + 4.5, node.lines[0], SIZE_NAME, weight))
        return f'<g data-part="{key}"{_opacity(state)}>{"".join(parts)}</g>'
    x, y, w, h = _rect(layout, key)
    radius = 10 if node.kind == "param" else 4
    stroke = {"lit": 2.6, "plain": 1.3, "muted": 1.0}[state]
    fill = f'fill="{ACCENT}" fill-opacity="0.16"' if state == "lit" else 'fill="none"'
    dash = ' stroke-dasharray="2 2.5"' if node.kind == "update" and state != "lit" else ""
    parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="{radius}" {fill} '
                 f'stroke="currentColor" stroke-width="{stroke}"{dash}/>')
    cx, cy = x + w / 2, y + h / 2
    for text, size, offset in _text_rows(layout, key):
        parts.append(_svg_text(cx, cy + offset, text, size, weight))
    return f'<g data-part="{key}"{_opacity(state)}>{"".join(parts)}</g>'


def _legend_items(stage):
    items = [("forward", "前向：算出损失"), ("backward", "反向：算出梯度")]
    if stage is not None:
        items.append(("lit", f"本章（第 {STAGES[stage].chapter} 章）"))
    return items


def _svg_legend(layout, stage):
    x0, y0 = layout.legend_at
    parts, x, y = [], x0, y0
    for i, (kind, label) in enumerate(_legend_items(stage)):
        if layout.legend_rows == 2 and i == 2:
            x, y = x0, y0 + 22
        if kind == "lit":
            parts.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="26" height="14" rx="3" fill="{ACCENT}" '
                         f'fill-opacity="0.16" stroke="currentColor" stroke-width="2.6"/>')
        else:
            colour = BACKWARD_COLOUR if kind == "backward" else "currentColor"
            dash = ' stroke-dasharray="6 4"' if kind == "backward" else ""
            parts.append(f'<line x1="{x:.1f}" y1="{y - 3:.1f}" x2="{x + 22:.1f}" y2="{y - 3:.1f}" stroke="{colour}" '
                         f'stroke-width="1.6"{dash}/>')
            head = " ".join(f"{a:.1f},{b:.1f}" for a, b in _arrowhead([(x, y - 3), (x + 28, y - 3)], 7.6))
            parts.append(f'<polygon points="{head}" fill="{colour}"/>')
        parts.append(_svg_text(x + 34, y + 1, label, 12, "normal", "start"))
        x += 34 + 13 * len(label) + 18
    return "".join(parts)


# ---- matplotlib: the wide map as PDF and PNG, for the handouts ----

def _figure(stage, layout=WIDE):
    from matplotlib import patheffects
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch, Polygon

    from .fonts import use_cjk_font

    use_cjk_font()
    states = _states(stage)
    fig = Figure(figsize=(layout.width / 72, layout.height / 72))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, layout.width)
    ax.set_ylim(layout.height, 0)
    ax.axis("off")
    ink = "#1a1a1a"
    TINT = to_rgba(ACCENT, 0.16)  # noqa: N806

    def alpha(state):
        return 0.38 if state == "muted" else 1.0

    def text(x, y, content, size, state, ha="center", key=None):
        content = content.replace(r"\mathsf T", r"\mathrm{T}")   # mathtext has no \mathsf
        # The packaged font has no bold face: a thin outline of the same ink makes this chapter's words bold.
        bold = [patheffects.withStroke(linewidth=0.7, foreground=ink)] if state == "lit" else []
        ax.text(x, y, content, fontsize=size, ha=ha, va="baseline", color=ink, alpha=alpha(state),
                path_effects=bold, gid=key)

    for key, edge in EDGES.items():
        state = states[key]
        points = _edge_points(layout, key)
        colour = BACKWARD_COLOUR if edge.kind == "backward" else ink
        width = {"lit": 2.6, "plain": 1.6, "muted": 1.2}[state] if edge.kind != "feed" else 1.2
        ax.plot(*zip(*points, strict=True), color=colour, lw=width, alpha=alpha(state), solid_capstyle="butt",
                linestyle=(0, (6 / width, 4 / width)) if edge.kind == "backward" else "-")
        if edge.kind != "feed":
            ax.add_patch(Polygon(_arrowhead(points, 6 + width), closed=True, color=colour, alpha=alpha(state), lw=0))
    for key, node in NODES.items():
        state = states[key]
        if node.kind == "label":
            x, y = layout.place(key)
            text(x, y + 4.5, node.lines[0], SIZE_NAME, state, key=key)
            continue
        x, y, w, h = _rect(layout, key)
        radius = 10 if node.kind == "param" else 4
        ax.add_patch(FancyBboxPatch((x + radius, y + radius), w - 2 * radius, h - 2 * radius,
                                    boxstyle=f"round,pad={radius}", lw={"lit": 2.6, "plain": 1.3, "muted": 1.0}[state],
                                    edgecolor=to_rgba(ink, alpha(state)), facecolor=TINT if state == "lit" else "none",
                                    linestyle=(0, (2, 2.5)) if node.kind == "update" and state != "lit" else "-"))
        for content, size, offset in _text_rows(layout, key):
            text(x + w / 2, y + h / 2 + offset, content, size, state, key=key)
    x0, y0 = layout.legend_at
    x = x0
    for kind, label in _legend_items(stage):
        if kind == "lit":
            ax.add_patch(FancyBboxPatch((x + 3, y0 - 7), 20, 8, boxstyle="round,pad=3", lw=2.6, edgecolor=ink,
                                        facecolor=TINT))
        else:
            colour = BACKWARD_COLOUR if kind == "backward" else ink
            ax.plot([x, x + 22], [y0 - 3, y0 - 3], color=colour, lw=1.6,
                    linestyle=(0, (3.75, 2.5)) if kind == "backward" else "-")
            ax.add_patch(Polygon(_arrowhead([(x, y0 - 3), (x + 28, y0 - 3)], 7.6), closed=True, color=colour, lw=0))
        text(x + 34, y0 + 1, label, 12, "plain", "left")
        x += 34 + 13 * len(label) + 18
    return fig


def _render(fig, fmt, **options):
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, **options)
    return buffer.getvalue()


# ---- the displayable object ----

# The wide map above 600 px, the narrow one below. pydata-sphinx-theme paints HTML outputs light in dark mode
# (for outputs drawn in black); the map draws in currentColor, so it keeps the page's own colours.
STYLE = ("<style>.lc-map{margin:0.5rem 0 1rem}.lc-map svg{display:block;margin:0 auto;height:auto;width:100%}"
         ".lc-map .lc-map-wide{max-width:600px}.lc-map .lc-map-narrow{display:none;max-width:380px}"
         "@media (max-width:600px){.lc-map .lc-map-wide{display:none}.lc-map .lc-map-narrow{display:block}}"
         "html[data-theme] .bd-content div.cell_output div.text_html:has(> div.lc-map)"
         "{background:none;color:inherit;padding:0}</style>")


class CourseMap:
    """课程全图（:func:`course_map` 返回它）：在笔记本里作为单元格最后一个值即可显示。

    属性 ``stage`` 是点亮的那一段（None 为全图），``alt`` 是替代文字；``svg()`` 给出横排或竖排的 SVG 文本，
    ``pdf()`` 与 ``png()`` 给出横排的 PDF 与 PNG 字节。显示时给出内嵌 SVG（网页、Jupyter）、SVG、
    PDF（讲义）和替代文字；PNG 不放进去，免得每章的笔记本多存几十 KB。
    """

    def __init__(self, stage=None):
        self.stage = _check_stage(stage)
        self.alt = course_map_alt(stage)

    def svg(self, layout="wide"):
        layouts = {"wide": WIDE, "narrow": NARROW}
        if layout not in layouts:
            raise ValueError(f"layout 必须是 'wide'（横排）或 'narrow'（竖排），收到 {layout!r}")
        return _svg(layouts[layout], self.stage)

    def html(self):
        return f'<div class="lc-map">{STYLE}\n{self.svg("wide")}\n{self.svg("narrow")}\n</div>'

    def pdf(self):
        # No creation date: the same map gives the same bytes (stored notebook outputs are compared).
        return _render(_figure(self.stage), "pdf", metadata={"CreationDate": None})

    def png(self, dpi=150):
        return _render(_figure(self.stage), "png", dpi=dpi, metadata={"Software": None})

    def __repr__(self):
        return self.alt

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {
            "text/plain": self.alt,
            "text/html": self.html(),
            "image/svg+xml": self.svg("wide"),
            "application/pdf": base64.b64encode(self.pdf()).decode("ascii"),
        }


def course_map(stage=None):
    """课程全图；给了 stage 时点亮那一章的一段，其余变淡。

    参数
    ----
    stage : None（全图）、``"softmax"``（第 1 章：分数 → 概率 → 损失）、``"gradient"``（第 2 章：损失 →
        梯度 p − e_y，经过 W 往回传）、``"embedding"``（第 3 章：编号 → 嵌入表 E → h，以及 dE）、
        ``"bigram"``（第 4 章：在 bigram 模型上走完前向、反向和一步更新）

    返回
    ----
    map : :class:`CourseMap`，显示时给出内嵌 SVG（网页）、PDF（讲义）和替代文字

    >>> course_map("gradient").alt.startswith("你在这里：第 2 章")
    True
    """
    return CourseMap(stage)
