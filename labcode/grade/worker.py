"""评一本笔记本的子进程：``python -m labcode.grade.worker JOB``（JOB 是一段 JSON，由 :mod:`labcode.grade.batch` 给出）。

运行笔记本里定义要评的函数所需的语句（:mod:`labcode.grade.program`），每一句都有时间限制；再用书里的
``check_*``、换一组随机数（seed）检查每个函数。每评完一个函数就往结果文件里写一行 JSON：这个进程哪怕
随后被终止，已经评完的也不会丢。
"""
from __future__ import annotations

import builtins
import json
import os
import sys
from pathlib import Path

# 这个进程写的每个文件最多多大（字节）：一个不停往标准输出写的死循环不该写满教师的硬盘。
FILE_LIMIT = 64 * 2**20


def limit_resources(megabytes):
    """地址空间和文件大小的上限（Linux；别的系统不支持就算了）：一行 np.zeros(10**10) 不该拖垮教师的电脑。"""
    try:
        import resource
    except ImportError:
        return
    for which, size in (("RLIMIT_AS", int(megabytes) * 2**20), ("RLIMIT_FSIZE", FILE_LIMIT)):
        try:
            resource.setrlimit(getattr(resource, which), (size, size))
        except (ValueError, OSError, AttributeError):
            pass


def describe(error):
    """一个异常的一行中文说明。"""
    from labcode.practice.battery import EXITS
    from labcode.practice.text import first_line
    try:
        detail = EXITS.get(type(error)) or first_line(error)
    except BaseException:  # 学生的异常连 str() 都出错
        detail = "（说明读不出来）"
    return f"{type(error).__name__}：{detail}"


def run_statements(statements, path, seconds, namespace):
    """按顺序运行语句；每一句最多 seconds 秒。返回出错的那些：[{cell, line, names, error}]。"""
    from labcode.practice import guard
    failed = []
    for statement in statements:
        capture = guard.Capture()
        try:
            code = statement.code(path)
            with guard.captured(capture):
                guard.within(seconds, lambda code=code: exec(code, namespace))
        except guard.TimeUp:
            error = f"超时：{seconds:g} 秒内没有运行完"
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # 学生的代码：SyntaxError 之外的一切，包括 sys.exit()
            error = describe(err)
        else:
            continue
        failed.append({"cell": statement.cell, "line": statement.line, "names": sorted(statement.binds),
                       "error": error})
    return failed


def grade_function(exercise, seed, namespace, program, failed):
    """一个函数的评分结果（dict）：找不到、不是函数时说明原因，否则是检查的结果。"""
    import labcode.practice as practice
    from labcode.practice import guard
    record = {"function": exercise["function"]}
    fn = namespace.get(exercise["function"])
    if not callable(fn):
        record["note"] = missing(exercise["function"], fn, program, failed)
        return record
    check = getattr(practice, exercise["check"])
    try:
        result = check(fn, seed=seed)
    except guard.TimeUp:
        record["note"] = "检查超时"
        return record
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # 检查本身不该出错；万一出了，也只是这一道题没有评
        record["note"] = f"检查出错：{describe(err)}"
        return record
    record.update(summary(result))
    module = str(getattr(fn, "__module__", "") or "")
    if module.startswith("labcode"):             # my_softmax = labcode.softmax：检查会通过，老师该知道
        borrowed = f"{module}.{getattr(fn, '__qualname__', '')}"
        record["borrowed"] = f"{exercise['function']} 就是 labcode 里现成的 {borrowed}，不是自己写的"
    if result.not_written:            # 骨架只试了第一项：总数是这个检查一共有几项
        record["cases_total"] = len(check(lambda *args: None, seed=seed).cases)
    return record


def summary(result):
    """CheckResult 里写进 grades.csv 和反馈的部分。"""
    failures = result.failures
    hint = next((case.mistake for case in failures if case.mistake is not None), None)
    first = failures[0] if failures else None
    return {
        "passed": result.passed, "not_written": result.not_written,
        "cases_passed": 0 if result.not_written else len(result.cases) - len(failures),
        "cases_total": len(result.cases),
        "mistake_key": hint.key if hint else "", "mistake": hint.title if hint else "",
        "why": hint.why if hint else "", "fix": (hint or result.advice).fix, "where": (hint or result.advice).where,
        "first_failure": first.name if first else "", "problem": first.message if first else "",
        "printed_chars": result.printed_chars,
    }


def missing(name, value, program, failed):
    """为什么拿不到这个函数：定义它的语句出错、它所在的格有语法错误、它不是函数，或者根本没有定义。"""
    if value is not None:
        return f"{name} 不是函数，而是 {type(value).__name__}"
    for failure in failed:
        if name in failure["names"]:
            where = f"第 {failure['cell']} 个代码格第 {failure['line']} 行"
            return f"定义 {name} 的那一句出错了（{where}）：{failure['error']}"
    for cell in program.broken:
        if name in cell.names:
            where = f"第 {cell.cell} 个代码格第 {cell.line} 行"
            return f"定义 {name} 的那一格有语法错误（{where}：{cell.message}），这一格没有运行"
    return f"笔记本里没有定义 {name}"


def main(job):
    limit_resources(job["memory_mb"])
    from labcode.grade.program import load
    from labcode.practice import guard
    guard.CASE_SECONDS, guard.CHECK_SECONDS = job["case_seconds"], job["exercise_seconds"]
    path = Path(job["notebook"])
    with open(job["results"], "a", encoding="utf-8") as out:
        def emit(record):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()

        program = load(path)
        functions = [exercise["function"] for exercise in job["exercises"]]
        namespace = {"__name__": "__main__", "__builtins__": builtins}
        sys.path.append(str(path.parent))
        failed = run_statements(program.needed(functions), path.name, job["statement_seconds"], namespace)
        emit({"kind": "notebook", "failed": failed, "heads": program.heads,
              "broken": [{"cell": b.cell, "line": b.line, "message": b.message} for b in program.broken]})
        for exercise in job["exercises"]:
            emit({"kind": "exercise", **grade_function(exercise, exercise["seed"], namespace, program, failed)})


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
    sys.stdout.flush()
    os._exit(0)            # 不等学生代码留下的线程
