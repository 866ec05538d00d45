"""Chapter 3: what the stored outputs print, the figure, the index rule and the symbols (figures: tests/figures.py)."""
import json
import re
from collections import Counter

import numpy as np
import pytest

import labcode
from labcode import corpus
from notebook_outputs import BOOK, glued_values
from test_chapter1_content import _source
from test_chapter2_content import assert_map_right_under_the_title, boxed_code, cells, main_line, opening, section_label

NOTEBOOK = "03_shared_embedding.ipynb"
BATCH = ["谢谢", "天天向上", "我爱我家"]   # the chapter's batch of sentences
IDS = np.array([3, 5, 3])                # the worked example: ids and the probe's coefficients A
A = np.array([[1.0, 2.0], [-1.0, 1.0], [3.0, -1.0]])
E = np.array([[0.5, -0.5], [0.1, 0.3], [-0.2, 0.4], [1.0, 0.0], [0.7, 0.7], [0.0, 2.0]])   # the chapter's table
DOCS = [[labcode.BOS, 3, 5, labcode.EOS], [labcode.BOS, 4, labcode.EOS]]   # the small batch collate builds


def stored(notebook=NOTEBOOK):
    nb = json.loads((BOOK / notebook).read_text(encoding="utf-8"))
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    return nb, printed


def test_chapter3_prints_the_exact_matrices_and_the_checks_that_pass():
    _, printed = stored()
    assert "[[1. 0.]\n [0. 2.]\n [1. 0.]]" in printed                      # H, and X @ E
    assert "[ 3. -1.]" in printed and "[ 4.  1.]" in printed and "[-1.  1.]" in printed
    for check in ("逐位相等： True", "与 labcode.embedding_backward 相等： True", "前向逐位相等： True",
                  "反向一致： True", "dP[0:4] = 两句同位置之和： True", "相等： True",
                  "E 的梯度最大误差小于 1e-8： True", "P 的梯度最大误差小于 1e-8： True",
                  "查分数表 = 逐位置计算： True", "中心差分与两条路径之和的差距小于 1e-8： True",
                  "覆盖写法留下的是三份之一： True", "公式与 dE_tied 中这一行一致： True",
                  "加权总和 = -η N ‖dE[k]‖²： True"):
        assert check in printed, check
    expected_false = ("向量相同吗？ False", "整表相同： False", "是输入或目标吗？ False")
    rest = printed
    for line in expected_false:
        assert line in rest, line
        rest = rest.replace(line, "")
    assert "False" not in rest


def test_chapter3_shows_a_position_whose_score_rises_in_the_tied_exercise():
    """The tied-weights exercise says the weighted sum falls but not every position's score: the output shows one."""
    _, printed = stored()
    falling, total = map(int, re.search(r"分数下降的有效位置： (\d+) / (\d+)", printed).groups())
    inputs, targets = corpus.make_batch(BATCH)
    assert total == int(np.sum(targets != labcode.IGNORE)) and 0 < falling < total


def test_chapter3_computes_its_figures_with_labcode():
    nb, _ = stored()
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    for call in ("labcode.embedding(", "labcode.one_hot(", "labcode.embedding_backward(", "labcode.numerical_grad(",
                 "labcode.embed_with_positions(", "labcode.embed_with_positions_backward(", "np.add.at(",
                 "dE_wrong[ids] += A", "plots.embedding_rows(", "corpus.make_batch(", "labcode.linear(H_tied, E_zh.T)",
                 "np.linalg.matrix_rank("):
        assert call in source, call


def test_chapter3_figure_is_numbered_captioned_and_has_alt_text():
    nb, _ = stored()
    figures = [c for c in nb["cells"] if c.get("metadata", {}).get("mystnb", {}).get("figure")]
    assert [f["metadata"]["mystnb"]["figure"]["name"] for f in figures] == ["fig-ch3-rows", "fig-ch3-plane"]
    for cell in figures:
        assert cell["metadata"]["mystnb"]["image"]["alt"]
        assert any("image/png" in o.get("data", {}) for o in cell["outputs"])


def _reader_text():
    """What a reader sees: markdown, printed outputs, figure captions and alt texts."""
    nb, printed = stored()
    parts = [printed]
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            parts.append("".join(cell["source"]))
        parts += [json.dumps(cell.get("metadata", {}).get("mystnb", {}), ensure_ascii=False)]
    return "\n".join(parts)


# Ordinals count from 1, so a 0-based row or position is never "第 3 行" (it is "编号为 3 的行" or E[3]).
ZERO_BASED_ORDINAL = re.compile(r"(?<!倒数)第\s*\$?\s*(?:\d+|[a-z])\s*\$?\s*(?:行|列|个位置)|从 0 数")
NOTATION_SLIPS = {
    "embedding width is d, never D": re.compile(r"\$D\b|\bD\s*=|V \\times D|\(D,\)"),
    "the one-hot matrix is X, not S": re.compile(r"S\^\{\\mathsf T\}|H = SE|\bSE\b"),
    "the probe coefficients are A, not C": re.compile(r"\$C\$|C\[t|\+= C\b"),
    "upstream gradients are dH / dZ, not G": re.compile(r"\$G\b|G\[b"),
    "the finite-difference step is δ, not h": re.compile(r"小量 \$h\$|\(1 \+ 3\)h"),
    "NumPy does not say which repeated write survives": re.compile(r"最后一次写入|后写的覆盖|最后一份梯度"),
    "transpose is \\mathsf{T}": re.compile(r"\\top\b"),
    "chapters are 第 N 章": re.compile(r"第[一二三四五]章"),
    "a position's vector is H[t] (x is the bigram's input id)": re.compile(r"x_t\b|x_\{t\}|\$x\$ 叠起来"),
}


def test_chapter3_follows_the_index_rule():
    found = ZERO_BASED_ORDINAL.findall(_reader_text())
    assert not found, f"0-based ordinals in chapter 3: {found}"


@pytest.mark.parametrize("rule", list(NOTATION_SLIPS))
def test_chapter3_follows_the_symbol_table(rule):
    text = _reader_text()
    found = [text[max(m.start() - 20, 0):m.end() + 20] for m in NOTATION_SLIPS[rule].finditer(text)]
    assert not found, f"{rule}: {found}"


def test_chapter3_opening_places_the_embedding_before_h():
    """E[id] is the model's input; h comes after the context is mixed in (and chapter 2 already used E[ids])."""
    text = opening(cells(NOTEBOOK))
    assert "<ch2-shapes>" in text and "<ch3-tying>" in text and "{term}`权重绑定`" in text
    assert "前两章的模型从一个" not in text


def test_chapter3_you_write_solution_gives_the_summed_row():
    """The reference backward, run on the chapter's example, prints row 3 = [1, 2] + [3, -1]."""
    nb, _ = stored()
    cell = next(c for c in nb["cells"] if c.get("id") == "yw-embback-solution-use-code")
    with np.printoptions(precision=4, suppress=True):
        row = str(labcode.embedding_backward(A, IDS, 6)[3])
    assert np.array_equal(labcode.embedding_backward(A, IDS, 6)[3], A[0] + A[2])
    assert "".join(cell["outputs"][0]["text"]) == f"{row}\n"


# --- the main path: the map, batching next to the embedding, ideas said once, the folded check -------------

def test_map_opens_the_chapter_at_its_stage():
    nb = cells(NOTEBOOK)
    assert_map_right_under_the_title(nb, "ch3-shared-embedding", "embedding")
    cell = nb[1]
    assert cell["metadata"].get("tags") == ["remove-input"] and "mystnb" not in cell["metadata"]
    alt = "".join(cell["outputs"][0]["data"]["text/plain"])
    assert alt.strip("'").startswith("你在这里：第 3 章，"), alt[:30]


def test_the_batch_section_builds_the_batch_and_says_why_padded_inputs_must_be_valid_ids():
    nb = cells(NOTEBOOK)
    start = next(i for i, c in enumerate(nb) if _source(c).startswith("(ch3-batch)=\n## "))
    section = [c for i, c in enumerate(nb) if section_label(nb, i) == "ch3-batch"]
    text = "\n".join(_source(c) for c in section if c["cell_type"] == "markdown")
    code = "\n".join(_source(c) for c in section if c["cell_type"] == "code")
    assert "labcode.collate(docs)" in code and "corpus.make_batch(texts)" in code
    assert "<ch2-batch>" in text and "{term}`填充`" in text and "也要拿去嵌入表里取行" in text and "合法" in text
    _, printed = stored()
    inputs, targets = labcode.collate(DOCS)
    assert f"inputs =\n {inputs}\ntargets =\n {targets}\nEOS 作为目标出现： {(targets == labcode.EOS).sum()} 次" \
        in printed
    try:
        labcode.embedding(E, targets)
    except ValueError as err:
        message = f"ValueError: {err}"
    assert printed.count(message) == 1, "labcode's refusal of -100 as an input is shown once, in the batch section"
    assert start < next(i for i, c in enumerate(nb) if message in "".join(
        "".join(o.get("text", "")) for o in c.get("outputs", [])))


def test_the_whole_chain_runs_on_that_batch_in_the_next_section():
    """The batch section only builds the batch; the next section runs lookup → projection → cross-entropy and back
    on it, and the low-rank bigram subsection (chapter 4 refers to it) sits under that chain, which it uses."""
    nb = cells(NOTEBOOK)
    order = [m for c in nb for m in re.findall(r"^\((ch3-[\w-]+)\)=\n#", _source(c), re.M)]
    assert order.index("ch3-batch") + 1 == order.index("ch3-chain") == order.index("ch3-low-rank") - 1
    assert order.index("ch3-one-hot-linear") < order.index("ch3-batch")
    chain = [c for i, c in enumerate(nb) if section_label(nb, i) == "ch3-chain"]
    code = "\n".join(_source(c) for c in chain if c["cell_type"] == "code")
    text = "\n".join(_source(c) for c in chain if c["cell_type"] == "markdown")
    assert "labcode.embedding_backward(dH_zh, inputs, V)" in code and "numerical_grad(loss_of_tian_row" in code
    assert "<ch3-batch>" in text, "the zero gradient of the padded rows points back to where padding is explained"
    assert "<ch3-chain>" in "\n".join(_source(c) for i, c in enumerate(nb) if section_label(nb, i) == "ch3-tying")


def test_negative_ids_are_shown_once():
    """Chapter 2 shows row[-100] picking the wrong entry; here the exercise shows where NumPy's backward puts it."""
    _, printed = stored()
    V = len(corpus.vocab())
    assert printed.count(f"E_zh[-100] 就是 E_zh[{V - 100}]") == 1
    assert f"梯度落到了编号为 {V - 100} 的行： [1. 1. 1. 1.]" in printed


def test_one_hot_times_a_matrix_is_explained_once_here():
    """The canonical section ch3-one-hot-linear (chapter 4 refers to it) states the rule for any matrix, forward
    and backward, and points back to chapter 2's exercise instead of setting it again."""
    nb = cells(NOTEBOOK)
    labels = [m for c in nb for m in re.findall(r"^\((ch3-[\w-]+)\)=", _source(c), re.M)]
    assert "ch3-one-hot-linear" in labels and "ch3-ex-three-times" not in "\n".join(map(_source, nb))
    section = "\n".join(_source(c) for i, c in enumerate(nb)
                        if section_label(nb, i) == "ch3-one-hot-linear" and c["cell_type"] == "markdown")
    assert "<ch2-ex-repeated>" in section and "<ch3-one-hot>" in section and "**任何**矩阵" in section
    assert "按本章的说法，这只是取出" not in section


def test_the_tied_gradient_check_is_folded_and_its_result_stays_on_the_main_line():
    nb = cells(NOTEBOOK)
    code = boxed_code(nb, "权重绑定")
    assert "labcode.numerical_grad(tied_loss, E_zh)" in code and 'glue("tied_rows_both"' in code
    main = "\n".join(_source(c) for c in main_line(nb) if c["cell_type"] == "markdown")
    for name in ("tied_distinct", "tied_rows_input", "tied_rows_both"):
        assert f"{{glue:text}}`{name}`" in main
    assert "AdamW" in main, "the optimiser caveat stays on the main line"
    for index, cell in enumerate(nb):
        text = _source(cell)
        if "{deep-start}" in text:
            assert "深入框" in text[:text.index(":::{deep-start}")]
            end = next(j for j in range(index + 1, len(nb)) if _source(nb[j]).startswith(":::{deep-end}"))
            assert section_label(nb, index) == section_label(nb, end) == "ch3-tying"


# --- the low-rank bigram trained once with d = 2 ---------------------------------------------------------------

def _corpus_pairs():
    """(previous id, next id) of every pair in the corpus, built here from the sentences and the frozen vocabulary
    (no batching, no padding): BOS before each sentence, EOS after it."""
    symbols = corpus.vocab().symbols
    index = {s: i for i, s in enumerate(symbols)}
    pairs = []
    for sentence in corpus.sentences():
        ids = [labcode.BOS, *(index[ch] for ch in sentence), labcode.EOS]
        pairs += zip(ids[:-1], ids[1:], strict=True)
    return np.array(pairs), index


def _train_here(pairs, V, lr, steps):
    """Plain gradient descent on E (V, 2) and W_out (2, V) from the chapter's seed, written here: the mean
    cross-entropy over the pairs as a sum over each distinct pair times its count."""
    rng = np.random.default_rng(0)
    E, W = rng.normal(scale=0.1, size=(V, 2)), rng.normal(scale=0.1, size=(2, V))
    counts = np.bincount(pairs[:, 0] * V + pairs[:, 1], minlength=V * V).reshape(V, V).astype(float)
    N, per_row = counts.sum(), counts.sum(axis=1, keepdims=True)
    losses = []
    for step in range(steps + 1):
        Z = E @ W
        log_p = Z - Z.max(axis=1, keepdims=True)
        log_p -= np.log(np.exp(log_p).sum(axis=1, keepdims=True))
        losses.append(-np.sum(counts * log_p) / N)
        if step == steps:
            break
        dZ = (per_row * np.exp(log_p) - counts) / N
        E, W = E - lr * dZ @ W.T, W - lr * E.T @ dZ
    return E, losses


def test_chapter3_low_rank_training_numbers_are_recomputed_independently():
    nb, printed = stored()
    g = glued_values(nb)
    pairs, index = _corpus_pairs()
    V, N = len(index), len(pairs)
    assert g["d2_targets"] == N
    pair_counts = Counter(map(tuple, pairs.tolist()))
    read, follows = Counter(pairs[:, 0].tolist()), Counter(pairs[:, 1].tolist())
    count_best = -sum(c * np.log(c / read[i]) for (i, _), c in pair_counts.items()) / N
    unigram = -sum(c * np.log(c / N) for c in follows.values()) / N
    E, losses = _train_here(pairs, V, g["d2_lr"], g["d2_steps"])
    for name, value in (("d2_before", losses[0]), ("d2_after", losses[-1]), ("d2_unigram", unigram),
                        ("d2_count", count_best), ("d2_ppl", np.exp(losses[-1]))):
        assert g[name] == pytest.approx(value, abs=1e-9), name
    for value in (losses[0], losses[-1], unigram, count_best):
        assert f"{value:.4f}" in printed
    # What the prose says about them: near ln V at the start, below the unigram model after, far above the counts.
    assert abs(losses[0] - np.log(V)) < 0.01 and count_best < losses[-1] < unigram < losses[0]
    assert losses[-1] < losses[-2]                                    # "训练到最后几步，损失还在一点点下降"


def test_chapter3_sentence_ends_share_a_direction_in_the_learned_plane():
    """。？！ end every sentence and occur nowhere else, so EOS always follows them; their rows point one way,
    farther from the origin the more often they are read; most characters are read once or twice."""
    nb, _ = stored()
    g = glued_values(nb)
    pairs, index = _corpus_pairs()
    assert all(s[-1] in "。？！" and not set(s[:-1]) & set("。？！") for s in corpus.sentences())
    E, _ = _train_here(pairs, len(index), g["d2_lr"], g["d2_steps"])
    ends = [E[index[s]] for s in "。？！"]
    cosines = [a @ b / np.linalg.norm(a) / np.linalg.norm(b) for a, b in ((ends[0], ends[1]), (ends[0], ends[2]))]
    assert [g["d2_cos_q"], g["d2_cos_e"]] == pytest.approx(cosines, abs=1e-9)
    assert min(cosines) > 0.999
    read = Counter(pairs[:, 0].tolist())
    assert [g["d2_n_period"], g["d2_n_question"], g["d2_n_exclaim"]] == [read[index[s]] for s in "。？！"]
    norms = [np.linalg.norm(e) for e in ends]
    assert norms[0] > norms[1] > norms[2]
    assert g["d2_rare"] == sum(1 for c in read.values() if c <= 2) and g["d2_rare"] > len(index) / 2
    figures = [c for c in nb["cells"] if c.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("name")
               == "fig-ch3-plane"]
    assert len(figures) == 1 and any("image/png" in o.get("data", {}) for o in figures[0]["outputs"])
