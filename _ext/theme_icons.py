"""The theme's icons: inline SVG instead of the whole Font Awesome library (543 KB gzip) in every page, and
a 4 KB subset of the icon font instead of the whole font (153 KB) for the icons its CSS draws.

pydata-sphinx-theme writes its icons as empty `<i class="fa-solid fa-bars">` (or `<span …>`) elements and loads
`fontawesome.js`, which holds every icon and swaps each element for an SVG once the page runs; the pages here
use about fifteen. Once the site is built, each element becomes the SVG that script would have made (same
classes and attributes, its `title` as the SVG's <title>), from the icon files of the same release (6.5.2,
pinned in web/package.json), and the script is left out. Icons the theme's JavaScript creates later (the
version switcher, the announcement banner: unused here) would stay empty.

The theme's CSS also draws a few icons with the icon font (admonition titles, breadcrumb arrows), whose file
holds 1,400 glyphs. The glyphs its CSS asks for (not counting the `.fa-NAME:before` rules of the icon classes,
which the inline SVGs replace) go into a small font, declared after the theme's own for just those characters,
so the browser never needs the big one.
Font Awesome Free: icons CC BY 4.0, fonts SIL OFL 1.1, https://fontawesome.com/license/free.
"""
from __future__ import annotations

import html
import os
import re
from functools import cache
from pathlib import Path

from sphinx.util import logging

import site_files

logger = logging.getLogger(__name__)
FONT_AWESOME = Path(__file__).resolve().parents[1] / "web" / "node_modules" / "@fortawesome" / "fontawesome-free"
FAMILIES = {"fa-solid": "solid", "fas": "solid", "fa-regular": "regular", "far": "regular",
            "fa-brands": "brands", "fab": "brands"}
ELEMENT = re.compile(r'<(i|span) class="([^"]*\bfa-[^"]*)"([^>]*)>\s*</\1>')
ATTRIBUTE = re.compile(r'\s+([\w:-]+)="([^"]*)"')
SCRIPT = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
SVG_FILE = re.compile(r'viewBox="([^"]+)".*?<path d="([^"]+)"', re.S)
# The rules of Font Awesome's svg-with-js.css that these icons need (the theme's CSS has .fa-lg and the like).
STYLE_ID = "theme-icons"
SVG_RULES = ("svg:not(:root).svg-inline--fa{overflow:visible;box-sizing:content-box}"
             ".svg-inline--fa{display:var(--fa-display,inline-block);height:1em;overflow:visible;vertical-align:-.125em}"
             ".svg-inline--fa.fa-lg{vertical-align:-.2em}.svg-inline--fa.fa-fw{width:var(--fa-fw-width,1.25em)}")
# The theme's solid icon font (pydata-sphinx-theme ships it under _static/vendor/), and the subset made of it.
THEME_FONT = Path("vendor", "fontawesome", "webfonts", "fa-solid-900.ttf")
SUBSET_FONT = "theme-icons-solid.woff"
CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
ICON_CLASS_RULE = re.compile(r"^\.fa-[\w-]+:{1,2}(?:before|after)$")
PRIVATE_USE = re.compile(r"[\ue000-\uf8ff]|\\([ef][0-9a-fA-F]{3})\b")


# In Font Awesome's metadata/icons.yml: an icon's name, then the older names it answers to.
ALIASES = re.compile(r"^'?([a-z0-9-]+)'?:\n  aliases:\n    names:\n((?:      - .+\n)+)", re.M)


@cache
def aliases() -> dict[str, str]:
    """Old names (fa-home) to the names of the icon files (house). Read with a pattern, not a YAML parser:
    the file is 600 KB and only this part of it matters."""
    text = (FONT_AWESOME / "metadata" / "icons.yml").read_text(encoding="utf-8")
    return {old.strip().strip("'\""): name for name, olds in ALIASES.findall(text)
            for old in olds.replace("      - ", "").splitlines()}


@cache
def icon(family: str, name: str) -> tuple[str, str] | None:
    """(viewBox, path) of an icon, or None when Font Awesome has no such icon."""
    for file in (name, aliases().get(name)):
        path = FONT_AWESOME / "svgs" / family / f"{file}.svg"
        if file and path.exists():
            return SVG_FILE.search(path.read_text(encoding="utf-8")).groups()
    return None


def svg_for(classes: str, attributes: str, where: str) -> str | None:
    """The inline SVG for one icon element, or None (with a warning) when its icon is unknown."""
    names = classes.split()
    family = next((FAMILIES[c] for c in names if c in FAMILIES), "solid")
    candidates = [c[3:] for c in names if c.startswith("fa-") and c not in FAMILIES]
    found = next(((n, icon(family, n)) for n in candidates if icon(family, n)), None)
    if found is None:
        logger.warning(f"{where}: no Font Awesome {family} icon among the classes {classes!r}")
        return None
    name, (view_box, path) = found
    attrs = dict(ATTRIBUTE.findall(attributes))
    title = attrs.pop("title", None)
    attrs.setdefault("aria-hidden", "true")
    kept = [c for c in names if c not in FAMILIES and c != f"fa-{name}"]
    parts = [f'class="{" ".join(["svg-inline--fa", f"fa-{name}", *kept])}"', *(f'{k}="{v}"' for k, v in attrs.items()),
             'focusable="false" role="img" xmlns="http://www.w3.org/2000/svg"', f'viewBox="{view_box}"']
    inner = f"<title>{title}</title>" if title else ""
    return f'<svg {" ".join(parts)}>{inner}<path fill="currentColor" d="{html.escape(path)}"></path></svg>'


def css_icon_characters(static: Path) -> set[str]:
    """The icon-font characters that the CSS in `static` draws, apart from the icon classes' own rules."""
    found = set()
    for css in static.rglob("*.css"):
        for selectors, body in CSS_RULE.findall(css.read_text(encoding="utf-8", errors="replace")):
            if all(ICON_CLASS_RULE.match(s.strip()) for s in selectors.split(",")):
                continue
            found |= {chr(int(m.group(1), 16)) if m.group(1) else m.group(0) for m in PRIVATE_USE.finditer(body)}
    return found


def subset_font(static: Path) -> str | None:
    """Write the small font into `static`; returns its unicode-range, or None when the theme's font is missing."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    if not (static / THEME_FONT).exists():
        logger.warning(f"{THEME_FONT} is not in the theme's static files: the CSS icons keep the whole font")
        return None
    font = TTFont(static / THEME_FONT)
    codes = sorted(ord(c) for c in css_icon_characters(static) if ord(c) in font.getBestCmap())
    subsetter = subset.Subsetter(subset.Options())
    subsetter.populate(unicodes=codes)
    subsetter.subset(font)
    font.flavor = "woff"  # zlib: WOFF2 would need the brotli package
    font.save(static / SUBSET_FONT)
    return ",".join(f"U+{c:X}" for c in codes)


def inline_icons(page: str, where: str, font_url: str, unicode_range: str | None) -> str:
    """The page's icons as inline SVGs, without fontawesome.js, and in its head the style they need (with the
    small font, when there is one)."""
    face = ('@font-face{font-family:"Font Awesome 6 Free";font-style:normal;font-weight:900;font-display:block;'
            f'src:url({font_url}) format("woff");unicode-range:{unicode_range}}}') if unicode_range else ""
    page = ELEMENT.sub(lambda match: svg_for(match.group(2), match.group(3), where) or match.group(0), page)
    return SCRIPT.sub("", page).replace("</head>", f'<style id="{STYLE_ID}">{SVG_RULES}{face}</style></head>', 1)


def setup(app):
    found = {}

    def first(outdir):
        found["unicode_range"] = subset_font(outdir / "_static")

    def rewrite(page, path, outdir):
        if f'<style id="{STYLE_ID}">' in page:  # done by an earlier build
            return page
        font_url = os.path.relpath(outdir / "_static" / SUBSET_FONT, path.parent).replace(os.sep, "/")
        return inline_icons(page, path.relative_to(outdir).as_posix(), font_url, found["unicode_range"])

    # After _ext/a11y_fixes.py has rewritten the icons' titles and hidden them from screen readers.
    site_files.rewrite_when_built(app, rewrite, priority=700, first=first)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
