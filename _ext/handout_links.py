"""Links from the site to the PDF handouts, only for handouts that were built.

`make build` writes the handouts into _build/pdf/ (scripts/build_pdf.py), then the site into _build/html/.
This extension looks for the PDFs next to the HTML output, copies the ones it links into html/pdf/ and puts
a link under the page title: on a chapter page its student handout, on the home page the whole book. The same
handout replaces the theme's “.pdf” entry of the download menu (which prints the web page); a page without one
keeps that entry, named for what it does.
The answer keys are linked (and published) only when `handout_links_answers: true` is set in _config.yml.
Without TeX there are no PDFs, so no link and no broken link.
"""
from __future__ import annotations

import html
import shutil
from pathlib import Path

import book_layout
import site_files

STUDENT = "下载本章讲义（PDF）"
ANSWERS = "下载本章练习答案（PDF）"
BOOK = "下载全书（PDF）"
MENU_HANDOUT = {STUDENT: "本章讲义（PDF）", BOOK: "全书讲义（PDF）"}
MENU_PRINT = "打印本页（PDF）"
ICON = '<i class="fa-solid fa-file-pdf" aria-hidden="true"></i> '


def handout_files(docname: str, root_doc: str, answers: bool) -> list[tuple[str, str]]:
    """The PDFs a page may link, as (file name, link text), named by book_layout as scripts/build_pdf.py writes them."""
    if docname == root_doc:
        return [(book_layout.BOOK_PDF, BOOK)]
    files = [(book_layout.student_pdf(docname), STUDENT)]
    if answers:
        files.append((book_layout.answers_pdf(docname), ANSWERS))
    return files


def pdf_folder(app) -> Path:
    """Where the built PDFs are: the `pdf` folder beside the HTML (_build/pdf, _build/html)."""
    return Path(app.outdir).parent / "pdf"


def built(app, docname: str, answers: bool) -> list[tuple[str, str]]:
    """The page's handouts (with the answer key when `answers`) that were built."""
    found = set(app.config.handout_pdfs_found)
    return [f for f in handout_files(docname, app.config.root_doc, answers) if f[0] in found]


def links_html(files: list[tuple[str, str]], pathto) -> str:
    links = "".join(f'<a class="lc-handout" href="{html.escape(pathto("pdf/" + name, 1))}" '
                    f'type="application/pdf">{ICON}{html.escape(label)}</a> ' for name, label in files)
    return f'<p class="lc-handouts">{links.strip()}</p>\n'


def _found(app, config) -> None:
    """Record which PDFs exist, so a change rewrites every page (the value is an `html` rebuild trigger)."""
    folder = pdf_folder(app)
    config.handout_pdfs_found = sorted(p.name for p in folder.glob("*.pdf")) if folder.is_dir() else []


def _page(app, pagename, templatename, context, doctree):
    if doctree is None or app.builder.format != "html":
        return
    if files := built(app, pagename, app.config.handout_links_answers):
        context["body"] = site_files.under_title(context.get("body", ""), links_html(files, context["pathto"]))


def _menu(app, pagename, templatename, context, doctree):
    """The download menu's PDF entry: the page's handout if it was built, else the theme's print, in words."""
    entry = next((b for b in (site_files.download_menu(context) or {}).get("buttons", [])
                  if b.get("label") == "download-pdf-button"), None)
    if entry is None:
        return
    if files := built(app, pagename, False):
        name, label = files[0]
        entry.update(type="link", url=context["pathto"]("pdf/" + name, 1), text=MENU_HANDOUT[label], tooltip=label)
        entry.pop("javascript", None)
    else:
        entry["text"] = MENU_PRINT


def _copy(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "pdf"
    for docname in app.env.found_docs:
        for name, _label in built(app, docname, app.config.handout_links_answers):
            target.mkdir(exist_ok=True)
            shutil.copyfile(pdf_folder(app) / name, target / name)


def setup(app):
    app.add_config_value("handout_links_answers", False, "html", types=[bool])
    app.add_config_value("handout_pdfs_found", [], "html", types=[list])
    app.connect("config-inited", _found)
    app.connect("html-page-context", _page)
    app.connect("html-page-context", _menu, priority=600)   # after the theme has filled its menu (501)
    app.connect("build-finished", _copy)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
