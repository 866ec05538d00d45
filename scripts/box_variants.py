"""The answer boxes' named variants for the instructor's tools: a box's label and a four-digit ID (变体 7F3A) name one
problem, the one the box on the page shows after “换一组数” or at ``…/章节.html#标签:7F3A``.

The problems are drawn, and typed answers judged, by the page's own script run in Node (web/answer_boxes.cjs): the
worksheets and their grading use the code the reader's box runs, with no Python copy to keep in step.
"""
from __future__ import annotations

import atexit
import functools
import json
import re
import shutil
import subprocess
from pathlib import Path

from labcode.practice.problems import KINDS, Problem, ProblemError, check_label

ROOT = Path(__file__).resolve().parents[1]

HARNESS = ROOT / "web" / "answer_boxes.cjs"
PAGE_SCRIPT = ROOT / "labcode" / "widgets" / "static" / "answer_box.page.js"
MISSING = ("练习纸的题目由网页上“动手算”框的脚本出、也由它批改，要有 Node.js 和打包好的脚本：装好 Node.js 后运行"
           " `make assets`。Worksheets need Node.js and the answer boxes' bundle: run `make assets`.")
IDS = 0x10000            # variant IDs 0000 … FFFF
ID_TEXT = re.compile(r"^\s*(?:变体|variant|#)?\s*:?\s*([0-9a-fA-F]{4})\s*$")


def variant_id(text) -> int:
    """The variant ID (0 to 65535) of “7F3A”, “变体 7f3a” or “#7F3A”, or of the number itself."""
    match = ID_TEXT.match(text) if isinstance(text, str) else None
    if match is None:
        if isinstance(text, int) and not isinstance(text, bool) and 0 <= text < IDS:
            return text
        raise ProblemError(f"变体号必须是四位十六进制数（如 \"7F3A\"）或 0 到 65535 的整数，收到 {text!r}")
    return int(match[1], 16)


def variant_text(number) -> str:
    """A variant ID as the box shows it, four upper-case hex digits: 31546 → “7B3A”."""
    return f"{variant_id(number):04X}"


@functools.cache
def _node() -> subprocess.Popen:
    """web/answer_boxes.cjs in Node, started once: a worksheet plan asks it again for each student who needs another
    candidate, and a Node process takes longer to start than to draw thousands of problems."""
    node = subprocess.Popen([shutil.which("node"), str(HARNESS)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, encoding="utf-8")
    atexit.register(_stop, node)
    return node


def _stop(node: subprocess.Popen) -> None:
    """End the Node process (it stops when its input ends) and close its pipes."""
    try:
        node.stdin.close()
        node.wait(timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        node.kill()
        node.wait()
    node.stdout.close()
    node.stderr.close()


def run(requests: list[list], error: type[Exception] = RuntimeError) -> list:
    """The page script's answers to requests of web/answer_boxes.cjs."""
    if shutil.which("node") is None or not PAGE_SCRIPT.exists():
        raise error(MISSING)
    node = _node()
    answers = ""
    if node.poll() is None:
        node.stdin.write(json.dumps(requests, ensure_ascii=False) + "\n")
        node.stdin.flush()
        answers = node.stdout.readline()
    if not answers:   # the script stopped (a request it cannot answer): say why, and start afresh next time
        _node.cache_clear()
        stderr = node.stderr.read()
        _stop(node)
        raise error(f"web/answer_boxes.cjs failed:\n{stderr[-3000:]}")
    return json.loads(answers)


def request(kind: str, label: str, variant) -> list:
    """A checked ["draw", kind, label, ID] request: the kind, the label and the ID are ones a box can have."""
    if kind not in KINDS:
        raise ProblemError(f"kind 必须是 {tuple(KINDS)} 之一，收到 {kind!r}")
    check_label(label)
    return ["draw", kind, label, variant_id(variant)]


def draw(cases, error: type[Exception] = RuntimeError) -> list[Problem]:
    """The problems of (kind, label, variant ID) cases, as the page draws them: values, question texts and answer."""
    requests = [request(*case) for case in cases]
    return [Problem(kind, found["values"], found["texts"], found["answer"])
            for (_, kind, _, _), found in zip(requests, run(requests, error) if requests else [], strict=True)]


def variant(kind: str, label: str, variant) -> Problem:
    """One problem: the box ``label`` of kind ``kind`` at the variant ID ``variant`` (“7F3A” or a number)."""
    return draw([(kind, label, variant)])[0]
