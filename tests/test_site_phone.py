"""The chapter pages at phone width (360 px): tables and inline code stay readable and inside the page."""
from __future__ import annotations

import pytest

PHONE = {"width": 360, "height": 740}
CHAPTERS = ["book/01_probability_to_loss.html", "book/02_gradient.html", "book/03_shared_embedding.html",
            "book/04_bigram.html", "book/appendix.html"]


@pytest.mark.parametrize("path", CHAPTERS)
def test_table_first_columns_and_inline_code_fit_a_phone(offline_page, site_url, path):
    page = offline_page
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}/{path}", wait_until="networkidle")
    # A first-column cell of four or more characters is at least four characters wide (not one per line).
    squeezed = page.evaluate("""() => [...document.querySelectorAll('.bd-article table tr > :first-child')]
        .filter(cell => cell.innerText.trim().length >= 4)
        .filter(cell => cell.getBoundingClientRect().width < 4 * parseFloat(getComputedStyle(cell).fontSize))
        .map(cell => cell.innerText.trim())""")
    assert squeezed == [], f"{path}: first-column cells squeezed at 360 px: {squeezed}"
    # Inline code never reaches past the right edge of the screen.
    wide = page.evaluate("""() => [...document.querySelectorAll('.bd-article code.literal')]
        .filter(code => !code.closest('.pst-scrollable-table-container, table, .MathJax, mjx-container'))
        .filter(code => [...code.getClientRects()].some(r => r.right > document.documentElement.clientWidth + 1))
        .map(code => code.innerText)""")
    assert wide == [], f"{path}: inline code wider than the screen at 360 px: {wide}"
    assert page.external == []
