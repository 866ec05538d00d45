"""A failing “你来写” report in a RUNNING KERNEL in JupyterLab (tests/kernel_server.py):
its 参见 link opens the chapter's notebook, which the learner's kit keeps in the same folder, at the section's cell.

Failing reports are only ever seen where the reader runs the notebook (the site stores “还没写” and “通过”), so the
link must work there: one wrong gradient, one report, one click.
"""
from __future__ import annotations

import json
import shutil
import time

from notebook_outputs import BOOK

CHAPTER = "02_gradient.ipynb"
WIDGET = ".lc-practice"
START = "labcode.practice.check_cross_entropy_grad(lambda z, y: labcode.softmax(z))   # forgets -e_y"

TABS = ".lm-DockPanel-tabBar .lm-TabBar-tab"


def test_the_see_also_link_opens_the_chapter_at_its_section(kernel_page):
    server, page = kernel_page.notebook.server, kernel_page.page
    shutil.copy(BOOK / CHAPTER, server.root / CHAPTER)     # the kit: every chapter in one folder
    link = kernel_page.root.locator("a")
    assert link.inner_text() == "第 2 章“逐个坐标求导”一节"
    link.click()
    try:
        page.locator(f"{TABS}.lm-mod-current", has_text=CHAPTER).wait_for(timeout=30000)
    finally:  # back to the notebook of the other kernel tests
        _close_without_saving(page)
        server.shut_down(CHAPTER)
    # JupyterLab scrolls an opened notebook to the cell named by #cell-id=… (its own feature, not tested here);
    # the book's part is naming the cell that holds the section's heading.
    cell_id = link.get_attribute("href").rsplit("#cell-id=", 1)[1]
    notebook = json.loads((BOOK / CHAPTER).read_text(encoding="utf-8"))
    cells = {c.get("id"): "".join(c["source"]) for c in notebook["cells"]}
    assert cells[cell_id].startswith("(ch2-derivation)=\n## 逐个坐标求导"), cells.get(cell_id, "")[:60]


def _close_without_saving(page) -> None:
    """Close the chapter's tab and wait until it is gone, so that the fixture counts only this module's report.

    JupyterLab may mark the freshly opened notebook as changed (it records the widget state) and then asks whether to
    save it on close; the copy is throwaway, so the answer is “discard”.
    """
    tabs = page.locator(TABS, has_text=CHAPTER)
    discard = page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-warn")
    for close in tabs.locator(".lm-TabBar-tabCloseIcon").all():
        close.click()
    deadline = time.monotonic() + 30
    while tabs.count() and time.monotonic() < deadline:
        if discard.count():
            discard.first.click()
        page.wait_for_timeout(200)
    assert tabs.count() == 0, f"{CHAPTER} is still open in JupyterLab 30 s after closing its tab"
