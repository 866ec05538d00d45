"""Timings of the gradient-step explorer: Python steps in the kernel, and input → redraw and one step in Chromium.

`rows()` is collected by scripts/benchmark.py; `python scripts/bench_gradient_explorer.py` prints the rows alone.
The browser rows build the site into a temporary folder, serve it on 127.0.0.1 and open chapter 2, whose
explorer they drive: `input` events on the learning-rate slider, and clicks on 走一步 (reset every 50 steps).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_bench import built_site, chapter_page, ms, not_measured, unavailable  # noqa: E402

PAGE = "book/02_gradient.html"  # the chapter page with the explorer


# ---------------------------------------------------------------- kernel side
def kernel_rows(repeats=500):
    from labcode.widgets import gradient_explorer

    w = gradient_explorer([0, 1, 2], ["红", "黄", "绿"], target="红", lr=1.0, max_steps=repeats)
    steps, moves = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        w.step()  # one step with labcode, history appended, serialised
        steps.append((time.perf_counter() - start) * 1000)
    for i in range(repeats):
        start = time.perf_counter()
        w.lr = 0.1 + (i % 50) * 0.1  # what dragging the lr slider sends; recompute the next step
        moves.append((time.perf_counter() - start) * 1000)
    return [{"what": "gradient explorer, kernel: step()", "value": ms(steps), "goal": "median <= 2 ms"},
            {"what": "gradient explorer, kernel: set lr + recompute", "value": ms(moves), "goal": "median <= 2 ms"}]


# ---------------------------------------------------------------- browser side
TIMER_JS = """async (n) => {
    const root = document.querySelector(".gx-root");
    const lr = root.querySelector(".gx-lr"), step = root.querySelector(".gx-step");
    const reset = root.querySelector(".gx-reset"), line = root.querySelector(".gx-lossline");
    const after = [...root.querySelectorAll(".gx-after")];
    const nextFrame = () => new Promise(requestAnimationFrame);
    const redraw = [], steps = [];
    for (let i = 0; i < n; i++) {
        const before = after.map(b => b.style.height).join();
        lr.value = String(0.5 + (i % 2) * 1.5);
        const t0 = performance.now();
        lr.dispatchEvent(new Event("input", {bubbles: true}));
        while (after.map(b => b.style.height).join() === before) await nextFrame();
        redraw.push(performance.now() - t0);
        if (i % 50 === 0) reset.click();
        const done = String(Number(line.dataset.steps) + 1);
        const t1 = performance.now();
        step.click();
        while (line.dataset.steps !== done) await nextFrame();
        steps.push(performance.now() - t1);
        if (i % 20 === 0) await nextFrame();  // let the page paint now and then
    }
    return {redraw, steps};
}"""


def browser_rows(n=300):
    names = ("gradient explorer, browser: lr input -> redrawn",
             "gradient explorer, browser: one step (click -> redrawn)")
    why = unavailable() or (None if (built_site() / PAGE).exists() else f"no {PAGE}")
    if why:
        return not_measured(names, why)
    with chapter_page(PAGE, ".gx-root") as page:
        page.evaluate(TIMER_JS, 30)  # warm-up: JIT, first layouts
        result = page.evaluate(TIMER_JS, n)
    return [{"what": names[0], "value": ms(result["redraw"]), "goal": "p95 <= 5 ms"},
            {"what": names[1], "value": ms(result["steps"]), "goal": "p95 <= 5 ms"}]


def rows():
    return kernel_rows() + browser_rows()


if __name__ == "__main__":
    for row in rows():
        print(f"{row['what']:<58}  {row['value']:>34}  {row['goal']}")
