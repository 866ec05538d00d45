"""书里的“你来写”：每一道题请读者写哪个函数，用哪个 ``check_*`` 检查（评分按函数名找读者的代码，见
:mod:`labcode.grade`）。``tests/book/test_grade.py`` 核对这张表与各章笔记本一致：编号、标题、骨架里的函数名和检查。
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Exercise:
    """一个要读者写的函数：``number`` 是练习在书里的编号（如 ``"4.2"``，一道题可以有两个函数），
    ``notebook`` 是练习所在的章节笔记本，
    ``title`` 是“你来写：”后面的标题，``function`` 是骨架里的函数名，``check`` 是检查它的函数名。"""

    notebook: str
    number: str
    title: str
    label: str
    function: str
    check: str

    @property
    def chapter(self) -> int:
        """练习所在的章：编号的第一段（``"4.2"`` 在第 4 章）。"""
        return int(self.number.split(".")[0])

    @property
    def name(self) -> str:
        """报告里的叫法，如 ``练习 1.1 你来写：softmax（my_softmax）``。"""
        return f"练习 {self.number} 你来写：{self.title}（{self.function}）"


def notebook_of(chapter: int) -> str:
    """第 ``chapter`` 章的笔记本文件名（有“你来写”的章）。"""
    return next(e.notebook for e in EXERCISES if e.chapter == chapter)


# 按笔记本：练习编号、标题、标签里 ``chN-ex-write-`` 之后的部分，以及{骨架里的函数名: 检查它的函数名}。
_BY_NOTEBOOK = {
    "01_probability_to_loss.ipynb": (
        ("1.1", "softmax", "softmax", {"my_softmax": "check_softmax"}),
        ("1.2", "logsumexp", "logsumexp", {"my_logsumexp": "check_logsumexp"}),
        ("1.3", "不经过概率算损失", "cross-entropy", {"my_cross_entropy": "check_cross_entropy"}),
    ),
    "02_gradient.ipynb": (
        ("2.1", "交叉熵的梯度", "grad", {"my_grad": "check_cross_entropy_grad"}),
        ("2.2", "自己的中心差分", "numerical-grad", {"my_numerical_grad": "check_numerical_grad"}),
        ("2.3", "只对有效目标取平均", "mean-loss", {"my_mean_loss": "check_mean_loss"}),
    ),
    "03_shared_embedding.ipynb": (
        ("3.1", "重复编号也不丢梯度", "backward", {"my_embedding_backward": "check_embedding_backward"}),
        ("3.2", "用独热矩阵写反向", "one-hot", {"my_one_hot_backward": "check_embedding_backward"}),
    ),
    "04_bigram.ipynb": (
        ("4.1", "逐条写法的损失与梯度", "loss-and-grad", {"my_loss_and_grad": "check_bigram_loss_and_grad"}),
        ("4.2", "训练循环，先逐条、再计数", "training", {"my_train": "check_training_loop",
                                                "my_counts_loss_and_grad": "check_counts_loss_and_grad"}),
    ),
    "05_idiom_bigram.ipynb": (
        ("5.1", "插值模型的平均损失", "interpolated", {"my_interpolated_nll": "check_interpolated_nll"}),
    ),
}

EXERCISES = tuple(
    Exercise(notebook, number, title, f"ch{number.split('.')[0]}-ex-write-{slug}", function, check)
    for notebook, rows in _BY_NOTEBOOK.items()
    for number, title, slug, functions in rows
    for function, check in functions.items()
)
