"""Formulas typeset once, when the site is built, instead of in every reader's browser.

The pages used to load MathJax (263 KB gzip of script, then its fonts) and typeset every formula on every
visit: seconds on a phone before the maths could be read. Here the same MathJax (3.2.2, run by Node from
web/node_modules, `web/render_maths.cjs`) typesets each formula while the site is built, as SVG: the page
carries the finished picture (glyphs drawn once per page in a hidden <svg>, used by reference; MathML beside
it for screen readers) and needs no script and no font. The formulas are those Sphinx writes for MathJax
(`\\(...\\)` in `span.math`, `\\[...\\]` or an amsmath environment in `div.math`), wherever they are in the
finished page (text, headings, the tables of contents). A formula MathJax cannot read fails the build.
The PDF handouts are not concerned: LaTeX typesets their formulas.

MathJax 3 does not break an inline formula over lines, and a phone's line is short: a long inline formula
(“0.5·0/4 + 0.5·(3+1)/(36+4) = 1/20 = 0.05”) would run off the line with its result. As TeX does on paper,
such a formula may break after the sum before a relation (=, ≈, ≤ …) at its top level: it is typeset as one
picture per piece (each later piece starting with its relation, spaced as in the whole), and the line may
break between them (class `lc-math-lines`, scroll-cues.css).
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
# An inline formula shorter than this (in TeX) fits a phone's line: it stays one picture.
LONG_INLINE = 30
RELATION = re.compile(r"(?:=|<|>|\\(?:approx|leq?|geq?|neq?|equiv|sim|propto|to)(?![A-Za-z]))")
GROUP = re.compile(r"\\[{}]|\\(?:left|right|begin|end)(?![A-Za-z])|[{}]|\\[A-Za-z]+|.", re.S)
LINES = "lc-math-lines"


def tex_of(kind: str, content: str) -> tuple[str, str, bool]:
    """(equation number HTML, TeX, display?) of one formula as Sphinx's MathJax visitors write it."""
    number = EQUATION_NUMBER.match(content)
    prefix = number.group(0) if number else ""
    tex = html.unescape(content[len(prefix):]).strip()
    if tex[:2] + tex[-2:] in ("\\(\\)", "\\[\\]"):   # the delimiters Sphinx writes for MathJax
        tex = tex[2:-2]
    return prefix, tex, kind == "div"


def pieces(tex: str) -> list[str]:
    """An inline formula as the pieces a line may break between: cut before each relation outside any group
    (braces, \\left … \\right, an environment); a later piece starts with `{}` so that its relation keeps the
    space on its left. A short formula, or one with no such relation, is one piece."""
    if len(tex) < LONG_INLINE:
        return [tex]
    cuts, depth, previous = [], 0, ""
    for token in GROUP.finditer(tex):
        text = token.group(0)
        if text.isspace():
            continue
        delimiter, previous = previous in ("\\left", "\\right"), text
        if delimiter:
            continue  # \\left< … \\right>: a delimiter, not a relation
        if text in ("{", "\\left", "\\begin"):
            depth += 1
        elif text in ("}", "\\right", "\\end"):
            depth -= 1
        elif depth == 0 and RELATION.fullmatch(text) and tex[:token.start()].strip():
            cuts.append(token.start())
    parts = [tex[a:b] for a, b in zip([0, *cuts], [*cuts, len(tex)], strict=True)]
    return [parts[0], *("{}" + part for part in parts[1:])] if len(parts) > 1 else [tex]


def render(pages: list[list[tuple[str, bool]]]) -> dict:
    """Run the Node renderer once on every formula of every page (see web/render_maths.cjs)."""
    return node_json.run(RENDERER, {"pages": pages}, needs=RENDERER.parent / "node_modules" / "mathjax-full",
                         cwd=RENDERER.parent, missing=(
                             "网站的公式在构建时由 Node.js 排版：找不到 node 或 web/node_modules/mathjax-full，"
                             "请先运行 `make assets`。\nFormulas are typeset at build time by Node.js: node or "
                             "web/node_modules/mathjax-full is missing; run `make assets` first."))


def typeset_pages(outdir: Path) -> list[tuple[str, str, str]]:
    """Typeset every formula of every page in `outdir`; returns what could not be typeset, as (page, TeX, why)."""
    texts = {p: p.read_text(encoding="utf-8") for p in site_files.pages(outdir)}
    # each formula of each page: (equation number HTML, TeX, display?, the pieces a line may break between)
    found = {page: [(prefix, tex, display, [tex] if display else pieces(tex))
                    for prefix, tex, display in (tex_of(m.group(2), m.group(3)) for m in FORMULA.finditer(text))]
             for page, text in texts.items() if FORMULA.search(text)}
    result = render([[(piece, display) for _, _, display, parts in formulas for piece in parts]
                     for formulas in found.values()])
    (outdir / "_static" / CSS).write_text(result["css"], encoding="utf-8")
    failed = []
    for (page, formulas), typeset in zip(found.items(), result["pages"], strict=True):
        owner = [tex for _, tex, _, parts in formulas for _ in parts]  # the formula of each typeset piece
        failed += [(page.relative_to(outdir).as_posix(), owner[i], why) for i, why in typeset["errors"]]
        svgs = iter(typeset["html"])
        shown = iter([(prefix, display, [next(svgs) for _ in parts]) for prefix, _, display, parts in formulas])

        def replace(match, shown=shown):
            prefix, display, svg = next(shown)
            opening = match.group(1)
            if display:
                # The theme lets a wide display formula scroll sideways (a phone): a keyboard must reach it too.
                svg[0] = svg[0].replace("<mjx-container ", '<mjx-container tabindex="0" ', 1)
            elif len(svg) > 1:
                opening = opening.replace('class="math ', f'class="math {LINES} ', 1)
            return opening + prefix + "<wbr>".join(svg) + match.group(4)

        text = FORMULA.sub(replace, texts[page])
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
