"""The learner's kit on the site: each chapter's notebook and the course package, with the commands that run them.

`make build` builds the wheel into _build/kit/ (scripts/build_kit.py) before the site. This extension looks for it
next to the HTML output, as handout_links.py does for the PDFs, and copies it into html/kit/. Then
- every notebook page gets the wheel in the theme's download menu (beside the page's own .ipynb) and, under the
  title, a short block: download the notebook and the package into one folder, create and activate a virtual
  environment there, `python -m pip install <wheel> jupyterlab`, then `jupyter lab`; the Windows commands, what
  JupyterLab can do and the same in English fold out below it;
- the home page offers the whole book: kit/lm-by-hand-notebooks.zip holds every chapter notebook and the wheel.
The notebooks offered are the learner's copies (learner_notebooks.py): the MyST of their prose resolved into
Markdown that JupyterLab, Notebook 7, VS Code and GitHub render; their code cells, outputs and widgets are the
repository's, which nbval checks.
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

import book_layout
import learner_notebooks
import site_files

KIT = "kit"                                # the site's folder for the wheel and the zip
ZIP_FOLDER = "lm-by-hand"                  # the folder the zip unpacks into
ZIP_NAME = f"{ZIP_FOLDER}-notebooks.zip"
ZIP_DATE = (2026, 1, 1, 0, 0, 0)           # fixed entry dates: the same notebooks give the same zip
logger = logging.getLogger(__name__)


# --- where things are -----------------------------------------------------------------------------------

def kit_folder(app) -> Path:
    """Where the built wheel is: the `kit` folder beside the HTML (_build/kit, _build/html)."""
    return Path(app.outdir).parent / KIT


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

WINDOWS_ACTIVATE = ".venv\\Scripts\\activate"


def commands(wheel: str, windows: bool = False) -> str:
    """Create and activate a virtual environment in the folder (.venv, which JupyterLab's file browser does not
    list), install the kit into it and open JupyterLab. A bare `pip install` stops on Debian, recent Ubuntu and
    Homebrew's Python (PEP 668, “externally-managed-environment”), and macOS often has no `pip` command at all."""
    start = ("py -m venv .venv\n" + WINDOWS_ACTIVATE) if windows else "python3 -m venv .venv\nsource .venv/bin/activate"
    return f"{start}\npython -m pip install {wheel} jupyterlab\njupyter lab"


def _code(text: str) -> str:
    return f'<code class="docutils literal notranslate">{html.escape(text)}</code>'


def _block(text: str) -> str:
    # The markup of a highlighted code block, so the theme's copy button and colours apply.
    return f'<div class="highlight-bash notranslate"><div class="highlight"><pre>{html.escape(text)}</pre></div></div>'


def _link(href: str, text: str) -> str:
    return f'<a class="reference download" href="{html.escape(href)}" download>{html.escape(text)}</a>'


def kit_html(wheel: str, wheel_href: str, notebook_href: str, whole_book: bool, scope: str = "本章") -> str:
    """The block under a page title: what to download, the commands, and what folds out below them. `scope` names
    the page as its answer boxes do: “本章”, or “本附录” on the appendix."""
    package = _link(wheel_href, "课程包（.whl）")
    steps = ("打开终端（需要 Python 3.11 或更新版本），建一个虚拟环境并激活它，把课程包和 JupyterLab 装进去，"
             "再打开 JupyterLab（macOS 与 Linux；Windows 的命令在下面展开的部分里）：")
    if whole_book:
        head = (f"<strong>在自己的电脑上运行全书</strong>：改代码、重新运行，滑块直接连着 Python。下载"
                f"{_link(notebook_href, '全书笔记本与课程包（.zip）')}，解压，在解压出的文件夹里{steps}")
        alone = f"课程包也可以单独下载：{package}。"
        english_what = ("download the zip of every chapter notebook and the course package, unpack it, "
                        "open a terminal in its folder")
    else:
        head = (f"<strong>在自己的电脑上运行{scope}</strong>：改代码、重新运行，滑块直接连着 Python。把"
                f"{_link(notebook_href, f'{scope}的笔记本（.ipynb）')}和{package}下载到同一个文件夹，在那里{steps}")
        english_what = "download the notebook and the course package into one folder, open a terminal there"
        alone = ""
    english = (f"<strong>Run it on your computer</strong> to change the code and rerun it, with the sliders linked to "
               f"Python: {english_what}, and create a virtual environment, activate it, install the course package "
               "and JupyterLab into it and start JupyterLab (Python 3.11 or newer; the commands above, or the Windows "
               "ones). In every new terminal, activate the environment again before "
               f"{_code('jupyter lab')}. The notebook reads like this page: its cross-references, numbers, "
               "exercises and solutions are written out, and the figures and the course map are pictures. The "
               '<span lang="zh-CN">动手算</span> (“work it out”) boxes and the sliders come alive once the cells have '
               "run: first run them in order from the top (Run ▸ Run All Cells), then write your answer in a box "
               "and check it.")
    return (
        '<div class="lc-kit">\n'
        f"<p>{head}</p>\n{_block(commands(wheel))}\n"
        f"<p>以后每打开一个新终端，先在这个文件夹里运行 {_code('source .venv/bin/activate')}，"
        f"再运行 {_code('jupyter lab')}。{alone}</p>\n"
        '<details class="lc-kit-more">\n<summary>Windows 的命令、JupyterLab 里能做什么 · English</summary>\n'
        f"<p>Windows 上用 {_code('py')} 建虚拟环境，激活以后的命令与上面相同：</p>\n"
        f"{_block(commands(wheel, windows=True))}\n"
        f"<p>以后每打开一个新终端，先运行 {_code(WINDOWS_ACTIVATE)}，"
        f"再运行 {_code('jupyter lab')}。</p>\n"
        "<p>笔记本里的正文和这一页一样：交叉引用、编号和由代码算出的数都已写好，练习、解答和“深入”框带着标题，"
        "图和课程全图都是图片。滑块和“动手算”框要等单元格运行过才能用：先从第一格起按顺序"
        "运行（最省事的是菜单 Run ▸ Run All Cells），再拖滑块，或在框里写答案、当场核对。</p>\n"
        f'<p lang="en">{english}</p>\n</details>\n</div>\n'
    )


def folded(block: str, scope: str) -> str:
    """The block folded under one line: the first screen of a page is its text, not the installation."""
    return (f'<details class="lc-kit-fold">\n<summary>在自己的电脑上运行{scope}：下载笔记本与课程包</summary>\n'
            f"{block}</details>\n")


def download_button(url: str, text: str, tooltip: str, icon: str, label: str) -> dict:
    """An entry of the theme's download menu (sphinx-book-theme's header button format)."""
    return {"type": "link", "url": url, "text": text, "tooltip": tooltip, "icon": icon, "label": label}


# --- Sphinx events -----------------------------------------------------------------------------------------

def _found(app, config) -> None:
    """Record the wheel's name, so a new wheel rewrites every page (the value is an `html` rebuild trigger)."""
    config.learner_kit_wheel = find_wheel(kit_folder(app))


def _page(app, pagename, templatename, context, doctree):
    wheel = app.config.learner_kit_wheel
    if doctree is None or app.builder.format != "html" or not wheel:
        return
    whole_book = pagename == app.config.root_doc
    if not whole_book and pagename not in notebook_pages(app.env):
        return
    scope = book_layout.scope(app.env.titles.get(pagename))   # as the answer boxes count: “本附录” on the appendix
    pathto = context["pathto"]
    wheel_href = pathto(f"{KIT}/{wheel}", 1)
    notebook_href = pathto(f"{KIT}/{ZIP_NAME}", 1) if whole_book else pathto(f"_sources/{context['sourcename']}", 1)
    block = kit_html(wheel, wheel_href, notebook_href, whole_book, scope)
    context["body"] = site_files.under_title(context.get("body", ""), folded(block, "全书" if whole_book else scope),
                                             after='<p class="lc-handouts">')
    menu = site_files.download_menu(context)
    if menu is None:
        return
    # the theme names an entry by its suffix only (“.ipynb”): say what the file is
    for button in menu["buttons"]:
        if button.get("label") == "download-source-button":
            page = "首页" if whole_book else scope
            button.update(text=f"{page}笔记本（.ipynb）", tooltip=f"下载{page}的笔记本")
    if whole_book:
        menu["buttons"].insert(0, download_button(notebook_href, "全书笔记本与课程包（.zip）", "下载全书笔记本与课程包",
                                                  "fas fa-file-zipper", "download-kit-zip-button"))
    menu["buttons"].insert(1, download_button(wheel_href, "课程包（.whl）", "下载课程包（运行笔记本要用）",
                                              "fas fa-box", "download-kit-button"))


def write_zip(target: Path, notebooks: list[Path], wheel: Path) -> None:
    """The whole book for a learner: every notebook and the wheel in one folder, with fixed entry dates."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in [*notebooks, wheel]:
            entry = zipfile.ZipInfo(f"{ZIP_FOLDER}/{path.name}", date_time=ZIP_DATE)
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, path.read_bytes(), compress_type=zipfile.ZIP_DEFLATED)


def _copy(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    # the learner's copies, over the sources the pages link (with or without a wheel), and the same files in the zip
    notebooks = learner_notebooks.write(app, notebook_pages(app.env))
    wheel = app.config.learner_kit_wheel
    if not wheel:
        return
    source = kit_folder(app) / wheel
    target = Path(app.outdir) / KIT
    target.mkdir(exist_ok=True)
    for old in target.iterdir():
        if old.name not in (wheel, ZIP_NAME):
            old.unlink()
    shutil.copyfile(source, target / wheel)
    write_zip(target / ZIP_NAME, notebooks, source)


def _warn_without_wheel(app):
    if app.builder.format == "html" and not app.config.learner_kit_wheel:
        # The home page promises a download under every chapter title; a site without the wheel breaks that promise.
        logger.warning("no learner's kit: %s holds no wheel, so the pages offer no course package to download "
                       "(build the site with `make site`, which runs `make kit` first)", kit_folder(app))


def setup(app):
    app.add_config_value("learner_kit_wheel", "", "html", types=[str])
    app.connect("config-inited", _found)
    app.connect("builder-inited", _warn_without_wheel)
    site_files.serve_static(app)
    app.add_css_file("kit.css")
    # after the theme has filled its download menu (priority 501) and handout_links.py its links (500)
    app.connect("html-page-context", _page, priority=600)
    app.connect("build-finished", _copy)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
