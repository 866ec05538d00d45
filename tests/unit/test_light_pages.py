"""The light-page extensions on small inputs: what each keeps, changes and refuses.

The built site is checked as a whole by test_page_weight.py, test_site_offline.py and the browser tests;
here each rewrite is checked on its own, cheaply, including the cases the book does not have today
(an equation number, a standard ipywidget, an unknown icon).
"""
from __future__ import annotations

import pytest
from PIL import Image

import first_screen
import prerendered_maths as maths
import theme_icons as icons
import widget_loader as loader
from conftest import require_tool


def test_formulas_are_read_as_sphinx_writes_them_for_mathjax():
    assert maths.tex_of("span", r"\(p_i &lt; 1\)") == ("", "p_i < 1", False)
    assert maths.tex_of("div", "\\[\\begin{split}a &amp;= b\\\\c\\end{split}\\]") == (
        "", "\\begin{split}a &= b\\\\c\\end{split}", True)
    number = '<span class="eqno">(1.1)<a class="headerlink" href="#equation-x">#</a></span>'
    assert maths.tex_of("div", number + r"\[e^z\]") == (number, "e^z", True)
    assert maths.tex_of("div", r"\begin{align}x\end{align}") == ("", r"\begin{align}x\end{align}", True)


def test_a_formula_mathjax_cannot_read_is_reported_not_drawn():
    require_tool("node", "sudo apt-get install nodejs npm, then `make assets`")
    result = maths.render([[(r"\operatorname{softmax}(z)_{\text{当前}}", False), (r"\frac{a", True)]])
    page = result["pages"][0]
    assert page["html"][0].startswith('<mjx-container class="MathJax" jax="SVG"') and "<math" in page["html"][0]
    assert [i for i, _ in page["errors"]] == [1] and page["html"][1] == ""
    assert "<defs>" in page["defs"] and "mjx-container" in result["css"]


def test_a_formula_typeset_by_an_earlier_build_is_left_alone():
    done = '<span class="math notranslate nohighlight"><mjx-container class="MathJax" jax="SVG"></mjx-container></span>'
    numbered = ('<div class="math notranslate nohighlight"><span class="eqno">(1)</span>'
                '<mjx-container class="MathJax"></mjx-container></div>')
    raw = r'<span class="math notranslate nohighlight">\(x\)</span>'
    assert [m.group(3) for m in maths.FORMULA.finditer(done + numbered + raw)] == [r"\(x\)"]


def model(module, name, **state):
    return {"model_module": module, "model_name": name, "state": {"_model_name": name, **state}}


def test_the_loader_draws_a_page_only_when_every_widget_is_an_anywidget():
    anywidget = model("anywidget", "AnyModel", _esm="export default {render() {}}")
    layout = model("@jupyter-widgets/base", "LayoutModel", width=None, height=None)
    assert loader.loader_suffices({"state": {"a": anywidget, "l": layout}})
    slider = model("@jupyter-widgets/controls", "FloatSliderModel", value=0.5)
    assert not loader.loader_suffices({"state": {"a": anywidget, "s": slider}})
    sized = model("@jupyter-widgets/base", "LayoutModel", width="300px")
    assert not loader.loader_suffices({"state": {"a": anywidget, "l": sized}})
    assert not loader.loader_suffices({"state": {}})


def test_theme_icons_become_the_svg_font_awesome_draws(monkeypatch):
    if not icons.FONT_AWESOME.is_dir():
        pytest.fail(f"{icons.FONT_AWESOME} is missing: `make assets` installs the npm packages of web/package.json")
    svg = icons.svg_for("theme-switch fa-solid fa-sun  fa-lg", ' data-mode="light" title="亮色"', "page")
    assert svg.startswith('<svg class="svg-inline--fa fa-sun theme-switch fa-lg" data-mode="light" aria-hidden="true"')
    assert "<title>亮色</title>" in svg and 'viewBox="0 0 512 512"' in svg and 'fill="currentColor"' in svg
    assert 'data-icon' not in svg and "fa-solid" not in svg
    assert 'viewBox="0 0 576 512"' in icons.svg_for("fa-solid fa-home", "", "page")  # an old name of fa-house
    warned = []  # (a Sphinx build earlier in this process may leave its warnings-are-errors filter on the logger)
    monkeypatch.setattr(icons.logger, "warning", lambda message, *args, **kwargs: warned.append(message % args))
    page = '<head></head><span class="fa-solid fa-bars"></span><i class="fas fa-no-such-icon"></i>'
    rewritten = icons.inline_icons(page, "page", "_static/theme-icons-solid.woff", None)
    assert 'class="svg-inline--fa fa-bars"' in rewritten and '<i class="fas fa-no-such-icon"></i>' in rewritten
    assert len(warned) == 1 and "fa-no-such-icon" in warned[0]


def test_the_icon_font_subset_keeps_what_the_css_draws_and_not_the_icon_classes(tmp_path):
    (tmp_path / "theme.css").write_text('.fa-bell:before{content:"\\f0f3"}.fa-a:before,.fa-b:before{content:"\uf000"}'
                                        '.admonition-title:after{content:var(--x)}html{--x:"\\f05a";--y:"\uf104"}',
                                        encoding="utf-8")
    assert icons.css_icon_characters(tmp_path) == {"\uf05a", "\uf104"}


def test_figures_load_lazily_with_their_size_and_the_index_only_on_the_search_page(tmp_path):
    (tmp_path / "_images").mkdir()
    Image.new("RGB", (40, 30)).save(tmp_path / "_images" / "fig.png")
    (tmp_path / "_images" / "fig.svg").write_text('<svg width="72pt" height="36pt"></svg>', encoding="utf-8")
    page = ('<head><script src="_static/searchtools.js"></script><script src="searchindex.js"></script></head>'
            '<img alt="图" src="_images/fig.png" /><img alt="矢量图" src="_images/fig.svg" />')
    chapter = first_screen.defer(page, tmp_path / "page.html", is_search=False)
    assert "searchindex.js" not in chapter and "searchtools.js" not in chapter
    assert '<img alt="图" src="_images/fig.png" loading="lazy" decoding="async" width="40" height="30" />' in chapter
    assert 'src="_images/fig.svg" loading="lazy" decoding="async" width="96" height="48" />' in chapter
    assert first_screen.defer(chapter, tmp_path / "page.html", is_search=False) == chapter
    search = first_screen.defer(page, tmp_path / "search.html", is_search=True)
    assert "searchindex.js" in search and "searchtools.js" in search
