"""The book site builds with warnings as errors, its search index holds Chinese words, and its pages load nothing
from outside it."""
import json
import re
from html.parser import HTMLParser

import build_site

EXTERNAL = re.compile(r"^(https?:)?//", re.I)
CSS_URL = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])((?:https?:)?//[^'")\s]+)""", re.I)


def test_site_builds_with_warnings_as_errors(site_build):
    """Also what keeps _toc.yml to real pages: a missing one is a warning ("toctree contains reference to
    nonexisting document", sphinx-external-toc), a missing root an error."""
    assert {"-W", "-n", "--keep-going"} <= set(build_site.command())  # a clean log alone does not show -W
    assert site_build.returncode == 0, site_build.log[-4000:]
    assert "WARNING:" not in site_build.log and "build succeeded" in site_build.log


class ResourceCollector(HTMLParser):
    """Collects every URL a page would load by itself (not links a reader may click)."""

    LOADS = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src", "video": "src",
             "embed": "src", "object": "data"}

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        navigation = ("canonical", "alternate", "next", "prev")
        if tag == "link" and attrs.get("href") and attrs.get("rel", "") not in navigation:
            self.urls.append(attrs["href"])
        elif tag in self.LOADS and attrs.get(self.LOADS[tag]):
            self.urls.append(attrs[self.LOADS[tag]])
        if attrs.get("style"):
            self.urls += CSS_URL.findall(attrs["style"])

    def handle_data(self, data):  # inline <style> blocks
        self.urls += CSS_URL.findall(data)


def test_pages_load_no_script_style_or_font_from_outside(built_site):
    outside, local_scripts = [], set()
    for page in built_site.rglob("*.html"):
        collector = ResourceCollector()
        collector.feed(page.read_text(encoding="utf-8"))
        outside += [f"{page.name}: {u}" for u in collector.urls if EXTERNAL.match(u)]
        local_scripts.update(u for u in collector.urls if not EXTERNAL.match(u))
    for css in built_site.rglob("*.css"):
        outside += [f"{css.name}: {u}" for u in CSS_URL.findall(css.read_text(encoding="utf-8", errors="replace"))]
    assert not outside
    assert local_scripts, "no page loads anything: the collector is broken"


def test_search_index_holds_chinese_words_of_chapter_one(built_site):
    text = (built_site / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1: text.rindex(")")])
    chapter = index["docnames"].index("book/01_probability_to_loss")
    for word in ("概率", "分母", "温度", "损失"):
        # Sphinx keeps a word that appears in a page title under titleterms only.
        docs = set()
        for kind in ("terms", "titleterms"):
            found = index[kind].get(word, [])
            docs.update(found if isinstance(found, list) else [found])
        assert chapter in docs, f"{word} is not indexed for chapter 1"
