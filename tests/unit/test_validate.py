"""labcode._validate: every generic argument check names the argument, the rule and the value it got."""
import math

import numpy as np
import pytest

from labcode._validate import (
    IdError,
    as_float_array,
    as_ids,
    as_logits,
    as_probs,
    as_table,
    check_axis,
    check_bool,
    check_choice,
    check_count,
    check_each,
    check_int,
    check_nonneg,
    check_positive,
    check_range,
    check_real,
    check_rng,
    check_temperature,
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
    with pytest.raises(ValueError, match=r"^vocab_size 必须是不小于 3 的整数（要容纳特殊编号），收到 2$"):
        check_int(2, "vocab_size", 3, note="要容纳特殊编号")


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
    with pytest.raises(ValueError, match=r"^E 必须是二维数组（行数, d），收到形状 \(3,\)$"):
        as_table([1.0, 2.0, 3.0], "E")
