"""Chapter 4: what the stored outputs print and glue, on the shipped names (the worked figures: tests/figures.py)."""
import ast
import json
import re
import timeit
from collections import Counter

import numpy as np
import pytest

import labcode
from figures import names_data, trained_network
from labcode import bigram
from notebook_outputs import BOOK

NOTEBOOK = "04_bigram.ipynb"
LR = 70.0


@pytest.fixture(scope="module")
def notebook():
    return json.loads((BOOK / NOTEBOOK).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def glued(notebook):
    """Every value the chapter glues into its prose, by name (as the Python value it was glued with)."""
    values = {}
    for cell in notebook["cells"]:
        for out in cell.get("outputs", []):
            name = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if name is not None:
                values[name] = ast.literal_eval(out["data"]["application/papermill.record/text/plain"])
    return values


WORDS, VOCAB, XS, YS, C = names_data()
N, V = len(XS), len(VOCAB)
W_NET, LOSSES = trained_network(LR)
NLL_0 = bigram.count_nll(C)


def printed(notebook):
    return "".join("".join(o.get("text", "")) for c in notebook["cells"] for o in c.get("outputs", []))


def test_chapter4_shows_the_pairs_of_aba(notebook):
    assert "xs = [0, 1, 2, 1]  ys = [1, 2, 1, 0]" in printed(notebook)


def test_chapter4_describes_the_file_as_two_sorted_lists_with_repeats(glued):
    times = np.unique(WORDS, return_counts=True)[1]
    first_seen = {}
    for i, w in enumerate(WORDS):
        first_seen.setdefault(w, i)
    second = next(i for i, w in enumerate(WORDS) if first_seen[w] < i)   # the first repeated line
    assert glued["n_distinct"] == f"{len(set(WORDS)):,}" and len(set(WORDS)) < len(WORDS)
    assert glued["n_twice"] == f"{np.sum(times == 2):,}" and glued["max_times"] == times.max() == 2
    assert glued["second_list"] == f"{second + 1:,}"
    assert WORDS[second:second + 3] == ["liam", "noah", "william"]   # the second list starts again at the top


def test_the_timing_claim_holds_here(notebook, glued):
    claim = re.search(r"计数写法每一步至少快 ([\d,]+) 倍", printed(notebook))
    assert claim and glued["speedup"] == claim.group(1) and glued["speedup"] == "1,000"
    per_pair = min(timeit.repeat(lambda: bigram.loss_and_grad(W_NET, XS, YS), number=1, repeat=2))
    by_counts = min(timeit.repeat(lambda: bigram.loss_and_grad_from_counts(W_NET, C), number=50, repeat=2)) / 50
    assert per_pair / by_counts >= 1000


def test_scaled_scores_underflow_a_handful_of_targets_and_the_mean_is_infinite(notebook, glued):
    picked = labcode.softmax(100 * W_NET[XS])[np.arange(N), YS]
    n_zero = int(np.sum(picked == 0))
    assert glued["n_underflow"] == n_zero and 0 < n_zero < N / 1000   # a handful, yet one is enough
    assert f"放大 100 倍：概率为 0 的目标 {n_zero} 个，手写 inf" in printed(notebook)
    assert np.isfinite(labcode.cross_entropy(100 * W_NET[XS], YS))


def test_learning_rate_edges(glued):
    edges = bigram.lr_limits(C)
    safe = 4 * N / C.sum(axis=1).max()
    assert glued["lr_edge"] == pytest.approx(edges.min(), rel=1e-12)
    assert glued["lr_safe"] == pytest.approx(safe, rel=1e-12)
    assert safe < LR < edges.min()            # 70 is outside the global guarantee, inside the local edge
    _, trial = bigram.train(np.zeros((V, V)), C, lr=75.0, steps=3000)
    ups = np.diff(trial) > 0
    assert glued["first_up_75"] == np.argmax(ups) + 1 > 100   # stable at first, unstable near the optimum


def test_smoothing_is_a_penalty_of_minus_log_p_on_every_cell():
    W = np.random.default_rng(0).standard_normal((V, V))
    alpha = 1.7
    smoothed, _ = bigram.loss_and_grad_from_counts(W, C + alpha)
    plain, _ = bigram.loss_and_grad_from_counts(W, C)
    penalty = alpha / N * -labcode.log_softmax(W).sum()
    assert smoothed == pytest.approx(N / (N + alpha * V**2) * (plain + penalty), rel=1e-13)
    shifted, _ = bigram.loss_and_grad_from_counts(W + np.arange(V)[:, None], C + alpha)
    assert shifted == pytest.approx(smoothed, rel=1e-13)       # a function of the probabilities only


def test_regularisation_against_smoothing_at_matched_strength(glued):
    alphas = np.geomspace(0.01, 1000, 241)
    W_reg, _ = bigram.train(np.zeros((V, V)), C, LR, 20_000, reg=0.01)
    P_reg = labcode.softmax(W_reg)
    gaps = [np.abs(bigram.count_probs(C, a) - P_reg).max() for a in alphas]
    matched = alphas[int(np.argmin(gaps))]
    assert glued["alpha_match"] == pytest.approx(matched, rel=1e-12) and 1.5 < matched < 2.5
    q = VOCAB["q"]
    smooth, reg = bigram.count_probs(C, matched)[q], P_reg[q]
    u, dot, a, unseen = VOCAB["u"], VOCAB["."], VOCAB["a"], C[q] == 0
    assert glued["q_u_reg"] == pytest.approx(reg[u], rel=1e-9) and glued["q_u_smooth"] == pytest.approx(smooth[u])
    assert reg[u] > smooth[u]                                      # the comparison reverses at matched strength
    assert reg[dot] < smooth[dot] and reg[a] < smooth[a]           # the middle cells are pulled down
    assert reg[unseen].min() > smooth[unseen].max()                # unseen letters get more
    assert glued["q_unseen_reg"] == pytest.approx(reg[unseen].max(), rel=1e-9)


def test_alpha_is_chosen_on_a_shuffled_split_and_the_ordered_split_measures_a_shift(glued):
    train, dev, test = bigram.split_words(WORDS, np.random.default_rng(2026))
    C_train = bigram.count_matrix(*bigram.encode_pairs(train, VOCAB), V)
    dev_pairs, test_pairs = bigram.encode_pairs(dev, VOCAB), bigram.encode_pairs(test, VOCAB)
    grid = [0.0, 0.1, 1.0, 10.0]
    dev_loss = {a: labcode.cross_entropy(bigram.count_weights(C_train, a)[dev_pairs[0]], dev_pairs[1]) for a in grid}
    best = min(dev_loss, key=dev_loss.get)
    test_loss = labcode.cross_entropy(bigram.count_weights(C_train, best)[test_pairs[0]], test_pairs[1])
    cut = int(0.9 * len(WORDS))
    C_head = bigram.count_matrix(*bigram.encode_pairs(WORDS[:cut], VOCAB), V)
    tail = bigram.encode_pairs(WORDS[cut:], VOCAB)
    tail_loss = min(labcode.cross_entropy(bigram.count_weights(C_head, a)[tail[0]], tail[1]) for a in grid[1:])
    assert np.isinf(dev_loss[0.0])
    assert glued["split_alpha"] == f"{best:g}" and glued["split_test"] == pytest.approx(test_loss, rel=1e-12)
    assert glued["tail_loss"] == pytest.approx(tail_loss, rel=1e-12)
    assert tail_loss - test_loss > 0.05                            # the ordered tail is another distribution
    margin = sorted(dev_loss.values())[1] - dev_loss[best]
    assert glued["split_margin"] == pytest.approx(margin, rel=1e-9)
    assert margin < abs(test_loss - dev_loss[best])                # smaller than dev-to-test noise


def test_own_word_list_needs_its_own_learning_rate(glued):
    my_words = ["zoé", "chloé", "björn", "rené", "zoë", "noé", "löwe", "andré"]
    my_vocab = bigram.build_vocab(my_words)
    my_C = bigram.count_matrix(*bigram.encode_pairs(my_words, my_vocab), len(my_vocab))
    edge = bigram.lr_limits(my_C).min()
    goal = bigram.count_nll(my_C) + 1e-3
    _, at_70 = bigram.train(np.zeros(my_C.shape), my_C, lr=LR, steps=20_000, stop_below=goal)
    _, below = bigram.train(np.zeros(my_C.shape), my_C, lr=float(np.floor(0.9 * edge)), steps=20_000, stop_below=goal)
    assert glued["my_edge"] == pytest.approx(edge, rel=1e-12) and edge < LR
    assert glued["my_ups_70"] == f"{np.mean(np.diff(at_70) > 0):.0%}" and np.mean(np.diff(at_70) > 0) > 0.4
    assert at_70[-1] > goal and below[-1] <= goal and not (np.diff(below) > 0).any()
    assert glued["my_steps_ok"] == len(below) - 1


def test_chapter4_uses_the_book_symbols_in_its_prose(notebook):
    prose = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    assert not re.search(r"N_\{ij\}|\(N \+ \\alpha\)|\\lambda_\{\\max\}|温度 \$T\$|第 \$[irxk]\$ 行|步长", prose)
    assert not re.search(r"自己的词表|词表文件|一份词表|小词表|名字的词表", prose)   # 词表 is the vocabulary only


def test_the_symbol_check_can_fail():
    bad = r"计数矩阵 $N_{ij}$，$\lambda_{\max}$，第 $i$ 行"
    assert re.search(r"N_\{ij\}|\(N \+ \\alpha\)|\\lambda_\{\\max\}|温度 \$T\$|第 \$[irxk]\$ 行|步长", bad)


def test_chapter4_stores_both_figures_with_captions_and_alt_text(notebook):
    figures = {}
    for cell in notebook["cells"]:
        meta = cell.get("metadata", {}).get("mystnb", {})
        if "figure" in meta:
            pngs = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
            alt = meta.get("image", {}).get("alt", "")
            figures[meta["figure"]["name"]] = (len(pngs), meta["figure"]["caption"], alt)
    assert set(figures) >= {"fig-ch4-counts", "fig-ch4-loss"}
    for name, (n_png, caption, alt) in figures.items():
        assert n_png == 1 and len(caption) > 20 and len(alt) > 20, name


def test_chapter4_states_where_the_data_comes_from_and_its_licences(notebook):
    prose = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    for fact in ["社会保障署", "公有领域", "makemore", "MIT", "Andrej Karpathy", "labcode/data"]:
        assert fact in prose, fact


def test_the_readers_training_loop_reaches_the_chapters_numbers(notebook):
    """The reference loop, per example for three steps and from the counts for 12,000, prints bigram.train's losses."""
    _, first = bigram.train(np.zeros(C.shape), C, lr=LR, steps=3)
    text = printed(notebook)
    assert "逐条写法，前三步： " + " ".join(f"{v:.6f}" for v in first[:3]) in text
    assert f"计数写法，12,000 步之后：{LOSSES[-1]:.6f}" in text


def trigrams(words):
    """(a, b, c) for every trigram of the names padded as “..emma.”, as three arrays."""
    triples = [t for w in words for t in (lambda s: zip(s[:-2], s[1:-1], s[2:], strict=True))(
        [0, 0] + [VOCAB[ch] for ch in w] + [0])]
    return tuple(np.array(column) for column in zip(*triples, strict=True))


def trigram_counts(abc):
    """C3[a, b, c] counted with a Counter (another route than the chapter's np.add.at)."""
    C3 = np.zeros((V, V, V))
    for (a, b, c), k in Counter(zip(*abc, strict=True)).items():
        C3[a, b, c] = k
    return C3


def trigram_nll(C3, alpha, abc):
    """Mean -ln p over the trigrams abc, one term per occurrence."""
    a, b, c = abc
    rows = C3[a, b] + alpha                                           # (n, V): the context of each trigram
    return -float(np.mean(np.log(rows[np.arange(len(c)), c] / rows.sum(axis=1))))


def test_the_trigram_exercise_computes_its_numbers(notebook, glued):
    train, dev, _ = bigram.split_words(WORDS, np.random.default_rng(2026))
    every, in_train, in_dev = trigrams(WORDS), trigrams(train), trigrams(dev)
    C3 = trigram_counts(every)
    assert np.array_equal(C3.sum(axis=0), C)                      # the last two letters of a trigram are a pair
    tri_0, tri_1 = trigram_nll(C3, 0.0, every), trigram_nll(C3, 1.0, every)
    text = printed(notebook)
    assert f"alpha = 0：trigram {tri_0:.6f}（困惑度 {np.exp(tri_0):.2f}），bigram {NLL_0:.6f}" in text
    assert f"alpha = 1：trigram {tri_1:.6f}" in text
    assert glued["tri_nll_0"] == pytest.approx(tri_0, rel=1e-12)
    assert glued["tri_gain"] == pytest.approx(NLL_0 - tri_0, rel=1e-9) and NLL_0 - tri_0 > 0.2
    assert glued["tri_ppl_drop"] == pytest.approx(np.exp(NLL_0) - np.exp(tri_0), rel=1e-9)
    assert glued["tri_cells"] == f"{V ** 3:,}" and glued["bi_cells"] == f"{V ** 2:,}"
    assert glued["tri_zero_share"] == pytest.approx(np.mean(C3 == 0), rel=1e-12)
    C3_train, C_train = trigram_counts(in_train), bigram.count_matrix(*bigram.encode_pairs(train, VOCAB), V)
    tri_dev = {a: trigram_nll(C3_train, a, in_dev) for a in (0.1, 1.0, 10.0)}
    a_tri = min(tri_dev, key=tri_dev.get)
    dev_xs, dev_ys = bigram.encode_pairs(dev, VOCAB)
    bi_dev = {a: labcode.cross_entropy(bigram.count_weights(C_train, a)[dev_xs], dev_ys) for a in (0.1, 1.0, 10.0)}
    a_bi = min(bi_dev, key=bi_dev.get)
    gain_dev = bi_dev[a_bi] - tri_dev[a_tri]
    assert glued["tri_dev_gain"] == pytest.approx(gain_dev, rel=1e-9)
    assert 0 < gain_dev < NLL_0 - tri_0                             # still better on held-out names, by less
    tri_gap = tri_dev[a_tri] - trigram_nll(C3_train, a_tri, in_train)
    bi_gap = bi_dev[a_bi] - bigram.count_nll(C_train, a_bi)
    assert glued["tri_gap"] == pytest.approx(tri_gap, rel=1e-9) and glued["bi_gap"] == pytest.approx(bi_gap, rel=1e-9)
    assert tri_gap > 5 * bi_gap                                      # more cells, fewer data per cell
