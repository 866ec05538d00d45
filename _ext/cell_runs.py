"""Runs of notebook cells marked by a pair of directives and gathered into one fold (“深入” boxes, answer folds).

A notebook's cells become siblings in their section (a markdown cell's paragraphs, a code cell's container), so a
run is the start marker's node, the nodes after it, and the end marker's node. Start and end sit in the same
section (a heading ends the section), and runs of one kind do not nest: the build warns about an unmatched marker
and drops it.

`add_fold` registers one kind of fold: its two directives, the transform that gathers each run, and how the fold
is written: on the site a ``<details>`` whose ``<summary>`` is the title, closed until opened (keyboard-operable,
no script), its style added only to pages with a fold; in LaTeX a framed environment of latex/handout.sty whose
argument is the title, with any figure inside placed where it stands instead of floating out of the frame.
"""
from __future__ import annotations

from collections.abc import Callable

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import site_files

logger = logging.getLogger(__name__)


def gather(document, start_class: type, end_class: type, make_box: Callable, stem: str) -> None:
    """Replace each `start_class` marker, the nodes after it and its `end_class` marker by `make_box(start)`
    holding the marker's children (the title), then those nodes. `stem` names the pair in warnings
    (``deep`` for deep-start / deep-end)."""
    for start in list(document.findall(start_class)):
        parent = start.parent
        siblings = parent.children[parent.index(start) + 1:]
        end = next((n for n in siblings if isinstance(n, (start_class, end_class))), None)
        if not isinstance(end, end_class):
            what = f"another {stem}-start before it" if isinstance(end, start_class) else \
                f"no {stem}-end after it in the same section (a heading ends the section)"
            logger.warning(f"{stem}-start “{start.astext()}” has {what}", location=start, type=stem,
                           subtype="structure")
            parent.remove(start)
            continue
        box = make_box(start)
        box.source, box.line = start.source, start.line
        first, last = parent.index(start), parent.index(end)
        box += start.children
        box += parent.children[first + 1:last]
        parent[first:last + 1] = [box]
    for end in list(document.findall(end_class)):
        logger.warning(f"{stem}-end without a {stem}-start before it in the same section", location=end,
                       type=stem, subtype="structure")
        end.parent.remove(end)


def append(text: str):
    """A node visitor that writes `text`."""
    return lambda translator, node: translator.body.append(text)


def add_fold(app, stem: str, fold: type, title: type, make_fold: Callable, *, html_class: str, css: str,
             latex_env: str, default_title: str | None = None, label: str = "", latex_title=None) -> None:
    """Register the fold `stem` (directives ``stem-start`` and ``stem-end``). `fold` and `title` are its node
    classes (each extension names its own, so other code can tell the folds apart); `make_fold(start)` makes the
    fold from its start marker. The start directive takes the title (optional when
    there is a `default_title`) and a ``:class:`` option handed to `make_fold` on the marker. On the site the
    title is ``<summary class="{html_class}-title">`` (after `label`, HTML) and the content
    ``<div class="{html_class}-body">``; `latex_title` visits the title in LaTeX (default: the title as is)."""
    # The markers the directives leave (the start holding the title) until the transform gathers their run.
    start = type(f"{stem}_start", (nodes.General, nodes.Element), {})
    end = type(f"{stem}_end", (nodes.General, nodes.Element), {})

    class Start(SphinxDirective):
        required_arguments = 0 if default_title else 1
        optional_arguments = 1 if default_title else 0
        final_argument_whitespace = True
        option_spec = {"class": directives.class_option}

        def run(self):
            heading = title()
            heading += self.state.inline_text(self.arguments[0] if self.arguments else default_title, self.lineno)[0]
            marker = start(classes=self.options.get("class", []))
            marker += heading
            self.set_source_info(marker)
            return [marker]

    class End(SphinxDirective):
        def run(self):
            marker = end()
            self.set_source_info(marker)
            return [marker]

    class Gather(SphinxTransform):
        # Before sphinx-exercise merges its gated solutions (10), so a solution inside a fold keeps its cells.
        default_priority = 9

        def apply(self):
            gather(self.document, start, end, make_fold, stem)

    def visit_latex(self, node):
        self.body.append(f"\n\\begin{{{latex_env}}}")
        self.no_latex_floats += 1   # a figure inside is placed here ([H]), not floated out of the frame

    def depart_latex(self, node):
        self.no_latex_floats -= 1
        self.body.append(f"\\end{{{latex_env}}}\n")

    app.add_node(start)
    app.add_node(end)
    app.add_node(fold, html=(lambda self, node: self.body.append(self.starttag(node, "details")),
                             append("</div>\n</details>\n")),
                 latex=(visit_latex, depart_latex))
    # The title in one span: the theme lays a summary out as flex, which would drop the spaces around inline code.
    app.add_node(title, html=(append(f'<summary class="{html_class}-title"><span>{label}'),
                              append(f'</span></summary>\n<div class="{html_class}-body">\n')),
                 latex=(latex_title or append("{"), append("}\n")))
    app.add_directive(f"{stem}-start", Start)
    app.add_directive(f"{stem}-end", End)
    app.add_transform(Gather)
    site_files.serve_static(app)
    site_files.assets_where(app, fold, css=css)
