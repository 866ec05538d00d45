"""Timings of the four widgets: Python's update per control move (in the kernel), and input → redraw in Chromium,
on the chapter pages of the benchmark's site, each widget driven through its own controls and timed in the page
until its DOM has changed.
"""
from __future__ import annotations

import json
import shutil

import browser
from benchmark import ROOT, ms, row, timings

PHRASES = ["我爱我家", "谢谢", "天天向上", "好好学习，天天向上", "谢谢你谢谢", "人人为我，我为人人"]


def timed(change, n):
    """Milliseconds of each of `n` calls change(i)."""
    return [1000 * s for s in timings(change, n)]


# ---------------------------------------------------------------- kernel side
def kernel_rows():
    from labcode.widgets import embedding_explorer, gradient_explorer, softmax_explorer

    goal = "median <= 2 ms"
    softmax = softmax_explorer([0, 1, 2], ["红", "黄", "绿"], target="绿")
    # what dragging the first slider sends: validate, recompute with labcode, serialise the change
    moves = timed(lambda i: setattr(softmax, "logits", [round(-5 + (i % 100) * 0.1, 1), 1.0, 2.0]), 2000)
    gradient = gradient_explorer([0, 1, 2], ["红", "黄", "绿"], target="红", lr=1.0, max_steps=500)
    steps = timed(lambda i: gradient.step(), 500)
    lr_moves = timed(lambda i: setattr(gradient, "lr", 0.1 + (i % 50) * 0.1), 500)
    embedding = embedding_explorer()
    phrases = timed(lambda i: setattr(embedding, "text", PHRASES[i % len(PHRASES)]), 1000)
    state = embedding.get_state()
    data = {k: v for k, v in state.items() if k not in ("_esm", "_css")}
    size = len(json.dumps(data, ensure_ascii=False).encode()) / 1024
    code = len((state["_esm"] + state["_css"]).encode()) / 1024
    return [row("softmax explorer, kernel: set logits + recompute (per slider move)", ms(moves), goal),
            row("gradient explorer, kernel: step()", ms(steps), goal),
            row("gradient explorer, kernel: set lr + recompute", ms(lr_moves), goal),
            row("embedding explorer, kernel: set text + recompute", ms(phrases), goal),
            row("embedding explorer, page state: vocabulary + E + C", f"{size:.1f} KB", "<= 24 KB"),
            row("embedding explorer, page state: JS + CSS", f"{code:.1f} KB")]


# ---------------------------------------------------------------- browser side
# Each timer runs in the page, warm-up first (JIT, first layouts), and lets the page paint now and then.
SOFTMAX_JS = """async (moves) => {
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
        dom.push(t1 - t0);
        layout.push(performance.now() - t0);
        if (i % 20 === 0) await nextFrame();
    }
    return {dom, layout};
}"""
GRADIENT_JS = """async (n) => {
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
        if (i % 20 === 0) await nextFrame();
    }
    return {redraw, steps};
}"""
EMBEDDING_JS = """async ([n, phrases]) => {
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
        if (i % 20 === 0) await nextFrame();
    }
    return {dom, lines};
}"""
# The trainer's own maths on its own counts: steps and time from W = 0 to within 1e-3 of the count optimum
# (default lr), then the time per step on a long run; and the size of its state in the page.
TRAINER_JS = """async () => {
    const state = JSON.parse(document.querySelector(
        'script[type="application/vnd.jupyter.widget-state+json"]').textContent).state;
    const model = Object.values(state).find(m => m.state._esm && m.state._esm.includes("function trainerState("));
    const mod = await import(URL.createObjectURL(new Blob([model.state._esm], {type: "text/javascript"})));
    const s = model.state, V = s.counts.length;
    const N = Float64Array.from(s.counts.flat(), n => n + s.alpha);
    const W = new Float64Array(V * V), grad = new Float64Array(V * V);
    const optimum = mod.maths.countOptimum(N, V);
    let steps = 0;
    const t0 = performance.now();
    while (mod.maths.countStepFlat(W, N, V, s.reg, s.lr, grad) - optimum >= 1e-3 && steps < 1e6) steps++;
    const reach = performance.now() - t0;
    const n = 5000, t1 = performance.now();
    for (let k = 0; k < n; k++) mod.maths.countStepFlat(W, N, V, s.reg, s.lr, grad);
    const perStep = (performance.now() - t1) / n;
    const small = Object.fromEntries(Object.entries(s).filter(([k]) => k !== "_esm" && k !== "_css"));
    return {steps, reach, perStep, frameSteps: s.frame_steps, alpha: s.alpha, lr: s.lr,
            stateBytes: JSON.stringify(small).length, moduleBytes: s._esm.length + s._css.length};
}"""
# The trainer's own button: time from the click until the shown gap to the optimum is below 1e-3.
TRAIN_BUTTON_JS = """async () => {
    const root = document.querySelector(".bt-root");
    const t0 = performance.now();
    root.querySelector(".bt-train").click();
    const next = () => new Promise(requestAnimationFrame);
    while (Number(root.querySelector(".bt-gap").textContent) >= 1e-3) await next();
    return performance.now() - t0;
}"""


def measure(page, site):
    """Every browser row, on the chapter pages of the site served at `site`."""
    def on_chapter(path, root, *calls):
        """Open the chapter, wait for its widget, and return what each (script, argument) of `calls` returns."""
        page.goto(f"{site}/book/{path}")
        page.locator(root).first.wait_for(timeout=20000)
        return [page.evaluate(js, arg) for js, arg in calls]

    _, softmax = on_chapter("01_probability_to_loss.html", ".sx-root", (SOFTMAX_JS, 50), (SOFTMAX_JS, 400))
    _, gradient = on_chapter("02_gradient.html", ".gx-root", (GRADIENT_JS, 30), (GRADIENT_JS, 300))
    _, embedding = on_chapter("03_shared_embedding.html", ".ee-root", (EMBEDDING_JS, [30, PHRASES]),
                              (EMBEDDING_JS, [300, PHRASES]))
    t, animated = on_chapter("04_bigram.html", ".bt-root", (TRAINER_JS, None), (TRAIN_BUTTON_JS, None))
    fast = "p95 <= 5 ms"
    return [
        row("softmax explorer, browser: input -> bars' DOM updated", ms(softmax["dom"]), fast),
        row("softmax explorer, browser: input -> bars laid out", ms(softmax["layout"])),
        row("gradient explorer, browser: lr input -> redrawn", ms(gradient["redraw"]), fast),
        row("gradient explorer, browser: one step (click -> redrawn)", ms(gradient["steps"]), fast),
        row("embedding explorer, browser: input -> redrawn", ms(embedding["dom"]), fast),
        row("embedding explorer, browser: input -> lines drawn (next frame)", ms(embedding["lines"]),
            "one frame (~16 ms)"),
        row("bigram trainer, page: one training step (27x27, count path)", f"{1000 * t['perStep']:.1f} us",
            "<= 100 us"),
        row(f"bigram trainer, page: to within 1e-3 of optimum (alpha {t['alpha']:g}, lr {t['lr']:g})",
            f"{t['steps']} steps, {t['reach']:.1f} ms", "< 100 ms of compute"),
        row(f"bigram trainer, page: same with the train button ({t['frameSteps']} steps per frame)",
            f"{animated / 1000:.2f} s", "an animation a reader can follow"),
        row("bigram trainer, page state (without the JS/CSS module text)",
            f"{t['stateBytes'] / 1024:.1f} KiB (+ {t['moduleBytes'] / 1024:.1f} KiB module)", "<= 8 KiB"),
    ]


def browser_rows(site):
    why = ("no chromium" if shutil.which("chromium") is None
           else None if (ROOT / "_vendor" / "widgets").is_dir() else "run `make assets` first")
    if why:
        return [row("widgets, browser", f"not measured ({why})")]
    with browser.serve(site()) as url, browser.chromium() as chromium:
        return measure(chromium.new_page(), url)


def rows(site):
    return kernel_rows() + browser_rows(site)
