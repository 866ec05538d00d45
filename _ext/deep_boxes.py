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
from docutils.parsers.rst import directives
from sphinx.transforms import SphinxTransform
from sphinx.util.docutils import SphinxDirective

import cell_runs
import site_files

LABEL = "深入："
CSS = "deep.css"


class deep_start(nodes.General, nodes.Element):  # noqa: N801 (docutils names nodes in lower case)
    """Left by deep-start (holding the title) until the transform puts a deep_box in its place."""


class deep_end(nodes.General, nodes.Element):  # noqa: N801
    pass


class deep_box(nodes.container):  # noqa: N801
    """A deep_title, then the content. Other builders show it as a plain container."""


class deep_title(nodes.paragraph):  # noqa: N801
    """The words after “深入：”."""


class DeepStart(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"class": directives.class_option}

    def run(self):
        title = deep_title()
        title += self.state.inline_text(self.arguments[0], self.lineno)[0]
        marker = deep_start(classes=self.options.get("class", []))
        marker += title
        self.set_source_info(marker)
        return [marker]


class DeepEnd(SphinxDirective):
    def run(self):
        marker = deep_end()
        self.set_source_info(marker)
        return [marker]


class MergeDeepBoxes(SphinxTransform):
    """Move the nodes between each deep-start and its deep-end into one deep_box."""

    # Before sphinx-exercise merges its gated solutions (10), so a solution inside a box keeps its cells.
    default_priority = 9

    def apply(self):
        cell_runs.gather(self.document, deep_start, deep_end,
                         lambda start: deep_box(classes=["lc-deep", *start["classes"]]), "deep")


def visit_box_html(self, node):
    self.body.append(self.starttag(node, "details"))   # the node's classes: lc-deep and any :class:


def visit_box_latex(self, node):
    self.body.append("\n\\begin{handoutdeep}")
    self.no_latex_floats += 1   # a figure inside is placed here ([H]), not floated out of the frame


def depart_box_latex(self, node):
    self.no_latex_floats -= 1
    self.body.append("\\end{handoutdeep}\n")


def setup(app):
    app.add_node(deep_start)
    app.add_node(deep_end)
    app.add_node(deep_box, html=(visit_box_html, cell_runs.append("</div>\n</details>\n")),
                 latex=(visit_box_latex, depart_box_latex))
    app.add_node(deep_title,
                 html=(cell_runs.append(f'<summary class="lc-deep-title"><span class="lc-deep-label">{LABEL}</span>'),
                       cell_runs.append('</summary>\n<div class="lc-deep-body">\n')),
                 latex=(cell_runs.append("{"), cell_runs.append("}\n")))
    app.add_directive("deep-start", DeepStart)
    app.add_directive("deep-end", DeepEnd)
    app.add_transform(MergeDeepBoxes)
    site_files.serve_static(app)
    site_files.assets_where(app, deep_box, css=CSS)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
