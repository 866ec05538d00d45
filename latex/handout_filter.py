"""Sphinx extension: what a printed handout keeps of a chapter.

``handout_documents`` lists the LaTeX documents to write, each with its ``handout_mode``: ``"student"`` drops every
solution (also the ``solution-start`` / ``solution-end`` blocks that sphinx-exercise's ``hide_solutions``
leaves in) and every answer fold (_ext/answer_folds), so that no answer is printed; ``"answers"`` keeps only the
chapter title, the exercises and their solutions, the answer boxes (_ext/answer_box, which print their answer in
this mode) and the answer folds, which makes the answer key (a reference to what is left out prints its number
as text), without the “还没写” reports of the skeletons, and with a box's worked answer titled 讲解 (the box
prints its 答案). The student handouts put ruled lines to write on, the site's line for readers who do not run
code and the answer key's file in place of each “你来写” report, and leave room to write under each end-of-chapter
exercise. A chapter handout names a link to the home page (which it does not print) 课程网站首页.
One build writes both kinds from the same pages; without
``handout_documents``, ``handout_mode`` applies to every document.
In every LaTeX build: Chinese/Latin spacing that xeCJK loses at links and before maths in headings, long
inline code cut where a line may break, the column alignment of Markdown tables, glossary entries kept whole,
appendix headings without a second 附录, and a note opening each section with a live widget (a picture).
"""
from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import docname_join
from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node, solution_node

import answer_folds
import book_layout
import reading_mode
from learner_notebooks import read_book
from myst_to_markdown import Book, number_after, said_number

EXERCISE_NODES = (exercise_node, exercise_enumerable_node)
ANSWER_BOX = "answer-box"  # the class of _ext/answer_box's node (a hand computation with its answer)
ANSWER_FOLD = "answer-fold"  # the class of _ext/answer_folds's node (an answer the reader opens)


def _has_class(node, name: str) -> bool:
    return isinstance(node, nodes.Element) and name in node.get("classes", [])


def _kept_in_key(node) -> bool:
    return isinstance(node, EXERCISE_NODES + (solution_node,)) or _has_class(node, ANSWER_BOX) or \
        _has_class(node, ANSWER_FOLD)


def _inside(node, test) -> bool:
    """Some ancestor of `node` passes `test`."""
    parent = node.parent
    while parent is not None and not test(parent):
        parent = parent.parent
    return parent is not None


def _inside_kept(node) -> bool:
    """Inside an exercise, a solution or a box that the key keeps whole (so it is kept with it)."""
    return _inside(node, _kept_in_key)


def cut_to_mode(app, doctree, docname) -> None:
    """Keep what the mode of the LaTeX document being assembled asks for.

    Sphinx assembles the documents of latex_documents one at a time, in order, each with one
    doctree-resolved: the next entry of ``handout_documents`` is the one being written. Done once the
    references are resolved, so that a reference to a figure or section left out still knows its number:
    it prints as text (“图 2.1”) instead of the raw label.
    """
    if app.config.handout_documents:
        mode, expected = app.handout_queue.pop(0)
        if expected != docname:
            raise ExtensionError(f"handout_filter: expected the document {expected}, Sphinx assembles {docname}")
        app.config.handout_mode = mode  # read by the answer boxes (_ext/answer_box) as this document is written
    mode = app.config.handout_mode
    if mode == "student":
        for node in list(doctree.findall(lambda n: isinstance(n, solution_node) or _has_class(n, ANSWER_FOLD))):
            numbered = _numbered(node)
            if any(numbered):   # its figures and tables still count: the next ones keep the site's numbers
                node.replace_self(_counters(*numbered, add=True))
            else:
                node.parent.remove(node)
    elif mode == "answers" and docname != app.config.root_doc:
        keep_exercises_only(doctree)
        drop_not_written_reports(doctree)
    if mode == "student":
        you_write_on_paper(doctree, docname)
        if docname != app.config.root_doc:
            writing_space_after_exercises(doctree)
    elif mode == "answers":
        worked_answers_after_boxes(doctree)
    unlink_missing_targets(doctree)


def keep_exercises_only(doctree) -> None:
    """The answer key: the chapter title, the exercises, their solutions, the answer boxes and the answer folds,
    in reading order."""
    chapter = next(iter(doctree.findall(nodes.section)), None)
    if chapter is None:
        return
    kept = [n for n in chapter.findall(_kept_in_key) if not _inside_kept(n)]
    title = chapter.next_node(nodes.title)
    # Each kept part keeps the numbers its figures and tables have on the site: the counters are set to how many
    # numbered ones come before it in the chapter.
    before = [_numbered_before(chapter, node) for node in kept]
    for node in kept:
        node.parent.remove(node)
    chapter.children = []
    chapter += title
    if not kept:
        chapter += nodes.paragraph(text="本章没有练习。")
    for node, (figures, tables) in zip(kept, before, strict=True):
        chapter += _counters(figures, tables, add=False)
        chapter += node


def _is_numbered(node) -> bool:
    """A figure with a caption or a table with a title: LaTeX numbers it, as Sphinx does on the site."""
    return (isinstance(node, nodes.figure) and any(isinstance(c, nodes.caption) for c in node.children)) or \
        (isinstance(node, nodes.table) and any(isinstance(c, nodes.title) for c in node.children))


def _numbered(node) -> tuple[int, int]:
    """How many numbered figures and tables `node` holds."""
    found = list(node.findall(_is_numbered))
    return sum(isinstance(n, nodes.figure) for n in found), sum(isinstance(n, nodes.table) for n in found)


def _numbered_before(root, node) -> tuple[int, int]:
    """How many numbered figures and tables come before `node` in `root`, in reading order."""
    figures = tables = 0
    for n in root.findall(lambda n: n is node or _is_numbered(n)):
        if n is node:
            break
        figures, tables = figures + isinstance(n, nodes.figure), tables + isinstance(n, nodes.table)
    return figures, tables


def _counters(figures: int, tables: int, add: bool) -> nodes.raw:
    command = "addtocounter" if add else "setcounter"
    return nodes.raw("", f"\\{command}{{figure}}{{{figures}}}\\{command}{{table}}{{{tables}}}%\n", format="latex")


NOT_WRITTEN = re.compile(r"^check_\w+：还没写$", re.M)  # the report of labcode.practice on the book's skeleton


def drop_not_written_reports(doctree) -> None:
    """The key prints the skeleton of each “你来写” and its check, but not the check's “还没写” report: the
    solution right after it shows the report that passes."""
    for output in list(doctree.findall(lambda n: _has_class(n, "cell_output"))):
        if NOT_WRITTEN.search(output.astext()):
            output.parent.remove(output)


WRITE_TITLE = "你来写"  # in the title of each exercise that asks the reader for a function (CONTRIBUTING.md)
WRITE_LINES = 12  # ruled lines under each skeleton of the student handout (\handoutwritinglines, handout.sty)
# Where the site's reading-mode line (_ext/reading_mode.py) stands: said once per “你来写”, with the answer key's file.
WRITE_NOTE = reading_mode.WRITE_FIRST + "，再对照本章练习答案（{answers}）里的解答；检查格的报告只在运行笔记本时才有。"


def you_write_on_paper(doctree, docname: str) -> None:
    """A student handout is written on: in each “你来写”, each check's 还没写 report (an instruction to run
    cells, meaningless on paper) gives way to ruled lines for the function it checks, the first one after the
    site's line for readers who do not run code, naming the chapter's answer key."""
    for exercise, page in _exercises_by_page(doctree, docname):
        title = next(iter(exercise.findall(nodes.title)), None)
        if title is None or WRITE_TITLE not in title.astext():
            continue
        outputs = exercise.findall(lambda n: _has_class(n, "cell_output"))
        reports = [n for n in outputs if NOT_WRITTEN.search(n.astext())]
        for k, report in enumerate(reports):
            written = re.search(r"\b(my_\w+)\b", report.parent.astext())
            paper = []
            if k == 0:
                before, after = WRITE_NOTE.split("{answers}")
                note = nodes.paragraph(classes=["handout-write-note"])
                note += [nodes.strong(text="不运行代码时："), nodes.Text(before),
                         nodes.literal(text=book_layout.answers_pdf(page)), nodes.Text(after)]
                paper.append(note)
            where = nodes.paragraph(text="在下面的横线上写出 ")
            where += nodes.literal(text=written.group(1) if written else "这个函数")
            where += [nodes.Text("，代替 "), nodes.literal(text="raise"), nodes.Text(" 那一行：")]
            paper += [where, nodes.raw("", f"\\handoutwritinglines{{{WRITE_LINES}}}\n", format="latex")]
            report.replace_self(paper)


def _exercises_by_page(doctree, docname: str) -> list[tuple[nodes.Element, str]]:
    """Each exercise with the page it comes from: in book.pdf, the document Sphinx inlined it from (a
    start_of_file node, whose children keep their old parent, so it is found from above)."""
    page = {}
    for exercise in doctree.findall(lambda n: isinstance(n, EXERCISE_NODES)):
        page[id(exercise)] = (exercise, docname)
    for inlined in doctree.findall(addnodes.start_of_file):   # outer ones first: an inner one decides
        for exercise in inlined.findall(lambda n: isinstance(n, EXERCISE_NODES)):
            page[id(exercise)] = (exercise, inlined["docname"])
    return list(page.values())


WORKED_TITLE = "讲解"


def worked_answers_after_boxes(doctree) -> None:
    """In the key, an answer box prints its answer (答案：…): the fold right after it is the worked answer, titled
    讲解 rather than a second 答案."""
    for fold in list(doctree.findall(lambda n: _has_class(n, ANSWER_FOLD))):
        index = fold.parent.index(fold)
        before = [n for n in fold.parent.children[:index] if not isinstance(n, (nodes.raw, nodes.target))]
        title = fold.next_node(answer_folds.answer_title)
        if before and _has_class(before[-1], ANSWER_BOX) and title is not None and title.astext() == answer_folds.TITLE:
            title.children = [nodes.Text(answer_folds.OPEN + WORKED_TITLE)]


EXERCISES_SECTION = "练习"  # the title of the section of exercises that ends each chapter


def writing_space_after_exercises(doctree) -> None:
    """Room to write under each end-of-chapter exercise of the student handout (\\handoutwritingspace)."""
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        if title is None or title.parent is not section or title.astext().strip() != EXERCISES_SECTION:
            continue
        for exercise in [n for n in section.findall(lambda n: isinstance(n, EXERCISE_NODES))]:
            parent = exercise.parent
            parent.insert(parent.index(exercise) + 1, nodes.raw("", "\\handoutwritingspace\n", format="latex"))


def unlink_missing_targets(doctree) -> None:
    """Replace a link to a target that is no longer in the document by its text."""
    ids = {i for node in doctree.findall(nodes.Element) for i in node.get("ids", [])}
    for ref in list(doctree.findall(nodes.reference)):
        if ref.get("refid") and ref["refid"] not in ids:
            ref.replace_self(nodes.Text(ref.astext()))


# --- print typography ------------------------------------------------------------------

CJK_LETTER = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z0-9]")


def _space_from_cjk(node, glue: str, inside: bool) -> None:
    """Put `glue` between `node` and Chinese text right before / after it (dropping source spaces); with
    `inside`, only where the node's own text starts / ends with a Latin letter or digit, and into the node."""
    for step in (-1, 1):
        index = node.parent.index(node) + step
        if not (0 <= index < len(node.parent) and isinstance(node.parent[index], nodes.Text)):
            continue
        text = node.parent[index].astext()
        trimmed = text.rstrip() if step < 0 else text.lstrip()
        edge, own = (trimmed[-1:], node.astext()[:1]) if step < 0 else (trimmed[:1], node.astext()[-1:])
        if not CJK_LETTER.fullmatch(edge or "x") or (inside and not LATIN.match(own)):
            continue
        node.parent[index] = nodes.Text(trimmed)   # by position: docutils finds a Text by value, not identity
        raw = nodes.raw("", glue, format="latex")
        # Sphinx writes a figure or table reference (“图 \\ref{…}”) itself, skipping the node's children: there
        # the glue goes outside the link.
        if inside and not isinstance(node, addnodes.number_reference):
            node.insert(0, raw) if step < 0 else node.append(raw)
        else:
            node.parent.insert(node.parent.index(node) + (step > 0), raw)


def print_spacing(app, doctree, docname) -> None:
    """Space between Chinese and Latin words where xeCJK loses it.

    A link starts with a PDF annotation that hides its first letter from xeCJK: “也就是 softmax” printed
    as “也就是softmax”. The glue goes inside the link. In titles (of sections and of exercises) the space before
    maths is lost the same way (“损失是ln V”, “挑选α”).
    """
    for ref in list(doctree.findall(nodes.reference)):
        _space_from_cjk(ref, "\\hspace{0.25em}", inside=True)
    for title in list(doctree.findall(nodes.title)):
        for maths in list(title.findall(nodes.math)):
            if maths.parent is title:
                _space_from_cjk(maths, "\\texorpdfstring{\\hspace{0.25em}}{ }", inside=False)


# Marks of the text printed by LaTeX commands:
# - □, the book's token for a character outside the vocabulary (chapter 5), on a light ground as on the site: a bare
#   □ reads as a character the font lacks;
# - an arrow between words (“分数 → softmax → 损失”) with the same space on both sides: xeCJK sets arrows as
#   Chinese, so it drops the space next to a Chinese character and keeps the one next to a Latin word.
PRINT_MARKS = {"□": "\\handoutunknown{}", " → ": "\\texorpdfstring{\\hspace{0.25em}→\\hspace{0.25em}}{ → }"}
PRINT_MARK = re.compile("|".join(map(re.escape, PRINT_MARKS)))


def print_marks(app, doctree, docname) -> None:
    """Each mark of PRINT_MARKS in the text (not in code or a formula) as its LaTeX command."""
    for text in list(doctree.findall(nodes.Text)):
        if not PRINT_MARK.search(text) or _inside(text, lambda parent: isinstance(parent, VERBATIM)):
            continue
        value, pieces, at = text.astext(), [], 0
        for match in PRINT_MARK.finditer(value):
            if match.start() > at:
                pieces.append(nodes.Text(value[at:match.start()]))
            pieces.append(nodes.raw("", PRINT_MARKS[match.group(0)], format="latex"))
            at = match.end()
        if at < len(value):
            pieces.append(nodes.Text(value[at:]))
        parent = text.parent
        index = next(i for i, child in enumerate(parent.children) if child is text)   # by identity
        parent[index:index + 1] = pieces


# “练习 4.7”, “图 4.2”, “表 A.1”, “第 4 章”, “附录 B”: the word and its number on one line. A no-break space, which
# latex/handout.sty sets as a tie (~).
NUMBERED_WORD = re.compile(r"(?<=练习|附录) (?=[A-Z\d])|(?<=[图表]) (?=[A-Z\d]+\.\d)|(?<=第) (\d+) (?=章)")
NO_BREAK = "\u00a0"
# A bare address then a space before Chinese punctuation (“https://…/babynames/ 。”): the space was there only to end
# the address in the source.
URL_THEN_SPACE = re.compile(r"(https?://[^\s，。；：、（）]+) +(?=[，。；：、）])")
VERBATIM = (nodes.FixedTextElement, nodes.literal, nodes.raw, nodes.math, nodes.math_block)


def tie_numbers(app, doctree, docname) -> None:
    """No line breaks between a numbered reference's word and its number; no space between an address and the
    punctuation after it."""
    for text in list(doctree.findall(nodes.Text)):
        if _inside(text, lambda parent: isinstance(parent, VERBATIM)):
            continue
        tied = NUMBERED_WORD.sub(lambda m: NO_BREAK + (m[1] + NO_BREAK if m[1] else ""), text.astext())
        tied = URL_THEN_SPACE.sub(r"\1", tied)
        if tied != text.astext():
            text.parent.replace(text, nodes.Text(tied))
    for ref in doctree.findall(addnodes.number_reference):   # Sphinx writes “图 \ref{…}” from its title
        ref["title"] = ref.get("title", "%s").replace(" %s", NO_BREAK + "%s")


# Where a long inline code may break between its pieces, and what the break costs (TeX's penalties). A call breaks
# after the ", " between its own arguments (or the ": " of a lambda among them), as one would break it by hand;
# between the arguments of a nested call (“my_loss_and_grad(W, xs,⏎ys)”), after its own “(”, a "." or a "_" only to
# spare a letter-spaced line (TeX stretches Chinese readily, so these may not cost too much either).
CODE_BREAK_PENALTY = {" ": 0, "nested": 400, "(": 50, ".": 500, "_": 1000}
CODE_PIECES_FROM = 10  # characters: shorter code is one piece (a name, np.exp)
OPENING, CLOSING_BRACKETS = "([{", ")]}"


def code_breaks(text: str) -> dict[int, int]:
    """Where `text` (inline code) may break, {position after which a new piece starts: penalty}."""
    breaks, depth = {}, 0
    for k, ch in enumerate(text[:-1]):
        depth += (ch in OPENING) - (ch in CLOSING_BRACKETS)
        if ch == " " and text[k - 1] in ",:":
            breaks[k + 1] = CODE_BREAK_PENALTY[" " if depth <= 1 else "nested"]
        elif ch == "(" and depth == 1 and text[k + 1] != ")":
            breaks[k + 1] = CODE_BREAK_PENALTY["("]
        elif ch in "._" and text[k + 1].isalpha() and k:   # never inside a number (0.5)
            breaks[k + 1] = CODE_BREAK_PENALTY[ch]
    return breaks


def breakable_code(app, doctree, docname) -> None:
    """Cut long inline code into pieces joined by \\handoutcodejoin (latex/handout.sty), where a line may break.

    Inline code prints on a grey box, which TeX cannot break: a long call would move whole to the next line."""
    for literal in list(doctree.findall(nodes.literal)):
        text = literal.astext()
        if len(text) < CODE_PIECES_FROM or len(literal.children) != 1 or \
                not isinstance(literal.parent, (nodes.paragraph, nodes.list_item, nodes.entry, nodes.inline)):
            continue
        cuts = code_breaks(text)
        if not cuts:
            continue
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        ends = [0, *cuts]
        parent, index = literal.parent, literal.parent.index(literal)
        parent.remove(literal)
        for k, piece in enumerate(pieces):
            if k:
                join = f"\\handoutcodejoin{{{cuts[ends[k]]}}}"
                parent.insert(index, nodes.raw("", join, format="latex"))
                index += 1
            parent.insert(index, nodes.literal(piece, piece, classes=literal.get("classes", [])))
            index += 1


CELL_ALIGNMENT = {"text-right": "\\raggedleft", "text-center": "\\centering"}


def aligned_table_cells(app, doctree, docname) -> None:
    """A Markdown table's column alignment (`---:`, myst's class text-right) holds in print too: the handouts
    set every cell ragged right (latex/handout.sty), which left-aligned counts and percentages."""
    for entry in list(doctree.findall(nodes.entry)):
        command = next((CELL_ALIGNMENT[c] for c in entry.get("classes", []) if c in CELL_ALIGNMENT), None)
        if command:
            entry.insert(0, nodes.raw("", command + "\\arraybackslash\n", format="latex"))


def glossary_entries_whole(app, doctree, docname) -> None:
    """Pages break between glossary entries only (\\handoutglossary in latex/handout.sty)."""
    for glossary in list(doctree.findall(addnodes.glossary)):
        parent, index = glossary.parent, glossary.parent.index(glossary)
        parent.insert(index + 1, nodes.raw("", "\\endgroup\n", format="latex"))
        parent.insert(index, nodes.raw("", "\\begingroup\\handoutglossary\n", format="latex"))


def appendix_titles(app, doctree, docname) -> None:
    """“附录：符号…” prints as “符号…”: the heading above it already reads 附录 A."""
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        if title is None or title.parent is not section or not title.children:
            continue
        first = title[0]
        if isinstance(first, nodes.Text) and book_layout.printed_title(first.astext()) != first.astext():
            title.replace(first, nodes.Text(book_layout.printed_title(first.astext())))


def set_documents(app, env, docnames) -> None:
    """Use ``handout_documents`` (mode first) as latex_documents (Jupyter Book accepts only one in _config.yml)."""
    if app.config.handout_documents:
        app.config.latex_documents = [tuple(doc[1:]) for doc in app.config.handout_documents]
    app.handout_queue = [(doc[0], doc[1]) for doc in app.config.handout_documents]


def wrap_chapter(app, doctree, docname) -> None:
    """Give a one-chapter handout a title above its chapter.

    Sphinx takes the first heading of a LaTeX document's start page as the document
    title, which would turn the chapter's sections into chapters. Nesting the page in
    a section titled like the handout keeps the chapter a chapter.
    """
    if docname == app.config.root_doc:
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
    for figure in list(doctree.findall(nodes.figure)):
        if "print-tall" in figure["classes"]:
            parent = figure.parent
            index = parent.index(figure)
            parent.insert(index + 1, nodes.raw("", "\\handoutnormalfigures\n", format="latex"))
            parent.insert(index, nodes.raw("", "\\handouttallfigures\n", format="latex"))


WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
# Most widgets print their initial state; the bigram trainer prints a 1000-step preview and its title says so.
WIDGET_NOTE = ("本节的交互组件只能在网页上或 Jupyter 里操作，讲义里印的是它的一张静态图：图题没有另加说明的，"
               "是它刚打开时的样子。"
               "下面说的拖动、点按和输入，请在网页版里动手试；这里可以对照图读。")


SITE_HOME = "课程网站首页"


class HomePageOnPaper(SphinxPostTransform):
    """A link to the home page from a one-chapter handout, which does not print that page, names it as the course
    website's home page (with its address when ``html_baseurl`` is set): “首页那张表” on the site reads
    “课程网站首页那张表” on paper. Run before Sphinx resolves the link, which would leave just its words."""
    default_priority = 5
    builders = ("latex",)

    def run(self, **kwargs) -> None:
        root = self.config.root_doc
        if root in getattr(self.app.builder, "docnames", {root}):  # book.pdf prints the home page
            return
        address = self.config.html_baseurl.strip()
        for xref in list(self.document.findall(addnodes.pending_xref)):
            if xref.get("reftype") == "doc" and docname_join(xref.get("refdoc", ""), xref["reftarget"]) == root:
                xref.replace_self(nodes.inline("", SITE_HOME + (f"（{address}）" if address else "")))


class NumberedReferences(SphinxPostTransform):
    """A ``{ref}`` carries its target's number, as in the learner's notebooks (_ext/myst_to_markdown.py says it the
    same way): “第 3 章‘从字到编号’一节（§3.2）”, “（见‘下一步’一节，§5.11）”, “上一章（第 1 章）”. On paper a link
    cannot be followed, and a chapter handout does not print the other chapters at all: the number finds the page.
    Run before Sphinx resolves the reference, which would leave just its words."""
    default_priority = 5
    builders = ("latex",)

    def run(self, **kwargs) -> None:
        book = _book(self.app)
        for xref in list(self.document.findall(addnodes.pending_xref)):
            target = book.targets.get(xref.get("reftarget", "")) \
                if (xref.get("refdomain"), xref.get("reftype")) == ("std", "ref") else None
            if target is None:
                continue
            number = said_number(target, book.numfig_format)
            text = xref.astext() if xref.get("refexplicit") else \
                target.title if target.kind in ("page", "section") else number
            parent, index = xref.parent, xref.parent.index(xref)
            after = parent[index + 1] if index + 1 < len(parent) else None
            before_closing = isinstance(after, nodes.Text) and after.astext().startswith("）")
            suffix = number_after(text, number, before_closing)
            if suffix:
                parent.insert(index + 1, nodes.Text(suffix))


def _book(app) -> Book:
    """The book's labels and numbers (as the learner's notebooks read them), read once per build."""
    if not hasattr(app, "handout_book"):
        app.handout_book = read_book(app.env)
    return app.handout_book


class WidgetNotes(SphinxTransform):
    """Open each section that shows a live widget with a note saying that the handout prints a picture.

    The section's text asks the reader to drag sliders and press buttons; on paper the widget is its
    snapshot (image/png: its initial state, or what the picture's title says, e.g. the trainer's 1000-step preview),
    so the reader learns that before the instructions, not after the picture.
    At read time, while myst-nb's output still holds every MIME type (the builder later keeps the picture).
    """
    default_priority = 900

    def apply(self) -> None:
        if self.app.builder.name == "latex":
            add_widget_notes(self.document)


def add_widget_notes(doctree) -> None:
    sections = []
    for bundle in doctree.findall(nodes.container):
        if bundle.get("mime_type") != WIDGET_MIME:
            continue
        section = bundle.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        if section is not None and section not in sections:
            sections.append(section)
    for section in sections:
        note = nodes.paragraph(classes=["handout-widget-note"])
        note += nodes.strong(text="讲义说明：")
        note += nodes.Text(WIDGET_NOTE)
        title = section.next_node(nodes.title)
        section.insert(section.index(title) + 1 if title is not None and title.parent is section else 0, note)


def for_print(app, doctree, docname) -> None:
    """The steps above, in this order, on every LaTeX document (the site's pages are left untouched)."""
    if app.builder.name == "latex":
        for step in (cut_to_mode, wrap_chapter, tall_figures, print_spacing, print_marks, tie_numbers, breakable_code,
                     aligned_table_cells, glossary_entries_whole, appendix_titles):
            step(app, doctree, docname)


def setup(app):
    app.add_config_value("handout_mode", "", "env")
    app.add_config_value("handout_documents", [], "env")
    app.connect("env-before-read-docs", set_documents)
    app.connect("doctree-resolved", for_print, priority=400)
    app.add_transform(WidgetNotes)
    app.add_post_transform(HomePageOnPaper)
    app.add_post_transform(NumberedReferences)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
