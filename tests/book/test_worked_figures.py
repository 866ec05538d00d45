"""Every worked figure of tests/figures.py is in its chapter's stored outputs, with at least its decimals
(tests/book/test_chapters.py checks that every chapter of the registry has its list)."""
import pytest

import chapter_registry
from figures import FIGURES, figures
from notebook_outputs import output_numbers, shown

# One test per chapter: its figures are computed when it runs (chapter 5's take seconds), not while pytest collects.
STEMS = [c.stem for c in chapter_registry.chapters() if c.stem in FIGURES]


@pytest.mark.parametrize("stem", STEMS)
def test_the_chapter_shows_its_worked_figures(stem):
    numbers = output_numbers(f"{stem}.ipynb")
    missing = {figure.name: absent for figure in figures(stem)
               for absent in [[v for v in figure.values() if not shown(numbers, v, figure.decimals)]] if absent}
    assert not missing, f"not in the stored outputs of {stem}.ipynb: {missing}"


def test_a_figure_that_is_not_shown_is_reported():
    numbers = output_numbers("01_probability_to_loss.ipynb")
    assert shown(numbers, figures("01_probability_to_loss")[1].values()[0], 8)
    assert not shown(numbers, 0.12345678, 8)
    assert not shown(output_numbers("04_bigram.ipynb"), 2.4540149, 7)  # the count NLL, one decimal too many
