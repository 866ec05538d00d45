"""Controls a finger can hit: every toggle, button and slider of a page is a target of at least 44 × 44 CSS px
(WCAG 2.5.5), and the whole title of a solution opens it.

- `static/touch.css` sizes the page's own controls: the folded outputs' and boxes' toggles, the solutions'
  buttons, the code blocks' copy buttons. (The widgets size theirs in labcode/widgets/widget.css, the answer
  boxes in labcode/widgets/answer_box.css, the header's buttons in site-nav.css.) A slider lets a vertical drag
  scroll the page (`touch-action: pan-y`): only a sideways drag moves it.
- A solution's title (“解答：练习 1.4（…）”) was a link back to the exercise, right above it, and only a 24 × 26 px
  arrow opened the solution: once the site is built, the link becomes plain text, so a tap anywhere on the title
  opens the solution (sphinx-togglebutton makes the title its toggle). `static/touch.js` names the arrow by the
  title, in Chinese, instead of “Toggle hidden content”.
- The title's text is one inline element (`lc-title-text`): the title is a flex box (the arrow at its end), which
  would lay each run of text and each formula out as a column of its own and drop the spaces around a formula
  (“挑选 α：” read “挑选α：”, in three columns on a phone).
"""
from __future__ import annotations

import re

import site_files

SOLUTION_TITLE = re.compile(r'(<div class="solution dropdown admonition"[^>]*>\s*<p class="admonition-title">[^<]*)'
                            r'<a class="reference internal" href="[^"]*">(.*?)</a>(</p>)', re.S)

TITLE_TEXT = re.compile(r'(<div class="solution dropdown admonition"[^>]*>\s*<p class="admonition-title">)'
                        r'(?!<span class="lc-title-text">)(.*?)(</p>)', re.S)


def rewrite(page: str, *_) -> str:
    page = SOLUTION_TITLE.sub(r"\1\2\3", page)
    return TITLE_TEXT.sub(r'\1<span class="lc-title-text">\2</span>\3', page)


def setup(app):
    site_files.on_every_page(app, "touch.css", "touch.js")
    site_files.rewrite_when_built(app, rewrite)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
