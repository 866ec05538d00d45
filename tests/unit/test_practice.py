"""Tests for labcode.practice: right implementations in several styles pass, each named mistake is recognised
with its hint, odd return values are reported without crashing, and the reports are deterministic."""
import copy
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import special

import labcode
from labcode import bigram, idioms, practice
from labcode.practice import (
    CheckResult,
    check_bigram_loss_and_grad,
    check_counts_loss_and_grad,
    check_cross_entropy,
    check_cross_entropy_grad,
    check_embedding_backward,
    check_interpolated_nll,
    check_logsumexp,
    check_mean_loss,
    check_numerical_grad,
    check_softmax,
    check_training_loop,
)
from labcode.practice import hints as hint_catalogue
from labcode.practice.report import SECTIONS

ROOT = Path(__file__).resolve().parents[2]
CHECKERS = [getattr(practice, name) for name in practice.__all__ if name.startswith("check_")]


def skeleton(*args):
    raise NotImplementedError("在这里写你的代码")


# ---- right implementations, each in a different style ----

def softmax_loops(z):
    m = max(z)
    e = [math.exp(v - m) for v in z]
    return np.array([v / sum(e) for v in e])


def softmax_float32(z):
    z = np.asarray(z, dtype=np.float32)
    e = np.exp(z - z.max())
    return e / e.sum()


def softmax_via_logsumexp(z):
    return np.exp(z - labcode.logsumexp(z))


def logsumexp_loops(z):
    m = max(z)
    return m + math.log(sum(math.exp(v - m) for v in z))


def logsumexp_float32_0d(z):
    z = np.asarray(z, dtype=np.float32)
    m = z.max()
    return np.asarray(m + np.log(np.exp(z - m).sum()))          # a 0-d float32 array


def cross_entropy_loops(z, y):
    return logsumexp_loops(z) - z[y]


def cross_entropy_float32(z, y):
    z = np.asarray(z, dtype=np.float32)
    return z.max() + np.log(np.exp(z - z.max()).sum()) - z[y]   # np.float32


def cross_entropy_log_softmax(z, y):
    return -labcode.log_softmax(z)[y]


def grad_loops(z, y):
    p = softmax_loops(z)
    return np.array([p[k] - (1.0 if k == y else 0.0) for k in range(len(z))])


def grad_float32(z, y):
    g = softmax_float32(z)
    g[y] -= 1
    return g


def mean_loss_loops(logits, targets):
    total, count = 0.0, 0
    for z, y in zip(logits, targets, strict=True):
        if y != -100:
            total += cross_entropy_loops(list(z), int(y))
            count += 1
    return total / count


def mean_loss_masked(logits, targets):
    valid = targets != -100
    safe = np.where(valid, targets, 0)
    s = logits - logits.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    picked = np.take_along_axis(logp, safe[:, None], axis=1)[:, 0]
    return -np.sum(np.where(valid, picked, 0.0)) / valid.sum()


def mean_loss_float32(logits, targets):
    valid = targets != -100
    return np.float32(mean_loss_masked(logits[valid].astype(np.float32), targets[valid]))


def embedding_loops(dH, ids, vocab_size):
    dE = np.zeros((vocab_size, dH.shape[1]))
    for t, i in enumerate(ids):
        dE[i] += dH[t]
    return dE


def embedding_add_at(dH, ids, vocab_size):
    dE = np.zeros((vocab_size, dH.shape[1]), dtype=dH.dtype)
    np.add.at(dE, ids, dH)
    return dE


def embedding_one_hot(dH, ids, vocab_size):
    return labcode.one_hot(ids, vocab_size).T @ dH


def bigram_loops(W, xs, ys):
    V, B = W.shape[0], len(xs)
    loss, dW = 0.0, np.zeros((V, V))
    for x, y in zip(xs, ys, strict=True):
        loss += cross_entropy_loops(list(W[x]), int(y)) / B
        dW[x] += grad_loops(W[x], y) / B
    return loss, dW


def bigram_counts(W, xs, ys):
    return bigram.loss_and_grad_from_counts(W, bigram.count_matrix(xs, ys, W.shape[0]))


def bigram_float32(W, xs, ys):
    W = np.asarray(W, dtype=np.float32)
    B, V = len(xs), W.shape[0]
    logits = np.eye(V, dtype=np.float32)[xs] @ W                   # one-hot times W
    s = logits - logits.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    dlogits = np.exp(logp)
    dlogits[np.arange(B), ys] -= 1
    return -logp[np.arange(B), ys].mean(), np.eye(V, dtype=np.float32)[xs].T @ dlogits / B


def numerical_grad_steps(f, x, delta):
    x = np.asarray(x, dtype=float)                    # an integer x cannot hold delta
    grad = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[k] = delta
        grad[k] = (f(x + step) - f(x - step)) / (2 * delta)
    return grad


def numerical_grad_in_place(f, x, delta):
    x = x.astype(float)                               # a copy, and one that can hold delta
    grad = np.zeros_like(x)
    flat, out = x.reshape(-1), grad.reshape(-1)          # views: changing flat changes x
    for i in range(flat.size):
        old = flat[i]
        flat[i] = old + delta
        plus = f(x)
        flat[i] = old - delta
        minus = f(x)
        flat[i] = old
        out[i] = (plus - minus) / delta / 2
    return grad


def numerical_grad_zeroes_x(f, x, delta):
    """Right gradient, but x is left changed: the reader's parameters would be overwritten."""
    grad = numerical_grad_steps(f, x, delta)
    x[...] = 0.0
    return grad


def numerical_grad_restored_by_arithmetic(f, x, delta):
    """In place, "restored" by adding and subtracting δ again: x drifts by rounding."""
    grad = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        x[k] += delta
        plus = f(x)
        x[k] -= 2 * delta
        minus = f(x)
        x[k] += delta
        grad[k] = (plus - minus) / (2 * delta)
    return grad


def numerical_grad_list(f, x, delta):
    rows = []
    for e in np.eye(x.size):
        e = delta * e.reshape(x.shape)
        rows.append((f(x + e) - f(x - e)) / (2 * delta))
    return np.array(rows).reshape(x.shape)


def train_append_after(loss_and_grad, W, lr, steps):
    losses = []
    for _ in range(steps):
        loss, dW = loss_and_grad(W)
        losses.append(loss)
        W = W - lr * dW
    losses.append(loss_and_grad(W)[0])
    return W, losses


def train_in_place(loss_and_grad, W, lr, steps):
    W, losses = W.copy(), np.zeros(steps + 1)          # the caller's W stays as it was
    for step in range(steps + 1):
        losses[step], dW = loss_and_grad(W)
        if step < steps:
            W -= lr * dW
    return W, losses


def train_like_bigram(loss_and_grad, W, lr, steps):
    W, losses = W.astype(np.float32), [float(loss_and_grad(W)[0])]
    for _ in range(steps):
        W = W - np.float32(lr) * loss_and_grad(W)[1].astype(np.float32)
        losses.append(float(loss_and_grad(W)[0]))
    return W, tuple(losses)


def counts_log_softmax(W, C):
    N, n = C.sum(), C.sum(axis=1)
    logp = labcode.log_softmax(W, axis=1)
    return -(C[C > 0] * logp[C > 0]).sum() / N, (n[:, None] * np.exp(logp) - C) / N


def counts_nansum(W, C):
    N, n = C.sum(), C.sum(axis=1)
    s = W - W.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    return -np.nansum(C * logp) / N, (n[:, None] * np.exp(logp) - C) / N       # 0·(-inf) = nan, dropped


def counts_from_scores(W, C):
    """loss = Σ_i n_i logsumexp(W_i) - Σ C_ij W_ij, with the product taken where C > 0 only."""
    N, n = C.sum(), C.sum(axis=1)
    lse = np.array([labcode.logsumexp(row) for row in W])
    p = np.exp(W - lse[:, None])
    return (n @ lse - np.sum(C * np.where(C > 0, W, 0.0))) / N, (n[:, None] * p - C) / N


def counts_loops(W, C):
    V, N = len(W), C.sum()
    loss, dW = 0.0, np.zeros((V, V))
    for i in range(V):
        p = stable_softmax(W[i])
        loss += sum(C[i, j] * -np.log(p[j]) for j in range(V) if C[i, j] > 0 and p[j] > 0) / N
        loss += sum(C[i, j] * (labcode.logsumexp(W[i]) - W[i, j]) for j in range(V) if C[i, j] > 0 and p[j] == 0) / N
        dW[i] = (C[i].sum() * p - C[i]) / N
    return loss, dW


def interpolated_loops(C, xs, ys, gamma):
    """One pair at a time, in plain Python."""
    C = np.asarray(C).tolist()
    V, N = len(C), sum(map(sum, C))
    columns = [sum(row[y] for row in C) for y in range(V)]
    logs = []
    for x, y in zip(xs, ys, strict=True):
        unigram = (columns[y] + 1) / (N + V)
        n = sum(C[x])
        logs.append(math.log(gamma * C[x][y] / n + (1 - gamma) * unigram if n else unigram))
    return -sum(logs) / len(logs)


def interpolated_float32(C, xs, ys, gamma):
    C = C.astype(np.float32)
    n, unigram = C.sum(axis=1), (C.sum(axis=0) + 1) / (C.sum() + len(C))
    w = np.where(n[xs] > 0, np.float32(gamma), np.float32(0))
    return -np.log(w * C[xs, ys] / np.maximum(n[xs], 1) + (1 - w) * unigram[ys]).mean()


def interpolated_with(unigram=None, weight=None, empty_keeps_gamma=False):
    """A reader's interpolation with one slip: another unigram, another weight, or 1 − γ kept on empty rows."""
    def fn(C, xs, ys, gamma):
        C = C.astype(float)
        n, N, V = C.sum(axis=1), C.sum(), len(C)
        uni = unigram(C, N, V) if unigram else (C.sum(axis=0) + 1) / (N + V)
        g = weight(gamma) if weight else gamma
        w = np.full(len(xs), g) if empty_keeps_gamma else np.where(n[xs] > 0, g, 0.0)
        return -np.mean(np.log(w * C[xs, ys] / np.maximum(n[xs], 1) + (1 - w) * uni[ys]))
    return fn


def interpolated_n_from_pairs(C, xs, ys, gamma):
    """The slip exercise 5.1 warns about: N = len(xs), the pairs scored, instead of C.sum()."""
    return interpolated_with(unigram=lambda C, N, V: (C.sum(axis=0) + 1) / (len(xs) + V))(C, xs, ys, gamma)


RIGHT = {
    check_softmax: [labcode.softmax, softmax_loops, softmax_float32, softmax_via_logsumexp],
    check_logsumexp: [labcode.logsumexp, logsumexp_loops, logsumexp_float32_0d],
    check_cross_entropy: [labcode.cross_entropy, cross_entropy_loops, cross_entropy_float32, cross_entropy_log_softmax],
    check_cross_entropy_grad: [labcode.cross_entropy_grad, grad_loops, grad_float32],
    check_numerical_grad: [labcode.numerical_grad, numerical_grad_steps, numerical_grad_in_place, numerical_grad_list,
                           # in place, on a float copy, each component put back exactly
                           lambda f, x, d: labcode.gradients._central_difference(f, x.astype(float), d)],
    check_mean_loss: [labcode.cross_entropy, mean_loss_loops, mean_loss_masked, mean_loss_float32],
    check_embedding_backward: [lambda dH, ids, V: labcode.embedding_backward(dH, ids, V), embedding_loops,
                               embedding_add_at, embedding_one_hot],
    check_bigram_loss_and_grad: [bigram.loss_and_grad, bigram_loops, bigram_counts, bigram_float32],
    check_counts_loss_and_grad: [bigram.loss_and_grad_from_counts, counts_log_softmax, counts_loops, counts_nansum,
                                 counts_from_scores],
    check_training_loop: [train_append_after, train_in_place, train_like_bigram],
    check_interpolated_nll: [idioms.interpolated_nll, interpolated_loops, interpolated_float32],
}

# Right answers written with scipy.special, an outside reference
RIGHT[check_softmax].append(special.softmax)
RIGHT[check_logsumexp].append(special.logsumexp)
RIGHT[check_cross_entropy].append(lambda z, y: special.logsumexp(z) - z[y])
RIGHT[check_cross_entropy_grad].append(lambda z, y: special.softmax(z) - np.eye(len(z))[y])
RIGHT[check_mean_loss].append(
    lambda z, t: -np.mean(special.log_softmax(z[t != -100], axis=1)[np.arange((t != -100).sum()), t[t != -100]]))


@pytest.mark.parametrize("check, fn", [(check, fn) for check, fns in RIGHT.items() for fn in fns],
                         ids=lambda v: getattr(v, "__name__", ""))
def test_right_implementations_in_any_style_pass(check, fn):
    result = check(fn)
    assert result.passed, str(result)
    assert all(case.passed for case in result.cases) and len(result.cases) >= (5 if check is check_training_loop else 7)
    assert str(result).startswith(f"{check.__name__}：通过")


# ---- wrong implementations: one per named mistake ----

def no_shift_softmax(z):
    return np.exp(z) / np.exp(z).sum()


def stable_softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def with_eps(z, y):
    return -np.log(stable_softmax(z)[y] + 1e-9)


def log_of_softmax(z, y):
    return -np.log(stable_softmax(z)[y])


def right_grad(z, y):
    g = stable_softmax(z)
    g[y] -= 1
    return g


def per_target(logits, targets):
    valid = targets != -100
    return np.array([cross_entropy_loops(list(z), int(y)) for z, y in zip(logits[valid], targets[valid], strict=True)])


def overwrite_backward(dH, ids, vocab_size):
    dE = np.zeros((vocab_size, dH.shape[1]))
    dE[ids] += dH
    return dE


def assign_backward(dH, ids, vocab_size):
    dE = np.zeros((vocab_size, dH.shape[1]))
    for t, i in enumerate(ids):
        dE[i] = dH[t]
    return dE


def bigram_with(probs_fn=None, *, scatter="add", keep_e=True, sign=1.0, divide=True, eps=0.0):
    """A per-example bigram step with one chosen mistake."""
    def fn(W, xs, ys):
        B, V = len(xs), W.shape[0]
        probs = probs_fn(W, xs) if probs_fn else np.array([stable_softmax(W[x]) for x in xs])  # (B, V)
        loss = -np.log(probs[np.arange(B), ys] + eps).mean()
        dlogits = probs.copy()
        if keep_e:
            dlogits[np.arange(B), ys] -= 1
        dlogits = sign * dlogits / (B if divide else 1)
        dW = np.zeros((V, V))
        if scatter == "add":
            np.add.at(dW, xs, dlogits)
        else:
            dW[xs] += dlogits
        return loss, dW
    return fn


def columns_softmax(W, xs):
    return (np.exp(W) / np.exp(W).sum(axis=0))[xs]


def batch_axis_softmax(W, xs):
    logits = W[xs]
    e = np.exp(logits - logits.max(axis=0))
    return e / e.sum(axis=0)


def no_shift_rows(W, xs):
    e = np.exp(W[xs])
    return e / e.sum(axis=1, keepdims=True)


def numerical_grad_with(*, side=0, denominator=2.0, together=False, restore=True, copy=True, delta=None,
                        flatten=False, rows=False):
    """A central difference with one chosen mistake (side = +1 / -1: one-sided)."""
    def fn(f, x, d):
        d = d if delta is None else delta
        if flatten:
            x = x.reshape(-1)
        if together:
            return np.full(x.shape, (f(x + d) - f(x - d)) / (denominator * d))
        if rows:                                         # range(len(x)): x[k] is a whole row of a matrix
            grad = np.zeros_like(x)
            for k in range(len(x)):
                step = np.zeros_like(x)
                step[k] = d
                grad[k] = (f(x + step) - f(x - step)) / (2 * d)
            return grad
        x = x.copy() if restore else x
        grad = np.zeros_like(x)
        for k in np.ndindex(x.shape):
            if side:
                step = np.zeros_like(x)
                step[k] = d
                grad[k] = side * (f(x + side * step) - f(x)) / d
            elif not copy:
                xp = x                                   # the same array, not a copy
                xp[k] += d
                xm = x
                xm[k] -= d
                grad[k] = (f(xp) - f(xm)) / (2 * d)
            elif not restore:
                x[k] += d
                plus = f(x)
                x[k] -= 2 * d
                grad[k] = (plus - f(x)) / (2 * d)
            else:
                step = np.zeros_like(x)
                step[k] = d
                grad[k] = (f(x + step) - f(x - step)) / (denominator * d)
        return grad
    return fn


def train_with(*, sign=-1.0, use_lr=True, fresh=True, assign=True, give_back_start=False):
    """A training loop with one chosen mistake."""
    def fn(loss_and_grad, W, lr, steps):
        start, losses = W, []
        _, first = loss_and_grad(W)
        for _ in range(steps):
            loss, dW = loss_and_grad(W)
            losses.append(loss)
            dW = dW if fresh else first
            moved = W + sign * (lr if use_lr else 1.0) * dW
            if assign:
                W = moved
        losses.append(loss_and_grad(W)[0])
        return (start if give_back_start else W), losses
    return fn


# ---- more wrong implementations a learner writes: each is named, or at least never misnamed ----

def softmax_mean_shift(z):
    e = np.exp(z - z.mean())                      # shift by the mean: fine until the scores span > ~1420
    return e / e.sum()


def softmax_returns_log(z):
    return np.log(stable_softmax(z))


def logsumexp_min_shift(z):
    m = z.min()
    return m + np.log(np.sum(np.exp(z - m)))


def logsumexp_mean_shift(z):
    m = z.mean()
    return m + np.log(np.sum(np.exp(z - m)))


def logsumexp_math(z):
    return math.log(sum(math.exp(v) for v in z))  # no shift, one number at a time: OverflowError


def cross_entropy_minus_max(z, y):
    m = z.max()
    return m + np.log(np.sum(np.exp(z - m))) - m  # the max where z[y] belongs


def cross_entropy_index_before(z, y):
    m = z.max()
    return m + np.log(np.sum(np.exp(z - m))) - z[y - 1]  # counted from 1: y - 1 (z[-1] when y = 0)


def cross_entropy_index_after(z, y):
    return labcode.logsumexp(z) - z[y + 1]          # one past the target: IndexError when y is the last index


def cross_entropy_log_of_sum(z, y):
    return np.log(np.sum(np.exp(z))) - z[y]          # no shift, log of a sum: inf and -inf, not nan


def grad_index_before(z, y):
    g = stable_softmax(z)
    g[y - 1] -= 1
    return g


def grad_index_after(z, y):
    g = stable_softmax(z)
    g[y + 1] -= 1
    return g


def mean_loss_index_after(logits, targets):
    valid = targets != -100
    z, y = logits[valid], targets[valid]
    lse = np.array([labcode.logsumexp(row) for row in z])
    return np.mean(lse - z[np.arange(len(y)), y + 1])


def bigram_index_before(W, xs, ys):
    N = len(xs)
    logp = labcode.log_softmax(W[xs], axis=1)
    dlogits = np.exp(logp)
    dlogits[np.arange(N), ys - 1] -= 1
    dW = np.zeros_like(W, dtype=float)
    np.add.at(dW, xs, dlogits / N)
    return -logp[np.arange(N), ys - 1].mean(), dW


def cross_entropy_math(z, y):
    return -math.log(math.exp(z[y]) / sum(math.exp(v) for v in z))


def grad_minus_one(z, y):
    return stable_softmax(z) - 1


def grad_wrt_p(z, y):
    g = np.zeros_like(z)
    g[y] = -1 / stable_softmax(z)[y]              # d(-ln p_y)/dp_y, not d/dz
    return g


def mean_loss_batch_max(logits, targets):
    valid = targets != -100
    s = logits - logits.max()                     # one max for the whole batch
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    return -logp[valid][np.arange(valid.sum()), targets[valid]].mean()


def mean_loss_no_keepdims(logits, targets):
    valid = targets != -100
    s = logits - logits.max(axis=1)               # (N, V) - (N,)
    logp = s - np.log(np.exp(s).sum(axis=1))
    return -logp[valid][np.arange(valid.sum()), targets[valid]].mean()


def softmax_rows(scores):
    return stable_softmax_rows(scores - scores.max(axis=1, keepdims=True))


def mean_loss_batch_normalised(logits, targets):
    valid = targets != -100
    s = logits - logits.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum())            # no axis: normalised over the whole batch
    return -logp[valid][np.arange(valid.sum()), targets[valid]].mean()


def embedding_zeros_like(dH, ids, vocab_size):
    dE = np.zeros_like(dH)                        # (T, d) instead of (vocab_size, d)
    np.add.at(dE, ids, dH)
    return dE


def bigram_batch_max(W, xs, ys):
    return bigram_with(lambda W, xs: stable_softmax_rows(W[xs] - W[xs].max()))(W, xs, ys)


def stable_softmax_rows(s):
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def bigram_no_keepdims(W, xs, ys):
    def probs(W, xs):
        s = W[xs] - W[xs].max(axis=1)
        return np.exp(s) / np.exp(s).sum(axis=1)
    return bigram_with(probs)(W, xs, ys)


def bigram_swapped(W, xs, ys):
    return bigram_loops(W, ys, xs)


def bigram_columns(W, xs, ys):
    loss, dW = bigram_loops(W.T, xs, ys)          # logits = W[:, xs].T
    return loss, dW.T


def numerical_grad_precedence(f, x, delta):
    grad = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[k] = delta
        grad[k] = (f(x + step) - f(x - step)) / 2 * delta
    return grad


def numerical_grad_back_to_x(f, x, delta):
    x, grad = x.copy(), np.zeros_like(x)
    for k in np.ndindex(x.shape):
        x[k] += delta
        plus = f(x)
        x[k] -= delta                             # back at x, not at x - delta
        grad[k] = (plus - f(x)) / (2 * delta)
    return grad


def numerical_grad_never_stored(f, x, delta):
    grad = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[k] = delta
        (f(x + step) - f(x - step)) / (2 * delta)  # computed, never stored in grad[k]
    return grad


def counts_zero_times_inf(W, C):
    """The printed solution to exercise 4.2 before W = ln C was checked: 0·(-inf) = nan on the unseen pairs."""
    N, n = C.sum(), C.sum(axis=1)
    s = W - W.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    return -(C * logp).sum() / N, (n[:, None] * np.exp(logp) - C) / N


def counts_times_scores(W, C):
    N, n = C.sum(), C.sum(axis=1)
    lse = np.array([labcode.logsumexp(row) for row in W])
    return (n @ lse - (C * W).sum()) / N, (n[:, None] * np.exp(W - lse[:, None]) - C) / N


def numerical_grad_integer_like(f, x, delta):
    grad = np.zeros_like(x)                        # integer when x is: every quotient truncated
    for k in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[k] = delta
        grad[k] = (f(x + step) - f(x - step)) / (2 * delta)
    return grad


def numerical_grad_integer_step(f, x, delta):
    grad = np.zeros(x.shape)
    for k in np.ndindex(x.shape):
        step = np.zeros_like(x)                    # integer when x is: delta is stored as 0
        step[k] = delta
        grad[k] = (f(x + step) - f(x - step)) / (2 * delta)
    return grad


def numerical_grad_integer_in_place(f, x, delta):
    grad = np.zeros(x.shape)
    for k in np.ndindex(x.shape):
        step = np.zeros(x.shape)
        step[k] = delta
        xp, xm = x.copy(), x.copy()
        xp += step                                 # an integer array: UFuncTypeError
        xm -= step
        grad[k] = (f(xp) - f(xm)) / (2 * delta)
    return grad


def softmax_in_place(z):
    z -= z.max()
    np.exp(z, out=z)
    return z / z.sum()


def train_in_place_on_callers_w(loss_and_grad, W, lr, steps):
    losses = []
    for _ in range(steps):
        loss, dW = loss_and_grad(W)
        losses.append(loss)
        W -= lr * dW                               # the caller's starting point is trained too
    losses.append(loss_and_grad(W)[0])
    return W, losses


def mean_loss_zeroes_targets(logits, targets):
    valid = targets != -100
    targets[~valid] = 0                            # in the caller's array
    return mean_loss_masked(logits, np.where(valid, targets, -100))


def mean_loss_index_then_mask(logits, targets):
    """Picks logp[i, -100] first and masks after: right when V >= 100, an IndexError at the book's V = 6."""
    valid = targets != -100
    s = logits - logits.max(axis=1, keepdims=True)
    logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
    return -logp[np.arange(len(targets)), targets][valid].mean()


def mean_loss_one_hot_then_mask(logits, targets):
    valid = targets != -100
    onehot = np.eye(logits.shape[1])[targets]      # row -100 of the identity: an IndexError when V < 100
    logp = labcode.log_softmax(logits, axis=1)
    return -(onehot * logp).sum(axis=1)[valid].mean()


WRONG = [
    (check_interpolated_nll, interpolated_with(unigram=lambda C, N, V: C.sum(axis=0) / N), "unigram_not_smoothed",
     ["拉普拉斯", "ch5-backoff"]),
    (check_interpolated_nll, interpolated_with(unigram=lambda C, N, V: (C.sum(axis=1) + 1) / (N + V)),
     "unigram_from_rows", ["列和"]),
    (check_interpolated_nll, interpolated_with(unigram=lambda C, N, V: (C.sum(axis=0) + 1) / N),
     "unigram_not_normalised", ["(N + V)"]),
    (check_interpolated_nll, interpolated_n_from_pairs, "unigram_n_from_pairs", ["len(xs)", "C.sum() + V"]),
    (check_interpolated_nll, interpolated_with(weight=lambda g: 1 - g), "gamma_swapped", ["1 − γ"]),
    (check_interpolated_nll, interpolated_with(empty_keeps_gamma=True), "empty_row_keeps_gamma", ["np.where"]),
    (check_interpolated_nll, lambda *a: idioms.interpolated_nll(*a) * len(a[1]), "sum_not_mean", ["len(xs)"]),
    (check_softmax, no_shift_softmax, "no_max_shift", ["最大值", "上溢", "ch1-overflow"]),
    (check_counts_loss_and_grad, counts_zero_times_inf, "zero_times_inf",
     ["0 × (-inf)", "np.where(C > 0, logp, 0.0)", "W = ln C", "ch4-identity"]),
    (check_counts_loss_and_grad, counts_times_scores, "zero_times_inf", ["C * W"]),
    (check_numerical_grad, numerical_grad_integer_like, "integer_input",
     ["整数数组 x", "dtype=float", "ch2-finite-diff"]),
    (check_numerical_grad, numerical_grad_integer_step, "integer_input", ["存成了 0"]),
    (check_numerical_grad, numerical_grad_integer_in_place, "integer_input", ["Cannot cast"]),
    (check_softmax, softmax_in_place, "input_modified", ["z 被改动了", "z -= z.max()", "z = z.copy()", "ch1-overflow"]),
    (check_training_loop, train_in_place_on_callers_w, "input_modified",
     ["W 被改动了", "W = W - lr * dW", "ch4-training"]),
    (check_mean_loss, mean_loss_zeroes_targets, "input_modified", ["targets 被改动了", "np.where(valid, targets, 0)"]),
    (check_mean_loss, mean_loss_index_then_mask, "ignore_index_used", ["index -100 is out of bounds", "ch2-batch"]),
    (check_mean_loss, mean_loss_one_hot_then_mask, "ignore_index_used", ["-100", "ch2-batch"]),
    (check_softmax, lambda z: z / z.sum(), "divide_by_sum", ["总和", "ch1-divide-by-sum"]),
    (check_softmax, lambda z: np.exp(z - z.min()) / np.exp(z - z.min()).sum(), "min_shift", ["最小值"]),
    (check_softmax, lambda z: stable_softmax(z - z), "self_shift", ["它自己"]),
    (check_softmax, lambda z: np.exp(z - z.max()), "not_normalised", ["归一化"]),
    (check_logsumexp, lambda z: np.log(np.sum(np.exp(z))), "no_max_shift", ["最大值", "ch1-overflow"]),
    (check_logsumexp, lambda z: np.log(np.sum(np.exp(z - z.max()))), "lse_max_not_added_back", ["加回来"]),
    (check_cross_entropy, lambda z, y: -np.log(np.exp(z[y]) / np.exp(z).sum()), "no_max_shift", ["最大值", "nan"]),
    (check_cross_entropy, with_eps, "eps_inside_log", ["eps", "ch1-epsilon"]),
    (check_cross_entropy, log_of_softmax, "log_of_underflow", ["下溢", "inf", "ch1-extreme"]),
    (check_cross_entropy, lambda z, y: np.log(stable_softmax(z)[y]), "loss_sign", ["符号"]),
    (check_cross_entropy, lambda z, y: -np.log2(stable_softmax(z)[y]), "log_base", ["np.log"]),
    (check_cross_entropy_grad, lambda z, y: stable_softmax(z), "missing_minus_e_y", ["e_y", "ch2-derivation"]),
    (check_cross_entropy_grad, lambda z, y: -right_grad(z, y), "gradient_sign", ["符号", "e_y - p"]),
    (check_cross_entropy_grad, lambda z, y: stable_softmax(z) - y, "label_subtracted", ["独热"]),
    (check_cross_entropy_grad, lambda z, y: no_shift_softmax(z) - np.eye(len(z))[y], "no_max_shift", ["最大值"]),
    (check_numerical_grad, numerical_grad_with(side=+1), "one_sided_difference", ["一侧", "δ²", "ch2-finite-diff"]),
    (check_numerical_grad, numerical_grad_with(side=-1), "one_sided_difference", ["一侧"]),
    (check_numerical_grad, numerical_grad_with(denominator=1.0), "denominator_delta", ["2δ"]),
    (check_numerical_grad, numerical_grad_with(together=True), "all_components_at_once", ["全 1 方向"]),
    (check_numerical_grad, numerical_grad_with(restore=False), "perturbation_not_restored", ["复原"]),
    (check_numerical_grad, numerical_grad_with(copy=False), "perturbed_array_shared", ["copy"]),
    (check_numerical_grad, numerical_grad_with(delta=1e-5), "delta_ignored", ["delta", "ch2-step-size"]),
    (check_numerical_grad, numerical_grad_with(flatten=True), "wrong_shape_to_f", ["形状", "np.ndindex"]),
    (check_numerical_grad, numerical_grad_with(rows=True), "whole_rows_at_once", ["range(len(x))", "np.ndindex"]),
    (check_mean_loss, lambda z, t: per_target(z, t).sum() / len(t), "denominator_counts_ignored",
     ["分母", "1.667", "ch2-denominator"]),
    (check_mean_loss, lambda z, t: per_target(z, t).sum(), "sum_not_mean", ["平均"]),
    (check_mean_loss, lambda z, t: np.mean([cross_entropy_loops(list(r), y) for r, y in zip(z, t, strict=True)]),
     "ignore_index_used", ["-100", "ch2-batch"]),
    (check_mean_loss, lambda z, t: labcode.cross_entropy(z, np.where(t == -100, 0, t)), "ignored_loss_counted",
     ["被忽略的位置也算进了损失", "np.where"]),
    (check_mean_loss, lambda z, t: np.mean([-np.log(no_shift_softmax(r)[y]) for r, y in zip(z, t, strict=True)
                                            if y != -100]), "no_max_shift", ["最大值"]),
    (check_mean_loss, lambda z, t: np.mean([with_eps(r, y) for r, y in zip(z, t, strict=True) if y != -100]),
     "eps_inside_log", ["eps"]),
    (check_embedding_backward, overwrite_backward, "repeated_ids_overwrite",
     ["只留下了一份", "np.add.at", "ch3-overwrite-bug"]),
    (check_embedding_backward, assign_backward, "repeated_ids_overwrite", ["只留下了一份"]),
    (check_embedding_backward, lambda dH, ids, V: np.eye(V)[ids] @ dH, "missing_transpose",
     ["X.T @ dH", "ch3-gradient"]),
    (check_bigram_loss_and_grad, bigram_with(columns_softmax), "wrong_axis", ["axis", "ch4-network"]),
    (check_bigram_loss_and_grad, bigram_with(batch_axis_softmax), "wrong_axis", ["轴"]),
    (check_bigram_loss_and_grad, bigram_with(no_shift_rows), "no_max_shift", ["最大值"]),
    (check_bigram_loss_and_grad, bigram_with(), "log_of_underflow", ["下溢", "inf"]),
    (check_bigram_loss_and_grad, bigram_with(eps=1e-9), "eps_inside_log", ["eps"]),
    (check_bigram_loss_and_grad, bigram_with(keep_e=False), "missing_minus_e_y", ["e_y"]),
    (check_bigram_loss_and_grad, bigram_with(sign=-1.0), "gradient_sign", ["符号"]),
    (check_bigram_loss_and_grad, bigram_with(scatter="index"), "repeated_ids_overwrite", ["只留下了一份"]),
    (check_bigram_loss_and_grad, bigram_with(divide=False), "gradient_not_divided", ["除以 N"]),
    (check_training_loop, train_with(sign=+1.0), "descent_sign", ["W - lr * dW", "ch4-training"]),
    (check_training_loop, train_with(use_lr=False), "learning_rate_ignored", ["学习率"]),
    (check_training_loop, train_with(fresh=False), "stale_gradient", ["循环里面"]),
    (check_training_loop, train_with(assign=False), "weights_not_updated", ["赋回"]),
    (check_training_loop, train_with(give_back_start=True), "start_weights_returned", ["return W, losses"]),
    (check_softmax, softmax_mean_shift, "mean_shift", ["平均值", "ch1-overflow"]),
    (check_softmax, softmax_returns_log, "log_probabilities", ["对数概率", "ch1-softmax"]),
    (check_logsumexp, logsumexp_min_shift, "min_shift", ["最小值"]),
    (check_logsumexp, logsumexp_mean_shift, "mean_shift", ["平均值"]),
    (check_logsumexp, logsumexp_math, "no_max_shift", ["OverflowError", "最大值"]),
    (check_cross_entropy, cross_entropy_minus_max, "max_score_not_target", ["z[y]", "ch1-logsumexp"]),
    (check_cross_entropy, cross_entropy_math, "no_max_shift", ["最大值"]),
    (check_cross_entropy_grad, grad_minus_one, "every_component_minus_one", ["每一项都减了 1", "g[y] -= 1"]),
    (check_cross_entropy_grad, grad_wrt_p, "derivative_wrt_probability", ["-1/p_y", "链式法则"]),
    (check_mean_loss, mean_loss_batch_max, "max_of_whole_batch", ["整批的最大值", "keepdims=True", "ch1-overflow"]),
    (check_mean_loss, mean_loss_no_keepdims, "keepdims_missing", ["broadcast", "keepdims=True", "ch4-mistakes"]),
    (check_embedding_backward, embedding_zeros_like, "gradient_shape_of_dH", ["IndexError", "(vocab_size, d)"]),
    (check_bigram_loss_and_grad, bigram_batch_max, "max_of_whole_batch", ["整批的最大值"]),
    (check_bigram_loss_and_grad, bigram_no_keepdims, "keepdims_missing", ["keepdims=True"]),
    (check_bigram_loss_and_grad, bigram_swapped, "xs_ys_swapped", ["W[xs]", "ch4-network"]),
    (check_bigram_loss_and_grad, bigram_columns, "columns_of_W", ["W[:, xs]"]),
    (check_numerical_grad, numerical_grad_precedence, "division_precedence", ["/ (2 * delta)", "δ²"]),
    (check_numerical_grad, numerical_grad_back_to_x, "one_point_at_x", ["2δ", "old"]),
    (check_numerical_grad, numerical_grad_never_stored, "perturbed_array_shared", ["grad[k]"]),
    (check_numerical_grad, numerical_grad_zeroes_x, "input_modified", ["x 被改动了", "x[k] = old", "ch2-finite-diff"]),
    (check_numerical_grad, numerical_grad_restored_by_arithmetic, "input_modified", ["舍入误差"]),
    (check_cross_entropy, cross_entropy_index_before, "target_off_by_one",
     ["z[-1]", "直接用 y 取下标", "app-indexing", "参见：附录“编号与序数”一节（appendix.ipynb）"]),
    (check_cross_entropy, cross_entropy_index_after, "target_off_by_one", ["IndexError", "z[y + 1]"]),
    (check_cross_entropy, lambda z, y: labcode.logsumexp(z) + z[y], "target_score_sign", ["去括号", "ch1-logsumexp"]),
    (check_cross_entropy, cross_entropy_log_of_sum, "no_max_shift", ["log(inf) = inf", "log 0 = -inf"]),
    (check_cross_entropy_grad, grad_index_before, "target_off_by_one", ["g[y] -= 1", "g[-1]", "app-indexing"]),
    (check_cross_entropy_grad, grad_index_after, "target_off_by_one", ["IndexError"]),
    (check_mean_loss, mean_loss_index_after, "target_off_by_one", ["Z[np.arange(N), y]"]),
    (check_bigram_loss_and_grad, bigram_index_before, "target_off_by_one", ["编号与序数"]),
]


def _stable_log_bigram(fn):
    """The bigram mistakes below the loss line need a loss that is right even on the underflow row."""
    def wrapped(W, xs, ys):
        _, dW = fn(W, xs, ys)
        return bigram.loss_and_grad(W, xs, ys)[0], dW
    return wrapped


@pytest.mark.parametrize("check, fn, key, words", WRONG, ids=[f"{c.__name__}-{k}" for c, _, k, _ in WRONG])
def test_each_named_mistake_is_recognised_with_its_hint(check, fn, key, words):
    if check is check_bigram_loss_and_grad and key in ("missing_minus_e_y", "gradient_sign",
                                                       "repeated_ids_overwrite", "gradient_not_divided"):
        fn = _stable_log_bigram(fn)
    result = check(fn)
    assert not result.passed and not result.not_written
    assert result.mistakes and result.mistakes[0].key == key, str(result)
    text = str(result)
    assert "认出的错误：" + result.mistakes[0].title in text
    for word in words:
        if re.fullmatch(r"(ch\d|app)-[\w-]+", word):       # the section the hint points to
            assert result.mistakes[0].label == word, result.mistakes[0].label
        else:
            assert word in text, f"{word!r} missing from:\n{text}"
    assert f'href="{result.mistakes[0].href}"' in result._repr_html_()


@pytest.mark.parametrize("fn, key", [
    (interpolated_n_from_pairs, "unigram_n_from_pairs"),
    (interpolated_with(unigram=lambda C, N, V: (C.sum(axis=0) + 1) / N), "unigram_not_normalised")])
def test_the_n_of_the_unigram_is_told_apart_from_a_missing_v_on_every_case(fn, key):
    """N = len(xs) and a denominator without V agree wherever len(xs) + V = C.sum(): every failing case names the
    reader's own slip, and the first cases are ones where the two differ. No case claims to be the book's example
    (chapter 5 has no such matrix)."""
    result = check_interpolated_nll(fn)
    assert result.failures and {case.mistake.key for case in result.failures if case.mistake} == {key}, str(result)
    assert result.failures[0].mistake is not None and result.failures[0].mistake.key == key
    assert not any("书里" in case.name for case in result.cases), [case.name for case in result.cases]


def test_a_mistake_is_told_apart_by_the_cases_that_separate_it_from_look_alikes():
    """With y = 1 (the book's example), p - 1 and p - y are the same numbers, and with y = 0 p - y is p: the other
    cases decide, and the first failing case already names the mistake that explains them all."""
    for fn, key in ((grad_minus_one, "every_component_minus_one"), (lambda z, y: stable_softmax(z) - y,
                                                                    "label_subtracted"),
                    (lambda z, y: stable_softmax(z), "missing_minus_e_y")):
        result = check_cross_entropy_grad(fn)
        assert {case.mistake.key for case in result.failures} == {key}, str(result)
    # a mistake that the reader's passing cases contradict is not named: the mean shift passes [1000, 1001, 1002],
    # where an unshifted softmax gives nan, so it is not “没有先减最大值”
    assert [h.key for h in check_softmax(softmax_mean_shift).mistakes] == ["mean_shift"]
    assert [h.key for h in check_cross_entropy(log_of_softmax).mistakes] == ["log_of_underflow"]


def test_each_mistake_the_checkers_predict_is_named_when_a_reader_makes_exactly_it(monkeypatch):
    """For every named mistake of every battery: a function that returns, on each case, what that mistake returns
    there is told that mistake (the battery tells every named mistake apart from the others)."""
    from labcode.practice import battery
    from labcode.practice import bigram as b
    from labcode.practice import embedding as e
    from labcode.practice import gradient as g
    from labcode.practice import idioms as i
    from labcode.practice import probability as p
    from labcode.practice import training as t
    seen = {}

    def spy(check, fn, probes, **options):
        seen[check] = probes, options["predict"]
        return battery.run(check, fn, probes, **options)

    for module in (p, g, e, b, t, i):
        monkeypatch.setattr(module, "run", spy)
    named = 0
    for check, fns in RIGHT.items():
        check(fns[0])
        probes, predict = seen[check.__name__]
        with np.errstate(all="ignore"):
            predictions = [predict(probe) for probe in probes]
        for key in dict.fromkeys(hint.key for found in predictions for hint, _ in found):
            answers = [next((v for hint, v in found if hint.key == key), probe.expected)
                       for probe, found in zip(probes, predictions, strict=True)]
            answers = [tuple(probe.expected[i] if part is battery.ANY else part for i, part in enumerate(answer))
                       if type(answer) is tuple else answer for probe, answer in zip(probes, answers, strict=True)]

            def exactly(*args, answers=answers, probes=probes):
                k = next(k for k, probe in enumerate(probes) if _same_args(args, probe.args))
                return answers[k]
            result = check(exactly)
            assert result.mistakes and result.mistakes[0].key == key, f"{check.__name__}: {key}\n{result}"
            named += 1
    assert named >= 50


def _same_args(args, probe_args):
    """The arguments of one case (copies of its arrays; functions compared by their code: the battery makes its
    functions afresh on every check)."""
    from labcode.practice.battery import same_values

    def same(a, b):
        if isinstance(b, np.ndarray):
            return same_values(a, b)
        return getattr(a, "__code__", a) == getattr(b, "__code__", b)
    return all(same(a, b) for a, b in zip(args, probe_args, strict=True))


def test_an_off_by_one_target_index_is_not_called_subtracting_the_max_score():
    """z[y - 1] and z[y + 1] hit the maximum on some cases (the book's example, [0, 40] with y = 0): there they look
    like ``logsumexp(z) - max z``. Only the index slip is named; the max score only for a function that subtracts it."""
    for fn in (cross_entropy_index_before, cross_entropy_index_after):
        result = check_cross_entropy(fn)
        assert [hint.key for hint in result.mistakes] == ["target_off_by_one"], str(result)
        assert "最大分数" not in str(result)
    separating = next(case for case in check_cross_entropy(cross_entropy_minus_max).failures
                      if case.name.startswith("最高分不在目标旁边"))
    assert separating.mistake.key == "max_score_not_target"
    z, y = separating.args
    assert np.argmax(z) not in (y - 1, y, y + 1)


def _log_softmax_rows(W, xs):
    s = W[xs] - W[xs].max(axis=1, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=1, keepdims=True))


def bigram_from_log_softmax(*, pick="pairs", rows="xs", probs_then_log=False, add="at", divide=True):
    """The reader's bigram of exercise 4.1, written from the log-softmax, with the chosen slips."""
    def fn(W, xs, ys):
        N, V = len(xs), W.shape[0]
        logp = _log_softmax_rows(W, xs)
        p = np.exp(logp)
        picked = (np.log(p) if probs_then_log else logp)
        loss = -(picked[np.arange(N), ys] if pick == "pairs" else picked[:, ys]).mean()
        g = p.copy()
        g[np.arange(N), ys] -= 1
        g = g / (N if divide else 1)
        dW = np.zeros((V, V))
        target = xs if rows == "xs" else ys
        if add == "at":
            np.add.at(dW, target, g)
        else:
            dW[target] += g
        return loss, dW
    return fn


def counts_with(*, n_axis="rows", log_of_probs=False):
    """The reader's counts form of exercise 4.2 with the chosen slip."""
    def fn(W, C):
        N, n = C.sum(), C.sum(axis=1)
        s = W - W.max(axis=1, keepdims=True)
        p = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
        logp = np.log(p) if log_of_probs else s - np.log(np.exp(s).sum(axis=1, keepdims=True))
        weight = {"rows": n[:, None], "cols": n, "none": 1.0, "column_sums": C.sum(axis=0, keepdims=True)}[n_axis]
        return -(C * logp).sum() / N, (weight * p - C) / N
    return fn


def _pairs_form(fn):
    return lambda W, xs, ys: fn(W, bigram.count_matrix(xs, ys, W.shape[0]))


@pytest.mark.parametrize("check, fn, key", [
    (check_bigram_loss_and_grad, bigram_from_log_softmax(pick="columns"), "all_targets_per_row"),
    (check_bigram_loss_and_grad, bigram_from_log_softmax(rows="ys"), "gradient_rows_by_ys"),
    (check_bigram_loss_and_grad, bigram_from_log_softmax(probs_then_log=True), "log_of_underflow"),
    (check_bigram_loss_and_grad, bigram_from_log_softmax(probs_then_log=True, add="index"),
     "log_of_underflow repeated_ids_overwrite"),
    (check_bigram_loss_and_grad, bigram_from_log_softmax(probs_then_log=True, divide=False),
     "log_of_underflow gradient_not_divided"),
    (check_bigram_loss_and_grad, _pairs_form(counts_with(n_axis="none")), "counts_missing_n"),
    (check_bigram_loss_and_grad, _pairs_form(counts_with(n_axis="cols")), "counts_n_broadcast"),
    (check_counts_loss_and_grad, counts_with(n_axis="none"), "counts_missing_n"),
    (check_counts_loss_and_grad, counts_with(n_axis="cols"), "counts_n_broadcast"),
    (check_counts_loss_and_grad, counts_with(log_of_probs=True), "log_of_underflow"),
    (check_bigram_loss_and_grad, _pairs_form(counts_with(n_axis="column_sums")), "counts_n_broadcast"),
    (check_counts_loss_and_grad, counts_with(n_axis="column_sums"), "counts_n_broadcast"),
], ids=["probs-all-columns", "rows-by-ys", "softmax-then-log", "log-and-overwrite", "log-and-not-divided",
        "pairs-missing-n", "pairs-n-columns", "counts-missing-n", "counts-n-columns", "counts-zero-log",
        "pairs-column-sums", "counts-column-sums"])
def test_realistic_bigram_slips_get_their_own_name_on_each_case_they_fail(check, fn, key):
    """Each failing case names only a mistake that reproduces that case: a loss slip is never blamed for a case whose
    loss is right, so with two slips at once the gradient slip is named on the cases only it breaks."""
    result = check(fn)
    assert not result.passed
    for case in result.failures:
        assert case.mistake is not None, f"{case.name}:\n{result}"
        loss_failed = case.message.startswith("loss：")
        if case.mistake.key in ("log_of_underflow", "all_targets_per_row"):
            assert loss_failed, f"{case.name}: a loss mistake named for a case whose loss is right\n{result}"
    named = {case.mistake.key for case in result.failures}
    if " " in key:                          # two slips at once: each case is named after one that it shows
        assert named <= set(key.split()) and "log_of_underflow" not in named - {result.failures[-1].mistake.key}
    else:
        assert named == {key}, str(result)


def test_the_counts_checker_tells_n_on_the_columns_from_the_first_case():
    """“aba” has a symmetric C, where row and column sums agree: the counts checker's first case does not, so the
    shape slip (n of shape (V,)) and column sums (axis=0, shape (1, V)) show there, and the hint names both causes
    with a fix that works for either (not n[:, None] on a (1, V) array)."""
    C = check_counts_loss_and_grad(bigram.loss_and_grad_from_counts).cases[0].args[1]
    assert (C.sum(axis=0) != C.sum(axis=1)).any()
    for slip in ("cols", "column_sums"):
        result = check_counts_loss_and_grad(counts_with(n_axis=slip))
        assert result.failures[0].name == result.cases[0].name and result.mistakes[0].key == "counts_n_broadcast"
        text = str(result)
        assert "(V,)" in text and "axis=0" in text and "(1, V)" in text and "keepdims=True" in text, text


def test_the_counts_checker_explains_the_inf_loss_of_an_unshifted_softmax():
    """No max subtracted: log Σ exp(W) overflows to inf (the loss is inf, not nan), the probabilities to inf/inf
    (the gradient is nan); the hint says both, for W, as the reader got them."""
    def unshifted(W, C):
        N, n = C.sum(), C.sum(axis=1)
        e = np.exp(W)
        logp = W - np.log(e.sum(axis=1, keepdims=True))
        return -(C * np.where(C > 0, logp, 0.0)).sum() / N, (n[:, None] * e / e.sum(axis=1, keepdims=True) - C) / N
    result = check_counts_loss_and_grad(unshifted)
    assert result.failures and all(case.mistake.key == "no_max_shift" for case in result.failures), str(result)
    assert any(case.message.startswith("loss：结果含 inf") for case in result.failures), str(result)
    text = str(result)
    assert "log(inf) = inf" in text and "exp(W)" in text and "inf/inf = nan" in text, text


def test_the_counts_checker_speaks_of_the_counts_form():
    result = check_counts_loss_and_grad(counts_with(n_axis="none"))
    text = str(result)
    assert "n[:, None] * p" in text and "W[xs]" not in text and "valid.sum()" not in text
    flipped = check_counts_loss_and_grad(lambda W, C: (bigram.loss_and_grad_from_counts(W, C)[0],
                                                       -bigram.loss_and_grad_from_counts(W, C)[1]))
    assert flipped.mistakes[0].key == "gradient_sign" and "(n[:, None] * p - C) / N" in str(flipped)
    assert "g[y]" not in str(flipped)
    summed = check_counts_loss_and_grad(lambda W, C: tuple(v * C.sum() for v in bigram.loss_and_grad_from_counts(W, C)))
    assert summed.mistakes[0].key == "sum_not_mean" and "C.sum()" in str(summed) and "valid" not in str(summed)


def test_bigram_sum_instead_of_mean_is_named_from_the_loss():
    def summed(W, xs, ys):
        loss, dW = bigram.loss_and_grad(W, xs, ys)
        return loss * len(xs), dW * len(xs)
    result = check_bigram_loss_and_grad(summed)
    assert result.mistakes[0].key == "sum_not_mean" and "len(xs)" in str(result) and "valid" not in str(result)


@pytest.mark.parametrize("check, fn", [
    # shifted the numerator only: zeros on big scores, not the nan of an unshifted softmax
    (check_softmax, lambda z: np.exp(z - z.max()) / np.exp(z).sum()),
    (check_logsumexp, lambda z: z.max()),                                  # the max alone
    (check_cross_entropy, lambda z, y: z.max() - z[y]),                      # the max in place of logsumexp
    (check_cross_entropy_grad, lambda z, y: right_grad(z, y) / len(z)),      # divided by V
    # masked the logits but not the targets: an IndexError that has nothing to do with -100
    (check_mean_loss, lambda z, t: -labcode.log_softmax(z[t != -100], axis=1)[np.arange(len(t)), t].mean()),
    (check_mean_loss, mean_loss_batch_normalised),
], ids=lambda v: getattr(v, "__name__", ""))
def test_mistakes_the_book_does_not_name_get_the_general_advice_and_no_wrong_name(check, fn):
    result = check(fn)
    assert not result.passed and result.mistakes == (), str(result)
    assert "认出的错误" not in str(result) and f"怎么改：{result.advice.fix}" in str(result)


def test_an_unrecognised_mistake_still_fails_with_the_general_advice():
    result = check_softmax(lambda z: stable_softmax(z)[::-1].copy())
    assert not result.passed and result.mistakes == ()
    text = str(result)
    assert "认出的错误" not in text and "怎么改：三步" in text
    assert "参见：第 1 章“softmax：先取指数，再归一化”一节" in text


# ---- odd return values and calls that fail: reported, never a crash ----

@pytest.mark.parametrize("fn, words", [
    (lambda z: stable_softmax(z).tolist(), ["返回的是 list", "数值是对的"]),
    (lambda z: None, ["返回了 None", "return"]),
    (lambda z: stable_softmax(z)[None, :], ["形状应为 (3,)", "(1, 3)"]),
    (lambda z: np.full(z.shape, np.nan), ["结果含 nan"]),
    (lambda z: 1 / 0, ["抛出了 ZeroDivisionError", "division by zero"]),
    (lambda z: np.ones(z.shape, dtype=int), ["dtype int64"]),
    (lambda: None, ["抛出了 TypeError"]),
])
def test_odd_results_are_failed_cases_not_crashes(fn, words):
    result = check_softmax(fn)
    assert not result.passed and not result.not_written
    assert len(result.cases) == len(check_softmax(stable_softmax).cases)
    text = str(result)
    for word in words:
        assert word in text, text


@pytest.mark.parametrize("check, value, words", [
    (check_logsumexp, lambda z: [1.0], ["应返回一个数", "list"]),
    (check_logsumexp, lambda z: np.array([labcode.logsumexp(z)]), ["形状 (1,) 的数组"]),
    (check_cross_entropy, lambda z, y: True, ["布尔值"]),
    (check_mean_loss, lambda z, t: labcode.cross_entropy(z, t, reduction="none"), ["应返回一个数"]),
    (check_bigram_loss_and_grad, lambda W, xs, ys: bigram.loss_and_grad(W, xs, ys)[0], ["应返回两个值 (loss, dW)"]),
    (check_bigram_loss_and_grad, lambda W, xs, ys: (1.0, [[0.0]]), ["dW：返回的是 list"]),
    (check_embedding_backward, lambda dH, ids, V: dH, ["形状应为 (6, 2)", "(3, 2)"]),
    (check_embedding_backward, lambda dH, ids, V: labcode.embedding_backward(dH, ids, V).T,
     ["形状应为 (6, 2)，收到 (2, 6)，正好是转置的形状", "(vocab_size, d)"]),
    (check_embedding_backward, lambda dH, ids, V: labcode.embedding_backward(dH, ids, ids.max() + 1),
     ["形状应为 (4, 3)，收到 (3, 3)", "没被读到的行是 0"]),
    (check_bigram_loss_and_grad, lambda W, xs, ys: (bigram.loss_and_grad(W, xs, ys)[0], softmax_rows(W[xs])),
     ["dW：形状应为 (3, 3)，收到 (4, 3)"]),
    (check_numerical_grad, lambda f, x, d: np.zeros(x.size + 1), ["形状应为 (3,)", "(4,)"]),
    (check_training_loop, lambda lg, W, lr, steps: W, ["应返回两个值 (W, losses)，收到 ndarray"]),
    (check_training_loop, lambda lg, W, lr, steps: (W, "losses"), ["losses：应是一串数（列表或数组），收到 str"]),
    (check_training_loop, lambda lg, W, lr, steps: (W, [[1.0]]), ["losses：应是一维的一串数"]),
    (check_training_loop, lambda lg, W, lr, steps: (W.tolist(), []), ["W：返回的是 list"]),
    (check_training_loop, lambda lg, W, lr, steps: (lambda W, L: (W, L[:-1]))(*train_append_after(lg, W, lr, steps)),
     ["应有 steps + 1 = 5 个数", "收到 4 个：前几个都对，少了最后一次更新之后的损失"]),
    (check_training_loop, lambda lg, W, lr, steps: (lambda W, L: (W, L[1:]))(*train_append_after(lg, W, lr, steps)),
     ["收到 4 个：少了出发点（更新之前）的损失"]),
])
def test_scalars_pairs_and_shapes_are_checked(check, value, words):
    text = str(check(value))
    for word in words:
        assert word in text, text


def _whole_row(z, y):
    return labcode.logsumexp(z) - z                  # -ln p of every candidate


@pytest.mark.parametrize("check, fn, advice, repaired", [
    # the fix the message suggests, applied to what the reader returned, gives the right value
    (check_cross_entropy, _whole_row, "在末尾取 [y]（不是 .sum() 或 .mean()）", lambda f: lambda z, y: f(z, y)[y]),
    (check_cross_entropy, lambda z, y: stable_softmax(z), "loss = logsumexp(z) - z[y]", None),
    (check_logsumexp, lambda z: z.max() + np.log(np.exp(z - z.max())), "先把 exp(z - m) 的各项加起来", None),
    (check_mean_loss, lambda z, t: labcode.cross_entropy(z, t, reduction="none"), "除以有效目标的个数 valid.sum()",
     lambda f: lambda z, t: f(z, t).sum() / (t != -100).sum()),
    (check_mean_loss, lambda z, t: labcode.cross_entropy(z[t != -100], t[t != -100], reduction="none"),
     "再取它们的平均 .mean()", lambda f: lambda z, t: f(z, t).mean()),
    (check_bigram_loss_and_grad,
     lambda W, xs, ys: (labcode.cross_entropy(W[xs], ys, reduction="none"), bigram.loss_and_grad(W, xs, ys)[1]),
     "loss 是它们的平均：取 .mean()", lambda f: lambda W, xs, ys: (f(W, xs, ys)[0].mean(), f(W, xs, ys)[1])),
], ids=["ce-row", "ce-probabilities", "lse-no-sum", "mean-per-position", "mean-per-target", "bigram-per-pair"])
def test_a_row_returned_for_one_number_gets_a_fix_that_gives_the_right_value(check, fn, advice, repaired):
    """Where one number is due and the reader returns several, the message never suggests a reduction that yields
    a wrong loss (.sum() or .mean() of -ln p over every candidate, or over positions that include ignored ones)."""
    text = str(check(fn))
    assert advice in text, text
    assert "或 .sum()、.mean() 得到一个数" not in text
    if repaired is not None:
        assert check(repaired(fn)).passed
    else:
        assert "[y]（" not in text and "取 .mean()" not in text


def test_the_training_loop_is_checked_against_the_numbers_chapter_4_prints():
    """The names.txt case is bigram.train from W = 0 at lr 70: the chapter's 3.295837, 2.973528, 2.825444."""
    from labcode.practice.training import descend
    C = bigram.names_data().counts
    start = np.zeros(C.shape)
    W_ref, losses = descend(lambda W: bigram.loss_and_grad_from_counts(W, C), start, bigram.NAMES_LR, 3)
    W_book, book = bigram.train(start, C, lr=bigram.NAMES_LR, steps=3)
    assert np.allclose(losses, book, rtol=1e-12) and np.allclose(W_ref, W_book, rtol=1e-12)
    assert [f"{v:.6f}" for v in losses[:3]] == ["3.295837", "2.973528", "2.825444"]
    assert "names.txt，计数写法，lr = 70，3 步" in str(check_training_loop(train_append_after))


def test_each_case_gets_its_own_copies_so_a_mutating_function_changes_no_later_case():
    seen = []

    def in_place(z):
        seen.append(z.copy())
        z -= z.max()                        # mutates its argument
        np.exp(z, out=z)
        return z / z.sum()
    result = check_softmax(in_place)
    assert [case.args[0].tolist() for case in result.cases] == [z.tolist() for z in seen]
    assert check_softmax(stable_softmax).passed


# The reference of each checker, and the position of every array argument it must leave as it was.
REFERENCE_ARRAYS = [(check, RIGHT[check][0], positions) for check, positions in [
    (check_softmax, {"z": 0}), (check_logsumexp, {"z": 0}), (check_cross_entropy, {"z": 0}),
    (check_cross_entropy_grad, {"z": 0}), (check_numerical_grad, {"x": 1}),
    (check_mean_loss, {"logits": 0, "targets": 1}), (check_embedding_backward, {"dH": 0, "ids": 1}),
    (check_bigram_loss_and_grad, {"W": 0, "xs": 1, "ys": 2}), (check_counts_loss_and_grad, {"W": 0, "C": 1}),
    (check_training_loop, {"W": 1})]]


@pytest.mark.parametrize("check, reference, positions", REFERENCE_ARRAYS, ids=lambda v: getattr(v, "__name__", ""))
def test_a_right_result_with_an_argument_changed_in_place_is_named_for_every_checker(check, reference, positions):
    """Every array argument of every checker: the right value returned, then the caller's array changed (one entry,
    as `z -= z.max()` or `W -= lr * dW` would) fails on every case, with that argument named."""
    for name, k in positions.items():
        def changes(*args, k=k):
            value = copy.deepcopy(reference(*args))     # (the training loop may return the very W it was given)
            array = args[k].reshape(-1)
            last = np.flatnonzero(np.isfinite(array))[-1]    # not a -inf of W = ln C: -inf + 0.5 is -inf
            array[last] += 1 if array.dtype.kind in "iu" else 0.5
            return value
        result = check(changes)
        assert len(result.failures) == len(result.cases), str(result)
        assert {case.mistake.key for case in result.failures} == {"input_modified"}, str(result)
        assert f"认出的错误：{name} 被改动了（调用后与调用前不同）" in str(result), str(result)
        assert f"{name} = {name}.copy()" in str(result) or name == "x"


def test_warnings_of_the_readers_code_do_not_escape(recwarn):
    check_softmax(no_shift_softmax)
    assert len(recwarn) == 0


# ---- the skeleton: a deterministic "not written yet" report ----

NOT_WRITTEN_TEXT = ("{name}：还没写\n  函数抛出了 NotImplementedError，书里给的骨架就是这样。"
                    "把 raise 那一行换成你的代码，先运行定义函数的那一格，再运行这一格。")


@pytest.mark.parametrize("check", CHECKERS, ids=lambda c: c.__name__)
def test_the_skeleton_gets_the_not_written_report(check):
    result = check(skeleton)
    assert result.not_written and not result.passed and not result
    assert str(result) == NOT_WRITTEN_TEXT.format(name=check.__name__)
    assert repr(result) == f"<CheckResult {check.__name__}: 还没写>"
    assert "还没写" in result._repr_html_() and "Traceback" not in result._repr_html_()
    assert str(check(skeleton)) == str(result) and check(skeleton)._repr_html_() == result._repr_html_()


def test_not_implemented_later_in_the_battery_is_an_ordinary_failure():
    def partly(z):
        if z.dtype == np.float32:
            raise NotImplementedError("float32 还没处理")
        return stable_softmax(z)
    result = check_softmax(partly)
    assert not result.not_written and not result.passed
    assert "抛出了 NotImplementedError：float32 还没处理" in str(result)


# ---- the report: text, HTML, repr ----

def test_a_failing_report_shows_the_first_failure_with_input_expected_actual_and_a_link():
    result = check_softmax(no_shift_softmax)
    text = str(result)
    assert text.startswith("check_softmax：没通过（12 项里有 3 项没过）")
    for line in ("第一项没过：分数都很大 [1000, 1001, 1002]", "输入：z = [1000., 1001., 1002.]",
                 "期望：[0.090031, 0.244728, 0.665241]", "实际：[nan, nan, nan]", "问题：结果含 nan",
                 "参见：第 1 章“先减最大值”一节（01_probability_to_loss.ipynb）",
                 "其余没过：分数都很负 [-1000, -1001, -1002]；跨度很大 [-1000, 0, 1000]",
                 "rtol=1e-05, atol=1e-08"):
        assert line in text
    assert "通过：书里的例子 [0, 1, 2]；" in text
    failed = [case for case in result.cases if not case.passed]
    assert [case.name for case in failed] == ["分数都很大 [1000, 1001, 1002]", "分数都很负 [-1000, -1001, -1002]",
                                              "跨度很大 [-1000, 0, 1000]"]
    assert all(case.mistake.key == "no_max_shift" and case.message for case in failed)
    assert repr(result) == "<CheckResult check_softmax: 没通过（12 项里通过 9 项；print() 看完整报告）>"


def test_the_html_report_escapes_and_links():
    html = check_cross_entropy(lambda z, y: "<b>&</b>")._repr_html_()
    assert html.startswith('<div class="lc-practice" lang="zh-CN">')
    assert "<b>&" not in html and "&lt;b&gt;&amp;" in html
    html = check_softmax(no_shift_softmax)._repr_html_()
    assert ('<a href="01_probability_to_loss.ipynb#cell-id=58b5d69f">第 1 章“先减最大值”一节</a>'
            "（01_probability_to_loss.ipynb）") in html
    for label in ("输入", "期望", "实际", "认出的错误", "怎么改"):
        assert f">{label}</dt><dd" in html
    assert "color" not in html and "<code" not in html      # inherited colours only: readable in light and dark


def test_a_passing_report_lists_every_case_and_the_tolerance():
    result = check_mean_loss(labcode.cross_entropy)
    text = str(result)
    assert text.splitlines()[0] == f"check_mean_loss：通过（全部 {len(result.cases)} 项）"
    assert all(case.name in text for case in result.cases)
    assert "比较标准" in text and "float32" in text
    assert repr(result) == f"<CheckResult check_mean_loss: 通过（{len(result.cases)} 项全部通过）>"


def test_the_central_difference_report_does_not_promise_that_float32_passes():
    """A difference in float32 is off by ~1e-3 (chapter 2): its report says what it compares with, and no more."""
    def in_float32(f, x, delta):
        return labcode.numerical_grad(f, np.asarray(x, dtype=np.float32), delta)
    assert "float32" not in str(check_numerical_grad(labcode.numerical_grad))
    assert not check_numerical_grad(in_float32).passed


def test_reports_are_the_same_on_every_run_and_hold_no_addresses():
    class Odd:
        pass
    first = [str(check(lambda *a: Odd())) for check in CHECKERS]
    again = [str(check(lambda *a: Odd())) for check in CHECKERS]
    assert first == again
    assert not any(re.search(r"0x[0-9a-f]{4,}", text) for text in first)
    assert str(check_bigram_loss_and_grad(bigram_with(no_shift_rows))) == \
        str(check_bigram_loss_and_grad(bigram_with(no_shift_rows)))


def _lines_of(text, label):
    """The lines of one labelled part of a text report (a multi-line array continues on indented lines)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  {label}："))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("    ")), len(lines))
    return lines[start:end]


def test_small_inputs_are_printed_in_full_and_large_ones_as_shape_and_excerpt():
    def wrong_on_large(W, xs, ys):            # right, except one entry of dW when V = 27
        loss, dW = bigram.loss_and_grad(W, xs, ys)
        if W.shape[0] == 27:
            dW = dW.copy()
            dW[5, 3] += 1.0
        return loss, dW
    result = check_bigram_loss_and_grad(wrong_on_large)
    first, text = result.failures[0], str(result)
    assert first.name == "随机 W（V = 27），60 个训练对"
    assert "W = 形状 (27, 27) 的数组，前两行：\n[[" in first.inputs and "（共 60 个数）" in first.inputs
    # expected and actual show the same few numbers around the entry that is off, in its row
    for label, entry in (("期望", "8.363085e-05"), ("实际", "1.000084e+00")):
        shown = "\n".join(_lines_of(text, label))
        assert "dW = 形状 (27, 27) 的数组，编号为 5 的行里编号为 0 到 6 的数：\n" in shown and entry in shown, shown
    for label in ("输入", "期望", "实际"):
        assert len(_lines_of(text, label)) <= 4, _lines_of(text, label)
    # ... and the full input is one attribute away, to replay the case
    assert "完整输入：把结果存下来：r = check_bigram_loss_and_grad(你的函数)；r.failures[0].args" in text
    W, xs, ys = first.args
    assert W.shape == (27, 27) and xs.shape == (60,)
    assert not np.allclose(wrong_on_large(*first.args)[1], bigram.loss_and_grad(*first.args)[1])

    small = check_softmax(no_shift_softmax)            # three numbers: printed in full, no pointer to the rest
    assert small.failures[0].inputs == "z = [1000., 1001., 1002.]" and "完整输入" not in str(small)
    zeros = check_mean_loss(lambda z, t: labcode.cross_entropy(z, t) * 1.01)
    assert zeros.failures[0].inputs == "logits = np.zeros((6, 6))，targets = [   3,    5,    2,    4,    2, -100]"
    assert "完整输入" not in str(zeros)                   # np.zeros((6, 6)) is the whole input


def test_the_report_ignores_global_print_options():
    expected = str(check_softmax(no_shift_softmax))
    with np.printoptions(precision=2, linewidth=20, threshold=3):
        assert str(check_softmax(no_shift_softmax)) == expected


def test_ipython_plain_text_view_is_the_full_report():
    class Printer:
        def text(self, value):
            self.value = value
    printer, result = Printer(), check_softmax(skeleton)
    result._repr_pretty_(printer, False)
    assert printer.value == str(result)


def test_assert_on_a_result_fails_when_the_check_fails():
    assert check_softmax(stable_softmax)
    with pytest.raises(AssertionError):
        assert check_softmax(no_shift_softmax)


# ---- bad arguments ----

@pytest.mark.parametrize("check", CHECKERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("not_a_function", [3, np.array([0.1, 0.9]), None, "softmax"])
def test_passing_something_that_is_not_callable_is_a_type_error(check, not_a_function):
    with pytest.raises(TypeError, match=rf"fn 必须是函数（可调用对象），收到 {type(not_a_function).__name__} .*"
                                        rf"请传入函数本身，如 {check.__name__}\(你的函数\)"):
        check(not_a_function)


# ---- the pointers lead to real sections, in the notebook beside the reader's ----

def _sections(notebook):
    """{label: (id of the cell that holds the label, the heading right after it)} of a chapter notebook."""
    cells = json.loads((ROOT / "book" / notebook).read_text(encoding="utf-8"))["cells"]
    return {m.group(1): (cell["id"], m.group(2)) for cell in cells if cell["cell_type"] == "markdown"
            for m in re.finditer(r"^\(((?:ch\d|app)-[\w-]+)\)=\n#+ (.*)$", "".join(cell["source"]), flags=re.M)}


def test_every_hint_points_at_the_cell_of_its_section_in_its_chapters_notebook():
    """The link opens the chapter's notebook at the cell holding the section's label (JupyterLab: #cell-id=…),
    and the section named in words is the one that heading starts: each run of its Chinese is in the heading."""
    catalogue = [v for v in vars(hint_catalogue).values() if isinstance(v, hint_catalogue.Hint)]
    assert len(catalogue) >= 20
    for hint in catalogue:
        sections = _sections(hint.notebook)
        assert hint.label in sections, f"{hint.key}: no ({hint.label})= before a heading in {hint.notebook}"
        cell, heading = sections[hint.label]
        assert hint.href == f"{hint.notebook}#cell-id={cell}", \
            f"{hint.key}: the cell holding ({hint.label})= has the id {cell!r}: update SECTIONS in report.py"
        for run in re.findall(r"[\u4e00-\u9fff]+", hint.section):
            assert run in heading, f"{hint.key}: {hint.section!r} is not the section {heading!r}"
        assert hint.fix and hint.section and (hint.why or not hint.title)
    unused = {label for sections in SECTIONS.values() for label in sections} - {h.label for h in catalogue}
    assert not unused, f"no hint points at {sorted(unused)}: take them out of SECTIONS in report.py"


def test_an_untransposed_one_hot_product_that_happens_to_fit_is_named_too():
    """With T = V, X @ dH runs and has the right shape: the values give the mistake away."""
    def square_only(dH, ids, V):
        if len(ids) != V:
            return labcode.embedding_backward(dH, ids, V)
        return np.eye(V)[ids] @ dH
    result = check_embedding_backward(square_only)
    assert not result.passed and result.mistakes[0].key == "missing_transpose"


def test_results_expose_cases_with_name_passed_and_message():
    result = check_embedding_backward(overwrite_backward)
    assert isinstance(result, CheckResult)
    first = result.failures[0]
    assert first.name == "书里的例子：ids = [3, 5, 3]" and first.passed is False
    assert first.message == "下标 [3, 1] 处差得最多：期望 1，实际 -1"
    assert first.inputs.startswith("dH = [[ 1.,  2.]")
    assert {case.passed for case in result.cases} == {True, False}


def test_a_return_value_that_cannot_even_be_read_is_a_failed_case():
    class Unreadable(float):
        def __float__(self):
            raise RuntimeError("no")
    result = check_logsumexp(lambda z: Unreadable(1.0))
    assert not result.passed and "返回值无法读取：RuntimeError" in str(result)
    listed = check_softmax(lambda z: [Unreadable(0.5)] * len(z))
    assert not listed.passed and "返回的是 list" in str(listed)
