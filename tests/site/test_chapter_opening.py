"""A chapter's first screen (_ext/chapter_opening.py): what it answers and how long it takes, counted from the page,
then the learner's kit, folded."""
from __future__ import annotations

import re
from types import SimpleNamespace

from bs4 import BeautifulSoup
from docutils import nodes

import chapter_opening
import chapter_registry
import deep_boxes

CHAPTERS = [c.page for c in chapter_registry.chapters()]
NUMBERED = [c.page for c in chapter_registry.numbered()]
TIME = re.compile(r"阅读约 (\d+) 分钟(?:；“深入”框另需约 (\d+) 分钟，第一遍可以跳过)?。")
CJK = re.compile(r"[\u3400-\u9fff]")


def test_reading_units_count_text_and_formulas_apart_from_code_solutions_and_deep_boxes():
    page = nodes.section()
    page += nodes.paragraph("", "字" * 300)
    page += nodes.paragraph("", "", nodes.Text("two words "), nodes.math("", "x"))
    page += nodes.math_block("", "y = x")
    code = nodes.container(nb_element="cell_code")
    code += nodes.literal_block("", "字" * 1000)
    page += code
    box = deep_boxes.deep_box()
    box += nodes.paragraph("", "深" * 600)
    page += box
    units = chapter_opening.reading_units(page)
    assert units == {"main": 300 + 2 * chapter_opening.LATIN_WORD + chapter_opening.INLINE_FORMULA
                     + chapter_opening.DISPLAY_FORMULA, "deep": 600}
    assert chapter_opening.minutes(units["deep"]) == 2 and chapter_opening.minutes(1) == 1


def article(built_site, path):
    soup = BeautifulSoup((built_site / path).read_text(encoding="utf-8"), "html.parser")
    return soup.select_one("article.bd-article")


def test_every_chapter_opens_with_its_question_and_reading_time_then_the_folded_kit(built_site):
    for path in CHAPTERS:
        text = article(built_site, path)
        first = text.find("h1").find_next_sibling()
        assert first is not None and "lc-opening" in first.get("class", []), f"{path}: no card under the title"
        label = "本附录回答" if "appendix" in path else "本章回答"
        assert first.select_one(".lc-opening-label").get_text() == label, path
        assert first.select_one(".lc-question").get_text().strip().endswith("？"), path
        assert TIME.fullmatch(first.select_one(".lc-reading-time").get_text().strip()), path
        kit = text.select_one("details.lc-kit-fold")
        assert kit is not None and kit.get("open") is None, f"{path}: the learner's kit is not folded"
        assert kit.find("summary").get_text().startswith("在自己的电脑上运行"), path


def test_the_reading_time_agrees_with_the_length_of_the_page(built_site):
    """Counted again from the built page, independently: outside code, printouts, solutions and “深入” boxes,
    its Chinese characters (one unit each) and its drawn formulas (an inline one three units, a display one
    thirty), at 300 units a minute, within a quarter of the stated time."""
    for path in CHAPTERS:
        text = article(built_site, path)
        stated = TIME.fullmatch(text.select_one(".lc-reading-time").get_text().strip())
        for left_out in text.select(".cell, .solution, details.lc-deep, .lc-opening, .answer-box"):
            left_out.decompose()
        formulas = 0
        for formula in text.select("mjx-container"):
            formulas += 30 if formula.get("display") == "true" else 3
            formula.decompose()
        estimate = (len(CJK.findall(text.get_text())) + formulas) / chapter_opening.UNITS_PER_MINUTE
        main = int(stated.group(1))
        assert 0.75 * main <= estimate <= main, (path, estimate, main)
    deep = [TIME.fullmatch(article(built_site, p).select_one(".lc-reading-time").get_text().strip()).group(2)
            for p in NUMBERED]
    assert all(deep), "each chapter has “深入” boxes, whose time is given apart"


def test_a_chapter_with_no_question_still_gets_its_reading_time(monkeypatch):
    """add_card on a new chapter that wrote no question: an empty card under its title, with the time."""
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), config=SimpleNamespace(root_doc="intro"), env=None)
    monkeypatch.setattr(chapter_opening, "notebook_pages", lambda env: ["intro", "book/05_new"])
    doctree = nodes.document(None, None)
    section = nodes.section()
    section += nodes.title("", "新的一章")
    section += nodes.paragraph("", "字" * 700)
    doctree += section
    chapter_opening.add_card(app, doctree, "book/05_new")
    card = section[1]
    assert isinstance(card, chapter_opening.chapter_card) and card["minutes"] == (3, 0) and not card.children
