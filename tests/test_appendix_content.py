"""The appendix: the exact fractions and the errors it prints (the worked figures are in tests/figures.py)."""
from fractions import Fraction

import notebook_outputs

NOTEBOOK = "appendix.ipynb"


def printed_text():
    return notebook_outputs.printed_text(NOTEBOOK)


def test_appendix_shows_the_exact_fractions():
    text = printed_text()
    assert "['-40/3', '16/3']" in text
    xs, ps = [0, 1, 2], [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)]
    mu = sum(p * x for p, x in zip(ps, xs, strict=True))
    var = sum(p * (x - mu) ** 2 for p, x in zip(ps, xs, strict=True))
    assert (mu, var) == (1, Fraction(1, 2))
    assert f"期望 {mu}，方差 {var}" in text


def test_appendix_shows_the_broadcasting_pitfall_and_index_errors():
    text = printed_text()
    assert "(3, 1) 减 (3,) 的形状： (3, 3)" in text
    assert "IndexError: targets 必须在 [0, 3) 内" in text
    assert "ValueError: X 的最后一轴必须等于 W 的行数" in text
