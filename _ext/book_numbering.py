"""Numbers and exercise titles that read the same on the site and in the PDF handouts.

Back matter lettered. The PDFs letter the appendices and the glossary after the chapters (LaTeX's
\\appendix: 附录 A, sections A.1, …), while Sphinx numbers every page of the table of contents 1, 2, 3, …
(“5. 附录”, “练习 5.1”). Once Sphinx has numbered the pages, the back matter's leading number is replaced by
its letter: “A. 附录：…”, “A.1”, “练习 A.1”, “图 A.1”, “B. 术语表”, where book_layout says, as in the PDFs.

Exercise titles in Chinese punctuation. sphinx-exercise writes “练习 1.1 (标题)” and “解答 练习 1.1 (标题)”
(Latin brackets; in print the space after 解答 disappears between two Chinese characters). Here they read
“练习 1.1（标题）” and “解答：练习 1.1（标题）”, on the site and in the PDFs.
"""
from __future__ import annotations

import re

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

import book_layout


def letters(env) -> dict[str, str]:
    """{docname: letter} of the back matter, from the root's table of contents (book_layout.numbers)."""
    pages = env.toctree_includes.get(env.config.root_doc, [])
    numbers = book_layout.numbers([(d, env.titles[d].astext() if d in env.titles else "",
                                    str(env.doc2path(d)).endswith(".ipynb")) for d in pages])
    return {d: n for d, n in numbers.items() if not n.isdigit()}


def _lettered(number, chapter: int, letter: str):
    """(5, 2) -> ('A', 2) when 5 is the page's own number; anything else unchanged."""
    if number and number[0] == chapter:
        return type(number)([letter, *number[1:]])
    return number


def letter_back_matter(app, env) -> list[str]:
    """Replace the back matter's page number by its letter in every number Sphinx has assigned."""
    for docname, letter in letters(env).items():
        secnumbers = env.toc_secnumbers.get(docname, {})
        own = secnumbers.get("") or next((n for n in secnumbers.values() if n), None)
        if not own or not isinstance(own[0], int):
            continue  # not numbered, or lettered already
        chapter = own[0]
        env.toc_secnumbers[docname] = {k: _lettered(n, chapter, letter) for k, n in secnumbers.items()}
        for figtype, numbers in env.toc_fignumbers.get(docname, {}).items():
            env.toc_fignumbers[docname][figtype] = {k: _lettered(n, chapter, letter) for k, n in numbers.items()}
        # the page's title (its <title>, the previous / next links) and its table of contents
        for node in [env.titles.get(docname), *env.tocs[docname].findall(nodes.reference)]:
            if node is not None and node.get("secnumber"):
                node["secnumber"] = _lettered(node["secnumber"], chapter, letter)
    return []


def _is_text(node, text: str) -> bool:
    return isinstance(node, nodes.Text) and node.astext() == text


def _full_width_brackets(parent: nodes.Element) -> None:
    """The “ (” … “)” sphinx-exercise puts around a custom title become “（” … “）”."""
    children = parent.children
    opening = next((i for i, c in enumerate(children) if _is_text(c, " (")), None)
    if opening is None or not _is_text(children[-1], ")"):
        return
    parent.replace(children[opening], nodes.Text("（"))
    parent.replace(children[-1], nodes.Text("）"))


class ChineseExerciseTitles(SphinxPostTransform):
    # After sphinx-exercise has written its titles (post-transforms 20 and 21).
    default_priority = 25

    def run(self) -> None:
        from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node, solution_node

        for node in self.document.findall(lambda n: isinstance(n, (exercise_node, exercise_enumerable_node))):
            if node.children and isinstance(node[0], nodes.title):
                _full_width_brackets(node[0])
        for node in self.document.findall(solution_node):
            title = node[0] if node.children and isinstance(node[0], nodes.title) else None
            if title is None or not title.children or not isinstance(title[0], nodes.Text):
                continue
            link = next(iter(title.findall(nodes.reference)), None)
            if link is None or not link.children or not isinstance(link[0], nodes.Text):
                continue
            title.replace(title[0], nodes.Text(title[0].astext().rstrip() + "："))
            link.replace(link[0], nodes.Text(link[0].astext().lstrip()))
            _full_width_brackets(link)


# The site prints the number of an exercise as <span class="caption-number">练习 1.1 </span>: no space
# between it and a full-width bracket, which has its own blank (also when the bracket is kept with a formula
# by web_typography's nobreak span).
CAPTION_SPACE = re.compile(r'(<span class="caption-number">[^<]*?) </span>((?:<span class="nobreak-punct">)?（)')


def _page(app, pagename, templatename, context, doctree) -> None:
    if "body" in context:
        context["body"] = CAPTION_SPACE.sub(r"\1</span>\2", context["body"])


def setup(app):
    app.connect("env-get-updated", letter_back_matter, priority=600)
    app.add_post_transform(ChineseExerciseTitles)
    app.connect("html-page-context", _page)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
