"""The appendix: what it prints, its symbol table and the glossary (the worked figures are in tests/figures.py)."""
import re
from fractions import Fraction

import numpy as np
import pytest

import chapter_registry
import labcode
import notebook_outputs
from figures import off_by_one_losses, untransposed_gap
from notebook_outputs import BOOK, markdown_text, maths, uses_symbol

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


def test_appendix_shows_when_labcode_catches_a_forgotten_shift():
    """The off-by-one label raises only when the batch holds the largest label; the exercise's batches too."""
    text = printed_text()
    right, wrong = off_by_one_losses([1, 2, 2])
    assert wrong > right
    assert f"[1 2 2] 减 1：损失 {right:.4f}；忘了减：损失 {wrong:.4f}，没有报错" in text
    assert "[1 3 2] 减 1：" in text and "忘了减：\n  IndexError: targets 必须在 [0, 3) 内" in text
    for batch in ([2, 5, 3], [2, 4, 3]):
        try:
            labcode.cross_entropy(np.zeros((3, 5)), np.array(batch))
            outcome = "没有报错"
        except IndexError:
            outcome = "IndexError"
        assert f"{batch} ：{outcome}" in text


def test_a_symmetric_matrix_hides_the_missing_transpose():
    """Exercise A.4: with X = X^T the wrong formula passes the check, with the printing example's X it does not."""
    gaps = [untransposed_gap(np.array([[4.0, 1.0], [1.0, 3.0]])), untransposed_gap(np.array([[10.0, 2.0], [4.0, 6.0]]))]
    assert gaps[0] < 1e-6 < 1 < gaps[1]
    text = printed_text()
    assert f"对称的 X：错写的梯度与中心差分的最大绝对误差 {gaps[0]:.1e}" in text
    assert f"不对称的 X：错写的梯度与中心差分的最大绝对误差 {gaps[1]:.1e}" in text


# --- the table of this book's symbols ---------------------------------------------------------

APPENDIX = BOOK / NOTEBOOK
CHAPTERS = {f"第\u00a0{c.number}\u00a0章": c.notebook for c in chapter_registry.numbered()}


def symbol_table():
    """Rows of the appendix's symbol table: {symbol: (meaning, shape, first chapter)}, one key per symbol."""
    text = markdown_text(APPENDIX)
    table = text[text.index(":name: tab-app-symbols"):]
    table = table[:table.index("\n:::")]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("符号", "---"):
            continue
        for symbol in re.findall(r"\$([^$]+)\$", cells[0]):
            assert symbol not in rows, f"{symbol} has two rows in the symbol table"
            rows[symbol] = tuple(cells[1:])
    return rows


# GUIDE-level decisions: each symbol, a word its meaning or shape must contain.
DECIDED = {"V": "词表", "d": "宽度", "B": "序列条数", "T": "位置个数", r"\tau": "温度", "h": "隐状态",
           r"\delta": "步长", r"\eta": "学习率", "W": "(d, V)", "b": "偏置", "E": "(V, d)", "P": "T_{\\max}",
           "H": "(T, d)", "z": "分数", "Z": "(n, V)", "S": "分母", "X": "(n, d)", "A": "系数", "q": "目标分布",
           "y": "真实目标", "e_y": "独热", r"\ell": "损失", "g": "p - e_y", "dZ": "梯度", "N": "有效目标",
           "C": "计数", r"\alpha": "伪计数", r"\beta": "标签平滑", r"\lambda": "正则化", r"\mu": "特征值",
           r"\mu_{\max}": "特征值", r"\varepsilon": "10^{-9}", r"\varepsilon_{\text{mach}}": "机器精度",
           "n": "行数", "J": "探针"}


def test_symbol_table_states_the_book_wide_decisions():
    rows = symbol_table()
    missing = {s: word for s, word in DECIDED.items() if s not in rows or word not in " ".join(rows[s])}
    assert not missing, f"symbol table rows missing or not saying so: {missing}"
    assert "温度" not in " ".join(rows["T"]), "T is the number of positions, never the temperature"
    for retired in ("D", "G", "L"):
        assert retired not in rows, f"{retired} is not a symbol of this book"
    assert all(row[2] in CHAPTERS or row[2] == "附录" for row in rows.values()), rows


@pytest.mark.parametrize("symbol", list(DECIDED) + [r"\sigma", "H(p)", "m", "t", "x", r"\hat p", "w", "r"])
def test_symbol_table_says_where_each_symbol_first_appears(symbol):
    """A symbol listed as first used in chapter 1 appears in chapter 1's formulas; one listed later does not.

    Chapter 1 and the appendix follow the table already; the other chapters are checked by their own tests.
    """
    _, _, first = symbol_table()[symbol]
    chapter1 = "第\u00a01\u00a0章"
    in_chapter1 = uses_symbol(symbol, maths(markdown_text(CHAPTERS[chapter1])))
    assert in_chapter1 == (first == chapter1), f"{symbol}: first appears in {first}, in chapter 1: {in_chapter1}"
    if first == "附录":
        assert uses_symbol(symbol, maths(markdown_text(APPENDIX)))


# --- the glossary ---------------------------------------------------------------------------

GLOSSARY = BOOK / "glossary.md"


def glossary_entries():
    """(term, English line or "") for each entry of the glossary directive, in order."""
    text = GLOSSARY.read_text(encoding="utf-8")
    block = text[text.index("```{glossary}"):]
    block = block[:block.index("\n```", 3)]
    return re.findall(r"^(\S[^\n]*)\n(?:([A-Za-z][^\n]*)\n)?  \S", block, flags=re.M)


def english_index():
    """(English, linked term) rows of the glossary's English index, in order."""
    text = GLOSSARY.read_text(encoding="utf-8")
    index = text[text.index("(glossary-english)="):]
    return re.findall(r"^\| (.+?) \| \{term\}`(.+?)` \|$", index, flags=re.M)


def test_english_index_lists_every_entry_alphabetically():
    entries, rows = glossary_entries(), english_index()
    terms = {term for term, _ in entries}
    wanted = {(english, term) for term, english in entries if english}
    wanted |= {(term, term) for term, _ in entries if term.isascii()}
    assert wanted <= set(rows), f"missing from the English index: {sorted(wanted - set(rows))}"
    assert {term for _, term in rows} <= terms, "the English index links a term the glossary does not define"
    keys = [english.casefold() for english, _ in rows]
    assert keys == sorted(keys) and len(set(keys)) == len(keys), "the English index is not in alphabetical order"


def test_glossary_has_the_terms_the_book_uses():
    terms = {term for term, _ in glossary_entries()}
    needed = {"反向传播", "偏置", "标签平滑", "机器精度", "掩码", "步长", "凸函数", "一阶近似", "特征值", "奈特",
              "权重绑定"}
    assert needed <= terms, f"not in the glossary: {sorted(needed - terms)}"
    text = GLOSSARY.read_text(encoding="utf-8")
    chain_rule = text[text.index("\n链式法则\n"):text.index("\n反向传播\n")]
    assert "相加" in chain_rule, "the chain rule entry must say that contributions along different paths add"


def test_symbol_table_states_its_real_rule_and_notes_the_chapter_1_and_2_symbols():
    text = markdown_text(APPENDIX)
    assert "每个符号只表示一件事" not in text and "只表示一件事，例外在表中注明" in text
    rows = symbol_table()
    for symbol, word in {"c": "平移", "u": "泛指", "f": "函数", "e_k": "自然常数", r"\ell'": "导数",
                         r"\operatorname{Var}_p(z)": "方差", r"\lVert g \rVert": "长度",
                         r"\partial p / \partial z": "雅可比"}.items():
        assert symbol in rows and word in rows[symbol][0], symbol


def test_the_derivative_rules_the_home_page_promises_are_in_the_appendix_and_checked():
    text = markdown_text(APPENDIX)
    rules = text[text.index("(app-derivative-rules)="):text.index("(app-mse)=")]
    for formula in ("(e^{x})' = e^{x}", "(\\ln x)' = 1/x", "(u / v)' = (u'\\,v - u\\,v') / v^2",
                    "\\bigl(u(v(x))\\bigr)' = u'(v(x))\\, v'(x)"):
        assert formula in rules, formula
    intro = markdown_text(BOOK.parent / "intro.ipynb")
    assert "导数和链式法则" in intro and "<app-derivative-rules>" in intro
    xs = np.array([-2.0, 0.0, 3.0])
    shown = printed_text()
    with np.printoptions(precision=6, suppress=True):
        assert f"σ(x)：    {1 / (1 + np.exp(-xs))}" in shown


def test_the_mse_gradient_check_reports_the_relative_error():
    """As chapter 2 says, a gradient check is judged on the relative error; the MSE gradient here is large."""
    X, y = np.array([[10.0, 2.0], [4.0, 6.0], [8.0, 0.0]]), np.array([62.0, 60.0, 45.0])
    w, b = np.array([3.0, 5.0]), 20.0
    grad = 2 / 3 * X.T @ (X @ w + b - y)
    assert np.abs(grad).max() > 10
    check = labcode.gradcheck(lambda v: float(np.mean((X @ v + b - y) ** 2)), grad, w)
    assert f"相对误差 {check.max_rel_error:.1e}" in printed_text()
