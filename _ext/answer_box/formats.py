"""How a box's text is written for the handouts (LaTeX), and how the answer key prints an answer. The question
and label templates mark maths with ``$…$`` (labcode.practice.problems); on the site, the box's own module writes
its HTML (labcode/widgets/answer_box.js, ``markup``)."""
from __future__ import annotations

import re
from fractions import Fraction

from labcode.practice.problems import number_text

MATHS = re.compile(r"\$([^$]*)\$")
LATEX_MATHS = {"−": "-", "ℓ": r"\ell ", "η": r"\eta ", "α": r"\alpha ", "∂": r"\partial ", "Σ": r"\sum ",
               "←": r"\leftarrow ", "π": r"\pi ", "·": r"\cdot ", "ŷ": r"\hat{y}",
               "≈": r"\approx "}
LATEX_TEXT = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
              "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def to_latex(text: str) -> str:
    """Text escaped for LaTeX, maths as $…$ with ln, exp, Greek letters and ∂ as LaTeX commands."""
    def maths(source):
        source = re.sub(r"(\w)\u0302", r"\\hat{\1}", source)                # p̂: p and a combining circumflex
        source = re.sub(r"\b(ln|exp|sqrt)\b\s*", lambda m: f"\\{m.group(1)} " if m.group(1) != "sqrt" else r"\sqrt ",
                        source)
        return "$" + "".join(LATEX_MATHS.get(ch, ch) for ch in source) + "$"
    parts = MATHS.split(text)
    return "".join(maths(p) if k % 2 else "".join(LATEX_TEXT.get(ch, ch) for ch in p) for k, p in enumerate(parts))


# --- the answer as the answer key prints it ----------------------------------------------------------

def _exact(value: float) -> str | None:
    """4/7 for 0.5714285714…, "2" for 2.0; None when no small fraction equals the value."""
    fraction = Fraction(value).limit_denominator(200)
    if abs(float(fraction) - value) > 1e-12 * max(1.0, abs(value)):
        return None
    return number_text(fraction.numerator) if fraction.denominator == 1 else \
        f"{'−' if fraction < 0 else ''}{abs(fraction.numerator)}/{fraction.denominator}"


def _decimal(value: float) -> str:
    return f"{value:.4f}".replace("-", "−")


def answer_text(answer, exact: str | None = None) -> str:
    """How the answer key prints an answer: ``[4/7, −5/7, 1/7] ≈ [0.5714, −0.7143, 0.1429]``, ``2/5 = 0.4``,
    ``2``, ``≈ 1.2528`` (a value no small fraction equals); with the author's exact form (the box's ``exact=``)
    ``ln(7/2) ≈ 1.2528``, ``10/5 = 2``."""
    values = answer if isinstance(answer, list) else [answer]
    decimals = [_decimal(v) for v in values]
    plain = [d.rstrip("0").rstrip(".") for d in decimals]

    def join(items):
        return "[" + ", ".join(items) + "]" if isinstance(answer, list) else items[0]
    if exact is None:  # a small fraction where every value is one, else the decimals alone
        fractions = [_exact(v) for v in values]
        if not all(fractions):
            return f"≈ {join(decimals)}"
        exact = join(fractions)
    same = all(float(p.replace("−", "-")) == v for p, v in zip(plain, values, strict=True))  # no digit cut off
    return exact if exact == join(plain) else f"{exact} = {join(plain)}" if same else f"{exact} ≈ {join(decimals)}"
