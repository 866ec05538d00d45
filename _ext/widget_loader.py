"""Pages whose widgets are all anywidgets load a 3 KB loader instead of the 3.6 MB ipywidgets manager.

myst-nb embeds every widget's state in the page and adds the scripts of `nb_ipywidgets_js` (require.js and
the ipywidgets HTML manager, served from _vendor/widgets/). The manager exists to run any ipywidget; an
anywidget only needs its own ES module, which the state already holds, and a model to read and write.
`static/widget-loader.js` gives it that. On a page where every model is an anywidget without binary traits
(plus layout models left at their defaults, which change nothing), the manager's scripts are replaced by the
loader; a page with any other widget keeps the manager. Pages without widgets load neither.
"""
from __future__ import annotations

import json

import site_files

STATE_TYPE = "application/vnd.jupyter.widget-state+json"
LOADER = "widget-loader.js"


def _inert_layout(model: dict) -> bool:
    """A layout or style model whose every setting is unset: it changes nothing on the page."""
    settings = {k: v for k, v in model.get("state", {}).items() if not k.startswith("_")}
    return (model.get("model_module") == "@jupyter-widgets/base" and model.get("model_name") == "LayoutModel"
            and all(v is None for v in settings.values()))


def loader_suffices(state: dict) -> bool:
    """True when every model of the embedded widget state can be drawn by the loader."""
    models = state.get("state", {}).values()
    return bool(models) and all(
        (m.get("model_module") == "anywidget" and m.get("model_name") == "AnyModel" and not m.get("buffers"))
        or _inert_layout(m) for m in models)


def _page(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files", [])
    state = next((js for js in scripts if getattr(js, "attributes", {}).get("type") == STATE_TYPE), None)
    if state is None or not loader_suffices(json.loads(state.attributes["body"])):
        return
    manager = tuple(app.config.nb_ipywidgets_js)
    scripts[:] = [js for js in scripts if not str(js.filename or "").endswith(manager)]
    app.add_js_file(LOADER, defer="defer")


def setup(app):
    site_files.serve_static(app)
    # After myst-nb has added the page's widget scripts, before no_thebe copies the list.
    app.connect("html-page-context", _page, priority=800)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
