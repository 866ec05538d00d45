"""Kernel-side behaviour of the softmax explorer, without any display or browser."""
from __future__ import annotations

import base64
import re
from pathlib import Path

import numpy as np
import pytest

import labcode
import labcode.widgets
from labcode.plots import NAMED_COLOURS, PALETTE
from labcode.widgets import SoftmaxExplorer, fmt, softmax_explorer

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def expected(logits, temperature, target):
    z = np.asarray(logits, dtype=float) / temperature
    return (labcode.softmax(logits, temperature=temperature),
            labcode.cross_entropy(z, target),
            labcode.cross_entropy_grad(z, target) / temperature)


def assert_matches_labcode(w):
    probs, loss, grad = expected(w.logits, w.temperature, w.target)
    np.testing.assert_allclose(w.probs, probs, rtol=1e-12, atol=1e-15)
    assert w.loss == pytest.approx(loss, rel=1e-12, abs=1e-15)
    np.testing.assert_allclose(w.grad, grad, rtol=1e-12, atol=1e-15)


def test_factory_returns_widget_with_red_yellow_green_values():
    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")
    assert isinstance(w, SoftmaxExplorer)
    np.testing.assert_allclose(w.probs, [0.09003057, 0.24472847, 0.66524096], atol=5e-9)
    assert w.loss == pytest.approx(-np.log(0.66524096), abs=1e-7)
    assert_matches_labcode(w)


def test_gradient_is_p_minus_one_hot_at_temperature_one():
    w = softmax_explorer([np.log(2), 0.0, -np.log(2)], ["a", "b", "c"], target=1)
    np.testing.assert_allclose(np.array(w.grad) * 7, [4, -5, 1], atol=1e-12)
    assert sum(w.grad) == pytest.approx(0, abs=1e-15)


def test_default_target_is_last_class_and_palette_comes_from_plots():
    w = softmax_explorer()
    assert w.target == 2 and w.labels == ["红", "黄", "绿"]
    assert w.palette[:3] == [NAMED_COLOURS[name] for name in ("红", "黄", "绿")]   # “红” is drawn red, not blue
    assert type(w)().palette == w.palette and sorted(w.palette) == sorted(PALETTE)
    other = softmax_explorer([0, 1, 2, 3], ["甲", "绿", "乙", "丙"])
    assert other.palette[1] == NAMED_COLOURS["绿"] and sorted(other.palette) == sorted(PALETTE)
    assert softmax_explorer([0, 1, 2], ["甲", "乙", "丙"]).palette == PALETTE   # no colour names: as before


def test_setting_logits_from_python_recomputes_everything():
    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target=2)
    red_before = w.probs[0]
    w.logits = [0, 1, 3]  # only green moves, red still falls: shared denominator
    assert w.logits == [0.0, 1.0, 3.0]
    np.testing.assert_allclose(w.probs, [0.04201007, 0.11419520, 0.84379473], atol=5e-9)
    assert w.probs[0] < red_before
    assert_matches_labcode(w)


@pytest.mark.parametrize("change", [{"temperature": 0.5}, {"temperature": 2.0}, {"target": 0}])
def test_setting_temperature_or_target_recomputes(change):
    w = softmax_explorer([2, 1, 0], ["x", "y", "z"], target=0)
    before = (list(w.probs), w.loss)
    for name, value in change.items():
        setattr(w, name, value)
    assert_matches_labcode(w)
    if "temperature" in change:
        assert (list(w.probs), w.loss) != before
        assert int(np.argmax(w.probs)) == 0  # temperature never changes the argmax


def test_shifting_every_logit_leaves_probabilities_unchanged():
    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"])
    probs, loss = list(w.probs), w.loss
    w.logits = [z + 1000 for z in w.logits]
    np.testing.assert_allclose(w.probs, probs, rtol=1e-12)
    assert w.loss == pytest.approx(loss, rel=1e-12)


def test_extreme_logits_give_finite_exact_loss():
    w = softmax_explorer([1000, -1000], ["对", "错"], target=1)
    assert w.probs == [1.0, 0.0]
    assert w.loss == 2000.0
    assert_matches_labcode(w)


@pytest.mark.parametrize("temperature", [1e-3, 0.1, 1.0, 10.0, 1e3])
@pytest.mark.parametrize("logits", [[0, 1, 2], [1000, -1000, 0], [-1000, -1000, 1000, 3.5]])
def test_values_match_labcode_over_a_grid(logits, temperature):
    w = softmax_explorer(logits, [f"c{k}" for k in range(len(logits))], target=1, temperature=temperature)
    assert_matches_labcode(w)


def test_text_plain_is_short_readable_and_deterministic():
    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")
    data, _ = w._repr_mimebundle_()
    assert data["text/plain"] == ("Softmax 探索器：z=[0, 1, 2]，τ=1，真实目标=绿，"
                                  "p=[0.090, 0.245, 0.665]，损失=0.4076")
    assert data["text/plain"] == softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿").summary()
    assert "object at 0x" not in data["text/plain"] and "SoftmaxExplorer(" not in data["text/plain"]
    assert repr(w) == data["text/plain"]


def test_text_plain_uses_plain_minus_signs():
    w = softmax_explorer([-1.5, 0, 2], ["a", "b", "c"], target=0, temperature=0.5)
    text = w._repr_mimebundle_()[0]["text/plain"]
    assert "z=[-1.5, 0, 2]" in text and "τ=0.5" in text
    assert "\u2212" not in text


def test_mimebundle_has_png_snapshot_and_widget_view():
    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"])
    data, _ = w._repr_mimebundle_()
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    assert data[WIDGET_VIEW]["model_id"] == w.model_id


def test_fmt_drops_sign_of_zero_and_keeps_plain_minus():
    assert fmt(-0.0004, 3) == "0.000"
    assert fmt(-0.3347590442, 3) == "-0.335"
    assert fmt(0.4076059644, 4) == "0.4076"


def test_front_end_is_the_packaged_module_with_the_shared_pieces_it_imports():
    w = softmax_explorer()
    js = Path(labcode.widgets.__file__).with_name("softmax_explorer.js").read_text(encoding="utf-8")
    assert 'from "./maths.js";' in js and 'from "./candidates.js";' in js  # explicit imports, no globals
    assert "// labcode/widgets/maths.js" in w._esm and "// labcode/widgets/candidates.js" in w._esm  # bundled
    assert "export function explorerMaths" in js and "export default { render:" in js
    assert "Math.exp" not in js  # the maths is the shared maths.js, not a copy


def test_synced_traits_are_the_ones_the_front_end_reads():
    w = softmax_explorer()
    state = w.get_state()
    for name in ["logits", "labels", "temperature", "target", "palette", "logit_min", "logit_max", "logit_step",
                 "temperature_min", "temperature_max", "_esm", "_css"]:
        assert name in state, name
    for name in ["probs", "loss", "grad"]:  # computed on each side, never sent
        assert name not in state


@pytest.mark.parametrize("kwargs, error, pattern", [
    ({"logits": [1.0]}, ValueError, r"logits 的候选个数必须在 2 到 8 之间，收到 1 个"),
    ({"logits": list(range(9)), "labels": list("abcdefghi")}, ValueError,
     r"logits 的候选个数必须在 2 到 8 之间，收到 9 个"),
    ({"logits": [0, 1, float("nan")]}, ValueError, r"logits 的每个元素都必须是有限数，收到 nan（位置 2）"),
    ({"logits": [0, 1, float("inf")]}, ValueError, r"logits 的每个元素都必须是有限数，收到 inf（位置 2）"),
    ({"logits": "012"}, TypeError, r"logits 必须是实数数组，收到 dtype <U3：'012'"),
    ({"logits": [0, "1", 2]}, TypeError, r"logits 必须是实数数组，收到 dtype <U"),
    ({"logits": [[0, 1], [2, 3]], "labels": ["a", "b"]}, ValueError, r"logits 必须是一维的.*收到形状 \(2, 2\)"),
    ({"labels": ["红", "黄"]}, ValueError, r"labels 的长度必须等于 logits 的长度 3，收到 2 个"),
    ({"labels": ["红", "红", "绿"]}, ValueError, r"labels 的候选名必须互不相同，\['红'\] 出现了不止一次"),
    ({"labels": ["红", "", "绿"]}, ValueError, r"labels 的候选名必须非空"),
    ({"target": "蓝"}, ValueError, r"target 必须是 labels 中的名字或 \[0, 2\] 内的编号，收到 '蓝'"),
    ({"target": 3}, ValueError, r"target 必须是 \[0, 2\] 内的整数（真实目标的编号），收到 3"),
    ({"target": -1}, ValueError, r"target 必须是 \[0, 2\] 内的整数（真实目标的编号），收到 -1"),
    ({"target": 1.0}, TypeError, r"target 必须是 \[0, 2\] 内的整数（真实目标的编号），收到 1.0"),
    ({"temperature": 0}, ValueError, r"temperature 必须是正的有限实数，收到 0"),
    ({"temperature": -1.0}, ValueError, r"temperature 必须是正的有限实数，收到 -1.0"),
    ({"temperature": "1"}, TypeError, r"temperature 必须是正的有限实数"),
    ({"logit_range": (5, -5)}, ValueError, r"logit_range 必须是两个有限实数 \(最小, 最大\)，且 最小 < 最大.*\(5, -5\)"),
    ({"temperature_range": (0, 10)}, ValueError,
     r"temperature_range 必须是两个有限实数 \(最小, 最大\)，且 0 < 最小 < 最大，收到 \(0, 10\)"),
    ({"logit_step": 0}, ValueError, r"logit_step 必须是正的有限实数，收到 0"),
    ({"logit_step": 30}, ValueError, r"logit_step 必须不超过滑块范围的宽度 20，收到 30"),
])
def test_bad_factory_input_raises_chinese_error_naming_argument(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        softmax_explorer(**kwargs)


def test_bad_assignment_is_rejected_and_state_kept():
    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"])
    with pytest.raises(ValueError, match=r"logits 的长度必须等于候选个数 3（与 labels 一致），收到 2 个"):
        w.logits = [1, 2]
    with pytest.raises(ValueError, match=r"target 必须是 \[0, 2\] 内的整数（真实目标的编号），收到 7"):
        w.target = 7
    with pytest.raises(ValueError, match=r"temperature 必须是正的有限实数"):
        w.temperature = float("inf")
    assert w.logits == [0.0, 1.0, 2.0] and w.target == 2 and w.temperature == 1.0
    assert_matches_labcode(w)


def test_summary_format_for_another_state():
    w = softmax_explorer([0, 1, 3], ["红", "黄", "绿"], target=0, temperature=2)
    pattern = (r"Softmax 探索器：z=\[0, 1, 3\]，τ=2，真实目标=红，"
               r"p=\[\d\.\d{3}, \d\.\d{3}, \d\.\d{3}\]，损失=\d+\.\d{4}")
    assert re.fullmatch(pattern, w.summary())


def test_state_sent_by_the_front_end_recomputes_in_python():
    """What the kernel receives when a reader drags a slider, picks a target or changes T."""
    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")
    w.set_state({"logits": [0.3, 5.2, 2.0], "target": 1, "temperature": 0.501})
    assert w.logits == [0.3, 5.2, 2.0] and w.target == 1 and w.temperature == 0.501
    assert_matches_labcode(w)
    assert w.summary().startswith("Softmax 探索器：z=[0.3, 5.2, 2]，τ=0.501，真实目标=黄，")


def test_class_count_changes_only_with_labels_and_logits_together():
    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target=0)
    with pytest.raises(ValueError, match=r"labels 的长度必须等于 logits 的长度 3，收到 4 个"):
        w.labels = ["红", "黄", "绿", "蓝"]
    with w.hold_trait_notifications():
        w.labels = ["红", "黄", "绿", "蓝"]
        w.logits = [0, 1, 2, 3]
    assert len(w.probs) == 4 and w.summary().startswith("Softmax 探索器：z=[0, 1, 2, 3]，τ=1，真实目标=红，")
    assert_matches_labcode(w)


def test_class_built_with_no_arguments_has_a_valid_state():
    w = SoftmaxExplorer()
    assert w.labels == ["红", "黄", "绿"] and w.logits == [0.0, 1.0, 2.0] and w.target == 2
    assert w.summary() == softmax_explorer().summary()
    assert_matches_labcode(w)
    assert base64.b64decode(w._repr_mimebundle_()[0]["image/png"]).startswith(b"\x89PNG")
