"""Chapter 4: what the stored outputs print and glue, on the shipped names (the worked figures: tests/figures.py)."""
import json
import re
from collections import Counter

import numpy as np
import pytest

import labcode
from figures import names_data, trained_network
from labcode import bigram, plots
from notebook_outputs import BOOK, GLUED_REL, glued_values

NOTEBOOK = "04_bigram.ipynb"
LR = bigram.NAMES_LR


@pytest.fixture(scope="module")
def notebook():
    return json.loads((BOOK / NOTEBOOK).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def glued(notebook):
    """Every value the chapter glues into its prose, by name (as the Python value it was glued with)."""
    return glued_values(notebook)


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


def test_the_timing_cell_prints_operation_counts_and_a_verdict_no_load_can_flip(notebook):
    """No measured time reaches a stored output (the kit compares them byte for byte): the cell prints what explains
    the speed-up, and a verdict with a hundredfold margin under the ratio of operation counts."""
    text = printed(notebook)
    assert f"逐条写法 {N * V:,} 个，计数写法 {V * V:,} 个，相差约 {N / V:,.0f} 倍" in text
    assert "计数写法快 100 倍以上： True" in text and N / V > 50 * 100
    assert not re.search(r"至少快|秒|\d\s*(?:ms|s)\b", text.split("计数写法快 100 倍以上")[0][-200:])


def test_scaled_scores_underflow_a_handful_of_targets_and_the_mean_is_infinite(notebook, glued):
    picked = labcode.softmax(100 * W_NET[XS])[np.arange(N), YS]
    n_zero = int(np.sum(picked == 0))
    assert glued["n_underflow"] == n_zero and 0 < n_zero < N / 1000   # a handful, yet one is enough
    assert f"放大 100 倍：概率为 0 的目标 {n_zero} 个\n  手写 inf" in printed(notebook)
    assert np.isfinite(labcode.cross_entropy(100 * W_NET[XS], YS))


def test_the_chapter_trains_with_the_learning_rate_labcode_names(notebook):
    """bigram.NAMES_LR (the trainer's default, the practice check's case) is the rate the chapter's loop uses."""
    code = [("".join(c["source"])) for c in notebook["cells"] if c["cell_type"] == "code"]
    assert sum(f"lr = {LR}\n" in cell for cell in code) == 1
    assert sum(f"lr={LR}, steps=1000)   # 训练器默认的学习率与步数" in cell for cell in code) == 1


def test_learning_rate_edges(glued):
    edges = bigram.lr_limits(C)
    safe = 4 * N / C.sum(axis=1).max()
    assert glued["lr_edge"] == pytest.approx(edges.min(), rel=GLUED_REL)
    assert glued["lr_safe"] == pytest.approx(safe, rel=GLUED_REL)
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
    assert glued["alpha_match"] == pytest.approx(matched, rel=GLUED_REL) and 1.5 < matched < 2.5
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
    assert glued["split_alpha"] == f"{best:g}" and glued["split_test"] == pytest.approx(test_loss, rel=GLUED_REL)
    assert glued["tail_loss"] == pytest.approx(tail_loss, rel=GLUED_REL)
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
    assert glued["my_edge"] == pytest.approx(edge, rel=GLUED_REL) and edge < LR
    assert glued["my_ups_70"] == f"{np.mean(np.diff(at_70) > 0):.0%}" and np.mean(np.diff(at_70) > 0) > 0.4
    assert at_70[-1] > goal and below[-1] <= goal and not (np.diff(below) > 0).any()
    assert glued["my_steps_ok"] == len(below) - 1


# Symbols table A.1 gives another meaning: s (sequence index), q (target distribution), v, a real t, trigram a b c.
OTHER_MEANINGS = (r"N_\{ij\}|\(N \+ \\alpha\)|\\lambda_\{\\max\}|温度 \$T\$|第 \$[irxk]\$ 行|步长"
                  r"|\$[sqv]\$|[sqv]_[jk]\b|\\ln t\b|t \\ln t|_\{abc\}")


def test_chapter4_uses_the_book_symbols_in_its_prose(notebook):
    prose = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    assert not re.search(OTHER_MEANINGS, prose)
    assert not re.search(r"自己的词表|词表文件|一份词表|小词表|名字的词表", prose)   # 词表 is the vocabulary only


@pytest.mark.parametrize("bad", [r"计数矩阵 $N_{ij}$", r"$\lambda_{\max}$", "第 $i$ 行", "得到 $s$，",
                                 r"分布 $q$，$\ln q_j$", r"方向 $v$", r"用 $\ln t \le t - 1$", r"$C^{(3)}_{abc}$"])
def test_the_symbol_check_can_fail(bad):
    assert re.search(OTHER_MEANINGS, bad)


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


def _loss_figure(notebook):
    return next(c["metadata"]["mystnb"] for c in notebook["cells"]
                if c["metadata"].get("mystnb", {}).get("figure", {}).get("name") == "fig-ch4-loss")


def test_the_loss_figures_alt_text_quotes_the_training_run(notebook):
    """The alt text's start (about 3.3), optimum (2.4540) and starting gap (0.84: ln 27 − 2.454014, not 0.85) are
    the run's own numbers, rounded as written."""
    alt = _loss_figure(notebook)["image"]["alt"]
    start, optimum, gap = re.search(r"从约 (\d\.\d) .*虚线 (\d\.\d{4}) .*从约 (\d\.\d\d) 单调下降", alt).groups()
    assert (start, optimum, gap) == (f"{LOSSES[0]:.1f}", f"{NLL_0:.4f}", f"{LOSSES[0] - NLL_0:.2f}"), alt


def test_the_trainer_bullets_quote_the_1000_step_gaps_as_decimals(notebook, glued):
    """The trainer's bullets quote the gap to the count optimum after 1000 steps at η = 70 and 80 as plain decimals
    (“0.00089”), the chapter's one style for small numbers in prose (no “8.9e-04”, no Unicode superscripts, which
    the handout's fonts lack)."""
    prose = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    for lr, name in [(70.0, "gap_1000_70"), (80.0, "gap_1000_80")]:
        _, run = bigram.train(np.zeros(C.shape), C, lr=lr, steps=1000)
        assert glued[name] == pytest.approx(run[-1] - NLL_0, rel=1e-9)
        assert f"{{glue:text}}`{name}:.2g`" in prose
    assert float(f"{glued['gap_1000_70']:.2g}") > 1e-4    # .2g writes a decimal, not 8.9e-05


def test_the_loss_figures_caption_describes_its_axes():
    """The caption says the upper panel's step axis turns logarithmic after 1 (the kink there) and the lower
    panel's is linear with a logarithmic gap axis: the figure must draw them so."""
    upper, lower = plots.loss_curve(LOSSES, NLL_0).axes
    assert upper.get_xscale() == "symlog" and upper.xaxis.get_transform().linthresh == 1
    assert (lower.get_xscale(), lower.get_yscale()) == ("linear", "log")
    assert upper.get_ylabel() == "平均损失（奈特）"


def test_the_gap_about_halves_when_the_steps_double(glued):
    """The prose after figure 4.2 quotes the gap at 2,000, 4,000 and 8,000 steps (as decimals with five places) to
    show the 1/steps tail: each doubling divides it by 1.7 to 2.3."""
    gaps = [glued[f"gap_{k}"] for k in (2000, 4000, 8000)]
    assert gaps == pytest.approx([LOSSES[k] - NLL_0 for k in (2000, 4000, 8000)], rel=1e-6)
    assert all(1e-4 <= g < 1e-3 for g in gaps), gaps   # two significant figures at :.5f
    assert all(1.7 < a / b < 2.3 for a, b in zip(gaps[:-1], gaps[1:], strict=True)), gaps



def test_the_tail_formula_predicts_the_gap_from_the_zero_count_cells(glued):
    """The deep box's gap ≈ Σ_i V₊,i (V − V₊,i) / V ÷ (η × steps), summed here over the zero-count cells one by
    one: each of row i's V − V₊,i zero cells keeps about N V₊,i / (η n_i V steps) of probability, weighted n_i / N."""
    n = C.sum(axis=1)
    per_zero_cell = [N * np.count_nonzero(C[i]) / (LR * n[i] * V * 12_000) for i in range(V) for j in range(V)
                     if C[i, j] == 0]
    weights = [n[i] / N for i in range(V) for j in range(V) if C[i, j] == 0]
    predicted = float(np.dot(per_zero_cell, weights))
    assert glued["tail_pred_12000"] == pytest.approx(predicted, rel=1e-9)
    assert glued["gap_12000"] == pytest.approx(LOSSES[12_000] - NLL_0, rel=1e-6)
    assert glued["tail_pred_12000"] == pytest.approx(glued["gap_12000"], rel=0.05)   # the formula explains the tail


def test_alphas_are_compared_by_a_paired_bootstrap(glued):
    """Exercise 4.5's solution: the runner-up's gap is within its paired spread, α = 10's is many spreads away,
    and both spreads are far below the spread of the loss level itself."""
    assert glued["split_margin"] < 3 * glued["second_spread"]
    assert glued["ten_gap"] > 10 * glued["ten_spread"]
    assert glued["second_spread"] < glued["ten_spread"] < glued["level_spread"] / 5

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
    assert f"W = ln C：{NLL_0:.6f}，labcode {NLL_0:.6f}" in text   # the optimum's zero cells give 0, not nan


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
    assert f"alpha = 0：trigram {tri_0:.6f}（困惑度 {np.exp(tri_0):.2f}），\n  bigram {NLL_0:.6f}" in text
    assert f"alpha = 1：trigram {tri_1:.6f}" in text
    assert glued["tri_nll_0"] == pytest.approx(tri_0, rel=GLUED_REL)
    assert glued["tri_gain"] == pytest.approx(NLL_0 - tri_0, rel=1e-9) and NLL_0 - tri_0 > 0.2
    assert glued["tri_ppl_drop"] == pytest.approx(np.exp(NLL_0) - np.exp(tri_0), rel=1e-9)
    assert glued["tri_cells"] == f"{V ** 3:,}" and glued["bi_cells"] == f"{V ** 2:,}"
    assert glued["tri_zero_share"] == pytest.approx(np.mean(C3 == 0), rel=GLUED_REL)
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


# --- the opening: the course map, and a main path with its deep material folded ---------------------------

MARKER = re.compile(r":::\{deep-(start|end)\}")


def where(notebook, snippet):
    """Is `snippet` (found in exactly one cell) inside a 深入 box? Markers may open or close a box mid-cell."""
    inside, found = False, []
    for cell in notebook["cells"]:
        text = "".join(cell["source"])
        markers = list(MARKER.finditer(text)) if cell["cell_type"] == "markdown" else []
        at = text.find(snippet)
        if at >= 0:
            state = inside
            for m in markers:
                if m.start() < at:
                    state = m.group(1) == "start"
            found.append(state)
        for m in markers:
            inside = m.group(1) == "start"
    assert len(found) == 1, f"{snippet!r} is in {len(found)} cells"
    return found[0]


def test_chapter4_opens_with_the_course_map_at_the_bigram_stage(notebook):
    title, first = notebook["cells"][0], notebook["cells"][1]
    assert "".join(title["source"]).startswith("(ch4-bigram)=\n# ")
    assert first["cell_type"] == "code" and first["metadata"].get("tags") == ["remove-input"]
    assert "".join(first["source"]) == 'import labcode\n\nlabcode.course_map("bigram")'
    assert "mystnb" not in first["metadata"]                            # the map is not a numbered figure
    alt = labcode.overview.course_map_alt("bigram")
    assert alt.startswith("你在这里：第 4 章，") and alt in "".join(first["outputs"][0]["data"]["text/plain"])


def test_the_eigenvalue_edge_convexity_proof_and_matched_strength_study_are_folded(notebook):
    assert where(notebook, r"K_i = \frac{n_i}{N}")                       # the learning-rate derivation
    assert where(notebook, "edges = bigram.lr_limits(C)")
    assert where(notebook, "for lr_try in [70.0, 74.0, 75.0, 80.0]:")
    assert where(notebook, "随机变量的方差，永远不小于 0")                    # the convexity proof
    assert where(notebook, "alphas = np.geomspace(0.01, 1000, 241)")     # regularisation vs smoothing
    assert where(notebook, "原因在最优点的条件里")
    # ... and the main path says, in a sentence, what each box holds and what follows from it.
    assert not where(notebook, "{term}`凸函数`")
    assert not where(notebook, "`bigram.lr_limits(C)` 算出每一行的边界")
    assert not where(notebook, "两者给出的分布也不同：正则化压低的是**中间**的格子")


def test_the_deep_box_check_can_fail():
    flat = {"cells": [{"cell_type": "markdown", "source": ["text A"]},
                      {"cell_type": "markdown", "source": [":::{deep-start} t\n:::\n\ntext B"]},
                      {"cell_type": "markdown", "source": [":::{deep-end}\n:::\n\ntext C"]}]}
    assert [where(flat, t) for t in ("text A", "text B", "text C")] == [False, True, False]


def test_one_hot_times_W_is_a_recap_of_chapter_3_not_a_fourth_explanation(notebook):
    prose = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    code = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
    assert "<ch3-one-hot-linear>`" in prose
    assert "求和里只有 $i = x$ 那一项不为 0" not in prose and "one_hot(" not in code
    assert "ch4-ex-index" not in prose and "ch4-ex-backward" not in prose


def test_new_terms_are_linked_in_chapter4(notebook):
    prose = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    for term in ["凸函数", "特征值", "标签平滑", "验证集", "测试集", "奈特"]:
        assert f"{{term}}`{term}`" in prose, term


def test_pair_t_is_position_t_of_the_names_joined_by_dots(notebook):
    """§“梯度” keeps the table's position index t for the pairs: pair t is position t of “.emma.olivia.…”."""
    prose = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    assert "编号为 $t$ 的训练对就是这一串里编号为 $t$ 的位置" in prose
    joined = [0] + [i for w in WORDS for i in [*(VOCAB[ch] for ch in w), 0]]
    np.testing.assert_array_equal(XS, joined[:-1])
    np.testing.assert_array_equal(YS, joined[1:])
