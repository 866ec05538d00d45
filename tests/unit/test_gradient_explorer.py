"""Kernel-side behaviour of the gradient-step explorer, without any display or browser."""
from __future__ import annotations

import base64
from pathlib import Path

import numpy as np
import pytest
import traitlets

import labcode
import labcode.widgets
from labcode.widgets import GradientExplorer, gradient_explorer

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def one_step(z, y, lr):
    """Independent of the widget: z - lr * (softmax(z) - e_y) with plain numpy."""
    z = np.asarray(z, dtype=float)
    p = np.exp(z - z.max())
    p /= p.sum()
    return z - lr * (p - np.eye(len(z))[y])


def loss(z, y):
    z = np.asarray(z, dtype=float)
    return float(np.log(np.sum(np.exp(z - z.max()))) + z.max() - z[y])


def assert_matches_labcode(w):
    z = np.asarray(w.logits)
    grad = labcode.cross_entropy_grad(z, w.target)
    z_next = z - w.lr * grad
    np.testing.assert_allclose(w.probs, labcode.softmax(z), rtol=1e-12, atol=1e-15)
    assert w.loss == pytest.approx(labcode.cross_entropy(z, w.target), rel=1e-12)
    np.testing.assert_allclose(w.grad, grad, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(w.next_logits, z_next, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(w.next_probs, labcode.softmax(z_next), rtol=1e-12, atol=1e-15)
    assert w.next_loss == pytest.approx(labcode.cross_entropy(z_next, w.target), rel=1e-12)
    assert len(w.history) == w.steps + 1
    assert w.history[-1] == pytest.approx(w.loss, rel=1e-12)


def test_default_state_is_valid_and_displayable():
    for w in (GradientExplorer(), gradient_explorer()):
        assert w.logits == [0.0, 1.0, 2.0] and w.labels == ["红", "黄", "绿"] and w.target == 0
        assert w.lr == 1.0 and w.steps == 0 and w.start_logits == w.logits
        assert_matches_labcode(w)
        data, _ = w._repr_mimebundle_()
        assert data["text/plain"].startswith("梯度一步探索器（把一个位置的分数 z 直接当作变量更新）：")


def test_gradient_is_p_minus_one_hot_and_sums_to_zero():
    w = gradient_explorer([np.log(2), 0.0, -np.log(2)], ["a", "b", "c"], target=1)
    np.testing.assert_allclose(np.array(w.grad) * 7, [4, -5, 1], atol=1e-12)
    assert sum(w.grad) == pytest.approx(0, abs=1e-15)


def test_one_step_matches_an_independent_formula_and_lowers_the_loss():
    w = gradient_explorer([0, 1, 2], ["红", "黄", "绿"], target="红", lr=0.5)
    z_next = one_step([0, 1, 2], 0, 0.5)
    np.testing.assert_allclose(w.next_logits, z_next, rtol=1e-12)
    assert w.next_loss == pytest.approx(loss(z_next, 0), rel=1e-12)
    assert w.next_loss < w.loss
    w.step()
    np.testing.assert_allclose(w.logits, z_next, rtol=1e-12)
    assert w.steps == 1 and w.start_logits == [0.0, 1.0, 2.0]
    assert_matches_labcode(w)


@pytest.mark.parametrize("lr", [0.1, 1.0, 5.0, 50.0])
def test_loss_falls_at_every_step_for_any_lr(lr):
    # every margin z_k - z_y shrinks by lr * (p_k + 1 - p_y) > 0, so the loss can only fall
    w = gradient_explorer([3, -1, 0.5, 2], list("abcd"), target=1, lr=lr)
    w.step(10)
    assert w.steps == 10 and len(w.history) == 11
    pairs = zip(w.history[:-1], w.history[1:], strict=True)
    assert all(b < a or b == a == 0.0 for a, b in pairs)  # 0.0 once p_y rounds to 1
    z = np.array([3, -1, 0.5, 2.0])
    for _ in range(10):
        z = one_step(z, 1, lr)
    np.testing.assert_allclose(w.logits, z, rtol=1e-10, atol=1e-12)
    assert_matches_labcode(w)


def test_reset_returns_to_the_start():
    w = gradient_explorer()
    start, first = list(w.logits), w.loss
    w.step(4)
    assert w.logits != start
    w.reset()
    assert w.logits == start and w.steps == 0 and w.history == [first]
    assert_matches_labcode(w)


def test_changing_lr_keeps_the_run_and_changing_logits_or_target_restarts_it():
    w = gradient_explorer(lr=1.0)
    w.step(2)
    w.lr = 0.3  # only future steps change
    assert w.steps == 2 and len(w.history) == 3
    assert_matches_labcode(w)
    w.step()
    assert w.steps == 3
    w.logits = [1.0, 1.0, 1.0]  # a new start
    assert w.steps == 0 and w.start_logits == [1.0, 1.0, 1.0] and w.history == [pytest.approx(np.log(3))]
    w.step(2)
    w.target = 2
    assert w.steps == 0 and w.start_logits == w.logits
    assert_matches_labcode(w)


def test_shifted_logits_still_restart_the_run():
    w = gradient_explorer()
    w.step(3)
    w.logits = [z + 1 for z in w.logits]  # same loss, but a new start all the same
    assert w.steps == 0 and w.start_logits == w.logits


def test_page_updates_are_kept_as_sent():
    """A step made in the browser arrives as logits + steps + history together and must not restart."""
    w = gradient_explorer(lr=0.5)
    z_next = one_step(w.logits, w.target, 0.5).tolist()
    w.set_state({"logits": z_next, "steps": 1, "history": [w.loss, loss(z_next, w.target)]})
    assert w.steps == 1 and w.start_logits == [0.0, 1.0, 2.0]
    assert_matches_labcode(w)
    w.set_state({"logits": [2.0, 0.0, 0.0], "start_logits": [2.0, 0.0, 0.0], "steps": 0,
                 "history": [loss([2, 0, 0], 0)]})  # a slider moved in the page
    assert w.steps == 0 and w.start_logits == [2.0, 0.0, 0.0]
    assert_matches_labcode(w)


def test_bookkeeping_is_read_only_from_python():
    w = gradient_explorer()
    for name, value in [("steps", 3), ("history", [1.0]), ("start_logits", [0.0, 0.0, 0.0])]:
        with pytest.raises(traitlets.TraitError, match="read-only"):
            setattr(w, name, value)


def test_max_steps_bounds_a_run():
    w = gradient_explorer(max_steps=5)
    w.step(5)
    with pytest.raises(ValueError, match=r"n 太大：已走 5 步，再走 1 步会超过 max_steps=5"):
        w.step()
    with pytest.raises(ValueError, match=r"n 必须是正整数，收到 0"):
        gradient_explorer().step(0)
    with pytest.raises(TypeError, match=r"n 必须是正整数，收到 1.5"):
        gradient_explorer().step(1.5)


def test_summary_is_one_readable_line():
    w = gradient_explorer([0, 1, 2], ["红", "黄", "绿"], target="红", lr=1.0)
    assert w.summary() == ("梯度一步探索器（把一个位置的分数 z 直接当作变量更新）：z=[0.000, 1.000, 2.000]，"
                           "真实目标=红，η=1，已走 0 步，损失 2.4076 → 再走一步后 1.2196")
    w.step()
    assert "已走 1 步，损失 1.2196 → 再走一步后" in w.summary()
    assert repr(w) == w.summary() and "\n" not in w.summary() and "\u2212" not in w.summary()


def test_mimebundle_has_png_snapshot_and_widget_view():
    w = gradient_explorer()
    w.step(3)
    data, _ = w._repr_mimebundle_()
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10000
    assert png == w.snapshot_png()  # deterministic bytes
    assert data[WIDGET_VIEW]["model_id"] == w.model_id


def test_front_end_imports_the_shared_maths_and_exports_its_own():
    w = gradient_explorer()
    here = Path(labcode.widgets.__file__).parent
    js = (here / "gradient_explorer.js").read_text(encoding="utf-8")
    assert "gradientStep" in js.split('from "./maths.js";')[0]  # imported by name, not a global
    assert "function gradientStep" in w._esm and "// labcode/widgets/maths.js" in w._esm
    assert "export function stepMaths" in js and "export default { render:" in js
    assert "Math.exp" not in js  # the maths is the shared maths.js, not a copy
    css = [(here / f"{name}.css").read_text(encoding="utf-8") for name in ("widget", "candidates")]
    assert w._css.startswith(css[0]) and css[1] in w._css


def test_the_page_and_the_snapshot_preview_the_same_number_of_steps():
    """The dashed loss curve: PREVIEW_STEPS more steps at the current lr, on the page and in the PNG snapshot."""
    import re

    from labcode.widgets.gradient_explorer import PREVIEW_STEPS

    js = Path(labcode.widgets.__file__).with_name("gradient_explorer.js").read_text(encoding="utf-8")
    assert re.search(r"^export const PREVIEW_STEPS = (\d+);", js, re.M).group(1) == str(PREVIEW_STEPS)
    assert "runSteps(z, y, eta, PREVIEW_STEPS)" in js


def test_every_claim_is_scoped_to_scores_as_the_variables():
    """The explorer updates one position's scores directly: its page, summary and snapshot say so."""
    js = Path(labcode.widgets.__file__).with_name("gradient_explorer.js").read_text(encoding="utf-8")
    assert "直接当作变量来更新" in js and "真实训练更新的是产生分数的参数" in js and "第 4 章" in js
    w = gradient_explorer()
    assert "直接当作变量更新" in w.summary()
    from labcode.widgets.gradient_explorer import SCOPE
    assert SCOPE in w.summary()


def test_synced_traits_are_the_ones_the_front_end_reads():
    state = gradient_explorer().get_state()
    for name in ["logits", "labels", "target", "lr", "start_logits", "steps", "history", "max_steps", "palette",
                 "logit_min", "logit_max", "logit_step", "lr_min", "lr_max", "lr_step", "_esm", "_css"]:
        assert name in state, name
    for name in ["probs", "loss", "grad", "next_logits", "next_probs", "next_loss"]:  # computed on each side
        assert name not in state


def test_lazy_export_from_labcode():
    assert labcode.gradient_explorer is gradient_explorer and labcode.GradientExplorer is GradientExplorer


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize("kwargs, error, pattern", [
    ({"logits": [1.0], "labels": ["a"]}, ValueError, r"logits 的候选个数必须在 2 到 8 之间，收到 1 个"),
    ({"logits": list(range(9)), "labels": list("abcdefghi")}, ValueError, r"候选个数必须在 2 到 8 之间，收到 9 个"),
    ({"logits": [0, 1, NAN]}, ValueError, r"logits 的每个元素都必须是有限数，收到 nan"),
    ({"logits": [0, 1, INF]}, ValueError, r"logits 的每个元素都必须是有限数，收到 inf"),
    ({"logits": "012"}, TypeError, r"logits 必须是实数数组，收到 dtype <U3：'012'"),
    ({"logits": [0, "1", 2]}, TypeError, r"logits 必须是实数数组"),
    ({"labels": ["a", "b"]}, ValueError, r"labels 的长度必须等于 logits 的长度 3，收到 2 个"),
    ({"labels": ["a", "a", "b"]}, ValueError, r"labels 的候选名必须互不相同，\['a'\] 出现了不止一次"),
    ({"target": "蓝"}, ValueError, r"target 必须是 labels 中的名字或 \[0, 2\] 内的编号，收到 '蓝'"),
    ({"target": 3}, ValueError, r"target 必须是 \[0, 2\] 内的整数（真实目标的编号），收到 3"),
    ({"target": True}, TypeError, r"target 必须是 \[0, 2\] 内的整数（真实目标的编号），收到 True"),
    ({"lr": 0}, ValueError, r"lr 必须是正的有限实数（学习率 η），收到 0"),
    ({"lr": -0.5}, ValueError, r"lr 必须是正的有限实数（学习率 η），收到 -0.5"),
    ({"lr": NAN}, ValueError, r"lr 必须是正的有限实数（学习率 η），收到 nan"),
    ({"lr": INF}, ValueError, r"lr 必须是正的有限实数（学习率 η），收到 inf"),
    ({"lr": "0.1"}, TypeError, r"lr 必须是正的有限实数（学习率 η），收到 '0.1'"),
    ({"logit_range": (1, 1)}, ValueError, r"logit_range 必须是两个有限实数 \(最小, 最大\)，且 最小 < 最大.*\(1, 1\)"),
    ({"logit_range": "ab"}, TypeError, r"logit_range 必须是两个有限实数 \(最小, 最大\).*收到 'ab'"),
    ({"lr_range": (0, 1)}, ValueError, r"lr_range 必须是两个有限实数 \(最小, 最大\)，且 0 < 最小 < 最大.*\(0, 1\)"),
    ({"logit_step": 0}, ValueError, r"logit_step 必须是正的有限实数，收到 0"),
    ({"lr_step": 10}, ValueError, r"lr_step 必须不超过滑块范围的宽度 4.9，收到 10"),
    ({"max_steps": 0}, ValueError, r"max_steps 必须是正整数，收到 0"),
    ({"max_steps": 2.5}, TypeError, r"max_steps 必须是正整数，收到 2.5"),
])
def test_factory_errors_name_argument_rule_and_value(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        gradient_explorer(**kwargs)


def test_assignments_are_validated_too():
    w = gradient_explorer()
    with pytest.raises(ValueError, match=r"lr 必须是正的有限实数（学习率 η），收到 0.0"):
        w.lr = 0.0
    with pytest.raises(ValueError, match=r"logits 的长度必须等于候选个数 3"):
        w.logits = [0.0, 1.0]
    with pytest.raises(ValueError, match=r"target 必须是 \[0, 2\] 内的整数（真实目标的编号），收到 5"):
        w.target = 5
    assert_matches_labcode(w)
