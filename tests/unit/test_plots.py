"""labcode.plots: Chinese labels render, the figures show labcode's numbers, bad input is refused (chapters 1, 3, 4)."""
import io
import logging
import re
import sys
import warnings

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font
from PIL import Image

import labcode
from labcode import bigram, fonts, plots

LABELS = ["红", "黄", "绿"]


def all_text(fig):
    return " ".join(t.get_text() for t in fig.findobj(matplotlib.text.Text))


def render_png(fig, caplog):
    """Render to PNG; return the warnings and font-manager log records that mention missing glyphs/fonts."""
    buf = io.BytesIO()
    with (caplog.at_level(logging.WARNING, logger="matplotlib.font_manager"),
          warnings.catch_warnings(record=True) as caught):
        warnings.simplefilter("always")
        fig.savefig(buf, format="png", dpi=60)
    problems = [str(w.message) for w in caught if "missing" in str(w.message).lower()]
    problems += [r.getMessage() for r in caplog.records if "not found" in r.getMessage()]
    return buf.getvalue(), problems


def figures():
    return {
        "before_after": plots.softmax_before_after([0.0, 1.0, 2.0], [0.0, 1.0, 3.0], LABELS),
        "temperature": plots.temperature_bars([2.0, 1.0, 0.0], [0.5, 1.0, 2.0], LABELS),
        "nll": plots.nll_curve([2 / 7, 0.9]),
    }


def test_use_cjk_font_puts_a_font_with_chinese_glyphs_first_and_is_idempotent():
    family = fonts.use_cjk_font()
    assert fonts.use_cjk_font() == family
    assert matplotlib.rcParams["font.sans-serif"][:2] == [family, "DejaVu Sans"]
    assert matplotlib.rcParams["font.sans-serif"].count(family) == 1
    props = matplotlib.font_manager.FontProperties(family=family)
    path = matplotlib.font_manager.findfont(props, fallback_to_default=False)
    charmap = FT2Font(path).get_charmap()
    assert all(ord(ch) in charmap for ch in "红黄绿概率损失温度熵")


def test_use_cjk_font_sets_unicode_minus_to_what_the_font_can_draw():
    family = fonts.use_cjk_font()
    path = matplotlib.font_manager.findfont(matplotlib.font_manager.FontProperties(family=family))
    assert matplotlib.rcParams["axes.unicode_minus"] == (0x2212 in FT2Font(path).get_charmap())


def test_find_cjk_font_takes_the_first_existing_candidate(tmp_path):
    present = tmp_path / "b.otf"
    present.write_bytes(b"")
    assert fonts.find_cjk_font([tmp_path / "a.otf", present]) == present


def test_find_cjk_font_without_any_font_says_in_chinese_how_to_install_one(tmp_path):
    with pytest.raises(FileNotFoundError, match="找不到可用的中文字体") as info:
        fonts.find_cjk_font([tmp_path / "missing.otf"])
    assert "apt-get install fonts-noto-cjk" in str(info.value)
    assert "pip install" in str(info.value)
    assert str(tmp_path / "missing.otf") in str(info.value)


def test_default_candidates_fall_back_to_debian_noto_when_the_pypi_font_is_absent(monkeypatch):
    monkeypatch.setitem(sys.modules, "pylopdf_fonts_zh_cn", None)     # `import` raises ImportError
    candidates = fonts.default_candidates()
    assert candidates[0] == fonts.DEBIAN_NOTO_DIR / "NotoSansCJK-Regular.ttc"


@pytest.mark.parametrize("name", ["before_after", "temperature", "nll"])
def test_figures_render_to_png_without_missing_glyph_warnings(name, caplog):
    png, problems = render_png(figures()[name], caplog)
    assert png.startswith(b"\x89PNG")
    assert problems == []


def test_missing_glyph_check_does_catch_tofu_with_a_latin_only_font(caplog):
    # The check above must be able to fail: DejaVu Sans alone has no Chinese glyphs.
    fig = matplotlib.figure.Figure()
    fig.text(0.5, 0.5, "概率", family="DejaVu Sans")
    _, problems = render_png(fig, caplog)
    assert any("missing" in p.lower() for p in problems)


def test_before_after_figure_shows_labcode_softmax_and_chinese_labels():
    fig = plots.softmax_before_after([0.0, 1.0, 2.0], [0.0, 1.0, 3.0], LABELS)
    text = all_text(fig)
    for word in ["红", "黄", "绿", "修改前", "修改后", "概率"]:
        assert word in text
    for ax, logits in zip(fig.axes, ([0.0, 1.0, 2.0], [0.0, 1.0, 3.0]), strict=True):
        heights = [bar.get_height() for bar in ax.patches]
        np.testing.assert_allclose(heights, labcode.softmax(logits), rtol=0, atol=1e-15)


def test_temperature_figure_shows_softmax_at_each_temperature_and_its_entropy():
    logits, temps = [2.0, 1.0, 0.0], [0.5, 1.0, 2.0]
    fig = plots.temperature_bars(logits, temps, LABELS)
    assert len(fig.axes) == 3
    for ax, t in zip(fig.axes, temps, strict=True):
        probs = labcode.softmax(logits, temperature=t)
        np.testing.assert_allclose([b.get_height() for b in ax.patches], probs, rtol=0, atol=1e-15)
        assert f"{float(labcode.entropy(probs)):.3f}" in ax.get_title()
        assert "温度" in ax.get_title() and "熵" in ax.get_title()
        assert f"τ = {t:g}" in ax.get_title()    # temperature is τ in the book, never T


def test_temperature_figure_accepts_a_single_temperature():
    assert len(plots.temperature_bars([1.0, 0.0], 3.0, ["甲", "乙"]).axes) == 1


def test_temperature_figure_puts_more_than_three_panels_in_further_rows():
    fig = plots.temperature_bars([1.0, 0.0], [0.5, 1.0, 2.0, 4.0], ["甲", "乙"])
    assert len(fig.axes) == 4    # a 2 x 3 grid, its two spare panels removed
    rows = sorted({round(ax.get_position().y0, 3) for ax in fig.axes})
    assert len(rows) == 2 and [ax.get_title().split("\n")[0] for ax in fig.axes][3] == "温度 τ = 4"


def test_nll_curve_plots_minus_log_p_and_marks_the_given_points():
    fig = plots.nll_curve([0.25])
    main, point = fig.axes[0].lines
    x, y = main.get_data()
    np.testing.assert_allclose(y, -np.log(x))
    np.testing.assert_allclose(point.get_data()[1], [np.log(4)])
    assert "损失" in all_text(fig)


def test_nll_curve_labels_stay_off_the_curve():
    fig = plots.nll_curve([2 / 7, 0.9])
    fig.draw_without_rendering()    # places the labels
    ax = fig.axes[0]
    curve = ax.transData.transform(np.column_stack(ax.lines[0].get_data()))    # (400, 2) in pixels
    for label in ax.texts:
        box = matplotlib.text.Text.get_window_extent(label)    # the words only, not the leader line
        inside = ((box.x0 <= curve[:, 0]) & (curve[:, 0] <= box.x1)
                  & (box.y0 <= curve[:, 1]) & (curve[:, 1] <= box.y1))
        assert not inside.any(), f"{label.get_text()!r} covers the curve at pixel {curve[inside][0]}"


def test_figure_functions_leave_pyplot_alone():
    before = plt.get_fignums()
    figures()
    assert plt.get_fignums() == before


def test_before_after_rejects_logits_that_do_not_match_the_labels():
    with pytest.raises(ValueError, match="logits_after 必须是一维且与 labels 等长"):
        plots.softmax_before_after([0.0, 1.0, 2.0], [0.0, 1.0], LABELS)
    with pytest.raises(ValueError, match="logits_before"):
        plots.softmax_before_after([[0.0, 1.0, 2.0]], [0.0, 1.0, 3.0], LABELS)


@pytest.mark.parametrize("bad, error",
                         [(0.0, ValueError), (-1.0, ValueError), (float("inf"), ValueError), ("热", TypeError)])
def test_temperature_figure_rejects_bad_temperatures(bad, error):
    with pytest.raises(error, match="temperature 必须是正的有限实数"):
        plots.temperature_bars([2.0, 1.0, 0.0], [1.0, bad], LABELS)


def test_temperature_figure_rejects_an_empty_list_and_nan_logits():
    with pytest.raises(ValueError, match="temperatures 至少要有一个温度"):
        plots.temperature_bars([2.0, 1.0, 0.0], [], LABELS)
    with pytest.raises(ValueError, match="NaN"):
        plots.temperature_bars([2.0, float("nan"), 0.0], [1.0], LABELS)


@pytest.mark.parametrize("bad, message", [
    ([0.0], r"highlight 的每个元素都必须是 \(0, 1\] 内的概率，收到 0.0（位置 0）"),
    ([1.5], r"highlight 的每个元素都必须是 \(0, 1\] 内的概率，收到 1.5（位置 0）"),
    ([float("nan")], r"highlight 的每个元素都必须是有限数，收到 nan（位置 0）"),
    ([[0.5]], r"highlight 必须是一维的（若干个概率），收到形状 \(1, 1\)"),
])
def test_nll_curve_rejects_points_outside_the_unit_interval(bad, message):
    with pytest.raises(ValueError, match=message):
        plots.nll_curve(bad)


def test_nll_curve_rejects_a_bad_axis_start():
    with pytest.raises(ValueError, match="p_min 必须在"):
        plots.nll_curve(p_min=1.5)


def test_bar_probs_rejects_a_two_dimensional_row():
    ax = matplotlib.figure.Figure().subplots()
    with pytest.raises(ValueError, match="probs 必须是一维"):
        plots.bar_probs(ax, [[0.5, 0.5]], ["甲", "乙"])
    with pytest.raises(TypeError, match="probs 必须是实数数组"):
        plots.bar_probs(ax, ["a", "b"], ["甲", "乙"])
    with pytest.raises(ValueError, match="probs 必须全是有限数"):
        plots.bar_probs(ax, [float("nan"), 1.0], ["甲", "乙"])
    with pytest.raises(ValueError, match="probs 不能有负数"):
        plots.bar_probs(ax, [-0.5, 1.5], ["甲", "乙"])


@pytest.mark.parametrize("titles", [("甲",), ("甲", "乙", "丙"), "甲乙"])
def test_before_after_needs_exactly_two_titles(titles):
    with pytest.raises(ValueError, match="titles 必须正好是两个标题.*收到"):
        plots.softmax_before_after([0.0, 1.0, 2.0], [0.0, 1.0, 3.0], LABELS, titles=titles)


# ---------------------------------------------------------------- chapter 3: embedding rows
E = np.array([[0.5, -0.5], [0.1, 0.3], [-0.2, 0.4], [1.0, 0.0], [0.7, 0.7], [0.0, 2.0]])
C = np.array([[1.0, 2.0], [-1.0, 1.0], [3.0, -1.0]])


def texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_figure_marks_read_counts_and_the_summed_gradient_row():
    fig = plots.embedding_rows(E, [3, 5, 3], C)
    assert isinstance(fig, Figure)
    shown = texts(fig)
    # Two or three short lines a box, so that the three columns fit a phone's width.
    assert "E[3] = [1, 0]\n读 2 次" in shown and "E[5] = [0, 2]\n读 1 次" in shown
    assert "E[4] = [0.7, 0.7]\n未读" in shown
    assert "dE[3] = [1, 2]\n+ [3, -1] = [4, 1]" in shown and "dE[4] = [0, 0]" in shown
    assert sum(t.startswith("位置 ") for t in shown) == 3
    fig.canvas.draw()  # renders without missing glyphs (a warning would fail under -W error in CI)


@pytest.mark.parametrize("E_bad, ids, grad, kind, pattern", [
    (E, [3, 6], np.zeros((2, 2)), IndexError, r"ids 的每个编号都必须 < 6"),
    (E, [[3]], np.zeros((1, 1, 2)), ValueError, r"ids 必须是一维且至多 8 个"),
    (np.zeros((11, 2)), [0], np.zeros((1, 2)), ValueError, r"E 至多 10 行、3 列才画得下"),
    (E, [3, 5], np.zeros((3, 2)), ValueError, r"grad_out 的形状必须是 ids.shape \+ \(d,\)"),
])
def test_bad_inputs_are_refused(E_bad, ids, grad, kind, pattern):
    with pytest.raises(kind, match=pattern):
        plots.embedding_rows(E_bad, ids, grad)


# ---------------------------------------------------------------- chapter 4: counts and loss curve
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
    with pytest.raises(ValueError, match=r"counts 的形状必须是 \(2, 2\)（与 symbols 的长度一致），收到 \(3, 3\)"):
        plots.count_heatmap(COUNTS, [".", "a"])
    with pytest.raises(ValueError, match=r"counts 的每个元素都必须是有限的非负数（次数不能为负），收到 nan"):
        plots.count_heatmap([[1, float("nan")], [0, 2]], [".", "a"])
    with pytest.raises(ValueError, match=r"losses 必须至少有两个值（更新 0 次和 1 次后），收到 1 个"):
        plots.loss_curve([2.0], 1.0)
    with pytest.raises(ValueError, match=r"losses 的每个元素都必须是有限数，收到 nan（位置 1）"):
        plots.loss_curve([2.0, float("nan")], 1.0)


def test_step_size_curve_labels_every_third_power_of_ten_as_the_prose_writes_it():
    z = np.log([2.0, 1.0, 0.5])
    fig = plots.step_size_error_curve(lambda v: labcode.cross_entropy(v, 1), z, labcode.cross_entropy_grad(z, 1),
                                      np.logspace(-12, 0, 25))
    fig.draw_without_rendering()
    ax = fig.axes[0]
    low, high = ax.get_xlim()
    shown = [t.get_text() for t in ax.get_xticklabels() if low <= t.get_position()[0] <= high]
    assert shown == ["$10^{-12}$", "$10^{-9}$", "$10^{-6}$", "$10^{-3}$", "$1$"]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert all("e-" not in t for t in legend) and "最小误差 $1.0 \\times 10^{-11}$" in legend[0], legend
    assert "$\\delta = 10^{-5}$" in legend[0] and "$\\delta = 10^{-2}$" in legend[1], legend


def test_step_size_curve_names_the_difference_step_delta_and_renders_cleanly(caplog):
    """The difference step is δ in the book (h is the position vector): axis, legend and notes say δ."""
    z = np.log([2.0, 1.0, 0.5])
    fig = plots.step_size_error_curve(lambda v: labcode.cross_entropy(v, 1), z, labcode.cross_entropy_grad(z, 1),
                                      np.logspace(-8, 0, 9))
    text = all_text(fig)
    assert "\\delta" in fig.axes[0].get_xlabel() and "\\varepsilon_{\\mathrm{mach}}/\\delta" in text
    assert " h" not in text and "h =" not in text and "h²" not in text
    png, problems = render_png(fig, caplog)
    assert png.startswith(b"\x89PNG") and problems == []


# ---------------------------------------------------------------- every chapter figure, on a phone
# The site shrinks a PNG to the text column: 312 CSS px on a 360 px screen (measured in Chromium on the built site).
PHONE_COLUMN_PX = 312
WORKED_Z = np.log([2.0, 1.0, 0.5])
CHAPTER_FIGURES = {
    "1.1 before/after": lambda: plots.softmax_before_after([0.0, 1.0, 2.0], [0.0, 1.0, 3.0], LABELS),
    "1.2 loss curve": lambda: plots.nll_curve([0.1, 0.9]),
    "1.3 temperatures": lambda: plots.temperature_bars([2.0, 1.0, 0.0], [0.5, 1.0, 2.0], ["甲", "乙", "丙"]),
    "2.1 step size": lambda: plots.step_size_error_curve(lambda v: labcode.cross_entropy(v, 1), WORKED_Z,
                                                         labcode.cross_entropy_grad(WORKED_Z, 1),
                                                         np.logspace(-12, 0, 25)),
    "3.1 embedding rows": lambda: plots.embedding_rows(E, [3, 5, 3], C),
    "3.2 embedding plane": lambda: plots.embedding_plane(np.arange(8.0).reshape(4, 2), ["<BOS>", "。", "我", "你"],
                                                         [0, 1, 3]),
    "4.2 loss curve": lambda: plots.loss_curve(bigram.train(np.zeros((3, 3)), COUNTS, lr=5.0, steps=50)[1],
                                               bigram.count_nll(COUNTS)),
}


@pytest.mark.parametrize("name", CHAPTER_FIGURES)
def test_the_smallest_label_is_at_least_11_px_on_a_phone(name):
    """A label of s points in a PNG of w px (fig.dpi px an inch, as the notebooks store it) shows at
    s * dpi / 72 * min(1, 312 / w) CSS px on a phone."""
    fig = CHAPTER_FIGURES[name]()
    png = io.BytesIO()
    fig.savefig(png, format="png", bbox_inches="tight")
    width = Image.open(png).size[0]
    sizes = [(t.get_fontsize(), t.get_text()) for t in fig.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip()]
    points, text = min(sizes)
    shown = points * fig.dpi / 72 * min(1.0, PHONE_COLUMN_PX / width)
    assert shown >= 11, f"{text!r}: {points} pt in a {width} px PNG shows {shown:.1f} px high at 360 px"
