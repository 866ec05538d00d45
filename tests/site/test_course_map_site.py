"""The course map on the built site: the home page shows it whole, a chapter page shows its own stage."""
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, SoupStrainer

import chapter_registry
from labcode import overview

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = chapter_registry.numbered()


def maps(page: Path) -> list[str]:
    """Accessible names of the course maps on a page (each map is drawn twice: wide and narrow)."""
    maps_only = SoupStrainer("div", class_="lc-map")  # a third of the time of parsing the whole page
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser", parse_only=maps_only)
    names = [svg.get("aria-label", "") for svg in soup.select("div.lc-map > svg[role=img]")]
    assert len(names) % 2 == 0, f"{page.name}: a map without its narrow (or wide) layout"
    return names[::2]


def test_the_home_page_shows_the_whole_map(built_site):
    assert maps(built_site / "intro.html") == [overview.course_map_alt()]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.stem)
def test_a_chapter_shows_its_own_stage_once(built_site, chapter):
    shown = maps(built_site / chapter.page)
    assert len(shown) == 1, f"{chapter.page} shows {len(shown)} course maps"
    found = re.match(r"你在这里：第 (\d+) 章，", shown[0])
    assert found and found.group(1) == chapter.number, f"{chapter.docname}: a map reading {shown[0][:20]!r}"


def test_the_site_shows_the_figure_labcode_draws(built_site):
    """The page's map is labcode's own drawing of the stage its cell names (wide and narrow, from the one figure
    that also gives the notebooks' PNG and the handouts' PDF), not a stored copy."""
    shown = 0
    pages = [("intro.html", ROOT / "intro.ipynb"), *((c.page, c.notebook) for c in CHAPTERS)]
    for page_name, notebook in pages:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        calls = [re.search(r'course_map\((?:"(\w+)")?\)', source) for source in sources]
        for call in filter(None, calls):
            page = (built_site / page_name).read_text(encoding="utf-8")
            assert overview.course_map(call.group(1)).html() in page, page_name
            shown += 1
    assert shown >= len(overview.STAGES) + 1


def test_a_chapter_map_comes_right_under_its_title():
    """On a phone the first screen is the title, what the chapter answers (_ext/chapter_opening.py) and the map;
    the opening text and the goals come after."""
    for chapter in CHAPTERS:
        path = chapter.notebook
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        source = re.sub(r"\n*:::\{chapter-question\}\n.*?\n:::$", "", "".join(cells[0]["source"]).strip(), flags=re.S)
        title = source.splitlines()
        assert title[-1].startswith("# ") and len(title) <= 2, f"{path.name}: title cell has more than label + title"
        assert "course_map(" in "".join(cells[1]["source"]), f"{path.name}: map is not the cell under the title"
