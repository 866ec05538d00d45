"""A worksheet's variant ID on the built site (scripts/worksheets.py, tests/book/test_worksheets_pdf.py for the paper):
typed into the box of the section the sheet names, or linked as #label:ID, it opens the very problem on the sheet,
and the sheet's answer is right there. Two students' sheets for chapters 1 and 2, each chapter page loaded once."""
from __future__ import annotations

import pytest

import worksheet_plan as plan
from widget_page import DESKTOP, assert_page_clean, open_widget_page

ROSTER = [plan.Student("S-101", "甲"), plan.Student("S-102", "乙")]
SHEETS = plan.assign(ROSTER, plan.chapter_boxes(["1", "2"]), "browser-test-salt")
PAGES = sorted({item.box.page for sheet in SHEETS for item in sheet.items})
# The box as the page shows it, and the heading of the section it sits in (its number, then its title).
SHOWN_JS = """(box) => {
    const heading = box.closest("section").querySelector("h2, h3, h4");
    return { variant: box.answerBox.variant, texts: box.answerBox.texts, set: box.querySelector(".ab-set").textContent,
             number: heading.querySelector(".section-number").textContent.trim(),
             title: heading.textContent.replace(heading.querySelector(".section-number").textContent, "")
                                       .replace(/#$/, "").trim() };
}"""


@pytest.fixture(scope="module")
def pages(chromium, built_site, site_url):
    """Each chapter page with a box on the sheets, loaded once, offline."""
    opened = {path: open_widget_page(chromium, f"{site_url}/{path}", ".answer-box .ab-controls:not([hidden])",
                                     viewport=DESKTOP) for path in PAGES}
    yield {path: page for path, (_, page) in opened.items()}
    for context, _ in opened.values():
        context.close()


def typed(page, label, text):
    field = page.locator(f"#{label} .ab-input")
    field.fill(text)
    field.press("Enter")
    return page.locator(f"#{label} .ab-verdict").inner_text().replace("\u200b", "")


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda s: s.student.id)
def test_typing_a_sheets_variant_id_opens_its_problem_in_the_section_the_sheet_names(pages, sheet):
    for item in sheet.items:
        page, label = pages[item.box.page], item.box.label
        said = typed(page, label, f"变体 {item.variant_id}")
        assert f"变体 {item.variant_id}" in said, said
        shown = page.locator(f"#{label}").evaluate(SHOWN_JS)
        assert shown["variant"] == item.variant_id and shown["set"] == f"（变体 {item.variant_id}）"
        assert shown["texts"] == item.problem.texts, (label, item.variant_id)        # the sheet's numbers
        assert (shown["number"], shown["title"]) == (f"{item.box.section}.", item.box.title), shown
        key = plan.key_rows([plan.Sheet(sheet.student, (item,))])[0]
        assert typed(page, label, key["exact"]).startswith("正确！")                   # the key's answer is right
        assert typed(page, label, key["decimal"]).startswith("正确！")
        assert_page_clean(page)


def test_a_link_with_the_variant_id_opens_the_problem_too(pages, site_url):
    item = SHEETS[1].items[-1]
    page = pages[item.box.page]
    page.goto(f"{site_url}/{item.box.page}#{item.box.label}:{item.variant_id}")
    page.wait_for_function(f"document.getElementById('{item.box.label}').answerBox.variant === '{item.variant_id}'")
    assert page.locator(f"#{item.box.label}").evaluate("b => b.answerBox.texts") == item.problem.texts
    assert_page_clean(page)
