"""插件家族的公共部分：前端模块的打包、数字格式、纸面快照和基类。

每个插件 = 一个 Python 类（traitlets 是唯一的真值来源）+ 一个同名的 JS 模块（anywidget 的 ``_esm``）。
JS 模块用真正的 ``import`` 写明它从家族共用模块里取了什么（``maths.js`` 是与 labcode 对应的数学，
``dom.js`` 是界面小工具，``candidates.js`` 是候选探索器共用的柱状图、滑块行与表格）。
anywidget 只收一段模块文本，所以 :func:`front_end` 在构建时把用到的共用模块各包成一个命名空间对象
（如 ``labMaths``）放在前面，再把 ``import`` 换成从这些对象里取名字：不联网、从 file:// 打开都能用。
:func:`maths_script` 把同一份 ``maths.js`` 做成普通脚本，供网页上不是 ES 模块的脚本使用；
:func:`page_script` 把一个插件模块（如 ``answer_box.js``）也做成普通脚本，让网页不经 anywidget 直接用它。
"""
from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import anywidget

HERE = Path(__file__).parent
# What the bundler understands: named imports and a namespace re-export from a sibling module,
# and `export` in front of a function or constant of a shared module.
IMPORT = re.compile(r'^import \{([^}]*)\} from "\./(\w+)\.js";\n', re.M)
REEXPORT = re.compile(r'^export \* as (\w+) from "\./(\w+)\.js";\n', re.M)
EXPORTED = re.compile(r"^export (?:async )?(?:function\*?|const|let|class) (\w+)", re.M)


def _source(module):
    return (HERE / f"{module}.js").read_text(encoding="utf-8")


def namespace_name(module):
    """共用模块在打包结果里的对象名：maths.js → labMaths，dom.js → labDom。"""
    return "lab" + module[:1].upper() + module[1:]


def _dependencies(text):
    return [m for _, m in IMPORT.findall(text)] + [m for _, m in REEXPORT.findall(text)]


def _named_import(match):
    """``import { a, b } from "./m.js";`` → ``const { a, b } = labM;``，a、b 必须是 m.js 导出的名字。"""
    names, module = [n.strip() for n in match[1].split(",") if n.strip()], match[2]
    missing = sorted(set(names) - set(EXPORTED.findall(_source(module))))
    if missing:
        raise ValueError(f"{module}.js 没有导出 {missing}（import 只能取 export function/const 的名字，不能改名）")
    return f"const {{ {', '.join(names)} }} = {namespace_name(module)};\n"


def _link(text):
    """把 import / export * as 换成从命名空间对象取名字的语句（对象在前面已经声明）。"""
    text = IMPORT.sub(_named_import, text)
    return REEXPORT.sub(lambda m: f"export const {m[1]} = {namespace_name(m[2])};\n", text)


def _namespace(module, text=None):
    """一个共用模块（或给出的 text）包成立即执行的函数，返回冻结的命名空间对象（不含 export 语句）。"""
    text = _source(module) if text is None else text
    if re.search(r"^export (?!(?:async )?(?:function|const|let|class) )", text, re.M):
        raise ValueError(f"{module}.js 只能用 export function/const/let/class 导出，"
                         f"不能用 export default 或 export {{...}}（打包时无法识别）")
    names = EXPORTED.findall(text)
    body = re.sub(r"^export (?=(?:async )?(?:function|const|let|class) )", "", _link(text), flags=re.M)
    return f'(() => {{\n"use strict";\n{body}\nreturn Object.freeze({{ {", ".join(names)} }});\n}})()'


def _shared_modules(text, seen=None):
    """text 直接或间接导入的共用模块，按依赖顺序（被依赖的在前），每个只出现一次。"""
    seen = [] if seen is None else seen
    for module in _dependencies(text):
        if module not in seen:
            _shared_modules(_source(module), seen)
            seen.append(module)
    return seen


def front_end(name):
    """``name.js`` 与它导入的共用模块打包成一个 ES 模块文本，作为 anywidget 的 ``_esm``。"""
    text = _source(name)
    parts = [f"// {m}.js, bundled as {namespace_name(m)}\nconst {namespace_name(m)} = {_namespace(m)};\n"
             for m in _shared_modules(text)]
    return "\n".join([*parts, f"// {name}.js\n" + _link(text)])


def maths_script():
    """``maths.js`` 做成普通（非模块）脚本：执行后全局对象上有 ``labMaths``，各函数都在它上面。

    网页里 ``<script>`` 直接内嵌或从 file:// 加载都能用，例如 ``labMaths.softmax([0, 1, 2])``。
    """
    if _dependencies(_source("maths")):
        raise ValueError("maths.js 不能导入别的模块：它还要作为普通脚本单独运行")
    return ("// labcode/widgets/maths.js as a classic script: one global object, labMaths.\n"
            f"globalThis.labMaths = {_namespace('maths')};\n")


DEFAULT_EXPORT = re.compile(r"^export default \{.*\};\n", re.M)


def page_script(name, start):
    """``name.js`` 做成网页的普通脚本：先是 :func:`maths_script`，再是一个立即执行的函数，里面有它导入的
    其他共用模块、去掉 ``export`` 的模块本身，最后调用它导出的 ``start()``（如 ``startPage``）。

    模块的默认导出（anywidget 的 ``render``）只能写成一行 ``export default { ... };``，网页上用不到，去掉。
    """
    text = DEFAULT_EXPORT.sub("", _source(name))
    if start not in EXPORTED.findall(text):
        raise ValueError(f"{name}.js 没有导出 {start}")
    if re.search(r"^export default", text, re.M):
        raise ValueError(f"{name}.js 的默认导出要写成一行 export default {{ ... }};，其余用 export function/const")
    shared = [f"const {namespace_name(m)} = {_namespace(m)};\n" for m in _shared_modules(text) if m != "maths"]
    return (f"{maths_script()}\n// labcode/widgets/{name}.js as a classic script\n"
            f'(() => {{\n{"".join(shared)}{_namespace(name, text)}.{start}();\n}})();\n')


def styles(*names):
    """家族共用的 ``family.css`` 加上各个 ``name.css``（按给出的顺序），作为 anywidget 的 ``_css`` 文本。"""
    parts = [(HERE / f"{n}.css").read_text(encoding="utf-8") for n in ("family", *names)]
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
