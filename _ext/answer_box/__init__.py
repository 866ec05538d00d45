"""Sphinx extension: answer boxes, where the reader checks a hand computation on the page.

A chapter writes, in a Markdown cell::

    :::{answer-box} gradient
    :label: ch2-ab-gradient
    :z: [ln(2), 0, -ln(2)]
    :y: 1
    :::

(the kinds and their options are in problems.py). The answer for the book's own numbers is computed here,
with labcode. On the site the box is a labelled input checked by the page's own script (answer_box.js, only on
pages with a box), which computes every other set of numbers with the widgets' maths.js. In a PDF handout the
box is a blank to fill in; the answer key (``handout_mode = "answers"``, latex/handout_filter.py) prints the answer.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

import site_files
from labcode.widgets._family import maths_script

from .problems import KINDS, ProblemError, answer_text, problem, to_html, to_latex

HERE = Path(__file__).parent
SCRIPT, STYLE = "answer-box.js", "answer-box.css"
LABEL = re.compile(r"^[a-z][a-z0-9-]*$")
TITLE = "动手算"
HELP = "可以写小数、分数（2/3）或算式（ln(5/3)、e^2；log 也按自然对数 ln 算）；全角符号也行。"
HELP_VECTOR = "向量写成 [1/3, −1/2, 0.25]。"


class answer_box(nodes.General, nodes.Element):
    """One box: attributes ``label`` and ``problem`` (problems.Problem); children: the author's lead-in."""


class answer_box_section(nodes.Inline, nodes.TextElement):
    """A copy of the title of the section the box sits in: the answer key, which prints the box without its
    section, names it (“见‘梯度下降的一步’一节”); the site and the student handout leave it out."""


class AnswerBox(SphinxDirective):
    required_arguments = 1
    has_content = True
    option_spec = {"label": directives.unchanged_required,
                   **{name: directives.unchanged_required for kind in KINDS.values() for name in kind.options}}

    def run(self):
        kind, options = self.arguments[0], dict(self.options)
        label = options.pop("label", "")
        if not LABEL.match(label):
            raise self.error(f"answer-box 需要 :label:（小写字母、数字和 -，如 ch1-ab-softmax），收到 {label!r}")
        seen = self.env.temp_data.setdefault("answer_box_labels", set())
        if label in seen:
            raise self.error(f"answer-box 的 :label: 在一页里不能重复，{label!r} 已经用过")
        seen.add(label)
        try:
            found = problem(kind, options)
        except ProblemError as err:
            raise self.error(f"answer-box {label}：{err}") from None
        node = answer_box(label=label, problem=found, classes=["answer-box"])
        self.set_source_info(node)
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def _name_sections(app, doctree):
    """Give each box a copy of its section's title (answer_box_section), while the box still sits in it."""
    for box in doctree.findall(answer_box):
        section = box.parent
        while section is not None and not isinstance(section, nodes.section):
            section = section.parent
        if section is not None and section.children and isinstance(section[0], nodes.title):
            box.insert(0, answer_box_section("", "", *(child.deepcopy() for child in section[0].children)))


# --- the site ---------------------------------------------------------------------------------------------

def _scope(translator) -> str:
    """“本章” on a chapter, “本附录” on an appendix (its title starts with 附录)."""
    title = translator.builder.env.titles.get(translator.builder.current_docname)
    return "本附录" if title is not None and title.astext().startswith("附录") else "本章"


def visit_html(self, node):
    label, found = node["label"], node["problem"]
    spec = {"kind": found.kind, "question": KINDS[found.kind].question, "label": KINDS[found.kind].label,
            "values": found.values, "texts": found.texts, "tolerance": found.tolerance, "scope": _scope(self)}
    self.body.append(
        f'<div class="answer-box" id="{label}" role="group" aria-labelledby="{label}-title" '
        f'data-answer-box="{html.escape(json.dumps(spec, ensure_ascii=False))}">\n'
        f'<p class="ab-title" id="{label}-title"><strong>{TITLE}</strong><span class="ab-set"></span></p>\n'
        '<div class="ab-lead">\n')


def depart_html(self, node):
    label, found = node["label"], node["problem"]
    help_text = HELP + (HELP_VECTOR if isinstance(found.answer, list) else "")
    self.body.append(
        '</div>\n'
        f'<p class="ab-question" id="{label}-question">{to_html(found.question())}</p>\n'
        '<div class="ab-controls" hidden>\n'
        '<form class="ab-form">'
        f'<label class="ab-label" for="{label}-input">{to_html(found.label())}</label>'
        f'<input class="ab-input" id="{label}-input" type="text" autocomplete="off" autocapitalize="off" '
        f'spellcheck="false" aria-describedby="{label}-question {label}-help">'
        '<span class="ab-buttons"><button type="submit" class="ab-check">核对</button>'
        '<button type="button" class="ab-new">换一组数</button>'
        '<button type="button" class="ab-book" hidden>回到书中的数</button></span></form>\n'
        f'<p class="ab-help" id="{label}-help">{html.escape(help_text)}'
        f'每个数与答案相差不超过 {found.tolerance:g} 就算对。</p>\n'
        '<p class="ab-verdict" role="status" aria-live="polite"></p>\n'
        '<p class="ab-progress"></p>\n'
        '</div>\n</div>\n')


def skip(self, node):
    raise nodes.SkipNode


def _write_assets(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    page_script = (HERE / "answer_box.js").read_text(encoding="utf-8")
    (static / SCRIPT).write_text(maths_script() + "\n" + page_script, encoding="utf-8")
    (static / STYLE).write_text((HERE / "answer_box.css").read_text(encoding="utf-8"), encoding="utf-8")


# --- the handouts -----------------------------------------------------------------------------------------

def _answer_key(translator) -> bool:
    return getattr(translator.builder.config, "handout_mode", "") == "answers"


def visit_latex(self, node):
    self.body.append(f"\n\\par\\medskip\\noindent\\begin{{minipage}}{{\\linewidth}}\\textbf{{{TITLE}}}")
    if not (_answer_key(self) and node.next_node(answer_box_section) is not None):
        self.body.append("\\quad ")


def visit_section_latex(self, node):
    if not _answer_key(self):
        raise nodes.SkipNode
    self.body.append("（见“")


def depart_section_latex(self, node):
    self.body.append("”一节）\\quad ")


def depart_latex(self, node):
    found = node["problem"]
    if _answer_key(self):
        tail = f"答案：{to_latex('$' + answer_text(found.answer) + '$')}"
    else:  # a ruled box to write in, with the answer's name in its corner
        tail = ("\\fbox{\\parbox[t][2.6em][t]{\\dimexpr\\linewidth-2\\fboxsep-2\\fboxrule\\relax}"
                f"{{\\small {to_latex(found.label())}：}}}}")
    self.body.append(f"\\par\\noindent {to_latex(found.question())}\\par\\smallskip\\noindent {tail}"
                     "\\end{minipage}\\par\\medskip\n")


def setup(app):
    app.add_node(answer_box, html=(visit_html, depart_html), latex=(visit_latex, depart_latex))
    app.add_node(answer_box_section, html=(skip, None), latex=(visit_section_latex, depart_section_latex))
    app.add_directive("answer-box", AnswerBox)
    app.connect("doctree-read", _name_sections)
    site_files.assets_where(app, answer_box, css=STYLE, js=SCRIPT)
    app.connect("build-finished", _write_assets)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
