"""A chapter notebook as the learner downloads it: its MyST markup resolved into plain Markdown.

JupyterLab 4, Notebook 7, VS Code and GitHub render CommonMark with $…$ maths and a little HTML, and none of MyST.
`export_notebook` rewrites the Markdown cells of a notebook into that, with the names and numbers the site gives
(a `Book`, read from the Sphinx build by learner_notebooks.py):
- headings numbered as on the site (“## 1.3 整体平移，分布不变”; the title “# 第 1 章　…”), ``(label)=`` dropped;
- ``{ref}``/``{numref}``/``{doc}`` as the text the site links, with the target's number (“练习 1.4”,
  “……一节（§2.7）”), ``{term}`` as its word, every ``{glue:…}`` as the value stored in the notebook's outputs;
- exercises and solutions under their numbered titles (“练习 1.1（你来写：softmax）”, a folded “解答：……”),
  answer folds (``answer-start``/``answer-end``) as a headed note over their closed cells,
  admonitions and “深入” boxes as headed quotations, tables under their numbered captions, figures' captions in a
  Markdown cell under the cell that draws them.
Code cells, their outputs and the notebook's metadata (widget state included) are not touched, so the notebook
nbval checks is the one the learner runs; cell metadata (tags, ``jupyter.source_hidden``…) stays as it is.
Every role and directive has its rule in ROLES or DIRECTIVES; anything else stops the build with an ExportError
that names the notebook, the cell and the markup, so no raw MyST reaches a learner.
"""
from __future__ import annotations

import copy
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import nbformat

import answer_folds
import book_layout
import exercise_marks


class ExportError(Exception):
    """Markup the export has no rule for, or a reference it cannot resolve."""


@dataclass(frozen=True)
class Target:
    """What a label names, as the site numbers it."""
    docname: str
    kind: str        # "page", "section", or what Sphinx numbers: "figure", "table", "exercise", "code-block"
    number: str      # "1.3", "A.2"; "" when not numbered
    title: str = ""  # a page's or a section's title


@dataclass(frozen=True)
class Page:
    docname: str
    file: str        # the notebook's file name in the learner's folder; "" for a page that is not a notebook
    number: str      # "1", "A"; "" for the home page
    title: str


@dataclass
class Book:
    """The names and numbers of the built site."""
    targets: dict[str, Target]
    headings: dict[str, list[tuple[str, str]]]   # docname -> (number, title) of each heading, in order
    pages: list[Page]                            # in the order of the book, the home page first
    numfig_format: dict[str, str]                # "exercise" -> "练习 %s", …
    admonition_titles: dict[str, str] = field(default_factory=dict)   # "note" -> its title in the book's language


# --- the notebook --------------------------------------------------------------------------------------------

GLUE_KEY = "scrapbook"


def glued(nb) -> dict[str, dict]:
    """{name: data} of every value the notebook's cells glued (labcode.glue, myst-nb's format)."""
    values = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            record = output.get("metadata", {}).get(GLUE_KEY)
            if record:
                prefix = record.get("mime_prefix", "")
                values[record["name"]] = {mime.removeprefix(prefix): data for mime, data in output["data"].items()}
    return values


def export_notebook(nb, docname: str, book: Book, where: str | None = None):
    """The learner's copy of `nb` (the notebook of page `docname`): Markdown cells resolved, all else as it was."""
    out = copy.deepcopy(nb)
    context = Context(docname, book, glued(nb), where or docname)
    cells = []
    for index, cell in enumerate(out.cells):
        context.cell = index
        hidden = cell.get("metadata", {}).get("jupyter", {}).get("source_hidden", False)
        if cell.cell_type == "markdown":
            cell.source = context.markdown(cell.source).strip("\n")
            if cell.source.strip() and hidden and not cell.source.startswith("<details>"):
                # a closed cell of an answer or a solution: JupyterLab keeps it closed by its metadata,
                # GitHub and VS Code (which ignore it) get it folded too
                cell.source = folded(context.fold_title(), cell.source)
            if not cell.source.strip():
                continue
        cells.append(cell)
        caption = context.figure_caption(cell) if cell.cell_type != "markdown" else ""
        if caption:
            if hidden:   # a figure inside a fold: its caption (which may state the answer) stays closed with it
                caption = folded(context.fold_title(), caption)
            metadata = {"jupyter": {"source_hidden": True}} if hidden else {}
            cells.append(nbformat.v4.new_markdown_cell(caption, id=f"{cell.get('id', index)}-caption"[:64],
                                                       metadata=metadata))
    context.finish()
    out.cells = cells
    return out


# --- Markdown: blocks ------------------------------------------------------------------------------------------

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*)$")
DIRECTIVE = re.compile(r"^\{(?P<name>[^{}\s]+)\}\s*(?P<argument>.*)$")
OPTION = re.compile(r"^:(?P<key>[\w-]+):\s*(?P<value>.*)$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.*?)(?:\s+#+)?\s*$")
LABEL = re.compile(r"^\s*\([^()\s]+\)=\s*$")
COMMENT = re.compile(r"^\s*%")
BLOCK_BREAK = re.compile(r"^\s*\+\+\+")
# What must not be left in the output: the export's own last check (the tests check the rendered notebooks).
LEFT_OVER = [("a role", re.compile(r"\{[A-Za-z][\w:.+-]*\}`")),
             ("a directive", re.compile(r"^\s*(`{3,}|~{3,}|:{3,})\{", re.M)),
             ("a label", re.compile(r"^\s*\([^()\s]+\)=\s*$", re.M)),
             ("an option", re.compile(r"^\s*:[\w-]+:(\s|$)", re.M)),
             ("a substitution", re.compile(r"\{\{"))]


@dataclass
class Directive:
    name: str
    argument: str
    options: dict
    body: str


def parse_directive(name: str, argument: str, lines: list[str]) -> Directive:
    """Options (``:key: value`` lines, or a ``---`` block of them) at the top of the body, then the content."""
    options, rest = {}, list(lines)
    if rest and rest[0].strip() == "---":
        end = next((i for i, line in enumerate(rest[1:], 1) if line.strip() == "---"), None)
        if end is None:
            raise ExportError(f"指令 {{{name}}} 的选项以 --- 开头，却没有以 --- 结束")
        for line in rest[1:end]:
            key, _, value = line.partition(":")
            options[key.strip()] = value.strip()
        rest = rest[end + 1:]
    while rest and (option := OPTION.match(rest[0].strip())):
        options[option["key"]] = option["value"]
        rest = rest[1:]
    return Directive(name, argument.strip(), options, "\n".join(rest).strip("\n"))


def quote(markdown: str) -> str:
    """`markdown` as a block quotation; display maths on one line, since a front end reads the “> ” inside it."""
    text = re.sub(r"\$\$(.+?)\$\$", lambda m: "$$" + " ".join(m.group(1).split()) + "$$", markdown, flags=re.S)
    return "\n".join(f"> {line}".rstrip() for line in text.split("\n"))


def headed(title: str, body: str, after: str = "") -> str:
    """A titled block: a quotation whose first line is the title in bold (and `after` it, in plain text)."""
    return quote(f"**{title}**{after}" + (f"\n\n{body}" if body.strip() else ""))


def folded(summary: str, body: str) -> str:
    """A block that opens on a click in every front end (HTML details; Markdown inside, between blank lines)."""
    return f"<details>\n<summary><strong>{summary}</strong></summary>\n\n{body.strip()}\n\n</details>"


class Context:
    """Converts the Markdown cells of one notebook, in order: it keeps what spans cells (the headings met so far,
    an open exercise, solution or “深入” box)."""

    def __init__(self, docname: str, book: Book, glue: dict, where: str):
        self.docname, self.book, self.glue, self.where = docname, book, glue, where
        self.headings = list(book.headings.get(docname, []))
        self.open: list[tuple[str, str]] = []    # gated blocks open: (directive name, title)
        self.titles: dict[str, str] = {}         # exercise label -> its title, to name its solution
        self.cell = 0
        self.before_closing = False              # whether a “）” follows the role being converted

    def fail(self, message: str) -> ExportError:
        return ExportError(f"{self.where}，第 {self.cell + 1} 个单元格：{message}")

    # -- blocks --

    def markdown(self, text: str) -> str:
        """A cell's (or a directive's) Markdown, converted."""
        lines, out, i, maths = text.split("\n"), [], 0, False
        while i < len(lines):
            line = lines[i]
            fence = None if maths else FENCE.match(line)
            if fence:
                close = self._closing(lines, i, fence)
                directive = DIRECTIVE.match(fence["info"].strip())
                if directive:
                    body = [row.removeprefix(fence["indent"]) for row in lines[i + 1:close]]
                    try:
                        parsed = parse_directive(directive["name"], directive["argument"], body)
                    except ExportError as err:
                        raise self.fail(str(err)) from None
                    converted = self.directive(parsed)
                    if callable(converted):   # a gated block's opening: the rest of the cell belongs to it
                        converted = converted(self.markdown("\n".join(lines[close + 1:])))
                        out.append(self._indent(converted, fence["indent"]))
                        break
                    out.append(self._indent(converted, fence["indent"]))
                elif fence["fence"][0] == ":":
                    raise self.fail(f"“{line.strip()}” 不是 MyST 指令（:::{{名字}}）")
                else:   # a plain code block: as it is
                    out.extend(lines[i:close + 1])
                i = close + 1
                continue
            if maths or line.count("$$") % 2:
                maths = maths != (line.count("$$") % 2 == 1)
                out.append(line)
            elif LABEL.match(line) or COMMENT.match(line) or BLOCK_BREAK.match(line):
                pass
            elif heading := HEADING.match(line):
                out.append(self.heading(heading["hashes"], heading["title"]))
            else:
                out.append(self.inline(line))
            i += 1
        result = "\n".join(out)
        for what, pattern in LEFT_OVER:
            if found := pattern.search(self._without_code(result)):
                raise self.fail(f"导出后还剩 MyST 标记（{what}）：{found.group(0)!r}")
        return result

    @staticmethod
    def _without_code(markdown: str) -> str:
        text = re.sub(r"^(\s*>?\s*)(`{3,}|~{3,})[^\n]*\n.*?^\1\2\s*$", "", markdown, flags=re.S | re.M)
        return re.sub(r"(`+).+?\1", "", text)

    @staticmethod
    def _indent(text: str, indent: str) -> str:
        return "\n".join(indent + row if row else row for row in text.split("\n"))

    def _closing(self, lines, start, fence) -> int:
        mark = fence["fence"]
        for j in range(start + 1, len(lines)):
            row = lines[j].strip()
            if row and set(row) == {mark[0]} and len(row) >= len(mark):
                return j
        raise self.fail(f"“{lines[start].strip()}” 没有对应的结束行 {mark}")

    def heading(self, hashes: str, title: str) -> str:
        if not self.headings:
            raise self.fail(f"标题“{title}”在网站上不是一节（网站上的节比笔记本里的标题少）")
        number, site_title = self.headings.pop(0)
        if plain(title) != plain(site_title):
            raise self.fail(f"标题“{title}”与网站上对应的一节“{site_title}”不一致")
        text = self.inline(title)
        if number and len(hashes) == 1:
            return f"# {book_layout.label(number)}　{book_layout.printed_title(text)}"
        return f"{hashes} {number} {text}" if number else f"{hashes} {text}"

    def directive(self, d: Directive) -> str | Callable[[str], str]:
        if d.name in DIRECTIVES:
            return DIRECTIVES[d.name](self, d)
        if d.name in self.book.admonition_titles:
            return headed(self.book.admonition_titles[d.name], self.markdown(d.body))
        raise self.fail(f"学习者的笔记本还不认识指令 {{{d.name}}}：在 _ext/myst_to_markdown.py 的 DIRECTIVES "
                        "里给它写一条规则（它在笔记本里应当显示成什么）")

    def figure_caption(self, cell) -> str:
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure")
        if not figure:
            return ""
        caption = self.inline(str(figure.get("caption", "")))
        name = figure.get("name")
        if not name:
            return caption
        return f"**{self.numbered(self.target(name))}**　{caption}".rstrip("　")

    def finish(self):
        if self.open:
            raise self.fail(f"{{{self.open[-1][0]}}}“{self.open[-1][1]}”一直没有结束")
        if self.headings:
            raise self.fail(f"网站上的一节“{self.headings[0][1]}”在笔记本里没有对应的标题")

    # -- references --

    def target(self, label: str) -> Target:
        found = self.book.targets.get(label)
        if found is None:
            raise self.fail(f"引用的标签 {label!r} 在网站上不存在")
        return found

    def numbered(self, target: Target) -> str:
        return said_number(target, self.book.numfig_format)

    def fold_title(self) -> str:
        """The title of the fold or solution a closed cell belongs to (看答案 when none is open)."""
        return self.open[-1][1] if self.open else answer_folds.TITLE

    def ungate(self, name: str) -> str:
        start = name.replace("-end", "-start")
        if not self.open or self.open[-1][0] != start:
            raise self.fail(f"{{{name}}} 前面没有打开的 {{{start}}}")
        return self.open.pop()[1]

    # -- inline --

    def inline(self, text: str) -> str:
        return INLINE.sub(self._inline, text)

    def _inline(self, match) -> str:
        if match["code"]:
            return match.group(0)
        rule = ROLES.get(match["role"])
        if rule is None:
            raise self.fail(f"学习者的笔记本还不认识角色 {{{match['role']}}}：在 _ext/myst_to_markdown.py 的 "
                            "ROLES 里给它写一条规则")
        self.before_closing = match.string[match.end():].startswith("）")
        return rule(self, match["body"])


INLINE = re.compile(r"\{(?P<role>[A-Za-z][\w:.+-]*)\}(?P<ticks>`+)(?P<body>.+?)(?P=ticks)|(?P<code>`+).+?(?P=code)")
EXPLICIT = re.compile(r"^(?P<text>.+?)\s*<(?P<target>[^<>]+)>$", re.S)


def plain(title: str) -> str:
    """A heading's words, for comparing a Markdown heading with the site's title."""
    return re.sub(r"[\s$`*_\\]", "", re.sub(r"\{[\w:.-]+\}`([^`]*)`", r"\1", title))


def explicit(content: str) -> tuple[str | None, str]:
    found = EXPLICIT.match(content.strip())
    return (found["text"], found["target"].strip()) if found else (None, content.strip())


def said_number(target: Target, numfig_format: dict[str, str]) -> str:
    """How the book says a target's number: “第 2 章”, “§2.7”, “练习 1.4”, “图 1.2”; "" when not numbered."""
    if not target.number:
        return ""
    if target.kind == "page":
        return book_layout.label(target.number)
    if target.kind == "section":
        return f"§{target.number}"
    return numfig_format.get(target.kind, "%s") % target.number


def number_after(text: str, number: str, before_closing: bool) -> str:
    """What follows a reference's words so that it carries the target's number (“一节” -> “一节（§2.7）”), unless the
    words say it already; right before a closing bracket “，§2.7”, not “（…（§1.2））”. The PDF handouts say it the
    same way (latex/handout_filter.py)."""
    if not number or number in text:
        return ""
    return f"，{number}" if before_closing else f"（{number}）"


# --- roles ---------------------------------------------------------------------------------------------------

def ref_role(context: Context, content: str) -> str:
    text, label = explicit(content)
    target = context.target(label)
    number = context.numbered(target)
    if text is None:
        text = target.title if target.kind in ("page", "section") else number
    text = context.inline(text)
    return text + number_after(text, number, context.before_closing)


def numref_role(context: Context, content: str) -> str:
    text, label = explicit(content)
    target = context.target(label)
    if not target.number:
        raise context.fail(f"{{numref}} 指向的 {label!r} 在网站上没有编号")
    if text is None:
        return context.numbered(target)
    return context.inline(text.replace("%s", target.number).replace("{number}", target.number)
                          .replace("{name}", target.title))


def doc_role(context: Context, content: str) -> str:
    text, path = explicit(content)
    if text is not None:
        return context.inline(text)
    docname = path[1:] if path.startswith("/") else posixpath.normpath(posixpath.join(
        posixpath.dirname(context.docname), path))
    page = next((p for p in context.book.pages if p.docname == docname), None)
    if page is None:
        raise context.fail(f"{{doc}} 指向的页面 {path!r} 不在书里")
    return page.title


def term_role(context: Context, content: str) -> str:
    text, term = explicit(content)
    return text if text is not None else term


def glue_value(context: Context, content: str, mime: str, default_format: str) -> tuple[str, str]:
    """The glued value's `mime` data, and the format the role asks for."""
    key, _, fmt = content.strip().partition(":")
    if "::" in key or key not in context.glue:
        raise context.fail(f"正文引用的 glue 值 {key!r} 不在这个笔记本存好的输出里（先运行 make execute）")
    if mime not in context.glue[key]:
        raise context.fail(f"glue 值 {content!r} 没有 {mime}")
    return context.glue[key][mime], fmt or default_format


def glue_text_role(context: Context, content: str) -> str:
    from myst_nb.core.variables import format_plain_text  # how the site formats it

    return format_plain_text(*glue_value(context, content, "text/plain", ""))


def glue_md_role(context: Context, content: str) -> str:
    text, fmt = glue_value(context, content, "text/markdown", "commonmark")
    return context.inline(text) if fmt == "myst" else text


ROLES: dict[str, Callable[[Context, str], str]] = {
    "ref": ref_role, "numref": numref_role, "doc": doc_role, "term": term_role,
    "glue": glue_text_role, "glue:": glue_text_role, "glue:any": glue_text_role, "glue:text": glue_text_role,
    "glue:md": glue_md_role,
    "math": lambda context, content: f"${content}$",
}


# --- directives ----------------------------------------------------------------------------------------------
# A rule returns Markdown, or for a gated block's opening a function that makes the block of the rest of the cell.

def exercise_title(context: Context, d: Directive) -> str:
    label = d.options.get("label")
    if not label:
        raise context.fail(f"{{{d.name}}}“{d.argument}”没有 :label:，学习者的笔记本写不出它的编号")
    number = context.numbered(context.target(label))
    title = context.inline(d.argument)
    context.titles[label] = f"{number}（{title}）" if title else number
    return context.titles[label]


def solution_title(context: Context, d: Directive) -> str:
    exercise = d.argument.strip()
    if exercise not in context.titles:
        raise context.fail(f"解答指向的练习 {exercise!r} 不在它前面")
    return f"解答：{context.titles[exercise]}"


def table(context: Context, d: Directive) -> str:
    caption = context.inline(d.argument)
    name = d.options.get("name")
    head = f"**{context.numbered(context.target(name))}**　{caption}" if name else f"**{caption}**"
    return f"{head.rstrip('　')}\n\n{context.markdown(d.body)}"


def list_table(context: Context, d: Directive) -> str:
    """MyST's list-table (rows of ``* -`` items) as a pipe table; the first row is the header."""
    rows, row = [], None
    for line in d.body.split("\n"):
        if re.match(r"^\*\s+-", line):
            row = [line.split("-", 1)[1].strip()]
            rows.append(row)
        elif re.match(r"^\s+-", line) and row is not None:
            row.append(line.split("-", 1)[1].strip())
        elif line.strip() and row is not None:
            row[-1] += " " + line.strip()
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        raise context.fail(f"list-table“{d.argument}”的各行单元格数不一样")
    cells = [[context.inline(c).replace("|", r"\|") for c in r] for r in rows]
    lines = [f"| {' | '.join(cells[0])} |", "|" + "---|" * len(cells[0])] + [f"| {' | '.join(r)} |" for r in cells[1:]]
    return table(context, Directive(d.name, d.argument, d.options, "\n".join(lines)))


def contents(context: Context, d: Directive) -> str:
    """The book's pages after the home page; a notebook links its file (in the learner's folder)."""
    items = []
    for page in context.book.pages[1:]:
        name = page.title
        if page.number:
            name = f"{book_layout.label(page.number)}　{book_layout.printed_title(page.title)}"
        items.append(f"- [{name}]({page.file})" if page.file else f"- {name}（在网站上）")
    return "\n".join(items)


DEEP_START = "第一遍可以跳过，从下面的“深入结束”处接着读。"


def exercise_mark(d: Directive) -> str:
    """“【纸笔】” or “【需要电脑】” after the title, from the exercise's class (_ext/exercise_marks.py)."""
    mark = exercise_marks.mark_of(d.options.get("class", "").split())
    return f"【{mark}】" if mark else ""


def _exercise_start(c, d):
    title, mark = exercise_title(c, d), exercise_mark(d)
    c.open.append((d.name, title))
    return lambda rest: headed(title, rest.strip("\n"), mark)


def _solution_start(c, d):
    title = solution_title(c, d)
    c.open.append((d.name, title))
    # (a solution whose words all come after its code cells has nothing here to fold: its title alone)
    return lambda rest: folded(title, rest) if rest.strip() else headed(title, "")


def _end(c, d):
    """The end of an exercise or a solution: what came after its opening is already inside it."""
    c.ungate(d.name)
    return ""


def answered(title: str) -> str:
    """What an answer fold holds, from its title: 看答案 -> 答案, 看 labcode 的写法 -> labcode 的写法."""
    return title.removeprefix(answer_folds.OPEN).strip()


def _answer_start(c, d):
    """An answer fold (_ext/answer_folds.py): its cells are closed by their metadata; the marker says so."""
    title = c.inline(d.argument) if d.argument.strip() else answer_folds.TITLE
    c.open.append((d.name, title))
    what = answered(title)
    space = " " if what[:1].isascii() else ""   # a space between Chinese and code, as in the prose
    return headed(title, f"下面收起的单元格是{space}{what}：先自己做一遍，再点开（点单元格左边的竖条，或点 ⋯）。")


def _deep_start(c, d):
    title = f"深入：{c.inline(d.argument)}"
    c.open.append((d.name, title))
    return headed(title, DEEP_START)


def _code(c, d):
    return f"```{d.argument}\n{d.body}\n```"


DIRECTIVES: dict[str, Callable[[Context, Directive], str | Callable[[str], str]]] = {
    "admonition": lambda c, d: headed(c.inline(d.argument), c.markdown(d.body)),
    "exercise": lambda c, d: headed(exercise_title(c, d), c.markdown(d.body), exercise_mark(d)),
    "exercise-start": _exercise_start,
    "exercise-end": _end,
    "solution": lambda c, d: folded(solution_title(c, d), c.markdown(d.body)),
    "solution-start": _solution_start,
    "solution-end": _end,
    "deep-start": _deep_start,
    "deep-end": lambda c, d: quote(f"**深入结束**（{c.ungate(d.name).removeprefix('深入：')}）"),
    "chapter-question": lambda c, d: headed("本章回答", c.markdown(d.body)),   # _ext/chapter_opening.py
    "answer-start": _answer_start,
    "answer-end": lambda c, d: quote(f"**{answered(c.ungate(d.name))}到此为止**"),
    "table": table,
    "list-table": list_table,
    "tableofcontents": contents,
    "code-block": _code,
    "code": _code,
    "math": lambda c, d: f"$$\n{d.body}\n$$",
}
