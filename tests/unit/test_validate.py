"""labcode._validate: every generic argument check names the argument, the rule and the value it got,
and no other module writes one of its own."""
import ast
import math
import re
from pathlib import Path

import numpy as np
import pytest

import labcode
from labcode import _validate
from labcode._validate import (
    MAX_ELEMENTS,
    IdError,
    as_array,
    as_counts,
    as_finite_array,
    as_float_array,
    as_ids,
    as_list,
    as_logits,
    as_pairs,
    as_probs,
    as_row,
    as_table,
    check_alpha,
    check_axis,
    check_bool,
    check_callable,
    check_choice,
    check_count,
    check_each,
    check_gamma,
    check_int,
    check_lr,
    check_nonneg,
    check_overflow,
    check_path,
    check_positive,
    check_prev,
    check_range,
    check_real,
    check_reg,
    check_rng,
    check_size,
    check_slider,
    check_temperature,
    check_text,
    short_repr,
)

# ---- scalars ----

def test_real_scalars_come_back_as_python_floats():
    assert check_real(np.float32(0.5), "x") == 0.5 and type(check_real(np.int64(-2), "x")) is float
    assert check_positive(1e-300, "lr") == 1e-300
    assert check_nonneg(0, "alpha") == 0.0
    assert check_temperature(np.float64(2.0)) == 2.0


@pytest.mark.parametrize("check, rule", [(check_real, "有限实数"), (check_positive, "正的有限实数"),
                                         (check_nonneg, "非负的有限实数")])
@pytest.mark.parametrize("bad, error, shown", [
    (math.nan, ValueError, "nan"), (math.inf, ValueError, "inf"), (-math.inf, ValueError, "-inf"),
    ("1", TypeError, "'1'"), (True, TypeError, "True"), (None, TypeError, "None"), ([1.0], TypeError, r"\[1.0\]"),
    (1 + 2j, TypeError, r"\(1\+2j\)"),
])
def test_real_checks_reject_non_finite_and_non_real_values(check, rule, bad, error, shown):
    with pytest.raises(error, match=rf"^x 必须是{rule}，收到 {shown}$"):
        check(bad, "x")


@pytest.mark.parametrize("check, bad, rule", [(check_positive, 0, "正的有限实数"),
                                              (check_positive, -0.5, "正的有限实数"),
                                              (check_nonneg, -1e-12, "非负的有限实数")])
def test_sign_rules(check, bad, rule):
    with pytest.raises(ValueError, match=rf"^lr 必须是{rule}（学习率 η），收到 {bad}$"):
        check(bad, "lr", note="学习率 η")


def test_numpy_scalars_are_shown_as_plain_numbers():
    with pytest.raises(ValueError, match=r"^temperature 必须是正的有限实数，收到 -1.5$"):
        check_temperature(np.float64(-1.5))


@pytest.mark.parametrize("args, rule", [((), "整数"), ((0,), "非负整数"), ((1,), "正整数"), ((3,), "不小于 3 的整数"),
                                        ((0, 9), r" \[0, 9\] 内的整数")])
def test_int_rules_name_their_bounds(args, rule):
    bad = (args[0] - 1) if args else 2.5
    error = ValueError if args else TypeError
    with pytest.raises(error, match=rf"^n 必须是{rule}，收到 {bad}$"):
        check_int(bad, "n", *args)


@pytest.mark.parametrize("bad", [2.0, True, "3", np.float64(1.0), None])
def test_ints_must_be_integers_not_bools_or_floats(bad):
    with pytest.raises(TypeError, match=r"^n 必须是正整数，收到 "):
        check_count(bad, "n")


def test_int_checks_pass_integers_through_as_python_ints():
    assert check_int(np.int64(7), "seed", 0, 2**32 - 1) == 7 and type(check_count(np.int8(3), "n")) is int
    with pytest.raises(ValueError, match=r"^seed 必须是 \[0, 4294967295\] 内的整数，收到 4294967296$"):
        check_int(2**32, "seed", 0, 2**32 - 1)
    with pytest.raises(ValueError, match=r"^vocab_size 必须是不小于 3 的整数（要容纳特殊词元），收到 2$"):
        check_int(2, "vocab_size", 3, note="要容纳特殊词元")


@pytest.mark.parametrize("pair, error", [((1, 1), ValueError), ((2, 1), ValueError), ((0, math.inf), ValueError),
                                         ((math.nan, 1), ValueError), ("ab", TypeError), ((1,), TypeError),
                                         ((1, 2, 3), TypeError), (5, TypeError), ((True, 2), TypeError),
                                         (("0", "1"), TypeError)])
def test_range_pairs(pair, error):
    with pytest.raises(error, match=r"^x_range 必须是两个有限实数 \(最小, 最大\)，且 最小 < 最大，收到 "):
        check_range(pair, "x_range")


def test_positive_range_pairs():
    assert check_range([0.1, 10], "t_range", positive=True) == (0.1, 10.0)
    assert check_range(np.array([-3, 3]), "z_range") == (-3.0, 3.0)
    with pytest.raises(ValueError, match=r"^t_range 必须是两个有限实数 \(最小, 最大\)，且 0 < 最小 < 最大.*\(0, 10\)"):
        check_range((0, 10), "t_range", positive=True)


def test_choice_bool_and_generator():
    assert check_choice("sum", "reduction", ("mean", "sum")) == "sum"
    with pytest.raises(ValueError, match=r"^reduction 必须是 \('mean', 'sum'\) 之一，收到 'avg'$"):
        check_choice("avg", "reduction", ("mean", "sum"))
    with pytest.raises(ValueError, match=r"收到 \['mean'\]$"):
        check_choice(["mean"], "reduction", ("mean", "sum"))
    assert check_bool(np.bool_(True), "show_bug") is True
    with pytest.raises(TypeError, match=r"^show_bug 必须是 True 或 False，收到 1$"):
        check_bool(1, "show_bug")
    rng = np.random.default_rng(0)
    assert check_rng(rng) is rng
    with pytest.raises(TypeError, match=r"^rng 必须是 numpy.random.Generator（.*），收到 42（int）$"):
        check_rng(42)
    with pytest.raises(TypeError, match=r"收到 RandomState\(MT19937\).*（RandomState）$"):
        check_rng(np.random.RandomState(0))


# ---- arrays ----

def test_float_arrays_refuse_text_bools_objects_and_complex():
    assert as_float_array([1, 2], "x").dtype == np.float64
    for bad, dtype in [(["a"], "<U1"), ([True], "bool"), ([None], "object"), ([1j], "complex128")]:
        with pytest.raises(TypeError, match=rf"^x 必须是实数数组，收到 dtype {dtype}："):
            as_float_array(bad, "x")


def test_check_each_names_the_first_bad_element_and_where_it_is():
    x = np.array([[1.0, 2.0], [np.nan, -1.0]])
    row = x[0]
    assert check_each(row, row > 0, "x", "正数") is row
    with pytest.raises(ValueError, match=r"^x 的每个元素都必须是正数，收到 nan（位置 \(1, 0\)）$"):
        check_each(x, x > 0, "x", "正数")
    with pytest.raises(ValueError, match=r"^x 的每个元素都必须是正数，收到 -1.0（位置 1）$"):
        check_each(x[1, 1:].repeat(2), [True, False], "x", "正数")
    with pytest.raises(ValueError, match=r"收到 0.0（标量）$"):
        check_each(np.float64(0.0), np.array(False), "x", "正数")


def test_logits_and_axis():
    z = as_logits([[0.0, -np.inf], [1.0, 2.0]], axis=1)
    assert z.dtype == np.float64
    with pytest.raises(ValueError, match=r"^logits 的候选轴（axis=0）长度必须至少为 1，收到形状 \(0, 3\)$"):
        as_logits(np.zeros((0, 3)), axis=0)
    with pytest.raises(ValueError, match=r"^W 的每一行至少要有一个有限分数，有的行全是 -inf"):
        as_logits([[0.0, 1.0], [-np.inf, -np.inf]], "W")
    with pytest.raises(ValueError, match=r"^logits 不能含 \+inf（概率无法定义），收到 \[ 0. inf\]$"):
        as_logits([0.0, np.inf])
    with pytest.raises(TypeError, match=r"^axis 必须是整数，收到 1.0$"):
        check_axis(1.0, 2)
    with pytest.raises(ValueError, match=r"^axis 必须在 \[-2, 2\) 内（数组有 2 维），收到 -3$"):
        check_axis(-3, 2)
    assert check_axis(-1, 3) == 2


def test_probs_ids_and_tables():
    p, axis = as_probs([[0.5, 0.5], [1.0, 0.0]], axis=-1)
    assert axis == 1 and p.shape == (2, 2)
    with pytest.raises(ValueError, match=r"^probs 必须全是有限数"):
        as_probs([np.nan, 1.0])
    assert as_ids([], 3).dtype == np.int64
    with pytest.raises(IdError, match=r"^ids 的每个编号都必须 < 3（表只有 3 行），收到 3（位置 \(1, 0\)）$"):
        as_ids([[0, 1], [3, 0]], 3)
    with pytest.raises(IndexError, match=r"^ids 含忽略值 -100（位置 1）"):
        as_ids([0, -100], 3)
    with pytest.raises(ValueError, match=r"^E 必须是至少一行的二维数组（行数, d），收到形状 \(3,\)$"):
        as_table([1.0, 2.0, 3.0], "E")


# ---- the rules several modules share ----

@pytest.mark.parametrize("check, name, rule, bad", [
    (check_lr, "lr", "正的有限实数（学习率 η）", 0), (check_alpha, "alpha", "非负的有限实数（平滑的伪计数 α）", -1),
    (check_reg, "reg", "非负的有限实数（正则化系数 λ）", -0.5),
    (check_gamma, "gamma", " [0, 1] 内的有限实数（插值权重 γ）", 2)])
def test_named_rules_say_what_the_symbol_is(check, name, rule, bad):
    with pytest.raises(ValueError, match=rf"^{name} 必须是{re.escape(rule)}，收到 {bad}$"):
        check(bad)


def test_the_previous_character_is_an_id_of_the_vocabulary():
    assert check_prev(np.int64(3), 4) == 3
    with pytest.raises(ValueError, match=r"^prev 必须是 \[0, 3\] 内的整数（前一个字的编号），收到 4$"):
        check_prev(4, 4)


def test_counts_pairs_and_rows():
    ints = np.array([[1, 0], [2, 3]])
    assert as_counts(ints) is ints and as_counts([[1.5, 0], [0, 1]]).dtype == np.float64   # no copy of int counts
    with pytest.raises(ValueError, match=r"^counts 必须是 \(V, V\) 的方阵，收到形状 \(2, 3\)$"):
        as_counts(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"^counts 的形状必须是 \(3, 3\)（与 W 相同），收到 \(2, 2\)$"):
        as_counts(ints, 3)
    with pytest.raises(ValueError, match=r"^counts 至少要有一个正的计数，收到全 0 矩阵$"):
        as_counts(np.zeros((2, 2)))
    assert as_counts(np.zeros((2, 2)), nonzero=False).sum() == 0
    with pytest.raises(ValueError, match=r"^counts 的总和必须能用 int64 表示（计数太大），收到总和 9.22e\+18$"):
        as_counts(np.full((2, 2), 2**61))
    xs, ys = as_pairs([0, 1], [1, 1], 2)
    assert xs.tolist() == [0, 1] and ys.dtype == np.int64
    with pytest.raises(ValueError, match=r"^xs 与 ys 必须是等长的非空一维编号数组，收到形状 \(2,\) 与 \(1,\)$"):
        as_pairs([0, 1], [1], 2)
    with pytest.raises(ValueError, match=r"^logits 必须是一维且与 labels 等长（3 项），收到形状 \(2,\)$"):
        as_row([1, 2], "logits", "abc")


def test_arrays_lists_and_text():
    with pytest.raises(ValueError, match=r"^x 必须是形状整齐的数组（同一层的每一行一样长），收到 \[\[1, 2\], \[3\]\]$"):
        as_array([[1, 2], [3]], "x")
    with pytest.raises(ValueError, match=r"^x 的每个元素都必须是有限数，收到 -inf（位置 1）$"):
        as_finite_array([0, -np.inf], "x")
    assert as_list((1, 2), "xs", "数") == [1, 2]
    with pytest.raises(ValueError, match=r"^xs 至少要有一个数，收到空序列$"):
        as_list(iter([]), "xs", "数")
    with pytest.raises(TypeError, match=r"^xs 必须是由数组成的列表，收到 3（int）$"):
        as_list(3, "xs", "数")
    assert check_text("", "s", empty=True) == ""
    with pytest.raises(TypeError, match=r"^s 必须是非空字符串，收到 b'a'（bytes）$"):
        check_text(b"a", "s")
    assert short_repr([[1, 2], [3]]) == "[[1, 2], [3]]" and len(short_repr(list(range(1000)))) <= 80


def test_functions_paths_and_optional_numbers():
    assert check_callable(None, "callback", optional=True) is None and check_callable(len, "f") is len
    with pytest.raises(TypeError, match=r"^callback 必须是函数（可调用对象）或 None，收到 'x'（str）$"):
        check_callable("x", "callback", optional=True)
    assert check_path(Path("a.txt")) == Path("a.txt")
    for bad, shown in [(b"a.txt", "b'a.txt'（bytes）"), ("", "''（str）"), (None, "None（NoneType）")]:
        with pytest.raises(TypeError, match=rf"^path 必须是文件路径（.*），收到 {re.escape(shown)}$"):
            check_path(bad)
    lo, hi, step = check_slider((0, 1), 0.5, "lr", positive=False)
    assert (lo, hi, step) == (0.0, 1.0, 0.5)
    with pytest.raises(ValueError, match=r"^lr_step 必须不超过滑块范围的宽度 1，收到 2.0$"):
        check_slider((0, 1), 2, "lr")


def test_sizes_are_checked_before_allocating_and_overflow_is_named():
    assert check_size((7071, 7071), "vocab_size", 7071) == (7071, 7071)   # 49,999,041 numbers: just under
    with pytest.raises(ValueError, match=r"^vocab_size 必须让结果不超过 50,000,000 个数（float64 约 400 MB），"
                                         r"收到 7072：结果形状 \(7072, 7072\) 有 50,013,184 个数$"):
        check_size((7072, 7072), "vocab_size", 7072)
    assert MAX_ELEMENTS * 8 == 400_000_000
    finite = np.array([1.0, 2.0])
    assert check_overflow(finite, "Z", "X") is finite
    with pytest.raises(ValueError, match=r"^X 与 W 的取值太大：Z 必须在 float64 的范围内（.*），算出 nan$"):
        check_overflow(np.float64("nan"), "Z", "X 与 W")


# ---- one place for every generic check ----

LABCODE = Path(labcode.__file__).parent
CHECKERS = {name for name in dir(_validate) if name.startswith(("check_", "as_"))}


def modules_outside_validate():
    """(path relative to labcode, parsed module) for every labcode module but _validate.py."""
    for path in sorted(LABCODE.rglob("*.py")):
        if path.name != "_validate.py":
            yield path.relative_to(LABCODE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def functions(tree):
    return [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


def raised_messages(function):
    """The message of each `raise Error(f"...")` directly in this function: its parts, as ast nodes."""
    for node in ast.walk(function):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            message = node.exc.args[0]
            yield message.values if isinstance(message, ast.JoinedStr) else [message]


def template(parts):
    """The fixed text of a message, every value put in it written as {}."""
    return "".join(p.value if isinstance(p, ast.Constant) else "{}" for p in parts)


def checker_calls(tree):
    """Calls of _validate's checkers: (checker, argument name given as a literal or None, note literal or None)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in CHECKERS:
            name = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "name"),
                                                                 None)
            note = next((k.value for k in node.keywords if k.arg == "note"), None)
            literal = [v.value if isinstance(v, ast.Constant) else None for v in (name, note)]
            yield node.func.id, *literal


def without_notes(text):
    """A message without its notes in （…）: two copies of one check drift first in their notes."""
    return re.sub(r"（[^（）]*）", "", text)


def rule(text):
    """The rule a message states, "必须…" up to "，收到", without numbers (an example's seed is no new rule)
    and without notes."""
    start = text.find("必须")
    return re.sub(r"\d", "", without_notes(text[start:]).split("，收到")[0]) if start >= 0 else ""


# Rules about a concept that include finiteness, each stated once: the shares of a split add up to 1.
CONCEPT_RULES = {"words.py split_words"}


def checks_finiteness_by_hand(function):
    """`if` tests that reduce np.isfinite/isnan/isinf over an array with .all()/.any() and raise: the
    element check that _validate's array checkers make (as_finite_array, as_counts, check_each), with the
    value and its position in the message."""
    def reduces(call):
        return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
            and call.func.attr in {"all", "any"} \
            and any(isinstance(p, ast.Attribute) and p.attr in {"isfinite", "isnan", "isinf"} for p in ast.walk(call))
    for node in ast.walk(function):
        if isinstance(node, ast.If) and any(isinstance(s, ast.Raise) for s in node.body) \
                and any(reduces(part) for part in ast.walk(node.test)):
            yield node.lineno


def checks_1d_by_hand(function):
    """`if x.ndim != 1: raise …` alone: the rule of _validate.check_1d, written again."""
    for node in ast.walk(function):
        test = node.test if isinstance(node, ast.If) else None
        if isinstance(test, ast.Compare) and isinstance(test.left, ast.Attribute) and test.left.attr == "ndim" \
                and isinstance(test.ops[0], ast.NotEq) and isinstance(test.comparators[0], ast.Constant) \
                and test.comparators[0].value == 1 and any(isinstance(s, ast.Raise) for s in node.body):
            yield node.lineno


VALIDATE_RULES = {rule(template(parts)) for function in functions(ast.parse(Path(_validate.__file__).read_text(
    encoding="utf-8"))) for parts in raised_messages(function)}
VALIDATE_RULES = {r for r in VALIDATE_RULES if len(r.replace("{}", "")) >= 8}


def generic_checks(modules):
    """What a module may not write for itself, with where it is. A check is generic when
    (a) its subject comes from its caller: a message in the book's check style ("x 必须…") starts with one of the
        function's own parameters, so the function checks whatever argument it is given;
    (b) it only applies one of _validate's checkers to its own parameter (a named rule, like the learning rate's;
        a traitlets validator handing on proposal["value"] is wiring, not a rule);
    (c) the same rule (a checker, a literal argument name and a note) is spelled out in two places;
    (d) the same message is written in two functions (a copied check, which drifts);
    (e) a message states a rule of _validate's own (a copy of one of its checks);
    (f) an element-wise finiteness check, or a lone one-dimension check, written by hand.
    Messages are compared without their notes in （…）, where copies drift first."""
    found, rules, messages = [], {}, {}
    for path, tree in modules:
        for function in functions(tree):
            params = {a.arg for a in function.args.args + function.args.kwonlyargs}
            where = f"{path}:{function.lineno} {function.name}"
            for parts in raised_messages(function):
                text = template(parts)
                head = parts[0] if parts else None
                if "必须" in text and isinstance(head, ast.FormattedValue) and isinstance(head.value, ast.Name) \
                        and head.value.id in params:
                    found.append(f"{where}: its subject is its parameter {head.value.id!r} (a generic check)")
                if len(text) > 12:
                    messages.setdefault(without_notes(text), set()).add(where)
                if rule(text) in VALIDATE_RULES:
                    found.append(f"{where}: states _validate's rule {rule(text)!r} (use its checker)")
            if f"{path} {function.name}" not in CONCEPT_RULES:
                found += [f"{where}: checks every element's finiteness by hand (use _validate's array checkers)"
                          for _ in checks_finiteness_by_hand(function)]
            found += [f"{where}: checks one dimension by hand (use check_1d)" for _ in checks_1d_by_hand(function)]
            body = [s for s in function.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            call = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in CHECKERS \
                    and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id in params:
                found.append(f"{where}: only wraps {call.func.id} (a named rule belongs in _validate)")
        for checker, name, note in checker_calls(tree):
            if name and note:
                rules.setdefault((checker, name), []).append((path, note))
    found += [f"the rule of {name!r} ({checker}) is written {len(places)} times: {places}"
              for (checker, name), places in rules.items() if len(places) > 1]
    found += [f"the message {text!r} is written in {sorted(places)}" for text, places in messages.items()
              if len(places) > 1]
    return found


def test_no_module_writes_a_generic_check_of_its_own():
    assert generic_checks(modules_outside_validate()) == []


@pytest.mark.parametrize("code, what", [
    ('def _check_x(x, name):\n    if x < 0:\n        raise ValueError(f"{name} 必须是正数，收到 {x}")', "subject"),
    ("def _check_alpha(alpha):\n    return check_nonneg(alpha, 'alpha', note='α')", "only wraps"),
    ("def f(a):\n    check_nonneg(a, 'alpha', note='伪计数 α')\ndef g(a):\n    check_nonneg(a, 'alpha', note='α')",
     "written 2 times"),
    ('def f(xs):\n    raise ValueError(f"xs 与 ys 必须等长，收到 {xs}")\n'
     'def g(xs):\n    raise ValueError(f"xs 与 ys 必须等长，收到 {xs}")', "is written in"),
    ('def f(z):\n    raise ValueError(f"logits 必须是一维的（V 个分数），收到形状 {z}")\n'
     'def g(z):\n    raise ValueError(f"logits 必须是一维的（分数），收到形状 {z}")', "is written in"),
    ('def f(p):\n    raise ValueError(f"p 必须是一维且与 labels 等长，收到 {p}")', "states _validate's rule"),
    ('def f(w):\n    if not np.isfinite(w).all():\n        raise ValueError("w 的每个元素都必须是有限数")', "by hand"),
    ('def f(p):\n    if p.ndim != 1 or np.any(~np.isfinite(p)):\n        raise ValueError("p 要有限")', "by hand"),
    ('def f(ids):\n    if ids.ndim != 1:\n        raise ValueError(f"ids 要一维，收到 {ids.shape}")', "check_1d"),
])
def test_the_generic_check_detector_sees_each_kind(code, what):
    """Each kind of generic check the detector knows, written the way the modules used to write them."""
    found = generic_checks([("module.py", ast.parse(code))])
    assert len(found) == 1 and what in found[0], found
