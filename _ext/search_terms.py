"""The site's search finds the book's own terms, in Chinese and in English, and lists first the sections that
teach them.

Sphinx indexes Chinese text with jieba, whose general dictionary cuts 交叉熵 into 交叉 + 熵 and 困惑度 into
困惑 + 度, while the search page looks a query up as one word: so 交叉熵 found only the glossary. Here the
glossary is the dictionary (never a list kept by hand):
- once every page is read, the glossary's terms (its Chinese headwords, their English lines, and the other
  names a definition gives, “也叫负对数似然”) go into a jieba user dictionary in the build's doctree folder,
  which Sphinx's Chinese indexer loads (`html_search_options["dict"]`), so each term is one word of the index;
- each term, and each English name the glossary's English index gives it, becomes an index entry of the sections
  that teach it (on the site only: the search index reads these entries and lists them first, linked to the
  section). When a page's own title holds the term, that page teaches it; else the sections whose titles hold
  it, in the first page that has any, and the first section of the book (outside a chapter's opening, a
  “深入” box, an exercise or a code cell) whose text uses it, where it is introduced (failing those, the first
  box, exercise or solution that does). A term inside a longer one (平滑 in 标签平滑) does not count;
- the search page ranks, among equal scores, the pages in the book's order and the glossary after the chapters
  (`html_search_scorer`: Sphinx would otherwise sort them by title).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

CJK = re.compile(r"[\u4e00-\u9fff]")
CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
ALIAS = re.compile(r"也叫\s*([\u4e00-\u9fff]{2,8})")
ENGLISH_INDEX = "tab-glossary-english"
DICTIONARY = "search_terms.dict"
SCORER = "search_scorer.js"
# Sphinx's own scorer (sphinx/themes/basic/static/searchtools.js), with one rule more.
SCORER_JS = """var Scorer = {
  // equal scores: the book's order, the glossary last (docname: its place in the book)
  score: (result) => result[4] - (result[0] === %s ? 1 : 0) - 0.01 * (%s[result[0]] || 0),
  objNameMatch: 11, objPartialMatch: 6, objPrio: {0: 15, 1: 5, 2: -5}, objPrioDefault: 0,
  title: 15, partialTitle: 7, term: 5, partialTerm: 2,
};
"""


@dataclass(frozen=True)
class Section:
    docname: str
    id: str
    title: str
    text: str     # its own text: not its subsections', code cells', “深入” boxes', exercises' or solutions'
    opening: bool  # the page's top section (its title and opening paragraphs)
    all_text: str = ""  # `text` with the boxes, exercises and solutions in it (still no code)


def glossary_entries(doctree) -> list[list[str]]:
    """The terms of each glossary entry (the headword first, then its English lines), then, each as an entry of
    its own, the other names a definition gives (“也叫负对数似然”: a section may teach it apart)."""
    entries, aliases = [], []
    for glossary in doctree.findall(addnodes.glossary):
        for item in glossary.findall(nodes.definition_list_item):
            names = [term.astext().strip() for term in item.findall(nodes.term)]
            entries.append(names)
            definition = next(iter(item.findall(nodes.definition)), None)
            if definition is not None:
                aliases += [[alias] for alias in ALIAS.findall(definition.astext()) if alias not in names]
    return entries + aliases


def english_index(doctree) -> dict[str, str]:
    """{English name: headword} from the glossary's English index (a table of names and term references)."""
    found = {}
    for table in doctree.findall(nodes.table):
        if ENGLISH_INDEX not in table.get("ids", []) and ENGLISH_INDEX not in table.get("names", []):
            continue
        for row in table.findall(nodes.row):
            cells = list(row.findall(nodes.entry))
            xref = next(iter(cells[1].findall(addnodes.pending_xref)), None) if len(cells) == 2 else None
            if xref is not None:
                found[cells[0].astext().strip()] = xref["reftarget"]
    return found


# Nodes of other extensions, known by their class names: “深入” boxes (deep_boxes.py), exercises and solutions.
NOT_TEACHING = ("deep_box", "exercise_node", "exercise_enumerable_node", "solution_node")


def _own_text(section, everything: bool = False) -> str:
    """The section's text, not its subsections' (an exercise's own sections are its text), code cells' or raw
    HTML; “深入” boxes, exercises and solutions are not where a term is taught, unless `everything`."""
    def left_out(child, parent) -> bool:
        if isinstance(child, nodes.title) or (isinstance(child, nodes.section) and parent is section):
            return True
        if type(child).__name__ in NOT_TEACHING:
            return not everything
        return (isinstance(child, (nodes.raw, nodes.literal_block))
                or str(child.get("nb_element", "")).startswith("cell_code"))

    def walk(node):
        for child in node.children:
            if isinstance(child, nodes.Text):
                yield str(child)
            elif not left_out(child, node):
                yield from walk(child)

    return "".join(walk(section))


def sections_of(docname: str, doctree) -> list[Section]:
    """The page's own sections, in order: not those sphinx-exercise makes inside an exercise."""
    def own(parent):
        for child in parent.children:
            if isinstance(child, nodes.section):
                yield child
                yield from own(child)

    return [Section(docname, s["ids"][0], s[0].astext(), _own_text(s), s.parent is doctree,
                    _own_text(s, everything=True)) for s in own(doctree) if s["ids"]]


def teaching_sections(names: list[str], sections: list[Section], others: list[str]) -> list[Section]:
    """Where the book teaches a term with these names (see the module's docstring). `others` are the glossary's
    other names: 平滑 inside 标签平滑 is not a use of 平滑."""
    longer = sorted({o for o in others if o not in names and any(n in o for n in names)}, key=len, reverse=True)

    def holds(text):
        text = text.lower()
        for other in longer:
            text = text.replace(other.lower(), " ")
        return any(name.lower() in text for name in names)

    titled = [s for s in sections if holds(s.title)]
    page = [s for s in titled if s.docname == titled[0].docname]
    if any(s.opening for s in page):
        return [s for s in page if s.opening]   # the page is about it
    first = next((s for s in sections if not s.opening and holds(s.text)), None)
    if not page and first is None:  # only an exercise, a solution or a box speaks of it
        first = next((s for s in sections if holds(s.all_text)), None)
    return sorted({*page, *([first] if first else [])}, key=sections.index)


def chapter_docs(env) -> list[str]:
    """The pages after the home page, in the book's order."""
    order = env.toctree_includes.get(env.config.root_doc, [])
    return [d for d in order if d in env.found_docs]


def collect(app, env) -> None:
    """Once every page is read: the dictionary, the scorer and, per page, the index entries to add."""
    glossary_doc = next((d for d in env.found_docs
                         if env.get_doctree(d).next_node(addnodes.glossary) is not None), None)
    if glossary_doc is None:
        return
    doctree = env.get_doctree(glossary_doc)
    entries = glossary_entries(doctree)
    headwords = {name: entry for entry in entries for name in entry}
    for english, headword in english_index(doctree).items():
        if headword in headwords and english not in headwords[headword]:
            headwords[headword].append(english)
    sections = [s for d in chapter_docs(env) if d != glossary_doc for s in sections_of(d, env.get_doctree(d))]
    everyone = [name for entry in entries for name in entry]
    by_section: dict[str, dict[str, list[tuple]]] = {}   # docname -> section id -> its index entries
    for entry in entries:
        cjk = [name for name in entry if CJK.search(name)] or entry
        for section in teaching_sections(cjk, sections, everyone):
            by_section.setdefault(section.docname, {}).setdefault(section.id, []).extend(
                ("single", name, section.id, "main", None) for name in entry)
    env.search_term_entries = by_section

    folder = Path(app.doctreedir)
    words = sorted({run for entry in entries for name in entry for run in CJK_RUN.findall(name)})
    (folder / DICTIONARY).write_text("".join(f"{word}\n" for word in words), encoding="utf-8")
    app.config.html_search_options = {**(app.config.html_search_options or {}), "dict": str(folder / DICTIONARY)}
    order = {doc: place for place, doc in enumerate([env.config.root_doc, *chapter_docs(env)])}
    (folder / SCORER).write_text(SCORER_JS % (json.dumps(glossary_doc), json.dumps(order)), encoding="utf-8")
    app.config.html_search_scorer = str(folder / SCORER)


def add_entries(app, doctree, docname) -> None:
    """The teaching sections' index entries, for the search index of the site (no other builder sees them)."""
    if app.builder.format != "html":
        return
    by_id = getattr(app.env, "search_term_entries", {}).get(docname, {})
    for section in doctree.findall(nodes.section):
        if section["ids"] and section["ids"][0] in by_id:
            section.insert(1, addnodes.index(entries=list(by_id[section["ids"][0]])))


def setup(app):
    app.connect("env-updated", collect)
    app.connect("doctree-resolved", add_entries)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
