"""The printed handouts as text, read once per test process (pdftotext is run once per file and layout)."""
from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path


@functools.cache
def pages(pdf: Path, layout: bool = True) -> tuple[str, ...]:
    """Text of each page; layout=False gives reading order (columns one after the other)."""
    cmd = ["pdftotext"] + (["-layout"] if layout else []) + [str(pdf), "-"]
    text = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return tuple(text.split("\f")[:-1] if text.endswith("\f") else text.split("\f"))


def text(pdf: Path, layout: bool = False) -> str:
    """The whole text, pages separated by form feeds (reading order unless layout=True)."""
    return "\f".join(pages(pdf, layout)) + "\f"


def flat(text: str) -> str:
    """Text without any whitespace: xeCJK's spacing around Latin and digits varies."""
    return re.sub(r"\s+", "", text)


def typeset(text: str) -> str:
    """A formula as pdftotext reads it: Latin variables in math italic (𝑒; ln, exp, sqrt upright), e^2 as e2."""
    italic = {chr(97 + k): "ℎ" if k == 7 else chr(0x1D44E + k) for k in range(26)}
    return re.sub(r"\b(?!(?:ln|exp|sqrt)\b)[a-z]+\b", lambda m: "".join(italic[c] for c in m[0]),
                  text).replace("^", "")
