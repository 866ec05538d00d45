"""Sphinx extension: the course map on the site, the same picture the notebooks and the handouts show.

A chapter shows its stage of the map with a code cell ending in ``labcode.course_map("stage")`` (a literal stage,
or nothing for the whole map). In a notebook its output is a PNG, and a PDF for the handouts
(labcode/overview.py draws both). On the site that output becomes the same drawing as two inline SVGs, wide and
narrow, in the page's text colour (``CourseMap.html()``): the call is read with ``ast`` and never run, as the answer
boxes are (_ext/answer_box). A call the build cannot read stops it, naming the notebook and the cell.
"""
from __future__ import annotations

import ast

import nbformat
from docutils import nodes
from sphinx.errors import SphinxError
from sphinx.transforms import SphinxTransform

from labcode.overview import CourseMap

CALL = "course_map"


class CourseMapError(SphinxError):
    category = "course-map"


def map_call(source: str) -> ast.Call | None:
    """The ``course_map(…)`` call that ends the cell, or None when the cell does not end with one."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return None   # IPython syntax (magics): not a map cell
    last = body[-1].value if body and isinstance(body[-1], ast.Expr) else None
    if isinstance(last, ast.Call) and ast.unparse(last.func).rsplit(".", 1)[-1] == CALL:
        return last
    return None


def stage(call: ast.Call):
    """The stage the call names: one literal argument, or none (the whole map)."""
    if call.keywords or len(call.args) > 1:
        raise ValueError(f"{CALL} 只接受一个直接写出的 stage，如 {CALL}(\"softmax\")，收到 {ast.unparse(call)}")
    try:
        return ast.literal_eval(call.args[0]) if call.args else None
    except ValueError:
        raise ValueError(f"stage 只能直接写字符串（不能用变量），收到 {ast.unparse(call)}") from None


class MapsAsSvg(SphinxTransform):
    """The stored output of a map cell becomes the map's inline SVGs, on the site only."""
    default_priority = 500

    def apply(self):
        if self.app.builder.format != "html":
            return
        cells = [c for c in self.document.findall(nodes.container) if c.get("nb_element") == "cell_code"]
        if not cells:
            return
        notebook = nbformat.read(self.document["source"], as_version=4)   # (an input may be removed from the page)
        for cell in cells:
            source = notebook.cells[cell["cell_index"]].source
            call = map_call(source) if CALL in source else None
            if call is None:
                continue
            where = f"{self.env.doc2path(self.env.docname, False)}，第 {cell['cell_index'] + 1} 个单元格"
            try:
                page_map = CourseMap(stage(call)).html()
            except ValueError as err:
                raise CourseMapError(f"{where}：{err}") from None
            bundle = next((n for n in cell.findall(nodes.container) if n.get("nb_element") == "mime_bundle"), None)
            if bundle is None:
                raise CourseMapError(f"{where}：课程全图的单元格没有存好的输出（先运行 make execute）")
            bundle.replace_self(nodes.raw("", page_map, format="html", classes=["output", "text_html"]))


def setup(app):
    app.add_transform(MapsAsSvg)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
