"""Timings and size of the embedding explorer: Python recompute per phrase, input → redraw in Chromium,
and how much the explorer adds to the page (its state, with the frozen vocabulary, E and the gradients).

`rows()` is collected by scripts/benchmark.py; `python scripts/bench_embedding_explorer.py` prints the rows alone.
The browser rows build the site into a temporary folder, serve it on 127.0.0.1 and open chapter 3, whose
explorer they drive with `input` events on the phrase box, alternating phrases with repeated characters.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_bench import built_site, chapter_page, ms, not_measured, unavailable  # noqa: E402

PAGE = "book/03_shared_embedding.html"  # the chapter page with the explorer
PHRASES = ["我爱我家", "谢谢", "天天向上", "好好学习，天天向上", "谢谢你谢谢", "人人为我，我为人人"]


# ---------------------------------------------------------------- kernel side and size
def kernel_rows(repeats=1000):
    from labcode.widgets import embedding_explorer

    w = embedding_explorer()
    times = []
    for i in range(repeats):
        start = time.perf_counter()
        w.text = PHRASES[i % len(PHRASES)]  # what typing sends; encode, look up, accumulate with labcode
        times.append((time.perf_counter() - start) * 1000)
    state = w.get_state()
    data = {k: v for k, v in state.items() if k not in ("_esm", "_css")}
    size = len(json.dumps(data, ensure_ascii=False).encode()) / 1024
    code = len((state["_esm"] + state["_css"]).encode()) / 1024
    return [{"what": "embedding explorer, kernel: set text + recompute", "value": ms(times), "goal": "median <= 2 ms"},
            {"what": "embedding explorer, page state: vocabulary + E + C", "value": f"{size:.1f} KB",
             "goal": "<= 24 KB"},
            {"what": "embedding explorer, page state: JS + CSS", "value": f"{code:.1f} KB", "goal": "-"}]


# ---------------------------------------------------------------- browser side
TIMER_JS = """async ([n, phrases]) => {
    const root = document.querySelector(".ee-root");
    const box = root.querySelector(".ee-text");
    const ids = () => root.querySelector(".ee-ids").textContent;  // redrawn with each phrase
    const nextFrame = () => new Promise(requestAnimationFrame);
    const dom = [], lines = [];
    for (let i = 0; i < n; i++) {
        const before = ids(), phrase = phrases[i % phrases.length];
        if (phrase === box.value) continue;  // the same ids: nothing would change
        box.value = phrase;
        const t0 = performance.now();
        box.dispatchEvent(new Event("input", {bubbles: true}));
        while (ids() === before) await nextFrame();
        dom.push(performance.now() - t0);
        while (root.querySelector(".ee-lines").dataset.text !== phrase) await nextFrame();
        lines.push(performance.now() - t0);  // the lines are drawn in the frame after the input
        if (i % 20 === 0) await nextFrame();  // let the page paint now and then, as typing does
    }
    return {dom, lines};
}"""


def browser_rows(n=300):
    names = ("embedding explorer, browser: input -> redrawn",
             "embedding explorer, browser: input -> lines drawn (next frame)")
    why = unavailable() or (None if (built_site() / PAGE).exists() else f"no {PAGE}")
    if why:
        return not_measured(names, why)
    with chapter_page(PAGE, ".ee-root") as page:
        page.evaluate(TIMER_JS, [30, PHRASES])  # warm-up: JIT, first layouts
        result = page.evaluate(TIMER_JS, [n, PHRASES])
    return [{"what": names[0], "value": ms(result["dom"]), "goal": "p95 <= 5 ms"},
            {"what": names[1], "value": ms(result["lines"]), "goal": "one frame (~16 ms)"}]


def rows():
    return kernel_rows() + browser_rows()


if __name__ == "__main__":
    for row in rows():
        print(f"{row['what']:<52}  {row['value']:>34}  {row['goal']}")
