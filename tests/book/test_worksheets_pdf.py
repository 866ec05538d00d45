"""Seeded worksheets and keys as PDFs (scripts/worksheets.py): three students, chapters 1 and 2, built once for the
module with xelatex. Every problem and every answer is checked against the site's own page script, run in Node
(its draws and maths.js, its reader), not against the Python that wrote them."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

import build_pdf
from conftest import IN_CI, require_tool
from handouts import flat, pages, typeset
from labcode.practice.problems import KINDS
from page_script import run_page_script

ROOT = Path(__file__).resolve().parents[2]
SALT = "pdf-test-salt-2026"
STUDENTS = [("S-001", "张三"), ("S-002", "李四"), ("S-003", "")]
SECTIONS = {"ch1-ab-softmax": "第 1 章 · 1.3 节“Softmax：先取指数，再归一化”",
            "ch1-ab-loss": "第 1 章 · 1.6 节“从概率到损失”",
            "ch2-ab-gradient": "第 2 章 · 2.2 节“逐个坐标求导”",
            "ch2-ab-step": "第 2 章 · 2.3 节“梯度下降的一步”",
            "ch2-ab-mean-loss": "第 2 章 · 2.9 节“分母：到底除以几”"}


# What the page makes of a row of key.csv: its draw for the variant (values, texts, maths.js's answer), and the
# exact and the decimal answer as the box's reader reads them.
PAGE_VIEW = """console.log(JSON.stringify(cases.map(([kind, label, id, exact, decimal]) => {
  const drawn = labAnswerBoxes.variant(kind, label, id), n = [drawn.answer].flat().length;
  return { ...drawn, exact: labAnswerBoxes.read(exact, n), decimal: labAnswerBoxes.read(decimal, n) };
})));
"""


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "worksheets.py"), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The sheets, keys and key.csv of three students, and the page script's view of every row of key.csv."""
    for tool in ("xelatex", "latexmk", "xdvipdfmx", "pdftotext", "pdffonts"):
        require_tool(tool, "sudo apt-get install " + " ".join(build_pdf._debian_pdf_packages()))
    missing = build_pdf.missing_packages()
    if missing:
        (pytest.fail if IN_CI else pytest.skip)(build_pdf.install_hint(missing))
    root = tmp_path_factory.mktemp("worksheets")
    roster = root / "roster.csv"
    roster.write_text("学号,姓名\n" + "".join(f"{s},{n}\n" for s, n in STUDENTS), encoding="utf-8")
    proc = run(roster, "--chapters", "1,2", "--out", root / "out", "--salt", SALT, "--site", "https://example.org/lm/")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with (root / "out" / "private" / "key.csv").open(encoding="utf-8-sig", newline="") as source:
        key = list(csv.DictReader(source))
    cases = [[row["kind"], row["box"], row["variant"], row["exact"], row["decimal"]] for row in key]
    page = run_page_script(root, f"const cases = {json.dumps(cases, ensure_ascii=False)};\n" + PAGE_VIEW)
    return {"root": root, "roster": roster, "out": root / "out", "key": key, "page": page}


def four_decimals(answer) -> list[str]:
    """Each component of an answer as a key shows it: 4 decimals (0.5882), fewer when they end in 0, or an integer."""
    values = answer if isinstance(answer, list) else [answer]
    return [(str(int(v)) if float(v).is_integer() else f"{v:.4f}".rstrip("0")).replace("-", "−") for v in values]


def sheet_text(pdf: Path) -> str:
    return flat("".join(pages(pdf)))


def test_each_student_gets_a_sheet_and_the_instructor_the_keys_apart(built):
    out = built["out"]
    students = [s for s, _ in STUDENTS]
    assert sorted(p.name for p in (out / "worksheets").iterdir()) == [f"{s}.pdf" for s in students]
    assert sorted(p.name for p in (out / "private" / "keys").iterdir()) == [f"{s}.pdf" for s in students]
    assert sorted(p.name for p in out.iterdir()) == ["private", "worksheets", "worksheets.pdf"]
    assert sorted(p.name for p in (out / "private").iterdir()) == ["key.csv", "keys", "keys.pdf"]
    # The printout of every sheet: each student's sheet starts on a front page (odd page number).
    whole = pages(out / "worksheets.pdf")
    starts = [k + 1 for k, page in enumerate(whole) if "练习纸" in page and "第 1 题" in page]
    assert len(starts) == len(students) and all(k % 2 == 1 for k in starts), starts
    for pdf in [*out.glob("worksheets/*.pdf"), *out.glob("private/keys/*.pdf")]:
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        assert all(line.split()[-5] == "yes" for line in fonts.splitlines()[2:]), fonts    # every font embedded
        assert "Noto" in fonts and "LatinModernMath" in fonts                              # the handouts' fonts


def test_a_sheet_shows_its_student_and_each_problem_as_the_page_draws_it(built):
    """Whose sheet it is on every page, then each problem: its number, the box it comes from (chapter and section,
    as the site numbers it), its variant ID and the question with the numbers of that variant on the site; no
    answer."""
    for student, name in STUDENTS:
        text = sheet_text(built["out"] / "worksheets" / f"{student}.pdf")
        rows = [(row, page) for row, page in zip(built["key"], built["page"], strict=True) if row["student"] == student]
        assert flat(f"学号 {student} {name}") in text and "变体7F3A" in text       # and how to open a variant
        for kind in ("worksheets", "private/keys"):                                     # in every page's header
            for page in pages(built["out"] / kind / f"{student}.pdf"):
                assert flat(f"学号 {student} {name}") in flat(page.strip().splitlines()[0]), page[:200]
        at = 0
        for row, page in rows:
            head = flat(f"第 {row['problem']} 题 {SECTIONS[row['box']]}")
            found = text.find(head, at)
            assert found >= 0, (student, head)
            at = found
            assert flat(f"变体 {row['variant']}") in text[found:found + len(head) + 12]
            for value in page["texts"].values():
                assert flat(typeset(value.replace("$", ""))) in text, (row["box"], value)
            assert not any(flat(shown) in text for shown in four_decimals(page["answer"]) if len(shown) > 5)
        assert "答案：" not in text and "容差" not in text and "≈" not in text


def test_each_key_answer_is_the_pages_and_every_variant_differs_between_students(built):
    """key.csv recomputed by the page script: the variant's answer from maths.js, the exact and the decimal answer
    read by the box's reader, equal to it; the box's tolerance. No two students share a problem of a box."""
    for row, page in zip(built["key"], built["page"], strict=True):
        assert page["id"] == row["variant"]
        answer = [page["answer"]] if not isinstance(page["answer"], list) else page["answer"]
        assert page["exact"] == pytest.approx(answer, rel=1e-9, abs=1e-12), row
        assert page["decimal"] == pytest.approx(answer, abs=5e-7), row
        assert float(row["tolerance"]) == KINDS[row["kind"]].tolerance
    for box in SECTIONS:
        problems = [json.dumps(page["texts"], sort_keys=True) for row, page in zip(built["key"], built["page"],
                                                                                   strict=True) if row["box"] == box]
        assert len(problems) == len(STUDENTS) == len(set(problems)), box
    assert [row["problem"] for row in built["key"]] == [str(k) for _ in STUDENTS for k in range(1, 6)]


def test_a_key_prints_each_answer_the_page_computes(built):
    for student, _ in STUDENTS:
        text = sheet_text(built["out"] / "private" / "keys" / f"{student}.pdf")
        assert flat(f"学号 {student}") in text and "只给老师" in text
        for row, page in zip(built["key"], built["page"], strict=True):
            if row["student"] != student:
                continue
            assert flat(f"第 {row['problem']} 题 {SECTIONS[row['box']]} 变体 {row['variant']}") in text
            shown = four_decimals(page["answer"])
            assert all(flat(s) in text for s in shown), (row["box"], shown)
            assert flat(f"容差 {row['tolerance']}") in text


def test_one_students_sheet_is_made_again_from_the_roster_and_the_salt_alone(built):
    again = built["root"] / "again"
    proc = run(built["roster"], "--chapters", "1,2", "--out", again, "--salt", SALT, "--only", "S-002",
               "--site", "https://example.org/lm/")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.relative_to(again).as_posix() for p in again.rglob("*.pdf")) == [
        "private/keys/S-002.pdf", "worksheets/S-002.pdf"]
    for part in ("worksheets/S-002.pdf", "private/keys/S-002.pdf"):
        assert pages(again / part) == pages(built["out"] / part), part
