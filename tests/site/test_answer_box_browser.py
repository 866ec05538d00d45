"""Answer boxes on the built static site, in headless Chromium with the network blocked (_ext/answer_box).

Chapter 2 (three boxes: the gradient, one step, the mean-loss denominator) is loaded once for the module, over
HTTP; before each test every box is put back to the book's numbers through its own buttons (checked). The
appendix is opened from file:// to check the solved count across a reload. What the reader types is read by
the page; every answer the page expects is compared with labcode's, for the book's numbers and for new ones.
"""
from __future__ import annotations

import gzip
import html
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import answer_box
import chapter_registry
from box_latex import answer_text
from box_variants import variant, variant_text
from labcode.practice.problems import KINDS, box_problem
from notebook_outputs import book_boxes
from widget_page import DESKTOP, assert_fits_its_column

ROOT = Path(__file__).resolve().parents[2]
PAGE = "book/02_gradient.html"  # the `loaded` and `page` fixtures of conftest.py (tests/widget_page.py)
WIDGET = ".answer-box .ab-controls:not([hidden])"  # a box's controls, shown once its script has run
MARKER = 'class="answer-box"'
# The variant ID the k-th “换一组数” of a box gives (its page's own rule: scripts/box_variants.py draws by these IDs).
NTH_VARIANT = "([label, k]) => labAnswerBoxes.nthVariant(label, k)"
GRADIENT, STEP, MEAN = "ch2-ab-gradient", "ch2-ab-step", "ch2-ab-mean-loss"

# What each box shows and where its controls stand (the verdict and the solved count are left out: they say
# what happened last, and a fresh load has none).
STATE_JS = """() => [...document.querySelectorAll(".answer-box")].map((box) => ({
    id: box.id, variant: box.answerBox.variant, values: box.answerBox.values,
    set: box.querySelector(".ab-set").textContent, question: box.querySelector(".ab-question").textContent,
    label: box.querySelector(".ab-label").textContent, input: box.querySelector(".ab-input").value,
    invalid: box.querySelector(".ab-input").getAttribute("aria-invalid"),
    book: box.querySelector(".ab-book").hidden,
}))"""
# Back to the book's numbers as a reader would: "回到书中的数" (reached through "换一组数" when a verdict is shown).
RESTORE_JS = """() => {
    for (const box of document.querySelectorAll(".answer-box")) {
        const input = box.querySelector(".ab-input");
        if (box.answerBox.variant === null && (input.value || input.hasAttribute("aria-invalid"))) {
            box.querySelector(".ab-new").click();
        }
        if (box.answerBox.variant !== null) box.querySelector(".ab-book").click();
    }
    document.activeElement.blur();
    window.scrollTo(0, 0);
}"""


def restorable_state(page):
    return {"boxes": page.evaluate(STATE_JS)}


def answer(page, label, text):
    """Type `text` into the box and press Enter; returns (verdict, aria-invalid)."""
    field = page.locator(f"#{label} .ab-input")
    field.fill(text)
    field.press("Enter")
    verdict = page.locator(f"#{label} .ab-verdict").inner_text().replace("\u200b", "")
    return verdict, field.get_attribute("aria-invalid")


def labcode_answer(kind, values):
    """The box's answer for these numbers, computed in Python with labcode (labcode.practice.problems)."""
    return np.ravel(KINDS[kind].answer(**values))


def as_typed(values):
    return "[" + ", ".join(f"{v:.6f}" for v in values) + "]" if len(values) > 1 else f"{values[0]:.6f}"


# --- the static pages -----------------------------------------------------------------------------------

def test_only_pages_with_a_box_load_its_small_script(built_site):
    pages = {p.relative_to(built_site).as_posix(): p.read_text(encoding="utf-8") for p in built_site.rglob("*.html")}
    with_box = {path for path, text in pages.items() if 'class="answer-box"' in text}
    assert {c.page for c in chapter_registry.chapters() if c.answer_boxes} <= with_box
    for path, text in pages.items():
        assert (f"_static/{answer_box.SCRIPT}" in text) == (path in with_box), path
        assert (f"_static/{answer_box.STYLE}" in text) == (path in with_box), path
        # The box's code cell shows a widget in the notebook; its model (with the whole _esm) stays out of the page.
        state = re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', text, re.S)
        models = json.loads(state[1])["state"].values() if state else []
        assert not any("spec" in model["state"] for model in models), f"{path} embeds an answer box's widget model"
    appendix = pages["book/appendix.html"]                         # its one widget is the box: no widget scripts
    assert "widget-state+json" not in appendix and "widget-loader" not in appendix and "embed-amd" not in appendix
    weight = sum(len(gzip.compress((built_site / "_static" / name).read_bytes()))
                 for name in (answer_box.SCRIPT, answer_box.STYLE))
    # 15.9 KB before the reader learnt "。" as a point, the domain messages and the maths face; 17.6 KB after;
    # 14.6 KB bundled by esbuild (no comments, only the maths the boxes use), with variants and formulas; 15.3 KB
    # before, 16.1 KB after chapter 5's named slips, draws that keep slips apart and the fold's 书中的数
    assert weight < 16_500, f"the answer boxes add {weight} bytes (gzip) to a page"


def test_the_page_shows_the_books_numbers_and_their_labcode_answer(page, built_site):
    source = (built_site / PAGE).read_text(encoding="utf-8")
    for box in page.fresh["boxes"]:
        written = re.search(rf'<p class="ab-question" id="{box["id"]}-question">(.*?)</p>', source).group(1)
        assert box["question"] == html.unescape(re.sub(r"<[^>]+>", "", written))  # the script writes the same text
        assert box["set"] == "（书中的数）" and box["book"] and box["variant"] is None
        kind = page.locator(f"#{box['id']}").evaluate("b => JSON.parse(b.dataset.answerBox).kind")
        js = np.ravel(page.locator(f"#{box['id']}").evaluate("b => b.answerBox.answer"))
        np.testing.assert_allclose(js, labcode_answer(kind, box["values"]), rtol=1e-12, atol=1e-15)
    field = page.locator(f"#{GRADIENT} .ab-input")
    assert field.evaluate("e => e.labels[0].textContent") == "梯度 g"
    assert "相差不超过 0.001 就算对" in page.locator(f"#{GRADIENT} .ab-help").inner_text()   # the tolerance, stated
    # Maths as in the prose beside the box: variables italic, ln upright, in a serif face where l and I differ.
    maths = page.locator(f"#{STEP} .ab-question").evaluate("""q => ({
        italic: [...q.querySelectorAll(".ab-math i")].map((i) => [i.textContent, getComputedStyle(i).fontStyle]),
        upright: [...q.querySelectorAll(".ab-math")].map((m) => m.textContent).join(" "),
        face: getComputedStyle(q.querySelector(".ab-math")).fontFamily, prose: getComputedStyle(q).fontFamily })""")
    assert ["z", "italic"] in maths["italic"] and ["η", "italic"] in maths["italic"], maths
    assert "ln 2" in maths["upright"] and not any("l" in text for text, _ in maths["italic"]), maths
    assert maths["face"].endswith(" serif") and maths["face"] != maths["prose"], maths


RIGHT = [
    (GRADIENT, "[4/7, -5/7, 1/7]"), (GRADIENT, "4/7, -5/7, 1/7"), (GRADIENT, "(4/7，−5/7，1/7)"),
    (GRADIENT, "［４／７，－５／７，１／７］"), (GRADIENT, "【4/7、-5/7、1/7】"), (GRADIENT, "[0.5714 -0.7143 0.1429]"),
    (GRADIENT, "g = [0.5714, -0.7143, 0.1429]"), (GRADIENT, "[2/3.5, 1/3.5 - 1, 0.5/3.5]"),
    (GRADIENT, "[exp(ln 4)/7, −5/7, 1/7]"), (GRADIENT, " [ 4 / 7 , - 5 / 7 , 1 / 7 ] "),
    (STEP, "[ln 2 - 2/35, 1/14, -ln 2 - 1/70]"), (STEP, "[ln2−2/35，1/14，−ln2−1/70]"),
    (STEP, "[0.636, 0.0714, -0.7074]"), (STEP, "[log(2) - 0.1*4/7, 0.1*5/7, -log(2) - 0.1/7]"),
    (MEAN, "2"), (MEAN, "２"), (MEAN, "10/5"), (MEAN, "2.0"), (MEAN, "ln(e^2)"), (MEAN, "（1＋1）"),
    (MEAN, "sqrt(4)"), (MEAN, "平均损失 = 2"), (MEAN, "(sqrt 2)²"),
    (MEAN, "2。0"), (MEAN, "２。０。"), (GRADIENT, "[0。5714, -0。7143, 0。1429]"),   # "。" typed for the point
]


def test_every_documented_way_of_writing_the_right_answer_is_accepted(page):
    for label, text in RIGHT:
        verdict, invalid = answer(page, label, text)
        assert verdict.startswith("正确！"), (text, verdict)
        assert invalid == "false", text


WRONG = [
    (MEAN, "1.667", ["分母把被忽略的位置也算进去了"]), (MEAN, "10/6", ["分母把被忽略的位置也算进去了"]),
    (MEAN, "10", ["这是总和"]), (MEAN, "2.0833", ["先在每篇里平均"]), (MEAN, "1.99", ["很接近", "出在算术上"]),
    (GRADIENT, "[4/7, 2/7, 1/7]", ["编号为 1 的分量不对", "忘了减去"]),
    (GRADIENT, "[-4/7, 5/7, -1/7]", ["符号反了"]),
    (GRADIENT, "[-3/7, 2/7, 1/7]", ["编号为 0、1 的分量不对", "放错了位置"]),
    (GRADIENT, "[4/7, -5/7, 0.15]", ["编号为 2 的分量不对，其余分量都对", "很接近", "多保留几位小数"]),
    (STEP, "[ln 2 + 2/35, -1/14, -ln 2 + 1/70]", ["方向反了"]),
    (STEP, "[-2/35, 1/14, -1/70]", ["这是更新量"]),
    (STEP, "[ln 2 - 4/7, 5/7, -ln 2 - 1/7]", ["忘了乘学习率"]),
    (GRADIENT, "[1, 2]", ["答案应有 3 个分量，读到的是 2 个：分量之间用逗号隔开"]),
    (GRADIENT, "[4/7 -5/7]", ["答案应有 3 个分量，读到的是 2 个"]),          # spaces separate components
    (GRADIENT, "0.5714 -0.7143", ["答案应有 3 个分量，读到的是 2 个"]),
    (MEAN, "[1, 2]", ["这里要一个数，读到的是 2 个"]),
    (GRADIENT, "[4/7, x, 1/7]", ["没读懂", "不认识“x”（可以用 ln、log、exp、sqrt、e、π）"]),
    (MEAN, "In(e^2)", ["“In”开头是字母 I；自然对数写作 ln，开头是小写字母 L（l）"]),
    (MEAN, "#", ["没读懂：不认识符号“#”。"]),
    (GRADIENT, "[1, 2]+[3, -1, 0]", ["要在每个分量里加", "[1+3, 2-1]"]),
    (GRADIENT, "[0.57, -0.71, 0.14]", ["每个分量都差了一点", "很接近"]),
    (GRADIENT, "[4/7, (1, 1/7]", ["没读懂", "括号没有配对"]),
    (GRADIENT, "(4 1 2)", ["没读懂", "分量之间用逗号隔开"]),
    (MEAN, "3 1e2", ["没读懂：“1e2”前面少了运算符或逗号。"]),      # the number as typed, not as read (100)
    (MEAN, "0.5.5", ["没读懂：“.5”前面少了运算符或逗号。"]),
    (MEAN, "ln 0", ["ln 只对大于 0 的数有定义，这里 ln 的参数是 0"]),
    (MEAN, "ln(-1)", ["ln 只对大于 0 的数有定义，这里 ln 的参数是 −1"]), (MEAN, "2/0", ["除数是 0"]),
    (MEAN, "200%", ["不是概率，不写成百分数"]),                    # a loss is no percentage
    (GRADIENT, "[1, 2, 3]", ["每个分量都不对"]),
]


def test_wrong_answers_are_rejected_with_the_matching_hint(page):
    for label, text, expected in WRONG:
        verdict, invalid = answer(page, label, text)
        assert invalid == "true", text
        assert not verdict.startswith("正确"), text
        for words in expected:
            assert words in verdict, (text, verdict)
    verdict, _ = answer(page, MEAN, "3")
    assert verdict == "不对。"                                      # no slip it could match: no hint made up
    verdict, invalid = answer(page, MEAN, "")
    assert verdict == "还没有写答案。" and invalid == "true"           # nothing was read, so no 没读懂


def test_the_verdict_is_announced_politely(page):
    region = page.locator(f"#{MEAN} .ab-verdict")
    assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"
    verdict, invalid = answer(page, MEAN, "10/5")
    assert verdict.startswith("正确！") and invalid == "false"
    # The solved count is said to screen readers with the verdict, but shown only once, on the progress line.
    said = region.evaluate("r => r.textContent")
    hidden = region.locator(".ab-hidden")
    assert said == "正确！答案是 2。" + hidden.text_content() and hidden.text_content().startswith("本章已完成"), said
    size = hidden.bounding_box()
    assert size["width"] <= 1 and size["height"] <= 1, size
    assert "本章已完成" in page.locator(f"#{MEAN} .ab-progress").inner_text()
    said = []
    for _ in range(2):                                              # the same slip twice is announced twice
        answer(page, MEAN, "10")
        said.append(region.text_content())
    assert said[0] != said[1] and said[0].replace("\u200b", "") == said[1].replace("\u200b", "")


def test_new_numbers_are_drawn_from_a_seed_and_computed_by_the_widgets_maths(page):
    for label in (GRADIENT, STEP, MEAN):
        box = page.locator(f"#{label}")
        kind = box.evaluate("b => JSON.parse(b.dataset.answerBox).kind")
        questions, drawn = [box.locator(".ab-question").inner_text()], []
        for k in (1, 2, 3):
            box.locator(".ab-new").click()
            named = variant_text(page.evaluate(NTH_VARIANT, [label, k]))
            assert box.locator(".ab-set").inner_text() == f"（变体 {named}）"
            assert box.locator(".ab-set a").get_attribute("href") == f"#{label}:{named}"   # a link to share
            questions.append(box.locator(".ab-question").inner_text())
            values, texts, js = box.evaluate("b => [b.answerBox.values, b.answerBox.texts, b.answerBox.answer]")
            twin = variant(kind, label, named)                       # the worksheets draw the same problem
            assert texts == twin.texts
            np.testing.assert_allclose(np.ravel(twin.answer), np.ravel(js), rtol=1e-12, atol=1e-12)
            expected = labcode_answer(kind, values)
            np.testing.assert_allclose(np.ravel(js), expected, rtol=1e-12, atol=1e-12)
            verdict, invalid = answer(page, label, as_typed(expected))
            assert verdict.startswith("正确！") and invalid == "false", (label, k, verdict)
            drawn.append(values)
        assert len(set(questions)) == 4, f"{label}: the question did not change with the numbers: {questions}"
        box.locator(".ab-book").click()
        assert box.locator(".ab-question").inner_text() == questions[0]
        box.locator(".ab-new").click()                               # seeded: the same first new set again
        assert box.evaluate("b => b.answerBox.values") == drawn[0]


# The title of the answer fold that follows a box (the worked answer for the book's numbers).
FOLD_TITLE_JS = """(box) => [...document.querySelectorAll("details.answer-fold summary")]
    .find((s) => box.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING).textContent"""


def test_the_answer_fold_says_it_works_the_books_numbers_while_a_variant_is_shown(page):
    """After “换一组数” the fold below the box still works the book's numbers: its title says so, and loses the
    note again when the box is back at the book's numbers."""
    box = page.locator(f"#{GRADIENT}")
    assert box.evaluate(FOLD_TITLE_JS) == "看答案"
    box.locator(".ab-new").click()
    assert box.evaluate(FOLD_TITLE_JS) == "看答案（书中的数）"
    box.locator(".ab-book").click()
    assert box.evaluate(FOLD_TITLE_JS) == "看答案"


def test_every_kind_of_the_page_script_agrees_with_labcode(page):
    """Each kind the page knows draws numbers (seeded), and solves them as labcode does: the same kinds as
    problems.py, every placeholder of the question filled. softmax and loss draw z = ln a (a in 1/2…6), as the
    book's [ln 2, 0, −ln 2]: e^z, S and p are fractions a reader can compute by hand."""
    drawn = page.evaluate("""(seeds) => Object.keys(window.labAnswerBoxes.kinds).map((name) => [name,
        seeds.map((seed) => { const d = labAnswerBoxes.variant(name, "ch9-ab-x", seed);
                              return [d.values, d.texts, d.answer]; })])""", list(range(1, 9)))
    assert sorted(name for name, _ in drawn) == sorted(KINDS)
    for name, cases in drawn:
        for values, texts, js in cases:
            np.testing.assert_allclose(np.ravel(js), labcode_answer(name, values), rtol=1e-12, atol=1e-12,
                                       err_msg=f"{name} {values}")
            question = re.sub(r"\{(\w+)\}", lambda m, shown=texts: shown[m.group(1)], KINDS[name].question)
            assert "undefined" not in question and "NaN" not in question, question
            if name in ("softmax", "loss"):
                weights = np.exp(values["z"])
                np.testing.assert_allclose(2 * weights, np.round(2 * weights), atol=1e-12, err_msg=str(values))
                assert "ln" in texts["z"] or set(weights) <= {1.0}, texts


def test_the_loss_box_explains_ln_a_over_b_without_brackets(page):
    hints = page.evaluate("""() => window.labAnswerBoxes.kinds.loss.mistakes(
        { z: [Math.log(2), 0, -Math.log(2)], y: 1 }).map(([value, hint]) => [value, hint])""")
    value, hint = next((v, h) for v, h in hints if "请加括号" in h)
    assert value == pytest.approx(math.log(7) / 2) and "`ln 7/2` 读作 `(ln 7)/2`" in hint
    three = page.evaluate("""() => window.labAnswerBoxes.kinds.loss.mistakes(
        { z: [0, 0, 0], y: 1 }).map(([, hint]) => hint)""")     # 1/p_y = 3: nothing to bracket
    assert not any("请加括号" in h for h in three)


def test_the_page_reads_numbers_as_a_person_writes_them(page):
    expected = {"ln(7/2)": math.log(3.5), "ln 7/2": math.log(7) / 2, "e^2": math.e ** 2,
                "exp(1)/(1+e)": math.e / (1 + math.e), "2e": 2 * math.e, "-ln 2": -math.log(2), "1e-3": 1e-3,
                "50%": 0.5, "2**3": 8.0, "π/2": math.pi / 2, "0.5。": 0.5, "e²": math.e ** 2, "2³": 8.0,
                "1。2528": 1.2528, "１。２": 1.2, "1/5。": 0.2}
    read = page.evaluate("texts => texts.map((t) => labAnswerBoxes.read(t, 1))", list(expected))
    for (text, value), got in zip(expected.items(), read, strict=True):
        assert got == [pytest.approx(value, rel=1e-15)], text
    assert page.evaluate("labAnswerBoxes.read('[ 0.57 -0.71  0.14]', 3)") == [0.57, -0.71, 0.14]  # NumPy's print
    assert page.evaluate("() => { try { labAnswerBoxes.read('alert(1)', 1); } catch (e) { return e.message; } }") \
        == "不认识“alert”（可以用 `ln`、`log`、`exp`、`sqrt`、`e`、`π`）"


def test_keyboard_alone_answers_draws_and_goes_back(page):
    box = page.locator(f"#{GRADIENT}")
    box.locator(".ab-input").focus()
    page.keyboard.type("[4/7, -5/7, 1/7]")
    page.keyboard.press("Enter")
    assert box.locator(".ab-verdict").inner_text().startswith("正确！")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "ab-check"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "ab-new"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"  # focus is visible
    page.keyboard.press("Space")
    assert box.evaluate("b => b.answerBox.variant") == variant_text(page.evaluate(NTH_VARIANT, [GRADIENT, 1]))
    assert page.evaluate("document.activeElement.className") == "ab-input"   # straight on to the new question
    for _ in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "ab-book"
    page.keyboard.press("Enter")
    assert box.evaluate("b => b.answerBox.variant") is None


def test_the_boxes_fit_a_phone(page):
    try:
        page.set_viewport_size({"width": 360, "height": 740})
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        for label in (GRADIENT, STEP, MEAN):
            box = page.locator(f"#{label}")
            box.scroll_into_view_if_needed()
            assert_fits_its_column(box, 360)
            assert box.locator(".ab-input").bounding_box()["width"] > 150
            for button in box.locator("button:visible").all():
                edge = button.bounding_box()
                assert edge["x"] >= 0 and edge["x"] + edge["width"] <= 360, label
    finally:
        page.set_viewport_size(DESKTOP)


def test_the_solved_count_survives_a_reload_from_file(chromium, built_site):
    """From file:// with the network blocked (a learner's own copy): the appendix's one box, solved, stays
    solved after a reload; only the list of solved boxes is stored, in the browser."""
    context = chromium.new_context(viewport=DESKTOP)
    tab, external = context.new_page(), []
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:", "blob:"))
                  else (external.append(r.request.url), r.abort()))
    try:
        tab.goto((built_site / "book" / "appendix.html").as_uri())
        tab.locator(WIDGET).first.wait_for()
        progress = tab.locator(".answer-box .ab-progress")
        assert progress.inner_text() == "本附录已完成 0/1"
        verdict, invalid = answer(tab, "app-ab-mse-gradient", "[-40/3, 16/3]")
        assert verdict.startswith("正确！") and "本附录已完成 1/1" in verdict and invalid == "false"
        tab.reload()
        tab.locator(WIDGET).first.wait_for()
        assert progress.inner_text() == "本附录已完成 1/1"
        ours = [[key, value] for key, value in tab.evaluate("Object.entries(localStorage)")
                if key.startswith("lc-answer-boxes:")]            # (the theme keeps its colour mode there too)
        assert ours == [[f"lc-answer-boxes:{tab.evaluate('location.pathname')}", '["app-ab-mse-gradient"]']]
        assert external == []
    finally:
        context.close()


# --- every form the answer keys print; variants by name; input and storage that must not break a box --------

def key_forms():
    """(kind, the book's numbers, the exact form) of every box in the book, as its answer key prints it
    (answer_text: “ln(7/2) ≈ 1.2528”, “[4/7, −5/7, 1/7] ≈ …”, “10/5 = 2”), and the whole printed line."""
    found = []
    for _, kind, options in book_boxes():
        box = box_problem(kind, options["label"], {k: v for k, v in options.items() if k != "label"})
        printed = answer_text(box.answer, box.exact)
        exact = re.split(" [≈=] ", printed)[0]
        found += [(kind, box.values, printed, box.tolerance),
                  *([(kind, box.values, exact, box.tolerance)] if exact and exact[0] != "≈" else [])]
    return found


def test_every_form_an_answer_key_prints_is_accepted(page):
    forms = key_forms()
    assert len(forms) >= 14 and any("/(1 + e + e^2)" in text for _, _, text, _ in forms), forms
    verdicts = page.evaluate("""(forms) => forms.map(([kind, values, text, tolerance]) =>
        labAnswerBoxes.judge(kind, values, text, tolerance).message)""", forms)
    for (kind, _, text, _), verdict in zip(forms, verdicts, strict=True):
        assert verdict.startswith("正确！"), (kind, text, verdict)
    for label, text in ((GRADIENT, "[4,-5,1]/7"), (GRADIENT, "(1/7)·[4,-5,1]"), (GRADIENT, "[4, −5, 1]／7"),
                        (GRADIENT, "1/7 * [4, -5, 1]"), (STEP, "[ln 2 − 2/35, 1/14, −ln 2 − 1/70]"),
                        (MEAN, "10/5 = 2")):
        verdict, invalid = answer(page, label, text)
        assert verdict.startswith("正确！") and invalid == "false", (text, verdict)


def test_a_variant_is_opened_by_its_id_typed_or_linked(page):
    box = page.locator(f"#{GRADIENT}")
    verdict, _ = answer(page, GRADIENT, "变体 7f3a")
    assert "变体 7F3A" in verdict and box.locator(".ab-set").inner_text() == "（变体 7F3A）"
    shown, twin = box.evaluate("b => b.answerBox.values"), variant("gradient", GRADIENT, "7F3A").values
    assert shown["y"] == twin["y"] and shown["z"] == pytest.approx(twin["z"], rel=1e-15)
    assert box.locator(".ab-input").input_value() == ""
    right = as_typed(np.ravel(variant("gradient", GRADIENT, "7F3A").answer))
    assert answer(page, GRADIENT, right)[0].startswith("正确！")
    page.evaluate(f"location.hash = '#{STEP}:0042'")                  # a link to a variant, as a reader shares it
    page.wait_for_function(f"document.getElementById('{STEP}').answerBox.variant === '0042'")
    assert page.locator(f"#{STEP}").evaluate("b => b.answerBox.texts") == variant("step", STEP, "0042").texts
    page.evaluate("history.replaceState(null, '', location.pathname)")


def test_a_box_always_answers_and_never_keeps_a_stale_verdict(page):
    field, verdict = page.locator(f"#{MEAN} .ab-input"), page.locator(f"#{MEAN} .ab-verdict")
    for text, said in (("(" * 5000 + "1" + ")" * 5000, "答案太长了"), ("(" * 60 + "2" + ")" * 60, "括号套得太深"),
                       ("-" * 199 + "2", "不对"), ("1" * 200_000, "答案太长了"), ("(-8)^(1/3)", "负数的非整数次方"),
                       ("exp(1000)-exp(1000)", "算不出确定的值"), ("2\u200b", "U+200B（看不见的字符：零宽空格"),
                       ("\u202e2", "U+202E"), ("2\x00", "U+0000"), ("125.2763％", "不写成百分数")):
        assert answer(page, MEAN, "2")[0].startswith("正确！")
        got, invalid = answer(page, MEAN, text)
        assert said in got and invalid == "true" and not got.startswith("正确"), (text[:20], got)
        assert len(verdict.text_content()) < 200, text[:20]
    field.fill("")


# A seeded fuzzer of what a reader may type: numbers, operators, brackets (ASCII and full width), names, marks
# a phone keyboard gives, invisible and astral characters, and long runs of any of them.
FUZZ_JS = r"""([seed, count]) => {
    let a = seed >>> 0;
    const rand = () => { a = (a + 0x6d2b79f5) >>> 0; let t = Math.imul(a ^ (a >>> 15), a | 1);
                         t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
    const pieces = ["0", "1", "7", "2.5", "1e308", "1e-9", ".", "。", "-", "−", "+", "*", "·", "/", "^", "**", "%",
        "％", "(", ")", "[", "]", "（", "）", "［", "］", ",", "，", "、", ";", " ", "　", "e", "π", "pi", "ln", "In",
        "log", "exp", "sqrt", "x", "=", "≈", "²", "\u200b", "\u0000", "\u202e", "\ufeff", "😀", "𠀀", "\n",
        "<b>", "$", "`", "变体", "7F3A", "#", "ln ", "2^", "-("];
    const texts = [];
    for (let i = 0; i < count; i++) {
        let text = "";
        for (let n = Math.floor(rand() * 12); n >= 0; n--) {
            const piece = pieces[Math.floor(rand() * pieces.length)];
            text += rand() < 0.05 ? piece.repeat(1 + Math.floor(rand() * 3000)) : piece;
        }
        if (rand() < 0.1) {   // nested deep, brackets balanced
            const k = Math.floor(rand() * 5000);
            text = "(".repeat(k) + text + ")".repeat(k);
        }
        texts.push(text);
    }
    const boxes = [...document.querySelectorAll(".answer-box")].map((b) => [JSON.parse(b.dataset.answerBox), b]);
    const bad = [];
    for (const text of texts) {
        for (const [spec] of boxes) {
            let verdict;
            try { verdict = labAnswerBoxes.judge(spec.kind, spec.values, text, spec.tolerance); }
            catch (error) { bad.push([text.slice(0, 40), String(error)]); continue; }
            if (typeof verdict.message !== "string" || !verdict.message || verdict.message.length > 300
                || /undefined|NaN|null/.test(verdict.message)) bad.push([text.slice(0, 40), verdict.message]);
        }
    }
    return { count: texts.length * boxes.length, bad };
}"""


def test_the_reader_answers_every_string_a_fuzzer_types(page):
    """3,000 seeded strings in each of the page's boxes, through the page's own judge: a verdict of a few words
    every time, never an exception, “undefined” or “NaN”; then 12 deeply nested ones through the form itself, each
    one replacing the verdict before it."""
    result = page.evaluate(FUZZ_JS, [2026, 3000])
    assert result["count"] == 9000 and result["bad"] == [], result["bad"][:5]
    texts = page.evaluate("""() => { const out = []; let a = 7;
        for (let i = 0; i < 12; i++) { a = (a * 1103515245 + 12345) % 2147483648;
            out.push("(".repeat(a % 3000) + String(a) + ")".repeat(a % 3000) + "％　\u200b".repeat(a % 5)); }
        return out; }""")
    for text in texts:
        page.locator(f"#{GRADIENT} .ab-verdict").evaluate("v => { v.textContent = 'STALE'; }")
        got, _ = answer(page, GRADIENT, text)
        assert got and "STALE" not in got, text[:30]


JUNK = ["5", "1e308", "{}", "true", '"app-ab-mse-gradient"', '["junk", "app-ab-mse-gradient", {"a": 1}]']


def test_junk_in_storage_never_breaks_the_box_nor_is_kept(chromium, built_site):
    """Whatever the page's progress key holds (a number, an object, a string, junk around a label), the box works,
    counts only its own labels, and writes back only those when the reader solves it."""
    context = chromium.new_context(viewport=DESKTOP)
    tab, errors = context.new_page(), []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    key = "'lc-answer-boxes:' + location.pathname"
    try:
        tab.goto((built_site / "book" / "appendix.html").as_uri())
        for stored in JUNK:
            tab.evaluate(f"(v) => localStorage.setItem({key}, v)", stored)
            tab.reload()
            tab.locator(WIDGET).first.wait_for()
            kept = 1 if stored.startswith("[") else 0
            assert tab.locator(".answer-box .ab-progress").inner_text() == f"本附录已完成 {kept}/1", stored
            verdict, invalid = answer(tab, "app-ab-mse-gradient", "[-40/3, 16/3]")
            assert verdict.startswith("正确！") and invalid == "false", stored
            assert tab.evaluate(f"localStorage.getItem({key})") == '["app-ab-mse-gradient"]', stored
        assert errors == []
    finally:
        context.close()
