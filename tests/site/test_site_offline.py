"""The built site in a real browser with every request outside 127.0.0.1 blocked."""
import re

import chapter_registry

CHAPTERS = [c.page for c in chapter_registry.numbered()]  # the numbered chapters' pages (the appendix has few formulas)


def test_formulas_are_typeset_in_the_pages(site_tour, built_site):
    """Every formula is typeset when the site is built (_ext/prerendered_maths.py): the pages hold MathJax's
    SVG, no TeX is left for a script to typeset, and no page loads a maths script."""
    formulas = {path: site_tour["1200"][path]["formulas"] for path in CHAPTERS}
    assert all(count > 10 for count in formulas.values()), formulas
    untypeset, scripts = {}, {}
    for page in built_site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        raw = re.findall(r'class="math notranslate nohighlight"[^>]*>(?:<span class="eqno">.*?</span>)?'
                         r'(?!<mjx-container)[^<]{0,40}', text)
        untypeset.update({page.name: raw[:3]} if raw else {})
        scripts.update({page.name: "mathjax"} if re.search(r"<script[^>]*mathjax", text, re.I) else {})
    assert untypeset == {} and scripts == {}


def test_search_finds_a_chinese_word(offline_page, site_url):
    """From a chapter's search box (the chapter pages do not load the index: _ext/first_screen.py) to the hits."""
    page = offline_page
    page.goto(f"{site_url}/{CHAPTERS[1]}")
    page.keyboard.press("Control+k")
    page.locator("#pst-search-dialog input[name=q]").fill("概率")
    page.keyboard.press("Enter")
    page.wait_for_url("**/search.html?q=*")
    page.wait_for_selector("#search-results li", timeout=20000)
    hits = page.locator("#search-results li a").all_inner_texts()
    assert any("分数" in hit for hit in hits), hits
    assert page.external == []


def test_pages_run_without_script_errors(site_tour):
    """Every page, at both widths of the `site_tour` visit (tests/site_tour.py): no script error, no console
    error, no request answered with an error and none that tried to leave 127.0.0.1."""
    problems = {f"{path} at {width}px": {k: visit[k] for k in ("errors", "failed", "external") if visit[k]}
                for width, visits in site_tour.items() for path, visit in visits.items()}
    assert {"intro.html", *(c.page for c in chapter_registry.chapters())} <= set(site_tour["1200"])
    assert {where: found for where, found in problems.items() if found} == {}


def test_widget_pages_draw_every_widget_without_the_widget_manager(site_tour):
    """Pages whose widgets are all anywidgets draw them with _ext/static/widget-loader.js: every view is drawn,
    and neither the ipywidgets manager nor its icon fonts (_static/widgets/) are fetched."""
    visits = site_tour["360"]
    pages = {path: visit for path, visit in visits.items() if visit["views"][0]}
    assert "book/01_probability_to_loss.html" in pages
    for path, visit in pages.items():
        assert visit["views"][1] == visit["views"][0], f"{path}: views drawn / embedded {visit['views']}"
        loaded = [url.split("?")[0] for url in visit["first_visit"]]
        assert "/_static/widget-loader.js" in loaded, path
        assert [url for url in loaded if "/widgets/" in url] == [], path


def test_a_chapter_opened_from_disk_has_its_formulas_and_live_widgets(chromium, built_site):
    """Opened as a file (file://, no server, no network), a chapter shows its formulas and its first widget
    answers: the widget loader is a classic script and imports each widget's module from a blob: URL."""
    context = chromium.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    outside, errors = [], []
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "blob:", "data:"))
                  else (outside.append(r.request.url), r.abort()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto((built_site / CHAPTERS[1]).as_uri())
        root = page.locator(".lc-widget").first
        root.wait_for(timeout=20000)
        before = root.inner_text()
        root.locator("input[type=range]").first.evaluate(
            "e => { e.value = e.max; e.dispatchEvent(new Event('input', {bubbles: true})); }")
        assert root.inner_text() != before, "the widget did not answer its slider"
        assert page.locator("mjx-container svg").count() > 10
    finally:
        context.close()
    assert outside == [] and errors == []
