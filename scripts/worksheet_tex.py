"""The worksheets and keys as PDFs: one LaTeX document holds every student's sheet (another every key), typeset
once with xelatex; xdvipdfmx then writes each student's pages as a PDF of their own.

The preamble is the handouts' own: Sphinx writes it from the LaTeX settings of _config.yml (the same class,
packages, geometry and latex/handout.sty as scripts/build_pdf.py's handouts), with latex/worksheet.sty added for
what a worksheet has besides (a problem, room to write, its answer). The questions are the boxes' text in LaTeX
(_ext/box_latex.py, as the handouts print a box), so paper, page and handout say the same.
"""
from __future__ import annotations

import concurrent.futures
import io
import re
import shutil
import subprocess
from pathlib import Path

import yaml

import build_pdf
from box_latex import answer_text, to_latex
from worksheet_plan import Item, Sheet

ROOT = Path(__file__).resolve().parents[1]
STYLE = ROOT / "latex" / "worksheet.sty"
SHEET, KEY = "sheet", "key"


def write_preamble(work: Path) -> str:
    """The handouts' preamble (up to \\begin{document}), written by Sphinx with the book's LaTeX settings into
    `work`, together with the class and packages it loads."""
    from sphinx.application import Sphinx

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    settings = config["sphinx"]["config"]
    elements = dict(settings["latex_elements"])
    elements["preamble"] = elements.get("preamble", "") + "\n\\usepackage{worksheet}"
    source = work / "sphinx-source"
    source.mkdir(parents=True, exist_ok=True)
    (source / "index.rst").write_text("Worksheet\n=========\n", encoding="utf-8")
    overrides = {"project": config.get("title", ""), "language": settings.get("language", "zh_CN"),
                 "extensions": ["sphinx_jupyterbook_latex"] if config["latex"].get("use_jupyterbook_latex") else [],
                 "latex_engine": config["latex"]["latex_engine"], "numfig": True, "latex_elements": elements,
                 "latex_additional_files": [str(ROOT / f) for f in settings["latex_additional_files"]] + [str(STYLE)],
                 "latex_documents": [("index", "preamble.tex", "", "", "jupyterBook")]}
    warnings = io.StringIO()
    app = Sphinx(str(source), None, str(work), str(work / "doctrees"), "latex", confoverrides=overrides,
                 status=None, warning=warnings, freshenv=True)
    app.build()
    if app.statuscode != 0:
        raise build_pdf.BuildError(f"Sphinx could not write the preamble: {warnings.getvalue()}", work / "preamble.tex")
    tex = (work / "preamble.tex").read_text(encoding="utf-8")
    return tex[:tex.index("\\begin{document}")]


# --- the documents ------------------------------------------------------------------------------------------

def _heading(title: str) -> str:
    """A section heading as the notebook writes it (maths in $…$ is already LaTeX; `code` in typewriter)."""
    parts = re.split(r"(\$[^$]*\$|`[^`]*`)", title)
    return "".join(p if p.startswith("$") else f"\\texttt{{{build_pdf.tex_escape(p[1:-1])}}}" if p.startswith("`")
                   else build_pdf.tex_escape(p) for p in parts)


def where(item: Item) -> str:
    """The box a problem comes from: 第 1 章 · 1.3 节“Softmax：先取指数，再归一化”."""
    box = item.box
    return f"{box.chapter_label} · {box.section} 节“{_heading(box.title)}”"


def _covers(sheets: list[Sheet]) -> str:
    """第 1、2 章; 第 1 章与附录 A."""
    numbers = list(dict.fromkeys(item.box.chapter for item in sheets[0].items))
    chapters, appendix = [n for n in numbers if n.isdigit()], [n for n in numbers if not n.isdigit()]
    words = ([f"第\\,{'、'.join(chapters)}\\,章"] if chapters else []) + [f"附录\\,{n}" for n in appendix]
    return "与".join(words)


def _note(kind: str, site: str | None, ids: bool) -> str:
    if kind == KEY:
        return ("这是上面这位学生的练习纸的答案，只给老师。学生的答案与这里的答案相差不超过容差就算对，"
                "网站上的“动手算”框也这样判。")
    text = ("每道题与书中某一节的“动手算”框同一类型，数是给你一个人的。先在题下的空白处演算，再把答案写进方框："
            "可以写分数、小数或算式（如 $\\ln(7/2)$），向量写成 $[a, b, c]$；小数至少保留三位。")
    if ids:
        text += ("题目右上角的变体号把纸和网站连在一起：在网站上那一节的“动手算”框里写“变体”和这个号"
                 "（如 \\texttt{变体 7F3A}），点“核对”，框里就是这道题，算完可以当场核对。")
        if site:
            text += f"网站：\\url{{{site}}}"
    return text


def _problem(item: Item, kind: str, ids: bool) -> str:
    problem = item.problem
    head = f"{{{item.number}}}{{{where(item)}}}{{{item.variant_id if ids else ''}}}{{{to_latex(problem.question())}}}"
    if kind == KEY:
        answer = to_latex("$" + answer_text(problem.answer, problem.exact) + "$")
        return f"\\worksheetanswer{head}{{{answer}}}{{{problem.tolerance:g}}}"
    return f"\\worksheetproblem{head}{{{to_latex(problem.label())}}}"


def document(preamble: str, sheets: list[Sheet], kind: str, course_title: str, site: str | None = None,
             ids: bool = True) -> str:
    """The LaTeX of every sheet (kind SHEET) or every key (KEY), one student after another."""
    title, label = ("动手算练习纸", "练习纸") if kind == SHEET else ("动手算练习纸的答案", "答案")
    body = [preamble, "\\begin{document}", f"\\def\\coursetitle{{{build_pdf.tex_escape(course_title)}}}",
            "\\pagestyle{normal}", "\\worksheetfrontstrue" if kind == SHEET else ""]
    for sheet in sheets:
        student = sheet.student
        owner = build_pdf.tex_escape(f"学号 {student.id}" + (f"　{student.name}" if student.name else ""))
        body += [f"\\worksheetbegin{{{_covers(sheets)}}}{{{label}}}{{{title}}}{{{owner}}}",
                 f"\\worksheetowner{{{owner}}}", f"\\worksheetnote{{{_note(kind, site, ids)}}}",
                 *(_problem(item, kind, ids) for item in sheet.items), "\\worksheetend"]
    body.append("\\end{document}\n")
    return "\n".join(body)


# --- typesetting, and one PDF per student -------------------------------------------------------------------

def _pages(pages_file: Path, count: int) -> list[tuple[int, int]]:
    """(first, last) page of each student's part, as latex/worksheet.sty wrote them."""
    numbers = [int(line) for line in pages_file.read_text(encoding="utf-8").split()]
    if len(numbers) != 2 * count:
        raise build_pdf.BuildError(f"{pages_file.name}: {len(numbers)} page numbers for {count} students", pages_file)
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def cut(xdv: Path, ranges: list[tuple[int, int]], targets: list[Path]) -> None:
    """Each (first, last) range of pages of the typeset document as a PDF of its own (with only the glyphs those
    pages use)."""
    for (first, last), target in zip(ranges, targets, strict=True):
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["xdvipdfmx", "-q", "-s", f"{first}-{last}", "-o", str(target), str(xdv)], check=True,
                       capture_output=True)


def typeset(work: Path, name: str, tex: str) -> Path:
    """The document typeset once (no cross-references to resolve) into `name`.xdv and `name`.pdf, with the
    handouts' check that every character was found in the fonts."""
    (work / f"{name}.tex").write_text(tex, encoding="utf-8")
    log = work / f"{name}.log"
    run = subprocess.run(["xelatex", "-no-pdf", "-interaction=nonstopmode", "-halt-on-error", "-file-line-error",
                          f"{name}.tex"], cwd=work, capture_output=True, text=True)
    if run.returncode != 0 or not (work / f"{name}.xdv").exists():
        raise build_pdf.BuildError(f"xelatex failed on {name}.tex", log)
    build_pdf.check_glyphs(log, f"{name}.tex")
    subprocess.run(["xdvipdfmx", "-q", "-o", f"{name}.pdf", f"{name}.xdv"], cwd=work, check=True, capture_output=True)
    return work / f"{name}.pdf"


def build(sheets: list[Sheet], targets: dict[str, tuple[Path, list[Path]]], work: Path, course_title: str,
          site: str | None = None, ids: bool = True) -> None:
    """Typeset the sheets and the keys side by side: for each kind in `targets`, the whole document goes to its
    first path and each student's pages to their path in the list (in roster order)."""
    preamble = write_preamble(work)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        jobs = {kind: pool.submit(typeset, work, kind, document(preamble, sheets, kind, course_title, site, ids))
                for kind in targets}
        for kind, job in jobs.items():
            pdf = job.result()
            whole, each = targets[kind]
            if whole is not None:
                whole.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(pdf, whole)
            cut(pdf.with_suffix(".xdv"), _pages(work / f"{kind}.pages", len(sheets)), each)
