"""Headless Chromium and a local server for the built site: the tests and the benchmarks start both from here.

Chromium is Debian's (`apt-get install chromium`), driven by Playwright's Python package; `playwright install`
cannot download a browser build on these machines.
"""
from __future__ import annotations

import gzip
import http.server
import io
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
CHROMIUM_HINT = "sudo apt-get install chromium (and `pip install playwright`, already in requirements.txt)"
LOCAL = "127.0.0.1"
# What a static host compresses (fonts in woff2 and images are compressed already).
GZIP_TYPES = (".html", ".js", ".css", ".json", ".svg", ".txt", ".map", ".ttf", ".eot")


class Handler(http.server.SimpleHTTPRequestHandler):
    """Python's file server; with `gzip`, text is compressed as a static host does (uncompressed, every page
    would look several times heavier than it is once published: scripts/bench_pages.py weighs them)."""

    gzip = False

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        wants = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.gzip and wants and path.is_file() and path.suffix in GZIP_TYPES):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOCAL, 0))
        return probe.getsockname()[1]


def wait_for(url: str, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@contextmanager
def serve(folder: Path, gzip: bool = False):
    """Serve `folder` on 127.0.0.1 from a process of its own (stopped by its PID); yields the base URL."""
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, str(port), *(["--gzip"] if gzip else [])],
                              cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://{LOCAL}:{port}"
    try:
        wait_for(url)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def chromium(executable: str | None = None):
    """A headless Chromium browser (Playwright), closed on exit."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable or shutil.which("chromium"), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def offline(context) -> list[str]:
    """Block every request of the browser context that would leave 127.0.0.1; returns the list they are noted in."""
    blocked = []

    def route(r):
        url = r.request.url
        host = url.split("/")[2].split(":")[0] if "://" in url else ""
        if url.startswith(("data:", "blob:")) or host == LOCAL:
            r.continue_()
        else:
            blocked.append(url)
            r.abort()

    context.route("**/*", route)
    return blocked


if __name__ == "__main__":  # serve(): PORT [--gzip], from the folder to serve
    Handler.gzip = "--gzip" in sys.argv
    http.server.ThreadingHTTPServer((LOCAL, int(sys.argv[1])), Handler).serve_forever()
