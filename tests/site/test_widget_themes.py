"""Every widget, every answer box and every “你来写” report on the built site follows the page's
light or dark theme.

For each built page with a widget (root class ``lc-widget``), an answer box or a “你来写” report on screen,
in light and in dark mode: the widget sits on the page's own background (a report, on what its exercise box shows:
no light box on the dark theme), and every piece of text in it has WCAG AA contrast (4.5:1) against what is really
painted behind it. The colours are measured at 1200 px during the `site_tour` visit of every page (WIDGET_CONTRAST
in tests/site_tour.py).
"""
from __future__ import annotations

import pytest

# Each kind: how the built HTML shows it, its key in the tour's records, how many of its texts at least must have
# been measured, and what must show behind it: "page" (the page's background) or "around" (whatever its cell's
# output area sits on). The “你来写” reports (labcode.practice) paint no box of their own: in dark mode too they sit
# on whatever their exercise box or page shows, in its text colour.
KINDS = {"widgets": ("lc-widget", 20, "page"), "answer_boxes": ('class="answer-box"', 40, "page"),
            "practice_reports": ('class="lc-practice"', 10, "around")}


@pytest.mark.parametrize("key", KINDS)
def test_follows_light_and_dark_with_aa_contrast(site_tour, built_site, key):
    """Every built page whose HTML shows the kind was measured in both themes, and passes."""
    marker, least, on = KINDS[key]
    pages = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")
                   if marker in p.read_text(encoding="utf-8"))
    assert pages, f"no built page has {marker}"
    visits = site_tour["1200"]
    checked = 0
    for path in pages:
        assert sorted(visits[path].get(key, {})) == ["dark", "light"], f"{path}: {key} not measured"
        for scheme, slices in visits[path][key].items():
            for r in slices:
                where = f"{path} {key} {r['widget']} at +{r['offset']}px ({scheme})"
                assert r["theme"] == scheme, where
                assert max(abs(a - b) for a, b in zip(r["behindRoot"], r[on], strict=True)) < 2, \
                    f"{where}: painted on {r['behindRoot']}, {'the page' if on == 'page' else 'around it'} is {r[on]}"
                low = [t for t in r["texts"] if t["ratio"] < 4.5]
                assert low == [], f"{where}: text below 4.5:1 contrast: {low[:5]}"
                if scheme == "dark":
                    assert all(sum(t["fg"]) > sum(t["bg"]) for t in r["texts"]), f"{where}: dark text on dark page"
                checked += len(r["texts"])
    assert checked > least  # the texts were really found and measured
