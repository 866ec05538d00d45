"""不用服务器的评分：把学生交上来的章节笔记本放进一个文件夹，``python -m labcode.grade 文件夹 --out 结果文件夹``。

按函数名（``my_softmax``、``my_train`` ……）找出每个学生写的函数，用书里同一套 ``check_*`` 检查，随机的几项
换成每个学生自己的一组数（由 ``--salt`` 和学生、函数名算出）。每本笔记本在自己的子进程里运行，只运行定义这些
函数所需的代码；每一项检查、每道题、每一句代码、每本笔记本都有时间上限。结果：``grades.csv``（每个学生、每道题
一行）和 ``feedback/学生.md``（中文反馈）。学生怎样认定、各列的意思、能防住什么不能防住什么，见 docs/instructors.md。
"""
from __future__ import annotations

import time
from pathlib import Path

from .batch import Limits, grade_folder
from .output import feedback, file_name, write_csv

__all__ = ["grade", "Limits"]


def grade(submissions, out, *, chapters=None, salt="", jobs=2, limits=None, student_pattern=None):
    """评 submissions 文件夹里的笔记本，把 grades.csv 和 feedback/ 写进 out；返回一份摘要（dict）。

    参数
    ----
    submissions : 交上来的笔记本所在的文件夹（可以有子文件夹）
    out : 结果写到哪个文件夹（没有就新建）
    chapters : 评哪几章，如 ``[1, 2]``；不给时评交上来的笔记本里出现了“你来写”函数的那几章
    salt : 课程的盐：同样的盐重评，每个学生得到同样的一组随机数；换一个盐就换一组
    jobs : 同时评几本笔记本
    limits : :class:`Limits`，时间与内存的上限（不给时用默认值）
    student_pattern : 正则表达式，从笔记本的相对路径里取出名为 student 的组作为学生（见 batch.py）
    """
    start = time.perf_counter()
    rows, notebooks, exercises = grade_folder(submissions, chapters=chapters, salt=salt, jobs=jobs, limits=limits,
                                              pattern=student_pattern)
    out = Path(out)
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    write_csv(rows, out / "grades.csv")
    for student in notebooks:
        own = [row for row in rows if row.student == student]
        text = feedback(student, own, notebooks[student])
        (out / "feedback" / f"{file_name(student)}.md").write_text(text + "\n", encoding="utf-8")
    return {"students": len(notebooks), "exercises": len(exercises), "rows": len(rows),
            "passed": sum(row.passed for row in rows), "seconds": time.perf_counter() - start}
