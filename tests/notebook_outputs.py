"""What a chapter notebook shows a reader, read from its stored outputs: printed text, numbers, glued values."""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path

BOOK = Path(__file__).resolve().parents[1] / "book"
NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+(?:e[-+]?\d+)?")


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
        found.append((float(token), decimals))
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
