"""Which exercises can be done with pen and paper, and which need a computer.

Every exercise carries one of the classes below in its directive (`:class: by-hand` or `:class: needs-computer`,
CONTRIBUTING.md); the label after its title says so, in the same words in every medium:
- the site: a small badge, `<span class="exercise-mark">纸笔</span>` (`static/exercise-marks.css`);
- the PDF handouts: `\\handoutmark{纸笔}`, a small box (latex/handout.sty; Sphinx drops an inline's class
  inside a title);
- the learner's notebooks: “【纸笔】” after the bold title (_ext/myst_to_markdown.py).
"""
from __future__ import annotations

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

import site_files

MARKS = {"by-hand": "纸笔", "needs-computer": "需要电脑"}
CLASS = "exercise-mark"


def mark_of(classes) -> str | None:
    """The label of the one mark among `classes`, or None when there is none or more than one."""
    found = [MARKS[c] for c in classes if c in MARKS]
    return found[0] if len(found) == 1 else None


class ExerciseMarks(SphinxPostTransform):
    # After book_numbering has put the title in Chinese brackets (priority 25).
    default_priority = 26

    def run(self) -> None:
        from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node

        for node in self.document.findall(lambda n: isinstance(n, (exercise_node, exercise_enumerable_node))):
            mark = mark_of(node["classes"])
            if not mark or not node.children or not isinstance(node[0], nodes.title):
                continue
            if self.app.builder.format == "latex":
                node[0] += nodes.raw("", f"\\handoutmark{{{mark}}}", format="latex")
            else:
                node[0] += nodes.inline("", mark, classes=[CLASS])


def setup(app):
    app.add_post_transform(ExerciseMarks)
    site_files.on_every_page(app, "exercise-marks.css")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
