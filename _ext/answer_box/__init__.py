"""Sphinx extension: answer boxes (动手算), where the reader checks a hand computation on the page.

A chapter writes a box as a code cell tagged ``answer-box`` whose source is one call with literal arguments::

    labcode.practice.answer_box("gradient", label="ch2-ab-gradient", z="[ln(2), 0, -ln(2)]", y=1)

In a running notebook the call returns the box as a widget (labcode/widgets/answer_box.py). Here the call is read
with ``ast`` (_ext/box_cells.py), never run, and the cell becomes an ``answer_box`` node whose problem (kind, the
book's numbers, the answer computed with labcode) comes from labcode.practice.problems. On the site the box's HTML
is written by the box's own module, ``markup`` of labcode/widgets/answer_box.js, run in Node while the site is built
(web/render_boxes.mjs), and the page's script (the same module bundled as a classic script, only on pages with a
box) sets it up; the widget state of the cell is left out of the page. In a PDF handout the box is a blank to fill
in; the answer key (``handout_mode = "answers"``, latex/handout_filter.py) prints the answer.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.errors import SphinxError
from sphinx.transforms import SphinxTransform

import book_layout
import node_json
import site_files
from box_cells import TAG, read_call
from box_latex import answer_text, to_latex
from labcode.practice.problems import TITLE, box_problem

ROOT = Path(__file__).resolve().parents[2]
WIDGETS = ROOT / "labcode" / "widgets"   # the box's module and style; its bundles (`make assets`) in static/
STATIC = WIDGETS / "static"
SCRIPT, STYLE = "answer-box.js", "answer-box.css"
RENDERER = ROOT / "web" / "render_boxes.mjs"
MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


class answer_box(nodes.General, nodes.Element):
    """One box: attributes ``label``, ``problem`` (labcode.practice.problems.Problem) and ``html`` (its markup on
    the site)."""


class answer_box_section(nodes.Inline, nodes.TextElement):
    """A copy of the title of the section the box sits in: the answer key, which prints the box without its
    section, names it (“见‘梯度下降的一步’一节”); the site and the student handout leave it out."""


class AnswerBoxError(SphinxError):
    category = "answer-box"


def _widget_models(cell) -> set[str]:
    """The model ids of the widgets the cell's outputs show."""
    from myst_nb.core.render import WIDGET_VIEW_MIMETYPE  # here: myst-nb takes seconds to import, a build has it

    views = (node for node in cell.findall(nodes.container) if node.get("mime_type") == WIDGET_VIEW_MIMETYPE)
    return {m for view in views for m in re.findall(r'"model_id": "([0-9a-f]{32})"', view.astext())}


def _drop_models(env, docname, dropped: set[str]) -> None:
    """Leave the boxes' widget models (and the models only they refer to) out of the page's embedded widget
    state: on the site the box is the page's own HTML and script, and its model would only add weight."""
    js_files = env.nb_metadata.get(docname, {}).get("js_files", {})
    if not dropped or "ipywidgets_state" not in js_files:
        return
    uri, attributes = js_files["ipywidgets_state"]
    state = json.loads(attributes["body"])
    models = state["state"]
    refs = lambda ids: set(MODEL_REF.findall(json.dumps([models[m] for m in ids if m in models])))  # noqa: E731
    dropped |= refs(dropped) - refs(set(models) - dropped)
    state["state"] = {m: model for m, model in models.items() if m not in dropped}
    if state["state"]:
        from myst_nb.core.render import sanitize_script_content
        js_files["ipywidgets_state"] = (uri, {**attributes, "body": sanitize_script_content(json.dumps(state))})
    else:  # no widget left: no state and no widget scripts
        for key in [k for k in js_files if k.startswith("ipywidgets_")]:
            del js_files[key]


class CellsToBoxes(SphinxTransform):
    """Each code cell tagged ``answer-box`` becomes an ``answer_box`` node (before the sections are named)."""
    default_priority = 500

    def apply(self):
        seen, models = set(), set()
        for cell in list(self.document.findall(nodes.container)):
            if cell.get("nb_element") != "cell_code" or TAG not in cell.get("cell_metadata", {}).get("tags", []):
                continue
            where = f"{self.env.doc2path(self.env.docname, False)}，第 {cell.get('cell_index', 0) + 1} 个单元格"
            source = next(cell.findall(nodes.literal_block)).astext()
            label = None
            try:
                kind, label, options = read_call(source)
                found = box_problem(kind, label, options)
            except ValueError as err:
                raise AnswerBoxError(f"{where}（answer-box {label or '?'}）：{err}") from None
            if label in seen:
                raise AnswerBoxError(f"{where}：answer-box 的 label 在一页里不能重复，{label!r} 已经用过")
            seen.add(label)
            models |= _widget_models(cell)
            box = answer_box(label=label, problem=found, classes=["answer-box"])
            box.source, box.line = cell.source, cell.line
            cell.replace_self(box)
        boxes = list(self.document.findall(answer_box))
        scope = book_layout.scope(self.document.next_node(nodes.title))
        for box, markup in zip(boxes, _render([({**b["problem"].spec(), "scope": scope}, b["label"]) for b in boxes]),
                               strict=True):
            box["html"] = markup
        _drop_models(self.env, self.env.docname, models)


def _render(boxes: list[tuple[dict, str]]) -> list[str]:
    """The HTML of each (spec, id), written by the box's own module in Node (web/render_boxes.mjs)."""
    if not boxes:
        return []
    return node_json.run(RENDERER, boxes, needs=STATIC / "answer_box.mjs", error=AnswerBoxError, missing=(
        "答题框的 HTML 在构建时由 Node.js 写出：找不到 node 或 labcode/widgets/static/answer_box.mjs，请先运行 "
        "`make assets`。Answer boxes are rendered by Node.js at build time: node or the widget bundles are missing; "
        "run `make assets`."))


def _name_sections(app, doctree):
    """Give each box a copy of its section's title (answer_box_section), while the box still sits in it."""
    for box in doctree.findall(answer_box):
        section = box.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        if section is not None and section.children and isinstance(section[0], nodes.title):
            box.insert(0, answer_box_section("", "", *(child.deepcopy() for child in section[0].children),
                                             docname=app.env.docname, anchor="#" + section["ids"][0]))


# --- the site ---------------------------------------------------------------------------------------------

def visit_html(self, node):
    self.body.append(node["html"])
    raise nodes.SkipNode


def skip(self, node):
    raise nodes.SkipNode


def _write_assets(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(STATIC / "answer_box.page.js", static / SCRIPT)
    (static / STYLE).write_text((WIDGETS / "answer_box.css").read_text(encoding="utf-8"), encoding="utf-8")


# --- the handouts -----------------------------------------------------------------------------------------

def _answer_key(translator) -> bool:
    return getattr(translator.builder.config, "handout_mode", "") == "answers"


def visit_latex(self, node):
    self.body.append(f"\n\\par\\medskip\\noindent\\begin{{minipage}}{{\\linewidth}}\\textbf{{{TITLE}}}")
    if not (_answer_key(self) and node.next_node(answer_box_section) is not None):
        self.body.append("\\quad ")


def visit_section_latex(self, node):
    if not _answer_key(self):
        raise nodes.SkipNode
    self.body.append("（见“")


def depart_section_latex(self, node):
    """The section's number too, as every section reference of the handouts carries it (§2.3)."""
    number = self.builder.env.toc_secnumbers.get(node.get("docname"), {}).get(node.get("anchor"), ())
    self.body.append("”一节" + (f"，§{'.'.join(map(str, number))}" if number else "") + "）\\quad ")


def depart_latex(self, node):
    found = node["problem"]
    if _answer_key(self):
        tail = f"答案：{to_latex('$' + answer_text(found.answer, found.exact) + '$')}"
    else:  # a ruled box to write in, with the answer's name in its corner
        tail = ("\\fbox{\\parbox[t][2.6em][t]{\\dimexpr\\linewidth-2\\fboxsep-2\\fboxrule\\relax}"
                f"{{\\small {to_latex(found.label())}：}}}}")
    self.body.append(f"\\par\\noindent {to_latex(found.question())}\\par\\smallskip\\noindent {tail}"
                     "\\end{minipage}\\par\\medskip\n")


def setup(app):
    app.add_node(answer_box, html=(visit_html, None), latex=(visit_latex, depart_latex))
    app.add_node(answer_box_section, html=(skip, None), latex=(visit_section_latex, depart_section_latex))
    app.add_transform(CellsToBoxes)
    app.connect("doctree-read", _name_sections)
    site_files.assets_where(app, answer_box, css=STYLE, js=SCRIPT)
    app.connect("build-finished", _write_assets)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
