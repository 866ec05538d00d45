"""labcode：课程各章共用的代码（数学、数据、交互组件与插图）。

按章找模块：
- 第 1 章 概率与损失：``probability``（softmax、logsumexp、交叉熵、熵、温度）
- 第 2 章 梯度：``gradients``（梯度、中心差分）、``linear``（线性层）、``batch``（忽略标记；第 3 章的拼批）
- 第 3 章 共享嵌入：``embedding``（查表与反向）、``corpus``（小语料）、``low_rank``（低秩 bigram）
- 第 4 章 bigram：``words``、``bigram``（计数、训练、采样）；第 5 章 成语：``idioms``；附录：``regression``（均方误差）
- 共用：``vocab``（唯一的词表类型）、``plots``（插图）、``overview``（课程全图）、``widgets``（交互组件）、
  ``practice``（“你来写”的检查与“动手算”）、``grade``（教师评分）、``fonts``（插图的中文字体）；
  参数检查都在 ``_validate``，``glue`` 把算出的数交给正文
"""
from . import corpus, idioms, low_rank, practice
from ._glue import glue
from .batch import BOS, EOS, IGNORE, UNK, collate, valid_mean
from .bigram import (
    build_vocab,
    count_matrix,
    count_nll,
    count_probs,
    count_weights,
    encode_pairs,
    load_words,
    loss_and_grad,
    loss_and_grad_from_counts,
    sample_names,
    split_words,
)
from .embedding import (
    embed_with_positions,
    embed_with_positions_backward,
    embedding,
    embedding_backward,
    embedding_backward_overwrite,
    one_hot,
)
from .gradients import GradCheck, gradcheck, gradient_step, numerical_grad, step_size_errors
from .idioms import load_idioms
from .linear import linear, linear_backward
from .low_rank import train_low_rank_bigram
from .overview import course_map, course_map_alt
from .probability import cross_entropy, cross_entropy_grad, entropy, log_softmax, logsumexp, perplexity, softmax
from .regression import mse, mse_grad
from .vocab import Vocab

__all__ = ["softmax", "log_softmax", "logsumexp", "entropy", "cross_entropy", "cross_entropy_grad", "perplexity",
           "numerical_grad", "gradcheck", "GradCheck", "step_size_errors", "gradient_step", "linear", "linear_backward",
           "mse", "mse_grad",
           "UNK", "BOS", "EOS", "IGNORE", "collate", "valid_mean",
           "one_hot", "embedding", "embedding_backward", "embedding_backward_overwrite",
           "embed_with_positions", "embed_with_positions_backward", "low_rank", "train_low_rank_bigram",
           "corpus", "practice", "Vocab",
           "load_words", "split_words", "build_vocab", "encode_pairs", "count_matrix", "count_probs", "count_nll",
           "count_weights",
           "loss_and_grad", "loss_and_grad_from_counts", "sample_names",
           "glue", "idioms", "load_idioms", "course_map", "course_map_alt"]
# 交互组件会导入 ipywidgets 和 matplotlib：用到时才导入。
_WIDGETS = ("softmax_explorer", "SoftmaxExplorer", "gradient_explorer", "GradientExplorer",
            "embedding_explorer", "EmbeddingExplorer", "bigram_trainer", "BigramTrainer")
__all__ += _WIDGETS


def __getattr__(name):
    if name in _WIDGETS:
        from . import widgets
        return getattr(widgets, name)
    raise AttributeError(f"module 'labcode' has no attribute {name!r}")
