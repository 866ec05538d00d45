"""The theme's icons drawn inline as SVG, instead of the whole Font Awesome library (543 KB gzip) in every page.

pydata-sphinx-theme writes its icons as empty `<i class="fa-solid fa-bars">` (or `<span …>`) elements and loads
`fontawesome.js`, which holds every Font Awesome icon and swaps each element for an SVG once the page runs. The
pages here use about fifteen icons. Once the site is built, each such element becomes the SVG that script would
have made (same classes, same attributes, its `title` as the SVG's <title>), drawn from the icon files of the same
Font Awesome release (6.5.2, pinned in web/package.json), and the script is left out. Icons that the theme's
own JavaScript creates later (the version switcher, the announcement banner: both unused here) would stay empty.
Font Awesome Free icons: CC BY 4.0 licence, https://fontawesome.com/license/free.
"""
from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)
FONT_AWESOME = Path(__file__).resolve().parents[1] / "web" / "node_modules" / "@fortawesome" / "fontawesome-free"
FAMILIES = {"fa-solid": "solid", "fas": "solid", "fa-regular": "regular", "far": "regular",
            "fa-brands": "brands", "fab": "brands"}
ELEMENT = re.compile(r'<(i|span) class="([^"]*\bfa-[^"]*)"([^>]*)>\s*</\1>')
ATTRIBUTE = re.compile(r'\s+([\w:-]+)="([^"]*)"')
SCRIPT = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
SVG_FILE = re.compile(r'viewBox="([^"]+)".*?<path d="([^"]+)"', re.S)
# The rules of Font Awesome's svg-with-js.css that these icons need (the theme's CSS has .fa-lg and the like).
STYLE = ("<style>svg:not(:root).svg-inline--fa{overflow:visible;box-sizing:content-box}"
         ".svg-inline--fa{display:var(--fa-display,inline-block);height:1em;overflow:visible;vertical-align:-.125em}"
         ".svg-inline--fa.fa-lg{vertical-align:-.2em}.svg-inline--fa.fa-fw{width:var(--fa-fw-width,1.25em)}</style>")


@cache
def aliases() -> dict[str, str]:
    """Old names (fa-home) to the names of the icon files (house), from Font Awesome's metadata."""
    import yaml

    icons = yaml.safe_load((FONT_AWESOME / "metadata" / "icons.yml").read_text(encoding="utf-8"))
    return {old: name for name, icon in icons.items() for old in (icon.get("aliases") or {}).get("names", [])}


@cache
def icon(family: str, name: str) -> tuple[str, str] | None:
    """(viewBox, path) of an icon, or None when Font Awesome has no such icon."""
    path = FONT_AWESOME / "svgs" / family / f"{name}.svg"
    if not path.exists() and name in aliases():
        path = FONT_AWESOME / "svgs" / family / f"{aliases()[name]}.svg"
    if not path.exists():
        return None
    found = SVG_FILE.search(path.read_text(encoding="utf-8"))
    return found.group(1), found.group(2)


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


def inline_icons(page: str, where: str) -> str:
    def replace(match):
        return svg_for(match.group(2), match.group(3), where) or match.group(0)

    page, icons = ELEMENT.subn(replace, page)
    page, scripts = SCRIPT.subn("", page)
    if icons or scripts:
        page = page.replace("</head>", STYLE + "</head>", 1)
    return page


def _finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    for path in Path(app.outdir).rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        if STYLE in text:  # done by an earlier build
            continue
        new = inline_icons(text, path.relative_to(app.outdir).as_posix())
        if new != text:
            path.write_text(new, encoding="utf-8")


def setup(app):
    # After _ext/a11y_fixes.py has rewritten the icons' titles and hidden them from screen readers.
    app.connect("build-finished", _finished, priority=700)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
