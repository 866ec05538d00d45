// Draws the page's widgets, live, from the widget state embedded in the page, without the ipywidgets manager.
//
// Every widget of this book is an anywidget: an ES module (its `_esm` text) whose default export has
// `render({model, el})`, with its CSS in `_css`. The page embeds each model's state
// (<script type="application/vnd.jupyter.widget-state+json">) and a placeholder per view
// (<script type="application/vnd.jupyter.widget-view+json">). This loader gives each module what the book's
// widgets use of the anywidget contract: get/set/on/off run in the page; save_changes has no kernel to talk to,
// so it does nothing (no widget of the book has binary traits, `initialize` or messages to send).
// _ext/widget_loader.py puts it on the pages whose widgets are all anywidgets; a page with a standard
// ipywidget keeps the full manager. A kernel front end (JupyterLab, Notebook) uses the real anywidget, never
// this file. It is a classic script, so the pages work from file:// too.
(() => {
  "use strict";

  const STATE = 'script[type="application/vnd.jupyter.widget-state+json"]';
  const VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]';

  // Backbone's notion of a change (ipywidgets models are Backbone models): deep equality of JSON values.
  function same(a, b) {
    if (a === b) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }

  class Model {
    constructor(state) {
      this.attributes = state;
      this.listeners = [];
    }

    get(name) {
      return this.attributes[name];
    }

    set(name, value) {
      const changes = typeof name === "object" ? name : { [name]: value };
      const changed = Object.keys(changes).filter((k) => !same(this.attributes[k], changes[k]));
      for (const k of changed) this.attributes[k] = changes[k];
      for (const k of changed) this.trigger(`change:${k}`, this, changes[k]);
      if (changed.length) this.trigger("change", this);
    }

    on(name, callback) {
      this.listeners.push({ name, callback });
    }

    off(name, callback) {
      this.listeners = this.listeners.filter((l) => l.name !== name || l.callback !== callback);
    }

    trigger(name, ...args) {
      for (const l of this.listeners.filter((l) => l.name === name)) l.callback.apply(this, args);
    }

    // The page holds the only copy of the state, and no kernel listens.
    save_changes() {}
  }

  // One module per model (as anywidget does), however many views it has.
  const modules = new Map();
  function widgetModule(model) {
    if (!modules.has(model)) {
      const url = URL.createObjectURL(new Blob([model.get("_esm")], { type: "text/javascript" }));
      modules.set(model, import(url).finally(() => URL.revokeObjectURL(url)));
    }
    return modules.get(model);
  }

  async function show(tag, models) {
    const model = models.get(JSON.parse(tag.textContent).model_id);
    if (!model || !tag.parentElement) return;
    const area = document.createElement("div");
    area.className = "widget-subarea";
    const el = document.createElement("div");
    area.appendChild(el);
    tag.parentElement.insertBefore(area, tag);
    const id = model.get("_anywidget_id");
    if (model.get("_css") && !document.getElementById(id)) {
      const style = document.createElement("style");
      style.id = id;
      style.textContent = model.get("_css");
      document.head.appendChild(style);
    }
    try {
      await (await widgetModule(model)).default.render({ model, el });
    } catch (error) {
      area.textContent = `交互组件无法显示：${error}`;
      console.error(error);
    }
  }

  function start() {
    const source = document.querySelector(STATE);
    if (!source) return;
    const saved = Object.entries(JSON.parse(source.textContent).state);
    const models = new Map(saved.map(([id, entry]) => [id, new Model(entry.state)]));
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
