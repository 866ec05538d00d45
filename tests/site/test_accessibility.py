"""axe-core on every page of the built site: light theme at phone (360 px) and desktop (1200 px) width, dark theme
at desktop width.

axe-core is the pinned npm package in web/package.json, injected from web/node_modules (never from a CDN);
no serious or critical violation may remain. The pages are visited once per width by the `site_tour`
fixture (tests/site_tour.py), which runs axe in both themes during the visit.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_tour import AXE, DARK_WIDTH, RUN_AXE, WIDTHS, site_pages

ROOT = Path(__file__).resolve().parents[2]
# The book's own stylesheets: the widgets' (labcode/widgets) and the site's (_ext/static).
BOOK_CSS = sorted([*ROOT.glob("labcode/widgets/*.css"), *ROOT.glob("_ext/static/*.css")])
COLOUR_PROPERTY = re.compile(
    r"(?<![-\w])(color|background(-color)?|border(-\w+)?-color|fill|stroke|opacity|filter)\s*:")


def luminance(css_colour: str) -> float:
    """Relative luminance (WCAG) of an `rgb(...)` colour."""
    channels = [float(v) / 255 for v in re.findall(r"[\d.]+", css_colour)[:3]]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("width", WIDTHS)
def test_no_serious_or_critical_axe_violation_on_any_page(site_tour, built_site, width):
    """Each page at the width (loaded at 360 px, then widened: see tests/site_tour.py), checked in the light
    theme, then at DARK_WIDTH in the dark one: the theme follows prefers-color-scheme live, so no second load
    is needed."""
    visits = site_tour[str(width)]
    schemes = ("light", "dark") if width == DARK_WIDTH else ("light",)
    assert sorted(visits) == site_pages(built_site)
    assert "intro.html" in visits and any(p.startswith("book/") for p in visits)
    for path, visit in visits.items():  # the dark audit ran on the dark page, not on one still painted light
        assert luminance(visit["background_light"]) > 0.8, (path, width, visit["background_light"])
        if "dark" in schemes:
            assert luminance(visit["background_dark"]) < 0.2, (path, width, visit["background_dark"])
    found = [f"{path} [{scheme}, {width}px] {v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"])
             for path, visit in visits.items() for scheme in schemes for v in visit[f"axe_{scheme}"]]
    assert not found, "axe-core violations:\n" + "\n".join(found)


def test_axe_reports_a_nameless_button_and_an_image_without_alt(chromium):
    """The audit can fail: the same run flags two problems planted in a page (set as content: nothing to load)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make assets` installs the npm packages of web/package.json")
    page = chromium.new_page()
    try:
        page.set_content('<html lang="zh"><title>页</title><main><button></button><img src="data:,"></main></html>')
        page.evaluate(AXE.read_text(encoding="utf-8"))
        ids = {v["id"] for v in page.evaluate(RUN_AXE, {})}
    finally:
        page.close()
    assert {"button-name", "image-alt"} <= ids


def test_theme_chrome_gets_chinese_names_that_match_what_it_shows():
    import a11y_fixes as fixes

    theme = ('<button class="btn search-button-field search-button__button pst-js-only" title="搜索" aria-label="搜索" '
             'data-bs-placement="bottom">\n<button class="btn btn-sm nav-link pst-navbar-icon theme-switch-button" '
             'aria-label="Color mode" data-bs-title="Color mode" data-bs-toggle="tooltip">\n'
             '<i class="theme-switch fa-solid fa-sun fa-lg" data-mode="light" title="亮色"></i>\n'
             '<i class="theme-switch fa-solid fa-circle-half-stroke fa-lg" data-mode="auto"  '
             'title="System Settings"></i>'
             '<nav class="bd-links bd-docs-nav" aria-label="Main"><nav aria-label="Page">'
             '<details class="admonition hide above-output">\n<summary aria-label="Toggle hidden content">\n')
    fixed = fixes.rewrite(theme)
    assert fixes.rewrite(fixed) == fixed  # a second build leaves it alone
    assert 'aria-label="搜索"' not in fixed and 'aria-keyshortcuts="Control+K"' in fixed
    assert "Color mode" not in fixed and "System Settings" not in fixed and 'aria-label="Main"' not in fixed
    assert "Toggle hidden content" not in fixed and "<summary>" in fixed
    assert fixed.count('aria-hidden="true"') == 2


def width_rules(css: str) -> list[str]:
    """The bodies of the `@media` blocks whose condition names a width (braces counted, so nested rules are inside)."""
    found = []
    for match in re.finditer(r"@media[^{]*width[^{]*\{", css):
        depth, end = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        found.append(css[match.end():end - 1])
    return found


def test_no_book_stylesheet_changes_a_colour_with_the_width():
    """Why the dark theme's colour rules run at DARK_WIDTH only (tests/site_tour.py): the book sets its colours the same
    at every width, so the phone shows no text in a colour the desktop page does not."""
    assert any(p.name == "widget.css" for p in BOOK_CSS) and any(p.parent.name == "static" for p in BOOK_CSS)
    found = [f"{path.relative_to(ROOT)}: {body.strip()[:120]}" for path in BOOK_CSS
             for body in width_rules(path.read_text(encoding="utf-8")) if COLOUR_PROPERTY.search(body)]
    assert not found, ("a colour that changes with the width (then axe's dark pass must run at every width):\n"
                       + "\n".join(found))
    assert width_rules("@media (max-width: 420px) { .a { color: red; } }") == [" .a { color: red; } "]
