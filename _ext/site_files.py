"""What the extensions add to the built site: the files of _ext/static/, and rewrites of the finished pages
(a11y_fixes, theme_icons, first_screen, prerendered_maths change what the theme or Sphinx wrote).

The small stylesheets and scripts that every page loads go into one bundle of each kind (`on_every_page`):
one request instead of one per extension, which is what a phone on a slow network waits for."""
from __future__ import annotations

from pathlib import Path

STATIC = str(Path(__file__).with_name("static"))


def _add_static(app):
    if STATIC not in app.config.html_static_path:  # once, whichever extension asks first
        app.config.html_static_path.append(STATIC)


def serve_static(app) -> None:
    """Copy _ext/static/ into the site's _static."""
    app.connect("builder-inited", _add_static)


BUNDLES = {".css": "book.css", ".js": "book.js"}


def on_every_page(app, *filenames: str) -> None:
    """Serve _ext/static/ and load `filenames` (of it) on every page, inside the bundle of their kind, in the order
    of the calls. A bundled script runs deferred, in a scope of its own."""
    serve_static(app)
    if not hasattr(app, "site_bundle"):
        app.site_bundle = []
        app.connect("builder-inited", _write_bundles)
    app.site_bundle.extend(filenames)


def _write_bundles(app) -> None:
    folder = Path(app.doctreedir) / "site-bundle"
    folder.mkdir(parents=True, exist_ok=True)
    for suffix, name in BUNDLES.items():
        parts = [(f, (Path(STATIC) / f).read_text(encoding="utf-8")) for f in app.site_bundle if f.endswith(suffix)]
        if suffix == ".js":
            parts = [(f, f"(() => {{\n{text}\n}})();") for f, text in parts]
        (folder / name).write_text("".join(f"/* {f} */\n{text}\n" for f, text in parts), encoding="utf-8")
    if str(folder) not in app.config.html_static_path:
        app.config.html_static_path.append(str(folder))
    app.add_css_file(BUNDLES[".css"])
    app.add_js_file(BUNDLES[".js"], loading_method="defer")


def under_title(body: str, snippet: str, after: str = "") -> str:
    """`snippet` right after the page's title (after a paragraph that starts with `after` right under it), else
    at the top."""
    end = body.find("</h1>")
    if end < 0:
        return snippet + body
    end += len("</h1>")
    if after and body[end:].lstrip().startswith(after):
        end = body.index("</p>", end) + len("</p>")
    return body[:end] + "\n" + snippet + body[end:]


def download_menu(context) -> dict | None:
    """The theme's download menu of the page (sphinx-book-theme's header buttons), None when it has none."""
    return next((b for b in context.get("header_buttons", []) if b.get("label") == "download-buttons"), None)


def pages(outdir: Path) -> list[Path]:
    """Every page of the site; the theme's HTML fragments in _static are not pages."""
    return sorted(p for p in Path(outdir).rglob("*.html") if p.relative_to(outdir).parts[0] != "_static")


def rewrite_when_built(app, rewrite, priority: int = 500, first=None) -> None:
    """After a successful HTML build, `first(outdir)` once, then `rewrite(text, path, outdir)` on every page,
    writing back the pages it changed. Each rewrite leaves a page it already rewrote as it is (a rebuild)."""
    def finished(app, exception):
        if exception is not None or app.builder.format != "html":
            return
        outdir = Path(app.outdir)
        if first:
            first(outdir)
        for path in pages(outdir):
            text = path.read_text(encoding="utf-8")
            new = rewrite(text, path, outdir)
            if new != text:
                path.write_text(new, encoding="utf-8")

    app.connect("build-finished", finished, priority=priority)


def assets_where(app, node_class, css: str | None = None, js: str | None = None) -> None:
    """Load `css` and `js` (files of _static) on the pages that hold a `node_class` node, and only there."""
    def page(app, pagename, templatename, context, doctree):
        if doctree is not None and next(iter(doctree.findall(node_class)), None) is not None:
            if js:
                app.add_js_file(js, loading_method="defer")
            if css:
                app.add_css_file(css)

    app.connect("html-page-context", page)
