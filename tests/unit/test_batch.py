"""Unit tests for labcode.batch: special ids and collate."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from labcode import BOS, EOS, IGNORE, UNK, collate, cross_entropy, cross_entropy_grad, valid_mean


def test_special_ids():
    assert (UNK, BOS, EOS, IGNORE) == (0, 1, 2, -100)


def test_chapter_example():
    inputs, targets = collate([[BOS, 3, 5, EOS], [BOS, 4, EOS]])
    assert inputs.tolist() == [[1, 3, 5], [1, 4, 2]]
    assert targets.tolist() == [[3, 5, 2], [4, 2, -100]]
    assert inputs.dtype == targets.dtype == np.int64
    assert int((targets != IGNORE).sum()) == 5 and int((targets == EOS).sum()) == 2


def test_chapter_example_with_zero_logits():
    _, targets = collate([[1, 3, 5, 2], [1, 4, 2]])
    z = np.zeros(targets.shape + (6,))
    assert cross_entropy(z, targets) == pytest.approx(np.log(6), rel=1e-15)
    g = cross_entropy_grad(z, targets)
    assert np.all(g[1, 2] == 0.0)
    np.testing.assert_allclose(g[0, 0], (np.full(6, 1 / 6) - np.eye(6)[3]) / 5, atol=1e-15)


@given(st.lists(st.lists(st.integers(3, 50) | st.just(UNK), max_size=6), min_size=1, max_size=5))
def test_ragged_documents(bodies):
    docs = [[BOS, *body, EOS] for body in bodies]
    inputs, targets = collate(docs)
    T = max(len(d) for d in docs) - 1
    assert inputs.shape == targets.shape == (len(docs), T)
    for b, doc in enumerate(docs):
        n = len(doc) - 1
        assert inputs[b, :n].tolist() == doc[:-1] and targets[b, :n].tolist() == doc[1:]
        assert np.all(inputs[b, n:] == EOS) and np.all(targets[b, n:] == IGNORE)
    assert int((targets != IGNORE).sum()) == sum(len(d) - 1 for d in docs)


def test_numpy_documents_and_vocab_size_are_accepted():
    inputs, _ = collate([np.array([1, 0, 2], dtype=np.int32)], vocab_size=3)
    assert inputs.tolist() == [[1, 0]]


def test_empty_documents_are_rejected():
    with pytest.raises(ValueError, match=r"docs\[1\] 至少要有 BOS 和 EOS 两个编号"):
        collate([[1, 3, 2], []])
    with pytest.raises(ValueError, match=r"docs 至少要有一个文档（编号序列），收到空序列"):
        collate([])


def test_documents_must_carry_bos_and_eos():
    with pytest.raises(ValueError, match=r"docs\[0\] 必须以 BOS=1 开头、以 EOS=2 结尾，收到 \[3 5 2\]"):
        collate([[3, 5, 2]])
    with pytest.raises(ValueError, match=r"docs\[0\] 必须以 BOS=1 开头、以 EOS=2 结尾"):
        collate([[1, 3, 5]])


def test_special_ids_inside_a_document_are_rejected():
    with pytest.raises(ValueError, match=r"docs\[0\] 中间的编号必须是 UNK=0 或 >= 3 的普通编号.*\[1 3 2 5 2\]"):
        collate([[1, 3, 2, 5, 2]])
    with pytest.raises(ValueError, match=r"docs\[0\] 中间的编号"):
        collate([[1, 1, 2]])
    with pytest.raises(ValueError, match=r"docs\[0\] 中间的编号.*-100"):
        collate([[1, -100, 2]])


def test_ids_must_be_integers():
    with pytest.raises(TypeError, match=r"docs\[0\] 必须是一维整数编号序列，收到 dtype float64"):
        collate([[1.0, 3.0, 2.0]])
    with pytest.raises(TypeError, match=r"docs\[0\] 必须是一维整数编号序列"):
        collate([[True, False]])
    with pytest.raises(TypeError, match=r"docs\[0\] 必须是一维整数编号序列"):
        collate(["abc"])


def test_ids_must_fit_the_vocabulary():
    with pytest.raises(IndexError, match=r"docs\[0\] 的编号必须小于 vocab_size=5"):
        collate([[1, 7, 2]], vocab_size=5)
    with pytest.raises(ValueError, match=r"vocab_size 必须是不小于 3 的整数（要容纳特殊词元 UNK、BOS、EOS），收到 2"):
        collate([[1, 2]], vocab_size=2)


def test_a_string_is_not_a_list_of_documents():
    with pytest.raises(TypeError, match="docs 必须是由文档（编号序列）组成的列表，收到单个字符串 '132'"):
        collate("132")


def test_valid_mean_divides_by_the_valid_targets_only():
    losses, targets = [[1.0, 1.5, 2.5], [3.5, 1.5, 0.0]], [[3, 5, 2], [4, 2, IGNORE]]
    assert valid_mean(losses, targets) == 2.0                   # 10 / 5, not 10 / 6
    assert valid_mean([[4.0, 9.0]], [[1, 7]], ignore_index=7) == 4.0


def test_valid_mean_is_the_mean_of_cross_entropy():
    _, targets = collate([[1, 3, 5, 2], [1, 4, 2]])
    z = np.random.default_rng(0).normal(size=targets.shape + (6,))
    per_position = cross_entropy(z, targets, reduction="none")
    assert valid_mean(per_position, targets) == pytest.approx(cross_entropy(z, targets), rel=1e-15)


def test_valid_mean_rejects_bad_arguments():
    with pytest.raises(TypeError, match=r"targets 必须是整数目标编号，收到 dtype float64"):
        valid_mean([1.0], [0.5])
    with pytest.raises(ValueError, match=r"losses 与 targets 的形状必须相同，收到 \(2,\) 与 \(1,\)"):
        valid_mean([1.0, 2.0], [1])
    with pytest.raises(ValueError, match=r"losses 的每个元素都必须是有限数，收到 nan（位置 0）"):
        valid_mean([np.nan], [1])
    with pytest.raises(ValueError, match=r"至少要有一个有效目标，收到全部 2 个都等于 ignore_index=-100"):
        valid_mean([1.0, 2.0], [IGNORE, IGNORE])
