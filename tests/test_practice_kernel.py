"""A failing “你来写” report in a RUNNING KERNEL in JupyterLab (tests/kernel_server.py):
its 参见 link opens the chapter's notebook, which the learner's kit keeps in the same folder, at the section's cell.

Failing reports are only ever seen where the reader runs the notebook (the site stores “还没写” and “通过”), so the
link must work there: one wrong gradient, one report, one click.
"""
from __future__ import annotations

import shutil

from notebook_outputs import BOOK

CHAPTER = "02_gradient.ipynb"
WIDGET = ".lc-practice"
CELLS = [
    "import labcode\n"
    "labcode.practice.check_cross_entropy_grad(lambda z, y: labcode.softmax(z))   # forgets -e_y",
    "",
]

CURRENT_TAB_IS = """name => [...document.querySelectorAll('.lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current')]
    .some(tab => tab.innerText.includes(name))"""
HEADING_ON_SCREEN = """text => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) h2')]
    .filter(h => h.innerText.includes(text))
    .some(h => { const r = h.getBoundingClientRect();
                 return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })"""


def test_the_see_also_link_opens_the_chapter_at_its_section(request, kernel_page):
    server, page = kernel_page.server, kernel_page.page
    shutil.copy(BOOK / CHAPTER, server.root / CHAPTER)     # the kit: every chapter in one folder
    request.addfinalizer(lambda: server.shut_down(CHAPTER))
    link = page.locator(".lc-practice a")
    assert link.inner_text() == "第 2 章“逐个坐标求导”一节"
    link.click()
    page.wait_for_function(CURRENT_TAB_IS, arg=CHAPTER, timeout=30000)
    # JupyterLab scrolls the opened notebook to the cell named by #cell-id=…: the section's heading is on screen.
    page.wait_for_function(HEADING_ON_SCREEN, arg="逐个坐标求导", timeout=30000)
