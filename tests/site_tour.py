"""One visit of every page of the built site at phone and at desktop width, shared by several checks.

Loading a page (MathJax typesetting, the widget runtime) is the costly part of a browser check, so each
page is loaded once (at phone width, then widened), with every request outside 127.0.0.1 blocked, and
everything the checks need is gathered during that one visit (the `site_tour` fixture in conftest.py runs
it once per test run):
- axe-core in the light theme at both widths (every rule that can report a serious or critical problem; those
  that depend on colour at 1200 px only) and, at 1200 px, after the theme follows the system's dark mode, in the
  dark theme (the rules that depend on colour);
- the reading mode (on at 360 px, off at 1200 px) and what it leaves on screen;
- at 360 px, with the code shown and every fold open, every element wider than its box (it must scroll and show
  it), every control smaller than a finger and every picture (its shown and its stored width); halfway down,
  what stays fixed on screen over the text;
- at 360 px, table first columns squeezed to a letter a line and inline code running off the screen; and, as a
  phone is used (touch, `locator.tap()`), the site menu (☰) and the page contents opened, their links listed and
  closed again (tests/site/test_site_nav.py);
- at 1200 px, in each theme, the colours painted behind every widget, every answer box and every
  “你来写” report on screen, and behind each of their texts;
- the typeset formulas, and on pages with widgets how many of their views were drawn;
- around each answer box and each exercise, the text a reader sees on the same screen (test_answers_hidden.py);
- every file the first visit at 360 px loaded (test_page_weight.py weighs them against the page's budget);
- script errors, failed requests and requests that tried to leave 127.0.0.1.
test_accessibility.py, test_site_phone.py, test_widget_themes.py, test_site_offline.py, test_page_weight.py and
test_answers_hidden.py assert on the result.
"""
from __future__ import annotations

from pathlib import Path

import browser

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = {360: {"width": 360, "height": 740}, 1200: {"width": 1200, "height": 900}}

# The rules of axe's default run (enabled, not experimental) that can report a serious or critical problem:
# axe gives every problem a rule finds the rule's own impact (finalizeRuleResult in axe-core), so a rule of
# moderate or minor impact never can, and running it would only cost time.
# The rules that depend on colour run at the desktop width only, in both themes: the book's colours do not depend
# on the width, and at 1200 px every text the phone shows is on screen too, with the sidebars the phone folds away
# (they are three quarters of axe's time: at 360 px they would add about 10 s a run, a dark pass there 15 s more).
# Switching the theme changes colours only, not the page's structure: the dark pass runs only those rules.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
DARK_WIDTH = max(WIDTHS)
# `rules`: the rules to run (null: every rule that can report a serious or critical problem), `skip`: rules not to.
RUN_AXE = """async ({rules, skip} = {}) => {
    rules = (rules || axe._audit.rules
        .filter(r => r.enabled && !r.tags.includes("experimental"))
        .filter(r => r.impact === "serious" || r.impact === "critical").map(r => r.id))
        .filter(id => !(skip || []).includes(id));
    const result = await axe.run(document, {resultTypes: ["violations"], runOnly: {type: "rule", values: rules}});
    return result.violations.filter(v => v.impact === "serious" || v.impact === "critical").map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + " | "
                                             + n.failureSummary.split("\\n").slice(1, 3).join(" "))
    }));
}"""
NO_TRANSITIONS = "*, *::before, *::after { transition: none !important; animation: none !important; }"
# The theme has applied the mode, and MathJax, if a page ever loads it, has typeset it (the book's formulas are
# typeset when the site is built: _ext/prerendered_maths.py).
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
    // A table that scrolls sideways keeps its caption on the screen: inside the box, wrapped, not faded.
    captions: [...document.querySelectorAll('.bd-article .lc-scrolls > table > caption')].filter(caption => {
        const box = caption.closest('.lc-scrolls').getBoundingClientRect(), c = caption.getBoundingClientRect();
        const unfaded = parseFloat(caption.closest('.lc-scrolls').style.getPropertyValue('--lc-keep-top')) || 0;
        return c.left < box.left - 1 || c.right > box.right + 1 || c.bottom - box.top > unfaded + 1;
    }).map(caption => caption.innerText.trim()),
})"""

# Code in an exercise, a solution or a fold keeps most of the column (boxes inside boxes must not eat it); measured
# with the code shown and every fold open.
CRAMPED_CODE = """() => {
    const article = document.querySelector('.bd-article');
    if (!article) return [];
    const style = getComputedStyle(article);
    const column = article.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return [...article.querySelectorAll('pre')]
        .filter(pre => pre.getClientRects().length && pre.closest('.admonition, details') && !pre.closest('li'))
        .filter(pre => pre.getBoundingClientRect().width < 0.85 * column)      // (a list's indent is its own)
        .map(pre => `${pre.textContent.trim().slice(0, 30)}: ${Math.round(pre.getBoundingClientRect().width)} px`);
}"""

WIDGET_CONTRAST = """(root) => {
    const parse = (c) => { const m = c.match(/[\\d.]+/g).map(Number);
                           return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
    const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3]));
    const backdrop = (stack) => stack.reverse().reduce(
        (under, el) => over(parse(getComputedStyle(el).backgroundColor), under), [255, 255, 255]);
    const lum = (rgb) => { const [r, g, b] = rgb.map(v => v / 255)
                                                .map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
                           return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
                              return (hi + 0.05) / (lo + 0.05); };
    const centre = (el) => { const r = el.getBoundingClientRect();
                             return [r.left + r.width / 2, r.top + r.height / 2, r.width * r.height]; };
    const box = root.getBoundingClientRect();
    const page = backdrop([document.body, document.documentElement]);
    const inside = document.elementsFromPoint(box.left + 4, Math.max(box.top, 120) + 4);
    const behindRoot = backdrop(inside.filter(el => !root.contains(el) || el === root));
    // What the cell's output area sits on (the page, or a box such as an exercise): an output follows the theme
    // when nothing between that and its text paints a colour of its own.
    const output = root.closest("div.cell_output") || root;
    const around = backdrop(inside.filter(el => !output.contains(el)));
    const texts = [];
    for (const el of root.querySelectorAll("*")) {
        const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (!own || el.closest("option, svg")) continue;
        const [x, y, area] = centre(el);
        if (area === 0 || y < 0 || y > innerHeight) continue;  // hidden, or scrolled away (checked in its own pass)
        const stack = document.elementsFromPoint(x, y);
        if (!stack.includes(el)) continue;  // under the page's sticky header
        const bg = backdrop(stack.slice(stack.indexOf(el)));
        const fg = over(parse(getComputedStyle(el).color), bg);
        texts.push({text: el.textContent.trim().slice(0, 30), ratio: ratio(fg, bg), fg, bg});
    }
    return {page, behindRoot, around, texts, theme: document.documentElement.dataset.theme};
}"""


def site_pages(html: Path) -> list[str]:
    """Every page of the built site (theme fragments under _static/ are not pages; index.html only redirects)."""
    pages = []
    for page in sorted(html.rglob("*.html")):
        path = page.relative_to(html).as_posix()
        if not path.startswith("_") and 'http-equiv="Refresh"' not in page.read_text(encoding="utf-8")[:600]:
            pages.append(path)
    return pages


def visit(chromium, site_url: str, pages: list[str], axe_source: str) -> dict:
    """{width: {page: record}} for every page at every width in WIDTHS (keys are strings, as in JSON).

    Each page is loaded once, at the phone width as a phone opens it, then widened to the desktop width:
    the theme lays the page out by CSS media queries and the widgets redraw on resize, so the wide page
    is the one a desktop load shows (and loading every page twice would double the tour's cost).
    """
    # As a phone opens the page: touch events, `tap()`, the mobile viewport (widened later, as a desktop shows it).
    context = chromium.new_context(viewport=WIDTHS[min(WIDTHS)], has_touch=True, is_mobile=True)
    page = context.new_page()
    blocked = browser.offline(context)
    log = {}

    def note(key, text):
        log.setdefault(key, []).append(text)

    page.on("requestfinished", lambda r: note("loaded", r.url))
    page.on("pageerror", lambda e: note("errors", str(e)))
    page.on("console", lambda m: note("errors", m.text) if m.type == "error" else None)
    page.on("response", lambda r: note("failed", f"{r.status} {r.url}") if r.status >= 400 else None)
    visits = {str(width): {} for width in WIDTHS}
    try:
        for path in pages:
            log = {}
            first_blocked = len(blocked)
            page.set_viewport_size(WIDTHS[min(WIDTHS)])
            page.emulate_media(color_scheme="light")
            page.goto(f"{site_url}/{path}", wait_until="networkidle")
            page.wait_for_function(ALL_VIEWS_DRAWN, timeout=20000)
            first_visit = [url[len(site_url):] for url in log.get("loaded", []) if url.startswith(site_url + "/")]
            # The theme fades colours over a few hundred ms when the mode changes; axe must see the final
            # colours, not a frame of the fade (a busy machine would otherwise measure mid-transition).
            page.add_style_tag(content=NO_TRANSITIONS)
            page.evaluate(axe_source)
            for width, viewport in sorted(WIDTHS.items()):
                page.set_viewport_size(viewport)
                page.evaluate(NEXT_FRAMES)  # resize observers and layout have run
                visits[str(width)][path] = _check(page, width)
            page.wait_for_load_state("networkidle")  # a file that fails is logged before the next page
            visits[str(min(WIDTHS))][path]["first_visit"] = first_visit
            log["external"] = blocked[first_blocked:]
            for width in WIDTHS:
                visits[str(width)][path].update({key: log.get(key, []) for key in ("errors", "failed", "external")})
    finally:
        context.close()
    return visits


def _check(page, width: int) -> dict:
    """Everything the checks need from the loaded page at this width, in the light then (at DARK_WIDTH) the
    dark theme."""
    record = {}
    for scheme in ("light", "dark") if width == DARK_WIDTH else ("light",):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_function(READY, arg=scheme, timeout=20000)
        rules = ({"rules": COLOUR_RULES} if scheme == "dark" else {} if width >= DARK_WIDTH
                 else {"skip": COLOUR_RULES})
        record[f"axe_{scheme}"] = page.evaluate(RUN_AXE, rules)
        record[f"background_{scheme}"] = page.evaluate(BACKGROUND)
        if scheme == "light" and width <= 360:
            record["phone"] = page.evaluate(PHONE_CHECKS)
            record["nav"] = _phone_nav(page)
            record["overflow"] = _with_code_shown(page, OVERFLOW)
            record["cramped_code"] = _with_code_shown(page, CRAMPED_CODE)
            record["small_targets"] = _with_code_shown(page, SMALL_TARGETS)
            record["images"] = _with_code_shown(page, IMAGES)
            record["covering"] = page.evaluate(COVERING)
        if width >= 1200 and page.evaluate(HAS_FAMILY_WIDGET):
            record.setdefault("widgets", {})[scheme] = _measure_widgets(page)
        if width >= 1200 and page.locator(ANSWER_BOX).count():
            record.setdefault("answer_boxes", {})[scheme] = _measure_widgets(page, ANSWER_BOX)
        if width >= 1200 and page.locator(PRACTICE_REPORT).count():
            record.setdefault("practice_reports", {})[scheme] = _measure_widgets(page, PRACTICE_REPORT)
    page.emulate_media(color_scheme="light")
    record["around"] = page.evaluate(AROUND, SCREEN_HEIGHTS[width])
    record["reading"] = page.evaluate(READING)
    record["formulas"] = page.locator("mjx-container").count()
    record["views"] = page.evaluate(VIEWS)
    record["typography"] = page.evaluate(TYPOGRAPHY)
    record["typography"].update(_with_code_shown(page, SCROLLING))
    return record


# A reader sees one screen at a time: a phone's, and a desktop window's (the tour's desktop viewport is taller, for
# the widgets; what shares a screen is measured on the page, so the window's height is only a number here).
SCREEN_HEIGHTS = {360: 740, 1200: 800}
# Around each answer box (its input) and each exercise, the text the reader sees on a screen that shows them: every
# rendered text, in page order, whose lines come within one screen height of it (a closed <details>, a folded
# solution, a hidden element show nothing); a typeset formula counts as its MathML written out (4/7, e^2).
AROUND = """(screen) => {
    const wrap = (s) => /^[\\w.]+$/.test(s) ? s : `(${s})`;
    const linear = (node) => {
        if (node.nodeType === 3) return node.textContent;
        const kids = [...node.childNodes].map(linear);
        switch (node.localName) {
            case "mfrac": return `${wrap(kids[0])}/${wrap(kids[1])}`;
            case "msup": return `${kids[0]}^${wrap(kids[1])}`;
            case "msqrt": return `sqrt(${kids.join("")})`;
            default: return kids.join("");
        }
    };
    const dy = window.scrollY;
    const span = (rects) => { rects = [...rects].filter(r => r.width > 0 && r.height > 0);
                              return rects.length ? [Math.min(...rects.map(r => r.top)) + dy,
                                                     Math.max(...rects.map(r => r.bottom)) + dy] : null; };
    const shown = (el) => el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
    const pieces = [];
    const walk = (el) => {
        for (const child of el.childNodes) {
            if (child.nodeType === 3) {
                if (!child.textContent.trim()) continue;
                const range = document.createRange();
                range.selectNodeContents(child);
                const at = span(range.getClientRects());
                if (at) pieces.push([...at, child.textContent]);
            } else if (child.nodeType === 1 && !child.matches(".answer-box, script, style, template") && shown(child)) {
                if (child.localName === "mjx-container") {
                    const at = span(child.getClientRects()), math = child.querySelector("math");
                    if (at && math) pieces.push([...at, ` ${linear(math)} `]);
                } else if (child.localName !== "svg") {
                    walk(child);
                }
            }
        }
    };
    walk(document.querySelector("article.bd-article") || document.body);
    const near = (top, bottom) => pieces.filter(([a, b]) => b > top && a < bottom).map(p => p[2]).join("");
    const boxes = [...document.querySelectorAll(".answer-box")].map(box => {
        const input = box.querySelector(".ab-input");
        const at = span([(input && shown(input) ? input : box).getBoundingClientRect()]);
        return {label: box.id, text: at ? near(at[1] - screen, at[0] + screen) : null};
    });
    const exercises = [...document.querySelectorAll("div.exercise")].map(ex => {
        const at = span([ex.getBoundingClientRect()]);
        return {label: ex.id, text: at ? near(at[0] - screen, at[1] + screen) : null};
    });
    return {boxes, exercises};
}"""


# Every element of the article wider than its box (at 360 px): the box must scroll and show the cue of
# _ext/scroll_cues.py (a fade at the edge); an element that is cut off, or that reaches past the screen's
# edge with no box around it that scrolls, is a problem. Inside a formula's drawing only the <svg> counts;
# the formulas' hidden MathML for screen readers and visually hidden helpers (1 px wide) do not.
OVERFLOW = """() => {
    const screen = document.documentElement.clientWidth;
    const problems = [];
    const where = (el) => {
        const text = (el.closest('p, li, td, th, h1, h2, h3, h4, dt, dd, figcaption, pre') || el).innerText || '';
        return `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: ${text.trim().slice(0, 60)}`;
    };
    for (const el of document.querySelectorAll('.bd-article *')) {
        if (el.closest('mjx-assistive-mml') || (el.closest('svg') && el.tagName.toLowerCase() !== 'svg')) continue;
        const style = getComputedStyle(el);
        if (!el.checkVisibility({visibilityProperty: true}) || el.clientWidth <= 1) continue;
        // an inline formula may hide a glyph's overhang (scroll-cues.js: no cue for up to 3 px)
        const slack = el.matches('span.math') ? 3 : 1;
        if (el.scrollWidth > el.clientWidth + slack && style.overflowX !== 'visible') {
            const mask = style.maskImage || style.webkitMaskImage || 'none';
            if (!['auto', 'scroll'].includes(style.overflowX)) {
                problems.push(['cut off', where(el), el.clientWidth, el.scrollWidth]);
            } else if (!el.classList.contains('lc-scrolls') || mask === 'none') {
                problems.push(['scrolls with no cue', where(el), el.clientWidth, el.scrollWidth]);
            } else if (el.matches('div.math mjx-container') && el.clientWidth / el.scrollWidth >= 0.85) {
                // scroll-cues.js sets a display formula at most 15 % too wide smaller (FIT_DOWN_TO)
                problems.push(['a formula scrolls for its last symbols', where(el), el.clientWidth, el.scrollWidth]);
            }
        }
        const right = el.getBoundingClientRect().right;
        if (right > screen + 1) {
            let box = el.parentElement;
            while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
            if (!box || box === document.documentElement || box === document.body) {
                problems.push(['past the screen', where(el), screen, Math.round(right)]);
            }
        }
    }
    return problems;
}"""
# Controls on screen (header, text, widgets, answer boxes) smaller than a finger: 44 × 44 CSS px. A checkbox or
# radio button inside a label is hit through its label.
SMALL_TARGETS = """() => {
    const controls = 'button, summary, select, input:not([type=hidden]), [role=button], a.btn';
    const found = [];
    for (const el of document.querySelectorAll(controls)) {
        if (el.closest('dialog:not([open]), .bd-sidebar-primary, .bd-sidebar-secondary')) continue;
        const target = ['checkbox', 'radio'].includes(el.type) && el.closest('label') || el;
        const box = target.getBoundingClientRect();
        if (!box.width || !box.height || !target.checkVisibility({visibilityProperty: true})) continue;
        if (box.width < 44 - 0.5 || box.height < 44 - 0.5) {
            const name = (el.getAttribute('aria-label') || el.innerText || el.name || '').trim().slice(0, 30);
            found.push(`${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')} "${name}": `
                       + `${Math.round(box.width)} × ${Math.round(box.height)}`);
        }
    }
    return [...new Set(found)];
}"""
# Every picture of the text as the phone shows it: [file, shown width, stored width] in CSS px / pixels. The
# pictures load lazily, as the reader comes near them: they are loaded here (after the first visit was weighed).
IMAGES = """async () => {
    const images = [...document.querySelectorAll('.bd-article img')].filter(img => img.checkVisibility());
    images.forEach(img => { img.loading = 'eager'; });
    await Promise.all(images.map(img => img.decode().catch(() => null)));
    return images.map(img => [img.getAttribute('src'), img.clientWidth, img.naturalWidth]);
}"""
# Halfway down the page, what stays on screen however the page scrolls (fixed or sticky) and covers the text:
# the page's own header bar excepted (the text scrolls under it; headings land below it).
COVERING = """async () => {
    window.scrollTo(0, document.documentElement.scrollHeight / 2);
    window.scrollBy(0, -200);   // scrolling back up is what shows a back-to-top button
    await new Promise(done => setTimeout(done, 400));
    const article = document.querySelector('.bd-article, .bd-search-container, main');
    const text = article.getBoundingClientRect();
    const found = [];
    for (const el of document.body.querySelectorAll('*')) {
        const style = getComputedStyle(el);
        if (!['fixed', 'sticky'].includes(style.position) || el.closest('.bd-header-article, dialog')) continue;
        const box = el.getBoundingClientRect();
        const shown = style.display !== 'none' && style.visibility === 'visible' && Number(style.opacity) > 0;
        const onScreen = box.width > 0 && box.height > 0 && box.right > 0 && box.left < innerWidth
                         && box.bottom > 0 && box.top < innerHeight;
        const overText = box.right > text.left && box.left < text.right;
        if (shown && onScreen && overText) {
            found.push(`${el.tagName.toLowerCase()}#${el.id}.${[...el.classList].join('.')}`);
        }
    }
    window.scrollTo(0, 0);
    return found;
}"""
# Reading mode (_ext/reading_mode.py): is it on, and what of the text's cells is on screen: code (not a
# solution's) apart from the code it keeps (a “你来写” exercise's, a cell tagged keep-in-reading-mode: `kept`),
# figures, widgets, answer boxes and printouts (what a cell printed: often what the prose goes on from).
READING = """() => {
    const shown = (selector) => [...document.querySelectorAll('.bd-article ' + selector)]
        .filter(el => el.getClientRects().length && !el.closest('.solution, details:not([open])')).length;
    const kept = ':is(.lc-you-write .cell, .cell.tag_keep-in-reading-mode) > .cell_input';
    return {on: document.documentElement.classList.contains('lc-reading'),
            code: shown(`.cell_input:not(${kept})`), kept: shown(kept),
            figures: shown('.cell_output img'), widgets: shown('.widget-subarea'),
            answer_boxes: shown('.answer-box'),
            printouts: shown('.cell_output > .output.stream, .cell_output > .output.text_plain')};
}"""


def _with_code_shown(page, script: str):
    """`script`'s result with everything a reader can unfold unfolded for a moment: the code (reading mode
    off), the folded outputs, “深入” boxes and solutions."""
    page.evaluate(UNFOLD)
    page.evaluate(NEXT_FRAMES)
    try:
        return page.evaluate(script)
    finally:
        page.evaluate(REFOLD)


UNFOLD = """() => {
    const root = document.documentElement;
    root.dataset.tourReading = root.classList.contains('lc-reading');
    root.classList.remove('lc-reading');
    for (const d of document.querySelectorAll('.bd-article details:not([open])')) {
        d.open = true;
        d.dataset.tourClosed = '';
    }
    for (const s of document.querySelectorAll('.bd-article .toggle-hidden')) {
        s.classList.remove('toggle-hidden');
        s.dataset.tourHidden = '';
    }
}"""
REFOLD = """() => {
    const root = document.documentElement;
    root.classList.toggle('lc-reading', root.dataset.tourReading === 'true');
    for (const d of document.querySelectorAll('[data-tour-closed]')) {
        d.open = false;
        delete d.dataset.tourClosed;
    }
    for (const s of document.querySelectorAll('[data-tour-hidden]')) {
        s.classList.add('toggle-hidden');
        delete s.dataset.tourHidden;
    }
}"""


# The links a menu shows, as absolute URLs (a link scrolled out of the dialog's view still counts: it is in the
# dialog's scrolling list, drawn and not hidden).
MENU_LINKS = """(dialog) => [...document.querySelectorAll(dialog + ' a[href]')]
    .filter(a => a.getClientRects().length && getComputedStyle(a).visibility === 'visible')
    .map(a => a.href)"""
# The sections of the article the page contents must list (its h2 and h3), as absolute URLs.
SECTIONS = """() => [...document.querySelectorAll('.bd-article section[id]')]
    .filter(s => s.querySelector(':scope > h2, :scope > h3'))
    .map(s => new URL('#' + s.id, location.href).href)"""
DIALOGS = {"primary": "#pst-primary-sidebar-modal", "secondary": "#pst-secondary-sidebar-modal"}


def _phone_nav(page) -> dict:
    """Tap the ☰ and the page-contents button of the page header: does each open its dialog, which links does it
    show, and does its 关闭 button close it again? None for a button the page does not show."""
    found = {"sections": page.evaluate(SECTIONS)}
    page.evaluate("() => window.scrollTo(0, 0)")
    for which, dialog in DIALOGS.items():
        toggle = page.locator(f".bd-header-article .{which}-toggle")
        if not toggle.count() or not toggle.is_visible():
            found[which] = None
            continue
        toggle.tap()
        opened = _wait(page, f"() => document.querySelector('{dialog}').open")
        links = page.evaluate(MENU_LINKS, dialog) if opened else []
        if opened:
            page.locator(f"{dialog} .lc-dialog-close button").tap()
        closed = _wait(page, f"() => !document.querySelector('{dialog}').open")
        found[which] = {"opened": opened, "links": links, "closed": closed,
                        "label": toggle.get_attribute("aria-label")}
    return found


def _wait(page, condition: str) -> bool:
    try:
        page.wait_for_function(condition, timeout=3000)
        return True
    except Exception:  # noqa: BLE001 (Playwright's TimeoutError: the condition never held)
        return False


NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
# Widget views embedded in the page, and those drawn (each in the .widget-subarea the loader or the manager makes).
VIEWS = """() => [document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').length,
                document.querySelectorAll('.widget-subarea').length]"""
# Chinese typography (tests/site/test_typography.py): glued numbers set bolder than their sentence, slanted figure
# and table labels, inline code in a table broken over lines, formulas whose closing punctuation after them
# (“= 1：”) may go to the next line or whose opening bracket before them (“（”) may end a line (not inside one
# unbreakable run), inline formulas faded as scrolling when their picture fits their box, fold titles laid out as
# several flex columns of text, curly quotes drawn narrower than a Chinese character, and a □ of the text not marked.
TYPOGRAPHY = """() => {
    const article = document.querySelector(".bd-article") || document.body;
    const weight = (el) => parseInt(getComputedStyle(el).fontWeight, 10);
    const text = (el) => el.textContent.trim().slice(0, 40);
    const closing = /^[，。、：；！？）」』”’》〉]/;
    const opening = /[（「『“‘《〈]$/;
    const loose = (el) => getComputedStyle(el.parentElement).whiteSpace !== "nowrap";
    // text nodes matching `pattern` under `root`, outside code and formulas (`shown`: only those laid out on screen)
    const texts = (pattern, root = article, shown = true) => {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        const found = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (pattern.test(node.textContent) && (!shown || node.parentElement.getClientRects().length)
                && !node.parentElement.closest("pre, code, mjx-container, .highlight, script, style, svg")) {
                found.push(node);
            }
        }
        return found;
    };
    return {
        bold_glue: [...article.querySelectorAll("span.pasted-text")]
            .filter(el => weight(el) >= 600 && weight(el.parentElement) < 600).map(text),
        slanted_labels: [...article.querySelectorAll(".caption-number")]
            .filter(el => getComputedStyle(el).fontStyle !== "normal").map(text),
        split_table_code: [...article.querySelectorAll("table code.literal")]
            .filter(el => el.getClientRects().length > 1).map(text),
        loose_punctuation: [...article.querySelectorAll("span.math")]
            .filter(el => !el.closest("mjx-container") && el.nextSibling
                    && el.nextSibling.nodeType === Node.TEXT_NODE && closing.test(el.nextSibling.textContent)
                    && loose(el))
            .map(el => (el.parentElement.textContent.match(/[^。]{0,12}$/) || [""])[0]
                       + " | " + el.nextSibling.textContent.slice(0, 6)),
        loose_opening: [...article.querySelectorAll("span.math")]
            .filter(el => !el.closest("mjx-container") && el.previousSibling
                    && el.previousSibling.nodeType === Node.TEXT_NODE && opening.test(el.previousSibling.textContent)
                    && loose(el))
            .map(el => el.previousSibling.textContent.slice(-8) + " | " + text(el).slice(0, 12)),
        // faded as a box that scrolls, while the formula's picture fits the box (up to scroll-cues.js's slack)
        faded_maths: [...article.querySelectorAll("span.math.lc-scrolls")]
            .filter(el => [...el.querySelectorAll("mjx-container > svg")]
                          .reduce((sum, svg) => sum + svg.getBoundingClientRect().width, 0) <= el.clientWidth + 3)
            .map(el => `${text(el)}: ${el.scrollWidth - el.clientWidth} px`),
        // a fold's title laid out as a flex box with more than one item of text (each a column; spaces dropped)
        split_titles: [...article.querySelectorAll("summary, .admonition.toggle > .admonition-title")]
            .filter(title => getComputedStyle(title).display.endsWith("flex") && title.getClientRects().length)
            .filter(title => [...title.childNodes].filter(n => n.nodeType === Node.TEXT_NODE
                ? n.textContent.trim() : n.nodeType === Node.ELEMENT_NODE && !n.matches("button, svg")
                  && n.textContent.trim()).length > 1)
            .map(text),
        // a curly quote between two letters or characters on one line, narrower than 0.8 em: the Latin font's, not
        // the Chinese one (full-width; next to other punctuation or at a line's start the browser halves it, as print)
        narrow_quotes: texts(/[\\p{L}\\p{N}][“”‘’][\\p{L}\\p{N}]/u).flatMap(node => {
            const at = node.textContent.search(/(?<=[\\p{L}\\p{N}])[“”‘’](?=[\\p{L}\\p{N}])/u);
            const box = (k) => { const range = document.createRange();
                                 range.setStart(node, k);
                                 range.setEnd(node, k + 1);
                                 return range.getBoundingClientRect(); };
            const [before, quote, after] = [box(at - 1), box(at), box(at + 1)];
            const em = parseFloat(getComputedStyle(node.parentElement).fontSize);
            const oneLine = Math.abs(before.top - quote.top) < 2 && Math.abs(after.top - quote.top) < 2;
            return oneLine && quote.width < 0.8 * em ? [`${node.textContent.slice(Math.max(0, at - 6), at + 6)}: `
                                                        + `${(quote.width / em).toFixed(2)} em`] : [];
        }),
        // the book's □ as plain text, not in its marked span (in the text, and in the page contents' links)
        bare_unknown: [...texts(/□/),
                       ...[...document.querySelectorAll(".page-toc")].flatMap(toc => texts(/□/, toc, false))]
            .filter(node => !node.parentElement.closest(".lc-unknown"))
            .map(node => node.textContent.trim().slice(0, 30)),
    };
}"""
# What scrolls sideways in its box (by design on a phone, never on a desktop: tests/site/test_typography.py), measured
# with every fold open (_with_code_shown), as a reader sees it: a closed solution lays its content out wider than it
# shows it once opened. A table wider than its column; a code cell (input) or a cell's output (printed text, printed
# source, an error message) with a line wider than its column: a <pre> never wraps, so its box scrolls.
SCROLLING = """() => {
    const article = document.querySelector(".bd-article") || document.body;
    const text = (el) => el.textContent.trim().slice(0, 40);
    const longest = (pre) => pre.textContent.split("\\n").reduce((a, b) => (b.length > a.length ? b : a), "");
    const scrolls = (box) => box.scrollWidth > box.clientWidth + 1;
    const lines = (selector) => [...article.querySelectorAll(selector)].filter(scrolls)
        .map(pre => `${longest(pre).slice(0, 60)}: ${pre.scrollWidth - pre.clientWidth} px`);
    return {
        scrolling_tables: [...article.querySelectorAll("table")].map(t => t.parentElement).filter(scrolls)
            .map(box => `${text(box.querySelector("caption") || box)}: ${box.scrollWidth - box.clientWidth} px`),
        scrolling_code: lines("div.cell_input pre"),
        scrolling_outputs: lines("div.cell_output pre"),
    };
}"""
# The page draws the widgets below the first screen when the browser is idle: wait for all of them.
ALL_VIEWS_DRAWN = f"() => {{ const [views, drawn] = ({VIEWS})(); return drawn >= views; }}"
HAS_FAMILY_WIDGET = """() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-state+json"]')]
    .some(s => s.textContent.includes("lc-widget"))"""


# The answer boxes of _ext/answer_box follow the theme as the widgets do (drawn by the page's own script).
ANSWER_BOX = ".answer-box"
# The “你来写” reports stored in the notebooks (labcode.practice), those on screen: a solution's is folded away.
PRACTICE_REPORT = ".lc-practice:visible"


def _measure_widgets(page, selector=".lc-widget") -> list[dict]:
    """WIDGET_CONTRAST for every widget (or answer box) on the page; a tall one is measured in
    viewport-sized slices."""
    found = []
    roots = page.locator(selector)
    roots.first.wait_for(timeout=20000)  # the widget runtime draws them after the page has loaded
    for k in range(roots.count()):
        root = roots.nth(k)
        root.scroll_into_view_if_needed()
        height = root.evaluate("el => el.getBoundingClientRect().height")
        for offset in range(0, int(height) + 1, 600):
            root.evaluate("(el, dy) => window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top + dy - 100)",
                          offset)
            found.append({"widget": k, "offset": offset, **root.evaluate(WIDGET_CONTRAST)})
    page.evaluate("() => window.scrollTo(0, 0)")
    return found
