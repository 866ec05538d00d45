"""Every widget of the family on the built site follows the page's light or dark theme.

For each built page with a family widget (root class ``lc-widget``), in light and in dark mode:
the widget sits on the page's own background (no light box on the dark theme), and every piece of
text in it has WCAG AA contrast (4.5:1) against what is really painted behind it.
"""
from __future__ import annotations

import pytest

# Colours are composited as the browser paints them: the elements stacked under the centre of each
# text (document.elementsFromPoint), so a label drawn above a coloured bar is measured against the page.
CONTRAST_JS = """(root) => {
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
    return {page, behindRoot, texts, theme: document.documentElement.dataset.theme};
}"""


@pytest.fixture(scope="module")
def widget_pages(built_site):
    pages = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")
                   if "lc-widget" in p.read_text(encoding="utf-8"))
    if not pages:
        pytest.fail("no built page embeds a family widget (class lc-widget)")
    return pages


def test_every_widget_follows_light_and_dark_with_aa_contrast(offline_page, site_url, widget_pages):
    page = offline_page
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1200, "height": 900})
    checked = 0
    for path in widget_pages:
        page.goto(f"{site_url}/{path}")
        roots = page.locator(".lc-widget")
        roots.first.wait_for(timeout=20000)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_function("s => document.documentElement.dataset.theme === s", arg=scheme)
            for k in range(roots.count()):
                root = roots.nth(k)
                root.scroll_into_view_if_needed()
                # a tall widget is measured in viewport-sized slices
                height = root.evaluate("el => el.getBoundingClientRect().height")
                for offset in range(0, int(height) + 1, 600):
                    root.evaluate("(el, dy) => window.scrollTo(0, "
                                  "window.scrollY + el.getBoundingClientRect().top + dy - 100)", offset)
                    r = root.evaluate(CONTRAST_JS)
                    where = f"{path} widget {k} ({scheme})"
                    assert r["theme"] == scheme
                    assert max(abs(a - b) for a, b in zip(r["behindRoot"], r["page"], strict=True)) < 2, \
                        f"{where}: painted on {r['behindRoot']}, the page is {r['page']}"
                    low = [t for t in r["texts"] if t["ratio"] < 4.5]
                    assert low == [], f"{where}: text below 4.5:1 contrast: {low[:5]}"
                    checked += len(r["texts"])
                    if scheme == "dark":
                        assert all(sum(t["fg"]) > sum(t["bg"]) for t in r["texts"]), f"{where}: dark text on dark page"
    assert checked > 20  # the texts were really found and measured
    assert errors == [] and page.external == []
