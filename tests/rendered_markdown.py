"""How the learner-notebook tests read rendered Markdown, whether CommonMark's HTML (what GitHub and VS Code show) or
what JupyterLab and Notebook 7 drew: MyST left raw, and the words a reader sees, to compare with the site's pages."""
from __future__ import annotations

import copy
import re
from pathlib import Path

from bs4 import BeautifulSoup, SoupStrainer, Tag

import exercise_marks

# A role renders as “{term}<code>词表</code>”, a backtick directive as a code block whose language is “{name}”, a
# colon directive, a label, an option line or a substitution as text at the start of a line.
LEFT_RAW = {
    "role": re.compile(r"\{[A-Za-z][\w:.+-]*\}\s*<code"),
    "directive": re.compile(r"language-\{|(?:`{3,}|~{3,}|:{3,})\{"),
    "label": re.compile(r"(?:^|>|\n)\s*\([\w.:/-]+\)=\s*(?:$|<|\n)"),
    "option": re.compile(r"(?:^|>|\n)\s*:[a-z][\w-]*:(?:\s|$|<)"),
    "substitution": re.compile(r"\{\{"),
}


def raw_myst(html: str) -> list[str]:
    """Each piece of MyST left in rendered HTML, with a little of its context."""
    return [f"{kind}: …{html[max(0, m.start() - 30):m.end() + 30]}…" for kind, pattern in LEFT_RAW.items()
            for m in pattern.finditer(html)]


def words(markup: str | Tag) -> str:
    """The text a reader sees, without maths and without spaces: how a page and a notebook are compared (the site
    typesets maths when it is built, a front end when it draws the cell, CommonMark not at all)."""
    soup = BeautifulSoup(markup, "html.parser") if isinstance(markup, str) else copy.copy(markup)
    for maths in soup.select(".math, mjx-container, a.headerlink"):
        maths.decompose()
    text = re.sub(r"\$\$.+?\$\$|\$[^$\n]+\$", "", soup.get_text(), flags=re.S)
    return re.sub(r"\s+", "", text)


def headed_by(html: str | Tag) -> set[str]:
    """The words of every bold run in rendered Markdown: the titles of exercises, solutions and boxes."""
    soup = BeautifulSoup(html, "html.parser") if isinstance(html, str) else html
    return {words(bold) for bold in soup.select("strong")}


def exercise_titles(page: Path | Tag) -> list[str]:
    """The exercise titles of a built page (“练习 1.1（你来写：softmax）”), as `words`."""
    if isinstance(page, Path):
        page = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser", parse_only=SoupStrainer("div"))
    return [words(_without_mark(title)) for title in page.select("div.exercise > p.admonition-title")]


def _without_mark(title: Tag) -> Tag:
    title = copy.copy(title)
    for mark in title.select("span.exercise-mark"):
        mark.decompose()
    return title


def exercise_marks_shown(page: Tag) -> list[str]:
    """The label after each exercise title of a built page (纸笔 or 需要电脑), the one its class names
    (_ext/exercise_marks.py); an exercise without exactly one fails."""
    found = []
    for exercise in page.select("div.exercise"):
        marks = exercise.select(":scope > p.admonition-title > span.exercise-mark")
        assert len(marks) == 1, f"{words(exercise.select_one('p.admonition-title'))}: {len(marks)} marks"
        assert marks[0].get_text() == exercise_marks.mark_of(exercise["class"]), exercise["class"]
        found.append(marks[0].get_text())
    return found
