"""Tests for the chapter-3 figure labcode.plots.embedding_rows."""
import numpy as np
import pytest
from matplotlib.figure import Figure

from labcode import plots

E = np.array([[0.5, -0.5], [0.1, 0.3], [-0.2, 0.4], [1.0, 0.0], [0.7, 0.7], [0.0, 2.0]])
C = np.array([[1.0, 2.0], [-1.0, 1.0], [3.0, -1.0]])


def texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_figure_marks_read_counts_and_the_summed_gradient_row():
    fig = plots.embedding_rows(E, [3, 5, 3], C)
    assert isinstance(fig, Figure)
    shown = texts(fig)
    assert "E[3] = [1, 0]  读 2 次" in shown and "E[5] = [0, 2]  读 1 次" in shown
    assert "E[4] = [0.7, 0.7]  未读" in shown
    assert "dE[3] = [1, 2] + [3, -1] = [4, 1]" in shown and "dE[4] = [0, 0]" in shown
    assert sum(t.startswith("位置 ") for t in shown) == 3
    fig.canvas.draw()  # renders without missing glyphs (a warning would fail under -W error in CI)


@pytest.mark.parametrize("E_bad, ids, grad, kind, pattern", [
    (E, [3, 6], np.zeros((2, 2)), IndexError, r"ids 的每个编号都必须 < 6"),
    (E, [[3]], np.zeros((1, 1, 2)), ValueError, r"ids 必须是一维且至多 8 个"),
    (np.zeros((11, 2)), [0], np.zeros((1, 2)), ValueError, r"E 至多 10 行、3 列才画得下"),
    (E, [3, 5], np.zeros((3, 2)), ValueError, r"grad_out 的形状必须是 ids.shape \+ \(d,\)"),
])
def test_bad_inputs_are_refused(E_bad, ids, grad, kind, pattern):
    with pytest.raises(kind, match=pattern):
        plots.embedding_rows(E_bad, ids, grad)
