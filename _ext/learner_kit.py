"""The learner's kit on the site: each chapter's notebook and the course package, with the two commands that run them.

`make build` builds the wheel into _build/kit/ (scripts/build_kit.py) before the site. This extension looks for it
next to the HTML output, as handout_links.py does for the PDFs, and copies it into html/kit/. Then
- every notebook page gets the wheel in the theme's download menu (beside the page's own .ipynb) and, under the
  title, a short block: download the notebook and the package into one folder, run `pip install <wheel> jupyterlab`,
  then `jupyter lab`; the Windows commands, a virtual environment and the same in English fold out below it;
- the home page offers the whole book: kit/lm-by-hand-notebooks.zip holds every chapter notebook and the wheel.
Plain HTML and a little CSS (static/kit.css): `<details>` folds without script, and the theme's copy button
already serves every `div.highlight pre`. Without a wheel (a site built without `make kit`) nothing is added and the
build warns (an error under -W).
"""
from __future__ import annotations

import html
import shutil
import zipfile
from pathlib import Path

from sphinx.errors import ExtensionError
from sphinx.util import logging

import site_files

KIT = "kit"                                # the site's folder for the wheel and the zip
ZIP_FOLDER = "lm-by-hand"                  # the folder the zip unpacks into
ZIP_NAME = f"{ZIP_FOLDER}-notebooks.zip"
ZIP_DATE = (2026, 1, 1, 0, 0, 0)           # fixed entry dates: the same notebooks give the same zip
logger = logging.getLogger(__name__)


# --- where things are -----------------------------------------------------------------------------------

def kit_folder(srcdir, outdir, configured: str) -> Path:
    """Where the built wheel is: `learner_kit_dir` (relative to the book) or the `kit` folder beside the HTML."""
    return Path(srcdir, configured) if configured else Path(outdir).parent / KIT


def find_wheel(folder: Path) -> str:
    """The name of the one wheel in `folder`, or "" when there is none."""
    wheels = sorted(p.name for p in folder.glob("*.whl")) if folder.is_dir() else []
    if len(wheels) > 1:
        raise ExtensionError(f"{folder} holds {len(wheels)} wheels ({', '.join(wheels)}): "
                             "scripts/build_kit.py leaves exactly one")
    return wheels[0] if wheels else ""


def notebook_pages(env) -> list[str]:
    """Docnames of the pages written as notebooks, in the order of the book."""
    order = [env.config.root_doc, *env.toctree_includes.get(env.config.root_doc, [])]
    docs = sorted(env.found_docs, key=lambda d: (order.index(d) if d in order else len(order), d))
    return [d for d in docs if str(env.doc2path(d)).endswith(".ipynb")]


# --- what the pages show -----------------------------------------------------------------------------------

def commands(wheel: str, windows: bool = False) -> str:
    """The two lines that install the kit and open JupyterLab."""
    if windows:
        return f"py -m pip install {wheel} jupyterlab\npy -m jupyterlab"
    return f"pip install {wheel} jupyterlab\njupyter lab"


# A virtual environment in the folder itself (.venv, which JupyterLab's file browser does not list).
VENV = "\n".join(["# macOS / Linux", "python3 -m venv .venv", "source .venv/bin/activate",
                  "# Windows", "py -m venv .venv", ".venv\\Scripts\\activate"])


def _code(text: str) -> str:
    return f'<code class="docutils literal notranslate">{html.escape(text)}</code>'


def _block(text: str) -> str:
    # The markup of a highlighted code block, so the theme's copy button and colours apply.
    return f'<div class="highlight-bash notranslate"><div class="highlight"><pre>{html.escape(text)}</pre></div></div>'


def _link(href: str, text: str) -> str:
    return f'<a class="reference download" href="{html.escape(href)}" download>{html.escape(text)}</a>'


def kit_html(wheel: str, wheel_href: str, notebook_href: str, whole_book: bool) -> str:
    """The block under a page title: what to download, the two commands, and what folds out below them."""
    package = _link(wheel_href, "课程包（.whl）")
    if whole_book:
        head = (f"<strong>在自己的电脑上运行全书</strong>：改代码、重新运行，滑块直接连着 Python。下载"
                f"{_link(notebook_href, '全书笔记本与课程包（.zip）')}，解压，在解压出的文件夹里打开终端，运行下面两行"
                f"（需要 Python 3.11 或更新版本；课程包也可以单独下载：{package}）：")
        english_what = ("download the zip of every chapter notebook and the course package, unpack it, "
                        "open a terminal in its folder")
    else:
        head = (f"<strong>在自己的电脑上运行本章</strong>：改代码、重新运行，滑块直接连着 Python。把"
                f"{_link(notebook_href, '本章笔记本（.ipynb）')}和{package}下载到同一个文件夹，在那里打开终端，"
                f"运行下面两行（需要 Python 3.11 或更新版本）：")
        english_what = "download the notebook and the course package into one folder, open a terminal there"
    english = (f"<strong>Run it on your computer</strong> to change the code and rerun it, with the sliders linked to "
               f"Python: {english_what} and run "
               f"{_code(f'pip install {wheel} jupyterlab')}, then {_code('jupyter lab')} (Python 3.11 or newer). "
               f"On Windows: {_code(f'py -m pip install {wheel} jupyterlab')}, then {_code('py -m jupyterlab')}. "
               "A virtual environment keeps the course's packages apart from your other Python projects: "
               "create and activate one first (the commands above), and activate it again in every new terminal. "
               "JupyterLab shows the prose's MyST markup (cross-references, glossary links, glued numbers) as plain "
               "text: read the prose on this site or in the PDF handouts, and use the notebooks to run and change the "
               "code. The 动手算 boxes do work there: run a box's cell, then write your answer in it and check it.")
    return (
        '<div class="lc-kit">\n'
        f"<p>{head}</p>\n{_block(commands(wheel))}\n"
        '<details class="lc-kit-more">\n<summary>Windows 的命令、虚拟环境、在 JupyterLab 里读正文 · English</summary>\n'
        f"<p>Windows 上用 {_code('py')} 启动 Python，两行分别是：</p>\n{_block(commands(wheel, windows=True))}\n"
        "<p>想让课程用到的包不影响电脑上的其他 Python 项目，先建一个虚拟环境并激活它，再运行上面两行；"
        f"以后每打开一个新终端，先激活它，再运行 {_code('jupyter lab')}：</p>\n{_block(VENV)}\n"
        "<p>JupyterLab 不认识正文里的 MyST 标记：交叉引用、术语链接和由代码代入的数都照原样显示成文字。"
        "读正文请看网站或 PDF 讲义；笔记本用来运行和修改代码。“动手算”框在笔记本里也能用：运行它的单元格，"
        "就能在框里写答案、当场核对。</p>\n"
        f'<p lang="en">{english}</p>\n</details>\n</div>\n'
    )


def insert_under_title(body: str, snippet: str) -> str:
    """After the page title and the handout links under it (handout_links.py), else at the top."""
    end = body.find("</h1>")
    if end < 0:
        return snippet + body
    end += len("</h1>")
    handouts = body.find('<p class="lc-handouts">', end)
    if handouts >= 0 and not body[end:handouts].strip():
        end = body.index("</p>", handouts) + len("</p>")
    return body[:end] + "\n" + snippet + body[end:]


def download_button(url: str, text: str, tooltip: str, icon: str, label: str) -> dict:
    """An entry of the theme's download menu (sphinx-book-theme's header button format)."""
    return {"type": "link", "url": url, "text": text, "tooltip": tooltip, "icon": icon, "label": label}


# --- Sphinx events -----------------------------------------------------------------------------------------

def _found(app, config) -> None:
    """Record the wheel's name, so a new wheel rewrites every page (the value is an `html` rebuild trigger)."""
    config.learner_kit_wheel = find_wheel(kit_folder(app.srcdir, app.outdir, config.learner_kit_dir))


def _page(app, pagename, templatename, context, doctree):
    wheel = app.config.learner_kit_wheel
    if doctree is None or app.builder.format != "html" or not wheel:
        return
    whole_book = pagename == app.config.root_doc
    if not whole_book and pagename not in notebook_pages(app.env):
        return
    pathto = context["pathto"]
    wheel_href = pathto(f"{KIT}/{wheel}", 1)
    notebook_href = pathto(f"{KIT}/{ZIP_NAME}", 1) if whole_book else pathto(f"_sources/{context['sourcename']}", 1)
    context["body"] = insert_under_title(context.get("body", ""),
                                         kit_html(wheel, wheel_href, notebook_href, whole_book))
    menu = next((b for b in context.get("header_buttons", []) if b.get("label") == "download-buttons"), None)
    if menu is None:
        return
    if whole_book:
        menu["buttons"].insert(0, download_button(notebook_href, ".zip", "下载全书笔记本与课程包", "fas fa-file-zipper",
                                                  "download-kit-zip-button"))
    else:
        for button in menu["buttons"]:
            if button.get("label") == "download-source-button":
                button["tooltip"] = "下载本章笔记本"
    menu["buttons"].insert(1, download_button(wheel_href, ".whl", "下载课程包（运行笔记本要用）", "fas fa-box",
                                              "download-kit-button"))


def write_zip(target: Path, notebooks: list[Path], wheel: Path) -> None:
    """The whole book for a learner: every notebook and the wheel in one folder, with fixed entry dates."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in [*notebooks, wheel]:
            entry = zipfile.ZipInfo(f"{ZIP_FOLDER}/{path.name}", date_time=ZIP_DATE)
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, path.read_bytes(), compress_type=zipfile.ZIP_DEFLATED)


def _copy(app, exception):
    wheel = app.config.learner_kit_wheel
    if exception is not None or app.builder.format != "html" or not wheel:
        return
    source = kit_folder(app.srcdir, app.outdir, app.config.learner_kit_dir) / wheel
    target = Path(app.outdir) / KIT
    target.mkdir(exist_ok=True)
    for old in target.iterdir():
        if old.name not in (wheel, ZIP_NAME):
            old.unlink()
    shutil.copyfile(source, target / wheel)
    notebooks = [Path(app.env.doc2path(d)) for d in notebook_pages(app.env)]
    write_zip(target / ZIP_NAME, notebooks, source)


def _warn_without_wheel(app):
    if app.builder.format == "html" and not app.config.learner_kit_wheel:
        # The home page promises a download under every chapter title; a site without the wheel breaks that promise.
        logger.warning("no learner's kit: %s holds no wheel, so the pages offer no course package to download "
                       "(build the site with `make site`, which runs `make kit` first)",
                       kit_folder(app.srcdir, app.outdir, app.config.learner_kit_dir))


def setup(app):
    app.add_config_value("learner_kit_dir", "", "html", types=[str])
    app.add_config_value("learner_kit_wheel", "", "html", types=[str])
    app.connect("config-inited", _found)
    app.connect("builder-inited", _warn_without_wheel)
    site_files.serve_static(app)
    app.add_css_file("kit.css")
    # after the theme has filled its download menu (priority 501) and handout_links.py its links (500)
    app.connect("html-page-context", _page, priority=600)
    app.connect("build-finished", _copy)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
