"""Chapter 1 and the pages around it: what the stored outputs print, and candidates counted from 0 in the prose."""
import json
import re

import pytest

from notebook_outputs import BOOK


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


def markdown_text(path):
    if path.suffix == ".md":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


@pytest.mark.parametrize("name", ["intro.md", "book/01_probability_to_loss.ipynb", "book/appendix.ipynb"])
def test_candidates_are_numbered_from_zero_in_the_prose(name):
    found = ONE_BASED_CANDIDATES.findall(markdown_text(BOOK.parent / name))
    assert not found, f"{name} counts candidates from 1: {found}"


def test_the_numbering_check_can_fail():
    assert ONE_BASED_CANDIDATES.findall(r"$e_y$（第 $y$ 项为 1）, $\sum_{k=1}^{V} e^{z_k}$, $k = 1, \dots, V$")
