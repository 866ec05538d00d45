"""Benchmark rows for the chapter-4 bigram: exactness and speed of the two gradient paths on names.txt
(`python scripts/benchmark.py --skip-tests --skip-builds bigram`)."""
from __future__ import annotations

import tracemalloc

import numpy as np

from benchmark import row, timings
from labcode import bigram

LR = bigram.NAMES_LR   # gradient descent from zero weights, count path: below the edge bigram.lr_limits gives (74.4)
MAX_STEPS = 200_000


def best_of(fn, repeat):
    """Shortest wall time of `repeat` calls (the least disturbed by other processes)."""
    return min(timings(lambda i: fn(), repeat))


def peak_mib(fn):
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def rows(site):
    _, _, xs, ys, counts = bigram.names_data()
    V = counts.shape[0]
    W = np.random.default_rng(4).normal(size=(V, V))
    loss_a, grad_a = bigram.loss_and_grad(W, xs, ys, reg=0.01)
    loss_b, grad_b = bigram.loss_and_grad_from_counts(W, counts, reg=0.01)
    diff = max(abs(loss_a - loss_b), float(np.abs(grad_a - grad_b).max()))

    def example_step():
        _, dW = bigram.loss_and_grad(W, xs, ys)
        return W - LR * dW

    per_example = best_of(example_step, 3)
    k = 20_000
    per_count = best_of(lambda: bigram.train(W, counts, LR, k), 3) / k

    optimum = bigram.count_nll(counts)
    out = [row("bigram: max |difference| of loss and gradient, two paths", f"{diff:.1e}", "<= 1e-12"),
           row("bigram: one step, per-example path (228,146 pairs)", f"{per_example * 1e3:.0f} ms"),
           row("bigram: one step, count path (27x27)", f"{per_count * 1e6:.1f} us",
               f">= 1000x faster (now {per_example / per_count:,.0f}x)")]
    for tol, goal in ((1e-3, "-"), (1e-4, "< 0.25 s")):
        def run(tol=tol):
            return bigram.train(np.zeros((V, V)), counts, LR, MAX_STEPS, stop_below=optimum + tol)[1]
        seconds = best_of(run, 3)
        steps = len(run()) - 1
        out.append(row(f"bigram: gradient descent from W = 0 to within {tol:g} of the count NLL (lr {LR:g})",
                       f"{steps:,} steps, {seconds:.3f} s", goal))
    edges = bigram.lr_limits(counts)
    return [*out, row("bigram: stability edge of lr at the count optimum (tightest row)",
                      f"{edges.min():.1f} (row {int(edges.argmin())})", f"> lr {LR:g}"),
            row("bigram: peak memory, one per-example step", f"{peak_mib(example_step):.0f} MiB"),
            row("bigram: peak memory, 1,000 count-path steps",
                f"{peak_mib(lambda: bigram.train(W, counts, LR, 1000)) * 1024:.0f} KiB")]
