"""One visit of every page of the built site at phone and at desktop width, shared by several checks.

Loading a page (MathJax typesetting, the widget runtime) is the costly part of a browser check, so each
page is loaded once per width, with every request outside 127.0.0.1 blocked, and everything the checks
need is gathered during that one visit (the `site_tour` fixture in conftest.py runs it once per test run):
- axe-core in the light theme (every rule that can report a serious or critical problem) and, after the
  theme follows the system's dark mode, in the dark theme (the rules that depend on colour);
- at 360 px, table first columns squeezed to a letter a line and inline code running off the screen;
- script errors, failed requests and requests that tried to leave 127.0.0.1.
test_accessibility.py, test_site_phone.py and test_site_offline.py assert on the result.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = {360: {"width": 360, "height": 740}, 1200: {"width": 1200, "height": 900}}

# The rules of axe's default run (enabled, not experimental) that can report a serious or critical problem:
# axe gives every problem a rule finds the rule's own impact (finalizeRuleResult in axe-core), so a rule of
# moderate or minor impact never can, and running it would only cost time.
# Switching the theme changes colours only, not the page's structure: in the dark theme axe runs the rules
# that depend on colour (the light run has already checked every rule on the same DOM).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
RUN_AXE = """async (rules) => {
    rules = rules || axe._audit.rules
        .filter(r => r.enabled && !r.tags.includes("experimental"))
        .filter(r => r.impact === "serious" || r.impact === "critical").map(r => r.id);
    const result = await axe.run(document, {resultTypes: ["violations"], runOnly: {type: "rule", values: rules}});
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
# The page background as painted (body, or the root behind a transparent body), to show that the dark
# pass really looked at dark colours.
BACKGROUND = """() => [document.body, document.documentElement].map(el => getComputedStyle(el).backgroundColor)
    .find(c => !/^rgba\\(.*, 0\\)$/.test(c)) || 'rgb(255, 255, 255)'"""
PHONE_CHECKS = """() => ({
    // A first-column cell of four or more characters is at least four characters wide (not one per line).
    squeezed: [...document.querySelectorAll('.bd-article table tr > :first-child')]
        .filter(cell => cell.innerText.trim().length >= 4)
        .filter(cell => cell.getBoundingClientRect().width < 4 * parseFloat(getComputedStyle(cell).fontSize))
        .map(cell => cell.innerText.trim()),
    // Inline code never reaches past the right edge of the screen.
    wide: [...document.querySelectorAll('.bd-article code.literal')]
        .filter(code => !code.closest('.pst-scrollable-table-container, table, .MathJax, mjx-container'))
        .filter(code => [...code.getClientRects()].some(r => r.right > document.documentElement.clientWidth + 1))
        .map(code => code.innerText),
})"""


def site_pages(html: Path) -> list[str]:
    """Every page of the built site (theme fragments under _static/ are not pages; index.html only redirects)."""
    pages = []
    for page in sorted(html.rglob("*.html")):
        path = page.relative_to(html).as_posix()
        if not path.startswith("_") and 'http-equiv="Refresh"' not in page.read_text(encoding="utf-8")[:600]:
            pages.append(path)
    return pages


def visit(chromium, site_url: str, pages: list[str], axe_source: str) -> dict:
    """{width: {page: record}} for every page at every width in WIDTHS (keys are strings, as in JSON)."""
    return {str(width): _visit_at(chromium, site_url, pages, axe_source, viewport)
            for width, viewport in WIDTHS.items()}


def _visit_at(chromium, site_url, pages, axe_source, viewport):
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    record = {}

    def log(key, text):
        record.setdefault(key, []).append(text)

    def route(r):
        if r.request.url.startswith(site_url):
            r.continue_()
        else:
            log("external", r.request.url)
            r.abort()

    context.route("**/*", route)
    page.on("pageerror", lambda e: log("errors", str(e)))
    page.on("console", lambda m: log("errors", m.text) if m.type == "error" else None)
    page.on("response", lambda r: log("failed", f"{r.status} {r.url}") if r.status >= 400 else None)
    visits = {}
    try:
        for path in pages:
            record = {}
            page.emulate_media(color_scheme="light")
            page.goto(f"{site_url}/{path}", wait_until="networkidle")
            # The theme fades colours over a few hundred ms when the mode changes; axe must see the final
            # colours, not a frame of the fade (a busy machine would otherwise measure mid-transition).
            page.add_style_tag(content=NO_TRANSITIONS)
            page.evaluate(axe_source)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.wait_for_function(READY, arg=scheme, timeout=20000)
                record[f"axe_{scheme}"] = page.evaluate(RUN_AXE, COLOUR_RULES if scheme == "dark" else None)
                record[f"background_{scheme}"] = page.evaluate(BACKGROUND)
                if scheme == "light" and viewport["width"] <= 360:
                    record["phone"] = page.evaluate(PHONE_CHECKS)
            visits[path] = {"errors": [], "failed": [], "external": [], **record}
    finally:
        context.close()
    return visits
