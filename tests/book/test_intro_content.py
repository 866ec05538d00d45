"""The home page (intro.ipynb): its next-character table, samples and map come from labcode, as the prose says."""
import json
import re
from pathlib import Path

import numpy as np
import pytest

from labcode import bigram, idioms, overview
from notebook_outputs import GLUED_REL, glued_values

INTRO = Path(__file__).resolve().parents[2] / "intro.ipynb"
PROMPT, TOP, SEED, SAMPLES = "不", 6, 1, 1000


@pytest.fixture(scope="module")
def notebook():
    return json.loads(INTRO.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def glued(notebook):
    """name -> value of every glue() in the stored outputs."""
    return glued_values(notebook)


@pytest.fixture(scope="module")
def model():
    chengyu, vocab, _, _, C = bigram.bigram_data(idioms.load_idioms())
    return chengyu, vocab, C


def prose(notebook):
    return "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")


def test_the_table_after_bu_is_computed_from_the_idioms(glued, model):
    chengyu, vocab, C = model
    row = C[vocab[PROMPT]]
    order = np.argsort(-row, kind="stable")[:TOP]      # counted here without labcode.idioms
    itos = list(vocab)
    assert glued["hook_idioms"] == len(chengyu) == 29_430
    for k, j in enumerate(order):
        assert glued[f"hook_c{k}"] == itos[j]
        assert glued[f"hook_n{k}"] == row[j]
        assert glued[f"hook_p{k}"] == pytest.approx(row[j] / row.sum(), rel=GLUED_REL)
    assert glued["hook_total"] == row.sum()
    end = vocab["."]                                    # “结束”: the table counts it apart from the characters
    assert row[end] > 0 and end not in order
    assert glued["hook_rest_chars"] == np.count_nonzero(row) - TOP - 1
    assert glued["hook_rest_n"] + sum(glued[f"hook_n{k}"] for k in range(TOP)) == row.sum()
    assert glued["hook_top_p"] + glued["hook_rest_p"] == pytest.approx(1.0)
    assert glued["hook_sum_p"] == pytest.approx(1.0)


def test_the_prose_pastes_every_table_value(notebook, glued):
    text = prose(notebook)
    used = set(re.findall(r"\{glue:text\}`(hook_\w+)", text))
    assert used == set(glued), f"glued but not shown: {set(glued) - used}; shown but not glued: {used - set(glued)}"


def test_the_samples_and_their_counts(glued, model):
    chengyu, vocab, C = model
    samples = idioms.sample_from_counts(C, vocab, np.random.default_rng(SEED), n=SAMPLES)
    assert glued["hook_samples"] == "、".join(samples[:8])
    assert glued["hook_n_samples"] == SAMPLES
    assert glued["hook_four"] == sum(len(w) == 4 for w in samples)
    known = set(chengyu)
    assert glued["hook_real"] == sum(w in known for w in samples)
    assert glued["hook_four"] < SAMPLES / 4, "the prose says few samples have four characters"


def test_the_prose_says_where_the_sampler_cuts_a_word(notebook, glued, model):
    """The sampler stops at the end symbol or after max_len characters; the page names the cut with its length."""
    _, vocab, C = model
    samples = idioms.sample_from_counts(C, vocab, np.random.default_rng(SEED), n=SAMPLES)
    assert glued["hook_max_len"] == max(map(len, samples)), "the longest of the page's samples is the cut one"
    assert sum(len(w) == glued["hook_max_len"] for w in samples) < SAMPLES / 100
    assert "写满 {glue:text}`hook_max_len` 个字还没抽到，也截断" in prose(notebook)


def test_the_examples_named_in_the_prose_are_in_the_data(notebook, glued, model):
    chengyu = set(model[0])
    text = prose(notebook)
    for idiom in ("不可思议", "不可多得", "放荡不羁"):
        assert idiom in text and idiom in chengyu, idiom
    # “羁” is one of the six rows of the table, and most 不羁 are not at the start of an idiom.
    assert "羁" in [glued[f"hook_c{k}"] for k in range(TOP)]
    late = sum(w.find("不羁") > 0 for w in chengyu)
    assert all(w.find("不羁") in (0, 2) for w in chengyu if "不羁" in w), "the prose says 不 is then the third"
    assert glued["hook_ji_late"] == late and glued["hook_ji_n"] == sum(w.count("不羁") for w in chengyu)
    assert late > glued["hook_ji_n"] / 2
    assert glued["hook_c0"] == "可" and "“可”最常见" in text


def test_the_hook_comes_before_any_formula_and_the_whole_map_after_it(notebook):
    cells = notebook["cells"]
    map_at = next(i for i, c in enumerate(cells) if c["cell_type"] == "code" and "course_map()" in "".join(c["source"]))
    deep_at = next(i for i, c in enumerate(cells) if "{deep-start}" in "".join(c["source"]))
    before = "".join("".join(c["source"]) for c in cells[:deep_at] if c["cell_type"] == "markdown")
    assert "$" not in before and "{glue:text}`hook_c0`" in before
    outputs = cells[map_at]["outputs"]
    assert "".join(outputs[0]["data"]["text/plain"]) == overview.course_map_alt()
    assert "remove-input" in cells[map_at]["metadata"]["tags"]
