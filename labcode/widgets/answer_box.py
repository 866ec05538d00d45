"""“动手算”框：读者先在纸上算，再把答案写进框里核对；在运行中的笔记本里，它是一个交互组件。

题目、选项和答案在 :mod:`labcode.practice.problems`；读答案、判对错、出新的数的是 ``answer_box.js``，
网页上的框用的是同一个文件（构建时做成普通脚本），所以笔记本里和网站上的框一模一样：
写答案、点“核对”（或按 Enter）、“换一组数”、“回到书中的数”。判断在浏览器里完成，不需要内核回应。
网站上的框还数“本章已完成 k/n”；笔记本里每个框是单独的交互组件，不知道本章其他框的情况，所以不数。
"""
from __future__ import annotations

import traitlets

from ..practice.problems import Problem, box_problem, plain
from ._base import HERE, WidgetBase, bundle

WHERE = ("在本书网站上可以直接在框里作答；在 JupyterLab、Jupyter Notebook 或 VS Code 里，从第一个单元格起运行"
         "笔记本（菜单 Run ▸ Run All Cells），框就会出现，写下答案即可核对。")


class AnswerBox(WidgetBase):
    """一个“动手算”框。``label`` 是它在书中的标签，``spec`` 是 ``answer_box.js`` 需要的题目与书中的数
    （:meth:`Problem.spec`）；两者创建后不变。一般用 :func:`answer_box` 创建。"""

    _esm = bundle("answer_box")
    _css = (HERE / "answer_box.css").read_text(encoding="utf-8")

    label = traitlets.Unicode(read_only=True).tag(sync=True)
    spec = traitlets.Dict(read_only=True).tag(sync=True)

    def __init__(self, label: str, problem: Problem, **kwargs):
        super().__init__(**kwargs)
        self.problem = problem
        self.set_trait("label", label)
        self.set_trait("spec", problem.spec())

    def summary(self) -> str:
        """纯文本界面看到的：书中的数写成的题目，以及在哪里、怎样能核对（不含答案）。"""
        return f"动手算：{plain(self.problem.question())}\n{WHERE}"


def answer_box(kind: str, *, label: str, **options) -> AnswerBox:
    """创建“动手算”框（返回交互组件，不自动显示；放在单元格最后一行即可显示）。

    参数
    ----
    kind : 题型，``labcode.practice.problems.KINDS`` 之一（softmax、loss、gradient、step、mean-loss、
        row-gradient、smoothed-prob、interpolated-prob、mse-gradient）
    label : 框在书中的标签，小写字母开头，只含小写字母、数字和 -，如 ``"ch1-ab-softmax"``
    **options : 这种题的选项（书中的数），写成字符串形式的 Python 算式，如 ``z="[ln(2), 0, -ln(2)]"``；
        一个数也可以直接写，如 ``y=1``。可选的 ``exact``：答案按本书写法的精确形式，如 ``exact="ln(7/2)"``
        （向量写成列表，或列表除以一个数），答案册印出“精确形式 ≈ 小数”；它必须与算出的答案一致

    返回
    ----
    AnswerBox

    异常
    ----
    ValueError : 题型不认识、缺少或多出选项、选项写错、标签不合规则、exact 与算出的答案不一致

    >>> box = answer_box("loss", label="ch1-ab-loss", z="[ln(2), 0, -ln(2)]", y=1)
    >>> round(box.problem.answer, 4)   # ln(7/2)
    1.2528
    """
    return AnswerBox(label, box_problem(kind, label, options))
