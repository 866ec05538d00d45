"""The built site in a real browser with every request outside 127.0.0.1 blocked."""


CHAPTERS = ["book/01_probability_to_loss.html", "book/02_gradient.html", "book/03_shared_embedding.html",
            "book/04_bigram.html"]


def test_formulas_render_with_the_network_off(site_tour):
    """MathJax is served by the site itself: the chapter pages' formulas are typeset with the network blocked."""
    formulas = {path: site_tour["1200"][path]["formulas"] for path in CHAPTERS}
    assert all(count > 10 for count in formulas.values()), formulas


def test_search_finds_a_chinese_word(offline_page, site_url):
    page = offline_page
    page.goto(f"{site_url}/search.html?q=%E6%A6%82%E7%8E%87")  # 概率
    page.wait_for_selector("#search-results li", timeout=20000)
    hits = page.locator("#search-results li a").all_inner_texts()
    assert any("分数" in hit for hit in hits), hits
    assert page.external == []


def test_pages_run_without_script_errors(site_tour):
    """Every page, at both widths of the `site_tour` visit (tests/site_tour.py): no script error, no console
    error, no request answered with an error and none that tried to leave 127.0.0.1."""
    problems = {f"{path} at {width}px": {k: visit[k] for k in ("errors", "failed", "external") if visit[k]}
                for width, visits in site_tour.items() for path, visit in visits.items()}
    assert "intro.html" in site_tour["1200"] and "book/01_probability_to_loss.html" in site_tour["1200"]
    assert {where: found for where, found in problems.items() if found} == {}


def test_widget_icon_fonts_load_from_the_site(site_tour):
    """The widget runtime's icon fonts (Font Awesome, in _static/widgets/) are found on every page with a widget;
    test_pages_run_without_script_errors checks that no request failed."""
    fonts = {path: visit["icon_fonts"] for path, visit in site_tour["1200"].items() if "icon_fonts" in visit}
    assert "book/01_probability_to_loss.html" in fonts
    assert all(found == [1, 1] for found in fonts.values()), fonts
