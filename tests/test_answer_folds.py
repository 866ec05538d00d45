"""Answer folds (_ext/answer_folds.py): an answer stays closed until the reader asks for it.

On a small project of its own, built in this process (a few seconds, no site build): the site's closed <details>,
the student handout that leaves the fold out and the answer key that prints it. On the book's notebooks: the
fold markers sit where JupyterLab can hide the fold, the cells inside are hidden (scripts/hidden_cells.py), and
every answer box is followed by its fold.
"""
import json
import re

import pytest
from bs4 import BeautifulSoup

import hidden_cells
from mini_project import PNG, build, code, conf, md, notebook
from notebook_outputs import BOOK, load

NOTEBOOKS = [path.name for path in sorted(BOOK.glob("*.ipynb"))]
CHAPTER = notebook([
    md("# 一章\n\n(sec-main)=\n## 主线\n\n先自己算，再打开答案。"),
    md(":::{answer-start}\n:::"),
    md("答案是 $\\tfrac47$，见{ref}`主线一节 <sec-main>`。"),
    code("plot()", [{"output_type": "display_data", "metadata": {}, "data": {"image/png": PNG,
                                                                              "text/plain": "<Figure>"}}],
         {"mystnb": {"figure": {"name": "fig-answer", "caption": "答案的图"}, "image": {"alt": "一个点"}}}),
    code("print(4 / 7)", [{"output_type": "stream", "name": "stdout", "text": "0.5714285714285714\n"}]),
    md(":::{answer-end}\n:::"),
    md("折叠之后的正文引用{numref}`fig-answer`。\n\n:::{answer-start} 看 `labcode` 的写法\n:::"),
    code("print(source)", [{"output_type": "stream", "name": "stdout", "text": "def _kernel(z):\n"}]),
    md(":::{answer-end}\n:::\n\n最后一段。"),
])
INDEX = "# 书\n\n```{toctree}\nchapter\n```\n"
FILES = {"index.md": INDEX, "chapter.ipynb": json.dumps(CHAPTER, ensure_ascii=False)}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The site, the student handout and the answer key of the small project, and the warnings of the builds."""
    root = tmp_path_factory.mktemp("folds")
    html, warnings = build(root / "site", "html", FILES, conf("answer_folds"))
    built = {"html": html}
    for mode in ("student", "answers"):
        # The chapter is a LaTeX document of its own, as each handout is (scripts/build_pdf.py).
        settings = f"handout_mode = {mode!r}\nlatex_documents = [('chapter', 'chapter.tex', '一章', '', 'manual')]\n"
        latex, more = build(root / mode, "latex", FILES, conf("answer_folds", "handout_filter", extra=settings))
        built[mode] = (latex / "chapter.tex").read_text(encoding="utf-8")
        warnings += more
    return built, warnings


def test_builds_without_warnings(project):
    assert project[1] == ""


def test_site_closes_each_fold_under_its_title(project):
    soup = BeautifulSoup((project[0]["html"] / "chapter.html").read_text(encoding="utf-8"), "html.parser")
    folds = soup.select("details.answer-fold")
    assert len(folds) == 2 and not any(fold.has_attr("open") for fold in folds)
    titles = [fold.find(True) for fold in folds]
    assert [t.name for t in titles] == ["summary", "summary"]
    assert titles[0].get_text() == "看答案" and titles[1].get_text() == "看 labcode 的写法"
    body = folds[0].select_one("div.lc-answer-body")
    assert "答案是" in body.get_text() and body.select_one("figure#fig-answer img") is not None
    assert [pre.get_text() for pre in body.select("pre")] == ["plot()\n", "print(4 / 7)\n", "0.5714285714285714\n"]
    assert "def _kernel" in folds[1].get_text() and "最后一段" not in folds[1].get_text()
    after = [p for p in soup.select("p") if "折叠之后的正文" in p.get_text()]
    assert after and not any(fold in after[0].parents for fold in folds)
    assert after[0].select_one('a[href="#fig-answer"]').get_text().startswith("图 1")
    assert "answer.css" in (project[0]["html"] / "chapter.html").read_text(encoding="utf-8")
    assert "answer.css" not in (project[0]["html"] / "index.html").read_text(encoding="utf-8")


def test_the_student_handout_leaves_the_folds_out(project):
    student = project[0]["student"]
    assert "先自己算" in student and "折叠之后的正文" in student and "最后一段" in student
    for inside in ("答案是", "0.5714285714285714", "kernel", "handoutanswer", "fig-answer}"):
        assert inside not in student, f"the student handout prints {inside!r}"
    assert "图 1" in student, "a reference to a figure left out prints its number as text"


def test_the_answer_key_prints_each_fold_framed_under_its_title(project):
    key = project[0]["answers"]
    folds = re.findall(r"\\begin\{handoutanswer\}\{(.*?)\}\n(.*?)\\end\{handoutanswer\}", key, flags=re.S)
    assert [title for title, _ in folds] == ["答案", "\\sphinxcode{\\sphinxupquote{labcode}} 的写法"]
    assert "答案是" in folds[0][1] and "\\begin{figure}[H]" in folds[0][1] and "0.5714285714285714" in folds[0][1]
    assert "def \\PYGZus{}kernel(z):" in folds[1][1]
    assert "先自己算" not in key and "最后一段" not in key, "the key holds the folds, not the chapter's text"


BROKEN = {
    "no_end.md": "# 甲\n\n:::{answer-start}\n:::\n\n段落。\n\n## 新的一节\n\n:::{answer-end}\n:::\n",
    "nested.md": "# 乙\n\n:::{answer-start} 外层\n:::\n\n:::{answer-start} 内层\n:::\n\n:::{answer-end}\n:::\n",
}


def test_unmatched_markers_are_reported(tmp_path):
    files = {"index.md": "# 书\n\n```{toctree}\nno_end\nnested\n```\n", **BROKEN}
    _, warnings = build(tmp_path / "src", "html", files, conf("answer_folds"))
    assert re.search(r"no_end\.md:\d+: WARNING: answer-start “看答案” has no answer-end after it in the same section",
                     warnings)
    assert "answer-start “外层” has another answer-start before it" in warnings
    assert re.search(r"no_end\.md:\d+: WARNING: answer-end without an? answer-start", warnings)


def test_the_cells_between_markers_are_the_fold_and_make_execute_closes_them():
    cells = [md("正文。"), md("```{solution-start} ex-1\n:class: dropdown\n```"), md("解答的文字。"),
             code("print(1)", []), md("```{solution-end}\n```"), md("引导。\n\n:::{answer-start}\n:::"),
             code("print(2)", []), md(":::{answer-end}\n:::\n\n后面的正文。")]
    assert hidden_cells.folds(cells) == [(1, 4), (5, 7)] and hidden_cells.folded(cells) == [2, 3, 6]
    assert hidden_cells.misplaced_markers(cells) == []
    assert hidden_cells.hide_folds(cells) == 3 and hidden_cells.hide_folds(cells) == 0
    assert [hidden_cells.hidden(c) for c in cells] == [False, False, True, True, False, False, True, False]
    assert cells[3]["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
    assert cells[2]["metadata"]["jupyter"] == {"source_hidden": True}


def test_a_marker_sharing_its_cell_with_the_answer_is_named():
    cells = [md(":::{answer-start}\n:::\n\n答案是 4/7。"), md(":::{answer-end}\n:::"),
             md("```{solution-start} ex-1\n```\n\n解答。"), md("解答的最后一句。\n\n```{solution-end}\n```")]
    problems = hidden_cells.misplaced_markers(cells)
    assert len(problems) == 3 and [p.split(" ")[1] for p in problems] == ["0", "2", "3"], problems
    assert "after the start marker" in problems[0] and "before the end marker" in problems[2]


# --- the book's notebooks -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NOTEBOOKS)
def test_fold_markers_leave_no_answer_in_their_own_cells(name):
    """A start marker ends its markdown cell and an end marker starts one: JupyterLab hides whole cells, so text
    sharing a cell with a marker would stay open."""
    assert hidden_cells.misplaced_markers(load(name)["cells"]) == []


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_cells_of_folds_and_solutions_are_hidden_in_jupyterlab(name):
    """`make execute` gives them jupyter.source_hidden (and outputs_hidden): JupyterLab shows a closed cell."""
    cells = load(name)["cells"]
    open_cells = [f"{i} ({cells[i].get('id')})" for i in hidden_cells.folded(cells)
                  if not hidden_cells.hidden(cells[i])]
    assert open_cells == [], f"{name}: cells inside a fold that JupyterLab shows open"


def test_every_answer_box_is_followed_by_its_fold():
    """The box's own answer is worked right after it, behind 看答案."""
    for name in NOTEBOOKS:
        cells = load(name)["cells"]
        starts = {start for start, _ in hidden_cells.folds(cells)}
        for i, cell in enumerate(cells):
            if "answer-box" in cell["metadata"].get("tags", []):
                assert i + 1 in starts and ":::{answer-start}" in hidden_cells.source(cells[i + 1]), \
                    f"{name}: the cell after the box {cell.get('id')} does not open a fold"
