"""The seeded worksheets' plan (scripts/worksheet_plan.py), without TeX: the roster, the boxes of the chosen chapters
and where they sit, every student's variants (from the salt and the student's id, none shared; drawn by the page's
script in Node, scripts/box_variants.py), and the files an instructor writes. The PDFs are checked in
tests/book/test_worksheets_pdf.py, typed answers in tests/unit/test_worksheet_grading.py, the variant IDs on the site
in tests/site/test_worksheets_browser.py."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import chapter_registry
import worksheet_plan as plan
from box_cells import notebook_boxes
from box_variants import draw, variant_text
from labcode.practice.problems import KINDS
from page_script import run_page_script

SALT = "a-course-salt-2026"
ROSTER = [plan.Student(f"2026{k:03d}", f"学生{k}") for k in range(1, 7)]


def write(tmp_path: Path, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / "file.csv"
    path.write_bytes(text.encode(encoding))
    return path


# --- the roster ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, encoding", [
    ("学号,姓名\n2026001,张三\n\n2026002,李四\n", "utf-8"),
    ("\ufeffstudent,name,email\n2026001,张三,a@b\n2026002,李四,c@d\n", "utf-8"),       # Excel's "CSV UTF-8"
    ("学号,姓名\r\n2026001,张三\r\n2026002,李四\r\n", "gb18030"),                       # Excel's plain "CSV"
    ("2026001,张三\n 2026002 , 李四 \n", "utf-8"),                                      # no header
    ("name,student\n张三,2026001\n李四,2026002\n", "utf-8"),                            # the header says the order
])
def test_a_roster_is_read_as_excel_and_a_course_system_write_it(tmp_path, text, encoding):
    assert plan.read_roster(write(tmp_path, text, encoding)) == [plan.Student("2026001", "张三"),
                                                                  plan.Student("2026002", "李四")]


def test_a_roster_without_names_is_enough(tmp_path):
    assert plan.read_roster(write(tmp_path, "学号\nA1\nA2\n")) == [plan.Student("A1", ""), plan.Student("A2", "")]


@pytest.mark.parametrize("text, message", [
    ("学号,姓名\n2026001,张三\n2026001,李四\n", r"第 3 行：学号 2026001 在第 2 行已经出现过"),
    ("学号,姓名\n,张三\n", r"第 2 行：学号是空的"),
    ("姓名,邮箱\n张三,a@b\n", r"第一行是列名，但缺少 student 这一列"),
    ("\n\n", r"文件是空的"),
])
def test_a_bad_roster_names_its_line_and_the_rule(tmp_path, text, message):
    with pytest.raises(plan.WorksheetError, match=message):
        plan.read_roster(write(tmp_path, text))


# --- the boxes and their sections -------------------------------------------------------------------------

def test_the_chosen_chapters_give_their_boxes_in_the_books_order():
    boxes = plan.chapter_boxes(["1", "2"])
    assert [(b.label, b.chapter, b.chapter_label) for b in boxes] == [
        ("ch1-ab-softmax", "1", "第 1 章"), ("ch1-ab-loss", "1", "第 1 章"), ("ch2-ab-gradient", "2", "第 2 章"),
        ("ch2-ab-step", "2", "第 2 章"), ("ch2-ab-mean-loss", "2", "第 2 章")]
    assert {b.page for b in boxes} == {"book/01_probability_to_loss.html", "book/02_gradient.html"}
    appendix = plan.chapter_boxes(["A"])
    assert [(b.label, b.chapter_label, b.section[:2]) for b in appendix] == [("app-ab-mse-gradient", "附录 A", "A.")]


@pytest.mark.parametrize("chapters, message", [
    (["7"], "书里没有第 7 章；可以选 " + "、".join(c.number for c in chapter_registry.chapters())),
    ([], r"--chapters")])
def test_an_unknown_chapter_is_refused(chapters, message):
    with pytest.raises(plan.WorksheetError, match=message):
        plan.chapter_boxes(chapters)


def test_a_box_is_placed_in_the_section_numbered_as_the_site_numbers_it(tmp_path):
    """`##` sections count 1, 2, …, a `###` under them 1, 2, … again; headings in code or a directive do not count.
    (The built site's numbers are compared in tests/site/test_worksheets_browser.py.)"""
    def markdown(text):
        return {"cell_type": "markdown", "metadata": {}, "source": text}

    def box(label):
        return {"cell_type": "code", "metadata": {"tags": ["answer-box"]}, "outputs": [], "execution_count": None,
                "source": f'labcode.practice.answer_box("loss", label="{label}", z="[0, 1]", y=0)'}
    cells = [markdown("# 第一章\n\n## 一\n"), box("ch3-ab-a"), markdown("## 二\n\n```python\n## 不是标题\n```\n"),
             markdown(":::{admonition} 注\n## 也不是\n:::\n\n### 二之一\n"), box("ch3-ab-b"),
             markdown("## 三：$\\ln V$\n"), box("ch3-ab-c")]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    assert [(b.label, b.section, b.title) for b in notebook_boxes(path, "3")] == [
        ("ch3-ab-a", "3.1", "一"), ("ch3-ab-b", "3.2.1", "二之一"), ("ch3-ab-c", "3.3", "三：$\\ln V$")]


# --- every student's variants --------------------------------------------------------------------------------

def test_the_same_roster_and_salt_give_the_same_sheets_and_another_salt_others():
    boxes = plan.chapter_boxes(["1", "2"])
    first, again = plan.assign(ROSTER, boxes, SALT), plan.assign(list(ROSTER), boxes, SALT)
    assert [[(i.box.label, i.variant) for i in s.items] for s in first] == \
           [[(i.box.label, i.variant) for i in s.items] for s in again]
    other = plan.assign(ROSTER, boxes, SALT + "!")
    changed = sum(a.variant != b.variant for s, t in zip(first, other, strict=True)
                  for a, b in zip(s.items, t.items, strict=True))
    assert changed >= 0.9 * len(ROSTER) * len(boxes)           # the salt decides, not the student id alone


def test_a_sheets_problem_is_the_variant_the_site_shows_for_its_id(tmp_path):
    """Each problem is what the page's box shows for the sheet's variant ID, and its answer is labcode's too."""
    sheets = plan.assign(ROSTER[:2], plan.chapter_boxes(["1", "2", "3", "4", "5", "A"]), SALT)
    assert all([item.number for item in sheet.items] == list(range(1, len(sheet.items) + 1)) for sheet in sheets)
    items = [item for sheet in sheets for item in sheet.items]
    cases = [[item.box.kind, item.box.label, item.variant_id] for item in items]
    shown = run_page_script(tmp_path, f"console.log(JSON.stringify({json.dumps(cases)}.map(([k, l, v]) =>"
                                      " labAnswerBoxes.variant(k, l, v))));\n")
    for item, page in zip(items, shown, strict=True):
        assert item.problem.texts == page["texts"] and item.problem.answer == page["answer"], item.variant_id
        assert item.variant_id == variant_text(item.variant) == page["id"]
        assert KINDS[item.box.kind].answer(**item.problem.values) == pytest.approx(page["answer"], abs=1e-12)


def test_no_two_students_share_a_problem_even_where_a_kind_has_few():
    """Softmax has about 300 problems: 150 students draw many of the same at first; each later one moves on, and
    nobody gets the book's own numbers."""
    box = plan.chapter_boxes(["1"])[0]
    assert box.kind == "softmax"
    roster = [plan.Student(str(k), "") for k in range(150)]
    sheets = plan.assign(roster, [box], SALT)
    first_choices = {p.question() for p in draw([("softmax", box.label, plan.candidate(SALT, s.id, box.label, 0))
                                                 for s in roster])}
    assert len(first_choices) < 140                               # the first candidates do collide
    questions = [sheet.items[0].problem.question() for sheet in sheets]
    assert len(set(questions)) == len(roster)
    assert box.book.question() not in questions
    with pytest.raises(plan.WorksheetError, match=r"ch1-ab-softmax 的不同题目不够 800 道.*--per-box"):
        plan.assign([plan.Student(str(k), "") for k in range(400)], [box], SALT, per_box=2)


def test_a_class_of_30_gets_30_different_problems_of_each_box_as_the_page_draws_them(tmp_path):
    """Chapters 1 and 2 for 30 students: each sheet's variant IDs drawn by the page's own script (Node), and no two
    students shown the same numbers in any box."""
    roster = [plan.Student(f"2026{k:03d}", "") for k in range(30)]
    cases = [[i.box.kind, i.box.label, i.variant_id] for s in plan.assign(roster, plan.chapter_boxes(["1", "2"]), SALT)
             for i in s.items]
    drawn = run_page_script(tmp_path, f"console.log(JSON.stringify({json.dumps(cases)}.map(([k, l, v]) =>"
                                      " JSON.stringify(labAnswerBoxes.variant(k, l, v).texts))));\n")
    by_box = {}
    for (_, label, _), texts in zip(cases, drawn, strict=True):
        by_box.setdefault(label, []).append(texts)
    assert len(by_box) == 5 and all(len(set(shown)) == len(shown) == 30 for shown in by_box.values())


def first_problems(box, ids):
    """(student, the problem of their first candidate for the box) for students of these ids, drawn in one go."""
    students = [plan.Student(i, "") for i in ids]
    firsts = draw([(box.kind, box.label, plan.candidate(SALT, s.id, box.label, 0)) for s in students])
    return zip(students, firsts, strict=True)


@pytest.mark.parametrize("box, book", [(1, 1), (0, 1), (3, 2)], ids=["loss", "softmax-of-the-loss-box", "step"])
def test_nobody_gets_numbers_the_book_works_out(box, book):
    """The book's boxes use [ln 2, 0, −ln 2] (y = 1) and work out its softmax, loss, gradient and step: a student
    whose first candidate has the numbers of a box of the book (the loss box's own, or the softmax of its z, or a
    step from the gradient box's z and y) gets another."""
    boxes = plan.chapter_boxes(["1", "2"])
    box, book = boxes[box], boxes[book].book
    shared = box.book.values.keys() & book.values.keys()
    lucky = next(student for start in range(0, 100_000, 5000)
                 for student, problem in first_problems(box, [f"x{k}" for k in range(start, start + 5000)])
                 if all(problem.values[name] == pytest.approx(book.values[name]) for name in shared))
    given = plan.assign([lucky], [box], SALT)[0].items[0].problem
    assert any(given.values[name] != pytest.approx(book.values[name]) for name in shared)


def test_a_student_added_at_the_end_leaves_the_earlier_sheets_as_they_were():
    boxes = plan.chapter_boxes(["1", "2"])
    before = plan.assign(ROSTER, boxes, SALT, per_box=2)
    after = plan.assign([*ROSTER, plan.Student("2026999", "后来的")], boxes, SALT, per_box=2)
    assert after[:len(ROSTER)] == before
    assert len({i.problem.question() for i in before[0].items}) == len(before[0].items)   # none twice on a sheet


@pytest.mark.parametrize("salt", ["", "short", None])
def test_a_missing_or_short_salt_is_refused(salt):
    with pytest.raises(plan.WorksheetError, match=r"至少要 8 个字符"):
        plan.assign(ROSTER, plan.chapter_boxes(["1"]), salt)


def test_the_key_gives_each_problem_exactly_and_in_decimals():
    """key.csv's columns; the loss and the step have no small fraction for an answer, so their exact form is
    built from the weights of z = ln a (ln(7/2), ln 2 − 2/35), which labcode's answer must equal (exact_form)."""
    sheets = plan.assign(ROSTER, plan.chapter_boxes(["1", "2"]), SALT)
    rows = plan.key_rows(sheets)
    assert len(rows) == len(ROSTER) * 5 and list(rows[0]) == plan.KEY_COLUMNS
    for row in rows:
        assert row["exact"] and "−" not in row["exact"] + row["decimal"], row
        assert row["tolerance"] == "0.001"
        if row["kind"] in ("loss", "step"):
            assert "ln" in row["exact"], row
    assert rows[1] | {"exact": "?"} == {"student": "2026001", "name": "学生1", "problem": 2, "chapter": "1",
                                         "section": "1.6", "box": "ch1-ab-loss", "kind": "loss",
                                         "variant": sheets[0].items[1].variant_id, "exact": "?",
                                         "decimal": rows[1]["decimal"], "tolerance": "0.001"}


# --- the command, before any TeX ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--chapters", "1,2", "--salt", "short"], "至少要 8 个字符"),
    (["--chapters", "1,9", "--salt", SALT], "书里没有第 9 章"),
    (["--chapters", "1", "--salt", SALT, "--only", "nobody"], "名单 .* 里没有学号 nobody"),
    (["--chapters", "1", "--salt", SALT, "--site", "example.org"], "--site 要一个网址"),
    (["--chapters", "1", "--salt", SALT, "--per-box", "0"], "--per-box 是每个框出几道题，要一个正整数，收到 0"),
])
def test_the_command_says_what_is_wrong_before_typesetting_anything(tmp_path, capsys, args, message):
    import worksheets

    roster = write(tmp_path, "学号,姓名\n1,甲\n")
    assert worksheets.main([str(roster), "--out", str(tmp_path / "out"), *args]) == 2
    assert re.search(message, capsys.readouterr().err)
    assert not (tmp_path / "out").exists()


def test_the_salt_may_come_from_the_environment(tmp_path, capsys, monkeypatch):
    """LM_BY_HAND_SALT, so that the salt stays out of the shell's history (--only nobody stops after the plan)."""
    import worksheets

    args = [str(write(tmp_path, "1,甲\n")), "--chapters", "1", "--out", str(tmp_path / "out"), "--only", "nobody"]
    monkeypatch.setenv("LM_BY_HAND_SALT", SALT)
    assert worksheets.main(args) == 2 and "没有学号 nobody" in capsys.readouterr().err
    monkeypatch.setenv("LM_BY_HAND_SALT", "short")
    assert worksheets.main(args) == 2 and "至少要 8 个字符" in capsys.readouterr().err
