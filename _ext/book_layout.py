"""How the book is laid out, in one place: which pages are numbered chapters and which are lettered back matter,
what their headings say, and which PDF handouts a page has.

The site (_ext/book_numbering.py, _ext/handout_links.py) and the PDFs (scripts/build_pdf.py,
latex/handout_filter.py) import these rules, so the two agree by construction.
- Chapters are numbered 第 1 章, 第 2 章, … The back matter is lettered 附录 A, 附录 B, …: it starts at the first
  notebook whose title starts with 附录, or at the first page that is not a notebook (the glossary).
- A back-matter title “附录：符号…” prints as “符号…” under its label 附录 A (the site keeps the whole title).
- Every notebook gets NN_name.pdf (students) and NN_name-answers.pdf (answer key); the home page gets book.pdf.
"""
from __future__ import annotations

import re
import string

APPENDIX_PREFIX = "附录"
APPENDIX_TITLE = re.compile(rf"^{APPENDIX_PREFIX}[：:]\s*")
BOOK_PDF = "book.pdf"


def numbers(pages: list[tuple[str, str, bool]]) -> dict[str, str]:
    """{docname: "1", "2", …, "A", "B", …} for the pages after the root, in order, as (docname, title, notebook)."""
    result, chapters, back_matter = {}, 0, 0
    for docname, title, notebook in pages:
        if back_matter or not notebook or title.startswith(APPENDIX_PREFIX):
            result[docname] = string.ascii_uppercase[back_matter]
            back_matter += 1
        else:
            chapters += 1
            result[docname] = str(chapters)
    return result


def label(number: str) -> str:
    """第 2 章, or 附录 A."""
    return f"第 {number} 章" if number.isdigit() else f"{APPENDIX_PREFIX} {number}"


def scope(title) -> str:
    """How a page names itself (its answer boxes, its first screen, the learner's kit) from its title node (or
    None): 本附录 when the title starts with 附录, else 本章."""
    return "本附录" if title is not None and title.astext().startswith(APPENDIX_PREFIX) else "本章"


def printed_title(title: str) -> str:
    """A title as its printed heading shows it, under the label: “附录：符号…” loses its 附录."""
    return APPENDIX_TITLE.sub("", title)


def handout_title(number: str, title: str) -> str:
    """第 2 章　标题; a back-matter title already says 附录, so it stands alone."""
    return title if title.startswith(APPENDIX_PREFIX) else f"{label(number)}　{title}"


def student_pdf(docname: str) -> str:
    return f"{docname.rsplit('/', 1)[-1]}.pdf"


def answers_pdf(docname: str) -> str:
    return f"{docname.rsplit('/', 1)[-1]}-answers.pdf"
