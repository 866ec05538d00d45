"""The notebooks a learner downloads read like the pages (_ext/myst_to_markdown.py, _ext/learner_notebooks.py).

- The transform, on small notebooks: every role and directive the book uses becomes the site's words and numbers;
  code cells, outputs and metadata stay; markup without a rule stops the export, naming the cell.
- The built site: the notebooks each page links and the zip holds are the learner's copies, whose code cells, outputs
  and widget state are the repository's (what nbval runs, once per test run, in the learner's kit); rendered as
  CommonMark alone (what GitHub and VS Code show) they hold no MyST; they say what their page says (headings and
  their numbers, exercise titles, glued numbers, numbered references, in the page's order); the course map is a
  picture. tests/kernel/test_learner_notebooks_kernel.py opens them in JupyterLab and Notebook 7.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup
from markdown_it import MarkdownIt

import book_layout
import labcode
import learner_kit
from myst_to_markdown import Book, ExportError, Page, Target, export_notebook
from rendered_markdown import exercise_marks_shown, exercise_titles, headed_by, raw_myst, words

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = [ROOT / "intro.ipynb", *sorted((ROOT / "book").glob("*.ipynb"))]


# --- the transform ---------------------------------------------------------------------------------------------

BOOK = Book(
    targets={
        "ch1": Target("book/01_a", "page", "1", "标题"),
        "ch1-shift": Target("book/01_a", "section", "1.2", "整体平移"),
        "ch1-ex-write": Target("book/01_a", "exercise", "1.1"),
        "ch1-ex-bounds": Target("book/01_a", "exercise", "1.2"),
        "fig-ch1-nll": Target("book/01_a", "figure", "1.3"),
        "tab-ch1": Target("book/01_a", "table", "1.1"),
        "ch2-linear": Target("book/02_b", "section", "2.7", "线性层"),
        "app-x": Target("book/appendix", "section", "A.2", "编号"),
    },
    headings={"book/01_a": [("1", "标题"), ("1.1", "一节 $z$"), ("1.2", "整体平移")]},
    pages=[Page("intro", "intro.ipynb", "", "首页"), Page("book/01_a", "01_a.ipynb", "1", "标题"),
           Page("book/appendix", "appendix.ipynb", "A", "附录：符号"), Page("book/glossary", "", "B", "术语表")],
    numfig_format={"exercise": "练习 %s", "figure": "图 %s", "table": "表 %s", "section": "节 %s"},
    admonition_titles={"note": "备注"})
GLUE = {"output_type": "display_data", "metadata": {"scrapbook": {"name": "p", "mime_prefix": "application/x/"}},
        "data": {"application/x/text/plain": "0.6652409557748219", "application/x/text/markdown": "$1.2$"}}


def notebook(*sources, outputs=()):
    """A notebook of these cells: a string is a Markdown cell, a dict a code cell's extra fields."""
    cells = [nbformat.v4.new_markdown_cell(s) if isinstance(s, str) else nbformat.v4.new_code_cell(**s)
             for s in sources]
    cells.append(nbformat.v4.new_code_cell("glue('p', p)", outputs=[nbformat.from_dict(GLUE), *outputs]))
    return nbformat.v4.new_notebook(cells=cells, metadata={"widgets": {"state": {"m": 1}}})


def markdown(*sources, docname="book/02_b"):
    learner = export_notebook(notebook(*sources), docname, BOOK)
    return [c.source for c in learner.cells if c.cell_type == "markdown"]


def test_roles_become_the_words_and_numbers_the_site_shows():
    [text] = markdown("先给{term}`词表`里的{term}`候选 <候选>`打分；见{numref}`ch1-ex-write`、"
                      "{numref}`fig-ch1-nll`和{numref}`表 %s <tab-ch1>`；{ref}`ch1-ex-bounds`；"
                      "{ref}`第 2 章的线性层 <ch2-linear>`就是这一步；"
                      "{ref}`上一章 <ch1>`；{ref}`ch1-shift`；{doc}`首页 </intro>`；{doc}`../intro`；{math}`x^2`；"
                      "`{term}` 不是角色。")
    assert text == ("先给词表里的候选打分；见练习 1.1、图 1.3和表 1.1；练习 1.2；第 2 章的线性层（§2.7）就是这一步；"
                    "上一章（第 1 章）；整体平移（§1.2）；首页；首页；$x^2$；`{term}` 不是角色。")


def test_a_number_right_before_a_closing_parenthesis_follows_a_comma():
    [text] = markdown("（见{ref}`“整体平移”一节 <ch1-shift>`）和（{ref}`附录 <app-x>`里的）")
    assert text == "（见“整体平移”一节，§1.2）和（附录（§A.2）里的）"


def test_glued_values_are_the_stored_outputs_formatted_as_the_site_formats_them():
    [text] = markdown("约为 {glue:text}`p:.4f`、{glue:text}`p:.1%`、{glue}`p`、{glue:md}`p:myst`。")
    assert text == "约为 0.6652、66.5%、0.6652409557748219、$1.2$。"
    with pytest.raises(ExportError, match=r"第 1 个单元格.*'q' 不在这个笔记本存好的输出里"):
        markdown("{glue:text}`q:.2f`")


def test_headings_are_numbered_as_on_the_site_and_labels_disappear():
    texts = markdown("(ch1)=\n# 标题", "(ch1-a)=\n## 一节 $z$\n\n正文", "## 整体平移", docname="book/01_a")
    assert texts == ["# 第 1 章　标题", "## 1.1 一节 $z$\n\n正文", "## 1.2 整体平移"]
    with pytest.raises(ExportError, match="第 2 个单元格：标题“别的”与网站上对应的一节“一节 \\$z\\$”不一致"):
        markdown("# 标题", "## 别的", "## 整体平移", docname="book/01_a")
    with pytest.raises(ExportError, match="网站上的一节“整体平移”在笔记本里没有对应的标题"):
        markdown("# 标题", "## 一节 $z$", docname="book/01_a")


def test_exercises_solutions_and_deep_boxes_keep_their_numbered_titles():
    texts = markdown(
        "```{exercise-start} 你来写：$x$\n:label: ch1-ex-write\n:class: needs-computer\n```\n\n补全 `f`。",
        {"source": "def f(x): ..."},
        "```{exercise-end}\n```",
        "```{solution-start} ch1-ex-write\n:class: dropdown\n```\n\n先减最大值：",
        {"source": "f(1)", "metadata": {"jupyter": {"source_hidden": True}}},
        "```{solution-end}\n```",
        ":::{exercise} 上下界\n:label: ch1-ex-bounds\n:class: by-hand\n\n证明 $a \\le b$。\n:::\n\n"
        "```{solution-start} ch1-ex-bounds\n```",
        "看代码。\n```{solution-end}\n```",
        "正文。\n\n:::{deep-start} 边界 $x$\n:::",
        "深入的正文。",
        ":::{deep-end}\n:::\n\n接着读。")
    assert texts == [
        "> **练习 1.1（你来写：$x$）**【需要电脑】\n>\n> 补全 `f`。",
        "<details>\n<summary><strong>解答：练习 1.1（你来写：$x$）</strong></summary>\n\n先减最大值：\n\n</details>",
        "> **练习 1.2（上下界）**【纸笔】\n>\n> 证明 $a \\le b$。\n\n> **解答：练习 1.2（上下界）**",
        "看代码。",
        "正文。\n\n> **深入：边界 $x$**\n>\n> 第一遍可以跳过，从下面的“深入结束”处接着读。",
        "深入的正文。",
        "> **深入结束**（边界 $x$）\n\n接着读。"]


def test_the_chapter_question_is_a_headed_note_under_the_title():
    title, *_ = markdown("(ch1-x)=\n# 标题\n\n:::{chapter-question}\n分数怎样变成{term}`概率`？\n:::",
                         "## 一节 $z$", "## 整体平移", docname="book/01_a")
    assert title == "# 第 1 章　标题\n\n> **本章回答**\n>\n> 分数怎样变成概率？"


def test_an_answer_fold_is_a_note_over_cells_that_stay_closed_everywhere():
    """JupyterLab keeps the fold's cells closed by their metadata; GitHub and VS Code ignore it, so its words fold."""
    nb = notebook("先自己算。\n\n:::{answer-start}\n:::", "答案是 $\\tfrac{4}{7}$。",
                  ":::{answer-end}\n:::\n\n接着讲。", ":::{answer-start} 看 `labcode` 的写法\n:::",
                  ":::{answer-end}\n:::")
    nb.cells[1].metadata["jupyter"] = {"source_hidden": True}
    learner = export_notebook(nb, "book/02_b", BOOK)
    texts = [(c.source, c.metadata.get("jupyter")) for c in learner.cells if c.cell_type == "markdown"]
    how = "先自己做一遍，再点开（点单元格左边的竖条，或点 ⋯）。"
    assert texts == [
        (f"先自己算。\n\n> **看答案**\n>\n> 下面收起的单元格是答案：{how}", None),
        ("<details>\n<summary><strong>看答案</strong></summary>\n\n答案是 $\\tfrac{4}{7}$。\n\n</details>",
         {"source_hidden": True}),
        ("> **答案到此为止**\n\n接着讲。", None),
        (f"> **看 `labcode` 的写法**\n>\n> 下面收起的单元格是 `labcode` 的写法：{how}", None),
        ("> **`labcode` 的写法到此为止**", None)]


def test_admonitions_tables_and_the_contents_become_plain_markdown():
    [admonition, note, table, listed, contents] = markdown(
        ":::{admonition} 常见错误\n:class: warning\n\n第一段\n\n$$a =\nb$$\n:::",
        "```{note}\n小心。\n```",
        ":::{table} 六种错误\n:name: tab-ch1\n:widths: 50 50\n\n| 写法 | 改法 |\n|---|---|\n| `a` | {term}`b` |\n:::",
        "```{list-table} 对照\n:header-rows: 1\n:name: tab-ch1\n\n* -\n  - 计数\n* - 历史\n  - 前一个\n    字\n```",
        "```{tableofcontents}\n```")
    assert admonition == "> **常见错误**\n>\n> 第一段\n>\n> $$a = b$$"
    assert note == "> **备注**\n>\n> 小心。"
    assert table == "**表 1.1**　六种错误\n\n| 写法 | 改法 |\n|---|---|\n| `a` | b |"
    assert listed == "**表 1.1**　对照\n\n|  | 计数 |\n|---|---|\n| 历史 | 前一个 字 |"
    assert contents == ("- [第 1 章　标题](01_a.ipynb)\n- [附录 A　符号](appendix.ipynb)\n"
                        "- 附录 B　术语表（在网站上）")


def test_code_cells_outputs_and_metadata_stay_and_a_figure_gets_its_caption():
    figure = {"source": "plot()", "execution_count": 3, "metadata": {"tags": ["remove-input"], "mystnb": {
        "figure": {"name": "fig-ch1-nll", "caption": "损失随 $p_y$ 变化（{term}`损失`）"}}},
        "outputs": [{"output_type": "display_data", "data": {"image/png": "iVBOR"}, "metadata": {}}]}
    hidden = nbformat.v4.new_markdown_cell("(x)=\n解答的话", metadata={"jupyter": {"source_hidden": True}})
    source = notebook("前", figure, "后")
    source.cells.insert(1, hidden)
    learner = export_notebook(source, "book/02_b", BOOK)
    code = [c for c in source.cells if c.cell_type == "code"]
    assert [c for c in learner.cells if c.cell_type == "code"] == code
    assert learner.metadata == source.metadata
    kinds = [(c.cell_type, c.source) for c in learner.cells]
    caption = ("markdown", "**图 1.3**　损失随 $p_y$ 变化（损失）")
    assert kinds.index(caption) == kinds.index(("code", "plot()")) + 1
    assert learner.cells[kinds.index(caption)].id == f"{code[0].id}-caption"
    [kept] = [c for c in learner.cells if "解答的话" in c.source]   # closed in JupyterLab, folded elsewhere
    assert kept.source == "<details>\n<summary><strong>看答案</strong></summary>\n\n解答的话\n\n</details>"
    assert kept.metadata == {"jupyter": {"source_hidden": True}} and kept.id == hidden.id
    assert source.cells[1].source == "(x)=\n解答的话"   # the export works on a copy


@pytest.mark.parametrize("cell, message", [
    (":::{quiz-start}\n:::", r"第 1 个单元格：学习者的笔记本还不认识指令 \{quiz-start\}.*DIRECTIVES"),
    ("见{eq}`e1`", r"还不认识角色 \{eq\}.*ROLES"),
    ("见{ref}`ch9-nowhere`", r"引用的标签 'ch9-nowhere' 在网站上不存在"),
    ("```{exercise-start} 题\n:label: ch1-ex-write\n```", r"\{exercise-start\}“练习 1.1（题）”一直没有结束"),
    ("```{exercise} 无标签\n正文\n```", r"没有 :label:"),
    ("::: 注意\n:::", r"不是 MyST 指令"),
    ("{{ name }}", r"还剩 MyST 标记（a substitution）"),
])
def test_markup_without_a_rule_stops_the_export_and_names_the_cell(cell, message):
    with pytest.raises(ExportError, match=message):
        markdown(cell)


# --- the built site --------------------------------------------------------------------------------------------

def commonmark(nb) -> str:
    """The notebook's Markdown cells as a CommonMark-only renderer shows them (GitHub, VS Code): one HTML string."""
    md = MarkdownIt("commonmark")
    return "\n".join(md.render(c.source) for c in nb.cells if c.cell_type == "markdown")


@pytest.fixture(scope="module")
def learner(built_site):
    """{notebook name: (the repository's notebook, the learner's copy the site serves, the page)}."""
    found = {}
    for path in NOTEBOOKS:
        docname = path.relative_to(ROOT).with_suffix("").as_posix()
        served = built_site / "_sources" / path.relative_to(ROOT)
        found[path.name] = (nbformat.read(path, as_version=4), nbformat.read(served, as_version=4),
                            built_site / f"{docname}.html")
    return found


def test_the_zip_holds_the_notebooks_the_pages_link(built_site):
    with zipfile.ZipFile(built_site / "kit" / learner_kit.ZIP_NAME) as archive:
        for path in NOTEBOOKS:
            served = built_site / "_sources" / path.relative_to(ROOT)
            assert archive.read(f"{learner_kit.ZIP_FOLDER}/{path.name}") == served.read_bytes(), path.name


def test_the_learner_runs_what_nbval_checks(learner):
    """nbval runs the repository's notebooks (and only their code cells matter to it): the learner's copy has
    the same code cells, in the same order, with the same outputs, and the same widget state."""
    for name, (source, served, _) in learner.items():
        assert [c for c in served.cells if c.cell_type == "code"] == [c for c in source.cells if c.cell_type == "code"]
        assert served.metadata == source.metadata, name
        kept = {c.id: c.metadata for c in served.cells if c.cell_type == "markdown"}
        assert all(kept[c.id] == c.metadata for c in source.cells if c.id in kept), name


def test_commonmark_alone_shows_no_myst(learner):
    for name, (_, served, _) in learner.items():
        assert raw_myst(commonmark(served)) == [], name


def site_headings(page: BeautifulSoup) -> list[str]:
    """The page's headings as the learner's copy writes them: “第 1 章　标题”, “1.3 标题”."""
    found = []
    for heading in page.select("section > h1, section > h2, section > h3, section > h4"):
        number = heading.select_one(".section-number")
        number = number.extract().get_text().strip().rstrip(".") if number else ""
        title = words(heading)
        if number and heading.name == "h1":
            found.append(f"{book_layout.label(number)}{book_layout.printed_title(title)}")
        else:
            found.append(f"{number}{title}")
    return found


def in_order(needles: list[str], haystack: str) -> list[str]:
    """The needles not found in order in the haystack."""
    missing, at = [], 0
    for needle in needles:
        found = haystack.find(needle, at)
        if found < 0:
            missing.append(needle)
        else:
            at = found + len(needle)
    return missing


def test_a_notebook_says_what_its_page_says(learner):
    for name, (_, served, page_path) in learner.items():
        page = BeautifulSoup(page_path.read_text(encoding="utf-8"), "html.parser")
        rendered = BeautifulSoup(commonmark(served), "html.parser")
        exercises = exercise_titles(page)
        glued = [re.sub(r"\s+", "", t.get_text()) for t in page.select("span.pasted-text")]   # (no maths in these)
        numbered = [re.sub(r"\s+", "", t.get_text()) for t in page.select("span.std-numref")]
        headings = [words(h) for h in rendered.select("h1, h2, h3, h4")]
        assert headings == [words(h) for h in site_headings(page)], name
        bold = headed_by(rendered)
        text = words(rendered)
        assert name == "intro.ipynb" or exercises, name
        assert in_order(exercises, text) == [], f"{name}: exercise titles"
        assert set(exercises) <= bold, f"{name}: an exercise without its title"
        marks = exercise_marks_shown(page)
        marked = [f"{title}【{mark}】" for title, mark in zip(exercises, marks, strict=True)]
        assert in_order(marked, text) == [], f"{name}: an exercise without its mark (纸笔 or 需要电脑)"
        assert in_order(glued, text) == [], f"{name}: glued numbers"
        assert in_order(numbered, text) == [], f"{name}: numbered references"


def test_the_course_map_is_a_picture_in_every_notebook(learner):
    shown = 0
    for name, (_, served, _) in learner.items():
        for cell in (c for c in served.cells if c.cell_type == "code" and "course_map(" in c.source):
            [output] = cell.outputs
            assert "image/png" in output.data and "text/html" not in output.data, name
            shown += 1
    assert shown >= len(labcode.overview.STAGES) + 1   # the home page's whole map and each chapter's stage
