"""axe-core on every page of the built site: light and dark theme, phone (360 px) and desktop (1200 px) width.

axe-core is the pinned npm package in web/package.json, injected from web/node_modules (never from a CDN);
no serious or critical violation may remain. One browser, one context per width, every page in it.
"""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
# Switching the theme changes colours only, not the page's structure: in the dark theme axe runs the rules
# that depend on colour (the light run has already checked every rule on the same DOM).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
RUN_AXE = """async (rules) => {
    const options = {resultTypes: ["violations"]};
    if (rules) options.runOnly = {type: "rule", values: rules};
    const result = await axe.run(document, options);
    return result.violations.filter(v => v.impact === "serious" || v.impact === "critical").map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + " | "
                                             + n.failureSummary.split("\\n").slice(1, 3).join(" "))
    }));
}"""
NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; animation: none !important; }"
# The theme has applied the mode, and MathJax (where the page has maths) has typeset it.
READY = """async (scheme) => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
    return document.documentElement.dataset.theme === scheme;
}"""


@pytest.fixture(scope="module")
def axe_source():
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make assets` installs the npm packages of web/package.json")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def site_pages(built_site):
    pages = []
    for page in sorted(built_site.rglob("*.html")):
        path = page.relative_to(built_site).as_posix()
        # theme fragments under _static/ are not pages; index.html only redirects to the home page
        if not path.startswith("_") and 'http-equiv="Refresh"' not in page.read_text(encoding="utf-8")[:600]:
            pages.append(path)
    assert "intro.html" in pages and any(p.startswith("book/") for p in pages)
    return pages


@pytest.mark.parametrize("width", [360, 1200])
def test_no_serious_or_critical_axe_violation_on_any_page(chromium, site_url, site_pages, axe_source, width):
    """Each page is loaded at the width (as a phone or a desktop opens it), checked in the light theme,
    then in the dark one: the theme follows prefers-color-scheme live, so no second load is needed."""
    context = chromium.new_context(viewport={"width": width, "height": 900})
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(site_url) else r.abort())
    page = context.new_page()
    found = []
    try:
        for path in site_pages:
            page.emulate_media(color_scheme="light")
            page.goto(f"{site_url}/{path}")
            # The theme fades colours over a few hundred ms when the mode changes; axe must see the final
            # colours, not a frame of the fade (a busy machine would otherwise measure mid-transition).
            page.add_style_tag(content=NO_TRANSITIONS)
            page.evaluate(axe_source)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.wait_for_function(READY, arg=scheme, timeout=20000)
                found += [f"{path} [{scheme}, {width}px] {v['impact']} {v['id']}: {v['help']}\n    "
                          + "\n    ".join(v["nodes"])
                          for v in page.evaluate(RUN_AXE, COLOUR_RULES if scheme == "dark" else None)]
    finally:
        context.close()
    assert not found, "axe-core violations:\n" + "\n".join(found)


def test_axe_reports_a_nameless_button_and_an_image_without_alt(chromium, site_url, site_pages, axe_source):
    """The audit above can fail: the same run flags two problems planted in a real page."""
    page = chromium.new_page()
    try:
        page.goto(f"{site_url}/search.html")
        page.evaluate("""() => document.querySelector("main, body").insertAdjacentHTML("afterbegin",
            '<button id="planted-button"></button><img id="planted-img" src="data:,">')""")
        page.evaluate(axe_source)
        ids = {v["id"] for v in page.evaluate(RUN_AXE, None)}
    finally:
        page.close()
    assert {"button-name", "image-alt"} <= ids


def test_theme_chrome_gets_chinese_names_that_match_what_it_shows():
    import importlib.util
    spec = importlib.util.spec_from_file_location("a11y_fixes", ROOT / "_ext" / "a11y_fixes.py")
    fixes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixes)
    theme = ('<button class="btn search-button-field search-button__button pst-js-only" title="搜索" aria-label="搜索" '
             'data-bs-placement="bottom">\n<button class="btn btn-sm nav-link pst-navbar-icon theme-switch-button" '
             'aria-label="Color mode" data-bs-title="Color mode" data-bs-toggle="tooltip">\n'
             '<i class="theme-switch fa-solid fa-sun fa-lg" data-mode="light" title="亮色"></i>\n'
             '<i class="theme-switch fa-solid fa-circle-half-stroke fa-lg" data-mode="auto"  '
             'title="System Settings"></i>'
             '<nav class="bd-links bd-docs-nav" aria-label="Main"><nav aria-label="Page">')
    fixed = fixes.rewrite(theme)
    assert fixes.rewrite(fixed) == fixed  # a second build leaves it alone
    assert 'aria-label="搜索"' not in fixed and 'aria-keyshortcuts="Control+K"' in fixed
    assert "Color mode" not in fixed and "System Settings" not in fixed and 'aria-label="Main"' not in fixed
    assert fixed.count('aria-hidden="true"') == 2
