"""The book's worked figures: one small list per chapter, each number computed here with labcode.

Every figure must be in the chapter's stored outputs, shown with at least its decimals
(tests/book/test_worked_figures.py). A figure with a `handout` text must also be in the chapter's printed handout,
written as that text says (`handout.format(value)`, for each value; tests/pdf/test_pdf.py). A new chapter adds its
list to FIGURES.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

import labcode
from labcode import bigram, corpus, idioms


@dataclass(frozen=True)
class Figure:
    name: str
    value: object      # a number, or an array of numbers
    decimals: int      # at least this many decimals in the stored outputs
    handout: str | None = None  # how the handout prints it, e.g. "{:.6f}" or "的斜率≈{:.6f}"

    def values(self) -> list[float]:
        return [float(v) for v in np.ravel(self.value)]


WORKED_Z = np.log([2.0, 1.0, 0.5])  # the worked example of chapters 1 and 2: p = (4/7, 2/7, 1/7), y = 1


def chapter1():
    z = WORKED_Z
    cold_entropy = labcode.entropy(labcode.softmax([2.0, 1.0, 0.0], temperature=0.5))
    return [
        Figure("scores from h=[1,2]", np.array([1.0, 2.0]) @ np.array([[0, 1, 0], [0, 0, 1]]), 0),  # z = hW, W (d, V)
        Figure("softmax([0,1,2])", labcode.softmax([0.0, 1.0, 2.0]), 8),
        Figure("softmax([0,1,2]) of green", labcode.softmax([0.0, 1.0, 2.0])[2], 8, "{:.8f}"),
        Figure("softmax([0,1,3])", labcode.softmax([0.0, 1.0, 3.0]), 7),
        Figure("shared denominator", np.exp([0.0, 1.0, 3.0]).sum(), 5),
        Figure("worked example p*7", labcode.softmax(z) * 7, 0),
        Figure("worked example loss", labcode.cross_entropy(z, 1), 6, "{:.6f}"),
        Figure("extreme loss (a deep box title in the handout)", labcode.cross_entropy([1000.0, -1000.0], 1), 1,
               "深入：损失为什么恰好是{:.1f}"),
        Figure("uniform loss ln V", labcode.cross_entropy(np.zeros(27), 0), 6, "{:.6f}"),
        Figure("temperature entropies", [labcode.entropy(labcode.softmax([2.0, 1.0, 0.0], temperature=t))
                                         for t in (0.5, 1.0, 2.0)], 4),
        Figure("entropy at temperature 0.5", cold_entropy, 4, "{:.4f}"),
        Figure("the temperature, typeset as τ", 0.5, 1, "τ={:.1f}："),
        Figure("exp overflow threshold", np.log(np.finfo(np.float64).max), 2),
        Figure("float64 spacing near 2000", np.spacing(2000.0), 4),
        Figure("e^-2000 as a power of ten", -2000 / np.log(10), 1),
        Figure("-ln eps", -np.log(1e-9), 6),
        Figure("perplexity: uniform V, worked example",
               [labcode.perplexity(np.zeros(27), 0), labcode.perplexity(z, 1)], 6),
        Figure("two candidates: sigmoid of the score difference",
               [1 / (1 + np.exp(-(a - b))) for a, b in ((2.0, 0.5), (0.0, 3.0), (-4.0, -4.0))], 6),
    ]


def step_size_curves():
    """Chapter 2's two error curves of the central difference (float64, float32) over the steps δ."""
    g, f = labcode.cross_entropy_grad(WORKED_Z, 1), lambda v: labcode.cross_entropy(v, 1)
    deltas = np.logspace(-12, 0, 25)
    return deltas, labcode.step_size_errors(f, WORKED_Z, g, deltas), \
        labcode.step_size_errors(f, WORKED_Z.astype(np.float32), g, deltas)


def chapter2():
    z, y = WORKED_Z, 1
    g = labcode.cross_entropy_grad(z, y)
    z_big = np.array([1000.0, 1001.0, 999.0])
    targets = np.array([[3, 5, 2], [4, 2, labcode.IGNORE]])  # chapter 2's batch (chapter 3 builds it with collate)
    logits = np.zeros(targets.shape + (6,))
    h, W = np.array([1.0, 2.0]), np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
    z_lin = labcode.linear(h, W)
    g_lin = labcode.cross_entropy_grad(z_lin, 1)
    dh, dW, db = labcode.linear_backward(g_lin, h, W)
    deltas, errs64, errs32 = step_size_curves()
    ratio = (errs32 / errs64)[(deltas >= 1e-6) & (deltas <= 4e-3)]
    return [
        Figure("gradient p - e_y", g, 6),
        Figure("one step with lr 0.1", -0.1 * g, 6),
        Figure("loss after the step", labcode.cross_entropy(z - 0.1 * g, y), 6),
        Figure("p of [1000, 1001, 999]", labcode.softmax(z_big), 6),
        Figure("loss of [1000, 1001, 999]", labcode.cross_entropy(z_big, 1), 6, "{:.6f}"),
        Figure("gradient of [1000, 1001, 999]", labcode.cross_entropy_grad(z_big, 1), 6),
        Figure("soft target gradient p - q", labcode.cross_entropy_grad(z, np.array([0.1, 0.8, 0.1])), 6),
        Figure("valid targets N of the batch", np.sum(targets != labcode.IGNORE), 0, "有效目标的个数：{:.0f}"),
        Figure("batch mean loss ln 6", labcode.cross_entropy(logits, targets), 6, "{:.6f}"),
        Figure("batch perplexity 6", np.exp(labcode.cross_entropy(logits, targets)), 4),
        Figure("batch gradient times N", labcode.cross_entropy_grad(logits, targets)[0, 0] * 5, 6),
        Figure("denominators 10/5 and 10/6", [10 / 5, 10 / 6], 4),
        Figure("linear scores", z_lin, 0),
        Figure("linear probabilities", labcode.softmax(z_lin), 6),
        Figure("linear g", g_lin, 6),
        Figure("dL/dh", dh, 6),
        Figure("dL/dh, first entry", dh[0], 6, "{:.6f}"),
        Figure("dL/dW rows g and 2g", dW, 6),
        Figure("dL/db = g", db, 6),
        Figure("float32 error over float64 error, smallest in the window", ratio.min(), 6, "的{:.0f}倍到"),
    ]


def tied_gradient(E_table, inputs, targets):
    """The two paths of the gradient when E is both the lookup table and the output layer (W = E^T)."""
    H = labcode.embedding(E_table, inputs)
    d_logits = labcode.cross_entropy_grad(labcode.linear(H, E_table.T), targets)
    dH, dW, _ = labcode.linear_backward(d_logits, H, E_table.T)
    return labcode.embedding_backward(dH, inputs, len(E_table)), dW.T


def chapter3():
    E, ids = np.zeros((6, 2)), np.array([3, 5, 3])
    E[3], E[5] = [1.0, 0.0], [0.0, 2.0]
    A = np.array([[1.0, 2.0], [-1.0, 1.0], [3.0, -1.0]])
    H = labcode.embedding(E, ids)
    dE = labcode.embedding_backward(A, ids, 6)
    wrong = labcode.embedding_backward_overwrite(A, ids, 6)
    numeric = labcode.numerical_grad(lambda table: np.sum(A * labcode.embedding(table, ids)), E)
    V, width = len(corpus.vocab()), 4  # the chapter's random tables have width d = 4
    inputs, targets = corpus.make_batch(["谢谢", "天天向上", "我爱我家"])
    rng = np.random.default_rng(0)
    table = rng.normal(scale=0.1, size=(V, width))
    d_input, d_output = tied_gradient(table, inputs, targets)
    score_table = labcode.embedding(table, np.arange(V)) @ rng.normal(size=(width, V))
    collated = labcode.collate([[labcode.BOS, 3, 5, labcode.EOS], [labcode.BOS, 4, labcode.EOS]])

    def nonzero_rows(grad):
        return int(np.any(grad != 0, axis=1).sum())

    return [
        Figure("H rows [1,0],[0,2],[1,0]", H, 0),
        Figure("one-hot X", labcode.one_hot(ids, 6), 0),
        Figure("probe contributions 1, 2, 3", (A * H).sum(axis=1), 0),
        Figure("probe J = 6", np.sum(A * H), 1, "J={:.1f}"),
        Figure("row 3 gets [4, 1], row 5 [-1, 1]", np.concatenate([dE[3], dE[5]]), 0),
        Figure("overwrite bug row 3 = [3, -1]", wrong[3], 0),
        Figure("overwrite bug keeps one write of E[3][0]", wrong[3, 0], 0, "dE[ids]+=A给出{:g}"),
        Figure("central difference on E[3][0] = 4", numeric[3, 0], 6, "的斜率≈{:.6f}"),
        Figure("bag of rows [1, 2] in both orders", H[:2].sum(axis=0), 0),
        Figure("low-rank bigram: rank d, 2Vd and V^2 parameters",
               [np.linalg.matrix_rank(score_table), 2 * V * width, V * V], 0),
        Figure("tied weights: distinct inputs, rows the lookup reaches, rows both paths reach",
               [len(np.unique(inputs)), nonzero_rows(d_input), nonzero_rows(d_input + d_output)], 0),
        Figure("tied weights: every row of the V gets a gradient", V, 0, "梯度非零的行：{0:.0f}/{0:.0f}"),
        Figure("collate: inputs [[1,3,5],[1,4,2]], targets [[3,5,2],[4,2,-100]]",
               np.concatenate([np.ravel(a) for a in collated]), 0),
        Figure("collate: EOS is a target twice", np.sum(collated[1] == labcode.EOS), 0, "EOS作为目标出现：{:.0f}次"),
        Figure("exercise: add.at sums three contributions",
               labcode.embedding_backward(np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]), [1, 1, 1], 3)[1], 0),
        Figure("low-rank bigram with d = 2: mean loss before and after training", low_rank_losses(), 4, "{:.4f}"),
    ]


def low_rank_losses():
    """The chapter's training of the low-rank bigram (d = 2, seed 0, lr 3, 400 steps): losses before and after."""
    V = len(corpus.vocab())
    rng = np.random.default_rng(0)
    E, W = rng.normal(scale=0.1, size=(V, 2)), rng.normal(scale=0.1, size=(2, V))
    inputs, targets = corpus.make_batch(list(corpus.sentences()))
    losses = labcode.train_low_rank_bigram(E, W, inputs, targets, lr=3.0, steps=400)[2]
    return losses[[0, -1]]


names_data = bigram.names_data   # chapter 4's data: the names, their vocabulary, pairs (xs, ys) and count matrix C


@functools.cache
def trained_network(lr=bigram.NAMES_LR, steps=12_000):
    """Chapter 4's network W trained by gradient descent from W = 0, and its losses."""
    C = names_data().counts
    return bigram.train(np.zeros(C.shape), C, lr=lr, steps=steps)


@functools.cache
def idioms_data():
    """Chapter 5's idioms: the list, its pairs (xs, ys) on the full vocabulary and their count matrix C."""
    return bigram.bigram_data(idioms.load_idioms())


def idiom_held_out():
    """Chapter 5's choice of alpha on the idioms: a seeded shuffled split, the vocabulary of the training part
    (unknown characters as id 1); the dev losses over the grid, and the test loss at the chosen alpha."""
    train, dev, test = bigram.split_words(idioms_data()[0], np.random.default_rng(2026))
    vocab = idioms.capped_vocab(train, len(set("".join(train))) + 2)
    (xs, ys), dev_pairs, test_pairs = (bigram.encode_pairs(p, vocab) for p in (train, dev, test))
    C = bigram.count_matrix(xs, ys, len(vocab))
    dev_loss = {a: idioms.pair_nll(C, *dev_pairs, a) for a in (0.001, 0.003, 0.01, 0.03, 0.1, 1.0)}
    best = min(dev_loss, key=dev_loss.get)
    return list(dev_loss.values()), idioms.pair_nll(C, *test_pairs, best)


def chapter4():
    words, _, xs, _, C = names_data()
    nll_0 = bigram.count_nll(C)
    _, first = bigram.train(np.zeros(C.shape), C, lr=bigram.NAMES_LR, steps=3)
    return [
        Figure("names", len(words), 0),
        Figure("distinct names", len(set(words)), 0, "{:,.0f}个不同的名字"),
        Figure("pairs", len(xs), 0, "{:.0f}"),
        Figure("count NLL, alpha 0", nll_0, 6, "{:.6f}"),
        Figure("count NLL, alpha 1", bigram.count_nll(C, alpha=1.0), 6, "{:.6f}"),
        Figure("perplexity of the count model", np.exp(nll_0), 3, "{:.3f}"),
        Figure("uniform loss ln 27", np.log(27), 4),
        Figure("first gradient-descent losses", first, 4),
        Figure("trained network loss", trained_network()[1][-1], 6),
        Figure("wrong-axis row sums", (C / C.sum(axis=1)).sum(axis=1)[:4], 4),
        Figure("pairs counted by C[xs, ys] += 1", np.count_nonzero(C), 0),
        Figure("learning rate that is always safe", 4 * len(xs) / C.sum(axis=1).max(), 1, "这份数据上是{:.1f}"),
    ]


def chapter5():
    chengyu, zh_vocab, zh_xs, zh_ys, zh_C = idioms_data()
    dev_losses, test_loss = idiom_held_out()
    return [
        Figure("idioms", len(chengyu), 0),
        Figure("idiom NLL, alpha 0, 0.01, 0.1", [idioms.pair_nll(zh_C, zh_xs, zh_ys, a) for a in (0.0, 0.01, 0.1)], 6),
        Figure("idiom NLL, alpha 0", idioms.pair_nll(zh_C, zh_xs, zh_ys), 6, "{:.6f}"),
        Figure("idiom NLL, alpha 1 (add-one smoothing)", idioms.pair_nll(zh_C, zh_xs, zh_ys, 1.0), 6, "{:.6f}"),
        Figure("idiom uniform loss ln V", np.log(len(zh_vocab)), 6, "{:.6f}"),
        Figure("idiom dev losses over alpha", dev_losses, 4),
        Figure("idiom test loss at the chosen alpha", test_loss, 4),
        Figure("sampled idioms at the lowest temperature", 0.5, 1, "τ={:.1f}：平均"),
    ]


def square_gradients():
    """2/n X^T r and 2/n X r on the first two rows of the printing example (n = d = 2)."""
    X = np.array([[10.0, 2.0], [4.0, 6.0]])
    r = (labcode.linear(X, np.array([[3.0], [5.0]]), np.array([20.0])) - np.array([[62.0], [60.0]])).ravel()
    return X.T @ r, X @ r


def untransposed_gap(X):
    """Largest distance between 2/n X r (the transpose forgotten) and the central difference of the MSE."""
    W, b, y = np.array([[3.0], [5.0]]), np.array([20.0]), np.array([[62.0], [60.0]])
    r = (labcode.linear(X, W, b) - y).ravel()
    return labcode.gradcheck(lambda v: labcode.mse(labcode.linear(X, v, b), y),
                             (2 / len(r) * (X @ r)).reshape(W.shape), W).max_abs_error


def off_by_one_losses(labels_from_file):
    """Loss with the 1-based labels shifted to 0-based, and without (scores favour the right candidates)."""
    labels = np.array(labels_from_file)
    logits = 3.0 * np.eye(3)[labels - 1]
    return [labcode.cross_entropy(logits, labels - 1), labcode.cross_entropy(logits, labels)]



def appendix():
    X = np.array([[10.0, 2.0], [4.0, 6.0], [8.0, 0.0]])
    W, b, y = np.array([[3.0], [5.0]]), np.array([20.0]), np.array([[62.0], [60.0], [45.0]])
    preds = labcode.linear(X, W, b)
    _, dW, db = labcode.linear_backward(labcode.mse_grad(preds, y), X, W)
    sample = np.array([0.0, 1.0, 1.0, 2.0])
    return [
        Figure("residuals", (preds - y).ravel(), 0),
        Figure("MSE in seconds squared", labcode.mse(preds, y), 0),
        Figure("RMSE in seconds", np.sqrt(labcode.mse(preds, y)), 4),
        Figure("dL/dw", dW.ravel(), 6),   # in the answer fold of its box: the student handout leaves it out
        Figure("dL/db", db, 6),
        Figure("population and sample variance", [np.var(sample), np.var(sample, ddof=1)], 4),
        Figure("sample variance", np.var(sample, ddof=1), 4, "{:.4f}"),
        Figure("square X: the gradient and the one without its transpose", np.concatenate(square_gradients()), 0),
        Figure("the untransposed gradient fails the central difference", untransposed_gap(X[:2]), 1, "{:.1e}"),
        Figure("off-by-one labels: loss with and without the shift", off_by_one_losses([1, 2, 2]), 4),
    ]


# notebook stem -> its figures
FIGURES = {"01_probability_to_loss": chapter1, "02_gradient": chapter2, "03_shared_embedding": chapter3,
           "04_bigram": chapter4, "05_idiom_bigram": chapter5, "appendix": appendix}


@functools.cache
def figures(stem: str) -> tuple[Figure, ...]:
    return tuple(FIGURES[stem]())
