"""The print steps of latex/handout_filter.py on small doctrees (no Sphinx build, no TeX)."""
from __future__ import annotations

import sys
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "latex"))
import handout_filter  # noqa: E402


def _latex(node) -> list[str]:
    return [n.astext() for n in node.findall(nodes.raw)]


def test_long_inline_code_is_cut_where_a_line_may_break_and_short_code_is_whole():
    paragraph = nodes.paragraph()
    paragraph += nodes.Text("补全 ")
    paragraph += nodes.literal("", "my_f(ids, dH, n_rows)")
    paragraph += nodes.Text("，不用 ")
    paragraph += nodes.literal("", "np.exp")
    paragraph += nodes.literal("", "lr = 0.5, steps")
    doc = nodes.document(None, None)
    doc += paragraph
    handout_filter.breakable_code(None, doc, "page")
    pieces = [n.astext() for n in paragraph.findall(nodes.literal)]
    assert pieces == ["my_", "f(", "ids, ", "dH, ", "n_", "rows)", "np.exp", "lr = 0.5, ", "steps"]
    assert _latex(paragraph) == ["\\handoutcodejoin{1000}", "\\handoutcodejoin{50}", "\\handoutcodejoin{0}",
                                 "\\handoutcodejoin{0}", "\\handoutcodejoin{1000}", "\\handoutcodejoin{0}"]
    assert paragraph.astext().replace("\\handoutcodejoin", "").count("0.5") == 1


def test_a_figure_number_keeps_its_space_before_chinese():
    paragraph = nodes.paragraph()
    paragraph += addnodes.number_reference("", "图 3.1", refid="fig")
    paragraph += nodes.Text(" 把这件事画了出来")
    doc = nodes.document(None, None)
    doc += paragraph
    handout_filter.print_spacing(None, doc, "page")
    assert isinstance(paragraph[1], nodes.raw) and paragraph[1].astext() == "\\hspace{0.25em}"
    assert paragraph[2].astext() == "把这件事画了出来"


def _cell_output(text: str) -> nodes.container:
    output = nodes.container(classes=["cell_output"])
    output += nodes.literal_block(text, text)
    return output


def test_the_answer_key_drops_the_not_written_reports_only():
    exercise = nodes.section()
    exercise += _cell_output("check_softmax：还没写\n  函数抛出了 NotImplementedError……")
    exercise += _cell_output("check_softmax：通过（全部 9 组）")
    doc = nodes.document(None, None)
    doc += exercise
    handout_filter.drop_not_written_reports(doc)
    assert [n.astext() for n in doc.findall(nodes.literal_block)] == ["check_softmax：通过（全部 9 组）"]


def test_right_aligned_columns_stay_right_aligned():
    row = nodes.row()
    row += nodes.entry("", nodes.paragraph(text="字"))
    row += nodes.entry("", nodes.paragraph(text="89"), classes=["text-right"])
    doc = nodes.document(None, None)
    doc += row
    handout_filter.aligned_table_cells(None, doc, "page")
    assert _latex(row) == ["\\raggedleft\\arraybackslash\n"]
    assert isinstance(row[1][0], nodes.raw)


def test_end_of_chapter_exercises_get_room_to_write():
    from sphinx_exercise.nodes import exercise_enumerable_node
    chapter, body, exercises = nodes.section(), nodes.section(), nodes.section()
    body += nodes.title(text="正文")
    body += exercise_enumerable_node()
    exercises += nodes.title(text="练习")
    exercises += exercise_enumerable_node()
    exercises += exercise_enumerable_node()
    chapter += [body, exercises]
    doc = nodes.document(None, None)
    doc += chapter
    handout_filter.writing_space_after_exercises(doc)
    assert _latex(body) == [] and _latex(exercises) == ["\\handoutwritingspace\n"] * 2
    assert [type(n).__name__ for n in exercises.children[1:]] == ["exercise_enumerable_node", "raw"] * 2
