"""Every exercise says whether it can be done with pen and paper or needs a computer: exactly one of the classes of
_ext/exercise_marks.py in its directive (CONTRIBUTING.md). The label it gives the title is checked on the site
(tests/site/test_site_build.py), in the learner's notebooks (tests/site/test_learner_notebooks.py) and in the PDF
handouts (tests/pdf/test_pdf.py)."""
import json
import re

import pytest

import chapter_registry
import exercise_marks

OPENING = re.compile(r"^(?:```|:::)\{(exercise|exercise-start)\}(.*)\n((?::[\w-]+:.*\n)*)", re.M)
OPTION = re.compile(r"^:([\w-]+):\s*(.*)$", re.M)


def exercises(notebook) -> list[tuple[str, list[str]]]:
    """(label, classes) of every exercise of a notebook, in order."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    sources = ["".join(c["source"]) + "\n" for c in cells if c["cell_type"] == "markdown"]
    found = []
    for source in sources:
        openings = list(OPENING.finditer(source))
        # every directive of the kind is read, options and all (a second pattern would not miss one)
        assert len(openings) == len(re.findall(r"\{exercise(?:-start)?\}", source)), source[:200]
        for match in openings:
            options = dict(OPTION.findall(match.group(3)))
            found.append((options.get("label", match.group(2).strip()), options.get("class", "").split()))
    return found


CHAPTERS = [c for c in chapter_registry.chapters() if exercises(c.notebook)]


def test_the_chapters_have_exercises():
    assert len(CHAPTERS) >= 5


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.stem)
def test_every_exercise_is_marked_by_hand_or_needs_computer(chapter):
    unmarked = [(label, classes) for label, classes in exercises(chapter.notebook)
                if sum(c in exercise_marks.MARKS for c in classes) != 1]
    assert unmarked == [], f"每道练习要有且只有一个 :class:（{' 或 '.join(exercise_marks.MARKS)}）：{unmarked}"


def test_a_mark_names_one_label():
    assert exercise_marks.mark_of(["by-hand"]) == "纸笔"
    assert exercise_marks.mark_of(["needs-computer"]) == "需要电脑"
    assert exercise_marks.mark_of(["by-hand", "needs-computer"]) is None
    assert exercise_marks.mark_of(["dropdown"]) is None
