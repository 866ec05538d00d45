"""_ext/deep_boxes.py on a small project of its own (a notebook with a box around markdown and code cells, and a
glossary), built in this process for HTML and LaTeX: a few seconds, no site build."""
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from mini_project import PNG, code, conf, md, notebook
from mini_project import build as build_project

ROOT = Path(__file__).resolve().parents[1]
CONF = conf("deep_boxes")
NOTEBOOK = notebook([
    md("# 一章\n\n(sec-outside)=\n## 主线\n\n主线引用{numref}`fig-inside`，也引用{ref}`框里的图 <fig-inside>`。"),
    md(":::{deep-start} 浮点数的 $\\varepsilon$\n:::\n\n框里的段落，回到{ref}`主线一节 <sec-outside>`，"
       "用到{term}`候选`。"),
    code("plot()", [{"output_type": "display_data", "metadata": {}, "data": {"image/png": PNG,
                                                                              "text/plain": "<Figure>"}}],
         {"mystnb": {"figure": {"name": "fig-inside", "caption": "框里的图"}, "image": {"alt": "一个点"}}}),
    code("print(1 + 1)", [{"output_type": "stream", "name": "stdout", "text": "2\n"}]),
    md(":::{deep-end}\n:::\n\n框后的段落。"),
])
GLOSSARY = "# 术语表\n\n```{glossary}\n候选\n  模型打分的对象。\n```\n"
INDEX = "# 书\n\n```{toctree}\nchapter\nglossary\n```\n"


def build(src: Path, builder: str, files: dict, fresh: bool = True) -> tuple[Path, str]:
    return build_project(src, builder, files, CONF, fresh)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    src = tmp_path_factory.mktemp("deep") / "src"
    files = {"index.md": INDEX, "chapter.ipynb": json.dumps(NOTEBOOK, ensure_ascii=False), "glossary.md": GLOSSARY}
    html, html_warnings = build(src, "html", files)
    latex, latex_warnings = build(src, "latex", files, fresh=False)  # reads the doctrees of the first build
    return html, latex, html_warnings + latex_warnings


def test_builds_without_warnings(project):
    assert project[2] == ""


def test_site_folds_the_cells_under_a_closed_details(project):
    soup = BeautifulSoup((project[0] / "chapter.html").read_text(encoding="utf-8"), "html.parser")
    boxes = soup.select("details.lc-deep")
    assert len(boxes) == 1
    box = boxes[0]
    assert not box.has_attr("open")
    summary = box.find("summary")
    assert summary is box.find(True) and summary.get_text().startswith("深入：浮点数的")
    body = box.select_one("div.lc-deep-body")
    assert "框里的段落" in body.get_text() and body.find("img") is not None
    assert [pre.get_text() for pre in body.select("pre")] == ["plot()\n", "print(1 + 1)\n", "2\n"]
    assert "框后的段落" not in box.get_text() and "主线引用" not in box.get_text()


def test_references_into_and_out_of_the_box_resolve(project):
    soup = BeautifulSoup((project[0] / "chapter.html").read_text(encoding="utf-8"), "html.parser")
    box = soup.select_one("details.lc-deep")
    figure = box.select_one("figure#fig-inside")
    assert figure is not None and "图 1" in figure.select_one(".caption-number").text
    into = [a for a in soup.select('a[href="#fig-inside"]') if box not in a.parents]
    assert len(into) == 2 and "图 1" in into[0].get_text()
    out = box.select_one('a[href="#sec-outside"]')
    assert out is not None and out.get_text() == "主线一节"
    term = box.select_one('a[href^="glossary.html#term"]')
    assert term is not None and term.get_text() == "候选"


def test_the_box_style_is_loaded_only_where_a_box_is(project):
    html = project[0]
    assert "deep.css" in (html / "chapter.html").read_text(encoding="utf-8")
    assert "deep.css" not in (html / "index.html").read_text(encoding="utf-8")
    assert (html / "_static" / "deep.css").is_file()


def test_the_handout_frames_the_cells_with_the_figure_in_place(project):
    tex = next(project[1].glob("*.tex")).read_text(encoding="utf-8")
    box = re.search(r"\\begin\{handoutdeep\}\{(.*?)\}\n(.*?)\\end\{handoutdeep\}", tex, flags=re.S)
    assert box is not None
    title, body = box.groups()
    assert title.startswith("浮点数的") and "varepsilon" in title
    assert "框里的段落" in body and "\\begin{figure}[H]" in body and "sphinxVerbatim" in body
    assert "框后的段落" not in body
    assert "\\newenvironment{handoutdeep}" in (ROOT / "latex" / "handout.sty").read_text(encoding="utf-8")


BROKEN = {
    "no_end.md": "# 甲\n\n:::{deep-start} 没有结尾\n:::\n\n段落。\n\n## 新的一节\n\n:::{deep-end}\n:::\n",
    "nested.md": "# 乙\n\n:::{deep-start} 外层\n:::\n\n:::{deep-start} 内层\n:::\n\n:::{deep-end}\n:::\n",
    "stray_end.md": "# 丙\n\n段落。\n\n:::{deep-end}\n:::\n",
}


def test_unmatched_markers_are_reported(tmp_path):
    files = {"index.md": "# 书\n\n```{toctree}\nno_end\nnested\nstray_end\n```\n", **BROKEN}
    _, warnings = build(tmp_path / "src", "html", files)
    assert re.search(r"no_end\.md:\d+: WARNING: deep-start “没有结尾” has no deep-end after it in the same section",
                     warnings)
    assert "deep-start “外层” has another deep-start before it" in warnings
    assert re.search(r"stray_end\.md:\d+: WARNING: deep-end without a deep-start", warnings)
    assert re.search(r"no_end\.md:\d+: WARNING: deep-end without a deep-start", warnings)  # after the heading
