"""Figures of chapter 4: the count heat map and the loss curve show labcode's numbers, with Chinese labels."""
import io
import re

import numpy as np
import pytest
from PIL import Image

from labcode import bigram, plots
from test_plots import all_text, render_png

COUNTS = np.array([[0, 3, 1], [2, 0, 7], [1, 1, 0]])
SYMBOLS = [".", "a", "é"]


def test_heat_map_writes_every_bigram_and_its_count():
    fig = plots.count_heatmap(COUNTS, SYMBOLS)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert len(texts) == 2 * COUNTS.size
    for i, a in enumerate(SYMBOLS):
        for j, b in enumerate(SYMBOLS):
            k = 2 * (i * 3 + j)
            assert texts[k] == a + b and texts[k + 1] == str(COUNTS[i, j])
    np.testing.assert_array_equal(fig.axes[0].images[0].get_array(), COUNTS)
    assert "前一个字" in all_text(fig) and "后一个字" in all_text(fig)


def test_heat_map_gives_the_site_the_same_picture_as_svg():
    """The site shows the SVG (text as text, a twentieth of the PNG's weight), the PDF the PNG: same labels, same
    displayed size, and the same SVG text on every run (the notebook stores it and nbval compares it)."""
    fig = plots.count_heatmap(COUNTS, SYMBOLS)
    svg = fig._repr_mimebundle_()["image/svg+xml"]
    assert svg == plots.figure_svg(plots.count_heatmap(COUNTS, SYMBOLS))
    texts = re.findall(r">([^<>]+)</text>", svg)
    for i, a in enumerate(SYMBOLS):
        for j, b in enumerate(SYMBOLS):
            assert a + b in texts and str(COUNTS[i, j]) in texts
    assert "前一个字 i" in texts and "后一个字 j" in texts
    png = io.BytesIO()
    fig.savefig(png, format="png", bbox_inches="tight")
    width, height = Image.open(png).size
    shown = re.search(r'<svg [^>]*width="(\d+)px" height="(\d+)px"', svg)
    assert abs(int(shown.group(1)) - width) <= 2 and abs(int(shown.group(2)) - height) <= 2


def test_loss_curve_draws_the_losses_against_the_count_optimum(caplog):
    _, losses = bigram.train(np.zeros((3, 3)), COUNTS, lr=5.0, steps=50)
    optimum = bigram.count_nll(COUNTS)
    fig = plots.loss_curve(losses, optimum)
    curve, line = fig.axes[0].lines[:2]
    np.testing.assert_array_equal(curve.get_ydata(), losses)
    assert set(line.get_ydata()) == {optimum}
    assert f"{optimum:.4f}" in all_text(fig)
    png, problems = render_png(fig, caplog)
    assert png.startswith(b"\x89PNG") and problems == []


def test_heat_map_renders_without_missing_glyphs(caplog):
    png, problems = render_png(plots.count_heatmap(COUNTS, SYMBOLS), caplog)
    assert png.startswith(b"\x89PNG") and problems == []


def test_chapter4_figures_refuse_bad_input():
    with pytest.raises(ValueError, match="counts 必须是 \\(2, 2\\) 的非负计数.*\\(3, 3\\)"):
        plots.count_heatmap(COUNTS, [".", "a"])
    with pytest.raises(ValueError, match="losses 必须是至少两个有限值"):
        plots.loss_curve([2.0], 1.0)
