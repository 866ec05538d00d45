"""检查结果：每一项检查（Case）、整份结果（CheckResult）和错误提示（Hint），以及它们的文字与 HTML 报告。

报告里没有耗时、随机数或内存地址，同一个函数每次检查得到逐字相同的报告，存进笔记本的输出可以被 nbval 逐字比较。
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field

from .text import long_array

# 提示指向的小节，按所在的笔记本分组：笔记本 -> {标签: (写着这个标签的单元格的 id, 链接上的文字即小节标题)}。
# 没通过的报告只出现在读者运行笔记本的地方（JupyterLab、Notebook、VS Code），网站上只存着“还没写”和“通过”；
# 学习包把各章笔记本放在同一个文件夹里，所以提示链接到读者身边的笔记本，而不是网页。JupyterLab 4 打开以
# #cell-id=… 结尾的链接时，会滚到那个单元格。课程包里没有 _toc.yml，只知道这里列出的笔记本：
# tests/unit/test_practice.py 核对这些 id 和标题与笔记本一致、每一节都有提示指向，
# tests/book/test_chapters.py 核对笔记本是书里的哪一章、标签的前缀（ch2-、app-）与那一章相符。
SECTIONS = {
    "01_probability_to_loss.ipynb": {
        "ch1-divide-by-sum": ("db4c86ee", "直接除以总和，为什么不行"),
        "ch1-softmax": ("87420387", "softmax：先取指数，再归一化"),
        "ch1-overflow": ("58b5d69f", "先减最大值"),
        "ch1-loss": ("1e82170d", "从概率到损失"),
        "ch1-logsumexp": ("8afe3658", "直接从分数算损失"),
        "ch1-extreme": ("d1fbb0d2", "极端分数"),
        "ch1-epsilon": ("c2689599", "加一个小常数"),
    },
    "02_gradient.ipynb": {
        "ch2-derivation": ("49f61887", "逐个坐标求导"),
        "ch2-finite-diff": ("459e3a41", "第二道检查：中心差分"),
        "ch2-step-size": ("c543de7f", "差分步长 δ 该取多大"),
        "ch2-batch": ("5cc1e614", "一批里不计分的位置：忽略标记"),
        "ch2-denominator": ("9e13be81", "分母：到底除以几"),
    },
    "03_shared_embedding.ipynb": {
        "ch3-gradient": ("5ac7e418", "梯度是 X^T A"),
        "ch3-overwrite-bug": ("96981852", "一个不报错的错误"),
    },
    "04_bigram.ipynb": {
        "ch4-network": ("network", "同一个模型，写成一层网络"),
        "ch4-identity": ("identity", "网络可以恰好等于计数模型"),
        "ch4-gradient": ("gradient", "梯度：逐条写法与计数写法"),
        "ch4-training": ("training", "训练循环"),
        "ch4-mistakes": ("mistakes", "常见错误清单"),
    },
    "05_idiom_bigram.ipynb": {
        "ch5-backoff": ("zh-backoff-intro", "没见过的字对：退回到单字频率"),
    },
    "appendix.ipynb": {
        "app-indexing": ("49150a78", "编号与序数"),
    },
}

FULL_INPUTS = ("把结果存下来：r = {check}(你的函数)；r.failures[0].args 就是这一项传给你的函数的参数，"
               "你的函数(*r.failures[0].args) 可以单独重现它")

PRINTED = ("你的函数在检查时打印了 {chars} 个字符，没有放进报告；要看它们：r = {check}(你的函数)，"
           "再 print(r.printed)")

NOT_WRITTEN = ("函数抛出了 NotImplementedError，书里给的骨架就是这样。"
               "把 raise 那一行换成你的代码，先运行定义函数的那一格，再运行这一格。")


@dataclass(frozen=True)
class Hint:
    """一条提示：认出的常见错误（``title`` 非空），或没认出错误时的一般提示（``title`` 为空）。

    ``label`` 是书中小节的标签（如 ``"ch1-overflow"``；附录的以 ``"app-"`` 开头），它在 :data:`SECTIONS` 里。
    """

    key: str
    title: str
    why: str
    fix: str
    label: str

    @property
    def chapter(self) -> int | None:
        """讲这个错误的章号；小节在附录里时为 None。"""
        part = self.label[:self.label.index("-")]
        return int(part[2:]) if part.startswith("ch") else None

    @property
    def notebook(self) -> str:
        """讲这个错误的那一章（或附录）的笔记本，如 ``01_probability_to_loss.ipynb``。"""
        for notebook, sections in SECTIONS.items():
            if self.label in sections:
                return notebook
        raise KeyError(f"SECTIONS 里没有小节 {self.label!r}：把它写进它所在的笔记本之下")

    @property
    def section(self) -> str:
        """链接上的文字：小节的标题，如 ``"先减最大值"``。"""
        return SECTIONS[self.notebook][self.label][1]

    @property
    def href(self) -> str:
        """相对于读者笔记本的链接，如 ``01_probability_to_loss.ipynb#cell-id=58b5d69f``：在 JupyterLab 里点开，
        就打开那一章的笔记本并滚到这一节。"""
        return f"{self.notebook}#cell-id={SECTIONS[self.notebook][self.label][0]}"

    @property
    def where(self) -> str:
        place = "附录" if self.chapter is None else f"第 {self.chapter} 章"
        return f"{place}“{self.section}”一节"


@dataclass(frozen=True)
class Case:
    """一项检查的结果：``name`` 说明检查什么，``message`` 说明结果；没通过时带上输入、期望值、实际值和认出的错误。"""

    name: str
    passed: bool
    message: str
    inputs: str = ""
    expected: str = ""
    actual: str = ""
    mistake: Hint | None = None
    args: tuple = field(default=(), repr=False, compare=False)   # 传给读者函数的参数（报告里可能只列出一小段）


class CheckResult:
    """一个 ``check_*`` 函数的结果。

    属性
    ----
    check : 检查函数的名字，如 ``"check_softmax"``
    passed : 全部检查都通过时为 True
    cases : 每一项检查的 :class:`Case`
    not_written : 函数还是书里的骨架（抛出 NotImplementedError）时为 True
    advice : 没认出具体错误时给的一般提示
    tolerance : 比较标准的文字说明
    printed : 读者的函数在检查时打印的内容（报告里不显示；太长时只留下开头）
    printed_chars : 它一共打印了多少个字符
    """

    def __init__(self, check, cases, *, advice, tolerance, not_written=False, printed=None):
        self.check = check
        self.cases = tuple(cases)
        self.advice = advice
        self.tolerance = tolerance
        self.not_written = not_written
        self.passed = not not_written and all(case.passed for case in self.cases)
        self.printed = printed.getvalue() if printed is not None else ""
        self.printed_chars = printed.total if printed is not None else 0

    def __bool__(self):
        # `assert check_softmax(f)` 要在没通过时失败，而不是因为对象总为真而悄悄通过。
        return self.passed

    @property
    def failures(self):
        return tuple(case for case in self.cases if not case.passed)

    @property
    def mistakes(self):
        """没通过的检查里认出的常见错误，按首次出现的顺序；同一种错误（同一个 key）只列一次。"""
        seen = {}
        for case in self.failures:
            if case.mistake is not None:
                seen.setdefault(case.mistake.key, case.mistake)
        return tuple(seen.values())

    def verdict(self):
        if self.not_written:
            return "还没写"
        if self.passed:
            return f"通过（全部 {len(self.cases)} 项）"
        return f"没通过（{len(self.cases)} 项里有 {len(self.failures)} 项没过）"

    def __repr__(self):
        if self.not_written:
            return f"<CheckResult {self.check}: 还没写>"
        # 一行里说清“几项里通过了几项”（“没通过 1/7”会被读成“1 项没过”），并告诉读者怎样看完整报告。
        passed, total = len(self.cases) - len(self.failures), len(self.cases)
        if self.passed:
            return f"<CheckResult {self.check}: 通过（{total} 项全部通过）>"
        return f"<CheckResult {self.check}: 没通过（{total} 项里通过 {passed} 项；print() 看完整报告）>"

    def _repr_pretty_(self, printer, cycle):
        # IPython 的纯文本视图（终端、PDF 讲义）给出完整报告；repr() 仍是一行。
        printer.text(str(self))

    # ---- 报告的内容：文字版和 HTML 版由同一份 (标签, 内容) 清单生成 ----

    def _sections(self):
        """报告的各段：(段名, 文字)；段名为空的是正文。"""
        if self.not_written:
            return [("", NOT_WRITTEN)]
        passed = [case.name for case in self.cases if case.passed]
        parts = [("通过", "；".join(passed) if passed else "（没有）")]
        if self.failures:
            first = self.failures[0]
            parts += [("第一项没过", first.name), ("输入", first.inputs)]
            if any(long_array(arg) for arg in first.args):
                parts.append(("完整输入", FULL_INPUTS.format(check=self.check)))
            parts += [("期望", first.expected), ("实际", first.actual), ("问题", first.message)]
            named = next((case for case in self.failures if case.mistake is not None), None)   # 第一个认出错误的
            if named is not None:
                hint = named.mistake
                seen_in = "" if named is first else f"（在“{named.name}”这一项里认出）"
                parts += [("认出的错误", hint.title + seen_in), ("为什么", hint.why)]
            else:
                hint = self.advice
            parts += [("怎么改", hint.fix), ("参见", hint)]
            others = [f"{other.title}（{other.where}）" for other in self.mistakes if other.key != hint.key]
            if others:
                parts.append(("还认出了", "；".join(others)))
            rest = [case.name for case in self.failures[1:]]
            if rest:
                parts.append(("其余没过", "；".join(rest)))
        if self.printed_chars:
            parts.append(("打印", PRINTED.format(chars=self.printed_chars, check=self.check)))
        parts.append(("比较标准", self.tolerance))
        return parts

    def __str__(self):
        lines = [f"{self.check}：{self.verdict()}"]
        for label, text in self._sections():
            if isinstance(text, Hint):
                text = f"{text.where}（{text.notebook}）"
            text = text.replace("\n", "\n    ")  # 多行的数组接着缩进，不顶格
            lines.append(f"  {label}：{text}" if label else f"  {text}")
        return "\n".join(lines)

    def _repr_html_(self):
        # 只用继承来的颜色和字体（不用 <code>，主题会给它上色）：亮色、暗色主题里都清楚。
        head = f"<p><strong>{html.escape(self.check)}：{html.escape(self.verdict())}</strong></p>"
        notes, items = [], []
        for label, text in self._sections():
            if isinstance(text, Hint):
                body = (f'<a href="{html.escape(text.href)}">{html.escape(text.where)}</a>'
                        f"（{html.escape(text.notebook)}）")
            elif label in ("输入", "期望", "实际"):
                body = f'<span style="{_MONO}">{html.escape(text)}</span>'
            else:
                body = html.escape(text)
            if label:
                items.append(f'<dt style="font-weight: bold">{html.escape(label)}</dt>'
                             f'<dd style="margin: 0">{body}</dd>')
            else:
                notes.append(f"<p>{body}</p>")
        table = f'<dl style="{_GRID}">{"".join(items)}</dl>' if items else ""
        return f'<div class="lc-practice" lang="zh-CN">{head}{"".join(notes)}{table}</div>'


_MONO = "font-family: var(--pst-font-family-monospace, monospace); white-space: pre-wrap; overflow-wrap: break-word"
_GRID = "display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.25em 0.8em; margin: 0"
