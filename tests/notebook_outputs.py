"""What a page of the book shows a reader: its prose and formulas, and a notebook's stored outputs (printed text,
numbers, glued values) and answer boxes."""
from __future__ import annotations

import ast
import functools
import json
import re
from pathlib import Path

BOOK = Path(__file__).resolve().parents[1] / "book"
# labcode.glue stores a float with 12 significant digits: a glued value matches its recomputation to this.
GLUED_REL = 1e-11
# 29,502 and 29502 are the same number: the book prints counts with thousands separators.
NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+(?:e[-+]?\d+)?")


@functools.cache
def load(notebook: str) -> dict:
    """The stored notebook `book/<notebook>` as JSON (do not change it)."""
    return json.loads((BOOK / notebook).read_text(encoding="utf-8"))


def printed_text(notebook: str) -> str:
    """Everything the notebook prints or glues, as one string."""
    texts = []
    for cell in load(notebook)["cells"]:
        for out in cell.get("outputs", []):
            texts.append("".join(out.get("text", "")))
            texts += ["".join(v) for k, v in out.get("data", {}).items() if k.endswith("text/plain")]
    return "\n".join(texts)


@functools.cache
def output_numbers(notebook: str) -> list[tuple[float, int]]:
    """All numbers printed or glued in the notebook's stored outputs, with the decimals they were shown with."""
    found = []
    for token in NUMBER.findall(printed_text(notebook)):
        decimals = len(token.split(".")[1].split("e")[0]) if "." in token else 0
        found.append((float(token.replace(",", "")), decimals))
    return found


def shown(numbers, value, decimals) -> bool:
    """Is `value` shown with at least `decimals` decimals (rounded) somewhere?"""
    return any(d >= decimals and abs(x - value) <= 0.5 * 10 ** -d + 1e-15 for x, d in numbers
               if not (d == 0 and decimals > 0))


def glued(notebook: str, name: str, mime: str = "text/plain"):
    """The value the notebook glued under `name`: a float from text/plain, else the text of `mime`."""
    found = [out["data"] for cell in load(notebook)["cells"] for out in cell.get("outputs", [])
             if out.get("metadata", {}).get("scrapbook", {}).get("name") == name]
    assert len(found) == 1, f"{name!r} is glued {len(found)} times"
    value = "".join(found[0][f"application/papermill.record/{mime}"])
    return float(value) if mime == "text/plain" else value


def glued_values(notebook: dict) -> dict:
    """name -> the Python value of every glue() in a notebook's stored outputs (as it was glued: str, int, float…)."""
    values = {}
    for cell in notebook["cells"]:
        for out in cell.get("outputs", []):
            name = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if name is not None:
                values[name] = ast.literal_eval("".join(out["data"]["application/papermill.record/text/plain"]))
    return values


def markdown_text(path: Path) -> str:
    """The prose of a page (.md) or of a notebook's Markdown cells."""
    if path.suffix == ".md":
        return path.read_text(encoding="utf-8")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
# Groups whose letters are words, not symbols: \text{mach}, \operatorname{Var}, \mathsf T (the transpose mark).
WORD_GROUPS = re.compile(r"\\(?:text|operatorname|mathrm|mathsf)\s*(?:\{[^{}]*\}|\S)")


def maths(text):
    """The formulas of a page, joined: everything between $…$ or $$…$$."""
    return "\n".join(a or b for a, b in MATH.findall(text))


def uses_symbol(symbol, formulas):
    r"""Does `symbol`, written as in the appendix's table ("S", "\tau", "H(p)", "e_y", "dZ"), occur in `formulas`?

    Letters count only where they stand alone: not inside a command (\ln), a word (\text{mach}) or another
    symbol (dZ, e_y), and not as a function name (H(p) is the entropy, not the matrix H).
    """
    if not re.fullmatch(r"[A-Za-z]{1,2}", symbol):
        return re.search(re.escape(symbol) + r"(?![A-Za-z_])", formulas) is not None
    letters = re.sub(r"\\[A-Za-z]+", " ", WORD_GROUPS.sub(" ", formulas))
    return re.search(rf"(?<![A-Za-z_]){symbol}(?![A-Za-z_])(?!\s*\()", letters) is not None


def book_boxes() -> list[tuple[str, str, dict]]:
    """(notebook stem, kind, options with the label) of every answer box of the registry's chapters: its code cell
    tagged ``answer-box``, read as the site's build reads it (_ext/answer_box, without running it)."""
    import chapter_registry
    from box_cells import TAG, read_call

    found = []
    for chapter in chapter_registry.chapters():
        for cell in load(chapter.notebook.name)["cells"]:
            if TAG in cell["metadata"].get("tags", []):
                kind, label, options = read_call("".join(cell["source"]))
                found.append((chapter.stem, kind, {"label": label, **options}))
    return found


EXERCISE = re.compile(r"^(?:```|:::)\{(?:exercise|exercise-start)\}(.*)\n((?::[\w-]+:.*\n)*)", re.M)
DIRECTIVE_OPTION = re.compile(r"^:([\w-]+):\s*(.*)$", re.M)


def exercise_classes(path: Path) -> list[tuple[str, list[str]]]:
    """(label, classes) of every exercise of a notebook, in order."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = []
    for source in ("".join(c["source"]) + "\n" for c in cells if c["cell_type"] == "markdown"):
        openings = list(EXERCISE.finditer(source))
        # every directive of the kind is read, options and all
        assert len(openings) == len(re.findall(r"\{exercise(?:-start)?\}", source)), source[:200]
        for match in openings:
            options = dict(DIRECTIVE_OPTION.findall(match.group(2)))
            found.append((options.get("label", match.group(1).strip()), options.get("class", "").split()))
    return found
