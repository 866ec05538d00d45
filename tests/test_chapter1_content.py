"""Every worked figure the chapter must show is in its stored outputs, computed by labcode."""
import json
import re
from pathlib import Path

import numpy as np
import pytest

import labcode

BOOK = Path(__file__).resolve().parents[1] / "book"
NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+(?:e[-+]?\d+)?")


def output_numbers(notebook):
    """All numbers printed or glued in a notebook's stored outputs, with the decimals they were shown with."""
    nb = json.loads((BOOK / notebook).read_text(encoding="utf-8"))
    texts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            texts.append("".join(out.get("text", "")))
            for mime, value in out.get("data", {}).items():
                if mime.endswith("text/plain"):
                    texts.append("".join(value))
    found = []
    for token in NUMBER.findall("\n".join(texts)):
        decimals = len(token.split(".")[1].split("e")[0]) if "." in token else 0
        found.append((float(token), decimals))
    return found


def shown(numbers, value, decimals):
    """Is `value` shown with at least `decimals` decimals (rounded) somewhere?"""
    return any(d >= decimals and abs(x - value) <= 0.5 * 10 ** -d + 1e-15 for x, d in numbers
               if not (d == 0 and decimals > 0))


def chapter1_figures():
    z = np.log([2.0, 1.0, 0.5])
    figures = {
        "scores from h=[1,2]": (np.array([[0, 0], [1, 0], [0, 1]]) @ np.array([1.0, 2.0]), 0),
        "softmax([0,1,2])": (labcode.softmax([0.0, 1.0, 2.0]), 8),
        "softmax([0,1,3])": (labcode.softmax([0.0, 1.0, 3.0]), 7),
        "shared denominator": (np.exp([0.0, 1.0, 3.0]).sum(), 5),
        "worked example p*7": (labcode.softmax(z) * 7, 0),
        "worked example loss": (labcode.cross_entropy(z, 1), 6),
        "extreme loss": (labcode.cross_entropy([1000.0, -1000.0], 1), 1),
        "uniform loss ln V": (labcode.cross_entropy(np.zeros(27), 0), 6),
        "temperature entropies": ([labcode.entropy(labcode.softmax([2.0, 1.0, 0.0], temperature=t))
                                   for t in (0.5, 1.0, 2.0)], 4),
        "exp overflow threshold": (np.log(np.finfo(np.float64).max), 2),
        "float64 spacing near 2000": (np.spacing(2000.0), 4),
        "-ln eps": (-np.log(1e-9), 6),
        "perplexity: uniform V, worked example": ([labcode.perplexity(np.zeros(27), 0),
                                                   labcode.perplexity(z, 1)], 6),
        "two candidates: sigmoid of the score difference": (
            [1 / (1 + np.exp(-(a - b))) for a, b in ((2.0, 0.5), (0.0, 3.0), (-4.0, -4.0))], 6),
    }
    return figures


@pytest.mark.parametrize("name", list(chapter1_figures()))
def test_chapter1_shows_every_required_figure(name):
    numbers = output_numbers("01_probability_to_loss.ipynb")
    values, decimals = chapter1_figures()[name]
    missing = [float(v) for v in np.atleast_1d(values) if not shown(numbers, float(v), decimals)]
    assert not missing, f"{name}: not in the stored outputs: {missing}"


def test_chapter1_shows_the_overflow_it_explains():
    nb = json.loads((BOOK / "01_probability_to_loss.ipynb").read_text(encoding="utf-8"))
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert "[inf inf inf]" in printed and "[nan nan nan]" in printed


def test_chapter1_shows_the_underflow_to_zero_over_zero_beside_it():
    nb = json.loads((BOOK / "01_probability_to_loss.ipynb").read_text(encoding="utf-8"))
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert "exp(small) = [0. 0. 0.]" in printed and printed.count("[nan nan nan]") >= 2
    assert "1 + e^-40 == 1： True" in printed


def test_a_figure_that_is_not_shown_is_reported():
    numbers = output_numbers("01_probability_to_loss.ipynb")
    assert not shown(numbers, 0.12345678, 8)


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
