#!/usr/bin/env python3
"""Seeded worksheets: for each student of a roster, a PDF of the answer-box (动手算) problems of the chosen
chapters with that student's own numbers, their key, and key.csv for grading.

Usage: scripts/worksheets.py ROSTER.csv --chapters 1,2 --out DIR [--salt SALT] [--per-box N] [--site URL]
                             [--only STUDENT] [--no-variant-ids]
(`make worksheets ROSTER=… CHAPTERS=1,2 OUT=…`; the salt comes from --salt or the environment variable
LM_BY_HAND_SALT). It writes
  DIR/worksheets/<student>.pdf   each student's sheet (hand these out)
  DIR/worksheets.pdf             every sheet, in roster order, each from a front page (to print in one go)
  DIR/private/keys/<student>.pdf each student's key        ┐
  DIR/private/keys.pdf           every key                 ├ for the instructor only
  DIR/private/key.csv            every answer, for grading ┘
Each problem is labelled with its box (chapter and section) and its variant ID: typing `变体 7F3A` into that box
on the site shows the same problem. The same roster, salt and chapters give the same sheets again (--only STUDENT
rebuilds one student's); scripts/grade_worksheets.py grades answers typed from the sheets. docs/instructors.md
says how to use them in a course.

Why here and not in the course package: the sheets are typeset with the handouts' own LaTeX (Sphinx's class and
latex/handout.sty) from the chapters of _toc.yml and their notebooks, all in this repository, and need TeX either
way; the wheel is the learners' kit and stays free of instructors' tools.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
import build_pdf  # noqa: E402
import worksheet_plan as plan  # noqa: E402
import worksheet_tex  # noqa: E402

SITE = re.compile(r"^https?://[^\s#%{}\\^~]+$")


def file_name(student: str) -> str:
    """A student id as a file name: characters file systems refuse become _."""
    return re.sub(r'[\x00-\x1f<>:"/\\|?*\s]', "_", student).strip(".") or "_"


def targets(out: Path, sheets: list[plan.Sheet], whole: bool) -> dict:
    """Where each kind of PDF goes (see the module's docstring); `whole`: also the documents of every student."""
    names = [file_name(sheet.student.id) for sheet in sheets]
    clash = {n for n in names if names.count(n) > 1}
    if clash:
        raise plan.WorksheetError(f"这些学号做文件名时撞在一起：{'、'.join(sorted(clash))}"
                                  "（/ \\ : * ? 等字符换成了 _）")
    return {worksheet_tex.SHEET: (out / "worksheets.pdf" if whole else None,
                                  [out / "worksheets" / f"{n}.pdf" for n in names]),
            worksheet_tex.KEY: (out / "private" / "keys.pdf" if whole else None,
                                [out / "private" / "keys" / f"{n}.pdf" for n in names])}


def make(roster: Path, chapters: list[str], out: Path, salt: str, per_box: int = 1, site: str | None = None,
         only: str | None = None, ids: bool = True, work: Path | None = None) -> list[plan.Sheet]:
    """Write the sheets, the keys and key.csv of every student of `roster` (only one's PDFs with `only`)."""
    if site is not None and not SITE.match(site):
        raise plan.WorksheetError(f"--site 要一个网址（http:// 或 https:// 开头，不含空格、#、%），收到 {site!r}")
    students = plan.read_roster(roster)
    sheets = plan.assign(students, plan.chapter_boxes(chapters), salt, per_box)
    chosen = sheets
    if only is not None:
        chosen = [sheet for sheet in sheets if sheet.student.id == only]
        if not chosen:
            raise plan.WorksheetError(f"--only：名单 {roster} 里没有学号 {only}")
    missing = build_pdf.missing_packages()
    if missing:
        raise plan.WorksheetError(build_pdf.install_hint(missing))
    course_title = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8")).get("title", "")
    with tempfile.TemporaryDirectory(prefix="worksheets-") as tmp:
        try:
            worksheet_tex.build(chosen, targets(out, chosen, whole=only is None), work or Path(tmp), course_title,
                                site, ids)
        except build_pdf.BuildError as err:        # keep the log where the instructor looks
            kept = out / "logs" / err.log.name
            kept.parent.mkdir(parents=True, exist_ok=True)
            if err.log.exists():
                shutil.copyfile(err.log, kept)
            raise build_pdf.BuildError(str(err), kept) from None
    if only is None:
        plan.write_table(out / "private" / "key.csv", plan.KEY_COLUMNS, plan.key_rows(sheets))
    return chosen


def chapter_list(text: str) -> list[str]:
    return [part.strip().upper() for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/worksheets.py", description=__doc__.splitlines()[1])
    parser.add_argument("roster", type=Path, help="名单 CSV：学号, 姓名（格式见 docs/instructors.md）")
    parser.add_argument("--chapters", type=chapter_list, required=True, help="哪几章的“动手算”，如 1,2（附录写 A）")
    parser.add_argument("--out", type=Path, required=True, help="写到这个文件夹")
    parser.add_argument("--salt", default=os.environ.get("LM_BY_HAND_SALT", ""),
                        help="课程的盐（默认取环境变量 LM_BY_HAND_SALT），至少 8 个字符，只有你知道")
    parser.add_argument("--per-box", type=int, default=1, help="每个框出几道题（默认 1）")
    parser.add_argument("--site", help="网站的地址，印在练习纸上（可选）")
    parser.add_argument("--only", metavar="STUDENT", help="只重新生成这一个学生的练习纸和答案")
    parser.add_argument("--no-variant-ids", action="store_true", help="练习纸上不印变体号（答案上照印）")
    parser.add_argument("--work", type=Path, help="把 LaTeX 源文件和日志留在这个文件夹")
    args = parser.parse_args(argv)
    if not args.roster.is_file():
        parser.error(f"名单文件不存在：{args.roster}")
    start = time.perf_counter()
    try:
        sheets = make(args.roster, args.chapters, args.out.resolve(), args.salt, args.per_box, args.site, args.only,
                      not args.no_variant_ids, args.work.resolve() if args.work else None)
    except plan.WorksheetError as err:
        print(err, file=sys.stderr)
        return 2
    except build_pdf.BuildError as err:
        print(f"PDF 没有生成：{err}。日志：{err.log}", file=sys.stderr)
        return 1
    problems = len(sheets[0].items)
    print(f"{len(sheets)} 个学生，每人 {problems} 道题：练习纸在 {args.out / 'worksheets'}，"
          f"答案和 key.csv 在 {args.out / 'private'}（不要发给学生）；用时 {time.perf_counter() - start:.1f} 秒。")
    return 0


if __name__ == "__main__":
    sys.exit(main())
