"""Navigation that works on a phone: the site menu (☰) and the page contents open, list every page and every
section, close again; the previous and next pages are linked under the title as well as at the end.

pydata-sphinx-theme 0.17 writes a ☰ and a contents button of its own into its top bar, which
sphinx-book-theme hides, and binds its sidebar dialogs to the first `.primary-toggle` / `.secondary-toggle`
of the page: those hidden buttons. The buttons a reader sees (sphinx-book-theme's, in the article's header)
then do nothing but show an English tooltip (pydata-sphinx-theme#2451). Once the site is built, the hidden
duplicates are left out of every page, so the theme binds its dialogs to the visible buttons (on a desktop
the same ☰ folds the sidebar away, as sphinx-book-theme intends). The rewrite also
- names the two buttons in Chinese (“全书目录”, “本页目录”) and drops their tooltips, which a tap only left on
  screen;
- gives each sidebar a 关闭 button, shown only when the sidebar is open as a dialog (a form with
  method="dialog": it needs no script);
- opens the page contents with the chapter's own title (its first screen), in place of the floating
  back-to-top button, which covered the text on a phone (static/site-nav.css hides it);
- names the heading, term, figure and table anchors in Chinese, and the print button in simplified Chinese.
static/site-nav.js closes a dialog when one of its links leads to this same page (the page scrolls; the
dialog would otherwise stay open over it).
"""
from __future__ import annotations

import html
import re

import site_files

CSS = "site-nav.css"
JS = "site-nav.js"

HIDDEN_TOGGLE = re.compile(r'\s*<button class="pst-navbar-icon sidebar-toggle (?:primary|secondary)-toggle"[^>]*>'
                           r".*?</button>", re.S)
VISIBLE_TOGGLE = re.compile(r'<button class="(sidebar-toggle (primary|secondary)-toggle[^"]*)" title="Toggle '
                            r'(?:primary|secondary) sidebar" data-bs-placement="bottom" data-bs-toggle="tooltip">')
TOGGLE_NAMES = {"primary": "全书目录", "secondary": "本页目录"}
SIDEBAR = re.compile(r'(<div id="pst-(primary|secondary)-sidebar" class="[^"]*">)')
CLOSE = ('<form method="dialog" class="lc-dialog-close"><button type="submit" class="lc-button">'
         '<span aria-hidden="true">✕</span> 关闭{what}</button></form>')
PAGE_TOC = re.compile(r'(<nav id="pst-page-toc-nav" class="page-toc"[^>]*>\s*<ul class="[^"]*">)')
HEADER_LINK_TITLES = {"列印成 PDF": "打印本页（可另存为 PDF）",
                      "Link to this heading": "链接到本节", "Link to this term": "链接到本词条",
                      "Link to this image": "链接到本图", "Link to this table": "链接到本表",
                      "Link to this equation": "链接到本式", "Link to this code": "链接到本段代码"}
ARTICLE_TOP = re.compile(r'<article class="bd-article">\s*<section[^>]*\bid="([^"]+)">\s*(?:<span id="[^"]*"></span>)*'
                         r"<h1>(.*?)<a class=\"headerlink\"", re.S)
TAGS = re.compile(r"<[^>]+>")


def rewrite(page: str, *_) -> str:
    if 'class="lc-dialog-close"' in page:   # rewritten by an earlier build
        return page
    page = HIDDEN_TOGGLE.sub("", page)

    def visible(match):
        name = TOGGLE_NAMES[match.group(2)]
        return f'<button class="{match.group(1)}" aria-label="{name}" title="{name}" aria-haspopup="dialog">'

    page = VISIBLE_TOGGLE.sub(visible, page)
    page = SIDEBAR.sub(lambda m: m.group(1) + CLOSE.format(what=TOGGLE_NAMES[m.group(2)]), page)
    top = ARTICLE_TOP.search(page)
    if top:
        title = html.escape(html.unescape(TAGS.sub("", top.group(2))).strip(), quote=False)
        entry = (f'<li class="toc-h1 nav-item toc-entry lc-toc-top"><a class="reference internal nav-link" '
                 f'href="#{top.group(1)}">{title}（本页开头）</a></li>')
        page = PAGE_TOC.sub(lambda m: m.group(1) + entry, page, count=1)
    for english, chinese in HEADER_LINK_TITLES.items():
        page = page.replace(f'title="{english}"', f'title="{chinese}"')
    return page


def neighbours_html(context) -> str:
    """Links to the previous and the next page, as the footer has them, for under the title."""
    links = []
    for key, word, cls in (("prev", "上一页", "lc-prev"), ("next", "下一页", "lc-next")):
        target = context.get(key)
        if target and target.get("link"):
            links.append(f'<a class="{cls}" href="{html.escape(target["link"])}">'
                         f'<span class="lc-nav-word">{word}</span>'
                         f'<span class="lc-nav-title">{target["title"]}</span></a>')
    return f'<nav class="lc-page-nav" aria-label="上一页与下一页">{"".join(links)}</nav>\n' if links else ""


def _page(app, pagename, templatename, context, doctree):
    if doctree is None or app.builder.format != "html":
        return
    context["body"] = site_files.under_title(context.get("body", ""), neighbours_html(context))


def setup(app):
    site_files.on_every_page(app, CSS, JS)
    # after the handout links (500) and the learner's kit (600): the links sit right under the title
    app.connect("html-page-context", _page, priority=700)
    site_files.rewrite_when_built(app, rewrite)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
