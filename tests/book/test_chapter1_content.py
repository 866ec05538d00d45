"""Chapter 1 and the book-wide rules of its prose: what the stored outputs print, indices from 0, the symbols
(the worked figures are in tests/figures.py)."""
import json
import re

import numpy as np
import pytest

from notebook_outputs import BOOK, markdown_text, maths, uses_symbol


def test_chapter1_shows_the_overflow_it_explains():
    nb = json.loads((BOOK / "01_probability_to_loss.ipynb").read_text(encoding="utf-8"))
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert "[inf inf inf]" in printed and "[nan nan nan]" in printed


def test_chapter1_shows_the_underflow_to_zero_over_zero_beside_it():
    nb = json.loads((BOOK / "01_probability_to_loss.ipynb").read_text(encoding="utf-8"))
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", []))
    assert "exp(small) = [0. 0. 0.]" in printed and printed.count("[nan nan nan]") >= 2
    assert "1 + e^-40 == 1： True" in printed


# Candidates are numbered from 0, as in the code (appendix, "编号与序数"): prose that counts
# them from 1, or calls the entry numbered y "the y-th", contradicts that.
ONE_BASED_CANDIDATES = re.compile(r"k = 1, \\dots, V|\\sum_\{k=1\}\^\{V\}|第 \$[ky]\$ (?:项|个分量)")


@pytest.mark.parametrize("name", ["intro.ipynb", "book/01_probability_to_loss.ipynb", "book/appendix.ipynb"])
def test_candidates_are_numbered_from_zero_in_the_prose(name):
    found = ONE_BASED_CANDIDATES.findall(markdown_text(BOOK.parent / name))
    assert not found, f"{name} counts candidates from 1: {found}"


def test_the_numbering_check_can_fail():
    assert ONE_BASED_CANDIDATES.findall(r"$e_y$（第 $y$ 项为 1）, $\sum_{k=1}^{V} e^{z_k}$, $k = 1, \dots, V$")


# The book-wide index rule (appendix, "编号与序数"): subscripts are code indices from 0 (z_0 is the first score,
# positions t too), "第 k 个" counts from 1, and a 0-based position in prose is "编号为 k 的…". Each pattern is a way of
# writing that breaks it: a list or a sum starting at 1, the last score as z_V, two candidates as z_1 and z_2, an
# ordinal on an index letter ("第 $t$ 个位置"), "第 3 行" for W[3] (a quoted “第 3 行” names the form to avoid).
INDEX_RULE = re.compile(r"(?<!_0, )[a-z]_1,\s*\\dots|\\(?:sum|prod)_\{[a-z]\s*=\s*1\}|z_V\b|z_\{V\}|z_1 - z_2|z_2 - z_1"
                        r"|第 \$[a-z]\$ ?(?:个|项|行|列|层)|(?<!“)第 \d+ (?:行|列|项|个分量|个位置|格)|（第一个）")
RULE_PAGES = ["book/01_probability_to_loss.ipynb", "book/02_gradient.ipynb", "book/appendix.ipynb", "book/glossary.md"]


@pytest.mark.parametrize("name", RULE_PAGES)
def test_pages_follow_the_index_and_ordinal_rule(name):
    found = INDEX_RULE.findall(markdown_text(BOOK.parent / name))
    assert not found, f"{name} breaks the index rule: {found}"


def test_the_index_rule_check_can_fail():
    wrong = [r"$z_1, \dots, z_V$", r"$\prod_{t=1}^{T} p_t$", r"$\sigma(z_1 - z_2)$", "第 $t$ 个位置",
             "W 的第 3 行", "数学里的 z_1（第一个）"]
    right = [r"$z_0, z_1, \dots, z_{V-1}$", r"$\prod_{t=0}^{T-1} p_t$", r"$\sigma(z_0 - z_1)$",
             "编号为 $t$ 的位置", "编号为 3 的行", "不写“第 3 行”", "第 1 章", "第二个候选"]
    assert all(INDEX_RULE.search(text) for text in wrong)
    assert not any(INDEX_RULE.search(text) for text in right)


# --- symbols: what a page writes in its formulas ----------------------------------------

def test_symbol_detection_can_fail():
    f = maths(r"$\ln S$, $H(p)$, $e_y$, $dZ = X^{\mathsf T}$, $\varepsilon_{\text{mach}}$, $\tau$")
    assert uses_symbol("S", f) and uses_symbol("H(p)", f) and uses_symbol("dZ", f) and uses_symbol(r"\tau", f)
    assert not uses_symbol("H", f) and not uses_symbol("T", f) and not uses_symbol("n", f)
    assert not uses_symbol("y", f) and not uses_symbol("Z", f) and not uses_symbol(r"\varepsilon", f)


CHAPTER1 = BOOK / "01_probability_to_loss.ipynb"
# Temperature written T: "T = 0.5", "T<1", "T \to 0", "z / T", "p_i(T)".
TEMPERATURE_AS_T = re.compile(r"(?<![A-Za-z\\_{])T\s*(?:[<>=]|\\to)|/\s*T(?![A-Za-z_{])|\(T\)")


def test_chapter1_writes_temperature_as_tau_and_the_normaliser_as_s():
    formulas = maths(markdown_text(CHAPTER1))
    assert TEMPERATURE_AS_T.findall(formulas) == []
    assert uses_symbol(r"\tau", formulas) and uses_symbol("S", formulas)
    assert not uses_symbol("Z", formulas), "chapter 1 calls the normaliser Z (it is S)"
    assert TEMPERATURE_AS_T.search(maths(r"$p_i(T) = e^{z_i/T}$, $T<1$, $T \to 0$"))
    assert not TEMPERATURE_AS_T.search(maths(r"$(B, T, V)$, $t = 0, \dots, T-1$, $T_{\max}$"))


def test_chapter1_stores_w_as_d_by_v_and_scores_with_its_columns():
    text = markdown_text(CHAPTER1)
    assert "$(d, V)$" in text and "$(V, d)$" not in text and "W_k" not in text
    cells = json.loads(CHAPTER1.read_text(encoding="utf-8"))["cells"]
    assert any("logits = h @ W" in "".join(c["source"]) for c in cells if c["cell_type"] == "code")


# --- chapter 1's main path: the map, the 深入 boxes, the “你来写” exercises ------------------

def chapter1_cells():
    return json.loads(CHAPTER1.read_text(encoding="utf-8"))["cells"]


def _source(cell):
    return "".join(cell["source"])


def deep_boxes(cells):
    """(title, the cells inside) of every 深入 box, in order."""
    boxes, title, inside = [], None, None
    for cell in cells:
        text = _source(cell) if cell["cell_type"] == "markdown" else ""
        if inside is not None and text.startswith(":::{deep-end}"):
            boxes.append((title, inside))
            inside = None
        if inside is not None:
            inside.append(cell)
        start = re.search(r"^:::\{deep-start\} (.+)\n:::\s*$", text, re.M)
        if start:
            title, inside = start.group(1), []
    assert inside is None, "a 深入 box is never closed"
    return boxes


def section_of(cells, index):
    """The label of the section (## or ###) a cell sits in."""
    for cell in reversed(cells[:index + 1]):
        found = re.findall(r"^\((ch1-[\w-]+)\)=\n#+ ", _source(cell), re.M) if cell["cell_type"] == "markdown" else []
        if found:
            return found[-1]
    return None


def test_chapter1_opens_with_the_course_map_at_its_stage():
    cells = chapter1_cells()
    assert _source(cells[0]).startswith("(ch1-probability-to-loss)=\n# ")
    first_code = cells[1]
    assert first_code["cell_type"] == "code"
    assert _source(first_code) == 'import labcode\n\nlabcode.course_map("softmax")'
    assert first_code["metadata"].get("tags") == ["remove-input"] and "mystnb" not in first_code["metadata"]
    alt = "".join(first_code["outputs"][0]["data"]["text/plain"])
    assert alt.startswith("'你在这里：第 1 章，") or alt.startswith("你在这里：第 1 章，"), alt[:40]


# What the main path folded away, each found by a line of its code; and what carries the lesson on the main line.
FOLDED = {"两候选 softmax 与 sigmoid": "sigma = 1 / (1 + np.exp(",
          "2000 附近的舍入间距": "np.spacing(2000.0)",
          "分数为 -inf 的约定": "z_mask = np.array(",
          "加 eps 后斜率的量级": "log10_slope",
          "加 eps 后中心差分得到的斜率": "def loss_with_eps(",
          "沿错误的轴归一化": "axis=0",
          "把概率当分数": "误传概率"}
MAIN_LINE = {"exp 的上溢与下溢": "直接套公式", "先减最大值": "big - big.max()", "打印的核心函数": "_softmax)",
             "概率下溢、损失有限": "先 softmax 再取 log", "加 eps 的损失不动": "eps_loss = -np.log("}


def test_chapter1_folds_its_float_edge_cases_into_deep_boxes_and_keeps_the_lesson_on_the_main_line():
    cells = chapter1_cells()
    boxed = [_source(c) for _, inside in deep_boxes(cells) for c in inside if c["cell_type"] == "code"]
    main = [_source(c) for c in cells if c["cell_type"] == "code" and _source(c) not in boxed]
    for what, line in FOLDED.items():
        assert any(line in code for code in boxed), f"{what} is not inside a 深入 box"
    for what, line in MAIN_LINE.items():
        assert any(line in code for code in main), f"{what} left the main path"


def test_chapter1_says_before_each_box_what_it_holds_and_puts_no_heading_inside():
    cells = chapter1_cells()
    boxes = deep_boxes(cells)
    assert len(boxes) >= 5
    for index, cell in enumerate(cells):
        text = _source(cell)
        if "{deep-start}" in text:
            before = text[:text.index(":::{deep-start}")]
            assert "深入框" in before, f"no sentence on the main line says what the box {text[-40:]!r} shows"
            end = next(j for j in range(index + 1, len(cells)) if _source(cells[j]).startswith(":::{deep-end}"))
            assert section_of(cells, index) == section_of(cells, end), "a 深入 box spans two sections"
    for title, inside in boxes:
        assert not any(re.search(r"^#+ ", _source(c), re.M) for c in inside if c["cell_type"] == "markdown"), title


def test_chapter1_shows_its_float_edge_cases_once():
    """The gradient preview sat in the extreme-score section and again in the eps section; it is said once now."""
    text = markdown_text(CHAPTER1)
    assert "下一章会推导损失对分数的{term}`梯度`。先看一眼" not in text
    assert text.count("压低第一个候选的分数、抬高第二个候选的分数") == 1
    assert text.count("只改 $z_k$ 时损失的变化率") == 1, "∂ℓ/∂z_k is glossed once, where the widget shows it"


def test_chapter1_prose_introduces_the_kernels_it_prints():
    cells = chapter1_cells()
    for index, cell in enumerate(cells):
        printed = re.findall(r"inspect\.getsource\(labcode\.probability\.(\w+)\)", _source(cell))
        if printed:
            lead = _source(cells[index - 1])
            for name in printed:
                assert f"`{name}`" in lead, f"the prose before the printed {name} does not name it"
            for argument in re.findall(r"^def \w+\(z, (.+)\):", "".join(
                    "".join(o.get("text", "")) for o in cell["outputs"]), re.M):
                for name in re.findall(r"(\w+)(?:=[^,]+)?", argument):
                    assert f"`{name}`" in lead, f"the prose does not say what the kernel's {name} is"
    old_lead = "`labcode.softmax` 正是这样做的"
    assert old_lead not in markdown_text(CHAPTER1), "the old lead-in said the printed kernel was softmax itself"


# The “你来写” of chapter 1: where each is taught, and what the check cells store.
YOU_WRITE = {"ch1-ex-write-softmax": ("check_softmax", "ch1-overflow"),
             "ch1-ex-write-logsumexp": ("check_logsumexp", "ch1-logsumexp"),
             "ch1-ex-write-cross-entropy": ("check_cross_entropy", "ch1-epsilon")}


def _skeleton(*args):
    raise NotImplementedError("在这里写你的代码")


def _plain(cell):
    return "".join("".join(out.get("data", {}).get("text/plain", "")) for out in cell.get("outputs", []))


@pytest.mark.parametrize("label", YOU_WRITE)
def test_chapter1_asks_the_reader_to_write_it_where_it_is_taught(label):
    import labcode.practice

    check, section = YOU_WRITE[label]
    cells = chapter1_cells()
    start = next(i for i, c in enumerate(cells) if _source(c).startswith("```{exercise-start} 你来写：")
                 and f":label: {label}\n" in _source(c))
    assert section_of(cells, start) == section, f"{label} is not in the section that teaches it"
    end = next(i for i in range(start, len(cells)) if _source(cells[i]).startswith("```{exercise-end}"))
    task = [c for c in cells[start:end] if c["cell_type"] == "code"]
    assert re.search(r'^def my_\w+\(.*\):\n    """.+"""\n    raise NotImplementedError', _source(task[0]), re.S)
    expected = str(getattr(labcode.practice, check)(_skeleton))
    assert expected.startswith(f"{check}：还没写") and _plain(task[1]) == expected
    solution = next(c for c in cells[end:] if c["cell_type"] == "code")
    assert f"labcode.practice.{check}(" in _source(solution) and "def my_" not in _source(solution)
    assert _plain(solution).startswith(f"{check}：通过（全部"), f"{label}: the stored solution does not pass"
    assert solution["metadata"].get("jupyter", {}).get("source_hidden") is True


def test_chapter1_solutions_pass_the_checks_when_run_again():
    """The solutions' code, run here, passes; the same checks fail a classic mistake (no max shift)."""
    import labcode.practice

    names = {"np": np, "labcode": labcode}
    cells = chapter1_cells()
    for label in YOU_WRITE:
        start = next(i for i, c in enumerate(cells) if _source(c).startswith(f"```{{solution-start}} {label}\n"))
        code = next(_source(c) for c in cells[start:] if c["cell_type"] == "code")
        exec(code.split("\n\n\nlabcode.practice")[0], names)
    assert labcode.practice.check_softmax(names["softmax_solution"]).passed
    assert labcode.practice.check_logsumexp(names["logsumexp_solution"]).passed
    assert labcode.practice.check_cross_entropy(names["cross_entropy_solution"]).passed
    assert not labcode.practice.check_softmax(lambda z: np.exp(z) / np.exp(z).sum()).passed


def test_chapter1_keeps_every_section_the_checkers_link_to_on_the_main_line():
    """A hint's link lands on a heading the reader sees, not inside a folded box."""
    from labcode.practice import hints

    labels = {h.label for h in vars(hints).values() if isinstance(h, hints.Hint) and h.chapter == 1}
    assert {"ch1-overflow", "ch1-logsumexp", "ch1-epsilon"} <= labels
    cells = chapter1_cells()
    boxed = {id(c) for _, inside in deep_boxes(cells) for c in inside}
    for label in labels:
        holders = [c for c in cells if re.search(rf"^\({label}\)=\n#+ ", _source(c), re.M)]
        assert len(holders) == 1 and id(holders[0]) not in boxed, f"{label} is not a heading on the main line"


def test_chapter1_distillation_tempers_teacher_and_student_and_scales_the_soft_term():
    text = markdown_text(BOOK / "01_probability_to_loss.ipynb")
    sentence = text[text.index("知识蒸馏是个例外"):].split("。")[0]
    assert "教师和学生的分数除以同一个温度" in sentence and "乘上 $\\tau^2$" in sentence


def test_chapter1_says_the_explorer_s_loss_at_another_temperature_is_only_a_demonstration():
    text = markdown_text(BOOK / "01_probability_to_loss.ipynb")
    explorer = text[text.index("(softmax-explorer)="):]
    assert "温度不为 1 时" in explorer and "训练用的损失是温度为 1 时的" in explorer


def test_chapter1_kl_box_prints_cross_entropy_as_entropy_plus_kl():
    """Gibbs' inequality: CE(q, p) = H(q) + KL(q || p) >= H(q), equality at p = q (computed here without labcode)."""
    import notebook_outputs

    q = np.array([0.5, 0.3, 0.2])
    h = -np.sum(q * np.log(q))
    text = notebook_outputs.printed_text("01_probability_to_loss.ipynb")
    for p in (np.array([0.2, 0.3, 0.5]), np.array([0.45, 0.35, 0.2]), q):
        ce, kl = -np.sum(q * np.log(p)), np.sum(q * np.log(q / p))
        assert kl >= 0 and abs(ce - h - kl) < 1e-12
        assert f"p = {p}：交叉熵 {ce:.4f} = 熵 {h:.4f} + KL {kl:.4f}" in text
    cells = json.loads((BOOK / "01_probability_to_loss.ipynb").read_text(encoding="utf-8"))["cells"]
    assert any("KL 散度与吉布斯不等式" in title for title, _ in deep_boxes(cells))
