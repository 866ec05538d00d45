"""评分的结果写成文件：``grades.csv``（每个学生、每道题一行，可以导入课程系统）和每个学生一份中文反馈。"""
from __future__ import annotations

import csv
import re

COLUMNS = ["student", "chapter", "exercise", "title", "function", "passed", "cases_passed", "cases_total",
           "mistake", "mistake_key", "note", "notebook", "seed"]


def write_csv(rows, path):
    """grades.csv：带 BOM 的 UTF-8（Excel 才能认出中文），逗号分隔，第一行是列名（见 COLUMNS）；passed 是 1 或 0。"""
    with open(path, "w", encoding="utf-8-sig", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for row in rows:
            e = row.exercise
            writer.writerow([row.student, e.chapter, e.number, e.title, e.function, int(row.passed), row.cases_passed,
                             row.cases_total, row.mistake, row.mistake_key, row.note, row.notebook, row.seed])


def file_name(student):
    """学生名字做文件名：去掉文件系统不接受的字符。"""
    name = re.sub(r'[\x00-\x1f<>:"/\\|?*]', "_", student).strip(" .")
    return name or "_"


def feedback(student, rows, notebooks):
    """一个学生的中文反馈（Markdown，当纯文本读也清楚）。"""
    chapters = "、".join(str(c) for c in dict.fromkeys(row.exercise.chapter for row in rows))
    passed = sum(row.passed for row in rows)
    lines = [f"# {student}：“你来写”的评分", "",
             f"第 {chapters} 章，{len(rows)} 个函数，通过 {passed} 个。评分用的是你笔记本里定义的函数本身，"
             "和笔记本里的检查是同一套，只是随机的那几项换了一组新的数。", ""]
    for row in rows:
        lines += [f"## {row.exercise.name}：{verdict(row)}", ""]
        details = row.details
        if row.passed or not details or "note" in details or details.get("not_written"):
            if row.note:
                lines += [row.note, ""]
            continue
        if details.get("mistake"):
            lines += [f"- 认出的错误：{details['mistake']}", f"- 为什么：{details['why']}"]
        lines += [f"- 怎么改：{details['fix']}", f"- 参见：{details['where']}",
                  f"- 第一项没过：{details['first_failure']}：{details['problem']}", ""]
    notes = notebook_notes(notebooks)
    if notes:
        lines += ["## 笔记本里的其他问题", "", *notes, ""]
    return "\n".join(lines)


def verdict(row):
    if row.passed:
        return f"通过（{row.cases_total} 项全部通过）"
    if row.details.get("not_written"):
        return "还没写"
    if row.cases_total:
        return f"没通过（{row.cases_total} 项里通过 {row.cases_passed} 项）"
    return "没有评分"


def notebook_notes(notebooks):
    """笔记本本身的问题：读不出来、有语法错误的格、评分要用的语句出错、进程被终止。"""
    notes = []
    for relative, run in notebooks.items():
        if run.get("error"):
            notes.append(f"- {relative}：{run['error']}")
            continue
        record = run.get("notebook", {})
        heads = record.get("heads", {})
        for cell in record.get("broken", []):
            head = heads.get(str(cell["cell"]), "")
            notes.append(f"- {relative}：第 {cell['cell']} 个代码格（以“{head[:40]}”开头）有语法错误，"
                         f"第 {cell['line']} 行：{cell['message']}。这一格没有运行。")
        for failure in record.get("failed", []):
            notes.append(f"- {relative}：第 {failure['cell']} 个代码格第 {failure['line']} 行出错：{failure['error']}")
        if run.get("ended"):
            notes.append(f"- {relative}：{run['ended']}")
    return notes
