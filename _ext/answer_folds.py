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
and Notebook 7 honour (scripts/execute_notebooks.py sets it, tests/book/test_answer_folds.py checks it).
The cells are gathered as for “深入” boxes (_ext/cell_runs.py), and the site shows a closed ``<details>``.
Student handouts and book.pdf leave the fold out; the answer key prints it after its box or exercise
(latex/handout_filter.py), as a framed aside under its title without the 看 (答案, labcode 的写法; ``handoutanswer``
in latex/handout.sty).
"""
from __future__ import annotations

from docutils import nodes

import cell_runs

TITLE = "看答案"
OPEN = "看"   # the verb of a title, left out in print
CLASS = "answer-fold"   # latex/handout_filter.py finds the folds by this class


class answer_fold(nodes.container):  # noqa: N801 (docutils names nodes in lower case)
    """An answer_title, then the content. Other builders show it as a plain container."""


class answer_title(nodes.paragraph):  # noqa: N801
    """The fold's title: 看答案, or the words given to answer-start."""


def visit_title_latex(self, node):
    """The key has nothing to open: the title loses its 看 (看答案 prints 答案, 看 labcode 的写法 labcode 的写法)."""
    first = node[0] if node.children else None
    if isinstance(first, nodes.Text) and first.startswith(OPEN):
        node.replace(first, nodes.Text(first.removeprefix(OPEN).lstrip()))
    self.body.append("{")


def setup(app):
    cell_runs.add_fold(app, "answer", answer_fold, answer_title,
                       lambda start: answer_fold(classes=[CLASS]), html_class="lc-answer", css="answer.css",
                       latex_env="handoutanswer", default_title=TITLE, latex_title=visit_title_latex)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
