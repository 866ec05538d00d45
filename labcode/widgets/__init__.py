"""课程的交互组件（anywidget）：每个交互组件一个 Python 模块和一个同名 JS 模块，数学与 labcode 共用。

交互组件工厂只返回交互组件，不自己调用 ``display``；放在单元格最后一行即可显示。
"""
from ._base import fmt
from .answer_box import AnswerBox, answer_box
from .bigram_trainer import BigramTrainer, bigram_trainer
from .embedding_explorer import EmbeddingExplorer, embedding_explorer
from .gradient_explorer import GradientExplorer, gradient_explorer
from .softmax_explorer import SoftmaxExplorer, softmax_explorer

__all__ = ["fmt", "SoftmaxExplorer", "softmax_explorer", "GradientExplorer", "gradient_explorer",
           "EmbeddingExplorer", "embedding_explorer", "BigramTrainer", "bigram_trainer",
           "AnswerBox", "answer_box"]
