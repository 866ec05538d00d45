"""Sphinx extension: a page referred to by ``{numref}`` is loaded once per build, not once per reference.

Sphinx 7.4 resolves each ``{numref}`` by unpickling the whole doctree of the page the target is on
(``StandardDomain._resolve_numref_xref``), only to read the target node's type and number. The book's pages carry
their widgets' state, so one load takes about 40 ms: of the LaTeX build's 20 s, 7 s went to the 163 references of
its thirteen documents, and 2.7 s of the site build's. The target is only read there, so each page's doctree is
loaded once and kept for the rest of the build (the doctrees do not change once they are written).
"""
from __future__ import annotations

from sphinx.domains.std import StandardDomain


class StandardDomainLoadingEachPageOnce(StandardDomain):
    def _resolve_numref_xref(self, env, *args, **kwargs):
        loaded = self.__dict__.setdefault("_loaded_pages", {})
        load = env.get_doctree
        env.get_doctree = lambda docname: loaded[docname] if docname in loaded else loaded.setdefault(
            docname, load(docname))
        try:
            return super()._resolve_numref_xref(env, *args, **kwargs)
        finally:
            del env.get_doctree  # the instance attribute: env.get_doctree is Sphinx's own method again


def setup(app):
    app.add_domain(StandardDomainLoadingEachPageOnce, override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
