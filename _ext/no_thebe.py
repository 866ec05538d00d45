"""Sphinx extension: leave the Thebe launcher out of every page.

Jupyter Book 1.x always loads sphinx-thebe. This book has no live-kernel button (its widgets run in the
browser), and the launcher's inline config is emitted twice, which throws "THEBE_JS_URL has already been
declared" on every page and names a CDN script.
"""


def _drop_thebe(app, pagename, templatename, context, doctree):
    def keep(asset):
        return "thebe" not in (asset.filename or "").lower() and "THEBE" not in asset.attributes.get("body", "")

    context["script_files"] = [js for js in context.get("script_files", []) if keep(js)]
    context["css_files"] = [css for css in context.get("css_files", []) if keep(css)]


def setup(app):
    app.connect("html-page-context", _drop_thebe, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
