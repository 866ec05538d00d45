"""Navigation on a phone (_ext/site_nav.py): the site menu (☰) and the page contents open by tap and by keyboard,
list every page and every section, and close again; the previous and next pages are linked under the title.

Every page is tapped through during the `site_tour` visit at 360 px (tests/site_tour.py); one page is driven
here in the dark theme, from the keyboard and across pages.
"""
from __future__ import annotations

import re

import pytest

import site_nav
from site_tour import site_pages

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
NOT_IN_MENU = {"search.html", "genindex.html"}


def test_every_page_opens_both_menus_by_tap_and_they_list_everything(site_tour, built_site):
    visits = site_tour["360"]
    pages = site_pages(built_site)
    assert sorted(visits) == pages
    problems = []
    for path, visit in visits.items():
        nav = visit["nav"]
        menu = nav["primary"]
        if not menu or not menu["opened"] or not menu["closed"]:
            problems.append(f"{path}: the site menu (☰) did not open and close by tap: {menu}")
            continue
        shown = {re.sub(r"^https?://[^/]+/", "", link).split("#")[0] for link in menu["links"]}
        missing = set(pages) - NOT_IN_MENU - shown
        if missing:
            problems.append(f"{path}: the site menu does not list {sorted(missing)}")
        if menu["label"] != "全书目录":
            problems.append(f"{path}: the ☰ is named {menu['label']!r}")
        if nav["sections"]:
            contents = nav["secondary"]
            if not contents or not contents["opened"] or not contents["closed"]:
                problems.append(f"{path}: the page contents did not open and close by tap: {contents}")
                continue
            missing = set(nav["sections"]) - set(contents["links"])
            if missing:
                problems.append(f"{path}: the page contents do not list {sorted(missing)}")
            if contents["label"] != "本页目录":
                problems.append(f"{path}: the contents button is named {contents['label']!r}")
    assert problems == [], "\n".join(problems)
    chapters = [v for p, v in visits.items() if p.startswith("book/") and p != "book/glossary.html"]
    assert all(len(v["nav"]["sections"]) >= 3 for v in chapters)  # the check saw the chapters' sections


@pytest.fixture
def phone_page(chromium, site_url):
    context = chromium.new_context(**PHONE, color_scheme="dark")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site_url}/intro.html", wait_until="networkidle")
    yield page
    context.close()
    assert errors == []


def test_dark_phone_goes_from_the_home_page_to_a_section_through_the_menus(phone_page):
    page = phone_page
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    page.locator(".bd-header-article .primary-toggle").tap()
    page.wait_for_function("() => document.querySelector('#pst-primary-sidebar-modal').open", timeout=3000)
    page.locator("#pst-primary-sidebar-modal a[href$='02_gradient.html']").tap()
    page.wait_for_url(re.compile(r"/book/02_gradient\.html$"))
    page.locator(".bd-header-article .secondary-toggle").tap()
    page.wait_for_function("() => document.querySelector('#pst-secondary-sidebar-modal').open", timeout=3000)
    link = page.locator("#pst-secondary-sidebar-modal a[href='#ch2-finite-diff']")
    link.scroll_into_view_if_needed()
    link.tap()
    page.wait_for_function("() => !document.querySelector('#pst-secondary-sidebar-modal').open", timeout=3000)
    page.wait_for_function("() => location.hash === '#ch2-finite-diff'")
    # The section's heading is on screen, below the sticky header.
    top = page.evaluate("document.querySelector('#ch2-finite-diff > h2').getBoundingClientRect().top")
    header = page.evaluate("document.querySelector('.bd-header-article').getBoundingClientRect().bottom")
    assert header <= top < 740, (header, top)


def test_keyboard_opens_the_menu_moves_focus_into_it_and_escape_closes_it(phone_page):
    page = phone_page
    toggle = page.locator(".bd-header-article .primary-toggle")
    toggle.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#pst-primary-sidebar-modal').open", timeout=3000)
    assert page.evaluate("document.querySelector('#pst-primary-sidebar-modal').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#pst-primary-sidebar-modal').open", timeout=3000)
    # focus comes back to the toggle in the dialog's close handler, a moment after the dialog closes
    page.wait_for_function("() => document.activeElement.classList.contains('primary-toggle')", timeout=3000)


def test_previous_and_next_pages_are_linked_under_the_title(built_site):
    page = (built_site / "book" / "02_gradient.html").read_text(encoding="utf-8")
    title_end = page.index("</h1>", page.index('<article class="bd-article">'))
    nav = page.index('<nav class="lc-page-nav"', title_end)
    # on the first screen: after the chapter's opening card (_ext/chapter_opening.py), before the folded kit
    assert page.index("<!-- lc-opening -->", title_end) < nav < page.index('<details class="lc-kit-fold">', title_end)
    block = page[nav:page.index("</nav>", nav)]
    assert 'href="01_probability_to_loss.html"' in block and 'href="03_shared_embedding.html"' in block


def test_the_rewrite_leaves_the_visible_buttons_only_and_names_them_in_chinese():
    page = ('<header id="pst-header"><button class="pst-navbar-icon sidebar-toggle primary-toggle" aria-label="x">'
            '<svg></svg></button><button class="pst-navbar-icon sidebar-toggle secondary-toggle" aria-label="y">'
            '</button></header><div id="pst-primary-sidebar" class="bd-sidebar-primary bd-sidebar"></div>'
            '<button class="sidebar-toggle primary-toggle btn btn-sm" title="Toggle primary sidebar" '
            'data-bs-placement="bottom" data-bs-toggle="tooltip"><svg></svg></button>'
            '<a class="headerlink" href="#a" title="Link to this heading">#</a>')
    out = site_nav.rewrite(page)
    assert out.count("primary-toggle") == 1 and "secondary-toggle" not in out
    assert 'aria-label="全书目录"' in out and "Toggle" not in out and "tooltip" not in out
    assert '<form method="dialog" class="lc-dialog-close">' in out and 'title="链接到本节"' in out
    assert site_nav.rewrite(out) == out


ENGLISH_LABEL = re.compile(r'\b(?:title|aria-label|data-bs-title|placeholder)='
                           r'"(?=[^"]*[A-Za-z]{3,} [A-Za-z]{2,})([^"]*)"')


def test_labels_and_tooltips_of_every_page_are_chinese(built_site):
    """No English name or tooltip on a button or link (“Toggle primary sidebar”, “Link to this heading”), and no
    traditional-Chinese wording from the theme's catalogue (列印)."""
    found = {}
    for path in site_pages(built_site):
        page = (built_site / path).read_text(encoding="utf-8")
        english = [m for m in ENGLISH_LABEL.findall(page) if not re.search(r"[\u4e00-\u9fff]", m)]
        if english or "列印" in page:
            found[path] = sorted(set(english)) + (["列印"] if "列印" in page else [])
    assert found == {}, found
