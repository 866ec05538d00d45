"""Timings of the softmax explorer: kernel-side update per slider move, and input → bars in Chromium.

`rows()` is collected by scripts/benchmark.py; `python scripts/bench_widgets.py` prints the rows alone.
The browser rows build the site into a temporary folder, serve it on 127.0.0.1, open chapter 1 and time
`input` events dispatched on the first explorer's logit slider until the bars' DOM holds the new heights.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_bench import chapter_page, ms, not_measured, unavailable  # noqa: E402

MOVES = 400
PAGE = "book/01_probability_to_loss.html"  # the chapter page with the explorer


# ---------------------------------------------------------------- kernel side
def kernel_rows(moves=2000):
    from labcode.widgets import softmax_explorer

    w = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")
    times = []
    for i in range(moves):
        z = [round(-5 + (i % 100) * 0.1, 1), 1.0, 2.0]  # what dragging the first slider sends
        start = time.perf_counter()
        w.logits = z  # validate, recompute probs/loss/grad with labcode, serialise the change
        times.append((time.perf_counter() - start) * 1000)
    assert w.probs[0] > 0
    return [{"what": "explorer, kernel: set logits + recompute (per slider move)",
             "value": ms(times), "goal": "median <= 2 ms"}]


# ---------------------------------------------------------------- browser side
TIMER_JS = """async (moves) => {
    const root = document.querySelector(".sx-root");
    const input = root.querySelector(".sx-logit");
    const bars = [...root.querySelectorAll(".sx-bar")];
    const nextFrame = () => new Promise(requestAnimationFrame);
    const dom = [], layout = [];
    for (let i = 0; i < moves; i++) {
        const before = bars.map(b => b.style.height).join();
        input.value = String(-5 + (i % 100) * 0.1);
        const t0 = performance.now();
        input.dispatchEvent(new Event("input", {bubbles: true}));
        while (bars.map(b => b.style.height).join() === before) await nextFrame();
        const t1 = performance.now();
        bars[bars.length - 1].getBoundingClientRect();  // force style and layout of the new heights
        const t2 = performance.now();
        dom.push(t1 - t0);
        layout.push(t2 - t0);
        if (i % 20 === 0) await nextFrame();  // let the page paint now and then, as a real drag does
    }
    return {dom, layout};
}"""


def browser_rows(moves=MOVES):
    names = ("explorer, browser: input -> bars' DOM updated", "explorer, browser: input -> bars laid out")
    why = unavailable()
    if why:
        return not_measured(names, why)
    with chapter_page(PAGE, ".sx-root") as page:
        page.evaluate(TIMER_JS, 50)  # warm-up: JIT, first layouts
        result = page.evaluate(TIMER_JS, moves)
    return [{"what": names[0], "value": ms(result["dom"]), "goal": "p95 <= 5 ms"},
            {"what": names[1], "value": ms(result["layout"]), "goal": "-"}]


def rows():
    return kernel_rows() + browser_rows()


if __name__ == "__main__":
    for row in rows():
        print(f"{row['what']:<52}  {row['value']:>34}  {row['goal']}")
