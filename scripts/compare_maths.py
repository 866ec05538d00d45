"""Every formula of the book typeset three ways, compared: how the site's maths were chosen.

1. "browser MathJax": what the pages did before: MathJax 3.2.2 (tex-chtml) typesets each page in the browser.
2. "MathJax SVG at build": what the pages do now (_ext/prerendered_maths.py): the same MathJax, run by Node
   when the site is built, writes SVG into the page.
3. "KaTeX at build": KaTeX (web/package.json) run by Node the same way; the page then needs KaTeX's CSS and fonts.

The site is built once from the notebooks' stored outputs with Sphinx's own MathJax renderer; its pages give the
formulas (the TeX Sphinx writes for MathJax), and copies of them with the formulas typeset by (2) and (3) are
made. For every formula: does each way typeset it (a formula that fails is listed), and how far is the width
it draws (in em) from the browser MathJax's (and the median ratio of all widths). For every page, on a
phone-sized Chromium with its CPU slowed four times (a mid-range phone): the time until the formulas are drawn,
and the gzip bytes the page and what it loads for its maths weigh. Constructs the book relies on are listed
with how each way fared.

Usage: `python scripts/compare_maths.py` (a few minutes; needs Node, web/node_modules and Chromium).
"""
from __future__ import annotations

import importlib.util
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import CHROMIUM_ARGS  # noqa: E402
from browser_bench import ROOT, gzip_server, stored_output_site  # noqa: E402

WAYS = ("browser MathJax", "MathJax SVG at build", "KaTeX at build")
MODULES = ROOT / "web" / "node_modules"
CONSTRUCTS = {"\\operatorname": r"\\operatorname", "\\tfrac": r"\\tfrac", "\\dfrac": r"\\dfrac",
              "\\bigl/\\bigr": r"\\[bB]igl", "\\lVert": r"\\lVert", "\\mathsf": r"\\mathsf",
              "\\mathbf{1}": r"\\mathbf\{1\}", "aligned/split/align": r"\\begin\{(aligned|split|align)",
              "Chinese in \\text": r"\\text\{[^}]*[\u4e00-\u9fff]", "\\underbrace": r"\\underbrace",
              "\\left/\\right": r"\\left"}
# A formula drawn more than 10 % wider or narrower than by the browser MathJax is listed. Heights are not
# compared: each way's box has its own vertical padding (MathJax's CHTML adds struts, SVG is cut to the ink).
TOLERANCE = 0.10
PHONE = {"width": 360, "height": 740}

# The drawn box of each formula, in document order, in em of the surrounding text; (0, 0) when not shown.
BOXES_JS = """() => [...document.querySelectorAll('span.math, div.math')].map(m => {
    const drawn = m.querySelector('mjx-math, mjx-container > svg, .katex-html');
    if (!drawn) return [0, 0];
    const r = drawn.getBoundingClientRect(), em = parseFloat(getComputedStyle(m).fontSize);
    return [r.width / em, r.height / em];
})"""
MATHS_READY_JS = """async () => {
    if (window.MathJax) {
        const deadline = performance.now() + 60000;
        while (!(MathJax.startup && MathJax.startup.promise)) {
            if (performance.now() > deadline) throw new Error("MathJax did not start within 60 s");
            await new Promise(r => setTimeout(r, 10));
        }
        await MathJax.startup.promise;
    }
    await document.fonts.ready;
    return performance.now();
}"""


def extension():
    spec = importlib.util.spec_from_file_location("prerendered_maths", ROOT / "_ext" / "prerendered_maths.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def browser_mathjax_site(work: Path) -> Path:
    """The site built with Sphinx's MathJax renderer, MathJax copied next to it."""
    html = stored_output_site(ROOT, work, {"html_math_renderer": "mathjax", "mathjax_path": "mathjax/tex-chtml.js"})
    es5 = MODULES / "mathjax" / "es5"
    (html / "_static" / "mathjax").mkdir()
    for part in ("tex-chtml.js", "input", "output", "ui", "a11y", "adaptors"):
        target = html / "_static" / "mathjax" / part
        (shutil.copytree if (es5 / part).is_dir() else shutil.copy2)(es5 / part, target)
    return html


def variant(source: Path, target: Path, engine: str, maths) -> list[tuple[str, str, str]]:
    """A copy of the site with every formula typeset at build time by `engine`; returns the failures."""
    shutil.copytree(source, target)
    failed = maths.typeset_pages(target, engine)
    for page in target.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        text = re.sub(r'\s*<script>\s*window\.MathJax = [^<]*</script>|\s*<script[^>]*mathjax/tex-chtml[^>]*></script>',
                      "", text)
        if engine == "katex" and 'class="katex' in text:
            depth = len(page.relative_to(target).parts) - 1
            text = text.replace("</head>", f'<link rel="stylesheet" href="{"../" * depth}_static/katex/katex.min.css">'
                                           "</head>", 1)
        page.write_text(text, encoding="utf-8")
    if engine == "katex":
        shutil.copytree(MODULES / "katex" / "dist", target / "_static" / "katex",
                        ignore=shutil.ignore_patterns("*.js", "*.mjs", "contrib"))
    return failed


def measure(sites: dict[str, Path], pages: list[str]) -> dict:
    """{way: {page: {"ready": ms, "bytes": gzip bytes loaded, "boxes": [[w, h], ...]}}}."""
    from playwright.sync_api import sync_playwright

    found = {way: {} for way in sites}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        for way, html in sites.items():
            with gzip_server(html) as base:
                for path in pages:
                    context = browser.new_context(viewport=PHONE)
                    page = context.new_page()
                    cdp = context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                    cdp.send("Network.enable")
                    wire = []
                    cdp.on("Network.loadingFinished", lambda e, wire=wire: wire.append(e["encodedDataLength"]))
                    page.goto(f"{base}/{path}", wait_until="load")
                    ready = page.evaluate(MATHS_READY_JS)
                    page.wait_for_timeout(500)  # the last files finish arriving
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
                    found[way][path] = {"ready": ready, "bytes": sum(wire), "boxes": page.evaluate(BOXES_JS),
                                        "errors": page.locator("mjx-merror").count()}
                    context.close()
        browser.close()
    return found


def differs(box, reference) -> bool:
    if reference[0] == 0 or box[0] == 0:
        return False  # not shown (a collapsed table of contents)
    return abs(box[0] / reference[0] - 1) > TOLERANCE


def report(formulas: dict, failures: dict, found: dict, pages: list[str]) -> str:
    lines = [f"{sum(len(f) for f in formulas.values())} formulas on {len(formulas)} pages "
             f"({len({t for f in formulas.values() for t in f})} different)", ""]
    lines.append(f"{'':34}" + "".join(f"{w:>24}" for w in WAYS))
    lines.append(f"{'could not typeset':34}" + "".join(f"{len(failures[w]):>24}" for w in WAYS))
    flagged = {w: [] for w in WAYS}
    for path in pages:
        reference = found[WAYS[0]][path]["boxes"]
        for way in WAYS[1:]:
            boxes = found[way][path]["boxes"]
            if len(boxes) != len(reference):
                flagged[way].append((path, "-", f"{len(boxes)} formulas drawn, browser MathJax {len(reference)}"))
                continue
            flagged[way] += [(path, formulas[path][i], f"{b[0]:.2f}x{b[1]:.2f} em vs {r[0]:.2f}x{r[1]:.2f} em")
                             for i, (b, r) in enumerate(zip(boxes, reference, strict=True)) if differs(b, r)]
    lines.append(f"{'width off by > 10 %':34}{'-':>24}" + "".join(f"{len(flagged[w]):>24}" for w in WAYS[1:]))
    ratios = {w: sorted(b[0] / r[0] for p in pages if len(found[w][p]["boxes"]) == len(found[WAYS[0]][p]["boxes"])
                        for b, r in zip(found[w][p]["boxes"], found[WAYS[0]][p]["boxes"], strict=True) if b[0] and r[0])
              for w in WAYS[1:]}
    lines.append(f"{'median width / browser':34}{'1':>24}" + "".join(f"{ratios[w][len(ratios[w]) // 2]:>24.3f}"
                                                                      for w in WAYS[1:]))
    for path in pages:
        lines.append(f"{path:34}" + "".join(
            f" {found[w][path]['ready'] / 1000:>9.2f} s {found[w][path]['bytes'] / 1024:>8.0f} KB" for w in WAYS))
    lines += ["", "(per page: time until the formulas are drawn, CPU slowed 4x; gzip bytes of everything loaded)", ""]
    lines.append("constructs: formulas using it, then the number each way could not typeset or drew off by > 10 %")
    all_tex = [(path, tex) for path in pages for tex in formulas[path]]
    for name, pattern in CONSTRUCTS.items():
        using = {tex for _, tex in all_tex if re.search(pattern, tex)}
        bad = [sum(1 for f in failures[w] if f[1] in using) + sum(1 for f in flagged.get(w, []) if f[1] in using)
               for w in WAYS]
        lines.append(f"  {name:24} {len(using):4}  " + "  ".join(f"{w}: {n}" for w, n in zip(WAYS, bad, strict=True)))
    for way in WAYS:
        for page, tex, why in (failures[way] + flagged.get(way, []))[:8]:
            lines.append(f"  [{way}] {page}: {tex[:70]!r}: {why[:110]}")
    return "\n".join(lines)


def main():
    maths = extension()
    with tempfile.TemporaryDirectory(prefix="compare-maths-") as tmp:
        tmp = Path(tmp)
        browser_site = browser_mathjax_site(tmp / "mathjax")
        pages = [p.relative_to(browser_site).as_posix() for p in sorted(browser_site.rglob("*.html"))
                 if p.relative_to(browser_site).parts[0] != "_static" and maths.FORMULA.search(p.read_text("utf-8"))]
        formulas = {path: [tex for _, tex, _ in (maths.tex_of(m.group(2), m.group(3)) for m in
                                                  maths.FORMULA.finditer((browser_site / path).read_text("utf-8")))]
                    for path in pages}
        sites = {WAYS[0]: browser_site, WAYS[1]: tmp / "svg", WAYS[2]: tmp / "katex"}
        failures = {WAYS[0]: [], WAYS[1]: variant(browser_site, sites[WAYS[1]], "mathjax", maths),
                    WAYS[2]: variant(browser_site, sites[WAYS[2]], "katex", maths)}
        found = measure(sites, pages)
        failures[WAYS[0]] = [(path, "-", f"{found[WAYS[0]][path]['errors']} formula(s) with a MathJax error")
                             for path in pages if found[WAYS[0]][path]["errors"]]
    print(report(formulas, failures, found, pages))


if __name__ == "__main__":
    main()
