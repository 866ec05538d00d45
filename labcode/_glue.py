"""把代码算出的值“粘”进笔记本的输出，书中正文用 ``{glue:text}`名字``` 引用它。

除了浮点数只存 12 位有效数字（见 :data:`DIGITS`），写出的输出与 myst-nb 的 ``glue`` 逐字节相同：
网站构建时 myst-nb 照样找得到这些值，nbval 照样比对得上；
但在自己的电脑上运行下载的笔记本时，不需要装网站构建工具，只用到 IPython。
"""
from __future__ import annotations

import numpy as np

from ._validate import check_bool, check_text

# myst-nb 从 MIME 类型带这个前缀的显示输出里读粘贴的值（display=False 时）。
GLUE_PREFIX = "application/papermill.record/"
# 浮点数存 12 位有效数字：最后几位随 CPU 与 BLAS 的求和顺序而变，正文从不印到那么多位；
# 存全了，nbval 会在另一种机器上把同一个数判成“输出变了”。
DIGITS = 12


def glue(name, variable, display=True):
    """把 ``variable`` 的显示内容以名字 ``name`` 存进当前单元格的输出。

    参数
    ----
    name : str，非空；正文里用 ``{glue:text}`name``` 引用
    variable : 任意对象；存下的是它在笔记本里显示的样子（如 ``text/plain``），不是对象本身；
        浮点数先舍入到 :data:`DIGITS` 位有效数字
    display : bool；True 时同时把值显示出来，False 时只存不显示

    >>> glue("", 1.5)
    Traceback (most recent call last):
    ...
    ValueError: name 必须是非空字符串，收到 ''
    """
    check_text(name, "name")
    check_bool(display, "display")
    from IPython.core.formatters import format_display_data
    from IPython.display import display as show

    if isinstance(variable, float | np.floating):
        variable = type(variable)(f"{variable:.{DIGITS}g}")
    bundle, metadata = format_display_data(variable)
    prefix = "" if display else GLUE_PREFIX
    metadata["scrapbook"] = {"name": name, "mime_prefix": prefix}
    show({prefix + mime: data for mime, data in bundle.items()}, raw=True, metadata=metadata)
