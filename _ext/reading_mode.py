"""A reading mode: one switch that folds the code, so that a page is prose, figures, widgets and answer boxes.

About 40 % of a chapter's height is code and what it prints, and the prose already states every number that
matters; on a phone that is a lot of scrolling past what the reader cannot run. In reading mode the code of
every cell is folded away; a cell left with nothing disappears whole. What a cell printed stays (the prose
often goes on from it), and so do figures, widgets, answer boxes, HTML outputs and the solutions (code is
their answer). Two kinds of cell stay whole, code and all, because the text asks the reader to look at their
code: the cells of a “你来写” exercise (its skeleton and its check) and a cell tagged `keep-in-reading-mode`
(“实际写代码请用第二行”: the text compares two lines of a cell).
- The switch is a button of the page header (every page) and, on a page with code, a line under the title
  that says the code is folded and shows it again (`static/reading-mode.js`).
- The reader's choice is kept in the browser (localStorage, key `lc-reading-mode`: "on" or "off"; anything
  else counts as no choice). With no choice, the mode follows the width: on at phone width (600 px and
  less), off on a wider screen. A script in the page's head applies it before the page is drawn, so the code
  never flashes; without scripts, nothing is folded.
- Each “你来写” exercise tells a reader in reading mode what to do instead of running code: work the steps
  on paper, then open the solution.
"""
from __future__ import annotations

from docutils import nodes
from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node

import site_files

KEY = "lc-reading-mode"
PHONE = "(max-width: 600px)"
# Runs in the head, before the body is drawn: the stored choice if it is one, else the width.
HEAD_SCRIPT = f"""(() => {{
  let stored = null;
  try {{ stored = localStorage.getItem("{KEY}"); }} catch (e) {{}}
  const on = stored === "on" || (stored !== "off" && matchMedia("{PHONE}").matches);
  document.documentElement.classList.toggle("lc-reading", on);
}})();"""
WRITE_TITLE = "你来写"
WRITE_CLASS = "lc-you-write"   # reading-mode.css keeps its cells whole
KEEP_TAG = "keep-in-reading-mode"   # MyST-NB writes a cell's tags as classes: tag_keep-in-reading-mode
# What a reader who does not run code does with a “你来写” (the PDF handouts say it too, latex/handout_filter.py).
WRITE_FIRST = "把要写的几步先写在纸上（或在心里过一遍）"
WRITE_NOTE = (f'<p class="lc-reading-note"><strong>不运行代码时：</strong>{WRITE_FIRST}，'
              "再展开下面的“解答”对照；检查格只有在运行笔记本时，才会核对你写的函数。</p>")
STATE_LINE = ('<p class="lc-reading-state" hidden><span class="lc-reading-text">阅读模式：代码已折叠。</span>'
              '<button type="button" class="lc-reading-toggle lc-button">显示代码</button></p>\n')
BUTTON = {"type": "javascript", "javascript": "", "tooltip": "阅读模式：折叠代码，只看正文、图和交互组件",
          "icon": "fas fa-book-open", "label": "reading-mode-button"}


def has_code(doctree) -> bool:
    """Code on the page's main line (the home page's code is all in a “深入” box: no line under its title)."""
    def on_main_line(node):
        while node is not None:
            if type(node).__name__ == "deep_box":
                return False
            node = node.parent
        return True

    return any(n.get("nb_element") == "cell_code_source" and on_main_line(n) for n in doctree.findall(nodes.container))


def add_write_notes(app, doctree, docname) -> None:
    """A line in every “你来写” exercise for a reader who does not run the code, and the class that keeps its
    cells whole in reading mode (site only)."""
    if app.builder.format != "html":
        return
    for exercise in doctree.findall(lambda n: isinstance(n, (exercise_node, exercise_enumerable_node))):
        title = next(iter(exercise.findall(nodes.title)), None)
        if title is not None and WRITE_TITLE in title.astext():
            exercise["classes"].append(WRITE_CLASS)
            content = next(iter(exercise.findall(nodes.section)), exercise)
            content.append(nodes.raw("", WRITE_NOTE, format="html"))


def _page(app, pagename, templatename, context, doctree):
    if doctree is None or app.builder.format != "html":
        return
    context.setdefault("header_buttons", []).insert(0, dict(BUTTON))
    if has_code(doctree):
        context["body"] = site_files.under_title(context.get("body", ""), STATE_LINE)


def setup(app):
    app.add_js_file(None, body=HEAD_SCRIPT)
    site_files.on_every_page(app, "reading-mode.css", "reading-mode.js")
    app.connect("doctree-resolved", add_write_notes)
    # before the title's other lines (site_nav 700, chapter_opening 710): this one goes last, above the text
    app.connect("html-page-context", _page, priority=690)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
