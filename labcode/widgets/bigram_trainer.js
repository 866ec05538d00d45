// Front end of labcode.widgets.BigramTrainer (an anywidget ES module).
// The page trains W itself, so the static site trains with no kernel: full-batch gradient
// descent on the count path, loss = loss_and_grad_from_counts(W, C + alpha, lambda), a few
// steps per animation frame so the curve grows live. When a run ends (or is paused) the page
// writes W and the loss history back to the model; in a kernel Python then holds them.
import { countLossGradFlat, countOptimum, countStepFlat, fmt, mulberry32, sampleBigram, short } from "./maths.js";
import { keepControlKeys, liveRegion, make, onChanges, save, sliderRow, svg, widgetRoot, writeLine } from "./dom.js";

// The maths this page runs, for the tests that compare it with labcode.
export * as maths from "./maths.js";

const MARGIN = { left: 52, right: 26, top: 12, bottom: 34 };

// Ticks at round values (steps of 1, 2 or 5 times a power of ten), three to six of them on [lo, hi].
function roundTicks(lo, hi) {
  const rough = (hi - lo) / 4;
  const unit = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * unit).find((v) => v >= rough * 0.75);
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const ticks = [];
  for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + 1e-9 * step; k++) ticks.push([k * step, fmt(k * step, digits)]);
  return ticks;
}

// 10 to an integer power in superscript digits, as the log axes of the chapter's figures print it: 10⁻³.
function powerOfTen(e) {
  return "10" + Array.from(String(e), (c) => (c === "-" ? "⁻" : "⁰¹²³⁴⁵⁶⁷⁸⁹"[c])).join("");
}

// x as a×10ⁿ with `digits` decimals in a, as the chapter writes small numbers: 3.21×10⁻⁴ (1.50 when n = 0).
function scientific(x, digits) {
  const [mantissa, exponent] = x.toExponential(digits).split("e");
  return Number(exponent) === 0 ? mantissa : `${mantissa}×${powerOfTen(Number(exponent))}`;
}

// Trainer state that lives in the page: flat W, the counts C + alpha, the history.
function trainerState(model) {
  const counts = model.get("counts");
  const V = counts.length;
  const alpha = model.get("alpha");
  const C = Float64Array.from(counts.flat(), (n) => n + alpha);
  const raw = Float64Array.from(counts.flat());
  const saved = model.get("W");
  const W = saved.length === V ? Float64Array.from(saved.flat()) : new Float64Array(V * V);
  return { V, C, raw, W, grad: new Float64Array(V * V), history: model.get("history").slice(),
           optimum: countOptimum(C, V) };
}

function build(model, el) {
  const root = widgetRoot(el, "bt-root", "Bigram 训练器");
  let s = trainerState(model);
  let running = 0; // requestAnimationFrame id while training

  make("p", "bt-note", root,
    "实线：训练损失（C + α 上的平均负对数似然，加上 λ·mean(W²)）。虚线：计数最优，即把 C + α 按行归一化" +
    "得到的计数模型在同一份计数 C + α 上的平均负对数似然；λ = 0 时任何 W 的训练损失都不低于它。");

  // Two charts in currentColor: the loss with the optimum (dashed, labelled), and the gap to it on a
  // log scale (the tail of the approach is too small to see on the first). Widths follow the element.
  const lossChart = chart("bt-chart bt-losschart", 230);
  const optLine = svg("line", { class: "bt-optline", "stroke-dasharray": "7 5" }, lossChart.svg);
  const optText = svg("text", { class: "bt-opttext", "text-anchor": "end" }, lossChart.svg);
  const gapChart = chart("bt-chart bt-gapchart", 150);

  function chart(cls, h) {
    const node = svg("svg", { class: cls, role: "img" }, root);
    const axes = svg("g", { class: "bt-axes" }, node);
    const curve = svg("polyline", { class: "bt-curve", fill: "none" }, node);
    return { svg: node, axes, curve, h };
  }

  // Draw values[t] (t = 0, 1, ...) on [lo, hi] over `steps` steps; returns the y mapping.
  function plot(c, values, steps, lo, hi, ticks, yLabel) {
    const w = Math.max(280, Math.round(root.clientWidth || 600)), h = c.h;
    for (const [k, v] of Object.entries({ viewBox: `0 0 ${w} ${h}`, width: w, height: h })) c.svg.setAttribute(k, v);
    const x = (t) => MARGIN.left + (w - MARGIN.left - MARGIN.right) * t / steps;
    const y = (v) => MARGIN.top + (h - MARGIN.top - MARGIN.bottom) * (hi - v) / (hi - lo);
    c.axes.textContent = "";
    svg("path", { class: "bt-frame", fill: "none",
                  d: `M${MARGIN.left},${MARGIN.top}V${h - MARGIN.bottom}H${w - MARGIN.right}` }, c.axes);
    for (const [v, text] of ticks) {
      svg("text", { x: MARGIN.left - 6, y: y(v) + 4, "text-anchor": "end" }, c.axes).textContent = text;
    }
    for (let k = 0; k <= 2; k++) {
      const t = Math.round(steps * k / 2);
      svg("text", { x: x(t), y: h - MARGIN.bottom + 16, "text-anchor": k === 2 ? "end" : "middle" }, c.axes)
        .textContent = String(t);
    }
    svg("text", { x: MARGIN.left, y: h - 2, "text-anchor": "start" }, c.axes).textContent = yLabel;
    svg("text", { x: w - MARGIN.right, y: h - 2, "text-anchor": "end" }, c.axes).textContent = "步数";
    // At most ~600 buckets; each draws its lowest and its highest point in step order, so a loss that
    // goes up every other step still shows as a zigzag however long the run.
    const stride = Math.max(1, Math.ceil(values.length / 600));
    const points = [];
    let last = -1;
    const point = (t) => { points.push(`${x(t).toFixed(1)},${y(values[t]).toFixed(1)}`); last = t; };
    for (let start = 0; start < values.length; start += stride) {
      let lo = start, hi = start;
      for (let t = start + 1; t < Math.min(values.length, start + stride); t++) {
        if (values[t] < values[lo]) lo = t;
        if (values[t] > values[hi]) hi = t;
      }
      point(Math.min(lo, hi));
      if (hi !== lo) point(Math.max(lo, hi));
    }
    if (last < values.length - 1) point(values.length - 1);
    c.curve.setAttribute("points", points.join(" "));
    return { x, y, w };
  }

  const readout = liveRegion("p", "bt-readout", root);

  const controls = make("div", "lc-controls", root);
  const inputs = {};
  const sliders = model.get("sliders");   // [trait, label, min, max, step], from Python's SLIDERS
  for (const [name, text, min, max, step] of sliders) {
    const { input, out } = sliderRow(controls, { name: text, input: `bt-slider bt-${name}`,
                                                 out: `bt-val bt-${name}-val`, min, max, step, steppers: true });
    input.addEventListener("input", () => {
      // A new alpha or lambda is a new objective: W and the curve start again from 0.
      const restart = name === "alpha" || name === "reg" ? { W: [], history: [] } : {};
      save(model, { [name]: input.valueAsNumber, ...restart });
    });
    inputs[name] = { input, out };
  }

  const actions = make("div", "lc-actions", root);
  const trainButton = make("button", "bt-train", actions);
  const resetButton = make("button", "bt-reset", actions, "重置 W = 0");

  const sampler = make("div", "lc-actions bt-sampler", root);
  const seedLabel = make("label", "bt-seedlabel", sampler);
  make("span", "", seedLabel, "随机种子 ");
  const seedInput = make("input", "bt-seed", seedLabel);
  const seedMax = model.get("seed_max");
  Object.assign(seedInput, { type: "number", min: "0", max: String(seedMax), step: "1" });
  const nextSeed = make("button", "bt-nextseed", sampler, "换一批名字");
  for (const b of [trainButton, resetButton, nextSeed]) b.type = "button";
  const namesCaption = make("p", "bt-namescaption", root);
  const namesList = liveRegion("ol", "bt-names", root);
  keepControlKeys(root);

  // ---- drawing
  function drawChart() {
    const h = s.history;
    const steps = Math.max(h.length, model.get("steps"));
    const hi = Math.max(h.length ? h[0] : Math.log(s.V), s.optimum + 0.1);
    const lo = Math.min(s.optimum, ...h.slice(-1)) - 0.05 * (hi - s.optimum);
    const ticks = roundTicks(lo, hi);
    const { y, w } = plot(lossChart, h, steps, lo, hi, ticks, "训练损失（实线）");
    const yo = y(s.optimum);
    for (const [k, v] of Object.entries({ x1: MARGIN.left, x2: w - MARGIN.right, y1: yo, y2: yo })) optLine.setAttribute(k, v);
    optText.setAttribute("x", w - MARGIN.right - 4);
    optText.setAttribute("y", yo - 6);
    optText.textContent = `计数最优 ${fmt(s.optimum, 4)}（虚线）`;
    lossChart.svg.setAttribute("aria-label", `损失曲线：${h.length} 步，计数最优 ${fmt(s.optimum, 4)}`);
    // The gap to the optimum, log10 scale, clipped to [1e-6, 10].
    const gaps = h.map((v) => Math.log10(Math.min(10, Math.max(1e-6, v - s.optimum))));
    const gHi = Math.ceil(Math.max(0, gaps.length ? gaps[0] : 0));
    const gLo = Math.floor(gaps.reduce((a, b) => Math.min(a, b), -3));
    const gTicks = [];
    for (let e = gLo; e <= gHi; e += Math.max(1, Math.ceil((gHi - gLo) / 4))) gTicks.push([e, powerOfTen(e)]);
    plot(gapChart, gaps, steps, gLo, gHi, gTicks, "与虚线之差（对数刻度）");
    const last = h.length ? scientific(h[h.length - 1] - s.optimum, 1) : "-";
    gapChart.svg.setAttribute("aria-label", `损失与计数最优之差，对数刻度：最后一步 ${last}`);
  }

  function drawReadout() {
    const loss = countLossGradFlat(s.W, s.C, s.V, model.get("reg"), s.grad);
    const nll = countLossGradFlat(s.W, s.raw, s.V, 0, s.grad);
    writeLine(readout, ["已训练 ", ["strong", "bt-steps", String(s.history.length)], " 步；当前损失 ",
                        ["strong", "bt-loss", fmt(loss, 4)], "，计数最优 ", ["span", "bt-opt", fmt(s.optimum, 4)],
                        "，差 ", ["span", "bt-gap", scientific(loss - s.optimum, 2)],
                        "。在原始计数 C 上的平均负对数似然 ", ["span", "bt-nll", fmt(nll, 4)], "。"]);
  }

  function drawNames() {
    const tau = model.get("temperature");
    const vocab = model.get("vocab");
    const rand = mulberry32(model.get("seed"));
    const words = sampleBigram(s.W, s.V, tau, rand, model.get("n_names"), model.get("max_name_len"));
    namesCaption.textContent = `从当前 W 采样的名字（τ = ${short(tau)}，种子 ${model.get("seed")}）：`;
    namesList.textContent = "";
    for (const ids of words) {   // a long name takes two columns rather than breaking in the middle
      const item = make("li", "bt-name-item", namesList, ids.length ? ids.map((i) => vocab[i]).join("") : "（空）");
      if (ids.length > 10) item.classList.add("bt-name-long");
    }
  }

  function drawControls() {
    for (const [name] of sliders) {
      const v = model.get(name);
      if (inputs[name].input.valueAsNumber !== v) inputs[name].input.value = String(v);
      inputs[name].out.textContent = short(v);
    }
    if (seedInput.valueAsNumber !== model.get("seed")) seedInput.value = String(model.get("seed"));
    trainButton.textContent = running ? "暂停" : `训练 ${model.get("steps")} 步`;
    trainButton.setAttribute("aria-pressed", running ? "true" : "false");
  }

  function drawAll() { drawControls(); drawChart(); drawReadout(); drawNames(); }

  // ---- training in animation frames
  let writing = false; // our own write-back must not reload the state half-way
  function saveResult() {
    const V = s.V, W = Array.from({ length: V }, (_, i) => Array.from(s.W.subarray(i * V, (i + 1) * V)));
    writing = true;
    model.set({ W, history: s.history.slice() });
    writing = false;
    model.save_changes();
  }

  function stop(save = true) {
    if (!running) return;
    cancelAnimationFrame(running);
    running = 0;
    if (save) saveResult();
    drawAll();
  }

  function start() {
    let left = model.get("steps");
    const frame = () => {
      const n = Math.min(left, model.get("frame_steps"));
      const reg = model.get("reg"), lr = model.get("lr");
      for (let k = 0; k < n; k++) s.history.push(countStepFlat(s.W, s.C, s.V, reg, lr, s.grad));
      left -= n;
      drawChart();
      drawReadout();
      if (left > 0) running = requestAnimationFrame(frame);
      else stop(true);
    };
    running = requestAnimationFrame(frame);
    drawControls();
  }

  trainButton.addEventListener("click", () => (running ? stop(true) : start()));
  resetButton.addEventListener("click", () => {
    stop(false);
    save(model, { W: [], history: [] });
  });
  seedInput.addEventListener("change", () => {
    const v = Math.trunc(seedInput.valueAsNumber);
    if (Number.isFinite(v) && v >= 0 && v <= seedMax) save(model, { seed: v });
    else seedInput.value = String(model.get("seed"));
  });
  nextSeed.addEventListener("click", () => save(model, { seed: (model.get("seed") + 1) % (seedMax + 1) }));

  // A change of the data, the objective or the weights (from Python or from a control) reloads the state;
  // while a run is animating, only its own final write-back is expected, so other W/history echoes wait.
  const reload = () => { if (!running && !writing) { s = trainerState(model); drawAll(); } };
  const objective = () => { stop(false); s = trainerState(model); drawAll(); };
  const relabel = () => { drawControls(); drawReadout(); drawNames(); };
  const listeners = [["counts", objective], ["alpha", objective], ["reg", objective], ["W", reload],
                     ["history", reload], ["lr", drawControls], ["steps", () => { drawControls(); drawChart(); }],
                     ["temperature", relabel], ["seed", relabel], ["n_names", relabel], ["vocab", relabel]];
  const stops = listeners.map(([name, fn]) => onChanges(model, [name], fn));
  let width = 0;
  const resized = new ResizeObserver(() => {
    if (root.clientWidth !== width) { width = root.clientWidth; drawChart(); }
  });
  resized.observe(root);
  drawAll();
  return () => {
    resized.disconnect();
    stop(false);
    for (const stopListening of stops) stopListening();
    root.remove();
  };
}

export default { render: ({ model, el }) => build(model, el) };
