"""A figure too dense for a phone's text column keeps a readable size there and scrolls sideways, with a link to
the picture alone at full size.

The chapter-4 count heat map writes a pair and a count in each of its 27 × 27 cells: shrunk to a 360 px screen,
its digits would be under 4 CSS px. A figure whose cell gives it the class `phone-pan` (cell metadata
`"mystnb": {"figure": {"classes": "phone-pan"}}`) is shown at its own size at phone width (600 px and less)
inside a box that scrolls sideways (its edge fades while there is more: scroll_cues.py); wider screens fit it
to the column as any figure. Under it, a link opens the picture alone, where a phone can zoom it.
The figure's caption holds on both (the picture is the same); the PDF handouts print it as any figure.
"""
from __future__ import annotations

import re

import site_files

PANNED = re.compile(r'(<figure class="[^"]*\bphone-pan\b[^"]*"[^>]*>\s*)(<img\b[^>]*\bsrc="([^"]+)"[^>]*>)')
LINK = '<p class="lc-full-size"><a href="{src}">打开原尺寸的大图</a>（手机上可以双指放大）</p>\n'


def rewrite(page: str, *_) -> str:
    if 'class="lc-pan"' in page:   # rewritten by an earlier build
        return page
    return PANNED.sub(lambda m: f'{m.group(1)}<div class="lc-pan">{m.group(2)}</div>\n'
                                f'{LINK.format(src=m.group(3))}', page)


def setup(app):
    site_files.on_every_page(app, "wide-figures.css")
    site_files.rewrite_when_built(app, rewrite)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
