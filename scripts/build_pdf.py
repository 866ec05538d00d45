#!/usr/bin/env python3
"""Build the printed handouts into _build/pdf/ (Jupyter Book's LaTeX route, xelatex).

For every chapter notebook in _toc.yml (第 N 章) and every appendix notebook (title starting with 附录):
  NN_name.pdf          the student handout, solutions removed
  NN_name-answers.pdf  the answer key: the chapter's exercises with their solutions
and book.pdf, the whole book as the students get it: the chapters, then the appendices and the
glossary lettered 附录 A, 附录 B, … (the glossary is printed in the book only).
One Sphinx build writes every LaTeX document (latex/handout_filter.py cuts each to its kind), then
latexmk makes the PDFs side by side.

Usage: scripts/build_pdf.py [--out DIR] [--if-available] [--work DIR] [--stored-outputs]
  --if-available    when TeX or the fonts are missing, say which Debian packages to
                    install and exit 0 (used by `make build`); under CI=true exit 1 all the same.
  --stored-outputs  print the outputs stored in the notebooks instead of running them (the test suite,
                    which checks separately that a fresh run writes exactly those outputs).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
import book_layout  # noqa: E402
import chapter_registry  # noqa: E402
from box_latex import LATEX_TEXT  # noqa: E402
from build_site import write_config_copy  # noqa: E402

LATEX_DIR = ROOT / "latex"

# What the route needs, and the Debian package that brings it (all are in scripts/debian_packages.txt).
PROGRAMS = {"xelatex": "texlive-xetex", "latexmk": "latexmk"}
TEX_FILES = {
    "xeCJK.sty": "texlive-lang-chinese",
    "fontspec.sty": "texlive-latex-recommended",
    "unicode-math.sty": "texlive-latex-recommended",
    "ucharclasses.sty": "texlive-xetex",
    "titlesec.sty": "texlive-latex-extra",
    "capt-of.sty": "texlive-latex-extra",
}
FONTS = {"Noto Serif CJK SC": "fonts-noto-cjk", "Noto Sans Mono CJK SC": "fonts-noto-cjk"}
PDF_PACKAGES_SECTION = ("# Chinese glyphs", "# PDF handouts")

KIND_STUDENT = "学生讲义"
KIND_ANSWERS = "练习答案"
KIND_BOOK = "全书"


# --- what is missing ----------------------------------------------------------

def _debian_pdf_packages() -> list[str]:
    """Packages of the PDF sections of scripts/debian_packages.txt."""
    packages, keep = [], False
    for line in (ROOT / "scripts" / "debian_packages.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#"):
            keep = line.startswith(PDF_PACKAGES_SECTION)
        elif line and keep:
            packages.append(line)
    return packages


def _prints(cmd: list[str]) -> bool:
    """Is the tool there, and does it answer (kpsewhich finds the file, fc-list the font family)?"""
    return bool(shutil.which(cmd[0]) and subprocess.run(cmd, capture_output=True, text=True).stdout.strip())


def missing_packages() -> list[str]:
    """Debian packages the PDF route needs that this machine lacks (empty list: all there)."""
    order = _debian_pdf_packages()
    missing = {pkg for prog, pkg in PROGRAMS.items() if not shutil.which(prog)}
    missing |= {pkg for name, pkg in TEX_FILES.items() if not _prints(["kpsewhich", name])}
    missing |= {pkg for family, pkg in FONTS.items() if not _prints(["fc-list", f":family={family}", "family"])}
    if shutil.which("dpkg-query"):
        status = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${Status}\n", *order],
                                capture_output=True, text=True).stdout
        missing |= set(order) - {line.split()[0] for line in status.splitlines() if line.endswith(" installed")}
    return sorted(missing, key=lambda p: (order.index(p) if p in order else len(order), p))


def install_hint(packages: list[str]) -> str:
    names = " ".join(packages)
    return (f"生成 PDF 讲义需要以下 Debian 软件包，本机尚未安装：{names}\n"
            f"PDF handouts need Debian packages that are not installed: {names}\n"
            f"安装方法 / install them with:\n  sudo apt-get install {names}")


# --- the book's chapters ------------------------------------------------------

def chapters() -> list[dict]:
    """Handout notebooks in _toc.yml order, from the chapter registry (_ext/chapter_registry.py): docname, title
    (first heading), number, label, stem, appendix (第 1 章, …, then 附录 A, …). Reference pages in Markdown (the
    glossary) are in book.pdf only."""
    return [{"docname": c.docname, "title": c.title, "appendix": c.appendix, "label": c.label,
             "number": int(c.number) if c.number.isdigit() else ord(c.number) - ord("A") + 1,
             "handout_title": c.handout_title, "stem": c.stem} for c in chapter_registry.chapters()]


def back_matter_title() -> str | None:
    """Title of the first page of the back matter, where book.pdf starts LaTeX's \\appendix (附录 A, 附录 B, …)."""
    pages = chapter_registry.toc_pages()
    numbers = book_layout.numbers(pages)
    return next((title for d, title, _ in pages if not numbers[d].isdigit()), None)


def tex_escape(text: str) -> str:
    return text.translate(str.maketrans({**LATEX_TEXT, "$": r"\$"}))   # box_latex's escapes, and $ (no maths here)


# --- Sphinx (LaTeX sources) ---------------------------------------------------

def run_sphinx(work: Path, cache: Path | None, docs: list[dict], log: Path) -> Path:
    """Write the LaTeX source of every handout in one build, from a copy of _config.yml (None: stored outputs)."""
    author = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8")).get("author", "")
    settings = {
        # Not sphinx-exercise's hide_solutions: it drops `solution-start` but leaves the cells and the
        # `solution-end` behind. latex/handout_filter.py removes whole solutions instead.
        "hide_solutions": False,
        # Docutils' smart quotes guess wrong next to Chinese characters (both quotes come out as ”).
        "smartquotes": False,
        # Widgets carry an image/png snapshot next to their text repr: print the picture, never the repr.
        "nb_mime_priority_overrides": [["latex", "image/png", 15], ["latex", "text/plain", 100]],
        "handout_documents": [[d["mode"], d["docname"], d["target"], d["title"], author, "jupyterBook", False]
                              for d in docs],
    }
    config = write_config_copy(work / "_config_handouts.yml", cache, settings,
                               extensions={"handout_filter": str(LATEX_DIR)})
    jupyter_book = [sys.executable, "-c", "from jupyter_book.cli.main import main; main()"]
    cmd = jupyter_book + ["build", str(ROOT), "--builder", "latex", "--config", str(config), "--path-output", str(work)]
    with log.open("w", encoding="utf-8") as fh:
        result = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, cwd=ROOT)
    if result.returncode != 0:
        raise BuildError("Sphinx LaTeX build failed", log)
    # Without -W a failing notebook still "builds": never print a handout from a broken run.
    if re.search(r"\[mystnb\.exec\]|CellExecutionError", log.read_text(encoding="utf-8", errors="replace")):
        raise BuildError("a notebook failed to execute", log)
    return work / "_build" / "latex"


# --- xelatex ------------------------------------------------------------------

class BuildError(Exception):
    def __init__(self, message: str, log: Path):
        super().__init__(message)
        self.log = log


# jupyterBook.cls loads TikZ and pgfplots, which no page draws with: LaTeX is told they are loaded already, which
# saves 0.2 s of each xelatex pass (a build makes 27).
NO_TIKZ = "".join(f"\\expandafter\\def\\csname ver@{package}.sty\\endcsname{{}}"
                  for package in ("tikz", "pgf", "pgfplots")) + "\\def\\usetikzlibrary#1{}\n"
# Maths in a heading or a 深入 title is set bold (latex/handout.sty); a document without any (the answer keys, the
# appendix) skips declaring the bold maths font, 0.4 s of each pass.
MATHS_IN_BOLD = re.compile(r"\\(?:chapter|(?:sub)*section|(?:sub)?paragraph|begin\{handoutdeep\})\*?\{[^\n]*\\\(")

VERBATIM_BODY = re.compile(r"(?<=\\begin\{sphinxVerbatim\}\[commandchars=\\\\\\\{\\\}\]\n)"
                           r".*?(?=^\\end\{sphinxVerbatim\})", flags=re.S | re.M)


def indent_wrapped_lines(source: str) -> str:
    """Each indented line of code or output starts with \\handoutindent{its spaces} (latex/handout.sty): when it
    wraps, the rest hangs under its first character instead of going back to the left margin."""
    return VERBATIM_BODY.sub(lambda block: re.sub(r"^( +)(?=\S)", lambda m: f"\\handoutindent{{{len(m[1])}}}{m[1]}",
                                                  block[0], flags=re.M), source)


def prepare_tex(tex: Path, doc: dict, course_title: str, back_matter: str | None = None) -> None:
    """Per-document settings the shared preamble cannot know: kind of handout, chapter number or letter."""
    source = indent_wrapped_lines(tex.read_text(encoding="utf-8"))
    source = NO_TIKZ + ("" if MATHS_IN_BOLD.search(source) else "\\def\\handoutnoboldmaths{}\n") + source
    setup = f"\\def\\coursetitle{{{tex_escape(course_title)}}}\\def\\handoutkind{{{doc['kind']}}}"
    if doc.get("appendix"):
        setup += "\\appendix"  # the heading reads 附录 A, 附录 B, …
    setup += f"\\setcounter{{chapter}}{{{doc.get('number', 1) - 1}}}"
    if doc["kind"] != KIND_BOOK:
        # One chapter: heading on page 1, no title page. The answer key has no sections to list.
        setup += "\\handoutcompacttrue"
        if doc["kind"] == KIND_STUDENT:
            setup += "\\handoutsectionlisttrue"
    elif back_matter:
        # The whole book: the appendices and the glossary come after the chapters, lettered.
        heading = "\\chapter{" + tex_escape(book_layout.printed_title(back_matter)) + "}"
        if heading not in source:
            raise BuildError(f"book.tex has no chapter {back_matter!r} to start the appendices at", tex)
        source = source.replace(heading, "\\appendix\n" + heading, 1)
    source = source.replace("\\begin{document}", "\\begin{document}\n" + setup, 1)
    tex.write_text(source, encoding="utf-8")


def run_latex(latex_dir: Path, doc: dict) -> Path:
    tex = latex_dir / doc["target"]
    # -pdfxe: each xelatex pass writes only an .xdv and xdvipdfmx makes the PDF once at the end
    # (with -pdf every pass would embed and subset the CJK fonts again). Its zlib level 6 instead of 9: the
    # PDFs grow by about 2 % and xdvipdfmx takes less than half the time.
    cmd = ["latexmk", "-pdfxe", "-dvi-", "-ps-", "-interaction=nonstopmode", "-halt-on-error",
           "-file-line-error", "-e", "$xdvipdfmx = 'xdvipdfmx -E -z 6 -o %D %O %S'", tex.name]
    result = subprocess.run(cmd, cwd=latex_dir, capture_output=True, text=True)
    log = tex.with_suffix(".log")
    if result.returncode != 0 or not tex.with_suffix(".pdf").exists():
        if not log.exists():
            log.write_text(result.stdout + result.stderr, encoding="utf-8")
        raise BuildError(f"xelatex failed on {tex.name}", log)
    check_glyphs(log, tex.name)
    return tex.with_suffix(".pdf")


def check_glyphs(log: Path, name: str) -> None:
    """Stop at characters xelatex found in no font (latex/handout.sty has it log them)."""
    lost = sorted(set(re.findall(r"Missing character: There is no (.) ", log.read_text(errors="replace"))))
    if lost:
        raise BuildError(f"{name}: no glyph in the fonts for {' '.join(lost)}", log)


def page_count(pdf: Path) -> str:
    if not shutil.which("pdfinfo"):
        return "?"
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", info, flags=re.M)
    return match.group(1) if match else "?"


# --- main ---------------------------------------------------------------------

def build(out: Path, work: Path, cache: Path | None) -> list[Path]:
    course_title = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8")).get("title", "")
    chs = chapters()
    root_doc = chapter_registry.root_doc()
    # mode: what latex/handout_filter.py keeps of the page (the book is printed as the students get it).
    docs = [{"docname": root_doc, "target": "book.tex", "title": course_title, "kind": KIND_BOOK, "mode": "student",
             "pdf": book_layout.BOOK_PDF, "number": 1}]
    docs += [{**c, "target": f"{c['stem']}.tex", "title": c["handout_title"], "kind": KIND_STUDENT, "mode": "student",
              "pdf": book_layout.student_pdf(c["docname"])} for c in chs]
    docs += [{**c, "target": f"{c['stem']}-answers.tex", "title": c["handout_title"], "kind": KIND_ANSWERS,
              "mode": "answers", "pdf": book_layout.answers_pdf(c["docname"])} for c in chs]
    (work / "logs").mkdir(parents=True, exist_ok=True)
    latex_dir = run_sphinx(work, cache, docs, work / "logs" / "sphinx.log")
    back_matter = back_matter_title()
    for doc in docs:
        prepare_tex(latex_dir / doc["target"], doc, course_title, back_matter)

    out.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = [(doc, pool.submit(run_latex, latex_dir, doc)) for doc in docs]
        return [shutil.copyfile(future.result(), out / doc["pdf"]) for doc, future in futures]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "pdf", help="where the PDFs go")
    parser.add_argument("--if-available", action="store_true",
                        help="skip with a message (exit 0) when TeX or the fonts are missing")
    parser.add_argument("--work", type=Path, help="keep the LaTeX sources and logs in this folder")
    parser.add_argument("--stored-outputs", action="store_true",
                        help="print the notebooks' stored outputs instead of running them")
    args = parser.parse_args(argv)

    missing = missing_packages()
    if missing:
        print(install_hint(missing), file=sys.stderr)
        if args.if_available and os.environ.get("CI", "").lower() != "true":
            print("Skipping the PDF handouts.", file=sys.stderr)
            return 0
        if args.if_available:
            print("CI=true: the PDF handouts may not be skipped.", file=sys.stderr)
        return 1

    start = time.perf_counter()
    work = args.work.resolve() if args.work else Path(tempfile.mkdtemp(prefix="pdf-handouts-"))
    work.mkdir(parents=True, exist_ok=True)
    out = args.out.resolve()
    try:
        # A fresh jupyter-cache runs each notebook once, as `execute_notebooks: force` does.
        built = build(out, work, None if args.stored_outputs else work / "jupyter_cache")
    except BuildError as err:
        kept = out / "logs"
        kept.mkdir(parents=True, exist_ok=True)
        log = kept / err.log.name
        shutil.copyfile(err.log, log)
        print(f"PDF build failed: {err}. Log: {log}", file=sys.stderr)
        return 1
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    for pdf in built:
        print(f"{_display(pdf)}  ({page_count(pdf)} pages)")
    print(f"PDF handouts built in {time.perf_counter() - start:.0f} s")
    return 0


def _display(path: Path) -> str:
    return str(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)


if __name__ == "__main__":
    sys.exit(main())
