"""“深入” boxes: deep material folded away on the site, a framed aside in the PDF handouts.

A box may hold several notebook cells, markdown and code with their outputs and figures. Two directives in
markdown cells mark where it starts and ends (like sphinx-exercise's ``solution-start`` / ``solution-end``)::

    :::{deep-start} 浮点数的边界情况
    :::
    ... cells ...
    :::{deep-end}
    :::

Start and end must sit in the same section (no heading inside a box) and boxes do not nest. A transform moves
everything between the two markers into one ``deep_box`` node, so numbering and references work as before:
a figure inside keeps its number, and references into and out of the box resolve.

Site: ``<details>`` with a ``<summary>`` titled “深入：…”, closed by default; the browser makes it a
keyboard-operable disclosure with no script. deep.css is added only to pages that have a box.
PDF: ``\\begin{handoutdeep}{title}`` … ``\\end{handoutdeep}`` (latex/handout.sty), a framed aside that breaks
across pages; figures inside stay in place instead of floating away.
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
