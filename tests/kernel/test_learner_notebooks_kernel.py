"""The learner's notebooks opened as a learner opens them: the zip of the home page unpacked into the folder of the
learner's kit's JupyterLab, and of Notebook 7 (the shared servers of tests/kernel_server.py), each notebook opened in
Chromium: every notebook in JupyterLab; in Notebook 7, which draws Markdown with the same JupyterLab renderers, the
notebook with the sliders and the longest one (a page load each: the rest would repeat the same check).

Every Markdown cell is drawn (the test servers draw every cell, not only those near the viewport); none may show
MyST (tests/rendered_markdown.py), and every exercise title of the notebook's page must be there. In chapter 1 the
softmax explorer's cell is run and a dragged slider must move its bars (the widget of the downloaded notebook, drawn by
the front end's own widget manager; nbval runs every cell of the same code in the kit).
"""
from __future__ import annotations

import zipfile

import nbformat
import numpy as np
import pytest

import labcode
import learner_kit
from conftest import SHOTS
from kernel_server import FRONT_ENDS as ADDRESSES
from rendered_markdown import exercise_titles, headed_by, raw_myst

FRONT_ENDS = ["jupyterlab", "notebook7"]
FOLDER = learner_kit.ZIP_FOLDER
WITH_SLIDERS = "01_probability_to_loss.ipynb"
EXPLORER = "widgets.softmax_explorer("
# every Markdown cell drawn, and its Markdown rendered (which happens after the cell is drawn)
DRAWN_JS = """n => { const drawn = document.querySelectorAll('.jp-Notebook .jp-MarkdownCell .jp-RenderedMarkdown');
                     return drawn.length === n && [...drawn].every(e => e.textContent.trim() !== ''); }"""
MARKDOWN_JS = """() => Array.from(document.querySelectorAll('.jp-Notebook .jp-MarkdownCell .jp-RenderedMarkdown'),
                                   e => e.innerHTML)"""
# JupyterLab opens one notebook after another in one page (the app is exposed, tests/kernel_server.py); Notebook 7
# shows each notebook in a page of its own.
LAB_JS = "async () => { await window.jupyterapp.restored; }"
OPEN_JS = "async path => { await window.jupyterapp.commands.execute('docmanager:open', {path, factory: 'Notebook'}); }"
CLOSE_JS = "() => { window.jupyterapp.shell.currentWidget.dispose(); }"
CELL_JS = """text => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].findIndex(c => c.classList.contains(
    'jp-CodeCell') && (c.querySelector('.jp-InputArea-editor')?.textContent ?? '').includes(text))"""


@pytest.fixture(scope="module")
def downloaded(built_site):
    """{notebook name: (its open Markdown cells, its page's exercise titles)}, from the zip the home page offers."""
    found = {}
    with zipfile.ZipFile(built_site / "kit" / learner_kit.ZIP_NAME) as archive:
        for entry in archive.namelist():
            if entry.endswith(".ipynb"):
                nb = nbformat.reads(archive.read(entry).decode("utf-8"), as_version=4)
                name = entry.rsplit("/", 1)[-1]
                page = built_site / ("intro.html" if name == "intro.ipynb" else f"book/{name[:-6]}.html")
                # a closed cell (an answer or a solution: jupyter.source_hidden) is drawn without its Markdown
                shown = [c for c in nb.cells if c.cell_type == "markdown"
                         and not c.metadata.get("jupyter", {}).get("source_hidden")]
                found[name] = (len(shown), exercise_titles(page))
    return found


def unpack(built_site, server) -> None:
    """The zip, unpacked into the server's folder as a learner unpacks it (once per server)."""
    if not (server.root / FOLDER).exists():
        with zipfile.ZipFile(built_site / "kit" / learner_kit.ZIP_NAME) as archive:
            archive.extractall(server.root)


def drag_first_slider(page, root):
    """Drag the first score's slider from its place to the right end of its track, as a reader would."""
    slider = root.locator(".sx-logit").first
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    lo, hi, value = float(slider.get_attribute("min")), float(slider.get_attribute("max")), float(slider.input_value())
    page.mouse.move(box["x"] + box["width"] * (value - lo) / (hi - lo), y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 1, y, steps=6)
    page.mouse.up()


@pytest.mark.parametrize("front_end", FRONT_ENDS)
def test_each_downloaded_notebook_reads_like_its_page_and_its_sliders_move(front_end, kernel_notebooks, built_site,
                                                                          downloaded):
    notebook = kernel_notebooks(front_end)
    server = notebook.server
    unpack(built_site, server)
    page = notebook.page.context.new_page()
    lab = front_end == "jupyterlab"
    if lab:
        # a workspace of its own, empty: the default one would also open the notebook of the other kernel tests
        page.goto(f"{server.base}/lab/workspaces/learner-notebooks?token={server.token}")
        page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60000)
        page.evaluate(LAB_JS)
    problems = []
    # Notebook 7: the notebook with the sliders and the one with the most Markdown cells
    opened = downloaded if lab else (WITH_SLIDERS, max(downloaded, key=lambda n: downloaded[n][0]))
    try:
        for name, (markdown_cells, titles) in downloaded.items():
            if name not in opened:
                continue
            path = f"{FOLDER}/{name}"
            if lab:
                page.evaluate(OPEN_JS, path)
            else:
                page.goto(f"{server.base}{ADDRESSES[front_end].format(notebook=path)}token={server.token}")
            page.wait_for_function(DRAWN_JS, arg=markdown_cells, timeout=60000)
            drawn = page.evaluate(MARKDOWN_JS)
            problems += [f"{name}: {found}" for found in raw_myst("\n".join(drawn))]
            shown = headed_by("\n".join(drawn))
            problems += [f"{name}: no exercise titled {title}" for title in titles if title not in shown]
            if name == WITH_SLIDERS:
                page.screenshot(path=str(SHOTS / f"learner_notebook_{front_end}.png"))
                check_slider(page, front_end)
            if lab:
                page.evaluate(CLOSE_JS)
            server.shut_down(path)
    finally:
        page.close()
    assert problems == []


def check_slider(page, front_end):
    """Run the explorer's cell (Shift+Enter) and drag a slider: the bars follow labcode's softmax of the scores."""
    k = page.evaluate(CELL_JS, EXPLORER)
    assert k >= 0, f"no cell of {WITH_SLIDERS} makes the softmax explorer"
    cell = page.locator(".jp-Notebook .jp-Cell").nth(k)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status=idle]").wait_for(timeout=60000)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    root = cell.locator(".sx-root")
    # Shift+Enter moves on to the next cell: JupyterLab may then skip drawing this one (content-visibility), and a
    # widget it has not drawn is not "visible" to Playwright: wait for it in the page, then bring it on screen. On a
    # busy machine a keypress can still be lost while the editor takes focus, or the run while the kernel is still
    # starting: then press again.
    for attempt in range(3):
        editor = cell.locator(".jp-InputArea-editor")
        editor.click()
        page.wait_for_function("e => e.contains(document.activeElement)", arg=editor.element_handle(), timeout=5000)
        page.keyboard.press("Shift+Enter")
        try:
            root.wait_for(state="attached", timeout=30000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    root.scroll_into_view_if_needed()
    root.wait_for(timeout=10000)

    def shown():
        heights = root.locator(".sx-bar").evaluate_all("els => els.map(e => parseFloat(e.style.height))")
        return [float(t) for t in root.locator(".sx-z").all_inner_texts()], heights

    before_scores, before = shown()
    drag_first_slider(page, root)
    scores, heights = shown()
    assert scores[0] > before_scores[0] and scores[1:] == before_scores[1:], (before_scores, scores)
    np.testing.assert_allclose(heights, 100 * labcode.softmax(scores), atol=0.01, err_msg="bar heights (%)")
    assert heights[0] > before[0], "the dragged score's bar did not grow"
    page.screenshot(path=str(SHOTS / f"learner_notebook_slider_{front_end}.png"))
