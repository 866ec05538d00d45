"""A failing “你来写” report in a RUNNING KERNEL in JupyterLab (server and page helpers from test_kernel_widgets.py):
its 参见 link opens the chapter's notebook, which the learner's kit keeps in the same folder, at the section's cell.

Failing reports are only ever seen where the reader runs the notebook (the site stores “还没写” and “通过”), so the
link must work there: one wrong gradient, one report, one click.
"""
from __future__ import annotations

import shutil

from test_chapter_content import BOOK
from test_kernel_widgets import SHOTS, open_and_display, serve_notebook, widget_errors

CHAPTER = "02_gradient.ipynb"
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


def test_the_see_also_link_opens_the_chapter_at_its_section(request, jupyter_server, offline_page):
    shutil.copy(BOOK / CHAPTER, jupyter_server.root / CHAPTER)     # the kit: every chapter in one folder
    request.addfinalizer(lambda: jupyter_server.shut_down(CHAPTER))
    nb = serve_notebook(request, jupyter_server, "jupyterlab", CELLS)
    page = offline_page
    errors = []
    page.on("pageerror", lambda e: errors.append(f"{e}\n{e.stack}"))
    page.set_viewport_size({"width": 1280, "height": 900})
    open_and_display(page, nb, root=".lc-practice")

    link = page.locator(".lc-practice a")
    assert link.inner_text() == "第 2 章“逐个坐标求导”一节"
    link.click()
    page.wait_for_function(CURRENT_TAB_IS, arg=CHAPTER, timeout=30000)
    # JupyterLab scrolls the opened notebook to the cell named by #cell-id=…: the section's heading is on screen.
    page.wait_for_function(HEADING_ON_SCREEN, arg="逐个坐标求导", timeout=30000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "kernel_practice_link.png"))
    assert page.external == [], f"requests left 127.0.0.1: {page.external}"
    assert widget_errors(errors) == []
