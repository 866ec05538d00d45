"""labcode.glue publishes exactly what myst-nb's glue publishes, and works without myst-nb installed."""
import subprocess
import sys

import numpy as np
import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from myst_nb import glue as myst_glue

import labcode

# The kinds of value the chapters glue: Python floats and ints, NumPy scalars, formatted strings (floats with at
# most 12 significant digits: longer ones are rounded, below).
VALUES = [0.66524095577, np.float64(2.4540144), 27, np.int64(228146), "32,033", "an", 1e-9]


def published(glue, name, value, display):
    """The display outputs (MIME data, metadata) that one call of `glue` sends to the front end."""
    InteractiveShell.instance()
    with capture_output() as captured:
        glue(name, value, display=display)
    return [(output.data, output.metadata) for output in captured.outputs]


@pytest.mark.parametrize("display", [False, True])
@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_same_outputs_as_myst_nb(value, display):
    ours = published(labcode.glue, "x", value, display)
    assert len(ours) == 1 and ours[0][1]["scrapbook"]["name"] == "x"
    assert ours == published(myst_glue, "x", value, display)


def test_hidden_value_is_stored_under_the_prefix_myst_nb_reads():
    [(data, metadata)] = published(labcode.glue, "loss", np.float64(0.5), display=False)
    assert data == {"application/papermill.record/text/plain": "np.float64(0.5)"}
    assert metadata == {"scrapbook": {"name": "loss", "mime_prefix": "application/papermill.record/"}}


@pytest.mark.parametrize(("value", "stored"), [
    (0.6652409557748219, "0.665240955775"),
    (0.9999999676123184, "0.999999967612"),
    (74.41616949093661, "74.4161694909"),
    (np.float64(2.4540144447712345), "np.float64(2.45401444477)"),
    (-3.0517578125e-05, "-3.0517578125e-05"),
])
def test_floats_are_stored_with_twelve_significant_digits(value, stored):
    """The last digits of a float differ between CPUs (the order of a sum); stored in full, nbval would find the
    book's outputs changed on another machine."""
    [(data, _)] = published(labcode.glue, "x", value, display=False)
    assert data == {"application/papermill.record/text/plain": stored}


@pytest.mark.parametrize(("name", "display", "error", "match"), [
    ("", False, ValueError, "name 必须是非空字符串，收到 ''"),
    (3, False, TypeError, "name 必须是非空字符串，收到 3（int）"),
    ("x", "no", TypeError, "display 必须是 True 或 False，收到 'no'"),
])
def test_bad_arguments_are_named(name, display, error, match):
    with pytest.raises(error, match=match):
        labcode.glue(name, 1.0, display=display)


def test_works_where_myst_nb_cannot_be_imported():
    code = ("import sys; sys.modules['myst_nb'] = None\n"  # `import myst_nb` now raises ImportError
            "import labcode; labcode.glue('x', 1.5)\n"
            "assert 'myst_nb' not in [m.split('.')[0] for m in sys.modules if sys.modules[m] is not None]")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "1.5"
