"""Chinese typography on the site: what the theme and myst-nb set that a Chinese page should not have.

`static/typography.css`: glued numbers (myst-nb's `pasted-text`, bold by default) in the weight of the sentence
around them, figure and table labels (图 2.1) upright, code in tables kept whole (an identifier never breaks
inside) and 避头尾 rules for breaking lines. Inline maths and the closing punctuation right after it (“= 1：”)
are joined into one unbreakable run, so that no line starts with a full-width colon or comma: the browser
treats a formula as an object and may break after it before any character.
"""
from __future__ import annotations

import re

from docutils import nodes

import site_files

NO_BREAK = "nobreak-punct"  # the class of the run that joins a formula and the punctuation after it
# Full-width punctuation that may not start a line (closing marks, and the pause and stop marks).
CLOSING = re.compile(r"^[，。、：；！？）」』”’》〉]+")


def join_maths_and_punctuation(app, doctree, docname) -> None:
    if app.builder.format != "html":
        return
    for maths in list(doctree.findall(nodes.math)):
        parent = maths.parent
        index = parent.index(maths)
        if index + 1 >= len(parent) or not isinstance(parent[index + 1], nodes.Text):
            continue
        after = parent[index + 1].astext()
        match = CLOSING.match(after)
        if not match:
            continue
        # By position, never by value: docutils finds a Text child by string equality, so replace() or remove()
        # of "、" would take the first "、" of the paragraph, not the one after this formula.
        run = nodes.inline(classes=[NO_BREAK])
        del parent[index:index + 2]
        run += maths
        run += nodes.Text(match.group(0))
        rest = after[match.end():]
        parent.insert(index, run)
        if rest:
            parent.insert(index + 1, nodes.Text(rest))


def setup(app):
    site_files.serve_static(app)
    site_files.on_every_page(app, "typography.css")
    app.connect("doctree-resolved", join_maths_and_punctuation)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
