"""Nothing on a page is cut off without a sign: what scrolls sideways shows that it does.

On a phone, display formulas, tables, code and printed outputs wider than the text column scroll inside
their own box, and nothing shows that more is hidden (phones draw no scroll bar). `static/scroll-cues.js`
marks each such box once it is wider than its column (again when the page is resized or a folded part opens)
and keeps the mark up to date as the reader scrolls it; `static/scroll-cues.css` fades the edge that has
more behind it. A box that scrolls gets a tab stop, so that a keyboard can scroll it too. A display formula at most
15 % wider than the column is drawn that much smaller instead: scrolled, it would hide only its last symbols.
The theme clips an inline formula wider than the line (`span.math { overflow: hidden }`): it scrolls too.
Tables keep their code in one piece (“exp(z).sum()”) and scroll, instead of breaking it inside a name.
tests/site_tour.py checks every element of every page at 360 px: none is wider than its box unless the box
scrolls and shows the cue.
"""
from __future__ import annotations

import site_files


def setup(app):
    site_files.on_every_page(app, "scroll-cues.css", "scroll-cues.js")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
