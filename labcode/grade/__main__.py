"""命令行：``python -m labcode.grade 交作业文件夹 --out 结果文件夹 [--chapters 1,2] [--salt 盐] [--jobs 2]``。"""
from __future__ import annotations

import argparse
import os
import sys

from ..practice.exercises import EXERCISES
from . import Limits, grade
from .salt import check_salt


def chapter_list(text):
    try:
        chapters = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"--chapters 要写成用逗号隔开的章号，如 1,2，收到 {text!r}") from None
    graded = sorted({e.chapter for e in EXERCISES})     # 有“你来写”的章
    if not chapters or not set(chapters) <= set(graded):
        raise argparse.ArgumentTypeError(f"--chapters 只能是有“你来写”的章（{'、'.join(map(str, graded))}），"
                                         f"收到 {text!r}")
    return chapters


def main(argv=None):
    defaults = Limits()
    parser = argparse.ArgumentParser(
        prog="python -m labcode.grade", description="评学生交上来的“你来写”：每个学生、每道题一行 grades.csv，"
                                                    "每个学生一份中文反馈。说明见 docs/instructors.md。")
    parser.add_argument("submissions", help="交上来的笔记本（.ipynb）所在的文件夹，可以有子文件夹")
    parser.add_argument("--out", required=True, help="结果写到这个文件夹：grades.csv 和 feedback/")
    parser.add_argument("--chapters", type=chapter_list, help="评哪几章，如 1,2（默认：笔记本里出现的章）")
    parser.add_argument("--salt", default=os.environ.get("LM_BY_HAND_SALT", ""),
                        help="课程的盐，至少 8 个字符，决定每个学生的随机数（默认取环境变量 LM_BY_HAND_SALT）")
    parser.add_argument("--student-pattern", help="从笔记本的相对路径取学生的正则表达式，含 (?P<student>…)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="同时评几本笔记本（默认 2）")
    parser.add_argument("--notebook-seconds", type=float, default=defaults.notebook_seconds,
                        help=f"一本笔记本最多评几秒，到时终止它的进程（默认 {defaults.notebook_seconds:g}）")
    parser.add_argument("--exercise-seconds", type=float, default=defaults.exercise_seconds,
                        help=f"一道题（一次检查）最多几秒（默认 {defaults.exercise_seconds:g}）")
    parser.add_argument("--case-seconds", type=float, default=defaults.case_seconds,
                        help=f"检查里的一项最多几秒（默认 {defaults.case_seconds:g}）")
    parser.add_argument("--memory-mb", type=int, default=defaults.memory_mb,
                        help=f"每个评分进程最多用多少 MB 内存（Linux；默认 {defaults.memory_mb}）")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.submissions):
        parser.error(f"交作业文件夹不存在：{args.submissions}")
    try:
        check_salt(args.salt, optional=True)
    except ValueError as err:
        parser.error(str(err))
    if not args.salt:
        print("提醒：没有给课程的盐（--salt 或 LM_BY_HAND_SALT），每个学生检查里随机的那几项可以由公开的代码算出。",
              file=sys.stderr)
    limits = Limits(case_seconds=args.case_seconds, exercise_seconds=args.exercise_seconds,
                    notebook_seconds=args.notebook_seconds, memory_mb=args.memory_mb)
    done = grade(args.submissions, args.out, chapters=args.chapters, salt=args.salt, jobs=args.jobs, limits=limits,
                 student_pattern=args.student_pattern)
    print(f"评了 {done['students']} 个学生、{done['exercises']} 个函数，共 {done['rows']} 行，"
          f"通过 {done['passed']} 行；用时 {done['seconds']:.1f} 秒。结果：{os.path.join(args.out, 'grades.csv')}，"
          f"反馈：{os.path.join(args.out, 'feedback')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
