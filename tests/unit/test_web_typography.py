"""The site's 避头尾 join (_ext/web_typography.py) on a doctree: a formula and the closing punctuation right after it
become one run, in place, whatever other text of the paragraph reads the same."""
from __future__ import annotations

from types import SimpleNamespace

from docutils import nodes

import web_typography

HTML = SimpleNamespace(builder=SimpleNamespace(format="html"))


def paragraph(*parts):
    para = nodes.paragraph()
    for part in parts:
        para += part
    return para


def test_the_mark_after_a_formula_joins_it_where_it_stands_even_when_an_earlier_text_is_the_same():
    # “`xs`、`ys` 形状 (N,)；…分母没加 V、γ 乘错了项”: the first “、” follows code, the second the formula V.
    para = paragraph(nodes.literal(text="xs"), nodes.Text("、"), nodes.literal(text="ys"), nodes.Text(" 形状 "),
                     nodes.math(text="V"), nodes.Text("、"), nodes.math(text=r"\gamma"), nodes.Text(" 乘错了项"))
    doc = nodes.document(None, None)
    doc += para
    web_typography.join_maths_and_punctuation(HTML, doc, "page")
    assert para.astext() == "xs、ys 形状 V、\\gamma 乘错了项"
    joined = [n for n in para.children if isinstance(n, nodes.inline)]
    assert len(joined) == 1 and joined[0].astext() == "V、" and web_typography.NO_BREAK in joined[0]["classes"]
    assert para.index(joined[0]) == 4


def test_only_closing_marks_join_and_the_rest_of_the_text_stays_after_the_run():
    para = paragraph(nodes.Text("始终是 "), nodes.math(text="e^0"), nodes.Text("：然后"), nodes.math(text="x"),
                     nodes.Text(" 与"), nodes.math(text="y"), nodes.Text("（注）"))
    doc = nodes.document(None, None)
    doc += para
    web_typography.join_maths_and_punctuation(HTML, doc, "page")
    assert para.astext() == "始终是 e^0：然后x 与y（注）"
    assert [n.astext() for n in para.children if isinstance(n, nodes.inline)] == ["e^0："]
