"""“深入” boxes: deep material folded away on the site, a framed aside in the PDF handouts.

A box may hold several notebook cells, markdown and code with their outputs and figures. Two directives in
markdown cells mark where it starts and ends (like sphinx-exercise's ``solution-start`` / ``solution-end``)::

    :::{deep-start} 浮点数的边界情况
    :::
    ... cells ...
    :::{deep-end}
    :::

Everything between the two markers becomes one ``deep_box`` node (_ext/cell_runs.py), so numbering and
references work as before: a figure inside keeps its number, and references into and out of the box resolve.
Site: a closed ``<details>`` titled “深入：…”. PDF: ``handoutdeep`` (latex/handout.sty), a framed aside that
breaks across pages.
"""
from __future__ import annotations

from docutils import nodes

import cell_runs

LABEL = "深入："


class deep_box(nodes.container):  # noqa: N801 (docutils names nodes in lower case)
    """A deep_title, then the content. Other builders show it as a plain container."""


class deep_title(nodes.paragraph):  # noqa: N801
    """The words after “深入：”."""


def setup(app):
    # The box's classes: lc-deep and any :class: given to deep-start.
    cell_runs.add_fold(app, "deep", deep_box, deep_title,
                       lambda start: deep_box(classes=["lc-deep", *start["classes"]]), html_class="lc-deep",
                       css="deep.css", latex_env="handoutdeep", label=f'<span class="lc-deep-label">{LABEL}</span>')
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
