"""Timings of the bigram trainer in the page: one training step, steps and time to come within 1e-3 of the
count optimum, and the size of the widget's state embedded in the page.

`rows()` is collected by scripts/benchmark.py; `python scripts/bench_bigram_trainer.py` prints the rows alone.
The site is built into a temporary folder and served on 127.0.0.1; Chromium opens the chapter page with the
trainer and runs the page's own maths (the module text embedded in the page) on the page's own counts.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_bench import built_site, chapter_page, unavailable  # noqa: E402

MARKER = "function trainerState("  # text of the trainer's ES module
STATE_JS = """async () => {
    const state = JSON.parse(document.querySelector(
        'script[type="application/vnd.jupyter.widget-state+json"]').textContent).state;
    const model = Object.values(state).find(m => m.state._esm && m.state._esm.includes("function trainerState("));
    const mod = await import(URL.createObjectURL(new Blob([model.state._esm], {type: "text/javascript"})));
    const s = model.state, V = s.counts.length;
    const N = Float64Array.from(s.counts.flat(), n => n + s.alpha);
    const W = new Float64Array(V * V), grad = new Float64Array(V * V);
    const optimum = mod.maths.countOptimum(N, V);
    // steps and time until the loss is within 1e-3 of the optimum, from W = 0, default lr
    let steps = 0;
    const t0 = performance.now();
    while (mod.maths.countStepFlat(W, N, V, s.reg, s.lr, grad) - optimum >= 1e-3 && steps < 1e6) steps++;
    const reach = performance.now() - t0;
    // time per step, on a long run (the JIT has warmed up by now)
    const n = 5000, t1 = performance.now();
    for (let k = 0; k < n; k++) mod.maths.countStepFlat(W, N, V, s.reg, s.lr, grad);
    const perStep = (performance.now() - t1) / n;
    const small = Object.fromEntries(Object.entries(s).filter(([k]) => k !== "_esm" && k !== "_css"));
    return {steps, reach, perStep, frameSteps: s.frame_steps, alpha: s.alpha, lr: s.lr,
            stateBytes: JSON.stringify(small).length, moduleBytes: s._esm.length + s._css.length};
}"""
# The widget's own button: time from the click until the shown gap to the optimum is below 1e-3.
ANIMATED_JS = """async () => {
    const root = document.querySelector(".bt-root");
    const t0 = performance.now();
    root.querySelector(".bt-train").click();
    const next = () => new Promise(requestAnimationFrame);
    while (Number(root.querySelector(".bt-gap").textContent) >= 1e-3) await next();
    return performance.now() - t0;
}"""


def not_measured(why):
    return [{"what": "bigram trainer, browser: rows", "value": f"not measured ({why})", "goal": "-"}]


def measure(html: Path):
    pages = sorted(p for p in html.rglob("*.html") if MARKER in p.read_text(encoding="utf-8"))
    if not pages:
        return None
    with chapter_page(pages[0].relative_to(html).as_posix(), ".bt-root", html) as page:
        result = page.evaluate(STATE_JS)
        result["animated"] = page.evaluate(ANIMATED_JS)
    return result


def rows(html: Path | None = None):
    why = unavailable()
    if why:
        return not_measured(why)
    result = measure(html or built_site())
    if result is None:
        return not_measured("no page of the site shows the trainer")
    r = result
    return [
        {"what": "bigram trainer, page: one training step (27x27, count path)",
         "value": f"{1000 * r['perStep']:.1f} us", "goal": "<= 100 us"},
        {"what": f"bigram trainer, page: to within 1e-3 of optimum (alpha {r['alpha']:g}, lr {r['lr']:g})",
         "value": f"{r['steps']} steps, {r['reach']:.1f} ms", "goal": "< 100 ms of compute"},
        {"what": f"bigram trainer, page: same with the train button ({r['frameSteps']} steps per frame)",
         "value": f"{r['animated'] / 1000:.2f} s", "goal": "an animation a reader can follow"},
        {"what": "bigram trainer, page state (without the JS/CSS module text)",
         "value": f"{r['stateBytes'] / 1024:.1f} KiB (+ {r['moduleBytes'] / 1024:.1f} KiB module)", "goal": "<= 8 KiB"},
    ]


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else None  # an already built _build/html, if given
    for row in rows(folder):
        print(f"{row['what']:<72}  {row['value']:>34}  {row['goal']}")
