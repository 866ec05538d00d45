"""Every widget of the family on the built site follows the page's light or dark theme.

For each built page with a family widget (root class ``lc-widget``), in light and in dark mode:
the widget sits on the page's own background (no light box on the dark theme), and every piece of
text in it has WCAG AA contrast (4.5:1) against what is really painted behind it. The colours are
measured at 1200 px during the `site_tour` visit of every page (WIDGET_CONTRAST in tests/site_tour.py).
"""
from __future__ import annotations


def test_every_widget_follows_light_and_dark_with_aa_contrast(site_tour, built_site):
    widget_pages = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")
                          if "lc-widget" in p.read_text(encoding="utf-8"))
    assert widget_pages, "no built page embeds a family widget (class lc-widget)"
    visits = site_tour["1200"]
    checked = 0
    for path in widget_pages:
        assert sorted(visits[path].get("widgets", {})) == ["dark", "light"], f"{path}: widgets not measured"
        for scheme, slices in visits[path]["widgets"].items():
            for r in slices:
                where = f"{path} widget {r['widget']} at +{r['offset']}px ({scheme})"
                assert r["theme"] == scheme, where
                assert max(abs(a - b) for a, b in zip(r["behindRoot"], r["page"], strict=True)) < 2, \
                    f"{where}: painted on {r['behindRoot']}, the page is {r['page']}"
                low = [t for t in r["texts"] if t["ratio"] < 4.5]
                assert low == [], f"{where}: text below 4.5:1 contrast: {low[:5]}"
                if scheme == "dark":
                    assert all(sum(t["fg"]) > sum(t["bg"]) for t in r["texts"]), f"{where}: dark text on dark page"
                checked += len(r["texts"])
    assert checked > 20  # the texts were really found and measured
