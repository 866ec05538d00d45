"""Chapter 4: every worked figure is in the stored outputs, computed by labcode on the shipped names."""
import json

import numpy as np
import pytest

from labcode import bigram
from test_chapter_content import BOOK, output_numbers, shown

NOTEBOOK = "04_bigram.ipynb"


@pytest.fixture(scope="module")
def notebook():
    return json.loads((BOOK / NOTEBOOK).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def numbers():
    return output_numbers(NOTEBOOK)


def chapter4_figures():
    words = bigram.load_words()
    vocab = bigram.build_vocab(words)
    xs, ys = bigram.encode_pairs(words, vocab)
    N = bigram.count_matrix(xs, ys, len(vocab))
    nll_0 = bigram.count_nll(N)
    _, first = bigram.train(np.zeros(N.shape), N, lr=70.0, steps=3)
    _, losses = bigram.train(np.zeros(N.shape), N, lr=70.0, steps=12_000)
    return {
        "names": (len(words), 0),
        "pairs": (len(xs), 0),
        "count NLL, alpha 0": (nll_0, 6),
        "count NLL, alpha 1": (bigram.count_nll(N, alpha=1.0), 6),
        "perplexity of the count model": (np.exp(nll_0), 3),
        "uniform loss ln 27": (np.log(27), 4),
        "first gradient-descent losses": (first, 4),
        "trained network loss": (losses[-1], 6),
    }


FIGURES = chapter4_figures()


@pytest.mark.parametrize("name", list(FIGURES))
def test_chapter4_shows_every_required_figure(name, numbers):
    values, decimals = FIGURES[name]
    missing = [float(v) for v in np.atleast_1d(values) if not shown(numbers, float(v), decimals)]
    assert not missing, f"{name}: not in the stored outputs: {missing}"


def printed(notebook):
    return "".join("".join(o.get("text", "")) for c in notebook["cells"] for o in c.get("outputs", []))


def test_chapter4_shows_the_pairs_of_aba(notebook):
    assert "xs = [0, 1, 2, 1]  ys = [1, 2, 1, 0]" in printed(notebook)


def test_chapter4_stores_both_figures_with_captions_and_alt_text(notebook):
    figures = {}
    for cell in notebook["cells"]:
        meta = cell.get("metadata", {}).get("mystnb", {})
        if "figure" in meta:
            pngs = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
            alt = meta.get("image", {}).get("alt", "")
            figures[meta["figure"]["name"]] = (len(pngs), meta["figure"]["caption"], alt)
    assert set(figures) >= {"fig-ch4-counts", "fig-ch4-loss"}
    for name, (n_png, caption, alt) in figures.items():
        assert n_png == 1 and len(caption) > 20 and len(alt) > 20, name


def test_chapter4_states_where_the_data_comes_from_and_its_licences(notebook):
    prose = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    for fact in ["社会保障署", "公有领域", "makemore", "MIT", "Andrej Karpathy", "labcode/data"]:
        assert fact in prose, fact


def test_a_chapter4_figure_that_is_not_shown_is_reported(numbers):
    assert not shown(numbers, 2.4540149, 7)
