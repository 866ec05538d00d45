"""The notebooks the site offers a learner: each chapter notebook with its MyST resolved (myst_to_markdown.py), written
where the page's download links point (``_sources/``) and put in the zip of the whole book (learner_kit.py).

The names and numbers come from the finished Sphinx build, so the notebook says what the page says: every label's
target and number (sections, figures, tables, exercises, after book_numbering.py has lettered the back matter),
each page's numbered headings, the numbering formats (“练习 %s”). Markdown the export has no rule for stops the build
(LearnerNotebookError, naming the notebook and the cell).
"""
from __future__ import annotations

import functools
from pathlib import Path

import nbformat
from docutils import nodes
from sphinx.errors import SphinxError

from myst_to_markdown import Book, ExportError, Page, Target, export_notebook


class LearnerNotebookError(SphinxError):
    category = "learner notebook"


def _number(numbers: dict, key: str) -> str:
    return ".".join(map(str, numbers.get(key, ())))


def _section_key(section: nodes.section) -> str:
    """How Sphinx keys a section in toc_secnumbers: "" for the page's title, else "#" and its first id."""
    return "" if isinstance(section.parent, nodes.document) else "#" + section["ids"][0]


def _titled(doctree) -> list[nodes.section]:
    return [s for s in doctree.findall(nodes.section) if s.children and isinstance(s[0], nodes.title)]


def read_book(env) -> Book:
    """What the built site calls every label, heading and page."""
    std = env.get_domain("std")
    tree = functools.cache(env.get_doctree)
    targets = {}
    for label, (docname, labelid) in std.anonlabels.items():
        node = tree(docname).ids.get(labelid) if docname in env.all_docs else None
        if isinstance(node, nodes.section):
            secnumbers = env.toc_secnumbers.get(docname, {})
            kind = "page" if isinstance(node.parent, nodes.document) else "section"
            targets[label] = Target(docname, kind, _number(secnumbers, _section_key(node)), node[0].astext())
        elif node is not None and (kind := std.get_enumerable_node_type(node)):
            numbers = env.toc_fignumbers.get(docname, {}).get(kind, {})
            targets[label] = Target(docname, kind, _number(numbers, node["ids"][0]))
    root = env.config.root_doc
    pages = []
    for docname in [root, *env.toctree_includes.get(root, [])]:
        source = Path(env.doc2path(docname))
        title = env.titles[docname].astext() if docname in env.titles else ""
        pages.append(Page(docname, source.name if source.suffix == ".ipynb" else "",
                          _number(env.toc_secnumbers.get(docname, {}), ""), title))
    headings = {page.docname: [(_number(env.toc_secnumbers.get(page.docname, {}), _section_key(s)), s[0].astext())
                               for s in _titled(tree(page.docname))] for page in pages if page.file}
    from sphinx.locale import admonitionlabels

    return Book(targets, headings, pages, dict(env.config.numfig_format),
                {name: str(title) for name, title in admonitionlabels.items()})


def source_name(app, docname: str) -> str:
    """Where Sphinx copies a page's source under _sources/ (the page's download link), as the HTML builder names it."""
    suffix = Path(app.env.doc2path(docname)).suffix
    link_suffix = app.config.html_sourcelink_suffix
    return docname + suffix + (link_suffix if suffix != link_suffix else "")


def write(app, docnames: list[str]) -> list[Path]:
    """Write the learner's copy of each notebook page over the source the build copied to _sources/."""
    book = read_book(app.env)
    written = []
    for docname in docnames:
        source = Path(app.env.doc2path(docname))
        try:
            learner = export_notebook(nbformat.read(source, as_version=4), docname, book,
                                      where=str(source.relative_to(app.srcdir)))
        except ExportError as err:
            raise LearnerNotebookError(str(err)) from None
        target = Path(app.outdir, "_sources", source_name(app, docname))
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(learner, target)
        written.append(target)
    return written
