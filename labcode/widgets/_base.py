"""交互组件的公共部分：前端模块、数字格式、纸面快照和基类。

每个交互组件 = 一个 Python 类（traitlets 是唯一的真值来源）+ 一个同名的 JS 模块（anywidget 的 ``_esm``）。
JS 模块用真正的 ``import`` 写明它从共用模块里取了什么（``maths.js`` 是与 labcode 对应的数学，
``dom.js`` 是界面小工具，``candidates.js`` 是候选探索器共用的柱状图、滑块行与表格）。
esbuild（web/build_widgets.mjs，``make assets``）把每个交互组件模块和它导入的共用模块打包成一个 ES 模块，
放在 ``static/name.mjs``：不联网、从 file:// 打开都能用，课程包（wheel）里带着它们。
"""
from __future__ import annotations

import base64
import io
from pathlib import Path

import anywidget

HERE = Path(__file__).parent
STATIC = HERE / "static"


def bundle(name):
    """``name.js`` 与它导入的共用模块打成的 ES 模块文本（esbuild 的结果），作为 anywidget 的 ``_esm``。"""
    path = STATIC / f"{name}.mjs"
    if not path.exists():
        raise RuntimeError(f"找不到交互组件的前端模块 {path}：在仓库里先运行 `make assets`（用 esbuild 打包 "
                           f"labcode/widgets/*.js）。The widget's bundle is missing: run `make assets` first.")
    return path.read_text(encoding="utf-8")


def styles(*names):
    """各组件共用的 ``widget.css`` 加上各个 ``name.css``（按给出的顺序），作为 anywidget 的 ``_css`` 文本。"""
    parts = [(HERE / f"{n}.css").read_text(encoding="utf-8") for n in ("widget", *names)]
    return "\n".join(parts)


def fmt(x, digits):
    """定点小数，负号用普通的 "-"；四舍五入后为零的值不带负号（与 JS 端的 fmt 一致）。

    >>> fmt(-0.0001, 3), fmt(-0.25, 3), fmt(2.0, 4)
    ('0.000', '-0.250', '2.0000')
    """
    text = f"{x:.{digits}f}"
    return f"{0:.{digits}f}" if float(text) == 0 else text


def short(x):
    """数值的最短写法：0、-1.5、1000、1e-05（即 ``f"{x:g}"``；maths.js 的 short 与它逐字相同）。"""
    return f"{x:g}"


def snapshot_figure(width, height, dpi):
    """快照用的 Figure，画中文（不用 pyplot：不显示、也不留下打开的图）。"""
    from matplotlib.figure import Figure

    from ..fonts import use_cjk_font

    use_cjk_font()
    return Figure(figsize=(width, height), dpi=dpi, layout="constrained")


def figure_png(fig):
    """把 matplotlib Figure 存成 PNG 字节（不写时间戳，重复运行得到相同字节）。"""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


class WidgetBase(anywidget.AnyWidget):
    """交互组件的基类：子类实现 ``summary()``（一行文字），有图的还实现 ``snapshot_png()``（PNG 字节）。

    纯文本界面、GitHub 和 PDF 讲义不能运行交互组件，它们显示这两样东西而不是交互组件对象的 repr。
    """

    def summary(self):
        raise NotImplementedError

    def snapshot_png(self, dpi=100):
        """组件此刻的样子；没有图的组件（“动手算”框：讲义另排它的题目）返回 None。"""
        return None

    def __repr__(self):
        return self.summary()

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        png = self.snapshot_png()
        data = dict(data, **{"text/plain": self.summary()},
                    **({"image/png": base64.b64encode(png).decode("ascii")} if png is not None else {}))
        return data, metadata
