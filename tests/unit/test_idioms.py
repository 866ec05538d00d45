"""labcode.idioms: the packaged idiom list, its measured figures, and the count model on a large vocabulary."""
import hashlib
import math
from collections import Counter
from importlib.resources import files

import numpy as np
import pytest

import figures
from labcode import bigram, idioms, probability, words

# Measured with an independent implementation (labcode/data/README.md).
SHA256 = "4f274c365c958c19ea362b26cd3c90ec0f3d252999d45a6dff9e61b2c28a13b4"
NLL_BY_ALPHA = {0.0: 3.853917, 0.01: 4.407893, 0.1: 5.510973, 1.0: 6.924617}


@pytest.fixture(scope="module")
def data():
    """The idioms, their vocabulary, pairs and counts, built once for the module."""
    return figures.idioms_data()


def test_packaged_file_is_the_documented_one():
    raw = (files("labcode") / "data" / idioms.IDIOMS_FILE).read_bytes()
    assert hashlib.sha256(raw).hexdigest() == SHA256
    readme = (files("labcode") / "data" / "README.md").read_text(encoding="utf-8")
    assert SHA256 in readme and "Copyright (c) 2018 PWXCOO" in readme and "Copyright (c) Chen Mo" in readme


def test_the_measured_figures(data):
    words_, vocab, xs, ys, C = data
    assert len(words_) == 29_430 and len(set(words_)) == 29_430
    assert {len(w) for w in words_} == {4}
    assert len(vocab) == 4_800 and len(set("".join(words_))) == 4_799
    assert len(xs) == 147_150 == C.sum()
    for alpha, expected in NLL_BY_ALPHA.items():
        assert round(idioms.pair_nll(C, xs, ys, alpha), 6) == pytest.approx(expected, abs=1e-6), alpha


def test_uniform_model_scores_ln_v(data):
    _, vocab, xs, ys, _ = data
    V = len(vocab)
    no_counts = np.zeros((V, V), dtype=np.int8)      # every candidate gets the pseudo-count only
    assert idioms.pair_nll(no_counts, xs, ys, alpha=1.0) == pytest.approx(math.log(V), rel=1e-12)
    assert math.log(V) == pytest.approx(8.476, abs=5e-4)


def test_pair_nll_on_the_training_pairs_is_count_nll(data):
    """The same number as bigram.count_nll, on a capped vocabulary small enough for its dense matrices."""
    words_ = data[0]
    _, vocab, xs, ys, C = bigram.bigram_data(words_, idioms.capped_vocab(words_, 300))
    for alpha in (0.0, 0.5):
        assert idioms.pair_nll(C, xs, ys, alpha) == pytest.approx(bigram.count_nll(C, alpha), rel=1e-12)


def test_pair_nll_of_an_unseen_pair_is_infinite_without_smoothing():
    C = np.array([[0, 2], [1, 1]])
    with np.errstate(all="raise"):  # no warning either
        assert idioms.pair_nll(C, [0], [0]) == math.inf
    assert math.isfinite(idioms.pair_nll(C, [0], [0], alpha=0.5))


def test_capped_vocab_keeps_the_most_frequent_characters(data):
    words_ = data[0]
    vocab = idioms.capped_vocab(words_, 50)
    assert len(vocab) == 50 and list(vocab)[:2] == [".", idioms.UNKNOWN] and list(vocab.values()) == list(range(50))
    kept = list(vocab)[2:]
    assert kept == sorted(kept)
    counts = Counter("".join(words_))
    rarest_kept = min(counts[ch] for ch in kept)
    assert all(counts[ch] <= rarest_kept for ch in counts if ch not in vocab)
    assert "一" in vocab and "不" in vocab


def test_capped_vocab_breaks_ties_by_code_point():
    assert idioms.capped_vocab(["ba", "ab", "c"], 4) == {".": 0, idioms.UNKNOWN: 1, "a": 2, "b": 3}


def test_a_capped_vocabulary_encodes_unknown_characters_as_id_1():
    vocab = idioms.capped_vocab(["aab", "ac"], 3)
    assert vocab.specials == (".", idioms.UNKNOWN) and vocab.unknown == idioms.UNKNOWN
    xs, ys = words.encode_pairs(["abc"], vocab)
    assert xs.tolist() == [0, 2, 1, 1] and ys.tolist() == [2, 1, 1, 0]
    assert vocab.encode("abc").tolist() == [2, 1, 1] and vocab.decode([0, 2, 1, 0]) == ".a□."
    # With every character in the vocabulary the ids are the full vocabulary's, shifted past □.
    capped = idioms.capped_vocab(["ab", "ba"], 4)
    full = words.build_vocab(["ab", "ba"])
    assert (words.encode_pairs(["ab", "ba"], capped)[0] - 1).clip(0).tolist() == \
        words.encode_pairs(["ab", "ba"], full)[0].tolist()


def test_next_probs_is_the_smoothed_row_and_follows_the_temperature():
    C = np.array([[0, 3, 1], [2, 0, 5], [1, 1, 0]])
    for alpha in (0.0, 0.5):
        np.testing.assert_allclose(idioms.next_probs(C, 1, alpha), bigram.count_probs(C, alpha)[1])
    W = bigram.count_weights(C, 0.5)
    np.testing.assert_allclose(idioms.next_probs(C, 2, 0.5, temperature=0.3),
                               probability.softmax(W[2], temperature=0.3))


def test_top_next_lists_the_largest_probabilities_in_order(data):
    _, vocab, _, _, C = data
    table = idioms.top_next(C, vocab, "不", k=6)
    i = vocab["不"]
    probs = C[i] / C[i].sum()
    assert [p for _, _, p in table] == sorted((p for _, _, p in table), reverse=True)
    assert table[0][2] == pytest.approx(probs.max())
    for ch, count, p in table:
        assert count == C[i, vocab[ch]] and p == pytest.approx(probs[vocab[ch]])
    assert min(p for _, _, p in table) >= np.sort(probs)[-6]


def test_samples_are_reproducible_and_use_only_seen_pairs(data):
    words_, vocab, _, _, C = data
    first = idioms.sample_from_counts(C, vocab, np.random.default_rng(3), n=40)
    assert first == idioms.sample_from_counts(C, vocab, np.random.default_rng(3), n=40)
    for word in first:
        ids = [0, *vocab.encode(word), 0]
        assert all(C[a, b] > 0 for a, b in zip(ids[:-1], ids[1:], strict=False)), word


def test_a_cold_temperature_follows_the_most_likely_path():
    C = np.array([[0, 5, 1], [2, 0, 3], [4, 1, 0]])     # '.' → a (5 > 1), a → b (3 > 2), b → '.' (4 > 1)
    vocab = words.build_vocab(["ab"])
    assert idioms.sample_from_counts(C, vocab, np.random.default_rng(0), n=5, temperature=0.01) == ["ab"] * 5


def test_max_len_cuts_a_word():
    C = np.array([[0, 1], [0, 1]])                       # a is always followed by a
    assert idioms.sample_from_counts(C, words.build_vocab(["a"]), np.random.default_rng(0), max_len=3) == ["aaa"]


A, A_B = words.build_vocab(["a"]), words.build_vocab(["ab"])


@pytest.mark.parametrize("call, error, message", [
    (lambda: idioms.capped_vocab(["ab"], 2), ValueError, "size 必须是不小于 3 的整数"),
    (lambda: idioms.capped_vocab(["ab"], True), TypeError, "size 必须是不小于 3 的整数"),
    (lambda: idioms.capped_vocab(["a□"], 5), ValueError, "words 里不能有 '□'.*words\\[0\\]"),
    (lambda: idioms.capped_vocab("ab", 5), TypeError, "words 必须是由词组成的列表"),
    (lambda: idioms.pair_nll([[1, 2], [3, 4]], [0, 1], [1]), ValueError, "xs 与 ys 必须是等长"),
    (lambda: idioms.pair_nll([[1, 2], [3, 4]], [0], [2]), IndexError, "ys 的每个编号都必须 < 2"),
    (lambda: idioms.pair_nll([[1, 2], [3, 4]], [0], [1], alpha=-1), ValueError, "alpha 必须是非负的有限实数"),
    (lambda: idioms.pair_nll([[1, 2], [3, 4]], [0], [1], alpha=float("nan")), ValueError, "alpha 必须是非负"),
    (lambda: idioms.pair_nll([[0, 0], [3, 4]], [0], [1]), ValueError, r"counts 有的行全是 0（编号为 \[0\] 的行）"),
    (lambda: idioms.pair_nll([[1, -2], [3, 4]], [0], [1]), ValueError, "counts 的每个元素都必须是有限的非负数"),
    (lambda: idioms.pair_nll([[1, 2, 3]], [0], [1]), ValueError, "counts 必须是 \\(V, V\\) 的方阵"),
    (lambda: idioms.pair_nll([["a", "b"], ["c", "d"]], [0], [1]), TypeError, "counts 必须是实数数组"),
    (lambda: idioms.next_probs([[1, 2], [3, 4]], 2), ValueError, r"prev 必须是 \[0, 1\] 内的整数.*收到 2"),
    (lambda: idioms.next_probs([[1, 2], [3, 4]], [0, 1]), TypeError, r"prev 必须是 \[0, 1\] 内的整数"),
    (lambda: idioms.next_probs([[1, 2], [3, 4]], 0, temperature=0), ValueError, "temperature"),
    (lambda: idioms.top_next([[1, 2], [3, 4]], A, "b"), ValueError, "prev 必须是词表里的一个字"),
    (lambda: idioms.top_next([[1, 2], [3, 4]], A, "a", k=3), ValueError, r"k 必须是 \[1, 2\] 内的整数"),
    (lambda: idioms.top_next([[1, 2], [3, 4]], A_B, "a"), ValueError, "vocab 的大小"),
    (lambda: idioms.sample_from_counts([[0, 1], [1, 0]], A, 4), TypeError, "rng 必须是"),
    (lambda: idioms.sample_from_counts([[0, 1], [1, 0]], A, np.random.default_rng(0), n=-1),
     ValueError, "n 必须是非负整数"),
    (lambda: idioms.sample_from_counts([[0, 1], [1, 0]], A, np.random.default_rng(0), max_len=0),
     ValueError, "max_len 必须是正整数"),
])
def test_bad_arguments_get_a_chinese_error(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_packaged_list_is_clean_and_cleaning_it_again_changes_nothing(data):
    import clean_idioms
    words_ = data[0]
    wrong = set(clean_idioms.TRADITIONAL) | set(clean_idioms.MISREAD_CHARS)
    assert not wrong & set("".join(words_)) and not set(clean_idioms.MISREAD_LINES) & set(words_)
    assert clean_idioms.clean(words_) == (words_, 0, 0)
    dirty = ["冯髈弹铗", "一壸千金", "一壶千金", "不習水土"]        # a misread line, a misread char making a duplicate
    assert clean_idioms.clean(dirty) == (["一壶千金", "不习水土", "冯谖弹铗"], 3, 1)


def test_interpolation_against_a_loop_over_the_pairs():
    C = np.array([[0, 3, 1], [2, 0, 0], [0, 0, 0]])          # the row of id 2 has no counts: unigram only
    xs, ys, gamma = [0, 0, 1, 2, 1], [1, 2, 0, 1, 2], 0.3
    N, V = C.sum(), 3
    uni = [(sum(C[i][y] for i in range(V)) + 1) / (N + V) for y in range(V)]
    probs = []
    for x, y in zip(xs, ys, strict=True):
        n = sum(C[x])
        probs.append(gamma * C[x][y] / n + (1 - gamma) * uni[y] if n else uni[y])
    assert idioms.interpolated_nll(C, xs, ys, gamma) == pytest.approx(-sum(map(math.log, probs)) / len(probs))
    for x in range(V):
        row = idioms.interpolated_probs(C, x, gamma)
        assert row.sum() == pytest.approx(1.0) and (row > 0).all()
    assert idioms.interpolated_probs(C, 2, gamma).tolist() == pytest.approx(uni)


def test_interpolation_at_the_ends_of_gamma(data):
    _, _, xs, ys, C = data
    assert idioms.interpolated_nll(C, xs, ys, 1.0) == pytest.approx(idioms.pair_nll(C, xs, ys), rel=1e-12)
    uni = (C.sum(axis=0) + 1) / (C.sum() + len(C))
    assert idioms.interpolated_nll(C, xs, ys, 0.0) == pytest.approx(-np.mean(np.log(uni[ys])), rel=1e-12)


@pytest.mark.parametrize("gamma", [-0.1, 1.5, float("nan")])
def test_interpolation_weight_outside_0_1_is_refused(gamma):
    with pytest.raises(ValueError, match=r"^gamma 必须是 \[0, 1\] 内的有限实数（插值权重 γ），收到 "):
        idioms.interpolated_nll([[1, 1], [1, 1]], [0], [1], gamma)
    with pytest.raises(ValueError, match=r"^gamma 必须是 \[0, 1\] 内的有限实数"):
        idioms.interpolated_probs([[1, 1], [1, 1]], 0, gamma)
