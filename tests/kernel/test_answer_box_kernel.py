"""An answer box (动手算) in a RUNNING KERNEL in JupyterLab (tests/kernel_server.py): chapter 1's first box, its cell
run as the notebook holds it, checks what the reader types in the page: a known slip gets its hint, the right
answer the verdict 正确 (with no solved count: a widget cannot count the chapter's boxes), and 换一组数 draws
other numbers whose answer is labcode's.
"""
from __future__ import annotations

import numpy as np
import pytest

import labcode
from notebook_outputs import load
from page_script import run_page_script

WIDGET = ".answer-box"
START = next("".join(cell["source"]) for cell in load("01_probability_to_loss.ipynb")["cells"]
             if "answer-box" in cell["metadata"].get("tags", []))
Z = [0.0, 1.0, 2.0]   # the box's numbers, also in START (checked below)


def typed(values):
    return "[" + ", ".join(f"{v:.6f}" for v in values) + "]"


def test_the_first_box_of_chapter_1_checks_answers_in_a_running_kernel(kernel_page, tmp_path):
    root = kernel_page.root
    assert 'answer_box("softmax"' in START and 'z="[0, 1, 2]"' in START and 'label="ch1-ab-softmax"' in START
    field, verdict = root.locator(".ab-input"), root.locator(".ab-verdict")

    def answer(text):
        field.fill(text)
        field.press("Enter")   # checks the answer: JupyterLab must leave Enter to the box
        return verdict.inner_text().replace("\u200b", "")

    assert root.locator(".ab-set").inner_text() == "（书中的数）"
    assert "[0, 1, 2]" in root.locator(".ab-question").inner_text()
    assert root.locator(".ab-question .ab-math i").first.inner_text() == "z"     # maths set as in the prose
    assert root.locator(".ab-help code.ab-typed").first.inner_text() == "2/3"   # what to type, marked
    hint = answer("[0, 1/3, 2/3]")                                  # divided by the sum of the scores
    assert hint.startswith("不对") and "直接除以分数之和" in hint, hint
    assert field.get_attribute("aria-invalid") == "true"
    right = answer(typed(labcode.softmax(Z)))
    assert right.startswith("正确！") and "已完成" not in right, right
    assert field.get_attribute("aria-invalid") == "false"

    question = root.locator(".ab-question").inner_text()
    root.locator(".ab-new").click()
    # the first new numbers of the box, as the page's script draws them (run in Node, as the worksheets draw them)
    first = run_page_script(tmp_path, "const b = labAnswerBoxes, id = b.nthVariant('ch1-ab-softmax', 1);\n"
                                      "console.log(JSON.stringify(b.variant('softmax', 'ch1-ab-softmax', id)));")
    named = first["id"]
    assert root.locator(".ab-set").inner_text() == f"（变体 {named}）"            # named, not a link in JupyterLab
    assert root.locator(".ab-set a").count() == 0
    assert root.locator(".ab-question").inner_text() != question
    values, js = root.evaluate("b => [b.answerBox.values, b.answerBox.answer]")
    assert values["z"] != Z and values["z"] == pytest.approx(first["values"]["z"])
    np.testing.assert_allclose(js, labcode.softmax(values["z"]), rtol=1e-12)
    assert answer(typed(labcode.softmax(values["z"]))).startswith("正确！")
