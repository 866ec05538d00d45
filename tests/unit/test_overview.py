"""labcode.overview.course_map: the whole pipeline in one picture, one stage lit per chapter, drawn once by
matplotlib: a PNG for the notebooks, a PDF for the handouts, and the same figure as SVG for the site."""
import base64
import functools
import io
import math
import re
import xml.etree.ElementTree as ET

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.patches import PathPatch
from PIL import Image

from labcode import overview as cm

SVG = "{http://www.w3.org/2000/svg}"
STAGES = [None, *cm.STAGES]


@functools.cache
def bundle(stage):
    """What a notebook stores for the map: (data, metadata); rendered once per test process."""
    return cm.course_map(stage)._repr_mimebundle_()


@functools.cache
def site_svg(stage, layout="wide"):
    return cm.course_map(stage).svg(layout)


def style(element) -> dict:
    """An SVG element's presentation: its attributes, with what its style attribute says on top."""
    declared = dict(item.split(":", 1) for item in (element.get("style") or "").split(";") if ":" in item)
    return {**element.attrib, **{k.strip(): v.strip() for k, v in declared.items()}}


def parts(svg_text):
    """data-part -> every <g> drawing that part (matplotlib writes one group per artist)."""
    root = ET.fromstring(svg_text)
    groups = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("data-part"):
            groups.setdefault(g.get("data-part"), []).append(g)
    return root, groups


def drawn(groups, tag):
    return [element for g in groups for element in g.iter(f"{SVG}{tag}")]


@pytest.mark.parametrize("stage", [None, "gradient"])   # (each stage's SVG is checked below, from the same figure)
def test_a_notebook_shows_a_png_the_handouts_a_pdf_and_the_site_two_svgs(stage):
    data, metadata = bundle(stage)
    # No HTML in the notebook: JupyterLab would render it (sanitised, the SVG gone) before the picture.
    assert set(data) == {"text/plain", "image/png", "application/pdf"}
    assert data["text/plain"] == cm.course_map_alt(stage)
    assert base64.b64decode(data["application/pdf"]).startswith(b"%PDF")
    png = Image.open(io.BytesIO(base64.b64decode(data["image/png"])))
    assert png.size == (2 * cm.WIDE.width, 2 * cm.WIDE.height) and png.mode == "P"   # sharp on dense screens
    assert metadata == {"image/png": {"width": cm.WIDE.width, "height": cm.WIDE.height}}   # shown at its own size
    page = cm.course_map(stage).html()
    assert page.count("<svg ") == 2 and 'class="lc-map-wide"' in page and 'class="lc-map-narrow"' in page
    assert "@media (max-width:600px)" in page
    for layout in cm.LAYOUTS:
        assert site_svg(stage, layout) in page
        root = ET.fromstring(site_svg(stage, layout))
        assert root.get("role") == "img" and root.get("aria-label") == cm.course_map_alt(stage)
        assert root.find(f"{SVG}title").text == cm.course_map_alt(stage)


@pytest.mark.parametrize("stage", list(cm.STAGES))
def test_a_chapter_map_says_you_are_here_and_names_its_chapter(stage):
    alt = cm.course_map_alt(stage)
    assert alt.startswith(f"你在这里：第 {cm.STAGES[stage].chapter} 章，")
    assert f"本章（第 {cm.STAGES[stage].chapter} 章）" in site_svg(stage)


def test_the_whole_map_lights_nothing_and_says_so():
    alt = cm.course_map_alt()
    assert alt.startswith("课程全图") and "你在这里" not in alt
    svg = site_svg(None)
    assert "本章" not in svg and 'font-weight="bold"' not in svg and "opacity=" not in svg


def test_every_stage_is_one_chapters_and_lights_parts_of_its_own():
    """Which chapter shows which stage is the registry's: tests/book/test_chapters.py."""
    chapters = [s.chapter for s in cm.STAGES.values()]
    assert len(set(chapters)) == len(chapters) and all(isinstance(c, int) and c >= 1 for c in chapters)
    keys = set(cm.NODES) | set(cm.EDGES)
    for name, stage in cm.STAGES.items():
        assert stage.keys <= keys, f"{name} lights unknown parts {stage.keys - keys}"
    assert len({s.keys for s in cm.STAGES.values()}) == len(cm.STAGES)
    assert len({s.alt for s in cm.STAGES.values()} | {cm.WHOLE_ALT}) == len(cm.STAGES) + 1


@pytest.mark.parametrize("layout", list(cm.LAYOUTS))
def test_every_part_is_drawn_once_per_layout_with_its_state(layout):
    _, groups = parts(site_svg("bigram", layout))
    assert set(groups) == {*cm.NODES, *cm.EDGES, "legend"}
    states = cm._states("bigram")
    for key, gs in groups.items():
        want = {"lit": ("bold", None), "muted": (None, str(cm.MUTED))}.get(states.get(key), (None, None))
        assert {(g.get("font-weight"), g.get("opacity")) for g in gs} == {want}, key


@pytest.mark.parametrize("layout", list(cm.LAYOUTS))
def test_the_stage_is_marked_by_outline_and_weight_not_by_colour_alone(layout):
    _, groups = parts(site_svg("softmax", layout))
    lit, muted = groups["z"], groups["ids"]
    [lit_box, muted_box] = (next(p for p in drawn(gs, "path") if style(p).get("fill") != "currentColor")
                            for gs in (lit, muted))
    muted_width = float(style(muted_box).get("stroke-width", 1))   # (SVG: 1 unless said)
    assert float(style(lit_box)["stroke-width"]) == cm.BOX_WIDTH["lit"] > muted_width
    assert style(lit_box)["fill"].lower() == cm.ACCENT.lower() and style(muted_box)["fill"] == "none"
    assert all(g.get("font-weight") == "bold" and g.get("opacity") is None for g in lit)
    assert all(g.get("opacity") == str(cm.MUTED) and g.get("font-weight") is None for g in muted)
    # a lit symbol (maths, drawn as outlines) carries the same thin outline of ink as the PNG's
    symbol = [p for p in drawn(lit, "path") if style(p).get("fill") == "currentColor"]
    assert symbol and all(float(style(p)["stroke-width"]) == 0.7 for p in symbol)


@pytest.mark.parametrize("layout", list(cm.LAYOUTS))
def test_forward_and_backward_arrows_look_different(layout):
    _, groups = parts(site_svg(None, layout))
    for key, edge in cm.EDGES.items():
        if edge.kind == "feed":
            continue
        [line] = [p for p in drawn(groups[key], "path") if style(p).get("fill") == "none"]
        if edge.kind == "backward":
            assert style(line).get("stroke-dasharray") and style(line)["stroke"].lower() == cm.BACKWARD_COLOUR.lower()
        else:
            assert "stroke-dasharray" not in style(line) and style(line)["stroke"] == "currentColor", key


@pytest.mark.parametrize("layout", list(cm.LAYOUTS))
def test_the_site_map_follows_the_page_colours_and_has_no_ids(layout):
    svg = site_svg("bigram", layout)
    root = ET.fromstring(svg)
    assert root.get("fill") == "currentColor" and root.get("font-family") == cm.FONT
    # Text and box outlines take the page's text colour; only the two accents are fixed colours, and nothing
    # paints a background.
    fixed = {value.lower() for element in root.iter() for attr in ("fill", "stroke")
             if (value := style(element).get(attr)) and value.startswith("#")}
    assert fixed <= {cm.BACKWARD_COLOUR.lower(), cm.ACCENT.lower()}, fixed
    assert cm.INK not in svg
    # A page holds both layouts: an id or a stylesheet of one would reach the other (and the whole page).
    assert not re.search(r'\sid="', svg) and "<style" not in svg and "<defs" not in svg


@pytest.mark.parametrize("layout", list(cm.LAYOUTS))
def test_words_stay_text_and_maths_is_drawn_as_outlines(layout):
    root = ET.fromstring(site_svg("gradient", layout))
    words = {"".join(t.itertext()) for t in root.iter(f"{SVG}text")}
    assert {"隐状态", "分数的梯度", "的梯度", "一步更新", "softmax", "本章（第 2 章）"} <= words
    assert not any("$" in w or "\\" in w for w in words), words   # no TeX left for a browser to show raw


def test_the_narrow_map_reads_on_a_phone():
    """At 360 px the article column is about 328 px wide: the narrow map keeps its names at 11 px or more."""
    scale = min(1.0, 328 / cm.NARROW.width)
    assert cm.SIZE_NAME * scale >= 11
    assert cm.NARROW.width < cm.WIDE.width and cm.NARROW.height > cm.WIDE.height


def _overlap(a, b, margin=0.0):
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw + margin and bx < ax + aw + margin and ay < by + bh + margin and by < ay + ah + margin


@pytest.mark.parametrize("layout", [cm.WIDE, cm.NARROW], ids=["wide", "narrow"])
def test_boxes_keep_apart_and_stay_on_the_canvas(layout):
    rects = {key: cm._rect(layout, key) for key in cm.NODES}
    for key, (x, y, w, h) in rects.items():
        assert 0 <= x and x + w <= layout.width and 0 <= y and y + h <= layout.legend_at[1] - 10, key
    keys = list(rects)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            assert not _overlap(rects[a], rects[b], margin=4), (a, b)
    for key in cm.EDGES:
        points = cm._edge_points(layout, key)
        length = sum(math.dist(a, b) for a, b in zip(points, points[1:], strict=False))
        assert length >= 12, f"the arrow {key} is {length:.1f} long"


@pytest.mark.parametrize("layout", [cm.WIDE, cm.NARROW], ids=["wide", "narrow"])
def test_every_label_fits_in_its_box(layout):
    """Measured with matplotlib's own layout (the fonts of the PNG and the PDF): words and maths outlines."""
    fig = cm._figure("bigram", layout)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    to_data = ax.transData.inverted()
    labels = [*ax.texts, *(p for p in ax.patches if isinstance(p, PathPatch))]
    extents = {}
    for artist in labels:
        key = artist.get_gid().removeprefix("lc-")
        if key in cm.NODES and cm.NODES[key].kind != "label":
            (x0, y0), (x1, y1) = to_data.transform(artist.get_window_extent(renderer).get_points())
            extents.setdefault(key, []).append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    assert set(extents) == {k for k, n in cm.NODES.items() if n.kind != "label"}
    for key, boxes in extents.items():
        bx, by, bw, bh = cm._rect(layout, key)
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        assert bx + 2 <= left and right <= bx + bw - 2, f"{key}: its label is too wide"
        assert by <= top and bottom <= by + bh, f"{key}: its label is too tall"


def test_the_outputs_are_the_same_every_time():
    """Stored notebook outputs are compared byte for byte after a refresh."""
    data, _ = bundle("gradient")
    again = cm.course_map("gradient")
    assert base64.b64decode(data["image/png"]) == again.png()
    assert base64.b64decode(data["application/pdf"]) == again.pdf()
    assert site_svg("gradient", "narrow") == again.svg("narrow")


@pytest.mark.parametrize("stage", ["Softmax", "loss", 1, ""])
def test_an_unknown_stage_gets_a_chinese_error(stage):
    with pytest.raises(ValueError, match=r"stage 必须是 None（全图，不点亮哪一段）或 'softmax'（第 1 章）.*收到"):
        cm.course_map(stage)
    with pytest.raises(ValueError, match="stage 必须是"):
        cm.course_map_alt(stage)


def test_an_unknown_layout_gets_a_chinese_error():
    with pytest.raises(ValueError, match="layout 必须是 'wide'（横排）或 'narrow'（竖排），收到 'tall'"):
        cm.course_map().svg("tall")
