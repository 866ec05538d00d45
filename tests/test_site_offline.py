"""The built site in a real browser with every request outside 127.0.0.1 blocked."""


def test_formulas_render_with_the_network_off(offline_page, site_url):
    page = offline_page
    page.goto(f"{site_url}/book/01_probability_to_loss.html")
    page.wait_for_selector("mjx-container", state="attached", timeout=20000)
    assert page.locator("mjx-container").count() > 10
    assert page.external == []


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


def test_widget_icon_fonts_load_from_the_site(offline_page, site_url):
    """The widget runtime's icon fonts (Font Awesome, in _static/widgets/) are found: no request fails."""
    page = offline_page
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(f"{site_url}/book/01_probability_to_loss.html", wait_until="networkidle")
    page.wait_for_function("() => window.requirejs && requirejs.defined('@jupyter-widgets/controls')", timeout=20000)
    loaded = page.evaluate("""async () => {
        const faces = ['900 16px "Font Awesome 5 Free"', '400 16px "Font Awesome 5 Brands"'];
        const found = [];
        for (const face of faces) {
            try { found.push((await document.fonts.load(face)).length); } catch (error) { found.push(String(error)); }
        }
        return found;
    }""")
    page.wait_for_load_state("networkidle")
    assert loaded == [1, 1], loaded
    assert failed == []
    assert page.external == []
