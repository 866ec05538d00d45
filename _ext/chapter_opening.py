"""A chapter's first screen says what the chapter answers and how long it takes to read.

Under the title of every chapter (every notebook of the book but the home page) the site shows a short card:
- the question the chapter answers, written in the chapter's title cell::

      :::{chapter-question}
      模型给每个候选打出的分数，怎样变成……？
      :::

  (the handouts print it too, under the title);
- the reading time, counted from the page itself when the site is built, so that a chapter added later gets
  it with nothing to write: the main path, and apart from it the “深入” boxes a first reading may skip.
  Counted: the text, the tables, the captions and the exercises; not the code, its printouts or the
  solutions. A Chinese character is one unit, a Latin word or a number one and a half, an inline formula
  three, a display formula thirty; UNITS_PER_MINUTE of them make a minute.
"""
from __future__ import annotations

import math
import re

from docutils import nodes
from sphinx.util.docutils import SphinxDirective
from sphinx_exercise.nodes import solution_node

import book_layout
import site_files
from learner_kit import notebook_pages

UNITS_PER_MINUTE = 300
CJK = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z0-9]+(?:[.'’-][A-Za-z0-9]+)*")
INLINE_FORMULA, DISPLAY_FORMULA, LATIN_WORD = 3, 30, 1.5
LABEL = "{scope}回答"


class chapter_card(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes in lower case)
    """The card under a chapter's title: its question (the children, maybe none) and node["minutes"]."""


class ChapterQuestion(SphinxDirective):
    has_content = True

    def run(self):
        card = chapter_card(scope=book_layout.scope(self.state.document.next_node(nodes.title)))
        self.state.nested_parse(self.content, self.content_offset, card)
        self.set_source_info(card)
        return [card]


def reading_units(node, in_deep: bool = False, units=None) -> dict[str, float]:
    """{"main": units, "deep": units} of the node's text, as the module's docstring counts them."""
    units = units if units is not None else {"main": 0.0, "deep": 0.0}
    where = "deep" if in_deep else "main"
    if isinstance(node, nodes.Text):
        text = str(node)
        units[where] += len(CJK.findall(text)) + LATIN_WORD * len(LATIN.findall(text))
        return units
    if isinstance(node, (nodes.raw, nodes.literal_block, nodes.comment, solution_node, chapter_card)) or \
            str(node.get("nb_element", "")).startswith("cell_code"):
        return units
    if isinstance(node, (nodes.math, nodes.math_block)):
        units[where] += DISPLAY_FORMULA if isinstance(node, nodes.math_block) else INLINE_FORMULA
        return units
    deep = in_deep or type(node).__name__ == "deep_box"
    for child in node.children:
        reading_units(child, deep, units)
    return units


def minutes(units: float) -> int:
    return max(1, math.ceil(units / UNITS_PER_MINUTE))


def add_card(app, doctree, docname) -> None:
    """Every chapter gets its card (the one its question made, or an empty one), with its reading time."""
    if app.builder.format != "html" or docname == app.config.root_doc or docname not in notebook_pages(app.env):
        return
    card = next(iter(doctree.findall(chapter_card)), None)
    if card is None:
        section = next(iter(doctree.findall(nodes.section)), None)
        if section is None:
            return
        card = chapter_card()
        section.insert(1, card)
    units = reading_units(doctree)
    card["minutes"] = (minutes(units["main"]), minutes(units["deep"]) if units["deep"] else 0)
    card["scope"] = book_layout.scope(doctree.next_node(nodes.title))


END = "</div><!-- lc-opening -->\n"


def first_under_title(app, pagename, templatename, context, doctree) -> None:
    """The card right under the title, above what other extensions put there (links, the learner's kit)."""
    body = context.get("body", "")
    start, title_end = body.find('<div class="lc-opening">'), body.find("</h1>")
    if start < 0 or title_end < 0 or start < title_end:
        return
    end = body.index(END, start) + len(END)
    title_end += len("</h1>")
    context["body"] = body[:title_end] + "\n" + body[start:end] + body[title_end:start] + body[end:]


def visit_card_html(self, node):
    self.body.append('<div class="lc-opening">\n')
    if node.children:
        label = LABEL.format(scope=node.get("scope", "本章"))
        self.body.append(f'<div class="lc-question"><span class="lc-opening-label">{label}</span>')


def depart_card_html(self, node):
    if node.children:
        self.body.append("</div>\n")
    main, deep = node.get("minutes", (0, 0))
    if main:
        extra = f"；“深入”框另需约 {deep} 分钟，第一遍可以跳过" if deep else ""
        self.body.append(f'<p class="lc-reading-time">阅读约 {main} 分钟{extra}。</p>\n')
    self.body.append(END)


def visit_card_latex(self, node):
    label = LABEL.format(scope=node.get("scope", "本章"))
    self.body.append(f"\n\\begin{{quote}}\\textbf{{{label}}}\\par\\itshape ")


def depart_card_latex(self, node):
    self.body.append("\\end{quote}\n")


def setup(app):
    app.add_node(chapter_card, html=(visit_card_html, depart_card_html),
                 latex=(visit_card_latex, depart_card_latex))
    app.add_directive("chapter-question", ChapterQuestion)
    app.connect("doctree-resolved", add_card)
    app.connect("html-page-context", first_under_title, priority=750)
    site_files.on_every_page(app, "chapter-opening.css")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
