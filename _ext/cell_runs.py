"""Runs of notebook cells marked by a pair of directives and gathered into one node (“深入” boxes, answer folds).

A notebook's cells become siblings in their section (a markdown cell's paragraphs, a code cell's container), so a
run is the start marker's node, the nodes after it, and the end marker's node. Start and end sit in the same
section (a heading ends the section), and runs of one kind do not nest: the build warns about an unmatched marker
and drops it.
"""
from __future__ import annotations

from collections.abc import Callable

from sphinx.util import logging

logger = logging.getLogger(__name__)


def gather(document, start_class: type, end_class: type, make_box: Callable, stem: str) -> None:
    """Replace each `start_class` marker, the nodes after it and its `end_class` marker by `make_box(start)`
    holding the marker's children (the title), then those nodes. `stem` names the pair in warnings
    (``deep`` for deep-start / deep-end)."""
    for start in list(document.findall(start_class)):
        parent = start.parent
        siblings = parent.children[parent.index(start) + 1:]
        end = next((n for n in siblings if isinstance(n, (start_class, end_class))), None)
        if not isinstance(end, end_class):
            what = f"another {stem}-start before it" if isinstance(end, start_class) else \
                f"no {stem}-end after it in the same section (a heading ends the section)"
            logger.warning(f"{stem}-start “{start.astext()}” has {what}", location=start, type=stem,
                           subtype="structure")
            parent.remove(start)
            continue
        box = make_box(start)
        box.source, box.line = start.source, start.line
        box += start.children
        content = parent.children[parent.index(start) + 1:parent.index(end)]
        for node in content:
            parent.remove(node)
        box.extend(content)
        parent.replace(start, box)
        parent.remove(end)
    for end in list(document.findall(end_class)):
        logger.warning(f"{stem}-end without a {stem}-start before it in the same section", location=end,
                       type=stem, subtype="structure")
        end.parent.remove(end)


def append(text: str):
    """A node visitor that writes `text`."""
    return lambda translator, node: translator.body.append(text)
