// Front end of labcode.widgets.GradientExplorer (an anywidget ES module).
// The browser does the maths itself, so the page steps with no kernel; in a kernel the
// traitlets sync both ways and Python computes the same numbers with labcode.
// softmax, crossEntropy, crossEntropyGrad, gradientStep, fmt, short (maths.js) and
// make, keepControlKeys (dom.js) are shared by the widget family and bundled in front of this file.

// Everything the widget shows for logits z, target y and learning rate lr:
//   p = softmax(z), loss = -ln p_y, grad = p - e_y, z' = z - lr * grad, p' = softmax(z'), loss'.
export function stepMaths(logits, target, lr) {
  const probs = softmax(logits);
  const grad = crossEntropyGrad(logits, target);
  const nextLogits = gradientStep(logits, target, lr);
  return {
    probs, grad, nextLogits,
    loss: crossEntropy(logits, target),
    nextProbs: softmax(nextLogits),
    nextLoss: crossEntropy(nextLogits, target),
  };
}

// n steps from z: the logits reached and the loss after each step (as GradientExplorer.step(n)).
export function runSteps(logits, target, lr, n) {
  let z = logits;
  const losses = [];
  for (let i = 0; i < n; i++) {
    z = gradientStep(z, target, lr);
    losses.push(crossEntropy(z, target));
  }
  return { logits: z, losses };
}

const PLAY_MS = 300; // one step every 0.3 s while "连续走" runs
const SVG = "http://www.w3.org/2000/svg";

function build(model, el) {
  const root = make("div", "gx-root lc-widget", el);
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "梯度一步探索器");
  const V = model.get("logits").length;
  const labels = model.get("labels");
  const palette = model.get("palette");
  const colour = (k) => palette[k % palette.length];

  // Bars: solid = p now, hatched = p' after one step; heights on a fixed 0..1 axis.
  const chart = make("div", "gx-chart", root);
  chart.setAttribute("aria-hidden", "true");
  const bars = [];
  for (let k = 0; k < V; k++) {
    const col = make("div", "gx-col", chart);
    const track = make("div", "gx-track", col);
    const now = make("div", "gx-bar gx-now", track);
    const after = make("div", "gx-bar gx-after", track);
    now.style.background = colour(k);
    after.style.setProperty("--gx-colour", colour(k));
    make("div", "gx-barlabel", col, labels[k]);
    bars.push({ now, after });
  }
  const legend = make("p", "gx-legend", root);
  make("span", "gx-key gx-key-now", legend);
  make("span", "", legend, "实心：当前 p　");
  make("span", "gx-key gx-key-after", legend);
  make("span", "", legend, "斜线：走一步后 p′　粗框：目标");

  // Sliders: one per logit (a new start), and the learning rate (does not restart).
  const controls = make("div", "gx-controls", root);
  const sliders = [];
  for (let k = 0; k < V; k++) {
    const row = make("label", "gx-row", controls);
    const name = make("span", "gx-name", row);
    make("span", "gx-swatch", name).style.background = colour(k);
    make("span", "", name, `z(${labels[k]})`);
    const input = make("input", "gx-logit", row);
    input.type = "range";
    input.setAttribute("aria-label", `${labels[k]} 的分数 z（从这里重新开始）`);
    input.dataset.k = String(k);
    input.min = String(model.get("logit_min"));
    input.max = String(model.get("logit_max"));
    input.step = String(model.get("logit_step"));
    const out = make("output", "lc-num gx-zval", row);
    input.addEventListener("input", () => {
      const z = model.get("logits").slice();
      z[k] = input.valueAsNumber;
      restartAt(z, model.get("target"));
    });
    sliders.push({ input, out });
  }
  const lrRow = make("label", "gx-row", controls);
  make("span", "gx-name", lrRow, "学习率 η");
  const lrInput = make("input", "gx-lr", lrRow);
  lrInput.type = "range";
  lrInput.setAttribute("aria-label", "学习率 η");
  lrInput.min = String(model.get("lr_min"));
  lrInput.max = String(model.get("lr_max"));
  lrInput.step = String(model.get("lr_step"));
  const lrOut = make("output", "lc-num gx-lrval", lrRow);
  lrInput.addEventListener("input", () => {
    model.set("lr", lrInput.valueAsNumber);
    model.save_changes();
  });

  // Target and the stepping buttons.
  const actions = make("div", "gx-actions", root);
  const tLabel = make("label", "gx-target", actions);
  make("span", "", tLabel, "真实目标 y ");
  const select = make("select", "gx-select", tLabel);
  labels.forEach((label, k) => {
    const option = make("option", "", select, label);
    option.value = String(k);
  });
  select.addEventListener("change", () => restartAt(model.get("logits"), Number(select.value)));
  const stepButton = make("button", "gx-step", actions, "走一步");
  const playButton = make("button", "gx-play", actions, "连续走");
  const resetButton = make("button", "gx-reset", actions, "回到起点");
  for (const b of [stepButton, playButton, resetButton]) b.type = "button";
  playButton.setAttribute("aria-pressed", "false");

  // Readout: one row per candidate.
  const formula = make("p", "gx-formula", root, "g = p − e_y，z′ = z − η·g，p′ = softmax(z′)");
  formula.setAttribute("aria-label", "梯度 g 等于 p 减 e_y；走一步后的分数 z′ 等于 z 减 η 乘 g；p′ 是 z′ 的 softmax");
  const table = make("table", "gx-table", root);
  const head = make("tr", "", make("thead", "", table));
  for (const h of ["候选", "z", "p", "梯度 g", "z′", "p′"]) make("th", "", head, h);
  const body = make("tbody", "", table);
  const cells = [];
  for (let k = 0; k < V; k++) {
    const tr = make("tr", "", body);
    make("th", "", tr, labels[k]).scope = "row";
    const row = { tr };
    for (const key of ["z", "p", "g", "zn", "pn"]) {
      row[key] = make("td", `lc-num gx-${key}`, tr);
      row[key].dataset.k = String(k);
    }
    cells.push(row);
  }
  const lossLine = make("p", "gx-lossline", root);
  lossLine.setAttribute("aria-live", "polite");

  // Loss history: a sparkline plus the full list in a <details> (the numbers are there for everyone).
  const hist = make("div", "gx-history", root);
  const histTitle = make("p", "gx-histtitle", hist);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "gx-spark");
  svg.setAttribute("viewBox", "0 0 100 30");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  const line = document.createElementNS(SVG, "polyline");
  const dot = document.createElementNS(SVG, "path"); // the latest loss: a round cap on a zero-length path
  svg.append(line, dot);
  hist.appendChild(svg);
  const details = make("details", "gx-details", hist);
  make("summary", "", details, "全部损失记录");
  const list = make("ol", "gx-list", details);
  list.start = 0;
  keepControlKeys(root);

  // ---------------------------------------------------------- actions
  function restartAt(z, y) {
    stop();
    model.set({ logits: z, target: y, start_logits: z, steps: 0, history: [crossEntropy(z, y)] });
    model.save_changes();
  }
  function stepOnce() {
    const steps = model.get("steps");
    if (steps >= model.get("max_steps")) return false;
    const y = model.get("target");
    const { logits, losses } = runSteps(model.get("logits"), y, model.get("lr"), 1);
    model.set({ logits, steps: steps + 1, history: [...model.get("history"), ...losses] });
    model.save_changes();
    return true;
  }
  let timer = null;
  function stop() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    update();
  }
  function play() {
    timer = setInterval(() => { if (!stepOnce()) stop(); }, PLAY_MS);
    update();
  }
  stepButton.addEventListener("click", () => { stop(); stepOnce(); });
  playButton.addEventListener("click", () => (timer === null ? play() : stop()));
  resetButton.addEventListener("click", () => {
    stop();
    const z = model.get("start_logits");
    model.set({ logits: z, steps: 0, history: [crossEntropy(z, model.get("target"))] });
    model.save_changes();
  });

  // ---------------------------------------------------------- view
  function drawHistory(history) {
    const top = Math.max(...history) || 1;
    const n = Math.max(history.length - 1, 1);
    const points = history.map((v, i) => [(100 * i) / n, 30 - (28 * v) / top]);
    line.setAttribute("points", points.map((xy) => xy.join(",")).join(" "));
    dot.setAttribute("d", `M${points[points.length - 1].join(",")}h0`);
    const last = history.length - 1;
    histTitle.textContent = last === 0
      ? `损失记录：第 0 步 ${fmt(history[0], 4)}（还没走）`
      : `损失记录：第 0 步 ${fmt(history[0], 4)} → 第 ${last} 步 ${fmt(history[last], 4)}`;
    while (list.children.length > history.length) list.lastChild.remove();
    for (let i = 0; i < history.length; i++) {
      const item = list.children[i] || make("li", "gx-item", list);
      item.textContent = fmt(history[i], 4);
    }
  }

  function update() {
    const z = model.get("logits");
    if (z.length !== V) return; // the candidate count changed: a rebuild follows
    const y = model.get("target");
    const lr = model.get("lr");
    const m = stepMaths(z, y, lr);
    for (let k = 0; k < V; k++) {
      bars[k].now.style.height = `${(100 * m.probs[k]).toFixed(2)}%`;
      bars[k].after.style.height = `${(100 * m.nextProbs[k]).toFixed(2)}%`;
      bars[k].now.classList.toggle("gx-is-target", k === y);
      bars[k].after.classList.toggle("gx-is-target", k === y);
      if (sliders[k].input.valueAsNumber !== z[k]) sliders[k].input.value = String(z[k]);
      sliders[k].out.textContent = fmt(z[k], 2);
      const c = cells[k];
      c.z.textContent = fmt(z[k], 3);
      c.z.dataset.value = String(z[k]); // the exact state (String round-trips a double)
      c.p.textContent = fmt(m.probs[k], 3);
      c.g.textContent = fmt(m.grad[k], 3);
      c.zn.textContent = fmt(m.nextLogits[k], 3);
      c.pn.textContent = fmt(m.nextProbs[k], 3);
      c.tr.classList.toggle("gx-is-target", k === y);
    }
    if (lrInput.valueAsNumber !== lr) lrInput.value = String(lr);
    lrOut.textContent = short(lr);
    select.value = String(y);
    const steps = model.get("steps");
    const atEnd = steps >= model.get("max_steps");
    stepButton.disabled = atEnd;
    playButton.disabled = atEnd && timer === null;
    playButton.textContent = timer === null ? "连续走" : "暂停";
    playButton.setAttribute("aria-pressed", String(timer !== null));
    lossLine.textContent = "";
    make("span", "", lossLine, `第 ${steps} 步：损失 ℓ = `);
    make("strong", "gx-loss", lossLine, fmt(m.loss, 4));
    make("span", "", lossLine, "，走一步后 ℓ′ = ");
    make("strong", "gx-nextloss", lossLine, fmt(m.nextLoss, 4));
    make("span", "", lossLine, atEnd ? `（已到 ${steps} 步上限）` : "");
    lossLine.dataset.steps = String(steps);
    drawHistory(model.get("history"));
  }

  const WATCH = ["logits", "target", "lr", "steps", "history", "max_steps"];
  for (const name of WATCH) model.on(`change:${name}`, update);
  update();
  return () => {
    stop();
    for (const name of WATCH) model.off(`change:${name}`, update);
    root.remove();
  };
}

const LAYOUT_TRAITS = ["labels", "palette", "logit_min", "logit_max", "logit_step", "lr_min", "lr_max", "lr_step"];

function render({ model, el }) {
  let view = { V: model.get("logits").length, teardown: build(model, el) };
  // Labels and logits of a new candidate count may arrive one at a time: rebuild once they agree.
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
