"""The print steps of latex/handout_filter.py on small doctrees (no Sphinx build, no TeX)."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

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
    paragraph += nodes.literal("", "labcode.practice.check_x")
    doc = nodes.document(None, None)
    doc += paragraph
    handout_filter.breakable_code(None, doc, "page")
    pieces = [n.astext() for n in paragraph.findall(nodes.literal)]
    assert pieces == ["my_", "f(", "ids, ", "dH, ", "n_", "rows)", "np.exp", "lr = 0.5, ", "steps",
                      "labcode.", "practice.", "check_", "x"]
    assert _latex(paragraph) == ["\\handoutcodejoin{1000}", "\\handoutcodejoin{50}", "\\handoutcodejoin{0}",
                                 "\\handoutcodejoin{0}", "\\handoutcodejoin{1000}", "\\handoutcodejoin{0}",
                                 "\\handoutcodejoin{500}",
                                 "\\handoutcodejoin{500}", "\\handoutcodejoin{1000}"]
    assert paragraph.astext().replace("\\handoutcodejoin", "").count("0.5") == 1


def test_a_call_breaks_between_its_own_arguments_rather_than_inside_a_nested_call():
    """“my_loss_and_grad(W, xs,⏎ys)” inside my_train(…) costs more than a break between my_train's arguments."""
    code = "my_train(lambda W: my_loss_and_grad(W, xs, ys), np.zeros((V, V)), 70.0, 3)"
    breaks = {code[:k]: penalty for k, penalty in handout_filter.code_breaks(code).items()}
    cheap = [c for c, penalty in breaks.items() if penalty == 0]
    assert [c[-10:] for c in cheap] == ["lambda W: ", " xs, ys), ", "((V, V)), ", ")), 70.0, "]
    assert breaks["my_train(lambda W: my_loss_and_grad(W, "] > 0 and breaks["my_train("] > 0
    assert list(handout_filter.code_breaks("f(W, xs, ys)")) == [2, 5, 9]


def test_a_figure_number_keeps_its_space_before_chinese():
    paragraph = nodes.paragraph()
    paragraph += addnodes.number_reference("", "图 3.1", refid="fig")
    paragraph += nodes.Text(" 把这件事画了出来")
    doc = nodes.document(None, None)
    doc += paragraph
    handout_filter.print_spacing(None, doc, "page")
    assert isinstance(paragraph[1], nodes.raw) and paragraph[1].astext() == "\\hspace{0.25em}"
    assert paragraph[2].astext() == "把这件事画了出来"


def test_maths_in_an_exercise_title_keeps_its_space_before_chinese():
    title = nodes.title("", "", nodes.Text("练习 4.5（挑选 "), nodes.math("", "\\alpha"), nodes.Text("：训练集）"))
    exercise = nodes.admonition()            # not a section: the title of an exercise loses the space too
    exercise += title
    doc = nodes.document(None, None)
    doc += exercise
    handout_filter.print_spacing(None, doc, "page")
    assert title[0].astext() == "练习 4.5（挑选" and isinstance(title[1], nodes.raw)
    assert "hspace" in title[1].astext() and isinstance(title[2], nodes.math)


def test_the_unknown_token_and_arrows_are_marked_in_text_but_not_in_code():
    paragraph = nodes.paragraph("", "", nodes.Text("记作“□”，□ 那一行；分数 → softmax"), nodes.literal("□ → ", "□ → "))
    doc = nodes.document(None, None)
    doc += paragraph
    handout_filter.print_marks(None, doc, "page")
    assert [type(n).__name__ for n in paragraph] == ["Text", "raw", "Text", "raw", "Text", "raw", "Text", "literal"]
    assert paragraph[1].astext() == "\\handoutunknown{}" and paragraph[2].astext() == "”，"
    assert paragraph[4].astext() == " 那一行；分数" and "{\\hspace{0.25em}→\\hspace{0.25em}}" in paragraph[5].astext()
    assert paragraph[6].astext() == "softmax" and paragraph[7].astext() == "□ → "


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


def _figure(caption=True):
    figure = nodes.figure()
    figure += nodes.image(uri="x.png")
    if caption:
        figure += nodes.caption(text="图")
    return figure


def _chapter_with_a_figure_in_a_fold():
    """A chapter: figure 1 inside an answer fold (site: 图 N.1), an exercise, then figure 2 (site: 图 N.2)."""
    from sphinx_exercise.nodes import exercise_enumerable_node
    chapter = nodes.section()
    chapter += nodes.title(text="第 N 章")
    fold = nodes.container(classes=[handout_filter.ANSWER_FOLD])
    fold += _figure()
    fold += _figure(caption=False)                  # no caption, no number (on the site and in LaTeX)
    chapter += fold
    chapter += exercise_enumerable_node()
    chapter += _figure()
    doc = nodes.document(None, None)
    doc += chapter
    return doc, chapter


def _mode(mode):
    config = SimpleNamespace(handout_documents=None, handout_mode=mode, root_doc="intro")
    return SimpleNamespace(config=config)


def test_the_student_handout_counts_the_figures_of_the_answers_it_leaves_out():
    doc, chapter = _chapter_with_a_figure_in_a_fold()
    handout_filter.cut_to_mode(_mode("student"), doc, "book/ch")
    assert not [n for n in doc.findall(nodes.container) if handout_filter.ANSWER_FOLD in n["classes"]]
    assert _latex(chapter) == ["\\addtocounter{figure}{1}\\addtocounter{table}{0}%\n"]
    assert chapter.index(next(iter(chapter.findall(nodes.raw)))) == 1      # where the fold was


def test_the_answer_key_sets_each_kept_part_to_the_numbers_it_has_on_the_site():
    doc, chapter = _chapter_with_a_figure_in_a_fold()
    handout_filter.cut_to_mode(_mode("answers"), doc, "book/ch")
    kinds = [type(n).__name__ for n in chapter.children]
    assert kinds == ["title", "raw", "container", "raw", "exercise_enumerable_node"], kinds
    assert _latex(chapter) == ["\\setcounter{figure}{0}\\setcounter{table}{0}%\n",
                               "\\setcounter{figure}{1}\\setcounter{table}{0}%\n"]


def _you_write(title: str) -> nodes.Element:
    """An exercise holding a check cell (its input, then its stored 还没写 report)."""
    from sphinx_exercise.nodes import exercise_enumerable_node
    exercise = exercise_enumerable_node()
    exercise += nodes.title(text=title)
    cell = nodes.container(classes=["cell"])
    source = "labcode.practice.check_softmax(my_softmax)"
    cell += nodes.literal_block(source, source)
    cell += _cell_output("check_softmax：还没写\n  函数抛出了 NotImplementedError……")
    exercise += cell
    return exercise


def test_a_you_write_on_paper_has_lines_to_write_on_and_names_its_answer_key_instead_of_the_report():
    written, other = _you_write("练习 1.1（你来写：softmax）"), _you_write("练习 1.2（温度）")
    book = nodes.document(None, None)
    inlined = addnodes.start_of_file(docname="book/01_x")
    inlined += [written, other]
    book += inlined
    handout_filter.you_write_on_paper(book, "intro")
    assert "还没写" not in written.astext() and "还没写" in other.astext()
    assert "在下面的横线上写出 my_softmax，代替 raise 那一行" in written.astext()
    assert "不运行代码时：" in written.astext() and "（01_x-answers.pdf）" in written.astext()
    assert _latex(written) == ["\\handoutwritinglines{12}\n"] and _latex(other) == []


def test_the_answer_key_titles_a_boxs_worked_answer_so_that_it_is_no_second_answer():
    import answer_folds
    chapter = nodes.section()
    for _ in range(2):
        chapter += nodes.container(classes=[handout_filter.ANSWER_BOX])
        fold = nodes.container(classes=[handout_filter.ANSWER_FOLD])
        fold += answer_folds.answer_title(text=answer_folds.TITLE)
        chapter += fold
    chapter.insert(3, nodes.paragraph(text="练习 1.1"))       # the second fold follows an exercise, not its box
    doc = nodes.document(None, None)
    doc += chapter
    handout_filter.worked_answers_after_boxes(doc)
    assert [t.astext() for t in doc.findall(answer_folds.answer_title)] == ["看讲解", answer_folds.TITLE]


def test_indented_lines_of_code_and_output_hang_their_continuation():
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import build_pdf

    tex = ("\\begin{sphinxVerbatim}[commandchars=\\\\\\{\\}]\ncheck：通过\n  通过：书里的例子\n"
           "\\end{sphinxVerbatim}\n  prose stays\n")
    assert build_pdf.indent_wrapped_lines(tex).splitlines()[1:4] == \
        ["check：通过", "\\handoutindent{2}  通过：书里的例子", "\\end{sphinxVerbatim}"]
    assert build_pdf.indent_wrapped_lines(tex).endswith("\n  prose stays\n")
