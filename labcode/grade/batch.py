"""评一整个文件夹：找出每本笔记本是谁交的、要评哪些函数，每本笔记本一个子进程（:mod:`labcode.grade.worker`），
几个并排运行，每个都有时间上限；最后每个学生、每道题一行结果。

学生是谁（按先后）：
1. 笔记本的元数据 ``metadata["lm_by_hand"]["student"]``；
2. 给了 ``student_pattern`` 时，用它匹配笔记本相对于交作业文件夹的路径（正斜杠），取名为 ``student`` 的组；
3. 笔记本在子文件夹里：第一层子文件夹的名字（``交作业文件夹/张三/04_bigram.ipynb`` → 张三）；
4. 否则是文件名去掉章节笔记本的名字、两边的分隔符和重复下载加上的 “ (1)”（``张三_04_bigram.ipynb``、
   ``张三-04_bigram (1).ipynb`` → 张三；``张三.ipynb`` → 张三）。
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..practice.exercises import EXERCISES
from .program import load
from .salt import check_salt, keyed


@dataclass(frozen=True)
class Limits:
    """时间与内存的上限：一项检查、一道题（一次 check_*）、顶层的一句代码、一整本笔记本（秒），内存（MB）。"""

    case_seconds: float = 3.0
    exercise_seconds: float = 10.0
    statement_seconds: float = 10.0
    notebook_seconds: float = 90.0
    memory_mb: int = 2048


@dataclass
class Submission:
    """交上来的一本笔记本：路径、相对路径、学生、它在顶层定义的名字；读不出来时 ``error`` 说明原因。"""

    path: Path
    relative: str
    student: str
    names: set = field(default_factory=set)
    error: str = ""


@dataclass
class Row:
    """grades.csv 的一行，外加反馈里用的说明。"""

    student: str
    exercise: object
    passed: bool = False
    cases_passed: int = 0
    cases_total: int = 0
    mistake: str = ""
    mistake_key: str = ""
    note: str = ""
    notebook: str = ""
    seed: int = 0
    details: dict = field(default_factory=dict)


def find(folder, pattern=None):
    """文件夹里（含子文件夹）所有的 .ipynb，按路径排好；跳过隐藏文件夹和 .ipynb_checkpoints。"""
    folder = Path(folder)
    found = []
    for path in sorted(folder.rglob("*.ipynb")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts):
            continue
        submission = Submission(path, relative.as_posix(), "")
        try:
            notebook = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            notebook, submission.error = {}, f"不是能读的笔记本（.ipynb）：{type(err).__name__}"
        submission.student = student_of(relative, notebook, pattern)
        if not submission.error:
            try:
                submission.names = load(path).defined()
            except ValueError as err:
                submission.error = str(err)
        found.append(submission)
    return found


def student_of(relative, notebook, pattern=None):
    """这本笔记本是哪个学生交的（规则见模块说明）。"""
    meta = notebook.get("metadata", {}) if isinstance(notebook, dict) else {}
    named = meta.get("lm_by_hand", {}).get("student") if isinstance(meta.get("lm_by_hand"), dict) else None
    if isinstance(named, str) and named.strip():
        return named.strip()
    if pattern:
        match = re.search(pattern, relative.as_posix())
        if match and match.groupdict().get("student"):
            return match.group("student")
    if len(relative.parts) > 1:
        return relative.parts[0]
    stem = re.sub(r"\s*\(\d+\)$", "", relative.stem)                 # 浏览器给重复下载加的 “ (1)”
    for notebook in {e.notebook for e in EXERCISES}:
        stem = stem.replace(Path(notebook).stem, " ")
    return stem.strip(" _-.") or relative.stem


def chapters_in(submissions):
    """交上来的笔记本里出现了哪几章的“你来写”函数。"""
    return sorted({e.chapter for e in EXERCISES for s in submissions if e.function in s.names})


def seed_for(salt, student, function):
    """每个学生、每道题一组随机数：由课程的盐、学生和函数名算出（同样的盐，重评得到同样的结果）。"""
    return int.from_bytes(keyed(salt, student, function)[:8], "big") >> 1


def assign(submissions, exercises):
    """每个学生的每道题，用他的哪一本笔记本评：定义了这个函数的笔记本里，文件名含这一章笔记本名字的优先，
    其余按路径。返回 {(学生, 函数名): Submission 或 None}。"""
    by_student = {}
    for submission in submissions:
        by_student.setdefault(submission.student, []).append(submission)
    chosen = {(student, e.function): min((s for s in own if e.function in s.names), default=None,
                                         key=lambda s: (Path(e.notebook).stem not in s.relative, s.relative))
              for student, own in by_student.items() for e in exercises}
    return by_student, chosen


def run_notebook(submission, exercises, seeds, limits):
    """在子进程里评一本笔记本，返回它写下的结果：{"notebook": {...}, "exercises": {函数名: {...}}, "ended": 说明}。"""
    with tempfile.TemporaryDirectory(prefix="lm-grade-") as work:
        results = Path(work) / "results.jsonl"
        job = {"notebook": str(submission.path.resolve()), "results": str(results),
               "exercises": [{"function": e.function, "check": e.check, "seed": seeds[e.function]} for e in exercises],
               **asdict(limits)}                  # 子进程用到的是 notebook_seconds 之外的几项
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0", "PYTHONSTARTUP": "", "PYTHONIOENCODING": "utf-8"}
        log = Path(work) / "output.txt"
        ended, start = "", time.perf_counter()
        with open(log, "wb") as output:
            process = subprocess.Popen([sys.executable, "-m", "labcode.grade.worker", json.dumps(job)],
                                       cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=output, stderr=output,
                                       start_new_session=os.name == "posix")
            try:
                code = process.wait(timeout=limits.notebook_seconds)
                if code != 0:
                    ended = f"评分进程意外结束（退出码 {code}）"
            except subprocess.TimeoutExpired:
                ended = f"这本笔记本评了 {limits.notebook_seconds:g} 秒还没评完，进程被终止"
            finally:
                stop(process)
        if ended and last_line(log):
            ended += f"：{last_line(log)}"
        return read_results(results) | {"ended": ended, "seconds": time.perf_counter() - start}


def stop(process):
    """结束子进程和它开出的所有进程（POSIX 上是整个进程组）。"""
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        elif process.poll() is None:
            process.kill()
    except OSError:                       # ProcessLookupError：进程组已经没了
        pass
    process.wait()


def last_line(log):
    """子进程最后的一行输出（多半是 Python 的错误说明），最多 200 个字符。"""
    try:
        lines = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
    except OSError:
        return ""
    return lines[-1].strip()[:200] if lines else ""


def read_results(path):
    found = {"notebook": {}, "exercises": {}}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return found
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue                      # 进程被终止时写了一半的那一行
        if record.get("kind") == "notebook":
            found["notebook"] = record
        elif record.get("kind") == "exercise":
            found["exercises"][record["function"]] = record
    return found


def grade_folder(folder, *, chapters=None, salt="", jobs=2, limits=None, pattern=None):
    """评一个文件夹：返回 (每行的 Row, {学生: {笔记本相对路径: 运行结果}}, 评的题)。"""
    salt, limits = check_salt(salt, optional=True), limits or Limits()
    submissions = find(folder, pattern)
    chapters = sorted(chapters) if chapters else chapters_in(submissions)
    exercises = [e for e in EXERCISES if e.chapter in chapters]
    by_student, chosen = assign(submissions, exercises)
    seeds = {(student, e.function): seed_for(salt, student, e.function) for student in by_student for e in exercises}
    work = {}
    for (_, function), submission in chosen.items():
        if submission is not None:
            work.setdefault(submission.relative, (submission, []))[1].append(
                next(e for e in exercises if e.function == function))
    runs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run_notebook, submission, own, {e.function: seeds[submission.student, e.function]
                                                              for e in own}, limits): relative
                   for relative, (submission, own) in work.items()}
        for future in concurrent.futures.as_completed(futures):
            runs[futures[future]] = future.result()
    rows = [row_for(student, exercise, chosen[student, exercise.function], own, runs, seeds[student, exercise.function])
            for student, own in sorted(by_student.items()) for exercise in exercises]
    notebooks = {student: {s.relative: runs.get(s.relative, {"error": s.error}) for s in own}
                 for student, own in by_student.items()}
    return rows, notebooks, exercises


def row_for(student, exercise, submission, own, runs, seed):
    row = Row(student, exercise, seed=seed)
    if submission is None:
        unreadable = [f"{s.relative}（{s.error}）" for s in own if s.error]
        searched = "、".join(s.relative for s in own)
        row.note = f"没有找到函数 {exercise.function}（找过：{searched}）"
        if unreadable:
            row.note += "；读不出来的笔记本：" + "、".join(unreadable)
        return row
    row.notebook = submission.relative
    run = runs[submission.relative]
    record = run["exercises"].get(exercise.function)
    if record is None:
        row.note = run["ended"] or "评分进程没有留下这道题的结果"
        if run["ended"] and run["exercises"]:
            row.note += "；这本笔记本里在它之前评完的函数照常有结果"
        return row
    row.details = record
    if "note" in record:
        row.note = record["note"]
        return row
    row.passed, row.cases_passed, row.cases_total = record["passed"], record["cases_passed"], record["cases_total"]
    row.mistake, row.mistake_key = record["mistake"], record["mistake_key"]
    if record.get("borrowed"):
        row.note = record["borrowed"]
    if record["not_written"]:
        row.note = "还没写：函数仍然抛出 NotImplementedError（书里的骨架）"
    elif not record["passed"]:
        row.note = f"第一项没过：{record['first_failure']}：{record['problem']}"
        failed = run["notebook"].get("failed", [])
        if failed:                        # 例如 import 了没装的包：函数调用时才报 NameError，原因在这里
            first = failed[0]
            where = f"第 {first['cell']} 个代码格第 {first['line']} 行"
            row.note += f"（笔记本里评分要运行的语句出错了：{where}：{first['error']}）"
    return row
