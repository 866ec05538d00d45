"""Chinese typography on the site: what the theme and myst-nb set that a Chinese page should not have.

`static/typography.css`: glued numbers (myst-nb's `pasted-text`, bold by default) in the weight of the sentence
around them, figure and table labels (图 2.1) upright, code in tables kept whole (an identifier never breaks
inside) and 避头尾 rules for breaking lines. Inline maths and the closing punctuation right after it (“= 1：”)
are joined into one unbreakable run, so that no line starts with a full-width colon or comma: the browser
treats a formula as an object and may break after it before any character. An opening bracket or quote right
before a formula joins the run too (“均匀分布（ln V ≈ 8.48）”: no line ends with “（”).
Curly quotes (“ ” ‘ ’) are drawn by the system's Chinese font, full-width as on paper, not by the Latin font
that comes first in the theme's font list (half-width, cramped against the Chinese around them).
The book's token for a character outside the vocabulary, □, is marked (class `lc-unknown`) and drawn on a light
ground, so that it reads as a symbol and not as a character the font lacks, in the text and in the page contents.
"""
from __future__ import annotations

import re

from docutils import nodes

import site_files

NO_BREAK = "nobreak-punct"  # the class of the run that joins a formula and the punctuation after it
# Full-width punctuation that may not start a line (closing marks, and the pause and stop marks).
CLOSING = re.compile(r"^[，。、：；！？）」』”’》〉]+")
# Full-width punctuation that may not end a line (opening brackets and quotes).
OPENING = re.compile(r"[（「『“‘《〈]+$")
UNKNOWN = "□"
UNKNOWN_CLASS = "lc-unknown"


def _text_at(parent, index: int) -> str | None:
    return parent[index].astext() if 0 <= index < len(parent) and isinstance(parent[index], nodes.Text) else None


def join_maths_and_punctuation(app, doctree, docname) -> None:
    if app.builder.format != "html":
        return
    for maths in list(doctree.findall(nodes.math)):
        parent = maths.parent
        index = parent.index(maths)
        before, after = _text_at(parent, index - 1), _text_at(parent, index + 1)
        opening = OPENING.search(before) if before is not None else None
        closing = CLOSING.match(after) if after is not None else None
        if not opening and not closing:
            continue
        # By position, never by value: docutils finds a Text child by string equality, so replace() or remove()
        # of "、" would take the first "、" of the paragraph, not the one after this formula.
        run = nodes.inline(classes=[NO_BREAK])
        if opening:
            run += nodes.Text(opening.group(0))
        run += maths
        if closing:
            run += nodes.Text(closing.group(0))
        head = [nodes.Text(before[:opening.start()])] if opening and opening.start() else []
        tail = [nodes.Text(after[closing.end():])] if closing and after[closing.end():] else []
        parent[index - bool(opening):index + bool(closing) + 1] = [*head, run, *tail]


def mark_unknown_character(app, doctree, docname) -> None:
    """Each □ of the text (not of code or a formula) in a span of its own."""
    if app.builder.format != "html":
        return
    for text in [t for t in doctree.findall(nodes.Text) if UNKNOWN in t]:
        parent = text.parent
        if isinstance(parent, (nodes.FixedTextElement, nodes.literal, nodes.math, nodes.raw)):
            continue
        index = next(i for i, child in enumerate(parent.children) if child is text)  # by identity (see above)
        parent[index:index + 1] = [nodes.inline(part, part, classes=[UNKNOWN_CLASS]) if part == UNKNOWN
                                   else nodes.Text(part) for part in re.split(f"({UNKNOWN})", str(text)) if part]


# A page-contents link (the sidebar's, and the copy site_nav.py opens on a phone): built from the titles' text,
# so its □ is marked here, in the finished page.
TOC_LINK = re.compile(r'(<li class="toc-h\d[^"]*"><a class="reference internal nav-link"[^>]*>)(.*?)(</a>)', re.S)


def mark_unknown_in_page_contents(page: str, *_) -> str:
    def mark(link):
        if UNKNOWN_CLASS in link[2]:        # marked by an earlier build
            return link[0]
        return link[1] + link[2].replace(UNKNOWN, f'<span class="{UNKNOWN_CLASS}">{UNKNOWN}</span>') + link[3]
    return TOC_LINK.sub(mark, page)


def setup(app):
    site_files.on_every_page(app, "typography.css")
    site_files.rewrite_when_built(app, mark_unknown_in_page_contents)
    app.connect("doctree-resolved", join_maths_and_punctuation)
    app.connect("doctree-resolved", mark_unknown_character)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
