"""labcode's maths against an outside reference, scipy.special (written and tested apart from this course), on
drawn scores small and huge: as micrograd checks its values and gradients against PyTorch."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import special

import labcode

scores = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)
small = st.floats(min_value=-50, max_value=50, allow_nan=False, allow_infinity=False)
rows = st.one_of(arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 7)), elements=small),
                 arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 5)), elements=scores))


def close(mine, theirs, scale=0.0):
    """Equal to 12 digits. A value in the log domain (ln Σ exp z, z − ln Σ exp z) is held to a few units in the last
    place of the scores' size `scale` instead: near ln 1 = 0, labcode's m + ln(s) keeps fewer digits than SciPy's
    m + log1p(s − 1) (labcode.logsumexp's docstring says so)."""
    np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=max(1e-300, 4e-16 * scale))


@given(rows)
def test_softmax_log_softmax_and_logsumexp(z):
    close(labcode.softmax(z), special.softmax(z, axis=-1))
    size = max(1.0, float(np.abs(z).max()))
    close(labcode.log_softmax(z), special.log_softmax(z, axis=-1), size)
    close(labcode.logsumexp(z), special.logsumexp(z, axis=-1), size)
    close(labcode.softmax(z, axis=0), special.softmax(z, axis=0))


@given(arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 7)), elements=small),
       st.floats(min_value=0.05, max_value=20))
def test_temperature_divides_the_scores(z, tau):
    close(labcode.softmax(z, temperature=tau), special.softmax(z / tau, axis=-1))


@given(rows, st.data())
def test_cross_entropy_and_its_gradient(z, data):
    ids = data.draw(arrays(np.int64, z.shape[:-1], elements=st.integers(0, z.shape[-1] - 1)))
    picked = np.take_along_axis(special.log_softmax(z, axis=-1), ids[:, None], axis=-1)[:, 0]
    close(labcode.cross_entropy(z, ids, reduction="none"), -picked, max(1.0, float(np.abs(z).max())))
    close(labcode.cross_entropy_grad(z, ids, reduction="sum"), special.softmax(z, axis=-1) - np.eye(z.shape[-1])[ids])


@given(arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 7)), elements=small))
def test_entropy(z):
    p = special.softmax(z, axis=-1)
    close(labcode.entropy(p), special.entr(p).sum(axis=-1))
