"""Chapter 1 and the book-wide rules of its prose: what the stored outputs print, indices from 0, the symbols
(the worked figures are in tests/figures.py)."""
import json
import re

import pytest

from notebook_outputs import BOOK, markdown_text, maths, uses_symbol


def test_chapter1_shows_the_overflow_it_explains():
    nb = json.loads((BOOK / "01_probability_to_loss.ipynb").read_text(encoding="utf-8"))
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert "[inf inf inf]" in printed and "[nan nan nan]" in printed


def test_chapter1_shows_the_underflow_to_zero_over_zero_beside_it():
    nb = json.loads((BOOK / "01_probability_to_loss.ipynb").read_text(encoding="utf-8"))
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert "exp(small) = [0. 0. 0.]" in printed and printed.count("[nan nan nan]") >= 2
    assert "1 + e^-40 == 1： True" in printed


# Candidates are numbered from 0, as in the code (appendix, "数学从 1 数，Python 从 0 数"): prose that counts
# them from 1, or calls the entry numbered y "the y-th", contradicts that.
ONE_BASED_CANDIDATES = re.compile(r"k = 1, \\dots, V|\\sum_\{k=1\}\^\{V\}|第 \$[ky]\$ (?:项|个分量)")


@pytest.mark.parametrize("name", ["intro.ipynb", "book/01_probability_to_loss.ipynb", "book/appendix.ipynb"])
def test_candidates_are_numbered_from_zero_in_the_prose(name):
    found = ONE_BASED_CANDIDATES.findall(markdown_text(BOOK.parent / name))
    assert not found, f"{name} counts candidates from 1: {found}"


def test_the_numbering_check_can_fail():
    assert ONE_BASED_CANDIDATES.findall(r"$e_y$（第 $y$ 项为 1）, $\sum_{k=1}^{V} e^{z_k}$, $k = 1, \dots, V$")


# The book-wide index rule (appendix, "编号与序数"): subscripts are code indices from 0 (z_0 is the first score,
# positions t too), "第 k 个" counts from 1, and a 0-based position in prose is "编号为 k 的…". Each pattern is a way of
# writing that breaks it: a list or a sum starting at 1, the last score as z_V, two candidates as z_1 and z_2, an
# ordinal on an index letter ("第 $t$ 个位置"), "第 3 行" for W[3] (a quoted “第 3 行” names the form to avoid).
INDEX_RULE = re.compile(r"(?<!_0, )[a-z]_1,\s*\\dots|\\(?:sum|prod)_\{[a-z]\s*=\s*1\}|z_V\b|z_\{V\}|z_1 - z_2|z_2 - z_1"
                        r"|第 \$[a-z]\$ ?(?:个|项|行|列|层)|(?<!“)第 \d+ (?:行|列|项|个分量|个位置|格)|（第一个）")
RULE_PAGES = ["book/01_probability_to_loss.ipynb", "book/appendix.ipynb", "book/glossary.md"]


@pytest.mark.parametrize("name", RULE_PAGES)
def test_pages_follow_the_index_and_ordinal_rule(name):
    found = INDEX_RULE.findall(markdown_text(BOOK.parent / name))
    assert not found, f"{name} breaks the index rule: {found}"


def test_the_index_rule_check_can_fail():
    wrong = [r"$z_1, \dots, z_V$", r"$\prod_{t=1}^{T} p_t$", r"$\sigma(z_1 - z_2)$", "第 $t$ 个位置",
             "W 的第 3 行", "数学里的 z_1（第一个）"]
    right = [r"$z_0, z_1, \dots, z_{V-1}$", r"$\prod_{t=0}^{T-1} p_t$", r"$\sigma(z_0 - z_1)$",
             "编号为 $t$ 的位置", "编号为 3 的行", "不写“第 3 行”", "第 1 章", "第二个候选"]
    assert all(INDEX_RULE.search(text) for text in wrong)
    assert not any(INDEX_RULE.search(text) for text in right)


# --- symbols: what a page writes in its formulas ----------------------------------------

def test_symbol_detection_can_fail():
    f = maths(r"$\ln S$, $H(p)$, $e_y$, $dZ = X^{\mathsf T}$, $\varepsilon_{\text{mach}}$, $\tau$")
    assert uses_symbol("S", f) and uses_symbol("H(p)", f) and uses_symbol("dZ", f) and uses_symbol(r"\tau", f)
    assert not uses_symbol("H", f) and not uses_symbol("T", f) and not uses_symbol("n", f)
    assert not uses_symbol("y", f) and not uses_symbol("Z", f) and not uses_symbol(r"\varepsilon", f)


CHAPTER1 = BOOK / "01_probability_to_loss.ipynb"
# Temperature written T: "T = 0.5", "T<1", "T \to 0", "z / T", "p_i(T)".
TEMPERATURE_AS_T = re.compile(r"(?<![A-Za-z\\_{])T\s*(?:[<>=]|\\to)|/\s*T(?![A-Za-z_{])|\(T\)")


def test_chapter1_writes_temperature_as_tau_and_the_normaliser_as_s():
    formulas = maths(markdown_text(CHAPTER1))
    assert TEMPERATURE_AS_T.findall(formulas) == []
    assert uses_symbol(r"\tau", formulas) and uses_symbol("S", formulas)
    assert not uses_symbol("Z", formulas), "chapter 1 calls the normaliser Z (it is S)"
    assert TEMPERATURE_AS_T.search(maths(r"$p_i(T) = e^{z_i/T}$, $T<1$, $T \to 0$"))
    assert not TEMPERATURE_AS_T.search(maths(r"$(B, T, V)$, $t = 0, \dots, T-1$, $T_{\max}$"))


def test_chapter1_stores_w_as_d_by_v_and_scores_with_its_columns():
    text = markdown_text(CHAPTER1)
    assert "$(d, V)$" in text and "$(V, d)$" not in text and "W_k" not in text
    cells = json.loads(CHAPTER1.read_text(encoding="utf-8"))["cells"]
    assert any("logits = h @ W" in "".join(c["source"]) for c in cells if c["cell_type"] == "code")
