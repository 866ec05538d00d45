"""book.pdf opens with the home page: the next-character table, the “深入” box around its code, then the course map."""
import numpy as np

from handouts import pages
from labcode import bigram, idioms


def test_book_pdf_prints_the_hook_the_deep_box_and_the_map_in_order(pdf_dir):
    # The home page fills the pages before chapter 1 (the title page and the contents come first).
    text = "".join("".join(pages(pdf_dir / "book.pdf", layout=False)[:8]).split())  # lines break anywhere in Chinese
    _, vocab, _, _, C = bigram.bigram_data(idioms.load_idioms())
    row = C[vocab["不"]]
    top = np.sort(row)[::-1][:6]
    hook = text.index(f"也只占{top[0] / row.sum():.1%}")
    assert f"排在前六的加起来只有{top.sum() / row.sum():.1%}" in text
    box = text.index("深入：这张表是怎么算出来的")
    assert text.count("深入：") == 1
    drawn = [text.index(label) for label in ("分数的梯度", "按编号累加", "前向：算出损失")]   # words of the map
    assert hook < box < min(drawn) < text.index("这门课讲什么")
