#!/usr/bin/env python3
"""Grade answers typed from the seeded worksheets: a CSV the instructor fills (student, problem, answer), judged
against key.csv (written with the sheets by scripts/worksheets.py) with the answer boxes' own reader, tolerance
and hints.

Usage: scripts/grade_worksheets.py ANSWERS.csv --key DIR/private/key.csv --out DIR
(`make grade-worksheets ANSWERS=… KEY=… OUT=…`). It writes DIR/worksheet-grades.csv, one row per student and
problem of the key (student, name, problem, box, variant, answer, correct, hint, message: an answer left out is
not correct), and DIR/worksheet-totals.csv, one row per student (correct, problems).

The judge is the site's own: the page script of the answer boxes, run in Node (web/answer_boxes.cjs), reads what
a student wrote as the box on the page would (full-width digits, “。” for a point, ln(7/2), [4, -5, 1]/7, …),
with the box's tolerance, and names the box's slip when it recognises one. One reader for page and paper, with
nothing to keep in step (a Python copy of it would need its own parity tests). Node is needed here anyway: the
repository builds with it.
"""
from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "_ext"))
import box_variants  # noqa: E402
from worksheet_plan import KEY_COLUMNS, STUDENT, WorksheetError, read_table, write_table  # noqa: E402

ANSWER_COLUMNS = {"student": STUDENT, "problem": ("problem", "题号", "题"), "answer": ("answer", "答案")}
GRADE_COLUMNS = ["student", "name", "problem", "box", "variant", "answer", "correct", "hint", "message"]
TOTAL_COLUMNS = ["student", "name", "correct", "problems"]
NUMBER = re.compile(r"^第?\s*(\d+)\s*题?$")


def read_key(path: Path) -> dict[tuple[str, int], dict]:
    """key.csv by (student, problem number)."""
    with Path(path).open(encoding="utf-8-sig", newline="") as source:
        rows = list(csv.DictReader(source))
    if not rows or set(KEY_COLUMNS) - set(rows[0]):
        raise WorksheetError(f"{path} 不是 scripts/worksheets.py 写的 key.csv（列应为 {', '.join(KEY_COLUMNS)}）")
    return {(row["student"], int(row["problem"])): row for row in rows}


def read_answers(path: Path, key: dict) -> dict[tuple[str, int], str]:
    """The typed answers by (student, problem); every row must name a problem of the key, once."""
    answers, errors = {}, []
    for line, row in read_table(path, ANSWER_COLUMNS, set(ANSWER_COLUMNS)):
        number = NUMBER.match(row.get("problem", ""))
        where = (row.get("student", ""), int(number.group(1)) if number else None)
        if number is None:
            errors.append(f"第 {line} 行：题号要写成数字（如 3），收到 {row.get('problem', '')!r}")
        elif where not in key:
            errors.append(f"第 {line} 行：key.csv 里没有学号 {where[0]} 的第 {where[1]} 题")
        elif where in answers:
            errors.append(f"第 {line} 行：学号 {where[0]} 的第 {where[1]} 题前面已经有答案了")
        else:
            answers[where] = row.get("answer", "")
    if errors:
        raise WorksheetError(f"{path} 有 {len(errors)} 处要改：\n" + "\n".join(errors))
    return answers


def _agrees(page_answer, decimal: str) -> bool:
    """The page's answer for the variant is the key's (written with 6 decimals)."""
    mine = json.loads(decimal)
    page, mine = (page_answer, mine) if isinstance(mine, list) else ([page_answer], [mine])
    return len(page) == len(mine) and all(abs(a - b) <= 1e-6 for a, b in zip(page, mine, strict=True))


def grade(answers_path: Path, key_path: Path) -> list[dict]:
    """One row per student and problem of the key, in its order."""
    key = read_key(key_path)
    answers = read_answers(answers_path, key)
    typed = [(where, row) for where, row in key.items() if answers.get(where, "").strip()]
    # The page's verdicts (web/answer_boxes.cjs).
    verdicts = box_variants.run([["judge", row["kind"], row["box"], row["variant"], answers[where],
                                  float(row["tolerance"])] for where, row in typed], error=WorksheetError)
    found = {}
    for (where, row), verdict in zip(typed, verdicts, strict=True):
        if not _agrees(verdict["answer"], row["decimal"]):
            raise WorksheetError(f"key.csv 里学号 {where[0]} 第 {where[1]} 题（{row['box']}，变体 {row['variant']}）"
                                 "的答案与网页上这道题的答案不一样：练习纸是用另一个版本的书生成的吗？")
        message = verdict["message"].replace("$", "").replace("`", "")   # no marks: $…$ maths, `…` typed text
        hint = message.split("提示：", 1)[1] if not verdict["ok"] and "提示：" in message else ""
        found[where] = {"correct": int(verdict["ok"]), "hint": hint, "message": message}
    missing = {"correct": 0, "hint": "", "message": "没有答案。"}
    return [{"student": row["student"], "name": row["name"], "problem": row["problem"], "box": row["box"],
             "variant": row["variant"], "answer": answers.get(where, ""), **found.get(where, missing)}
            for where, row in key.items()]


def totals(rows: list[dict]) -> list[dict]:
    """One row per student: how many problems are correct, of how many."""
    by_student = {}
    for row in rows:
        total = by_student.setdefault(row["student"], {"student": row["student"], "name": row["name"],
                                                       "correct": 0, "problems": 0})
        total["correct"] += row["correct"]
        total["problems"] += 1
    return list(by_student.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/grade_worksheets.py", description=__doc__.splitlines()[1])
    parser.add_argument("answers", type=Path, help="学生的答案 CSV：学号, 题号, 答案（格式见 docs/instructors.md）")
    parser.add_argument("--key", type=Path, required=True, help="生成练习纸时写的 private/key.csv")
    parser.add_argument("--out", type=Path, required=True, help="结果写到这个文件夹")
    args = parser.parse_args(argv)
    for path in (args.answers, args.key):
        if not path.is_file():
            parser.error(f"文件不存在：{path}")
    try:
        rows = grade(args.answers, args.key)
    except WorksheetError as err:
        print(err, file=sys.stderr)
        return 2
    write_table(args.out / "worksheet-grades.csv", GRADE_COLUMNS, rows)
    write_table(args.out / "worksheet-totals.csv", TOTAL_COLUMNS, totals(rows))
    right = sum(row["correct"] for row in rows)
    print(f"{len({row['student'] for row in rows})} 个学生、{len(rows)} 道题，答对 {right} 道："
          f"{args.out / 'worksheet-grades.csv'}，每人合计：{args.out / 'worksheet-totals.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
