"""What the first screen of a page does not need is not loaded with it.

- The search index. pydata-sphinx-theme loads Sphinx's search scripts and the whole index (searchindex.js,
  25 KB gzip and growing with the book) on every page, for its search-as-you-type box. This book leaves that
  off (`search_as_you_type` is False): the search box opens search.html, which loads them itself. So only
  search.html keeps them.
- Figures. Every image of the text (`_images/`) gets `loading="lazy"` (fetched when the reader comes near it)
  and `decoding="async"`, and its own width and height, so that the page keeps its layout while it loads
  (the style below keeps the width and height in proportion when the column is narrower). A figure stored at
  twice its resolution (the notebooks' "retina" PNGs) comes with its display size, which Sphinx writes as a
  fixed inline style: it becomes the width and height instead, so that a narrow column shrinks it in
  proportion too.
"""
from __future__ import annotations

import re
from pathlib import Path

import site_files

SEARCH_SCRIPTS = re.compile(r'\s*<script src="[^"]*(?:_static/searchtools|_static/language_data|searchindex)\.js">'
                            r"</script>")
IMAGE = re.compile(r'<img\b(?![^>]*\bloading=)([^>]*\bsrc="([^"]*_images/[^"]+)"[^>]*?)\s*/?>')
STYLE_SIZE = re.compile(r'\s*style="width:\s*([\d.]+)px;\s*height:\s*([\d.]+)px;?"')
SVG_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([\d.]+)(pt|px)?"[^>]*?\bheight="([\d.]+)(pt|px)?"')
STYLE = '<style id="first-screen">.bd-article img[loading=lazy]{height:auto}</style>'


def image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) in CSS pixels of a raster image or an SVG with an absolute size, else None."""
    if path.suffix == ".svg":
        found = SVG_SIZE.search(path.read_text(encoding="utf-8", errors="replace")[:4000])
        if not found:
            return None
        scale = 4 / 3 if found.group(2) == "pt" else 1  # 1 pt = 4/3 CSS px
        return round(float(found.group(1)) * scale), round(float(found.group(3)) * scale)
    from PIL import Image

    try:
        with Image.open(path) as image:
            return image.size
    except OSError:
        return None


def defer(page: str, page_path: Path, is_search: bool) -> str:
    if not is_search:
        page = SEARCH_SCRIPTS.sub("", page)

    def lazy(match):
        attributes, src = match.group(1), match.group(2)
        styled = STYLE_SIZE.search(attributes)
        if styled:   # the display size of an image stored at a higher resolution
            attributes = STYLE_SIZE.sub("", attributes)
            size = round(float(styled.group(1))), round(float(styled.group(2)))
        else:
            size = image_size((page_path.parent / src.split("?")[0]).resolve())
        dims = f' width="{size[0]}" height="{size[1]}"' if size and " width=" not in attributes else ""
        return f'<img{attributes} loading="lazy" decoding="async"{dims} />'

    page = IMAGE.sub(lazy, page)
    if STYLE not in page:
        page = page.replace("</head>", STYLE + "</head>", 1)
    return page


def setup(app):
    site_files.rewrite_when_built(app, lambda page, path, outdir: defer(page, path, path == outdir / "search.html"))
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
