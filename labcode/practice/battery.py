"""运行一组检查：安全地调用读者的函数，整理它的返回值，与 labcode 的参考答案比较，再请各个检查认出常见错误。

读者的函数抛出异常、返回 None、列表、形状不对或含 NaN，都记为一项没通过的检查，检查本身从不崩溃。
"""
from __future__ import annotations

import collections
import dataclasses
import functools
import numbers
import warnings
from dataclasses import dataclass

import numpy as np

from .._validate import check_int
from . import guard
from .report import Case, CheckResult, Hint
from .text import first_line, index_text, long_array, names, number, raw, show, worst

RTOL, ATOL = 1e-5, 1e-8
# 给 float32 留的余地：乘以这一项输入与期望值里最大的绝对值 s，加进 atol（float32 的机器精度的 4 倍）。
# 例如 logsumexp(z) - z[y] 在损失很小时两数相消，float32 的误差约为 ε₃₂·max|z|，不是损失的 1e-5 倍。
FLOAT32 = 4 * float(np.finfo(np.float32).eps)
TOLERANCE = (f"np.allclose(实际, 期望, rtol={RTOL:g}, atol={ATOL:g} + {FLOAT32:.1e}·s)，s 是这一项的输入和期望值里"
             "最大的绝对值（给 float32 的舍入误差留的余地：函数内部用 float32 计算也能通过）；期望值由 labcode 算出")


@dataclass(frozen=True)
class Probe:
    """一项检查：名字、传给读者函数的参数、期望的返回值，以及报告里显示的输入。"""

    name: str
    args: tuple
    expected: object
    shown: str
    slack: float = 0.0          # 加进 atol 的余地（float32，见 FLOAT32）


class Returned(tuple):
    """几个返回值，带着报告里用的名字，如 ``Returned(("W", "losses"), (W, losses))``；普通的 tuple 是 (loss, dW)。"""

    def __new__(cls, names, values):
        self = super().__new__(cls, values)
        self.names = tuple(names)
        return self


@dataclass(frozen=True)
class Raised:
    """读者的函数抛出的异常（与它“返回”一个异常对象区分开）。"""

    error: BaseException


# 读者的函数结束了整个程序时，报告里说清楚是哪一句（这些异常的 str 只是退出码）。
EXITS = {SystemExit: "函数里调用了 sys.exit()（或 exit()、quit()），它会结束整个程序；函数出了错请 raise 一个异常，"
                     "算完了请 return",
         GeneratorExit: "这个异常是 Python 用来关闭生成器的，函数里不要自己抛出它"}

# 预测里“这一部分不管”：例如只写错了损失的写法，梯度是什么都算符合。
ANY = object()


def run(check, fn, probes, *, coerce, predict, advice, params, modified, explain_error=None, explain_shape=None,
        tolerance=TOLERANCE, float32=True):
    """逐项调用 ``fn``，返回 :class:`CheckResult`；第一项就抛出 NotImplementedError 时报告“还没写”。

    ``predict(probe)`` 列出书里讲过的常见错误在这一项上会返回什么：[(Hint, 那种写法的返回值)]，同一种错误可以有
    几种写法；``explain_error(probe, Raised)`` 认出读者的函数抛出的错（Hint 或 None）。由 :func:`settle`
    定下每一项没过的检查认出的是哪一种错误。返回值的类型或形状不对时，``explain_shape(probe, 返回值)`` 可以补一句
    怎么改（文字），或者认出一种错误（Hint），或者 None：例如该返回一个数、读者却返回了一串数，只在那样改能得到
    对的值时，才说取哪一项或求平均。``tolerance`` 是报告里“比较标准”一行的文字；``float32`` 为 True 时，
    比较给 float32 的舍入误差留出余地（见 FLOAT32）。

    ``params`` 是读者函数各个参数的名字；``modified`` 给每个数组参数一条 Hint：返回值对了、这个数组却被改动了
    （原地运算改的是调用者的数组）时，这一项也没过，认出的错误是那条 Hint（见 :func:`changed`）。

    读者的代码在护栏里运行（:mod:`~labcode.practice.guard`）：每一项有时间限制，整次检查也有；它打印的内容
    收进 ``CheckResult.printed``，不混进报告；它抛出的任何异常（SystemExit 也是）都只是一项没通过的检查，
    只有 KeyboardInterrupt 照常传出去（读者按了中断）。
    """
    if not callable(fn):
        raise TypeError(f"fn 必须是函数（可调用对象），收到 {type(fn).__name__} 类型的值 {raw(fn)}："
                        f"请传入函数本身，如 {check}(你的函数)，而不是调用它得到的结果")
    if float32:
        probes = [dataclasses.replace(probe, slack=FLOAT32 * magnitude((probe.args, probe.expected)))
                  for probe in probes]

    def attempt(probe, first):
        """一项检查：调用、整理、比较、看参数有没有被改动。第一项就抛出 NotImplementedError 时返回 None。"""
        copies = tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in probe.args)  # 数组的副本
        outcome = invoke(fn, copies)
        if first and isinstance(outcome, Raised) and isinstance(outcome.error, NotImplementedError):
            return None
        verdict = judge(probe, outcome, coerce, predict, explain_error, explain_shape)
        if verdict[0].passed:
            verdict = changed(probe, copies, params, modified, verdict[2]) or verdict
        return verdict

    budget, capture = guard.Budget(), guard.Capture()
    judged = []
    for probe in probes:
        if budget.used_up:
            message = f"没有运行：前面的几项已经用完了这次检查的 {budget.total:g} 秒"
            judged.append((Case(probe.name, False, message, probe.shown, args=probe.args), (), set()))
            continue
        try:
            verdict = budget.run(functools.partial(attempt, probe, not judged), capture)
        except guard.TimeUp:
            verdict = _timed_out(probe, budget)
        except KeyboardInterrupt:
            raise
        except BaseException as err:  # 读者的返回值让检查本身出了错（如它的 __eq__ 调用了 sys.exit）
            verdict = Case(probe.name, False, f"检查这一项时，你的函数返回的值引发了 {type(err).__name__}",
                           probe.shown, args=probe.args), (), set()
        if verdict is None:
            case = Case(probe.name, False, "还没写：抛出了 NotImplementedError", probe.shown, args=probe.args)
            return CheckResult(check, [case], advice=advice, tolerance=tolerance, not_written=True)
        judged.append(verdict)
    return CheckResult(check, settle(judged), advice=advice, tolerance=tolerance, printed=capture)


def _timed_out(probe, budget):
    message = (f"超时：{budget.case:g} 秒内没有返回（是不是死循环？也可能是每次调用都在做很慢的计算）"
               if budget.limit() > 0 else f"超时：这次检查的 {budget.total:g} 秒用完了，这一项还没有返回")
    return Case(probe.name, False, message, probe.shown, expected=show(probe.expected), actual="（没有返回值）",
                args=probe.args), (), set()


def changed(probe, copies, params, modified, out):
    """数组参数在调用后与调用前逐位相同时返回 None；否则返回一项没过的检查（第一个被改动的参数）。

    认得出的错误是这个参数的 Hint；modified 里给的是 (Hint, 其他错误…) 时，还有那些本身就会改动参数、这一项的
    返回值又没能排除的错误（例如扰动完没复原：它在这一项上差得太少，要由别的项来分辨）。
    """
    for name, before, after in zip(params, probe.args, copies, strict=False):
        if not isinstance(before, np.ndarray) or _same(before, after):
            continue
        message = f"{name} 被改动了（调用后与调用前不同）"
        after = np.asarray(after)
        if after.shape != before.shape:
            message += f"：形状从 {before.shape} 变成了 {after.shape}"
        elif (~_equal(after, before)).any():
            at = tuple(int(i) for i in np.argwhere(~_equal(after, before))[0])
            message += f"：下标 {index_text(at)} 处从 {number(before[at])} 变成了 {number(after[at])}"
        else:
            message += f"：dtype 从 {before.dtype} 变成了 {after.dtype}"
        case = Case(probe.name, False, message, probe.shown, expected=f"调用后的 {name} = {show(before)}",
                    actual=f"调用后的 {name} = {show(after)}", args=probe.args)
        named, *also = modified[name] if isinstance(modified[name], tuple) else (modified[name],)
        return case, (named, *(hint for hint in also if hint.key not in out)), out
    return None


def _equal(a, b):
    equal = a == b
    if a.dtype.kind in "fc" and b.dtype.kind in "fc":
        equal |= np.isnan(a) & np.isnan(b)
    return equal


def _same(before, after):
    return isinstance(after, np.ndarray) and after.shape == before.shape and after.dtype == before.dtype \
        and bool(_equal(after, before).all())


def settle(judged):
    """[(Case, 这一项符合的错误, 这一项排除的错误)] -> 每一项没过的检查认出一种错误，或者不认。

    一种错误预测某一项会错、读者却通过了这一项，就不是它。其余的里，能解释的没过的项越多，越可能是读者真犯的那一种：
    每一项取它的候选里解释得最多的那一种（例如 y = 1 时 p - y 与 p - 1 相同，y = 0 的那一项分得清）。
    几种在整组检查里都分不清时（例如损失求和不平均，梯度也就没有除以 N），取 predict 里排在前面的那一种。
    """
    ruled_out = set().union(*(out for _, _, out in judged))
    suspects = [[hint for hint in found if hint.key not in ruled_out] for _, found, _ in judged]
    votes = collections.Counter(key for found in suspects for key in {hint.key for hint in found})

    def choose(found):
        best = max(votes[hint.key] for hint in found)
        return next(hint for hint in found if votes[hint.key] == best)

    return [dataclasses.replace(case, mistake=choose(found)) if found else case
            for (case, _, _), found in zip(judged, suspects, strict=True)]


def draws(seed, stream):
    """随机检查用的数：seed 为 None 时是书里固定的那一组（stream 是各组检查自己的编号，报告逐字相同）；
    seed 是整数时换一组新的，同一个 seed 总是同一组（评分用：:mod:`labcode.grade`）。"""
    if seed is None:
        return np.random.default_rng(stream)
    return np.random.default_rng([check_int(seed, "seed", 0, 2**63 - 1), stream])


def invoke(fn, copies):
    """调用 fn(*copies)；警告不打印，异常作为 Raised 返回（SystemExit 也是：读者的 sys.exit() 不结束检查）。
    超时（guard.TimeUp）和读者按下的中断（KeyboardInterrupt）照常传出去。"""
    with np.errstate(all="ignore"), warnings.catch_warnings(action="ignore"):
        try:
            return fn(*copies)
        except (guard.TimeUp, KeyboardInterrupt):
            raise
        except BaseException as err:  # 读者代码里的任何错误都只是一项没通过的检查
            return Raised(err)


def judge(probe, outcome, coerce, predict, explain_error, explain_shape):
    """这一项的 Case（还没定下认出的错误）、它的结果符合的常见错误，和它排除的常见错误（见 settle）。"""
    failed = functools.partial(Case, probe.name, False, inputs=probe.shown, args=probe.args)
    if isinstance(outcome, Raised):
        err = outcome.error
        message = f"调用时抛出了 {type(err).__name__}：{EXITS.get(type(err)) or first_line(err)}"
        found = safely(lambda: explain_error(probe, outcome) if explain_error else None, None)
        case = failed(message, expected=show(probe.expected), actual="（没有返回值）")
        return case, (found,) if found is not None else (), set()
    try:
        value, problem = coerce(outcome, probe.expected)
    except (guard.TimeUp, KeyboardInterrupt):
        raise
    except BaseException as err:  # 返回值古怪到连读都读不了（例如元素的 __float__ 出错）
        value, problem = None, f"返回值无法读取：{type(err).__name__}"
    if problem:
        advice = safely(lambda: explain_shape(probe, outcome), None) if explain_shape else None
        found = (advice,) if isinstance(advice, Hint) else ()
        if isinstance(advice, str):
            problem += f"。{advice}"
        return failed(problem, expected=show(probe.expected), actual=raw(outcome)), found, set()
    wrong = safely(lambda: predict(probe), [])
    if passes(value, probe.expected, probe.slack):
        return Case(probe.name, True, "通过", args=probe.args), (), \
            safely(lambda: ruled_out(value, wrong, probe.slack), set())
    at = focus(value, probe.expected)
    case = failed(describe(value, probe.expected, probe.slack), expected=show(probe.expected, at),
                  actual=show(value, at))
    # 在这一项上本来就得出期望值的写法（例如只写错了损失、而这一项的损失恰好不受影响）解释不了这一项为什么没过
    explains = [(hint, wrong_value) for hint, wrong_value in wrong
                if not same_values(probe.expected, wrong_value, probe.slack)]
    return case, safely(lambda: mistakes_matching(value, explains, probe.slack), ()), set()


def safely(compute, otherwise):
    """认错误只是锦上添花：读者的返回值再古怪，也不能让检查崩溃（出错时得到 otherwise：什么也没认出）。"""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings(action="ignore"):
            return compute()
    except (guard.TimeUp, KeyboardInterrupt):
        raise
    except BaseException:
        return otherwise


def ruled_out(passed, wrong, slack=0.0):
    """读者通过了这一项：在这一项上每种写法都会出错的那些错误（的 key），就不是读者犯的。"""
    keys = {hint.key for hint, _ in wrong}
    return {key for key in keys
            if not any(same_values(passed, value, slack) for hint, value in wrong if hint.key == key)}


# ---- 整理返回值：(值, None)，或 (None, 问题) ----

def coerce_array(value, expected):
    """读者应返回与 expected 同形状的浮点 NumPy 数组。"""
    if value is None:
        return None, "函数返回了 None：是不是忘了写 return？"
    if not isinstance(value, np.ndarray):
        problem = f"返回的是 {type(value).__name__}，应返回 NumPy 数组"
        if isinstance(value, (list, tuple)) and _values_right(value, expected):
            problem += "（数值是对的，用 np.asarray(...) 转成数组再返回即可）"
        return None, problem
    if value.dtype.kind != "f":
        return None, f"应返回浮点数组，收到 dtype {value.dtype}"
    if value.shape != expected.shape:
        problem = f"形状应为 {expected.shape}，收到 {value.shape}"
        if value.ndim == 2 and value.shape == expected.shape[::-1]:
            problem += "，正好是转置的形状"
        return None, problem
    return value, None


def coerce_number(value, expected=None):
    """读者应返回一个实数：float、np.float64/np.float32 或 0 维数组都可以。"""
    if value is None:
        return None, "函数返回了 None：是不是忘了写 return？"
    if isinstance(value, (bool, np.bool_)):
        return None, f"应返回一个数，收到布尔值 {value}"
    if isinstance(value, numbers.Real):
        return float(value), None
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu":
        if value.ndim == 0:
            return float(value), None
        if value.size == 1:
            return None, f"应返回一个数，收到形状 {value.shape} 的数组（可以用 float(...) 取出这个数）"
        # 几个数怎么变成一个，要看它们是什么（.sum()、.mean() 常常是另一个错的损失）：由各个检查的 explain_shape 说
        return None, f"应返回一个数，收到形状 {value.shape} 的数组"
    return None, f"应返回一个数，收到 {type(value).__name__}"


def coerce_loss_and_grad(value, expected):
    """读者应返回 (loss, dW) 两个值：loss 是一个数，dW 是与 W 同形状的数组。"""
    if value is None:
        return None, "函数返回了 None：是不是忘了写 return？"
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        return None, f"应返回两个值 (loss, dW)，收到 {type(value).__name__}"
    loss, problem = coerce_number(value[0])
    if problem:
        return None, f"loss：{problem}"
    dW, problem = coerce_array(value[1], expected[1])
    if problem:
        return None, f"dW：{problem}"
    return (loss, dW), None


def several_numbers(value):
    """value 是含不止一个数的数值数组时，返回它的 float64 副本；否则 None（explain_shape 只管这种返回值）。"""
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu" and value.size > 1:
        return value.astype(np.float64)
    return None


def _values_right(value, expected):
    try:
        arr = np.asarray(value, dtype=np.float64)
    except Exception:
        return False
    return arr.shape == expected.shape and passes(arr, expected)


# ---- 比较 ----

def passes(actual, expected, slack=0.0):
    """通过的标准：全部有限，且 np.allclose(actual, expected, rtol=RTOL, atol=ATOL + slack)。"""
    if isinstance(expected, tuple):
        return all(passes(a, e, slack) for a, e in zip(actual, expected, strict=True))
    with np.errstate(all="ignore"):
        a = np.asarray(actual, dtype=np.float64)
        return bool(np.isfinite(a).all() and np.allclose(a, expected, rtol=RTOL, atol=ATOL + slack))


def magnitude(values):
    """一组参数和期望值里最大的有限绝对值（数组、数、嵌套的 tuple；函数之类的不算）。"""
    if isinstance(values, (tuple, list)):
        return max((magnitude(v) for v in values), default=0.0)
    if isinstance(values, (np.ndarray, float, np.floating)) and np.asarray(values).dtype.kind == "f":
        finite = np.abs(np.asarray(values, dtype=np.float64))
        finite = finite[np.isfinite(finite)]
        return float(finite.max()) if finite.size else 0.0
    return 0.0


def same_values(actual, wrong, slack=0.0):
    """actual 是否就是某个错误写法的结果（NaN 与 NaN、inf 与 inf 算相同；一组值逐个比，ANY 的部分不管）。
    slack 同 :func:`passes`：通过时用的余地，比较错误写法时也用它。"""
    if isinstance(wrong, tuple):
        return isinstance(actual, tuple) and len(actual) == len(wrong) and \
            all(w is ANY or same_values(a, w, slack) for a, w in zip(actual, wrong, strict=True))
    with np.errstate(all="ignore"):
        a, w = np.asarray(actual, dtype=np.float64), np.asarray(wrong, dtype=np.float64)
        return a.shape == w.shape and bool(np.allclose(a, w, rtol=RTOL, atol=ATOL + slack, equal_nan=True))


def mistakes_matching(actual, wrong, slack=0.0):
    """[(Hint, 那种错误写法的结果)] 里结果与 actual 相同的那些 Hint（同一种错误只列一次）。"""
    return tuple({hint.key: hint for hint, value in wrong if same_values(actual, value, slack)}.values())


def describe(actual, expected, slack=0.0):
    """没通过时的一句话：哪里含 nan/inf，或哪个下标差得最多。"""
    if isinstance(expected, tuple):
        parts = [f"{name}：{describe(a, e)}" for name, a, e in zip(names(expected), actual, expected, strict=True)
                 if not passes(a, e, slack)]
        return "；".join(parts)
    a = np.asarray(actual, dtype=np.float64)
    for bad, word in ((np.isnan(a), "nan"), (np.isinf(a), "inf")):
        if bad.any():
            where = "" if a.ndim == 0 else f"（下标 {index_text(np.argwhere(bad)[0])} 处）"
            return f"结果含 {word}{where}"
    if a.ndim == 0:
        return f"与期望差 {number(abs(float(a) - float(expected)))}"
    k = worst(a, expected)
    return f"下标 {index_text(k)} 处差得最多：期望 {number(expected[k])}，实际 {number(a[k])}"


def focus(actual, expected):
    """报告里期望和实际要看的同一处：大的多维数组里差得最多的下标（对 (loss, dW) 这样的一组值逐个取）。"""
    if isinstance(expected, tuple):
        return tuple(focus(a, e) for a, e in zip(actual, expected, strict=True))
    if isinstance(expected, np.ndarray) and expected.ndim > 1 and np.shape(actual) == expected.shape \
            and (long_array(expected) or long_array(np.asarray(actual))):
        return tuple(int(i) for i in worst(actual, expected))
    return None


