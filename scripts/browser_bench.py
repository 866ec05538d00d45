"""What the page benchmarks share (scripts/bench_pages.py, scripts/compare_maths.py): a site built from the stored
outputs of this tree or of another commit's, and a server that gzips as a static host does. Chromium and its
arguments come from scripts/browser.py. No rows of its own, so its name does not start with bench_.
"""
from __future__ import annotations

import json
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
# The config copy of the tree being built: scripts/build_site.py, or book_config.py in commits before it.
WRITE_CONFIG = """import json, sys
from pathlib import Path
sys.path.insert(0, "scripts")
try:
    from build_site import write_config_copy
except ImportError:
    from book_config import write_config_copy
write_config_copy(Path(sys.argv[1]), None, json.loads(sys.argv[2]))
"""


def stored_output_site(root: Path, out: Path, sphinx_config: dict | None = None) -> Path:
    """The book in `root` built as the test suite builds it (the notebooks' stored outputs, not run again)
    into `out`, with extra Sphinx settings; returns the HTML folder."""
    config = out / "_config_stored.yml"
    subprocess.run([sys.executable, "-c", WRITE_CONFIG, str(config), json.dumps(sphinx_config or {})], cwd=root,
                   check=True)
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
