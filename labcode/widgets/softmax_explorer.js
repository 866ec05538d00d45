// Front end of labcode.widgets.SoftmaxExplorer (an anywidget ES module).
// The browser does the maths itself, so the page stays live with no kernel:
// on a static site the sliders still recompute the bars. In a kernel the
// traitlets sync both ways and Python recomputes the same values with labcode.

// Same maths as labcode.softmax / cross_entropy / cross_entropy_grad applied to z / T:
//   p = softmax(z / T), loss = logsumexp(z / T) - z_y / T, dL/dz = (p - e_y) / T.
// Shift by the max before dividing by T, so a tiny T cannot overflow exp.
// softmax, crossEntropy, fmt, short (maths.js) and make, keepControlKeys (dom.js)
// are shared by the widget family and bundled in front of this file.
export function explorerMaths(logits, temperature, target) {
  const m = Math.max(...logits);
  const s = logits.map((z) => (z - m) / temperature); // (V,) all <= 0, max is 0
  const probs = softmax(s);
  const loss = crossEntropy(s, target); // logsumexp(s) - s_y
  const grad = probs.map((p, k) => (p - (k === target ? 1 : 0)) / temperature);
  return { probs, loss, grad };
}

// Build the whole view for the current class count, labels, palette and slider ranges.
// Returns a function that detaches its listeners.
function build(model, el) {
  const root = make("div", "sx-root lc-widget", el);
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "Softmax 探索器");
  const V = model.get("logits").length;
  const labels = model.get("labels");
  const palette = model.get("palette");
  const colour = (k) => palette[k % palette.length];

  // Bars: heights are probabilities on a fixed 0..1 axis (as in the PNG snapshot).
  const chart = make("div", "sx-chart", root);
  chart.setAttribute("aria-hidden", "true");
  const bars = [];
  for (let k = 0; k < V; k++) {
    const col = make("div", "sx-col", chart);
    const track = make("div", "sx-track", col);
    const bar = make("div", "sx-bar", track);
    bar.style.background = colour(k);
    const value = make("span", "sx-barval", bar);
    make("div", "sx-barlabel", col, labels[k]);
    bars.push({ bar, value });
  }

  // One range input per logit: native inputs are keyboard-operable (arrows, Home/End, PageUp/Down).
  const controls = make("div", "sx-controls", root);
  const sliders = [];
  for (let k = 0; k < V; k++) {
    const row = make("label", "sx-row", controls);
    const name = make("span", "sx-name", row);
    make("span", "sx-swatch", name).style.background = colour(k);
    make("span", "", name, `z(${labels[k]})`);
    const input = make("input", "sx-logit", row);
    input.type = "range";
    input.setAttribute("aria-label", `${labels[k]} 的分数 z`);
    input.dataset.k = String(k);
    input.min = String(model.get("logit_min"));
    input.max = String(model.get("logit_max"));
    input.step = String(model.get("step"));
    const out = make("output", "sx-num sx-z", row);
    out.dataset.k = String(k);
    input.addEventListener("input", () => {
      const z = model.get("logits").slice();
      z[k] = input.valueAsNumber;
      model.set("logits", z);
      model.save_changes();
    });
    sliders.push({ input, out });
  }

  // Temperature on a log scale: the slider holds log10(T).
  const trow = make("label", "sx-row", controls);
  make("span", "sx-name", trow, "温度 T");
  const tInput = make("input", "sx-temp", trow);
  tInput.type = "range";
  tInput.setAttribute("aria-label", "温度 T（对数刻度）");
  tInput.min = String(Math.log10(model.get("temperature_min")));
  tInput.max = String(Math.log10(model.get("temperature_max")));
  tInput.step = "0.01";
  const tOut = make("output", "sx-num sx-t", trow);
  tInput.addEventListener("input", () => {
    model.set("temperature", Number((10 ** tInput.valueAsNumber).toPrecision(3)));
    model.save_changes();
  });

  const actions = make("div", "sx-actions", root);
  const tLabel = make("label", "sx-target", actions);
  make("span", "", tLabel, "真实目标 y ");
  const select = make("select", "sx-select", tLabel);
  labels.forEach((label, k) => {
    const option = make("option", "", select, label);
    option.value = String(k);
  });
  select.addEventListener("change", () => {
    model.set("target", Number(select.value));
    model.save_changes();
  });
  // Adding the same c to every logit leaves p unchanged: the buttons let the reader see it.
  const shifts = make("span", "sx-shifts", actions);
  for (const delta of [-1, 1]) {
    const button = make("button", "sx-shift", shifts, `所有分数 ${delta > 0 ? "+" : "-"}1`);
    button.type = "button";
    button.dataset.delta = String(delta);
    button.addEventListener("click", () => {
      model.set("logits", model.get("logits").map((z) => z + delta));
      model.save_changes();
    });
  }

  // Readout: one row per class, so it stays narrow on a phone.
  const table = make("table", "sx-table", root);
  const head = make("tr", "", make("thead", "", table));
  for (const h of ["候选", "概率 p", "梯度 ∂ℓ/∂z"]) make("th", "", head, h);
  const body = make("tbody", "", table);
  const cells = [];
  for (let k = 0; k < V; k++) {
    const tr = make("tr", "", body);
    make("th", "", tr, labels[k]).scope = "row";
    const p = make("td", "sx-num sx-p", tr);
    const g = make("td", "sx-num sx-g", tr);
    p.dataset.k = g.dataset.k = String(k);
    cells.push({ tr, p, g });
  }
  keepControlKeys(root);
  const lossLine = make("p", "sx-lossline", root);
  lossLine.setAttribute("aria-live", "polite");

  function update() {
    const z = model.get("logits");
    if (z.length !== V) return; // the class count changed: a rebuild follows
    const T = model.get("temperature");
    const y = model.get("target");
    const { probs, loss, grad } = explorerMaths(z, T, y);
    for (let k = 0; k < V; k++) {
      const pct = `${(100 * probs[k]).toFixed(2)}%`;
      bars[k].bar.style.height = pct;
      bars[k].bar.classList.toggle("sx-is-target", k === y);
      bars[k].value.textContent = fmt(probs[k], 3);
      // Leave the slider alone while it is the one being dragged (same value anyway).
      if (sliders[k].input.valueAsNumber !== z[k]) sliders[k].input.value = String(z[k]);
      sliders[k].out.textContent = short(z[k]);
      cells[k].p.textContent = fmt(probs[k], 3);
      cells[k].g.textContent = fmt(grad[k], 3);
      cells[k].tr.classList.toggle("sx-is-target", k === y);
    }
    const logT = Math.log10(T);
    if (Math.abs(tInput.valueAsNumber - logT) > 0.005) tInput.value = String(logT);
    tOut.textContent = short(T);
    tInput.setAttribute("aria-valuetext", `T = ${short(T)}`);
    select.value = String(y);
    lossLine.textContent = "";
    make("span", "", lossLine, `交叉熵损失 ℓ = -ln p(${labels[y]}) = `);
    make("strong", "sx-loss", lossLine, fmt(loss, 4));
  }

  for (const name of ["logits", "temperature", "target"]) model.on(`change:${name}`, update);
  update();
  return () => {
    for (const name of ["logits", "temperature", "target"]) model.off(`change:${name}`, update);
    root.remove();
  };
}

const LAYOUT_TRAITS = ["labels", "palette", "logit_min", "logit_max", "step", "temperature_min", "temperature_max"];

function render({ model, el }) {
  let view = { V: model.get("logits").length, teardown: build(model, el) };
  // Labels and logits of a new class count may arrive one at a time: rebuild once they agree.
  const refresh = (force) => {
    const V = model.get("logits").length;
    if (V !== model.get("labels").length || (!force && V === view.V)) return;
    view.teardown();
    view = { V, teardown: build(model, el) };
  };
  const onLayout = () => refresh(true);
  const onLogits = () => refresh(false);
  for (const name of LAYOUT_TRAITS) model.on(`change:${name}`, onLayout);
  model.on("change:logits", onLogits);
  return () => {
    view.teardown();
    for (const name of LAYOUT_TRAITS) model.off(`change:${name}`, onLayout);
    model.off("change:logits", onLogits);
  };
}

export default { render };
