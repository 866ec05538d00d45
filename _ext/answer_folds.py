"""Answer folds: what answers a question stays closed until the reader asks for it.

An answer box's worked answer (the prose that states it, the code that prints it), or labcode's own kernel
after a “你来写” exercise, goes between two directives in markdown cells; the fold may hold several cells,
markdown and code with their outputs and figures::

    :::{answer-start}
    :::
    ... cells ...
    :::{answer-end}
    :::

The title is 看答案 unless given (``:::{answer-start} 看 labcode 的写法``; Markdown, maths and code work).
The start marker ends its markdown cell and the end marker starts one, so that in a notebook the cells in
between are the fold: they carry ``jupyter.source_hidden`` (and ``outputs_hidden``) metadata, which JupyterLab
and Notebook 7 honour (scripts/execute_notebooks.py sets it, tests/test_answer_folds.py checks it).
Start and end sit in the same section, and folds do not nest (_ext/cell_runs.py, as for “深入” boxes).

Site: a ``<details>`` whose ``<summary>`` is the title, closed until opened (keyboard-operable, no script);
answer.css is added only to pages with a fold. Student handouts and book.pdf leave the fold out; the answer
key prints it after its box or exercise (latex/handout_filter.py), as a framed aside under its title without the
看 (答案, labcode 的写法; ``handoutanswer`` in latex/handout.sty).
"""
from __future__ import annotations

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

import cell_runs
import site_files

TITLE = "看答案"
OPEN = "看"   # the verb of a title, left out in print
CLASS = "answer-fold"   # latex/handout_filter.py finds the folds by this class
CSS = "answer.css"


class answer_start(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes in lower case)
    """Left by answer-start (holding the title) until the transform puts an answer_fold in its place."""


class answer_end(nodes.General, nodes.Element):  # noqa: N801
    pass


class answer_fold(nodes.container):  # noqa: N801
    """An answer_title, then the content. Other builders show it as a plain container."""


class answer_title(nodes.paragraph):  # noqa: N801
    """The fold's title: 看答案, or the words given to answer-start."""


class AnswerStart(SphinxDirective):
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self):
        title = answer_title()
        title += self.state.inline_text(self.arguments[0] if self.arguments else TITLE, self.lineno)[0]
        marker = answer_start()
        marker += title
        self.set_source_info(marker)
        return [marker]


class AnswerEnd(SphinxDirective):
    def run(self):
        marker = answer_end()
        self.set_source_info(marker)
        return [marker]


class MergeAnswerFolds(SphinxTransform):
    """Move the nodes between each answer-start and its answer-end into one answer_fold."""

    default_priority = 9   # as the “深入” boxes: before sphinx-exercise merges its gated solutions (10)

    def apply(self):
        cell_runs.gather(self.document, answer_start, answer_end, lambda start: answer_fold(classes=[CLASS]),
                         "answer")


def visit_fold_html(self, node):
    self.body.append(self.starttag(node, "details"))


def visit_fold_latex(self, node):
    self.body.append("\n\\begin{handoutanswer}")
    self.no_latex_floats += 1   # a figure inside is placed here ([H]), not floated out of the frame


def depart_fold_latex(self, node):
    self.no_latex_floats -= 1
    self.body.append("\\end{handoutanswer}\n")


def visit_title_latex(self, node):
    """The key has nothing to open: the title loses its 看 (看答案 prints 答案, 看 labcode 的写法 labcode 的写法)."""
    first = node[0] if node.children else None
    if isinstance(first, nodes.Text) and first.startswith(OPEN):
        node.replace(first, nodes.Text(first.removeprefix(OPEN).lstrip()))
    self.body.append("{")


def setup(app):
    app.add_node(answer_start)
    app.add_node(answer_end)
    app.add_node(answer_fold, html=(visit_fold_html, cell_runs.append("</div>\n</details>\n")),
                 latex=(visit_fold_latex, depart_fold_latex))
    app.add_node(answer_title,
                 html=(cell_runs.append('<summary class="lc-answer-title">'),
                       cell_runs.append('</summary>\n<div class="lc-answer-body">\n')),
                 latex=(visit_title_latex, cell_runs.append("}\n")))
    app.add_directive("answer-start", AnswerStart)
    app.add_directive("answer-end", AnswerEnd)
    app.add_transform(MergeAnswerFolds)
    site_files.serve_static(app)
    site_files.assets_where(app, answer_fold, css=CSS)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
