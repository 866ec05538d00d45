"""Search in Chinese (_ext/search_terms.py): the book's terms are whole words of the index, and each finds the
sections that teach it first, before the glossary; an English name from the glossary finds them too.

The search page of the built site is loaded once; the queries go through Sphinx's own search code on it
(`Search._parseQuery`, `Search._performSearch`), as the search box sends them.
"""
from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

import search_terms
from search_terms import Section

# Where the book teaches each core term (read in the chapters): the first result must be one of these sections.
CORE = {
    "交叉熵": {"book/01_probability_to_loss#ch1-entropy"},
    "困惑度": {"book/01_probability_to_loss#ch1-perplexity"},
    "学习率": {"book/02_gradient#ch2-step"},
    "正则化": {"book/04_bigram#ch4-regularisation", "book/03_shared_embedding#ch3-tying"},
    "损失函数": {"book/02_gradient#ch2-finite-diff"},
    "负对数似然": {"book/01_probability_to_loss#ch1-loss"},
    "中心差分": {"book/02_gradient#ch2-finite-diff"},
    "cross-entropy": {"book/01_probability_to_loss#ch1-entropy"},
    "learning rate": {"book/02_gradient#ch2-step"},
}
GLOSSARY = "book/glossary"
SEARCH = "(q) => Search._performSearch(...Search._parseQuery(q)).reverse().map(r => r[0] + r[2])"


@pytest.fixture(scope="module")
def search(chromium, site_url):
    context = chromium.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{site_url}/search.html", wait_until="networkidle")
    page.wait_for_function("() => typeof Search !== \"undefined\" && Search.hasIndex()", timeout=10000)
    yield lambda query: page.evaluate(SEARCH, query)   # best first, as the page lists them
    context.close()


def glossary_names(built_site) -> tuple[list[str], list[str]]:
    """(the Chinese headwords, the English names of the English index) of the built glossary."""
    soup = BeautifulSoup((built_site / "book" / "glossary.html").read_text(encoding="utf-8"), "html.parser")
    terms = [dt.get_text().replace("#", "").strip() for dt in soup.select("dl.glossary dt")]
    table = soup.select_one("table#tab-glossary-english") or soup.find(id="tab-glossary-english").find("table")
    english = [tr.find("td").get_text().strip() for tr in table.select("tbody tr")]
    return [t for t in terms if re.search(r"[\u4e00-\u9fff]", t)], english


@pytest.mark.parametrize("query", CORE)
def test_each_core_term_finds_the_section_that_teaches_it_first(search, query):
    results = search(query)
    assert results and results[0] in CORE[query], f"{query}: {results[:4]}"


def test_every_glossary_name_lists_a_chapter_before_the_glossary(search, built_site):
    """Every Chinese headword and every English name of the glossary's English index."""
    headwords, english = glossary_names(built_site)
    assert len(headwords) > 60 and len(english) > 60
    problems = []
    for query in headwords + english:
        results = search(query)
        chapters = [r for r in results if not r.startswith(GLOSSARY) and r.startswith("book/")]
        if not chapters or results[0].startswith(GLOSSARY):
            problems.append(f"{query}: {results[:3]}")
    assert problems == [], "\n".join(problems)


def test_the_search_box_shows_a_chapter_section_for_a_chinese_term(chromium, site_url):
    context = chromium.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{site_url}/search.html?q=%E4%BA%A4%E5%8F%89%E7%86%B5", wait_until="networkidle")  # 交叉熵
        first = page.locator("#search-results ul.search li a").first
        first.wait_for(timeout=10000)
        assert first.get_attribute("href").endswith("01_probability_to_loss.html#ch1-entropy")
    finally:
        context.close()


def _section(doc, ident, title, text, opening=False):
    return Section(doc, ident, title, text, opening)


def test_teaching_sections_prefer_a_page_about_the_term_then_titles_and_the_first_use():
    sections = [_section("a", "a", "分数与概率", "这一章讲概率。", opening=True),
                _section("a", "a1", "第一节", "先说标签平滑，再说学习率。"),
                _section("a", "a2", "学习率的大小", "学习率决定一步走多远。"),
                _section("b", "b", "再谈平滑", "", opening=True)]
    others = ["标签平滑", "平滑", "学习率", "概率"]
    assert search_terms.teaching_sections(["概率"], sections, others) == [sections[0]]
    assert search_terms.teaching_sections(["学习率"], sections, others) == [sections[1], sections[2]]
    assert search_terms.teaching_sections(["平滑"], sections, others) == [sections[3]]
    assert search_terms.teaching_sections(["梯度"], sections, others) == []
    # 平滑 inside 标签平滑 is not a use of 平滑
    later = _section("c", "c1", "别的", "这里才讲平滑。")
    assert search_terms.teaching_sections(["平滑"], sections[:3] + [later], others) == [later]
