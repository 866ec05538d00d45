"""How an answer box's text is printed (the handouts, the answer keys and the worksheets): the question in LaTeX,
and the answer as a key writes it. The question and label templates mark maths with ``$…$``
(labcode.practice.problems); on the site, the box's own module writes its HTML (labcode/widgets/answer_box.js,
``markup``). Nothing here needs Sphinx: _ext/answer_box and scripts/worksheets.py both import it."""
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
        source = re.sub(r"\b(ln|exp|sqrt)\b\s*", r"\\\1 ", source)
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


def _decimals(answer, places: int, trim: bool) -> list[str]:
    """Each component with `places` decimals (``trim``: without trailing zeros, 2 for 2.0000)."""
    texts = [f"{v:.{places}f}".replace("-", "−") for v in _components(answer)]
    return [t.rstrip("0").rstrip(".") for t in texts] if trim else texts


def _components(answer) -> list[float]:
    return answer if isinstance(answer, list) else [answer]


def _join(answer, items: list[str]) -> str:
    """Components written as the answer is: a vector in brackets, a number alone."""
    return "[" + ", ".join(items) + "]" if isinstance(answer, list) else items[0]


def exact_text(answer, exact: str | None = None) -> str | None:
    """The answer's exact form: the author's (the box's ``exact=``), else a small fraction for every component
    (``[4/7, −5/7, 1/7]``, ``2``); None when some component is no small fraction."""
    if exact is not None:
        return exact
    fractions = [_exact(v) for v in _components(answer)]
    return _join(answer, fractions) if all(fractions) else None


def decimal_text(answer, places: int = 4, trim: bool = False) -> str:
    """The answer in decimals: ``[0.5714, −0.7143, 0.1429]``; ``trim`` drops trailing zeros (``2`` for 2.0000)."""
    return _join(answer, _decimals(answer, places, trim))


def answer_text(answer, exact: str | None = None) -> str:
    """How the answer key prints an answer: ``[4/7, −5/7, 1/7] ≈ [0.5714, −0.7143, 0.1429]``, ``2/5 = 0.4``,
    ``2``, ``≈ 1.2528`` (a value no small fraction equals); with the author's exact form (the box's ``exact=``)
    ``ln(7/2) ≈ 1.2528``, ``10/5 = 2``."""
    exact = exact_text(answer, exact)
    if exact is None:
        return f"≈ {decimal_text(answer)}"
    plain = _decimals(answer, 4, trim=True)
    # up to the rounding of the arithmetic that gave v (0.5 · 4/25 is 0.08000000000000002)
    same = all(abs(float(p.replace("−", "-")) - v) <= 1e-12 * max(1.0, abs(v))
               for p, v in zip(plain, _components(answer), strict=True))
    plain = _join(answer, plain)                                          # same: no digit cut off
    return exact if exact == plain else f"{exact} = {plain}" if same else f"{exact} ≈ {decimal_text(answer)}"
