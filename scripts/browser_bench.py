"""What the browser benchmarks share: one site build per run, a local server, Chromium on a chapter page.

Used by scripts/bench_widgets.py and the other browser benchmarks. It has no rows of its own, so its name
does not start with bench_ (scripts/benchmark.py collects the rows of every bench_*.py).
"""
from __future__ import annotations

import atexit
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
_site: dict[str, Path] = {}


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(values):
    return f"median {statistics.median(values):.3f} ms, p95 {pct(values, 0.95):.3f} ms"


def unavailable() -> str | None:
    """Why the browser rows cannot be measured here, or None."""
    if shutil.which("chromium") is None:
        return "no chromium"
    if not (ROOT / "_vendor" / "widgets").is_dir():
        return "run scripts/vendor_assets.py first"
    return None


def not_measured(names, why, goal="p95 <= 5 ms"):
    return [{"what": name, "value": f"not measured ({why})", "goal": goal} for name in names]


def built_site() -> Path:
    """The book built as the site is built, into a temporary folder: once per benchmark run."""
    if "html" not in _site:
        folder = Path(tempfile.mkdtemp(prefix="bench-site-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        subprocess.run([str(BIN / "jupyter-book"), "build", str(ROOT), "--path-output", str(folder)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _site["html"] = folder / "_build" / "html"
    return _site["html"]


@contextmanager
def chapter_page(page_path: str, selector: str, html: Path | None = None):
    """Serve the built site on 127.0.0.1 and yield a Chromium page at `page_path` once `selector` shows."""
    from playwright.sync_api import sync_playwright

    html = html or built_site()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              cwd=html, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            page = browser.new_page()
            for _ in range(50):  # until the server answers
                try:
                    page.goto(f"http://127.0.0.1:{port}/{page_path}")
                    break
                except Exception:
                    time.sleep(0.1)
            page.locator(selector).first.wait_for(timeout=20000)
            yield page
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def stored_output_site(root: Path, out: Path, sphinx_config: dict | None = None) -> Path:
    """The book in `root` built as the test suite builds it (the notebooks' stored outputs, not run again)
    into `out`, with extra Sphinx settings; returns the HTML folder. Uses the book's own scripts/book_config.py."""
    import json

    config = out / "_config_stored.yml"
    write = ("import json, sys; from pathlib import Path; sys.path.insert(0, 'scripts'); import book_config;"
             "book_config.write_config_copy(Path(sys.argv[1]), None, json.loads(sys.argv[2]))")
    subprocess.run([sys.executable, "-c", write, str(config), json.dumps(sphinx_config or {})], cwd=root, check=True)
    subprocess.run([str(BIN / "jupyter-book"), "build", str(root), "--config", str(config), "--path-output", str(out)],
                   cwd=root, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return out / "_build" / "html"


# What a static host compresses (fonts in woff2 and images are compressed already).
GZIP_TYPES = (".html", ".js", ".css", ".json", ".svg", ".txt", ".map", ".ttf", ".eot")


@contextmanager
def gzip_server(folder: Path):
    """Serve `folder` on 127.0.0.1 from a thread, gzipping text as a static host does; yields the base URL.

    Python's http.server sends every file uncompressed, which would make every page look several times
    heavier than it is once published."""
    import gzip
    import http.server
    import io
    import threading

    cache: dict[Path, bytes] = {}

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(folder), **kwargs)

        def log_message(self, *args):
            pass

        def send_head(self):
            path = Path(self.translate_path(self.path))
            wants = "gzip" in self.headers.get("Accept-Encoding", "")
            if not (wants and path.is_file() and path.suffix in GZIP_TYPES):
                return super().send_head()
            if path not in cache:
                cache[path] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
            body = cache[path]
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
