"""Every exercise says whether it can be done with pen and paper or needs a computer: exactly one of the classes of
_ext/exercise_marks.py in its directive (CONTRIBUTING.md). The label it gives the title is checked on the site
(tests/site/test_site_build.py), in the learner's notebooks (tests/site/test_learner_notebooks.py) and in the
student handouts (tests/pdf/test_pdf.py)."""
import pytest

import chapter_registry
import exercise_marks
from notebook_outputs import exercise_classes

CHAPTERS = [c for c in chapter_registry.chapters() if exercise_classes(c.notebook)]


def test_the_chapters_have_exercises():
    assert len(CHAPTERS) >= 5


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.stem)
def test_every_exercise_is_marked_by_hand_or_needs_computer(chapter):
    unmarked = [(label, classes) for label, classes in exercise_classes(chapter.notebook)
                if sum(c in exercise_marks.MARKS for c in classes) != 1]
    assert unmarked == [], f"每道练习要有且只有一个 :class:（{' 或 '.join(exercise_marks.MARKS)}）：{unmarked}"


def test_a_mark_names_one_label():
    assert exercise_marks.mark_of(["by-hand"]) == "纸笔"
    assert exercise_marks.mark_of(["needs-computer"]) == "需要电脑"
    assert exercise_marks.mark_of(["by-hand", "needs-computer"]) is None
    assert exercise_marks.mark_of(["dropdown"]) is None
