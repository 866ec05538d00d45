"""Formulas typeset once, when the site is built, instead of in every reader's browser.

The pages used to load MathJax (263 KB gzip of script, then its fonts) and typeset every formula on every
visit: seconds on a phone before the maths could be read. Here the same MathJax (3.2.2, run by Node from
web/node_modules, `web/render_maths.cjs`) typesets each formula while the site is built, as SVG: the page
carries the finished picture (glyphs drawn once per page in a hidden <svg>, used by reference; MathML beside
it for screen readers) and needs no script and no font. The formulas are those Sphinx writes for MathJax
(`\\(...\\)` in `span.math`, `\\[...\\]` or an amsmath environment in `div.math`), wherever they are in the
finished page (text, headings, the tables of contents). A formula MathJax cannot read fails the build.
The PDF handouts are not concerned: LaTeX typesets their formulas.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

from sphinx.ext.mathjax import html_visit_displaymath, html_visit_math
from sphinx.util import logging

import node_json
import site_files

logger = logging.getLogger(__name__)
RENDERER = Path(__file__).resolve().parents[1] / "web" / "render_maths.cjs"
CSS = "prerendered-maths.css"
# A formula as Sphinx writes it for MathJax; one typeset by an earlier build starts with <mjx-container>.
FORMULA = re.compile(r'(<(span|div) class="math notranslate nohighlight"[^>]*>)'
                     r'(?!(?:<span class="eqno">.*?</span>)?<mjx-container)(.*?)(</\2>)', re.S)
EQUATION_NUMBER = re.compile(r'^\s*<span class="eqno">.*?</span>', re.S)
BODY = re.compile(r"<body[^>]*>")


def tex_of(kind: str, content: str) -> tuple[str, str, bool]:
    """(equation number HTML, TeX, display?) of one formula as Sphinx's MathJax visitors write it."""
    number = EQUATION_NUMBER.match(content)
    prefix = number.group(0) if number else ""
    tex = html.unescape(content[len(prefix):]).strip()
    for opening, closing in (("\\(", "\\)"), ("\\[", "\\]")):
        if tex.startswith(opening) and tex.endswith(closing):
            tex = tex[len(opening):-len(closing)]
            break
    return prefix, tex, kind == "div"


def render(pages: list[list[tuple[str, bool]]]) -> dict:
    """Run the Node renderer once on every formula of every page (see web/render_maths.cjs)."""
    return node_json.run(RENDERER, {"pages": pages}, needs=RENDERER.parent / "node_modules" / "mathjax-full",
                         cwd=RENDERER.parent, missing=(
                             "网站的公式在构建时由 Node.js 排版：找不到 node 或 web/node_modules/mathjax-full，"
                             "请先运行 `make assets`。\nFormulas are typeset at build time by Node.js: node or "
                             "web/node_modules/mathjax-full is missing; run `make assets` first."))


def typeset_pages(outdir: Path) -> list[tuple[str, str, str]]:
    """Typeset every formula of every page in `outdir`; returns what could not be typeset, as (page, TeX, why)."""
    pages = [p for p in site_files.pages(outdir) if FORMULA.search(p.read_text(encoding="utf-8"))]
    texts = [p.read_text(encoding="utf-8") for p in pages]
    found = [[tex_of(m.group(2), m.group(3)) for m in FORMULA.finditer(text)] for text in texts]
    result = render([[(tex, display) for _, tex, display in formulas] for formulas in found])
    (outdir / "_static" / CSS).write_text(result["css"], encoding="utf-8")
    failed = []
    for page, text, formulas, typeset in zip(pages, texts, found, result["pages"], strict=True):
        failed += [(page.relative_to(outdir).as_posix(), formulas[i][1], why) for i, why in typeset["errors"]]
        shown = iter(zip(formulas, typeset["html"], strict=True))

        def replace(match, shown=shown):
            (prefix, _tex, display), svg = next(shown)
            if display:
                # The theme lets a wide display formula scroll sideways (a phone): a keyboard must reach it too.
                svg = svg.replace("<mjx-container ", '<mjx-container tabindex="0" ', 1)
            return match.group(1) + prefix + svg + match.group(4)

        text = FORMULA.sub(replace, text)
        # The glyphs every formula of the page uses, once, at the start of the body.
        text = BODY.sub(lambda m, defs=typeset["defs"]: m.group(0) + defs, text, count=1)
        page.write_text(text, encoding="utf-8")
    return failed


def _finished(app, exception):
    if exception is None and app.builder.format == "html" and app.builder.math_renderer_name == "prerendered":
        for page, tex, why in typeset_pages(Path(app.outdir)):
            logger.warning(f"{page}: MathJax cannot typeset {tex!r}: {why}")


def setup(app):
    app.add_html_math_renderer("prerendered", (html_visit_math, None), (html_visit_displaymath, None))
    app.add_css_file(CSS)
    app.connect("build-finished", _finished)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
