"""插件家族的公共部分：前端模块的拼装、数字格式、纸面快照。

每个插件 = 一个 Python 类（traitlets 是唯一的真值来源）+ 一个 JS 模块。
JS 模块前面统一拼上 ``maths.js``（与 labcode 对应的数学）和 ``dom.js``（界面小工具），
所以各插件的前端共用同一份数学，而不是各抄一份。
"""
from __future__ import annotations

import base64
import io
from pathlib import Path

import anywidget

HERE = Path(__file__).parent
SHARED_JS = ("maths.js", "dom.js")
SHARED_CSS = ("family.css",)


def front_end(name):
    """``name.js`` 前面拼上家族共用的 JS，作为 anywidget 的 ``_esm`` 文本。"""
    parts = [(HERE / f).read_text(encoding="utf-8") for f in (*SHARED_JS, f"{name}.js")]
    return "\n".join(parts)


def styles(name):
    """家族共用的 CSS 加上 ``name.css``，作为 anywidget 的 ``_css`` 文本。"""
    parts = [(HERE / f).read_text(encoding="utf-8") for f in (*SHARED_CSS, f"{name}.css")]
    return "\n".join(parts)


def fmt(x, digits):
    """定点小数，负号用普通的 "-"；四舍五入后为零的值不带负号（与 JS 端的 fmt 一致）。

    >>> fmt(-0.0001, 3), fmt(-0.25, 3), fmt(2.0, 4)
    ('0.000', '-0.250', '2.0000')
    """
    text = f"{x:.{digits}f}"
    return f"{0:.{digits}f}" if float(text) == 0 else text


def short(x):
    """滑块数值的最短写法：0、-1.5、1000（与 JS 端的 short 一致）。"""
    return f"{x:g}"


def figure_png(fig):
    """把 matplotlib Figure 存成 PNG 字节（不写时间戳，重复运行得到相同字节）。"""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


class FamilyWidget(anywidget.AnyWidget):
    """家族插件的基类：子类实现 ``summary()``（一行文字）和 ``snapshot_png()``（PNG 字节）。

    纯文本界面、GitHub 和 PDF 讲义不能运行插件，它们显示这两样东西而不是插件对象的 repr。
    """

    def summary(self):
        raise NotImplementedError

    def snapshot_png(self, dpi=100):
        raise NotImplementedError

    def __repr__(self):
        return self.summary()

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = dict(data, **{"text/plain": self.summary(),
                             "image/png": base64.b64encode(self.snapshot_png()).decode("ascii")})
        return data, metadata
