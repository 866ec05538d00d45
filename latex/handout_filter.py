"""Sphinx extension: what a printed handout keeps of a chapter.

``handout_mode = "student"`` drops every solution (also the ``solution-start`` /
``solution-end`` blocks that sphinx-exercise's ``hide_solutions`` leaves in);
``handout_mode = "answers"`` keeps only the chapter title, the exercises and their
solutions, which makes the answer key. Any other value leaves pages untouched.
``handout_documents`` lists the LaTeX documents to write (one per handout).
"""
from __future__ import annotations

from docutils import nodes
from sphinx.transforms import SphinxTransform
from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node, solution_node

EXERCISE_NODES = (exercise_node, exercise_enumerable_node)


class HandoutFilter(SphinxTransform):
    # After sphinx-exercise has merged solution-start/-end into one node (priority 10).
    default_priority = 900

    def apply(self) -> None:
        mode = self.config.handout_mode
        if mode == "student":
            for node in list(self.document.findall(solution_node)):
                node.parent.remove(node)
        elif mode == "answers" and self.env.docname != self.config.root_doc:
            self._keep_exercises_only()

    def _keep_exercises_only(self) -> None:
        chapter = next(iter(self.document.findall(nodes.section)), None)
        if chapter is None:
            return
        kept = [n for n in chapter.findall(lambda n: isinstance(n, EXERCISE_NODES + (solution_node,)))
                if not isinstance(n.parent, EXERCISE_NODES + (solution_node,))]
        title = chapter.next_node(nodes.title)
        for node in kept:
            node.parent.remove(node)
        chapter.children = []
        chapter += title
        if not kept:
            chapter += nodes.paragraph(text="本章没有练习。")
        for node in kept:
            chapter += node


def set_documents(app, env, docnames) -> None:
    """Use ``handout_documents`` as latex_documents (Jupyter Book accepts only one in _config.yml)."""
    if app.config.handout_documents:
        app.config.latex_documents = [tuple(doc) for doc in app.config.handout_documents]


def wrap_chapter(app, doctree, docname) -> None:
    """Give a one-chapter handout a title above its chapter.

    Sphinx takes the first heading of a LaTeX document's start page as the document
    title, which would turn the chapter's sections into chapters. Nesting the page in
    a section titled like the handout keeps the chapter a chapter.
    """
    if app.builder.name != "latex" or docname == app.config.root_doc:
        return
    titles = {doc[0]: doc[2] for doc in app.config.latex_documents}
    if docname not in titles:
        return
    wrapper = nodes.section(ids=[f"handout-{nodes.make_id(docname)}"])
    wrapper += nodes.title(text=titles[docname])
    wrapper.extend(doctree.children)
    doctree.children = [wrapper]
    wrapper.parent = doctree


def tall_figures(app, doctree, docname) -> None:
    """Let a figure with the class ``print-tall`` use most of the page height in print.

    The handouts cap pictures at 40% of the page height (latex/handout.sty), which is right for
    wide plots; a square table-like figure (e.g. a 27 x 27 heat map with a number in every cell)
    needs the full line width, hence more height, to stay readable on paper.
    """
    if app.builder.name != "latex":
        return
    for figure in list(doctree.findall(nodes.figure)):
        if "print-tall" in figure["classes"]:
            parent = figure.parent
            index = parent.index(figure)
            parent.insert(index + 1, nodes.raw("", "\\handoutnormalfigures\n", format="latex"))
            parent.insert(index, nodes.raw("", "\\handouttallfigures\n", format="latex"))


def setup(app):
    app.add_config_value("handout_mode", "", "env")
    app.add_config_value("handout_documents", [], "env")
    app.connect("env-before-read-docs", set_documents)
    app.connect("doctree-resolved", wrap_chapter)
    app.connect("doctree-resolved", tall_figures)
    app.add_transform(HandoutFilter)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
