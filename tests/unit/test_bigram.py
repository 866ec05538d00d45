"""labcode.bigram and labcode.words: counting model, network, fast count path, training, sampling, errors."""
import hashlib
from importlib.resources import files

import numpy as np
import pytest

from labcode import bigram, numerical_grad, softmax


def reference_loss(W, xs, ys, reg):
    """Straight from the definition: one-hot @ W, softmax, pick, -log, mean, plus reg * mean(W^2)."""
    onehot = np.eye(W.shape[0])[xs]
    logits = onehot @ W
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    return -np.mean(np.log(probs[np.arange(len(ys)), ys])) + reg * np.mean(W ** 2)


def reference_grad(W, xs, ys, reg):
    onehot = np.eye(W.shape[0])
    e = np.exp(W[xs] - W[xs].max(axis=1, keepdims=True))
    probs = e / e.sum(axis=1, keepdims=True)
    return onehot[xs].T @ (probs - onehot[ys]) / len(xs) + 2 * reg * W / W.size


def random_problem(seed):
    rng = np.random.default_rng(seed)
    V = int(rng.integers(2, 9))
    B = int(rng.integers(1, 60))
    xs, ys = rng.integers(0, V, B), rng.integers(0, V, B)
    W = rng.normal(scale=rng.uniform(0.1, 3.0), size=(V, V))
    reg = float(rng.choice([0.0, 0.01, rng.uniform(0, 2)]))
    return W, xs, ys, reg


@pytest.fixture(scope="module")
def names():
    return bigram.names_data()


# ---- data and encoding ----

def test_shipped_names_are_the_documented_file(names):
    words, vocab, xs, ys, counts = names
    raw = (files("labcode") / "data" / "names.txt").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == "0a30b5557f192f32ab962680889aac5f6fda0f4cecf40a6d0b5694f58ea8cc4d"
    assert len(words) == 32033 and len(vocab) == 27 and len(xs) == 228146 and counts.sum() == 228146
    assert "MIT" in (files("labcode") / "data" / "README.md").read_text(encoding="utf-8")


def test_count_nll_on_names_matches_the_reference_figures(names):
    counts = names[4]
    assert bigram.count_nll(counts) == pytest.approx(2.454014, abs=5e-7)
    assert bigram.count_nll(counts, alpha=1.0) == pytest.approx(2.454577, abs=5e-7)


def test_pairs_of_aba():
    vocab = bigram.build_vocab(["aba"])
    assert vocab == {".": 0, "a": 1, "b": 2} and vocab.specials == (".",) and vocab.unknown is None
    xs, ys = bigram.encode_pairs(["aba"], vocab)
    assert xs.tolist() == [0, 1, 2, 1] and ys.tolist() == [1, 2, 1, 0]
    assert vocab.decode([0, 1, 2, 1, 0]) == ".aba."


def test_pipeline_on_an_unseen_word_list(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_bytes("\ufeffzoë\r\n  åsa \n\n\tñandú\nzoe\u0308\nqix\n".encode("utf-8"))
    words = bigram.load_words(path)
    assert words == ["zoë", "åsa", "ñandú", "zoë", "qix"]  # BOM, CRLF, blanks, tabs; NFC makes both zoë equal
    vocab = bigram.build_vocab(words)
    assert list(vocab)[:2] == [".", "a"] and list(vocab) == ["."] + sorted(set("".join(words)))
    xs, ys = bigram.encode_pairs(words, vocab)
    assert len(xs) == sum(len(w) + 1 for w in words)
    counts = bigram.count_matrix(xs, ys, len(vocab))
    W, losses = bigram.train(np.zeros((len(vocab),) * 2), counts, lr=5.0, steps=300)
    assert losses[-1] < losses[0] and losses[-1] >= bigram.count_nll(counts) - 1e-12
    out = bigram.sample_names(W, vocab, np.random.default_rng(1), n=5)
    assert all(set(name) <= set(vocab) - {"."} for name in out)


def test_split_words_shuffles_and_partitions_reproducibly(names):
    words = names[0]
    train, dev, test = bigram.split_words(words, np.random.default_rng(7))
    assert [len(train), len(dev)] == [round(0.8 * len(words)), round(0.9 * len(words)) - round(0.8 * len(words))]
    assert sorted(train + dev + test) == sorted(words)
    assert test != words[-len(test):] and train[:5] != words[:5]       # not cut by position
    assert bigram.split_words(words, np.random.default_rng(7)) == (train, dev, test)
    assert bigram.split_words(words, np.random.default_rng(8))[2] != test
    halves = bigram.split_words(list("abcd"), np.random.default_rng(0), fractions=[0.5, 0.5])
    assert [len(h) for h in halves] == [2, 2] and sorted(halves[0] + halves[1]) == list("abcd")


@pytest.mark.parametrize("fractions", [(1.0,), (0.5, 0.6), (0.9, 0.1, 0.0), (1.2, -0.2), [[0.5, 0.5]], "ab",
                                       ("a", "b"), (0.5, float("nan"))])
def test_split_words_refuses_bad_fractions(fractions):
    with pytest.raises(ValueError, match="fractions 必须是至少两个正数、加起来等于 1，收到"):
        bigram.split_words(list("abcdefghij"), np.random.default_rng(0), fractions)


def test_split_words_refuses_an_empty_part_a_seed_and_bad_words():
    with pytest.raises(ValueError, match="words 只有 3 个词.*会有空的一份"):
        bigram.split_words(["a", "b", "c"], np.random.default_rng(0))
    with pytest.raises(TypeError, match="rng 必须是 numpy.random.Generator.*收到 4（int）"):
        bigram.split_words(["a", "b"], 4, (0.5, 0.5))
    with pytest.raises(ValueError, match="words 至少要有一个词"):
        bigram.split_words([], np.random.default_rng(0))


# ---- the counting model ----

def test_count_probs_are_normalised_counts():
    counts = np.random.default_rng(0).integers(0, 20, (6, 6)) + np.eye(6, dtype=int)
    for alpha in (0.0, 0.5, 1.0):
        probs = bigram.count_probs(counts, alpha)
        np.testing.assert_allclose(probs, (counts + alpha) / (counts + alpha).sum(axis=1, keepdims=True), rtol=1e-15)
        np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-15)


@pytest.mark.parametrize("alpha", [0.0, 0.1, 1.0, 7.5])
def test_log_counts_reproduce_the_smoothed_count_model(alpha):
    counts = np.random.default_rng(1).integers(0, 5, (7, 7))
    counts[:, 0] += 1  # no empty row
    W = bigram.count_weights(counts, alpha)
    np.testing.assert_allclose(softmax(W), bigram.count_probs(counts, alpha), rtol=1e-13, atol=0)
    assert np.isneginf(W).any() == (alpha == 0 and (counts == 0).any())


def test_count_weights_reach_the_count_nll_through_both_paths():
    counts = np.array([[0, 3, 1], [2, 0, 2], [1, 1, 0]])
    xs, ys = np.nonzero(counts)
    xs, ys = np.repeat(xs, counts[xs, ys]), np.repeat(ys, counts[xs, ys])
    for alpha in (0.0, 1.0):
        W = bigram.count_weights(counts, alpha)
        loss_counts, _ = bigram.loss_and_grad_from_counts(W, counts)
        loss_pairs, _ = bigram.loss_and_grad(W, xs, ys)
        assert loss_counts == pytest.approx(bigram.count_nll(counts, alpha), abs=1e-14)
        assert loss_pairs == pytest.approx(loss_counts, abs=1e-14)


# ---- the two gradient paths ----

@pytest.mark.parametrize("seed", range(12))
def test_both_paths_match_an_independent_implementation(seed):
    W, xs, ys, reg = random_problem(seed)
    counts = bigram.count_matrix(xs, ys, W.shape[0])
    loss_pairs, grad_pairs = bigram.loss_and_grad(W, xs, ys, reg)
    loss_counts, grad_counts = bigram.loss_and_grad_from_counts(W, counts, reg)
    assert abs(loss_pairs - loss_counts) <= 1e-12 and np.abs(grad_pairs - grad_counts).max() <= 1e-12
    assert loss_pairs == pytest.approx(reference_loss(W, xs, ys, reg), abs=1e-12)
    np.testing.assert_allclose(grad_pairs, reference_grad(W, xs, ys, reg), atol=1e-12, rtol=0)


@pytest.mark.parametrize("reg", [0.0, 0.3])
def test_both_paths_match_central_differences(reg):
    W, xs, ys, _ = random_problem(100)
    counts = bigram.count_matrix(xs, ys, W.shape[0])
    numeric = numerical_grad(lambda w: reference_loss(w, xs, ys, reg), W)
    np.testing.assert_allclose(bigram.loss_and_grad(W, xs, ys, reg)[1], numeric, atol=1e-8)
    np.testing.assert_allclose(bigram.loss_and_grad_from_counts(W, counts, reg)[1], numeric, atol=1e-8)


def test_repeated_inputs_accumulate_into_one_row():
    W = np.zeros((3, 3))
    _, once = bigram.loss_and_grad(W, [1], [2])
    _, twice = bigram.loss_and_grad(W, [1, 1], [2, 2])
    np.testing.assert_allclose(once, twice)  # the mean divides by B = 2, the two rows add up
    assert np.count_nonzero(twice[[0, 2]]) == 0


def test_the_gradient_vanishes_at_the_normalised_counts():
    counts = np.array([[1, 2, 3], [4, 5, 6], [2, 2, 2]])
    _, grad = bigram.loss_and_grad_from_counts(np.log(counts), counts)
    assert np.abs(grad).max() < 1e-16


# ---- training and sampling ----

def test_training_decreases_the_loss_towards_the_count_optimum_without_passing_it(names):
    counts = names[4]
    optimum = bigram.count_nll(counts)
    prints = []
    W, losses = bigram.train(np.zeros((27, 27)), counts, lr=bigram.NAMES_LR, steps=2000,
                             callback=lambda step, loss: prints.append(step))
    assert len(losses) == 2001 and prints == list(range(2001))
    assert np.all(np.diff(losses) < 0)
    assert losses.min() >= optimum and losses[-1] - optimum < 2e-3
    _, early = bigram.train(np.zeros((27, 27)), counts, lr=bigram.NAMES_LR, steps=10**6, stop_below=optimum + 1e-2)
    assert early[-1] <= optimum + 1e-2 < early[-2]


def test_lr_limits_mark_where_gradient_descent_stops_being_stable(names):
    counts = np.array([[3, 1, 2], [1, 1, 5], [0, 0, 4]])
    limits = bigram.lr_limits(counts)
    assert limits[2] == np.inf                       # one cell only: the row has no curvature
    W, h = bigram.count_weights(counts + 1.0), 1e-5   # row 0 at the optimum of N + 1; Hessian by differences
    hess = np.zeros((3, 3))
    for k in range(3):
        step = np.zeros((3, 3))
        step[0, k] = h
        plus = bigram.loss_and_grad_from_counts(W + step, counts + 1.0)[1][0]
        minus = bigram.loss_and_grad_from_counts(W - step, counts + 1.0)[1][0]
        hess[k] = (plus - minus) / (2 * h)
    assert bigram.lr_limits(counts + 1.0)[0] == pytest.approx(2 / np.linalg.eigvalsh(hess).max(), rel=1e-6)
    edge = limits.min()
    near = np.log(counts + 1e-3) + np.random.default_rng(0).normal(scale=1e-3, size=(3, 3))
    for factor, settles in ((0.97, True), (1.03, False)):
        _, losses = bigram.train(near, counts, lr=factor * edge, steps=4000)
        assert bool(np.all(np.diff(losses[-200:]) <= 1e-15)) is settles, factor
    # names.txt: the row of a is the tightest, between the lr the chapter uses and the first unstable one
    edges = bigram.lr_limits(names[4])
    assert names[1]["a"] == edges.argmin() and 74 < edges.min() < 75


def test_train_prints_progress_only_when_asked(capsys):
    counts = np.array([[1, 3], [2, 2]])
    bigram.train(np.zeros((2, 2)), counts, lr=1.0, steps=4)
    assert capsys.readouterr().out == ""
    bigram.train(np.zeros((2, 2)), counts, lr=1.0, steps=4, print_every=2)
    assert capsys.readouterr().out.count("损失") == 3


def test_train_does_not_modify_its_input():
    W0 = np.ones((2, 2))
    bigram.train(W0, [[1, 3], [2, 2]], lr=1.0, steps=3)
    assert (W0 == 1).all()


def test_seeded_sampling_is_reproducible(names):
    _, vocab, _, _, counts = names
    W = bigram.count_weights(counts, 1.0)
    first = bigram.sample_names(W, vocab, np.random.default_rng(4), n=8, temperature=0.8)
    assert first == bigram.sample_names(W, vocab, np.random.default_rng(4), n=8, temperature=0.8)
    assert first != bigram.sample_names(W, vocab, np.random.default_rng(5), n=8, temperature=0.8)
    greedy = bigram.sample_names(W, vocab, np.random.default_rng(0), n=3, temperature=1e-3, max_len=10)
    assert len(set(greedy)) == 1  # a temperature near 0 always picks the most likely next letter


def test_sampling_stops_at_max_len():
    W = np.array([[-np.inf, 0.0], [-np.inf, 0.0]])  # after '.', always 'a'; after 'a', always 'a'
    assert bigram.sample_names(W, bigram.build_vocab(["a"]), np.random.default_rng(0), max_len=4) == ["aaaa"]


# ---- errors: the argument, the rule and the value ----

def test_loader_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="path.*nope.txt"):
        bigram.load_words(tmp_path / "nope.txt")
    (tmp_path / "empty.txt").write_text("\n  \n", encoding="utf-8")
    with pytest.raises(ValueError, match="至少要有一个词.*empty.txt"):
        bigram.load_words(tmp_path / "empty.txt")
    (tmp_path / "latin1.txt").write_bytes("zoë\n".encode("latin-1"))
    with pytest.raises(ValueError, match="UTF-8.*b'\\\\xeb'"):
        bigram.load_words(tmp_path / "latin1.txt")
    (tmp_path / "two.txt").write_text("anna\nmary ann\n", encoding="utf-8")
    with pytest.raises(ValueError, match="two.txt' 第 2 行.*空白.*'mary ann'"):
        bigram.load_words(tmp_path / "two.txt")
    (tmp_path / "dot.txt").write_text("a.b\n", encoding="utf-8")
    with pytest.raises(ValueError, match="第 1 行.*'\\.'.*保留.*'a.b'"):
        bigram.load_words(tmp_path / "dot.txt")


def test_vocabulary_and_encoding_errors():
    with pytest.raises(ValueError, match="words 至少要有一个词"):
        bigram.build_vocab([])
    with pytest.raises(TypeError, match="words 必须是由词组成的列表.*'anna'"):
        bigram.build_vocab("anna")
    with pytest.raises(ValueError, match="空字符串"):
        bigram.build_vocab(["ab", ""])
    with pytest.raises(TypeError, match=r"words\[1\].*3"):
        bigram.build_vocab(["ab", 3])
    vocab = bigram.build_vocab(["ab"])
    with pytest.raises(ValueError, match=r"收到 words\[0\] = 'abé'，含表外的字 \['é'\]"):
        bigram.encode_pairs(["abé"], vocab)
    with pytest.raises(TypeError, match="vocab 必须是编号 0 是 '.' 的 Vocab（用 build_vocab 建）"):
        bigram.encode_pairs(["ab"], {"a": 1})
    with pytest.raises(IndexError, match="ys.*< 3.*5"):
        bigram.count_matrix([0, 1], [1, 5], 3)
    with pytest.raises(ValueError, match="xs 与 ys 必须是等长"):
        bigram.count_matrix([0, 1], [1], 3)


def test_count_model_errors():
    with pytest.raises(ValueError, match=r"counts 的每个元素都必须是有限的非负数（次数不能为负），收到 -1（位置"):
        bigram.count_probs([[1, -1], [0, 2]])
    with pytest.raises(ValueError, match="counts 必须是 \\(V, V\\) 的方阵.*\\(2, 3\\)"):
        bigram.count_nll(np.ones((2, 3)))
    with pytest.raises(ValueError, match="编号为 \\[1\\] 的行.*alpha > 0"):
        bigram.count_probs([[1, 1], [0, 0]])
    with pytest.raises(ValueError, match="alpha 必须是非负的有限实数（平滑的伪计数 α），收到 -0.5"):
        bigram.count_weights([[1, 1], [1, 1]], alpha=-0.5)
    with pytest.raises(ValueError, match="全 0"):
        bigram.count_nll(np.zeros((2, 2)), alpha=1.0)
    with pytest.raises(ValueError, match="counts 必须是 \\(V, V\\) 的方阵.*\\(3,\\)"):
        bigram.lr_limits([1, 2, 3])


def test_network_errors():
    counts = np.array([[1, 3], [2, 2]])
    with pytest.raises(ValueError, match="W 必须是 \\(V, V\\) 的方阵.*\\(2, 3\\)"):
        bigram.loss_and_grad(np.zeros((2, 3)), [0], [1])
    with pytest.raises(ValueError, match="counts 的形状必须是 \\(3, 3\\)（与 W 相同），收到 \\(2, 2\\)"):
        bigram.loss_and_grad_from_counts(np.zeros((3, 3)), counts)
    with pytest.raises(ValueError, match="W 不能含 NaN"):
        bigram.train(np.full((2, 2), np.nan), counts, lr=1.0, steps=1)
    with pytest.raises(ValueError, match=r"W 的每个元素都必须是有限数（初值里不能有 -inf），收到 -inf（位置 \(0, 1"):
        bigram.train(bigram.count_weights(counts * [[1, 0], [1, 1]]), counts, lr=1.0, steps=1)
    for lr in (0, -1.0):
        with pytest.raises(ValueError, match=f"lr 必须是正的有限实数（学习率 η），收到 {lr}"):
            bigram.train(np.zeros((2, 2)), counts, lr=lr, steps=1)
    with pytest.raises(TypeError, match="lr 必须是正的有限实数（学习率 η），收到 '0.1'"):
        bigram.train(np.zeros((2, 2)), counts, lr="0.1", steps=1)
    with pytest.raises(ValueError, match="steps 必须是非负整数，收到 -3"):
        bigram.train(np.zeros((2, 2)), counts, lr=1.0, steps=-3)
    with pytest.raises(ValueError, match="reg 必须是非负的有限实数（正则化系数 λ），收到 -0.1"):
        bigram.loss_and_grad(np.zeros((2, 2)), [0], [1], reg=-0.1)
    with pytest.raises(TypeError, match=r"rng 必须是 numpy.random.Generator（如 .*），收到 42（int）"):
        bigram.init_weights(3, 42)


def test_sampling_errors():
    W, vocab = np.zeros((2, 2)), bigram.build_vocab(["a"])
    for t in (0, -1.0):
        with pytest.raises(ValueError, match=f"temperature 必须是正的有限实数.*{t}"):
            bigram.sample_names(W, vocab, np.random.default_rng(0), temperature=t)
    with pytest.raises(ValueError, match="vocab 的大小必须等于 W 的行数 2.*3"):
        bigram.sample_names(W, bigram.build_vocab(["ab"]), np.random.default_rng(0))


# ---- kernels, smoothing and the count optimum ----

@pytest.mark.parametrize("seed", range(5))
def test_kernels_equal_the_checked_functions(seed):
    W, xs, ys, reg = random_problem(seed)
    counts = bigram.count_matrix(xs, ys, len(W)).astype(float)
    for kernel, checked in ((bigram._pairs_step(W, xs, ys, reg), bigram.loss_and_grad(W, xs, ys, reg)),
                            (bigram._counts_step(W, counts, reg), bigram.loss_and_grad_from_counts(W, counts, reg))):
        assert kernel[0] == checked[0]
        np.testing.assert_array_equal(kernel[1], checked[1])


def test_counts_kernel_takes_minus_inf_weights_where_nothing_was_counted():
    counts = np.array([[1.0, 0.0], [2.0, 2.0]])
    loss, dW = bigram._counts_step(bigram.count_weights(counts), counts, 0.0)
    assert loss == pytest.approx(bigram.count_nll(counts), rel=1e-15) and np.isfinite(dW).all()


def test_smoothed_counts_and_the_count_optimum():
    counts = np.array([[1, 3], [0, 2]])
    np.testing.assert_array_equal(bigram.smoothed_counts(counts, 0.5), counts + 0.5)
    for alpha in (0.0, 0.5, 2.0):
        C = counts + alpha
        optimum = bigram.count_optimum(counts, alpha)
        assert optimum == bigram.count_nll(C)
        if alpha:  # W = ln(C + α) reaches the optimum; nothing does better
            assert optimum == pytest.approx(bigram.loss_and_grad_from_counts(np.log(C), C)[0], rel=1e-12)
        assert optimum <= bigram.loss_and_grad_from_counts(np.zeros((2, 2)), C)[0]
    with pytest.raises(ValueError, match="alpha 必须是非负的有限实数（平滑的伪计数 α），收到 -1"):
        bigram.smoothed_counts(counts, -1)
