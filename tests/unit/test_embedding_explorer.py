"""Kernel-side behaviour of the embedding explorer, and its front-end maths run on the state the page receives."""
from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

import labcode
import labcode.widgets
from conftest import require_tool
from labcode.corpus import UNK, vocab
from labcode.corpus import encode as _encode
from labcode.widgets import EmbeddingExplorer, embedding_explorer
from labcode.widgets.embedding_explorer import MAX_LEN, default_tables


def encode(text):
    return _encode(text).tolist()


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
REPEATS = ["我爱我家", "谢谢", "天天向上", "好好学习，天天向上", "谢谢谢谢谢谢谢谢谢谢谢谢", "谢谢侬侬", "侬", ""]


def uses_summed(w):
    """Each read row's gradient, added up use by use with a plain loop (no NumPy indexing)."""
    sums = {}
    for t, i in enumerate(encode(w.text)):
        sums[i] = [a + b for a, b in zip(sums.get(i, [0.0] * len(w.grad_out[t])), w.grad_out[t], strict=True)]
    return sums


def assert_matches_labcode(w):
    ids = np.asarray(encode(w.text), dtype=np.int64)
    assert w.ids == ids.tolist()
    D = len(w.E[0])
    dE = labcode.embedding_backward(np.asarray(w.grad_out)[:len(ids)], ids, len(vocab()))
    assert w.rows == list(dict.fromkeys(w.ids))  # first-use order
    assert w.counts == [w.ids.count(i) for i in w.rows]
    np.testing.assert_array_equal(np.asarray(w.grad_rows).reshape(-1, D), dE[w.rows])
    np.testing.assert_array_equal(np.asarray(w.H).reshape(-1, D), labcode.embedding(np.asarray(w.E), ids))
    sums = uses_summed(w)
    assert w.grad_rows == [sums[i] for i in w.rows]
    # The bug keeps one write per element. NumPy does not say which one; on the machines the tests run on it
    # is the last, and the page (maths.js) copies that, so Python and the page show the same row.
    for i, kept in zip(w.rows, w.grad_rows_overwrite, strict=True):
        uses = [w.grad_out[t] for t, j in enumerate(w.ids) if j == i]
        assert all(v in [use[d] for use in uses] for d, v in enumerate(kept))
    last = {i: w.grad_out[t] for t, i in enumerate(w.ids)}
    assert w.grad_rows_overwrite == [last[i] for i in w.rows]


# ---------------------------------------------------------------- the maths
def test_default_is_the_chapter_probe_on_wo_ai_wo_jia():
    w = embedding_explorer()
    assert w.text == "我爱我家" and w.ids == encode("我爱我家") and w.ids[0] == w.ids[2]
    assert w.counts == [2, 1, 1]
    assert w.grad_out[:3] == [[1, 2], [-1, 1], [3, -1]]
    assert w.grad_rows[:2] == [[4, 1], [-1, 1]]          # 我: [1, 2] + [3, -1]
    assert w.grad_rows_overwrite[:2] == [[3, -1], [-1, 1]]  # the bug keeps only 我's last use
    assert_matches_labcode(w)


@pytest.mark.parametrize("text", REPEATS)
def test_every_example_and_heavy_repetition_match_labcode(text):
    w = embedding_explorer(text)
    assert_matches_labcode(w)


def test_twelve_uses_of_one_row_add_up_and_the_bug_keeps_one():
    w = embedding_explorer("谢" * MAX_LEN)
    assert w.rows == encode("谢") and w.counts == [MAX_LEN]
    np.testing.assert_array_equal(w.grad_rows[0], np.sum(w.grad_out, axis=0))
    assert w.grad_rows_overwrite[0] == w.grad_out[-1]


def test_unknown_characters_read_the_unk_row():
    w = embedding_explorer("谢谢侬")
    assert w.ids[-1] == UNK == w.unk and w.rows[-1] == UNK
    assert "UNK×1" in w.summary()
    assert w.token(UNK) == "UNK" and w.token(w.ids[0]) == "谢"


def test_empty_phrase_reads_nothing():
    w = embedding_explorer("谢谢")
    w.text = ""
    assert w.ids == [] and w.rows == [] and w.grad_rows == [] and w.H == []
    assert w.summary() == "嵌入探索器：（空短语，没有读任何一行）"
    assert base64.b64decode(w._repr_mimebundle_()[0]["image/png"]).startswith(b"\x89PNG")


def test_setting_text_from_python_or_the_page_recomputes():
    w = embedding_explorer()
    w.text = "天天向上"
    assert w.counts == [2, 1, 1]
    assert_matches_labcode(w)
    w.set_state({"text": "谢谢", "show_bug": True})  # what the page sends when the reader types and flips the switch
    assert w.show_bug and w.counts == [2]
    assert_matches_labcode(w)


def test_default_tables_are_deterministic_and_small():
    E1, g1 = default_tables(np.random.default_rng(3))
    E2, g2 = default_tables(np.random.default_rng(3))
    np.testing.assert_array_equal(E1, E2)
    np.testing.assert_array_equal(g1, g2)
    assert E1.shape == (len(vocab()), 2) and g1.shape == (MAX_LEN, 2)
    assert np.all(g1 == np.round(g1)) and np.abs(g1).max() <= 3
    assert embedding_explorer(rng=np.random.default_rng(1)).E != embedding_explorer().E


# ---------------------------------------------------------------- what the page receives
def test_page_state_carries_the_frozen_vocabulary_and_tables():
    w = embedding_explorer()
    state = w.get_state()
    for name in ["text", "show_bug", "examples", "vocab", "unk", "E", "grad_out", "_esm", "_css"]:
        assert name in state, name
    for name in ["ids", "rows", "counts", "H", "grad_rows", "grad_rows_overwrite"]:  # computed on each side
        assert name not in state
    assert state["vocab"] == list(vocab()) and state["unk"] == UNK
    data = {k: v for k, v in state.items() if not k.startswith("_")}
    assert len(json.dumps(data, ensure_ascii=False).encode()) < 24_000  # vocabulary + E + gradients


@pytest.mark.parametrize("text", REPEATS + ["人人为我，我为人人", "ab 谢"])
def test_state_vocabulary_encodes_like_labcode(text):
    state = embedding_explorer().get_state()
    index = {token: i for i, token in enumerate(state["vocab"])}
    assert [index.get(ch, state["unk"]) for ch in text] == encode(text)  # what maths.js encode does


def test_front_end_maths_on_the_page_state_agrees_with_python(tmp_path):
    """Runs explorerState from the widget's bundled ES module in Node on the state the page gets."""
    node = require_tool("node", "sudo apt-get install nodejs (also needed for `make assets`)")
    w = embedding_explorer()
    state = w.get_state()
    (tmp_path / "widget.mjs").write_text(state["_esm"], encoding="utf-8")
    (tmp_path / "state.json").write_text(json.dumps({k: state[k] for k in ("vocab", "unk", "E", "grad_out")}),
                                         encoding="utf-8")
    (tmp_path / "run.mjs").write_text(
        'import { readFileSync } from "node:fs";\n'
        'import { explorerState } from "./widget.mjs";\n'
        'const s = JSON.parse(readFileSync("state.json", "utf8"));\n'
        'const texts = JSON.parse(process.argv[2]);\n'
        'console.log(JSON.stringify(texts.map((t) => explorerState(t, s.vocab, s.unk, s.E, s.grad_out))));\n',
        encoding="utf-8")
    texts = REPEATS + ["人人为我，我为人人"]
    proc = subprocess.run([node, "run.mjs", json.dumps(texts)], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for text, js in zip(texts, json.loads(proc.stdout), strict=True):
        w.text = text
        assert js["ids"] == w.ids, text
        assert js["rows"] == w.rows and js["counts"] == w.counts, text
        assert js["H"] == w.H, text
        assert js["gradRows"] == w.grad_rows, text
        assert js["gradRowsOverwrite"] == w.grad_rows_overwrite, text


def test_front_end_uses_the_shared_maths():
    w = embedding_explorer()
    here = Path(labcode.widgets.__file__).parent
    js = (here / "embedding_explorer.js").read_text(encoding="utf-8")
    maths = (here / "maths.js").read_text(encoding="utf-8")
    imported = js.split('from "./maths.js";')[0]
    assert "// labcode/widgets/maths.js" in w._esm and 'export * as maths from "./maths.js";' in js
    for name in ["encode", "embedding", "embeddingBackward", "embeddingBackwardOverwrite", "useCounts"]:
        assert f"export function {name}(" in maths and f"{name}(" in js and name in imported, name
        assert f"function {name}(" not in js, f"{name} is copied into the widget instead of shared"


# ---------------------------------------------------------------- text and paper
def test_summary_is_one_readable_line():
    w = embedding_explorer()
    me, ai, home = w.ids[0], w.ids[1], w.ids[3]
    assert w.summary() == (f"嵌入探索器：“我爱我家” → ids=[{me}, {ai}, {me}, {home}]；读取 我×2、爱×1、家×1；"
                           f"梯度行 我=[4, 1]、爱=[-1, 1]、家={'[' + ', '.join(f'{v:g}' for v in w.grad_out[3]) + ']'}")
    w.show_bug = True
    assert w.summary().endswith("；错误写法 dE[ids] += dH 得到 我=[3, -1]、爱=[-1, 1]、"
                                f"家={'[' + ', '.join(f'{v:g}' for v in w.grad_out[3]) + ']'}")
    assert repr(w) == w.summary() and "\n" not in w.summary() and "\u2212" not in w.summary()


def test_mimebundle_has_png_snapshot_and_widget_view():
    w = embedding_explorer("好好学习，天天向上")
    data, _ = w._repr_mimebundle_()
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    assert png == w.snapshot_png()  # deterministic bytes
    assert data[WIDGET_VIEW]["model_id"] == w.model_id and data["text/plain"] == w.summary()


def test_class_built_with_no_arguments_has_a_valid_state():
    w = EmbeddingExplorer()
    assert w.text == "我爱我家" and w.summary() == embedding_explorer().summary()
    assert_matches_labcode(w)


def test_lazy_reexport_from_labcode():
    assert labcode.embedding_explorer is embedding_explorer and labcode.EmbeddingExplorer is EmbeddingExplorer


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("kwargs, error, pattern", [
    ({"text": 3}, TypeError, r"text 必须是字符串（一个中文短语），收到 3"),
    ({"text": "谢" * 13}, ValueError, r"text 最多 12 个字（grad_out 只有 12 行），收到 13 个"),
    ({"text": "谢谢你", "grad_out": [[1, 2], [3, 4]]}, ValueError, r"text 最多 2 个字.*收到 3 个"),
    ({"examples": "谢谢"}, TypeError, r"examples 必须是由短语组成的列表，收到单个字符串 '谢谢'"),
    ({"examples": ["谢谢", ""]}, ValueError, r"examples 的每一项必须是 1 到 12 个字的字符串"),
    ({"examples": ["谢谢", "谢谢"]}, ValueError, r"examples 的短语必须互不相同，\['谢谢'\] 出现了不止一次"),
    ({"grad_out": [1, 2, 3]}, ValueError, r"grad_out 的形状必须是 \(n, d\).*收到形状 \(3,\)"),
    ({"grad_out": np.zeros((13, 2))}, ValueError, r"grad_out 的形状必须是 \(n, d\).*收到形状 \(13, 2\)"),
    ({"grad_out": [[1, 2, 3]] * 4}, ValueError, r"grad_out 的宽度必须等于 E 的宽度 d = 2，收到形状 \(4, 3\)"),
    ({"grad_out": [[1, float("nan")]] * 4}, ValueError, r"grad_out 的每个元素都必须是有限数，收到 nan"),
    ({"grad_out": [["a", "b"]] * 4}, TypeError, r"grad_out 必须是实数数组，收到 dtype <U1"),
    ({"grad_out": [[True, False]] * 4}, TypeError, r"grad_out 必须是实数数组，收到 dtype bool"),
    ({"dim": 0}, ValueError, r"dim 必须是 \[1, 4\] 内的整数（嵌入宽度 d.*收到 0"),
    ({"dim": 2.0}, TypeError, r"dim 必须是 \[1, 4\] 内的整数（嵌入宽度 d.*收到 2.0"),
    ({"rng": 3}, TypeError, r"rng 必须是 numpy.random.Generator.*收到 3"),
    ({"show_bug": "yes"}, TypeError, r"show_bug 必须是 True 或 False，收到 'yes'"),
])
def test_bad_factory_input_raises_chinese_error_naming_argument(kwargs, error, pattern):
    with pytest.raises(error, match=pattern):
        embedding_explorer(**kwargs)


def test_bad_assignment_is_rejected_and_state_kept():
    w = embedding_explorer()
    with pytest.raises(ValueError, match=r"text 最多 12 个字.*收到 13 个"):
        w.text = "我" * 13
    with pytest.raises(ValueError, match=r"grad_out 至少要有 len\(text\) = 4 行，收到形状 \(2, 2\)"):
        w.grad_out = [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match=r"E 的形状必须是 \(V, d\)"):
        w.E = [[0.0, 1.0]]
    assert w.text == "我爱我家" and len(w.grad_out) == MAX_LEN
    assert_matches_labcode(w)


def test_dim_and_custom_gradients():
    w = embedding_explorer("天天", grad_out=[[0.5], [0.25]], dim=1)
    assert w.grad_rows == [[0.75]] and w.grad_rows_overwrite == [[0.25]]
    assert_matches_labcode(w)
