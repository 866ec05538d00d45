"""“你来写”的检查：读者自己写的函数交给 ``check_*``，它跑一组检查，给出中文报告。

每个 ``check_*`` 接收读者的函数，与 ``labcode`` 的参考实现比较（普通的、随机的和书里讲过的极端输入），
返回 :class:`CheckResult`：``.passed``、``.cases``，在 Jupyter 里显示成报告；认出常见错误时说出它的名字，
并指向书中讲它的小节。函数还是书里的骨架（``raise NotImplementedError``）时，报告“还没写”。
读者的函数在护栏里运行（:mod:`~labcode.practice.guard`）：每一项限时，打印的内容收进 ``.printed``，
抛出什么、退出、改动参数都只是没通过的一项。``check_*(fn, seed=整数)`` 把随机的几项换成另一组数（评分用，
见 :mod:`labcode.grade`）。

“动手算”框也在这里：``answer_box(kind, label=..., **选项)`` 给出一个读者写答案、当场核对的交互组件
（题目与答案见 :mod:`labcode.practice.problems`，交互组件见 :mod:`labcode.widgets.answer_box`）。
"""
from .bigram import check_bigram_loss_and_grad, check_counts_loss_and_grad
from .embedding import check_embedding_backward
from .gradient import check_cross_entropy_grad, check_mean_loss, check_numerical_grad
from .idioms import check_interpolated_nll
from .probability import check_cross_entropy, check_logsumexp, check_softmax
from .report import Case, CheckResult, Hint
from .training import check_training_loop

__all__ = ["check_softmax", "check_logsumexp", "check_cross_entropy", "check_cross_entropy_grad",
           "check_numerical_grad", "check_mean_loss", "check_embedding_backward", "check_bigram_loss_and_grad",
           "check_counts_loss_and_grad", "check_training_loop", "check_interpolated_nll", "CheckResult", "Case", "Hint",
           "answer_box"]


def __getattr__(name):
    # 框是一个交互组件，会导入 anywidget：用到时才导入。
    if name == "answer_box":
        from ..widgets.answer_box import answer_box
        return answer_box
    raise AttributeError(f"module 'labcode.practice' has no attribute {name!r}")
