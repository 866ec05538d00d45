"""Answers typed from a worksheet, graded by scripts/grade_worksheets.py with the answer boxes' own reader, judge
and hints (the site's page script, run in Node by web/answer_boxes.cjs), against a key.csv of the plan (no TeX
needed: the PDFs are checked in tests/book/test_worksheets_pdf.py)."""
from __future__ import annotations

import csv
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import grade_worksheets
import worksheet_plan as plan
from conftest import require_tool

ROOT = Path(__file__).resolve().parents[2]
ROSTER = [plan.Student("S1", "张三"), plan.Student("S2", "李四"), plan.Student("S3", "")]


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    """key.csv of three students' sheets for chapters 1 and 2, and its rows by (student, problem)."""
    require_tool("node", "sudo apt-get install nodejs (also needed for `make assets`)")
    path = tmp_path_factory.mktemp("key") / "key.csv"
    rows = plan.key_rows(plan.assign(ROSTER, plan.chapter_boxes(["1", "2"]), "grading-test-salt"))
    plan.write_table(path, plan.KEY_COLUMNS, rows)
    return path, {(row["student"], row["problem"]): row for row in rows}


def answers_file(tmp_path, rows, header=("学号", "题号", "答案")) -> Path:
    path = tmp_path / "answers.csv"
    with path.open("w", encoding="utf-8-sig", newline="") as out:
        writer = csv.writer(out)
        if header:
            writer.writerow(header)
        writer.writerows(rows)
    return path


def graded(tmp_path, key, rows, **options):
    found = grade_worksheets.grade(answers_file(tmp_path, rows, **options), key[0])
    return {(row["student"], int(row["problem"])): row for row in found}


def test_the_keys_own_forms_and_a_students_handwriting_are_right(tmp_path, key):
    """The exact and the decimal answer of every problem, and the same typed as on a Chinese keyboard (full-width
    brackets and commas, “。” for the point) or as a vector over a number."""
    path, rows = key
    full_width = str.maketrans("[],-", "［］，－")
    typed = []
    for (student, problem), row in rows.items():
        form = {"S1": row["exact"], "S2": row["decimal"].translate(full_width).replace(".", "。"),
                "S3": row["exact"].translate(full_width)}[student]
        typed.append([student, f"第{problem}题" if student == "S3" else problem, form])
    grades = graded(tmp_path, key, typed)
    assert len(grades) == len(rows) == 15
    assert all(row["correct"] == 1 and row["message"].startswith("正确！") and not row["hint"]
               for row in grades.values()), [r for r in grades.values() if r["correct"] != 1]
    parts = [Fraction(x) for x in rows[("S1", 3)]["exact"].strip("[]").split(", ")]    # the gradient: fractions
    common = math.lcm(*(x.denominator for x in parts))
    over = graded(tmp_path, key, [["S1", 3, f"[{', '.join(str(int(x * common)) for x in parts)}]/{common}"]])
    assert over[("S1", 3)]["correct"] == 1, over[("S1", 3)]


def test_a_wrong_answer_gets_the_boxes_hint_and_a_missing_one_is_not_correct(tmp_path, key):
    path, rows = key
    loss, gradient = rows[("S2", 2)], rows[("S2", 3)]
    likelihood = f"{2.718281828459045 ** -float(loss['decimal']):.6f}"           # p_y instead of −ln p_y
    flipped = "[" + ", ".join(f"{-float(x):.6f}" for x in gradient["decimal"].strip("[]").split(", ")) + "]"
    grades = graded(tmp_path, key, [["S2", 2, likelihood], ["S2", 3, flipped], ["S2", 4, "ln(2"],
                                    ["S2", 5, "   "]])
    assert grades[("S2", 2)]["hint"] == "这是似然 p_y，损失还要取 −ln。" and grades[("S2", 2)]["correct"] == 0
    assert grades[("S2", 3)]["hint"].startswith("符号反了") and grades[("S2", 3)]["message"].startswith("不对")
    assert grades[("S2", 4)]["message"] == "没读懂：括号没有配对。" and grades[("S2", 4)]["hint"] == ""
    for problem in (5, 1):                                       # blank, and not in the file at all
        assert grades[("S2", problem)] | {"answer": ""} == {
            "student": "S2", "name": "李四", "problem": str(problem), "box": rows[("S2", problem)]["box"],
            "variant": rows[("S2", problem)]["variant"], "answer": "", "correct": 0, "hint": "",
            "message": "没有答案。"}


HOSTILE = ["\x00", "2\u200b", "\u202e1", "(" * 3000 + "1" + ")" * 3000, "1" * 100_000, "a\nb", 'x,"y"', "😀𠀀",
           "=1+1", "变体 7F3A", "1％", "ln(-1)", "exp(1000)-exp(1000)", "[1, 2, ]", "-------1", "<b>1</b>", "$1$"]


def test_whatever_is_typed_gets_a_short_verdict_and_nothing_is_lost(tmp_path, key):
    """Junk in a cell (invisible characters, a NUL, a formula for a spreadsheet, deep brackets, a newline) goes
    through the CSV file and the page's judge: one row each, not correct, a message of a few words."""
    path, rows = key
    students = [student for student, _ in rows]
    typed = [[students[k % len(students)], 1 + k // len(students) % 5, text] for k, text in enumerate(HOSTILE)]
    typed = list({(s, p): [s, p, t] for s, p, t in typed}.values())
    grades = graded(tmp_path, key, typed)
    assert len(grades) == len(rows)
    for student, problem, text in typed:
        row = grades[(student, problem)]
        assert row["correct"] == 0 and 0 < len(row["message"]) < 300, (text[:20], row["message"])
        assert row["answer"] == text.strip() and "undefined" not in row["message"]


@pytest.mark.parametrize("rows, message", [
    ([["S9", 1, "1"]], r"第 2 行：key.csv 里没有学号 S9 的第 1 题"),
    ([["S1", 6, "1"]], r"第 2 行：key.csv 里没有学号 S1 的第 6 题"),
    ([["S1", "一", "1"]], r"第 2 行：题号要写成数字（如 3），收到 '一'"),
    ([["S1", 1, "1"], ["S1", "1", "2"], ["S2", 9, "1"]],
     r"有 2 处要改：\n第 3 行：学号 S1 的第 1 题前面已经有答案了\n第 4 行"),
])
def test_an_answers_file_naming_no_problem_of_the_key_is_refused_line_by_line(tmp_path, key, rows, message):
    with pytest.raises(plan.WorksheetError, match=message):
        graded(tmp_path, key, rows)


def test_a_key_the_page_would_not_draw_is_refused(tmp_path, key):
    """key.csv from another version of the book (the page draws other numbers for that variant): refused."""
    with key[0].open(encoding="utf-8-sig", newline="") as source:
        rows = list(csv.DictReader(source))
    rows[0]["decimal"] = "[0.1, 0.2, 0.7]"
    stale = tmp_path / "stale.csv"
    plan.write_table(stale, plan.KEY_COLUMNS, rows)
    with pytest.raises(plan.WorksheetError, match=r"学号 S1 第 1 题（ch1-ab-softmax，变体 .{4}）的答案与网页上"):
        grade_worksheets.grade(answers_file(tmp_path, [["S1", 1, "1"]]), stale)


def test_the_command_writes_grades_and_totals_for_a_course_system(tmp_path, key):
    path, rows = key
    answers = answers_file(tmp_path, [[s, p, rows[(s, p)]["exact"]] for s, p in rows if s != "S3"], header=None)
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "grade_worksheets.py"), str(answers),
                           "--key", str(path), "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "3 个学生、15 道题，答对 10 道" in proc.stdout
    with (tmp_path / "out" / "worksheet-totals.csv").open(encoding="utf-8-sig", newline="") as source:
        assert list(csv.DictReader(source)) == [
            {"student": "S1", "name": "张三", "correct": "5", "problems": "5"},
            {"student": "S2", "name": "李四", "correct": "5", "problems": "5"},
            {"student": "S3", "name": "", "correct": "0", "problems": "5"}]
    assert (tmp_path / "out" / "worksheet-grades.csv").read_bytes().startswith(b"\xef\xbb\xbfstudent,name,problem")
    bad = subprocess.run([sys.executable, str(ROOT / "scripts" / "grade_worksheets.py"), str(answers),
                          "--key", str(answers), "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert bad.returncode == 2 and "不是 scripts/worksheets.py 写的 key.csv" in bad.stderr
