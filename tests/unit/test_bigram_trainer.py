"""Kernel-side behaviour of the bigram trainer, without any display or browser."""
from __future__ import annotations

import base64
import json

import numpy as np
import pytest

import labcode
from labcode.bigram import NAMES_LR, bigram_data, count_nll, count_optimum, loss_and_grad_from_counts, train
from labcode.widgets import BigramTrainer, bigram_trainer
from labcode.widgets.bigram_trainer import MAX_NAME, SEED_MAX

WORDS = ["aba", "ab", "bab", "a"]


@pytest.fixture(scope="module")
def tiny():
    data = bigram_data(WORDS)
    return data.counts, data.vocab


@pytest.fixture(scope="module")
def names_trainer():
    return bigram_trainer()


def test_default_state_is_the_names_count_matrix(names_trainer):
    w = names_trainer
    assert w.vocab[0] == "." and len(w.vocab) == 27 and np.shape(w.counts) == (27, 27)
    assert int(np.sum(w.counts)) == 228146
    assert (w.alpha, w.reg, w.lr, w.temperature, w.seed) == (0.0, 0.0, NAMES_LR, 1.0, 0)  # the chapter's run
    assert w.W == [] and w.history == [] and w.loss() == pytest.approx(np.log(27), rel=1e-12)
    assert BigramTrainer().counts == w.counts  # a valid default state with no arguments


def test_count_optimum_on_names_matches_the_chapter_figure(names_trainer):
    assert count_optimum(names_trainer.counts) == pytest.approx(2.454014, abs=5e-7)
    assert count_optimum(names_trainer.counts) == count_nll(names_trainer.counts)  # alpha = 0: the chapter's optimum


@pytest.mark.parametrize("alpha", [0.5, 1.0, 3.0])
def test_optimum_is_reached_by_w_equal_log_smoothed_counts(tiny, alpha):
    counts, vocab = tiny
    N = counts + alpha
    assert count_optimum(counts, alpha) == pytest.approx(loss_and_grad_from_counts(np.log(N), N, 0.0)[0], rel=1e-12)
    w = bigram_trainer(counts, vocab, alpha=alpha)
    assert w.optimum() == count_optimum(counts, alpha)


def test_python_training_falls_toward_the_optimum_and_never_below(tiny):
    w = bigram_trainer(*tiny, alpha=0.0, lr=5.0, steps=300)
    w.train()
    h = np.asarray(w.history)
    assert len(h) == 300 and h[0] == pytest.approx(np.log(len(w.vocab)))
    assert (np.diff(h) <= 1e-15).all()
    assert h.min() >= w.optimum() and w.loss() - w.optimum() < 0.05
    w.train(100)
    assert len(w.history) == 400 and w.optimum() <= w.loss() <= h[-1]


def test_training_matches_labcode_step_by_step(tiny):
    counts, vocab = tiny
    w = bigram_trainer(counts, vocab, alpha=1.0, reg=0.01, lr=2.0)
    w.train(3)
    W = np.zeros((3, 3))
    for loss in w.history:
        expected, grad = loss_and_grad_from_counts(W, counts + 1.0, 0.01)
        assert loss == pytest.approx(expected, rel=1e-12)
        W = W - 2.0 * grad
    np.testing.assert_allclose(w.weights(), W, rtol=1e-12, atol=1e-15)


def test_regularisation_settles_above_the_optimum(tiny):
    W, _ = train(np.zeros((3, 3)), tiny[0] + 1.0, lr=5.0, steps=2000, reg=0.5)
    loss_reg = loss_and_grad_from_counts(W, tiny[0] + 1.0, 0.5)[0]
    assert loss_reg > count_optimum(tiny[0], 1.0) + 1e-3


def test_new_alpha_or_lambda_restarts_but_a_new_lr_does_not(tiny):
    w = bigram_trainer(*tiny).train(5)
    w.lr = 10.0
    assert len(w.history) == 5
    w.alpha = 2.0
    assert w.W == [] and w.history == []
    w.train(5)
    w.reg = 0.1
    assert w.W == [] and w.history == []


def test_sampling_is_reproducible_for_a_seed(names_trainer):
    w = bigram_trainer(seed=7).train(300)
    first = w.sample()
    assert w.sample() == first and len(first) == w.n_names
    assert all(set(name) <= set(w.vocab[1:]) for name in first)
    w.seed = 8
    assert w.sample() != first
    assert len(w.sample(n=3, temperature=0.5)) == 3


def test_summary_is_one_line_and_png_snapshot_is_a_picture(tiny):
    w = bigram_trainer(*tiny)
    text = w.summary()
    assert "\n" not in text and "计数最优" in text and "已训练 0 步" in text
    bundle, _ = w._repr_mimebundle_()
    assert bundle["text/plain"] == text
    assert base64.b64decode(bundle["image/png"]).startswith(b"\x89PNG")
    assert w.history == []  # the snapshot's preview run does not change the state
    w.train(10)
    assert "已训练 10 步" in repr(w)
    assert w.snapshot_png() == w.snapshot_png()  # same bytes each time


def test_synced_state_stays_small(names_trainer):
    state = names_trainer.get_state()
    data = {k: v for k, v in state.items() if k not in ("_esm", "_css")}
    assert len(json.dumps(data)) < 6000  # 27 x 27 counts + vocab + scalars; W and history start empty


def test_lazy_reexport_from_labcode():
    assert labcode.bigram_trainer is bigram_trainer and labcode.BigramTrainer is BigramTrainer


def test_the_page_maths_lives_in_the_shared_maths_module():
    from labcode.widgets._base import HERE
    maths = (HERE / "maths.js").read_text(encoding="utf-8")
    page = (HERE / "bigram_trainer.js").read_text(encoding="utf-8")
    imported = page.split('from "./maths.js";')[0]
    for name in ("countLossGradFlat", "countStepFlat", "countOptimum", "mulberry32", "sampleBigram"):
        assert f"export function {name}(" in maths and f"function {name}(" not in page and name in imported
    assert "export function lossAndGradFromCounts(" in maths and 'export * as maths from "./maths.js";' in page


def test_constants_are_defined_once_in_python_and_handed_to_the_page(names_trainer):
    """The longest sampled name and the seed range come from Python through traits, not from numbers in JS."""
    from labcode.widgets._base import HERE
    state = names_trainer.get_state()
    assert state["max_name_len"] == MAX_NAME and state["seed_max"] == SEED_MAX == 2**32 - 1
    page = (HERE / "bigram_trainer.js").read_text(encoding="utf-8")
    maths = (HERE / "maths.js").read_text(encoding="utf-8")
    assert 'model.get("max_name_len")' in page and 'model.get("seed_max")' in page and 'model.get("sliders")' in page
    for name, _, lo, hi, step in state["sliders"]:     # each slider moves a checked trait and starts at its default
        assert name in BigramTrainer.class_own_traits() and lo <= getattr(names_trainer, name) <= hi, name
        assert lo < hi and 0 < step <= hi - lo and (hi - lo) / step == pytest.approx(round((hi - lo) / step)), name
        assert f'"{name}", "' not in page, f"the {name} slider is still written in JS"
    assert str(MAX_NAME) not in maths.split("export function sampleBigram")[1].split("\n")[0]
    assert "4294967" not in page
    w = bigram_trainer(seed=3).train(300)
    assert max(len(name) for name in w.sample(n=200, temperature=3.0)) == MAX_NAME  # hot: names hit the cap


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("kwargs, error, match", [
    ({"lr": 0}, ValueError, r"lr 必须是正的有限实数（学习率 η），收到 0"),
    ({"lr": -1.5}, ValueError, r"lr 必须是正的有限实数（学习率 η），收到 -1\.5"),
    ({"lr": "fast"}, TypeError, r"lr 必须是正的有限实数（学习率 η），收到 'fast'"),
    ({"temperature": 0}, ValueError, r"temperature 必须是正的有限实数，收到 0"),
    ({"alpha": -0.1}, ValueError, r"alpha 必须是非负的有限实数（平滑的伪计数 α），收到 -0\.1"),
    ({"reg": -1}, ValueError, r"reg 必须是非负的有限实数（正则化系数 λ），收到 -1"),
    ({"seed": -3}, ValueError, r"seed 必须是 \[0, 4294967295\] 内的整数，收到 -3"),
    ({"steps": 0}, ValueError, r"steps 必须是 \[1, 1000000\] 内的整数，收到 0"),
])
def test_bad_arguments_raise_errors_naming_argument_rule_and_value(kwargs, error, match):
    with pytest.raises(error, match=match):
        bigram_trainer([[0, 2], [1, 1]], [".", "a"], **kwargs)


@pytest.mark.parametrize("counts, error, match", [
    ([[1, 2, 3], [4, 5, 6]], ValueError, r"counts 必须是 \(V, V\) 的方阵，收到形状 \(2, 3\)"),
    ([1, 2, 3], ValueError, r"counts 必须是 \(V, V\) 的方阵，收到形状 \(3,\)"),
    ([[3]], ValueError, r"counts 至少要有两个符号（'.' 和一个字），收到形状 \(1, 1\)"),
    ([[1, 0.5], [1, 1]], ValueError, r"counts 的每个元素都必须是整数（次数），收到 0\.5（位置 \(0, 1\)）"),
    ([[1, -2], [1, 1]], ValueError, r"counts 的每个元素都必须是有限的非负数.*收到 -2"),
    ([[0, 0], [0, 0]], ValueError, r"counts 至少要有一个正的计数，收到全 0 矩阵"),
    ([[0, 3], [0, 0]], ValueError, r"counts 有的行全是 0（编号为 \[1\] 的行）.*训练器的 α 可以调到 0"),
    ([[0, 3], [0, 0], [1, 1]], ValueError, r"counts 必须是 \(V, V\) 的方阵"),
    ([["a", "b"], ["c", "d"]], TypeError, r"counts 必须是实数数组"),
])
def test_bad_counts_raise_errors(counts, error, match):
    with pytest.raises(error, match=match):
        bigram_trainer(counts, [".", "a", "b"][:np.shape(counts)[0]] if np.ndim(counts) == 2 else [".", "a"])


def test_bad_vocab_and_missing_vocab_raise_errors():
    with pytest.raises(ValueError, match=r"vocab 的大小必须等于 counts 的行数 2，收到 3 个符号"):
        bigram_trainer([[0, 2], [1, 1]], [".", "a", "b"])
    with pytest.raises(ValueError, match=r"符号必须互不相同，\['\.'\] 出现了不止一次"):
        bigram_trainer([[0, 2], [1, 1]], [".", "."])
    with pytest.raises(TypeError, match=r"给了 counts 就必须同时给 vocab"):
        bigram_trainer([[0, 2], [1, 1]])
    with pytest.raises(TypeError, match=r"vocab 必须是 build_vocab 给出的 Vocab 或按编号排列的符号序列"):
        bigram_trainer([[0, 2], [1, 1]], {".": 0, "a": 2})
    with pytest.raises(TypeError, match=r"vocab 必须是编号 0 是 '\.' 的 Vocab"):
        bigram_trainer([[0, 2], [1, 1]], ["a", "."])


def test_assigning_bad_values_to_traits_raises(tiny):
    w = bigram_trainer(*tiny)
    with pytest.raises(ValueError, match=r"lr 必须是正的有限实数（学习率 η），收到 0"):
        w.lr = 0.0
    with pytest.raises(ValueError, match=r"temperature 必须是正的有限实数.*-1"):
        w.temperature = -1.0
    with pytest.raises(ValueError, match=r"counts 的每个元素都必须是有限的非负数"):
        w.counts = [[1, -1], [0, 1]]
    assert w.lr == NAMES_LR and w.temperature == 1.0
