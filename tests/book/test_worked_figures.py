"""Every worked figure of tests/figures.py is in its chapter's stored outputs, with at least its decimals
(tests/book/test_chapters.py checks that every chapter of the registry has its list)."""
import pytest

import chapter_registry
from figures import FIGURES, figures
from notebook_outputs import output_numbers, shown

CASES = [(c.stem, figure) for c in chapter_registry.chapters() if c.stem in FIGURES for figure in figures(c.stem)]


@pytest.mark.parametrize(("stem", "figure"), CASES, ids=[f"{stem}: {figure.name}" for stem, figure in CASES])
def test_the_chapter_shows_its_worked_figure(stem, figure):
    numbers = output_numbers(f"{stem}.ipynb")
    missing = [v for v in figure.values() if not shown(numbers, v, figure.decimals)]
    assert not missing, f"{figure.name}: not in the stored outputs of {stem}.ipynb: {missing}"


def test_a_figure_that_is_not_shown_is_reported():
    numbers = output_numbers("01_probability_to_loss.ipynb")
    assert shown(numbers, figures("01_probability_to_loss")[1].values()[0], 8)
    assert not shown(numbers, 0.12345678, 8)
    assert not shown(output_numbers("04_bigram.ipynb"), 2.4540149, 7)  # the count NLL, one decimal too many
