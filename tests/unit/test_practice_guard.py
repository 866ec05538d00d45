"""A checker survives anything the reader's function does (labcode/practice/guard.py, battery.run): it raises, hangs,
prints, exits or changes its arguments, and the check still ends, in bounded time, with one case per probe and a
Chinese report that says what happened. Property tests draw the reader's behaviour case by case, and the seeds of
the random cases (grading draws fresh ones for every student)."""
from __future__ import annotations

import copy
import functools
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import labcode
from labcode import bigram, idioms, practice
from labcode.practice import guard


def train(loss_and_grad, W, lr, steps, sign=-1):
    losses = []
    for _ in range(steps):
        loss, dW = loss_and_grad(W)
        losses.append(loss)
        W = W + sign * lr * dW
    return W, [*losses, loss_and_grad(W)[0]]


# Each checker, a right function, and the positions of the array arguments the reader must leave unchanged.
RIGHT = {
    "check_softmax": (labcode.softmax, [0]), "check_logsumexp": (labcode.logsumexp, [0]),
    "check_cross_entropy": (labcode.cross_entropy, [0]), "check_cross_entropy_grad": (labcode.cross_entropy_grad, [0]),
    "check_numerical_grad": (labcode.numerical_grad, [1]), "check_mean_loss": (labcode.cross_entropy, [0, 1]),
    "check_embedding_backward": (labcode.embedding_backward, [0, 1]),
    "check_bigram_loss_and_grad": (bigram.loss_and_grad, [0, 1, 2]),
    "check_counts_loss_and_grad": (bigram.loss_and_grad_from_counts, [0, 1]), "check_training_loop": (train, [1]),
    "check_interpolated_nll": (idioms.interpolated_nll, [0, 1, 2]),
}
CHECKS = {getattr(practice, name): right for name, right in RIGHT.items()}


@functools.cache
def cases(check) -> int:
    """How many cases the checker runs (asked when a test needs it, not while pytest collects)."""
    return len(check(CHECKS[check][0]).cases)


def cross_entropy_float32(z, y):
    z = np.asarray(z, dtype=np.float32)
    return z.max() + np.log(np.exp(z - z.max()).sum()) - z[y]


def mean_loss_float32(logits, targets):
    valid = targets != -100
    z, y = logits[valid].astype(np.float32), targets[valid]
    m = z.max(axis=1, keepdims=True)
    return np.mean(m[:, 0] + np.log(np.exp(z - m).sum(axis=1)) - z[np.arange(len(y)), y])


FLOAT32 = {practice.check_cross_entropy: cross_entropy_float32, practice.check_mean_loss: mean_loss_float32,
           practice.check_softmax: lambda z: labcode.softmax(np.asarray(z, dtype=np.float32)).astype(np.float32)}
MARK = "@@printed@@"


class Odd(BaseException):
    """An exception that is not an Exception, as GeneratorExit and SystemExit are not."""


RAISES = [ValueError("boom"), ZeroDivisionError("division by zero"), SystemExit(3), SystemExit(),
          GeneratorExit(), Odd("odd"), RecursionError("deep")]
BEHAVIOURS = st.one_of(
    st.just(("right",)), st.tuples(st.just("print"), st.text(max_size=30)),
    st.tuples(st.just("raise"), st.sampled_from(range(len(RAISES)))),
    st.tuples(st.just("junk"), st.one_of(st.none(), st.text(max_size=5), st.integers(), st.booleans(),
                                         st.lists(st.floats(allow_nan=True), max_size=4), st.just(np.zeros((2, 2, 2))),
                                         st.just(np.array(["a"])), st.just(float("nan")))),
    st.tuples(st.just("mutate"), st.integers(0, 2), st.integers(0, 10**6)),
)


def reader(right, positions, behaviours):
    """A reader's function that does behaviours[k] on its k-th call."""
    calls = []

    def fn(*args):
        kind, *details = behaviours[len(calls) % len(behaviours)]
        calls.append(kind)
        if kind == "raise":
            raise RAISES[details[0]]
        if kind == "junk":
            return details[0]
        value = copy.deepcopy(right(*args))
        if kind == "print":
            print(MARK + details[0])
            print(MARK, file=sys.stderr)
        if kind == "mutate":                      # the right value, then one entry of an array argument changed
            array = args[positions[details[0] % len(positions)]].reshape(-1)
            finite = np.flatnonzero(np.isfinite(array))
            array[finite[details[1] % finite.size]] += 1 if array.dtype.kind in "iu" else 0.5
        return value
    return fn


@settings(max_examples=30)
@given(data=st.data(), check=st.sampled_from(list(CHECKS)))
def test_whatever_the_reader_does_on_each_case_the_check_ends_with_one_case_per_probe(data, check):
    right, positions = CHECKS[check]
    behaviours = data.draw(st.lists(BEHAVIOURS, min_size=cases(check), max_size=cases(check)))
    result = check(reader(right, positions, behaviours))
    text, html = str(result), result._repr_html_()
    assert len(result.cases) == cases(check) and not result.not_written
    assert MARK not in text and MARK not in html               # printed, but never into the report
    for case, (kind, *details) in zip(result.cases, behaviours, strict=True):
        if kind in ("right", "print"):
            assert case.passed, f"{case.name}: {case.message}"
        elif kind == "mutate":
            assert not case.passed and case.mistake is not None and case.mistake.key == "input_modified", case
            assert "被改动了（调用后与调用前不同）" in case.message
        elif kind == "raise":
            error = RAISES[details[0]]
            assert not case.passed and case.message.startswith(f"调用时抛出了 {type(error).__name__}："), case
            if isinstance(error, SystemExit):
                assert "sys.exit()" in case.message
    assert result.passed == all(kind in ("right", "print") or (kind == "junk" and case.passed)
                                for case, (kind, *_) in zip(result.cases, behaviours, strict=True))
    printed = [kind for kind, *_ in behaviours if kind == "print"]
    assert (MARK in result.printed) == bool(printed) and (result.printed_chars > 0) == bool(printed)
    assert ("  打印：" in text) == bool(printed)
    assert str(check(reader(right, positions, behaviours))) == text   # the same report again


@settings(max_examples=6)
@given(seed=st.integers(0, 2**63 - 1))
@example(seed=55)           # float32 rounding beyond rtol on a random case: the tolerance's float32 room is needed
@example(seed=78)
def test_on_any_seed_right_functions_pass_and_the_same_slips_get_the_same_names(seed):
    """Grading draws fresh random cases for every student (seed): nothing of the book's own cases is lost."""
    for check, (right, _) in CHECKS.items():
        result = check(right, seed=seed)
        assert result.passed, str(result)
    for check, right in FLOAT32.items():         # float32 inside: the report promises these pass too
        assert check(right, seed=seed).passed, str(check(right, seed=seed))

    def softmax_no_shift(z):
        return np.exp(z) / np.exp(z).sum()

    def overwrite(dH, ids, V):
        dE = np.zeros((V, dH.shape[1]))
        dE[ids] += dH
        return dE
    slips = [(practice.check_softmax, softmax_no_shift, "no_max_shift"),
             (practice.check_cross_entropy_grad, lambda z, y: -labcode.cross_entropy_grad(z, y), "gradient_sign"),
             (practice.check_embedding_backward, overwrite, "repeated_ids_overwrite"),
             (practice.check_mean_loss, lambda z, t: labcode.cross_entropy(z, t, reduction="sum") / len(t),
              "denominator_counts_ignored"),
             (practice.check_training_loop, lambda lg, W, lr, steps: train(lg, W, lr, steps, sign=+1), "descent_sign")]
    for check, slip, key in slips:
        result = check(slip, seed=seed)
        assert not result.passed and result.mistakes[0].key == key, str(result)


def test_a_seed_gives_other_random_cases_and_the_same_seed_the_same_ones():
    book, again = practice.check_softmax(labcode.softmax), practice.check_softmax(labcode.softmax)
    drawn, redrawn = practice.check_softmax(labcode.softmax, seed=7), practice.check_softmax(labcode.softmax, seed=7)

    def random_args(result):
        return [case.args[0].tolist() for case in result.cases if case.name.startswith("随机")]
    assert random_args(book) == random_args(again) and random_args(drawn) == random_args(redrawn)
    assert random_args(drawn) != random_args(book)
    assert [c.name for c in drawn.cases] == [c.name for c in book.cases]      # the same kinds of case
    for bad in (-1, 1.5, "7", True):
        with pytest.raises((ValueError, TypeError), match="seed 必须是"):
            practice.check_softmax(labcode.softmax, seed=bad)


# ---- time limits: small ones here, so that a hanging function costs a fraction of a second ----

@pytest.fixture
def short_limits(monkeypatch):
    monkeypatch.setattr(guard, "CASE_SECONDS", 0.2)
    monkeypatch.setattr(guard, "CHECK_SECONDS", 0.6)


def _sleeps(z):
    time.sleep(10)


def _spins(z):
    while True:
        pass


def _swallows(z):
    while True:
        try:
            while True:
                pass
        except BaseException:                           # a bare except around the loop: the limit comes back
            pass


@pytest.mark.parametrize("fn", [_sleeps, _spins, _swallows], ids=lambda f: f.__name__)
def test_a_function_that_hangs_is_stopped_case_by_case_and_the_check_within_its_budget(fn, short_limits):
    start = time.perf_counter()
    result = practice.check_softmax(fn)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.6 + 0.5, elapsed                 # the check's budget, not 12 cases × 10 s
    assert not result.passed and len(result.cases) == cases(practice.check_softmax)
    messages = [case.message for case in result.cases]
    assert messages[0] == "超时：0.2 秒内没有返回（是不是死循环？也可能是每次调用都在做很慢的计算）"
    assert messages[-1] == "没有运行：前面的几项已经用完了这次检查的 0.6 秒"
    assert "第一项没过：书里的例子 [0, 1, 2]" in str(result) and "超时" in str(result)


def test_a_slow_case_among_quick_ones_fails_alone(short_limits, monkeypatch):
    monkeypatch.setattr(guard, "CHECK_SECONDS", 2.0)

    def slow_on_big(z):
        if np.abs(z).max() > 500:
            time.sleep(5)
        return labcode.softmax(z)
    result = practice.check_softmax(slow_on_big)
    failed = [case.name for case in result.failures]
    assert failed == ["分数都很大 [1000, 1001, 1002]", "分数都很负 [-1000, -1001, -1002]", "跨度很大 [-1000, 0, 1000]"]


def test_the_limit_also_holds_when_the_check_runs_outside_the_main_thread(short_limits):
    """No SIGALRM there (nor on Windows): a watchdog thread raises the time-out in the reader's loop."""
    out = {}

    def run():
        start = time.perf_counter()
        out["result"] = practice.check_softmax(_spins)
        out["elapsed"] = time.perf_counter() - start
    worker = threading.Thread(target=run)
    worker.start()
    worker.join(10)
    assert not worker.is_alive() and out["elapsed"] < 1.1, out
    assert out["result"].cases[0].message.startswith("超时：0.2 秒内没有返回")


def test_no_time_out_escapes_after_the_check(short_limits):
    practice.check_softmax(_spins)
    time.sleep(0.3)                                      # a left-over timer would raise here
    assert practice.check_softmax(labcode.softmax).passed


def test_a_check_called_inside_the_readers_function_shares_its_limit(short_limits):
    def checks_itself(z):
        practice.check_softmax(labcode.softmax)
        return labcode.softmax(z)
    assert practice.check_softmax(checks_itself).passed


def test_the_default_limits_keep_a_ten_second_function_from_taking_minutes():
    """The review's case: a function taking 10 s made check_mean_loss take 100 s; now a check stops at its budget."""
    assert guard.CASE_SECONDS <= 3 and guard.CHECK_SECONDS <= 10


def test_keyboard_interrupt_still_stops_the_check():
    def interrupted(z):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        practice.check_softmax(interrupted)


def test_prints_are_kept_for_the_reader_but_out_of_the_report(capsys):
    def chatty(z):
        print("第", len(z), "个" * 3000)
        return labcode.softmax(z)
    result = practice.check_softmax(chatty)
    assert result.passed and capsys.readouterr() == ("", "")
    assert result.printed.startswith("第 3 ") and len(result.printed) == guard.PRINT_LIMIT
    assert result.printed_chars == sum(len(f"第 {n} {'个' * 3000}\n") for n in (3, 4, 1, 3, 7, 27, 100, 6, 3, 3, 3, 2))
    assert f"打印：你的函数在检查时打印了 {result.printed_chars} 个字符，没有放进报告" in str(result)
    assert "print(r.printed)" in result._repr_html_()


def test_a_function_that_replaces_sys_stdout_does_not_keep_it_replaced():
    before = sys.stdout

    def steals(z):
        sys.stdout = open(__file__)                      # noqa: SIM115 - the reader's odd code
        return labcode.softmax(z)
    practice.check_softmax(steals)
    assert sys.stdout is before


def test_a_return_value_whose_methods_exit_is_a_failed_case():
    class Exits(float):
        def __float__(self):
            raise SystemExit(1)

        def __repr__(self):
            raise SystemExit(2)
    result = practice.check_logsumexp(lambda z: Exits(1.0))
    assert not result.passed and len(result.cases) == cases(practice.check_logsumexp)
    assert "SystemExit" in str(result)


def test_every_checker_is_in_these_tests():
    assert {getattr(practice, name) for name in practice.__all__ if name.startswith("check_")} == set(CHECKS)
