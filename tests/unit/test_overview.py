"""labcode.overview.course_map: the whole pipeline in one picture, one stage lit per chapter; SVG and PDF."""
import base64
import math
import xml.etree.ElementTree as ET

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from labcode import overview as cm

SVG = "{http://www.w3.org/2000/svg}"
STAGES = [None, *cm.STAGES]


def parts(svg_text):
    """data-part -> its <g> element."""
    root = ET.fromstring(svg_text)
    return root, {g.get("data-part"): g for g in root.iter(f"{SVG}g") if g.get("data-part")}


@pytest.mark.parametrize("stage", STAGES)
def test_one_call_gives_html_svg_pdf_and_the_alt_text(stage):
    bundle = cm.course_map(stage)._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "image/svg+xml", "application/pdf"}
    assert base64.b64decode(bundle["application/pdf"]).startswith(b"%PDF")
    root = ET.fromstring(bundle["image/svg+xml"])
    assert root.get("role") == "img" and root.get("aria-label") == bundle["text/plain"]
    assert root.find(f"{SVG}title").text == bundle["text/plain"]
    html = bundle["text/html"]
    assert html.count("<svg ") == 2 and 'class="lc-map-wide"' in html and 'class="lc-map-narrow"' in html
    assert "@media (max-width:600px)" in html


@pytest.mark.parametrize("stage", list(cm.STAGES))
def test_a_chapter_map_says_you_are_here_and_names_its_chapter(stage):
    alt = cm.course_map_alt(stage)
    assert alt.startswith(f"你在这里：第 {cm.STAGES[stage].chapter} 章，")
    assert f"本章（第 {cm.STAGES[stage].chapter} 章）" in cm.course_map(stage).svg()


def test_the_whole_map_lights_nothing_and_says_so():
    alt = cm.course_map_alt()
    assert alt.startswith("课程全图") and "你在这里" not in alt
    svg = cm.course_map().svg()
    assert "本章" not in svg and 'font-weight="bold"' not in svg and 'opacity="0.38"' not in svg


def test_every_stage_is_one_chapters_and_lights_parts_of_its_own():
    """Which chapter shows which stage is the registry's: tests/book/test_chapters.py."""
    chapters = [s.chapter for s in cm.STAGES.values()]
    assert len(set(chapters)) == len(chapters) and all(isinstance(c, int) and c >= 1 for c in chapters)
    keys = set(cm.NODES) | set(cm.EDGES)
    for name, stage in cm.STAGES.items():
        assert stage.keys <= keys, f"{name} lights unknown parts {stage.keys - keys}"
    assert len({s.keys for s in cm.STAGES.values()}) == len(cm.STAGES)


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_the_stage_is_marked_by_outline_and_weight_not_by_colour_alone(layout):
    _, groups = parts(cm.course_map("softmax").svg(layout))
    lit, muted = groups["z"], groups["ids"]
    assert lit.find(f"{SVG}rect").get("stroke-width") == "2.6" and lit.get("opacity") is None
    assert all(t.get("font-weight") == "bold" for t in lit.iter(f"{SVG}text"))
    assert float(muted.find(f"{SVG}rect").get("stroke-width")) < 1.3 and muted.get("opacity") == "0.38"
    assert all(t.get("font-weight") is None for t in muted.iter(f"{SVG}text"))


@pytest.mark.parametrize("layout", ["wide", "narrow"])
def test_forward_and_backward_arrows_look_different(layout):
    _, groups = parts(cm.course_map().svg(layout))
    for key, edge in cm.EDGES.items():
        line = groups[key].find(f"{SVG}polyline")
        if edge.kind == "backward":
            assert line.get("stroke-dasharray") and line.get("stroke") == cm.BACKWARD_COLOUR, key
        else:
            assert line.get("stroke-dasharray") is None and line.get("stroke") == "currentColor", key


def test_the_site_map_follows_the_page_colours():
    for layout in ("wide", "narrow"):
        svg = cm.course_map("bigram").svg(layout)
        root = ET.fromstring(svg)
        assert root.get("fill") == "currentColor"
        # Text and box outlines take the page's text colour; only the two accents are fixed colours.
        fixed = {value for element in root.iter() for attr in ("fill", "stroke")
                 if (value := element.get(attr)) and value.startswith("#")}
        assert fixed <= {cm.BACKWARD_COLOUR, cm.ACCENT}, fixed


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
    """Measured with matplotlib's own text layout (the fonts of the PDF handouts)."""
    fig = cm._figure("bigram", layout)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    to_data = ax.transData.inverted()
    checked = 0
    for text in ax.texts:
        key = text.get_gid()
        if key is None or cm.NODES[key].kind == "label":
            continue
        (x0, y0), (x1, y1) = to_data.transform(text.get_window_extent(renderer).get_points())
        bx, by, bw, bh = cm._rect(layout, key)
        assert bx + 2 <= min(x0, x1) and max(x0, x1) <= bx + bw - 2, f"{key}: {text.get_text()!r} is too wide"
        assert by <= min(y0, y1) and max(y0, y1) <= by + bh, f"{key}: {text.get_text()!r} is too tall"
        checked += 1
    assert checked >= 2 * len(cm.NODES) - 8


def test_the_pdf_is_the_same_every_time():
    """Stored notebook outputs are compared byte for byte after a refresh."""
    assert cm.course_map("gradient").pdf() == cm.course_map("gradient").pdf()
    assert cm.course_map("gradient").png(dpi=60)[:8] == b"\x89PNG\r\n\x1a\n"


def test_math_in_labels_becomes_italic_subscripts_and_spaced_operators():
    assert cm._runs("$g = p - e_y$") == [("g", "i"), ("=", "op"), ("p", "i"), ("−", "op"), ("e", "i"), ("y", "sub")]
    assert cm._runs(r"$-\ln p_y$")[:2] == [("−", ""), ("ln\u2009", "")]
    assert cm._runs(r"$h^{\mathsf T}$ 的") == [("h", "i"), ("T", "sup"), (" 的", "")]


@pytest.mark.parametrize("stage", ["Softmax", "loss", 1, ""])
def test_an_unknown_stage_gets_a_chinese_error(stage):
    with pytest.raises(ValueError, match=r"stage 必须是 None（全图，不点亮哪一段）或 'softmax'（第 1 章）.*收到"):
        cm.course_map(stage)
    with pytest.raises(ValueError, match="stage 必须是"):
        cm.course_map_alt(stage)


def test_an_unknown_layout_gets_a_chinese_error():
    with pytest.raises(ValueError, match="layout 必须是 'wide'（横排）或 'narrow'（竖排），收到 'tall'"):
        cm.course_map().svg("tall")
