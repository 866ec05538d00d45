"""Page weight and time to usable of every page of the benchmark's site, on a throttled phone
(docs/decisions/2026-11-29-light-pages.md gives the figures before the pages were made light).

Each page is opened once in a fresh browser context (empty cache) at 360 × 740 px, with Chromium's network
emulation set to slow 4G (1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip), from a local server that gzips
text as a static host does. For every page:
- files, raw bytes (decoded) and gzip bytes (on the wire) of everything it loads on a first visit without
  scrolling, and the gzip bytes once scrolled to the end (lazy images);
- usable: the time from navigation until the text is painted, the formulas are typeset and the first widget
  has answered an input (its DOM changed after a control was moved).
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import browser
from benchmark import ROOT, row

sys.path.insert(0, str(ROOT / "tests"))
from site_tour import site_pages  # noqa: E402

GOAL_KB, GOAL_S = 600, 4.0
SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
PHONE = {"width": 360, "height": 740}

# Runs in the page from its first script on: once the first widget is drawn, move its first control and
# note when its DOM answers; note when the formulas are typeset (at once when they were rendered at build time).
WATCH_JS = """(() => {
  const t = window.__bench = {widget: null, maths: null};
  const maths = () => {
    if (!window.MathJax) return Promise.resolve();
    return new Promise(function wait(done) {
      if (MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(done);
      else setTimeout(() => wait(done), 20);
    });
  };
  const poke = (root) => {
    const control = root.querySelector('input[type=range], select, input[type=text], input:not([type]), button');
    if (!control) return false;
    new MutationObserver((_, obs) => { obs.disconnect(); t.widget = performance.now(); })
      .observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
    if (control.type === 'range') {
      control.value = String(Number(control.value) === Number(control.max) ? control.min : control.max);
      control.dispatchEvent(new Event('input', {bubbles: true}));
    } else if (control.tagName === 'SELECT') {
      control.selectedIndex = (control.selectedIndex + 1) % control.options.length;
      control.dispatchEvent(new Event('change', {bubbles: true}));
    } else if (control.tagName === 'INPUT') {
      control.value += 'a';
      control.dispatchEvent(new Event('input', {bubbles: true}));
    } else control.click();
    return true;
  };
  document.addEventListener('DOMContentLoaded', () => {
    maths().then(() => { t.maths = performance.now(); });
    (function look() {
      const root = document.querySelector('.lc-widget');
      if (!(root && poke(root))) setTimeout(look, 20);
    })();
  });
})();"""
USABLE_JS = """() => {
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const widgets = document.querySelector('script[type="application/vnd.jupyter.widget-view+json"]') !== null;
  const t = window.__bench;
  if (!paint || t.maths === null || (widgets && t.widget === null)) return null;
  return Math.max(paint.startTime, t.maths, widgets ? t.widget : 0) / 1000;
}"""


def _settle(page, path):
    """Wait until nothing has loaded for 0.5 s; a page that never settles is measured as it stands, with a note."""
    try:
        page.wait_for_load_state("networkidle", timeout=30_000)
    except Exception as error:  # noqa: BLE001 - reported, not fatal to the run
        print(f"{path}: network not idle within 30 s ({error.__class__.__name__}); measured as loaded so far",
              file=sys.stderr)


def measure(html: Path, pages: list[str]) -> dict:
    """{page: {files, raw, gzip, scrolled, usable}} for every page, each in a fresh context."""
    results = {}
    with browser.serve(html, gzip=True) as base, browser.chromium() as chromium:
        for path in pages:
            context = chromium.new_context(viewport=PHONE)
            context.add_init_script(WATCH_JS)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
            cdp.send("Network.emulateNetworkConditions", SLOW_4G)
            loads = {}  # request id -> [decoded bytes, bytes on the wire]

            def received(event, loads=loads):
                loads.setdefault(event["requestId"], [0, 0])[0] += event["dataLength"]

            def finished(event, loads=loads):
                loads.setdefault(event["requestId"], [0, 0])[1] = event["encodedDataLength"]

            cdp.on("Network.dataReceived", received)
            cdp.on("Network.loadingFinished", finished)
            page.goto(f"{base}/{path}", wait_until="load", timeout=120_000)
            usable = None
            try:
                page.wait_for_function(USABLE_JS, timeout=60_000, polling=50)
                usable = page.evaluate(USABLE_JS)
            except Exception as error:  # noqa: BLE001 - reported in the table, not fatal to the run
                print(f"{path}: not usable within 60 s ({error.__class__.__name__})", file=sys.stderr)
            _settle(page, path)
            first = [v for v in loads.values() if v[1]]
            record = {"files": len(first), "raw": sum(v[0] for v in first), "gzip": sum(v[1] for v in first),
                      "usable": usable}
            page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
            page.evaluate("""async () => { for (let y = 0; y < document.body.scrollHeight; y += 600) {
                window.scrollTo(0, y); await new Promise(r => setTimeout(r, 30)); } }""")
            _settle(page, path)
            record["scrolled"] = sum(v[1] for v in loads.values() if v[1])
            results[path] = record
            context.close()
    return results


def kb(n: float) -> str:
    return f"{n / 1024:,.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.2f} MB"


def shown(r: dict) -> str:
    usable = f"{r['usable']:.1f} s" if r["usable"] is not None else "n/a"
    return f"{kb(r['gzip'])} gzip in {r['files']} files ({kb(r['raw'])} raw, {kb(r['scrolled'])} scrolled), {usable}"


def rows(site) -> list[dict]:
    if shutil.which("chromium") is None:
        return [row("pages: weight and time to usable", "not measured (no chromium)")]
    goal = f"<= {GOAL_KB} KB gzip, usable <= {GOAL_S:.0f} s"
    return [row(f"page {path}: first visit at 360 px, slow 4G", shown(r), goal)
            for path, r in measure(site(), site_pages(site())).items()]
