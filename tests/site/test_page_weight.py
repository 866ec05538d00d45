"""Page weight: what a first visit of each page loads stays within its budget, and all of it is in the built site
(a request that tried to leave 127.0.0.1 fails test_site_offline.test_pages_run_without_script_errors).

The files are those the `site_tour` visit saw the page fetch at 360 px before any scrolling (tests/site_tour.py);
each is weighed as a static host serves it: text gzip-compressed, images and fonts as they are. The budgets are
in tests/site/page_budgets.toml. Timings on a throttled network are measured by `make bench` (scripts/bench_pages.py),
not asserted here.
"""
from __future__ import annotations

import gzip
import tomllib
from functools import cache
from pathlib import Path

BUDGETS = Path(__file__).with_name("page_budgets.toml")
GOAL_KB = 600
COMPRESSED = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".woff", ".woff2")


@cache
def weight(file: Path) -> int:
    """Bytes on the wire from a static host that gzips text."""
    data = file.read_bytes()
    return len(data) if file.suffix in COMPRESSED else len(gzip.compress(data, compresslevel=6, mtime=0))


def page_weight(built_site: Path, urls: list[str]) -> tuple[int, list[str]]:
    """(gzip bytes, files it could not find) of the site paths a page loaded."""
    total, missing = 0, []
    for url in dict.fromkeys(url.split("?")[0].split("#")[0] for url in urls):
        file = built_site / url.lstrip("/")
        if file.is_file():
            total += weight(file)
        else:
            missing.append(url)
    return total, missing


def test_every_page_stays_within_its_budget(site_tour, built_site):
    budgets = tomllib.loads(BUDGETS.read_text(encoding="utf-8"))
    visits = site_tour["360"]
    assert "book/01_probability_to_loss.html" in visits
    report, over = [], []
    for path, visit in sorted(visits.items()):
        total, missing = page_weight(built_site, visit["first_visit"])
        assert missing == [], f"{path} loaded files that are not in the built site: {missing}"
        assert len(visit["first_visit"]) > 3, f"{path}: the visit recorded almost nothing: {visit['first_visit']}"
        budget = budgets["pages"].get(path, budgets["default"])
        assert budget <= GOAL_KB, f"{path}: a budget above the {GOAL_KB} KB goal"
        kb = total / 1024
        report.append(f"{path}: {kb:.0f} KB of {budget} KB, {len(visit['first_visit'])} files")
        if kb > budget:
            over.append(report[-1])
    assert over == [], "pages over their budget (tests/site/page_budgets.toml):\n" + "\n".join(over) + \
        "\nall pages:\n" + "\n".join(report)
