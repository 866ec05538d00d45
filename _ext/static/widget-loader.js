// Draws the page's widgets, live, from the widget state embedded in the page, without the ipywidgets manager.
//
// Every widget of this book is an anywidget: an ES module (its `_esm` text) whose default export has
// `render({model, el})` (and possibly `initialize({model})`), with its CSS in `_css`. The page embeds each
// model's state (<script type="application/vnd.jupyter.widget-state+json">) and a placeholder per view
// (<script type="application/vnd.jupyter.widget-view+json">). This loader gives each module the anywidget
// contract over that state: get/set/on/off run in the page; save_changes and send have no kernel to talk
// to, so they do nothing. _ext/widget_loader.py puts it on the pages whose widgets are all anywidgets;
// a page with a standard ipywidget keeps the full manager. A kernel front end (JupyterLab, Notebook) uses
// the real anywidget, never this file. It is a classic script, so the pages work from file:// too.
(() => {
  "use strict";

  const STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';
  const VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';

  // Backbone's notion of a change (ipywidgets models are Backbone models): deep equality of JSON-like values.
  function same(a, b) {
    if (a === b) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
      if (!(ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) || a.byteLength !== b.byteLength) return false;
      const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      return x.every((v, i) => v === y[i]);
    }
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }

  class Model {
    constructor(id, state, models) {
      this.model_id = id;
      this.attributes = state;
      this.listeners = [];
      this.widget_manager = { get_model: async (other) => models.get(other) };
    }

    get(name) {
      return this.attributes[name];
    }

    set(name, value) {
      const changes = typeof name === "object" && name !== null ? name : { [name]: value };
      const changed = Object.keys(changes).filter((k) => !same(this.attributes[k], changes[k]));
      for (const k of changed) this.attributes[k] = changes[k];
      for (const k of changed) this.trigger(`change:${k}`, this, changes[k]);
      if (changed.length) this.trigger("change", this);
    }

    on(names, callback, context) {
      for (const name of names.split(/\s+/)) this.listeners.push({ name, callback, context });
    }

    off(names, callback, context) {
      const drop = (names || "").split(/\s+/).filter(Boolean);
      this.listeners = this.listeners.filter((l) => !((!drop.length || drop.includes(l.name))
        && (!callback || l.callback === callback) && (!context || l.context === context)));
    }

    trigger(name, ...args) {
      for (const l of this.listeners.filter((l) => l.name === name)) l.callback.apply(l.context || this, args);
    }

    // The page holds the only copy of the state, and no kernel listens.
    save_changes() {}

    send() {}
  }

  // Binary traits travel beside the JSON, base64-encoded, each with its place in the state.
  function withBuffers(state, buffers = []) {
    for (const { path, data } of buffers) {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const parent = path.slice(0, -1).reduce((node, key) => node[key], state);
      parent[path[path.length - 1]] = new DataView(bytes.buffer);
    }
    return state;
  }

  function addCss(css, id) {
    if (!css || document.getElementById(id)) return;
    const style = document.createElement("style");
    style.id = id;
    style.textContent = css;
    document.head.appendChild(style);
  }

  const experimental = { invoke: async () => { throw new Error("这个页面没有连接 Python 内核"); } };

  // One module, and one `initialize`, per model (as anywidget does), however many views it has.
  const definitions = new Map();
  function definition(model) {
    if (!definitions.has(model)) {
      definitions.set(model, (async () => {
        const url = URL.createObjectURL(new Blob([model.get("_esm")], { type: "text/javascript" }));
        const mod = await import(url).finally(() => URL.revokeObjectURL(url));
        const exported = mod.default || { render: mod.render };
        const widget = typeof exported === "function" ? await exported() : exported;
        await widget.initialize?.({ model, experimental });
        return widget;
      })());
    }
    return definitions.get(model);
  }

  async function show(tag, models) {
    const model = models.get(JSON.parse(tag.textContent).model_id);
    if (!model || !tag.parentElement) return;
    const area = document.createElement("div");
    area.className = "widget-subarea";
    const el = document.createElement("div");
    el.classList.add(...(model.get("_dom_classes") || []));
    area.appendChild(el);
    tag.parentElement.insertBefore(area, tag);
    addCss(model.get("_css"), model.get("_anywidget_id"));
    try {
      const widget = await definition(model);
      await widget.render?.({ model, el, experimental });
    } catch (error) {
      area.textContent = `插件无法显示：${error}`;
      console.error(error);
    }
  }

  function start() {
    const source = document.querySelector(STATE);
    if (!source) return;
    const saved = JSON.parse(source.textContent).state;
    const models = new Map();
    for (const [id, entry] of Object.entries(saved)) {
      models.set(id, new Model(id, withBuffers(entry.state, entry.buffers), models));
    }
    const pending = [...document.querySelectorAll(VIEW)];
    const draw = (tag) => {
      const i = pending.indexOf(tag);
      if (i >= 0) {
        pending.splice(i, 1);
        show(tag, models);
      }
    };
    // Widgets on or near the first screen are drawn at once; the others when the reader comes near
    // them or when the browser has nothing else to do, whichever is first.
    const near = new IntersectionObserver((entries) => {
      for (const entry of entries.filter((e) => e.isIntersecting)) {
        near.unobserve(entry.target);
        pending.filter((tag) => tag.parentElement === entry.target).forEach(draw);
      }
    }, { rootMargin: "100% 0px" });
    for (const tag of pending) if (tag.parentElement) near.observe(tag.parentElement);
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 50));
    const rest = () => {
      if (pending.length) {
        draw(pending[0]);
        idle(rest);
      }
    };
    idle(rest);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
