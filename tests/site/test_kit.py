"""The learner's kit: a chapter downloaded from the site runs after one install, with nothing of the repository.

- The wheel (scripts/build_kit.py) holds the package, its data files and the widgets' JS/CSS, and requires
  what the notebooks need.
- The built site serves it (_ext/learner_kit.py): every notebook page links its notebook and the wheel and
  says the commands (a virtual environment first); the home page links a zip of every notebook with the wheel.
- The site's downloads are the learner's copies of the repository's notebooks (_ext/learner_notebooks.py): their
  prose resolved, their code cells the files nbval runs, once per test run, in the kit's clean environment
  (tests/kit_venv.py: only the wheel and JupyterLab, from an empty folder), where tests/nbval_kit.py also checks that
  nothing of the repository was importable (tests/site/test_learner_notebooks.py compares the two).
- With no font but matplotlib's own, the figures' Chinese labels use the CJK font the wheel requires.
The running-kernel tests (tests/kernel_server.py) drive every widget in the kit's own JupyterLab.
"""
import email
import json
import re
import zipfile
from hashlib import sha256
from pathlib import Path

import nbformat
import pytest

import chapter_registry
import learner_kit
import site_files

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = [c.notebook for c in chapter_registry.chapters()]
NOTEBOOKS = [ROOT / "intro.ipynb", *CHAPTERS]  # the home page is a notebook too (in the zip)


# --- the wheel ----------------------------------------------------------------------------------------------

def package_files() -> dict[str, str]:
    """The digest of every file of labcode/ that belongs in the wheel (no caches), by its path in the wheel."""
    return {p.relative_to(ROOT).as_posix(): sha256(p.read_bytes()).hexdigest() for p in (ROOT / "labcode").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


def test_wheel_holds_the_package_its_data_and_the_widgets_front_end(kit_wheel):
    with zipfile.ZipFile(kit_wheel) as wheel:
        names = wheel.namelist()
        files = {n: sha256(wheel.read(n)).hexdigest() for n in names if not n.split("/")[0].endswith(".dist-info")}
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(wheel.read(f"{info}/METADATA"))
        tags = email.message_from_bytes(wheel.read(f"{info}/WHEEL"))
    expected = package_files()  # the data files and the widgets' JS and CSS among them
    assert files == expected, (f"missing: {sorted(set(expected) - set(files))}, "
                               f"stale or extra: {sorted(n for n in files if files[n] != expected.get(n))}")
    assert metadata["Name"] == "lm-by-hand" and kit_wheel.name.startswith("lm_by_hand-")
    assert metadata["Requires-Python"] == ">=3.11"
    required = {re.split(r"[<>=!~ ;\[]", r, maxsplit=1)[0].lower() for r in metadata.get_all("Requires-Dist")}
    assert required == {"numpy", "matplotlib", "ipython", "ipywidgets", "anywidget", "traitlets",
                        "pylopdf-fonts-zh-cn", "pillow"}
    assert tags["Root-Is-Purelib"] == "true" and tags.get_all("Tag") == ["py3-none-any"]


def test_readme_leads_with_the_learners_commands_for_this_wheel(kit_wheel):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    learners = readme.split("## 给学习者 / For learners", 1)[1].split("\n## ", 1)[0]
    assert readme.index("给学习者") < readme.index("make build")  # before the contributor commands
    assert f"```bash\n{learner_kit.commands(kit_wheel.name)}\n```" in learners  # the commands the site shows
    assert "py -m venv .venv" in learners and learner_kit.WINDOWS_ACTIVATE in learners
    assert learner_kit.ZIP_NAME in learners


def test_notebooks_import_nothing_the_kit_lacks():
    for path in NOTEBOOKS:
        code = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
        assert not re.findall(r"^\s*(?:from|import)\s+(myst_nb|jupyter_book|sphinx)\b", code, re.M), (
            f"{path.name} imports the site builder; `from labcode import glue` writes the same glue output")


# --- what the site links ------------------------------------------------------------------------------------

KIT_BLOCK = re.compile(r'<div class="lc-kit">(.*?)</details>\s*</div>', re.S)
DOWNLOAD = re.compile(r'<a class="reference download" href="([^"]+)" download>')
MENU = re.compile(r'<a href="([^"]+)" target="_blank"\s+class="btn btn-sm btn-(download-[\w-]+-button)')
# Each entry of the download menu and its words: (label, text)
MENU_TEXT = re.compile(r'class="btn btn-sm btn-(download-[\w-]+-button) dropdown-item".*?'
                       r'<span class="btn__text-container">([^<]*)</span>', re.S)


def kit_block(page: Path) -> str:
    blocks = KIT_BLOCK.findall(page.read_text(encoding="utf-8"))
    assert len(blocks) == 1, f"{page.name}: {len(blocks)} kit blocks"
    return blocks[0]


def resolve(page: Path, href: str) -> Path:
    target = (page.parent / href).resolve()
    assert target.is_file(), f"{page.name} links {href}, which the site does not have"
    return target


def notebook_pages(html: Path) -> dict[Path, Path]:
    return {html / "book" / f"{nb.stem}.html": nb for nb in CHAPTERS}


def test_no_wheel_no_links_and_one_wheel_only(tmp_path):
    assert learner_kit.find_wheel(tmp_path / "absent") == ""
    assert learner_kit.find_wheel(tmp_path) == ""
    for name in ("lm_by_hand-0.1.0-py3-none-any.whl", "lm_by_hand-0.2.0-py3-none-any.whl"):
        (tmp_path / name).write_bytes(b"PK")
    with pytest.raises(Exception, match="holds 2 wheels"):
        learner_kit.find_wheel(tmp_path)


def test_block_goes_under_the_title_and_its_handout_links():
    body = '<h1>标题</h1>\n<p class="lc-handouts"><a>讲义</a></p>\n<p>正文</p>'
    out = site_files.under_title(body, "<div>KIT</div>\n", after='<p class="lc-handouts">')
    assert out.index("讲义") < out.index("KIT") < out.index("正文")
    out = site_files.under_title("<h1>标题</h1>\n<p>正文</p>", "<div>KIT</div>\n", after='<p class="lc-handouts">')
    assert out.index("</h1>") < out.index("KIT") < out.index("正文")


# --- the clean environment ----------------------------------------------------------------------------------

FONT_CHECK = """
import io, json, warnings
from pathlib import Path
warnings.simplefilter("error")  # matplotlib's "Glyph ... missing from font(s)" becomes an error
import matplotlib
from matplotlib import font_manager, text
from matplotlib.ft2font import FT2Font

# A machine with no font but matplotlib's own: matplotlib forgets every other font it found, and labcode's
# fallback to Debian's fonts-noto-cjk points nowhere.
own = Path(matplotlib.get_data_path())
font_manager.fontManager.ttflist = [f for f in font_manager.fontManager.ttflist if own in Path(f.fname).parents]
import labcode.fonts
labcode.fonts.DEBIAN_NOTO_DIR = Path("/nonexistent")

def covers(path, chars):
    charmap = FT2Font(path).get_charmap()
    return all(ord(c) in charmap for c in chars)

# (matplotlib's LastResort font maps every character, to a box naming its Unicode block: not a Chinese font)
before = [f.fname for f in font_manager.fontManager.ttflist if covers(f.fname, "概率") and "LastResort" not in f.fname]
from matplotlib.figure import Figure
from labcode import plots
fig = Figure()
plots.bar_probs(fig.add_subplot(), [0.2, 0.3, 0.5], ["红", "黄", "绿"], target=2, title="三个候选的概率")
fig.savefig(io.BytesIO(), format="png")
labels = {t.get_text(): font_manager.findfont(t.get_fontproperties()) for t in fig.findobj(text.Text)
          if any(ord(c) > 0x2e80 for c in t.get_text())}
print(json.dumps({"before": before, "labels": labels,
                  "uncovered": [s for s, path in labels.items() if not covers(path, s)]}))
"""


def test_figure_labels_use_the_wheels_cjk_font_with_no_system_font(kit_env):
    """matplotlib knows no font but its own and labcode's Debian fallback is gone: the machine has no Chinese
    font. The labels of a chapter figure still find every glyph, in the font the wheel requires."""
    proc = kit_env.run("-c", FONT_CHECK)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout)
    assert found["before"] == [], f"matplotlib still sees a Chinese system font: {found['before']}"
    assert set(found["labels"]) >= {"红", "黄", "绿", "概率", "三个候选的概率"}
    fonts = set(found["labels"].values())
    assert len(fonts) == 1 and Path(fonts.pop()).is_relative_to(kit_env.venv), found["labels"]
    assert found["uncovered"] == []


# --- the built site -----------------------------------------------------------------------------------------

UNIX_STEPS = "python3 -m venv .venv\nsource .venv/bin/activate\npython -m pip install {wheel} jupyterlab\njupyter lab"
WINDOWS_STEPS = "py -m venv .venv\n.venv\\Scripts\\activate\npython -m pip install {wheel} jupyterlab\njupyter lab"


def test_every_notebook_page_offers_its_notebook_the_wheel_and_the_commands(built_site, kit_wheel):
    wheel = kit_wheel.name
    for page, notebook in notebook_pages(built_site).items():
        block = kit_block(page)
        text = page.read_text(encoding="utf-8")
        # between the title and the kit: the chapter's opening card (_ext/chapter_opening.py), the reading-mode line
        # (_ext/reading_mode.py) and the handout links only
        between = text[text.index("</h1>"):text.index('<div class="lc-kit">')]
        between = re.sub(r'<div class="lc-opening">.*?<!-- lc-opening -->|<p class="lc-(?:handouts|reading-state)"'
                         r"[^>]*>.*?</p>", "", between, flags=re.S)
        assert "<p" not in between and '<details class="lc-kit-fold">' in between, page.name
        linked_notebook, linked_wheel = (resolve(page, href) for href in DOWNLOAD.findall(block))
        learner_copy = built_site / "_sources" / "book" / notebook.name   # (tests/site/test_learner_notebooks.py)
        assert linked_notebook == learner_copy, f"{page.name} links {linked_notebook}"
        assert linked_wheel.read_bytes() == kit_wheel.read_bytes(), f"{page.name} links another wheel"
        # The main path is a virtual environment: a bare `pip install` stops on PEP 668 systems. Windows folds out.
        shown, folded = block.split("<details", 1)
        assert f"<pre>{UNIX_STEPS.format(wheel=wheel)}</pre>" in shown and "<pre>pip install" not in block
        assert f"<pre>{WINDOWS_STEPS.format(wheel=wheel)}</pre>" in folded
        assert '<p lang="en">' in folded and '<span lang="zh-CN">动手算</span>' in folded
        assert "笔记本里的正文和这一页一样" in block and "reads like this page" in block, page.name
        # A box's cell run on its own fails (labcode is imported in the first cell): run them all in order first.
        assert "“动手算”框要等单元格运行过才能用：先从第一格起按顺序运行" in block and "Run All Cells" in block, \
            f"{page.name}: the kit does not say to run the cells in order before using a 动手算 box"
        assert "在 JupyterLab 里读正文" not in block, f"{page.name}: the fold promises what its text advises against"
        scope = "本附录" if notebook.stem == "appendix" else "本章"
        assert f"在自己的电脑上运行{scope}" in block and f"{scope}的笔记本（.ipynb）" in block, page.name
        menu = dict((label, href) for href, label in MENU.findall(text))
        assert resolve(page, menu["download-kit-button"]) == linked_wheel
        assert resolve(page, menu["download-source-button"]) == linked_notebook
        # the menu says what each file is, not only its suffix (no PDFs beside this build: the entry prints)
        assert dict(MENU_TEXT.findall(text)) == {"download-source-button": f"{scope}笔记本（.ipynb）",
                                                 "download-kit-button": "课程包（.whl）",
                                                 "download-pdf-button": "打印本页（PDF）"}, page.name
    glossary = (built_site / "book" / "glossary.html").read_text(encoding="utf-8")
    assert "lc-kit" not in glossary and "download-kit-button" not in glossary


def test_home_page_offers_every_notebook_with_the_wheel_in_one_zip(built_site, kit_wheel):
    home = built_site / "intro.html"
    linked_zip, linked_wheel = (resolve(home, href) for href in DOWNLOAD.findall(kit_block(home)))
    assert linked_wheel.read_bytes() == kit_wheel.read_bytes()
    menu = dict((label, href) for href, label in MENU.findall(home.read_text(encoding="utf-8")))
    assert resolve(home, menu["download-kit-zip-button"]) == linked_zip
    assert resolve(home, menu["download-kit-button"]) == linked_wheel
    assert dict(MENU_TEXT.findall(home.read_text(encoding="utf-8"))) == {
        "download-kit-zip-button": "全书笔记本与课程包（.zip）", "download-kit-button": "课程包（.whl）",
        "download-source-button": "首页笔记本（.ipynb）", "download-pdf-button": "打印本页（PDF）"}
    with zipfile.ZipFile(linked_zip) as archive:
        files = {name: sha256(archive.read(name)).hexdigest() for name in archive.namelist()}
    learner = [built_site / "_sources" / p.relative_to(ROOT) for p in NOTEBOOKS]   # the learner's copies
    expected = {f"lm-by-hand/{p.name}": sha256(p.read_bytes()).hexdigest() for p in [*learner, kit_wheel]}
    assert files == expected
    assert sorted(p.name for p in (built_site / "kit").iterdir()) == sorted([kit_wheel.name, learner_kit.ZIP_NAME])
