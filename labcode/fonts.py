"""让 matplotlib 用中文字体画图：图中的中文标签不出现方框，也没有“缺字”警告。

找字体的顺序：
1. PyPI 包 ``pylopdf-fonts-zh-cn`` 自带的 Noto Sans SC（requirements.txt 已固定版本，开源字体许可 SIL OFL 1.1）；
2. Debian/Ubuntu 软件包 ``fonts-noto-cjk`` 装在 /usr/share/fonts/opentype/noto/ 下的 Noto Sans CJK。
"""
from __future__ import annotations

import functools
from pathlib import Path

import matplotlib
from matplotlib import font_manager
from matplotlib.ft2font import FT2Font

# Debian 的 fonts-noto-cjk 是字体集（.ttc），含日、韩、简、繁、港几种字形：按名字取简体（SC）那一个。
DEBIAN_NOTO_DIR = Path("/usr/share/fonts/opentype/noto")
DEBIAN_FILES = ("NotoSansCJK-Regular.ttc", "NotoSansCJK-Medium.ttc", "NotoSansCJK-Bold.ttc")
FALLBACK_FAMILY = "DejaVu Sans"  # matplotlib 自带的字体：中文字体可能缺的拉丁字母和符号
MINUS_SIGN = 0x2212
INSTALL_HINT = (
    "请安装一种中文字体后重试：\n"
    "  pip install pylopdf-fonts-zh-cn==0.1.1   （或在项目根目录运行 pip install -r requirements.txt）\n"
    "  或者在 Debian/Ubuntu 上：sudo apt-get install fonts-noto-cjk"
)


def default_candidates() -> list[Path]:
    """按优先顺序列出可能存在的中文字体文件（不检查是否存在）。"""
    try:
        import pylopdf_fonts_zh_cn
        packaged = [Path(pylopdf_fonts_zh_cn.sans_path())]
    except ImportError:
        packaged = []
    return packaged + [DEBIAN_NOTO_DIR / name for name in DEBIAN_FILES]


def find_cjk_font(candidates=None) -> Path:
    """返回第一个存在的中文字体文件路径；一个也没有时报 FileNotFoundError，提示如何安装中文字体。

    candidates 是字体文件路径的序列，默认用 :func:`default_candidates` 的顺序。
    """
    paths = default_candidates() if candidates is None else [Path(c) for c in candidates]
    for path in paths:
        if path.is_file():
            return path
    tried = "、".join(str(p) for p in paths) or "（没有候选路径）"
    raise FileNotFoundError(f"找不到可用的中文字体文件，已查找：{tried}。\n{INSTALL_HINT}")


@functools.cache
def _register(path: str) -> tuple[str, bool]:
    # 即使 matplotlib 的字体缓存比这个字体旧，addfont 也管用；只改 rcParams 不行。
    font_manager.fontManager.addfont(path)
    names = {entry.name for entry in font_manager.fontManager.ttflist if entry.fname == path}
    simplified = sorted(n for n in names if n.endswith(" SC"))
    family = simplified[0] if simplified else font_manager.FontProperties(fname=path).get_name()
    return family, MINUS_SIGN in FT2Font(path).get_charmap()


def use_cjk_font() -> str:
    """让之后画的 matplotlib 图用中文字体，返回字体族名。

    可以反复调用：字体只注册一次，之后的调用只检查几项 rcParams。
    机器上没有任何可用的中文字体时报 FileNotFoundError（错误信息说明安装方法）。

    >>> use_cjk_font() in {"Noto Sans SC", "Noto Sans CJK SC"}
    True
    """
    family, has_minus = _register(str(find_cjk_font()))
    rc = matplotlib.rcParams
    if rc["font.sans-serif"][:2] != [family, FALLBACK_FAMILY]:
        others = [f for f in rc["font.sans-serif"] if f not in (family, FALLBACK_FAMILY)]
        rc["font.sans-serif"] = [family, FALLBACK_FAMILY, *others]
    rc["font.family"] = ["sans-serif"]
    # 字体画得出真正的减号 U+2212 才用它，否则用 ASCII 的连字符减号。
    rc["axes.unicode_minus"] = has_minus
    return family
