"""The course map on the built site: the home page shows it whole, a chapter page shows its own stage."""
import json
import re
from pathlib import Path

import yaml
from bs4 import BeautifulSoup, SoupStrainer

from labcode import overview

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = [e["file"] for e in yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["chapters"]
            if (ROOT / f"{e['file']}.ipynb").exists()]


def maps(page: Path) -> list[str]:
    """Accessible names of the course maps on a page (each map is drawn twice: wide and narrow)."""
    maps_only = SoupStrainer("div", class_="lc-map")  # a third of the time of parsing the whole page
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser", parse_only=maps_only)
    names = [svg.get("aria-label", "") for svg in soup.select("div.lc-map > svg[role=img]")]
    assert len(names) % 2 == 0, f"{page.name}: a map without its narrow (or wide) layout"
    return names[::2]


def test_the_home_page_shows_the_whole_map(built_site):
    assert maps(built_site / "intro.html") == [overview.course_map_alt()]


def test_a_chapter_shows_only_its_own_stage(built_site):
    for number, docname in enumerate(CHAPTERS, start=1):
        shown = maps(built_site / f"{docname}.html")
        if "course_map(" in (ROOT / f"{docname}.ipynb").read_text(encoding="utf-8"):
            assert len(shown) == 1, f"{docname} calls course_map but its page shows {len(shown)} maps"
        for name in shown:
            found = re.match(r"你在这里：第 (\d+) 章，", name)
            assert found and int(found.group(1)) == number, f"{docname}: a map reading {name[:20]!r}"


def test_a_chapter_map_comes_right_under_its_title():
    """On a phone the first screen is the title, what the chapter answers (_ext/chapter_opening.py) and the map;
    the opening text and the goals come after."""
    for docname in CHAPTERS:
        path = ROOT / f"{docname}.ipynb"
        if "course_map(" not in path.read_text(encoding="utf-8"):
            continue
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        source = re.sub(r"\n*:::\{chapter-question\}\n.*?\n:::$", "", "".join(cells[0]["source"]).strip(), flags=re.S)
        title = source.splitlines()
        assert title[-1].startswith("# ") and len(title) <= 2, f"{path.name}: title cell has more than label + title"
        assert "course_map(" in "".join(cells[1]["source"]), f"{path.name}: map is not the cell under the title"
