"""Chinese typography on the site (_ext/web_typography.py, _ext/static/typography.css), from the one site tour
(tests/site_tour.py) at phone and desktop width: glued numbers in the weight of their sentence, upright figure
and table labels, inline code in tables never broken inside a name, no closing punctuation that can start a line
after a formula and no opening bracket that can end one before it (避头尾), no inline formula faded as if it
scrolled when it fits, fold titles that flow as one line of text, full-width curly quotes, the □ token marked,
and at desktop width no table, code cell or cell output that scrolls sideways."""
from __future__ import annotations

import pytest
from docutils import nodes

import prerendered_maths
import web_typography
from site_tour import WIDTHS


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("check", ["bold_glue", "slanted_labels", "split_table_code", "loose_punctuation",
                                   "loose_opening", "faded_maths", "split_titles", "narrow_quotes", "bare_unknown"])
def test_the_site_sets_chinese_text_as_print_does(site_tour, width, check):
    visits = site_tour[str(width)]
    found = {path: visit["typography"][check] for path, visit in visits.items() if visit["typography"][check]}
    assert visits and not found, f"{check} at {width} px: {found}"


@pytest.mark.parametrize("check", ["scrolling_tables", "scrolling_code", "scrolling_outputs"])
def test_every_table_and_code_cell_fits_the_desktop_column(site_tour, check):
    """At 1200 px no table, no code cell and no cell output (printed text or source, an error message) needs the
    sideways scrolling it gets on a phone, with every fold open: inline code in a table never breaks, and a line of
    code or output never wraps, so a long one makes its box scroll. Lines fit when they are about 60 columns wide
    (a Chinese character counts as about 1.7)."""
    visits = site_tour[str(max(WIDTHS))]
    found = {path: visit["typography"][check] for path, visit in visits.items() if visit["typography"][check]}
    assert visits and not found, f"{check} at {max(WIDTHS)} px: {found}"


def _paragraph(*children) -> nodes.paragraph:
    paragraph = nodes.paragraph()
    paragraph.extend(children)
    return paragraph


class _App:
    class builder:  # noqa: N801 (the attribute Sphinx's app has)
        format = "html"


def test_a_formula_and_the_punctuation_after_it_become_one_run():
    doc = nodes.document(None, None)
    doc += _paragraph(nodes.Text("分子始终是 "), nodes.math("", "e^0 = 1"), nodes.Text("：下面"))
    doc += _paragraph(nodes.Text("取 "), nodes.math("", "x"), nodes.Text(" 以后"))
    web_typography.join_maths_and_punctuation(_App, doc, "page")
    first, second = doc.children
    run = first[1]
    assert isinstance(run, nodes.inline) and web_typography.NO_BREAK in run["classes"]
    assert [type(n) for n in run.children] == [nodes.math, nodes.Text] and run[1].astext() == "："
    assert first[2].astext() == "下面" and first.astext() == "分子始终是 e^0 = 1：下面"
    assert not list(second.findall(nodes.inline)), "a formula followed by a space is left alone"


def test_an_opening_bracket_joins_the_formula_after_it():
    doc = nodes.document(None, None)
    doc += _paragraph(nodes.Text("均匀分布（"), nodes.math("", r"\ln V"), nodes.Text("）走了一大半"))
    doc += _paragraph(nodes.Text("记作（"), nodes.math("", "x"), nodes.Text(" 以后"))
    web_typography.join_maths_and_punctuation(_App, doc, "page")
    first, second = doc.children
    assert [n.astext() for n in first.children] == ["均匀分布", r"（\ln V）", "走了一大半"]
    assert [type(n) for n in first[1].children] == [nodes.Text, nodes.math, nodes.Text]
    assert [n.astext() for n in second.children] == ["记作", "（x", " 以后"]


def test_the_unknown_token_is_marked_in_text_but_not_in_code():
    doc = nodes.document(None, None)
    doc += _paragraph(nodes.Text("词表外的字记作 □，□ 那一行"), nodes.literal("", "'□'"))
    doc += nodes.literal_block("", "□ 4,570")
    web_typography.mark_unknown_character(_App, doc, "page")
    paragraph, code = doc.children
    marked = [n for n in paragraph.findall(nodes.inline) if web_typography.UNKNOWN_CLASS in n["classes"]]
    assert len(marked) == 2 and paragraph.astext() == "词表外的字记作 □，□ 那一行'□'"
    assert not list(code.findall(nodes.inline)) and code.astext() == "□ 4,570"


def test_a_long_inline_formula_may_break_only_before_a_relation_outside_any_group():
    answer = r"0.5\cdot 0/4 + 0.5\cdot(3+1)/(36+4) = 1/20 \approx 0.05"      # chapter 5's answer box
    assert prerendered_maths.pieces(answer) == [r"0.5\cdot 0/4 + 0.5\cdot(3+1)/(36+4) ", "{}= 1/20 ",
                                                r"{}\approx 0.05"]
    assert prerendered_maths.pieces(r"\left< a \right> + \frac{x = 1}{y} \le 12345678901234567") == [
        r"\left< a \right> + \frac{x = 1}{y} ", r"{}\le 12345678901234567"]
    assert prerendered_maths.pieces("x = 1") == ["x = 1"], "a short formula stays whole"
    assert prerendered_maths.pieces("=" + "x" * 40) == ["=" + "x" * 40], "nothing before the relation"
