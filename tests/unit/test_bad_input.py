"""Bad input to every public labcode function gets a Chinese error naming the argument; nothing non-finite or
huge comes back silently. The surfaces are one table; hypothesis draws the bad values and where they go."""
from __future__ import annotations

import math
import re
import time
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import labcode
from labcode import bigram, corpus, idioms, low_rank
from labcode._validate import MAX_ELEMENTS

COUNTS = [[1, 3], [2, 2]]          # no zero cell: every count-model value is finite
E3 = [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
AB, A = bigram.build_vocab(["ab"]), bigram.build_vocab(["a"])


def square(v):
    return float(np.sum(np.asarray(v) ** 2))


def rng():
    return np.random.default_rng(0)


# name -> (function, valid arguments (a fresh dict per call), the array arguments that must be finite)
SURFACES = {
    "softmax": (labcode.softmax, lambda: dict(logits=[0.0, 1.0, 2.0], axis=-1, temperature=1.0), ()),
    "log_softmax": (labcode.log_softmax, lambda: dict(logits=[[0.0, 1.0]], axis=-1), ()),
    "logsumexp": (labcode.logsumexp, lambda: dict(logits=[0.0, 1.0], axis=-1), ()),
    "entropy": (labcode.entropy, lambda: dict(probs=[0.25, 0.75], axis=-1), ("probs",)),
    "cross_entropy": (labcode.cross_entropy, lambda: dict(logits=[[0.0, 1.0]], targets=[1], ignore_index=-100,
                                                         reduction="mean"), ()),
    "cross_entropy_grad": (labcode.cross_entropy_grad, lambda: dict(logits=[[0.0, 1.0]], targets=[1],
                                                                   ignore_index=-100, reduction="mean"), ()),
    "perplexity": (labcode.perplexity, lambda: dict(logits=[[0.0, 1.0]], targets=[1], ignore_index=-100), ()),
    "gradient_step": (labcode.gradient_step, lambda: dict(logits=[0.0, 1.0], target=1, lr=0.5), ()),
    "numerical_grad": (labcode.numerical_grad, lambda: dict(f=square, x=[1.0, 2.0], delta=1e-5), ("x",)),
    "gradcheck": (labcode.gradcheck, lambda: dict(f=square, grad=[2.0, 4.0], x=[1.0, 2.0], delta=1e-5),
                  ("grad", "x")),
    "step_size_errors": (labcode.step_size_errors, lambda: dict(f=square, x=[1.0], grad=[2.0], deltas=[1e-3]),
                         ("x", "grad")),
    "linear": (labcode.linear, lambda: dict(X=[[1.0, 2.0]], W=[[1.0, 0.0], [0.0, 1.0]], b=[0.0, 1.0]),
               ("X", "W", "b")),
    "linear_backward": (labcode.linear_backward, lambda: dict(grad_out=[[1.0, -1.0]], X=[[1.0, 2.0]],
                                                              W=[[1.0, 0.0], [0.0, 1.0]]), ("grad_out", "X", "W")),
    "mse": (labcode.mse, lambda: dict(preds=[1.0, 2.0], targets=[0.0, 1.0]), ("preds", "targets")),
    "mse_grad": (labcode.mse_grad, lambda: dict(preds=[1.0, 2.0], targets=[0.0, 1.0]), ("preds", "targets")),
    "valid_mean": (labcode.valid_mean, lambda: dict(losses=[1.0, 2.0], targets=[0, 1], ignore_index=-100),
                   ("losses",)),
    "collate": (labcode.collate, lambda: dict(docs=[[1, 3, 2]], vocab_size=5), ()),
    "one_hot": (labcode.one_hot, lambda: dict(ids=[0, 1], vocab_size=3), ()),
    "embedding": (labcode.embedding, lambda: dict(E=E3, ids=[0, 2]), ("E",)),
    "embedding_backward": (labcode.embedding_backward, lambda: dict(grad_out=[[1.0, 2.0], [3.0, 4.0]], ids=[0, 2],
                                                                    num_embeddings=3), ("grad_out",)),
    "embed_with_positions": (labcode.embed_with_positions, lambda: dict(E=E3, P=[[0.0, 0.0], [1.0, 1.0]],
                                                                        ids=[0, 2]), ("E", "P")),
    "embed_with_positions_backward": (labcode.embed_with_positions_backward, lambda: dict(
        grad_out=[[1.0, 2.0], [3.0, 4.0]], ids=[0, 2], num_embeddings=3, num_positions=2), ("grad_out",)),
    "pair_counts": (low_rank.pair_counts, lambda: dict(inputs=[[0, 1]], targets=[[1, -100]], vocab_size=2), ()),
    "train_low_rank_bigram": (low_rank.train_low_rank_bigram, lambda: dict(
        E=E3, W_out=[[0.0, 1.0, 0.0], [1.0, 0.0, 0.5]], inputs=[0, 2], targets=[2, 1], lr=0.5, steps=2),
        ("E", "W_out")),
    "count_matrix": (bigram.count_matrix, lambda: dict(xs=[0, 1], ys=[1, 0], vocab_size=2), ()),
    "smoothed_counts": (bigram.smoothed_counts, lambda: dict(counts=COUNTS, alpha=0.5), ("counts",)),
    "count_probs": (bigram.count_probs, lambda: dict(counts=COUNTS, alpha=0.5), ("counts",)),
    "count_nll": (bigram.count_nll, lambda: dict(counts=COUNTS, alpha=0.5), ("counts",)),
    "count_optimum": (bigram.count_optimum, lambda: dict(counts=COUNTS, alpha=0.5), ("counts",)),
    "count_weights": (bigram.count_weights, lambda: dict(counts=COUNTS, alpha=0.5), ("counts",)),
    "lr_limits": (bigram.lr_limits, lambda: dict(counts=COUNTS), ("counts",)),
    "init_weights": (bigram.init_weights, lambda: dict(vocab_size=3, rng=rng(), scale=1.0), ()),
    "loss_and_grad": (bigram.loss_and_grad, lambda: dict(W=np.zeros((2, 2)), xs=[0, 1], ys=[1, 0], reg=0.1), ()),
    "loss_and_grad_from_counts": (bigram.loss_and_grad_from_counts, lambda: dict(W=np.zeros((2, 2)), counts=COUNTS,
                                                                                 reg=0.1), ("counts",)),
    "train": (bigram.train, lambda: dict(W=np.zeros((2, 2)), counts=COUNTS, lr=1.0, steps=2, reg=0.0,
                                         stop_below=None, print_every=0, callback=None), ("W", "counts")),
    "sample_names": (bigram.sample_names, lambda: dict(W=np.zeros((2, 2)), vocab=A, rng=rng(), n=2, temperature=1.0,
                                                       max_len=5), ()),
    "sample_words": (bigram.sample_words, lambda: dict(next_probs=lambda i: [0.5, 0.5], vocab=A, rng=rng(), n=2,
                                                       max_len=5), ()),
    "load_words": (bigram.load_words, lambda: dict(path=None), ()),
    "split_words": (bigram.split_words, lambda: dict(words=["a", "b", "c"], rng=rng(), fractions=(0.5, 0.5)), ()),
    "build_vocab": (bigram.build_vocab, lambda: dict(words=["ab"]), ()),
    "encode_pairs": (bigram.encode_pairs, lambda: dict(words=["ab"], vocab=AB), ()),
    "bigram_data": (bigram.bigram_data, lambda: dict(words=["ab"], vocab=AB), ()),
    "capped_vocab": (idioms.capped_vocab, lambda: dict(words=["ab"], size=3), ()),
    "pair_nll": (idioms.pair_nll, lambda: dict(counts=COUNTS, xs=[0], ys=[1], alpha=0.5), ("counts",)),
    "next_probs": (idioms.next_probs, lambda: dict(counts=COUNTS, prev=0, alpha=0.5, temperature=1.0), ("counts",)),
    "top_next": (idioms.top_next, lambda: dict(counts=COUNTS, vocab=A, prev=".", k=1, alpha=0.0), ("counts",)),
    "interpolated_probs": (idioms.interpolated_probs, lambda: dict(counts=COUNTS, prev=0, gamma=0.5), ("counts",)),
    "interpolated_nll": (idioms.interpolated_nll, lambda: dict(counts=COUNTS, xs=[0], ys=[1], gamma=0.5), ("counts",)),
    "sample_from_counts": (idioms.sample_from_counts, lambda: dict(counts=COUNTS, vocab=A, rng=rng(), n=2, alpha=0.0,
                                                                   temperature=1.0, max_len=5), ("counts",)),
    "corpus.encode": (corpus.encode, lambda: dict(text="谢谢"), ()),
    "corpus.decode": (corpus.decode, lambda: dict(ids=[3, 4]), ()),
    "corpus.make_batch": (corpus.make_batch, lambda: dict(texts=["谢谢"]), ()),
    "Vocab.decode": (AB.decode, lambda: dict(ids=[0, 1]), ()),
    "glue": (labcode.glue, lambda: dict(name="x", variable=1, display=False), ()),
}
ARGUMENTS = [(name, arg) for name, (_, args, _) in SURFACES.items() for arg in args()]
FINITE = [(name, arg) for name, (_, _, finite) in SURFACES.items() for arg in finite]
# Values that are wrong for most arguments (and right for a few): each one in each argument is handled.
JUNK = [None, "x", "", b"x", [[1.0], [2.0, 3.0]], [[0, 1], [2]], {}, object(), 1 + 2j, True, math.nan, math.inf,
        -math.inf, -1, 0, 0.5, 10**12, -(10**12), 2**63, [], [[]], np.array(1.0), np.zeros((2, 3)), ["a", 1],
        np.array([1, 2], dtype=object)]
CJK = re.compile(r"[\u4e00-\u9fff]")
ERRORS = (TypeError, ValueError, IndexError, FileNotFoundError)


def finite_everywhere(value):
    """Every number in value (arrays, tuples, named tuples, floats) is finite."""
    if isinstance(value, (str, bytes, labcode.Vocab)) or value is None:
        return True
    if isinstance(value, (tuple, list)):
        return all(finite_everywhere(v) for v in value)
    arr = np.asarray(value)
    return arr.dtype.kind not in "fc" or bool(np.isfinite(arr).all())


def call(surface, **changed):
    """Call a surface with some arguments changed; warnings are errors (a NaN with only a warning is a failure)."""
    fn, args, _ = SURFACES[surface]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(**{**args(), **changed})


def assert_named_error(error, *names):
    message = str(error)
    assert isinstance(error, ERRORS), f"{type(error).__name__}: {message}"
    assert CJK.search(message), f"not in Chinese: {message}"
    assert any(n in message for n in names), f"{names} not named: {message}"


def test_every_surface_runs_on_its_valid_arguments():
    for name in SURFACES:
        assert finite_everywhere(call(name)), name


@pytest.mark.parametrize("name", SURFACES)
def test_junk_in_any_argument_is_refused_by_name_or_handled(name):
    """Every junk value in every argument (all of them: a few thousand calls, about a second): a finite result,
    or an error of the book's kind, in Chinese, naming an argument (a junk vocab_size may make the ids wrong)."""
    for arg in SURFACES[name][1]():
        for junk in JUNK:
            try:
                result = call(name, **{arg: junk})
            except Exception as error:  # noqa: BLE001 - the point is to see every kind of error
                assert_named_error(error, arg, *SURFACES[name][1]())
            else:
                assert finite_everywhere(result), (arg, junk, result)


@settings(max_examples=200)
@given(st.sampled_from(FINITE), st.sampled_from([math.nan, math.inf, -math.inf]), st.integers(0, 10))
def test_a_non_finite_element_is_refused_where_it_sits(where, bad, index):
    name, arg = where
    valid = np.array(SURFACES[name][1]()[arg], dtype=np.float64)
    valid.flat[index % valid.size] = bad
    with pytest.raises(ValueError) as raised:
        call(name, **{arg: valid})
    assert_named_error(raised.value, arg)


RAGGED = [("softmax", "logits"), ("log_softmax", "logits"), ("logsumexp", "logits"), ("valid_mean", "losses"),
          ("valid_mean", "targets"), ("embedding", "ids"), ("one_hot", "ids"), ("embedding_backward", "ids"),
          ("embedding_backward", "grad_out"), ("linear", "X"), ("mse", "preds"), ("count_probs", "counts"),
          ("count_matrix", "xs"), ("pair_nll", "counts"), ("collate", "docs"), ("cross_entropy", "targets")]


@pytest.mark.parametrize("name, arg", RAGGED)
def test_a_ragged_list_is_named_not_left_to_numpy(name, arg):
    with pytest.raises(ValueError) as raised:
        call(name, **{arg: [[1, 2], [3]]})
    assert_named_error(raised.value, arg)
    assert "inhomogeneous" not in str(raised.value)


SIZES = [("one_hot", "vocab_size"), ("embedding_backward", "num_embeddings"),
         ("embed_with_positions_backward", "num_embeddings"), ("embed_with_positions_backward", "num_positions"),
         ("count_matrix", "vocab_size"), ("init_weights", "vocab_size")]


@settings(max_examples=40)
@given(st.sampled_from(SIZES), st.integers(MAX_ELEMENTS // 2 + 1, 10**15))
def test_a_size_beyond_the_limit_is_refused_before_anything_is_allocated(where, size):
    name, arg = where
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(ValueError, match=rf"^{arg} 必须让结果不超过 {MAX_ELEMENTS:,} 个数"):
            call(name, **{arg: size})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20 and time.perf_counter() - start < 1.0


# Huge but finite values in every numeric argument at once: the result is finite, or the error names arguments.
huge = st.floats(-1e308, 1e308, allow_nan=False)
OVERFLOW = {"linear": ("X", "W", "b"), "linear_backward": ("grad_out", "X", "W"), "mse": ("preds", "targets"),
            "mse_grad": ("preds", "targets"), "embedding_backward": ("grad_out",), "embed_with_positions": ("E", "P"),
            "embed_with_positions_backward": ("grad_out",), "valid_mean": ("losses",),
            "gradient_step": ("logits", "lr"), "loss_and_grad": ("W", "reg"),
            "loss_and_grad_from_counts": ("W", "counts", "reg"), "train": ("W", "counts", "lr", "reg"),
            "count_nll": ("counts", "alpha"), "count_optimum": ("counts", "alpha"),
            "smoothed_counts": ("counts", "alpha"), "count_probs": ("counts", "alpha"),
            "count_weights": ("counts", "alpha"),
            "pair_nll": ("counts", "alpha"), "next_probs": ("counts", "alpha", "temperature"),
            "softmax": ("logits", "temperature"), "log_softmax": ("logits",), "logsumexp": ("logits",),
            "cross_entropy": ("logits",), "cross_entropy_grad": ("logits",), "perplexity": ("logits",),
            "numerical_grad": ("x", "delta"), "gradcheck": ("grad", "x"), "init_weights": ("scale",)}
POSITIVE = {"counts", "alpha", "lr", "reg", "temperature", "delta", "scale"}


@settings(max_examples=300)
@given(st.sampled_from(sorted(OVERFLOW)), st.data())
def test_huge_finite_values_never_give_a_silent_inf_or_nan(name, data):
    changed = {}
    for arg in OVERFLOW[name]:
        shape = np.shape(SURFACES[name][1]()[arg])
        values = np.array(data.draw(st.lists(huge, min_size=math.prod(shape), max_size=math.prod(shape))))
        if arg in POSITIVE:
            values = np.where(values == 0, 1.0, np.abs(values))
        changed[arg] = values.reshape(shape) if shape else float(values[0])
    try:
        result = call(name, **changed)
    except ValueError as error:
        assert_named_error(error, *OVERFLOW[name])
    else:
        assert finite_everywhere(result), (changed, result)


@settings(max_examples=100)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=2, max_size=2))
def test_gradcheck_never_reports_success_on_a_non_finite_gradient(grad):
    if all(math.isfinite(g) for g in grad):
        check = labcode.gradcheck(square, grad, [1.0, 2.0])
        assert math.isfinite(check.max_rel_error) and check.max_abs_error >= abs(grad[0] - 2.0) * (1 - 1e-9) - 1e-6
    else:
        with pytest.raises(ValueError, match=r"^grad 的每个元素都必须是有限数"):
            labcode.gradcheck(square, grad, [1.0, 2.0])


# ---- the cases the bad-input review listed, one by one ----

@pytest.mark.parametrize("grad", [[math.nan, 4.0], [math.nan, math.nan], [math.inf, 4.0]])
def test_gradcheck_with_a_nan_or_inf_gradient_is_an_error_not_a_zero_error(grad):
    with pytest.raises(ValueError, match=r"grad 的每个元素都必须是有限数，收到 (nan|inf)（位置 0）"):
        labcode.gradcheck(square, grad, [1.0, 2.0])


def test_huge_counts_are_refused_instead_of_returning_nan():
    with pytest.raises(ValueError, match=r"^counts 的总和必须能用 float64 表示"):
        call("loss_and_grad_from_counts", counts=np.full((2, 2), 1e308))


@pytest.mark.parametrize("name, arg, size", [("one_hot", "vocab_size", 10**8),
                                             ("embed_with_positions_backward", "num_positions", 10**9),
                                             ("embedding_backward", "num_embeddings", 10**8),
                                             ("count_matrix", "vocab_size", 10**8)])
def test_the_reviewed_sizes_are_refused(name, arg, size):
    with pytest.raises(ValueError, match=rf"^{arg} 必须让结果不超过 50,000,000 个数（float64 约 400 MB），收到 {size}"):
        call(name, **{arg: size})


@pytest.mark.parametrize("size, error, message", [
    (3.0, TypeError, "vocab_size 必须是正整数，收到 3.0"), (True, TypeError, "vocab_size 必须是正整数，收到 True"),
    (0, ValueError, "vocab_size 必须是正整数，收到 0"),
    (2**32, ValueError, "vocab_size 必须让结果不超过")])
def test_count_matrix_checks_vocab_size(size, error, message):
    with pytest.raises(error, match=f"^{message}"):
        bigram.count_matrix([0], [0], size)


@pytest.mark.parametrize("ignore_index", ["x", 1.5])
def test_valid_mean_checks_ignore_index(ignore_index):
    with pytest.raises(TypeError, match=f"^ignore_index 必须是整数，收到 {ignore_index!r}"):
        labcode.valid_mean([1.0], [0], ignore_index)
    with pytest.raises(ValueError, match="^targets 至少要有一个有效目标，收到空数组"):
        labcode.valid_mean([], [])


@pytest.mark.parametrize("name, changed, error, message", [
    ("numerical_grad", dict(f=3), TypeError, r"f 必须是函数（可调用对象），收到 3（int）"),
    ("train", dict(callback=3), TypeError, r"callback 必须是函数（可调用对象）或 None，收到 3（int）"),
    ("train", dict(stop_below="x"), TypeError, r"stop_below 必须是有限实数，收到 'x'"),
    ("train", dict(print_every=-1), ValueError, r"print_every 必须是非负整数（每几步打印一次，0 表示不打印），收到 -1"),
    ("train", dict(print_every=0.5), TypeError, r"print_every 必须是非负整数（每几步打印一次.*），收到 0.5"),
    ("load_words", dict(path=123), TypeError, r"path 必须是文件路径（非空 str 或 pathlib.Path），收到 123（int）"),
    ("next_probs", dict(prev=[0, 1]), TypeError, r"prev 必须是 \[0, 1\] 内的整数（前一个字的编号），收到 \[0, 1\]"),
    ("embedding", dict(E=np.zeros((0, 2))), ValueError, r"E 必须是至少一行的二维数组（行数, d），收到形状 \(0, 2\)"),
])
def test_python_internal_errors_became_named_ones(name, changed, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        call(name, **changed)


@pytest.mark.parametrize("name, arg", [("embedding", "E"), ("embedding_backward", "grad_out"),
                                       ("embed_with_positions_backward", "grad_out"), ("linear", "X"),
                                       ("linear", "W"), ("linear_backward", "grad_out"), ("mse", "preds"),
                                       ("mse_grad", "targets")])
@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_the_reviewed_functions_refuse_nan_and_inf(name, arg, bad):
    values = np.array(SURFACES[name][1]()[arg], dtype=np.float64)
    values.flat[-1] = bad
    with pytest.raises(ValueError, match=rf"^{arg} 的每个元素都必须是有限数，收到 {bad}（位置 "):
        call(name, **{arg: values})


def test_overflow_from_finite_input_names_the_arguments():
    with pytest.raises(ValueError, match=r"^preds 与 targets 的取值太大：均方误差 必须在 float64 的范围内"):
        labcode.mse([1e200], [0.0])
    with pytest.raises(ValueError, match=r"^W 或 reg 的取值太大"):
        bigram.loss_and_grad_from_counts([[1e308, -1e308], [0.0, 0.0]], COUNTS)
    with pytest.raises(ValueError, match=r"^lr、W 或 reg 的取值太大：更新 1 次后的损失与梯度 "):
        bigram.train(np.zeros((2, 2)), COUNTS, lr=1e308, steps=3, reg=1.0)
