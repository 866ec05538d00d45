"""Timings of the softmax explorer: kernel-side update per slider move, and input → bars in Chromium.

`rows()` is collected by scripts/benchmark.py; `python scripts/bench_widgets.py` prints the rows alone.
The browser rows build the site into a temporary folder, serve it on 127.0.0.1, open chapter 1 and time
`input` events dispatched on the first explorer's logit slider until the bars' DOM holds the new heights.
"""
from __future__ import annotations

import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
MOVES = 400
PAGE = "book/01_probability_to_loss.html"  # the chapter page with the explorer


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(values):
    return f"median {statistics.median(values):.3f} ms, p95 {pct(values, 0.95):.3f} ms"


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


def build_site(folder: Path) -> Path:
    """Build the book as the site is built, into a temporary folder."""
    subprocess.run([str(BIN / "jupyter-book"), "build", str(ROOT), "--path-output", str(folder)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return folder / "_build" / "html"


def browser_rows(moves=MOVES):
    chromium = shutil.which("chromium")
    if chromium is None or not (ROOT / "_vendor" / "widgets").is_dir():
        why = "no chromium" if chromium is None else "run scripts/vendor_assets.py first"
        return [{"what": "explorer, browser: input -> bars updated", "value": f"not measured ({why})",
                 "goal": "p95 <= 5 ms"}]
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        html = build_site(Path(tmp))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                                  cwd=html, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                page = browser.new_page()
                for _ in range(50):  # until the server answers
                    try:
                        page.goto(f"http://127.0.0.1:{port}/{PAGE}")
                        break
                    except Exception:
                        time.sleep(0.1)
                page.locator(".sx-root").first.wait_for(timeout=20000)
                page.evaluate(TIMER_JS, 50)  # warm-up: JIT, first layouts
                result = page.evaluate(TIMER_JS, moves)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    return [{"what": "explorer, browser: input -> bars' DOM updated", "value": ms(result["dom"]),
             "goal": "p95 <= 5 ms"},
            {"what": "explorer, browser: input -> bars laid out", "value": ms(result["layout"]), "goal": "-"}]


def rows():
    return kernel_rows() + browser_rows()


if __name__ == "__main__":
    for row in rows():
        print(f"{row['what']:<52}  {row['value']:>34}  {row['goal']}")
