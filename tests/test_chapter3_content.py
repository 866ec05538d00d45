"""Every worked figure chapter 3 must show is in its stored outputs, computed by labcode."""
import json

import numpy as np
import pytest

import labcode
from test_chapter_content import BOOK, output_numbers, shown

NOTEBOOK = "03_shared_embedding.ipynb"
E = np.zeros((6, 2))
E[3], E[5] = [1.0, 0.0], [0.0, 2.0]
IDS = np.array([3, 5, 3])
C = np.array([[1.0, 2.0], [-1.0, 1.0], [3.0, -1.0]])


def chapter3_figures():
    H = labcode.embedding(E, IDS)
    dE = labcode.embedding_backward(C, IDS, 6)
    wrong = labcode.embedding_backward_overwrite(C, IDS, 6)
    numeric = labcode.numerical_grad(lambda table: np.sum(C * labcode.embedding(table, IDS)), E)
    return {
        "H rows [1,0],[0,2],[1,0]": (H, 0),
        "one-hot S": (labcode.one_hot(IDS, 6), 0),
        "probe contributions 1, 2, 3": ((C * H).sum(axis=1), 0),
        "probe J = 6": (np.sum(C * H), 1),
        "row 3 gets [4, 1], row 5 [-1, 1]": (np.concatenate([dE[3], dE[5]]), 0),
        "overwrite bug row 3 = [3, -1]": (wrong[3], 0),
        "central difference on E[3][0] = 4": (numeric[3, 0], 6),
        "bag of rows [1, 2] in both orders": (H[:2].sum(axis=0), 0),
    }


@pytest.mark.parametrize("name", list(chapter3_figures()))
def test_chapter3_shows_every_required_figure(name):
    numbers = output_numbers(NOTEBOOK)
    values, decimals = chapter3_figures()[name]
    missing = [float(v) for v in np.atleast_1d(values).ravel() if not shown(numbers, float(v), decimals)]
    assert not missing, f"{name}: not in the stored outputs: {missing}"


def stored(notebook=NOTEBOOK):
    nb = json.loads((BOOK / notebook).read_text(encoding="utf-8"))
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    return nb, printed


def test_chapter3_prints_the_exact_matrices_and_the_checks_that_pass():
    _, printed = stored()
    assert "[[1. 0.]\n [0. 2.]\n [1. 0.]]" in printed                      # H, and S @ E
    assert "[ 3. -1.]" in printed and "[ 4.  1.]" in printed and "[-1.  1.]" in printed
    for check in ("逐位相等： True", "与 labcode.embedding_backward 相等： True", "前向逐位相等： True",
                  "反向一致： True", "dP 前 4 行 = 两句同位置之和： True", "相等： True",
                  "E 的梯度最大误差小于 1e-8： True", "P 的梯度最大误差小于 1e-8： True"):
        assert check in printed, check
    assert "False" not in printed.replace("向量相同吗？ False", "").replace("整表相同： False", "")


def test_chapter3_computes_its_figures_with_labcode():
    nb, _ = stored()
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    for call in ("labcode.embedding(", "labcode.one_hot(", "labcode.embedding_backward(", "labcode.numerical_grad(",
                 "labcode.embed_with_positions(", "labcode.embed_with_positions_backward(", "np.add.at(",
                 "g_wrong[ids] += C", "plots.embedding_rows(", "corpus.make_batch("):
        assert call in source, call


def test_chapter3_figure_is_numbered_captioned_and_has_alt_text():
    nb, _ = stored()
    figures = [c for c in nb["cells"] if c.get("metadata", {}).get("mystnb", {}).get("figure")]
    assert [f["metadata"]["mystnb"]["figure"]["name"] for f in figures] == ["fig-ch3-rows"]
    for cell in figures:
        assert cell["metadata"]["mystnb"]["image"]["alt"]
        assert any("image/png" in o.get("data", {}) for o in cell["outputs"])
