// Front end of labcode.widgets.GradientExplorer (an anywidget ES module).
// The browser does the maths itself, so the page steps with no kernel; in a kernel the
// traitlets sync both ways and Python computes the same numbers with labcode.
import { crossEntropy, crossEntropyGrad, fmt, gradientStep, short, softmax } from "./maths.js";
import { keepControlKeys, liveRegion, make, onChanges, save, sliderRow, svg, widgetRoot, writeLine } from "./dom.js";
import {
  barChart, candidateRender, colours, markTarget, minusSign, moveSlider, readoutTable, scoreSliders, setHeight,
  subscripted, targetSelect,
} from "./candidates.js";

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
// The dashed preview: the losses of this many more steps at the current lr (as GradientExplorer.snapshot_png).
export const PREVIEW_STEPS = 20;

// The loss chart: the losses so far (solid) and, dashed, the next PREVIEW_STEPS steps at the current lr, so that
// moving lr shows where the run would go before a step is taken; the full list is in a <details> (the numbers are
// there for everyone).
function historyView(root) {
  const hist = make("div", "gx-history", root);
  const title = make("p", "gx-histtitle", hist);
  const spark = svg("svg", { class: "gx-spark", viewBox: "0 0 100 30", preserveAspectRatio: "none",
                            "aria-hidden": true }, hist);
  const ahead = svg("polyline", { class: "gx-ahead" }, spark);
  const line = svg("polyline", {}, spark);
  const dot = svg("path", {}, spark); // the latest loss: a round cap on a zero-length path
  writeLine(make("p", "gx-sparkkey", hist), [["span", "gx-key-line"], "已走的步　", ["span", "gx-key-line gx-key-dashed"],
                                             `按当前 η 再走 ${PREVIEW_STEPS} 步　横轴：步数；纵轴：损失，底边为 0`]);
  const details = make("details", "gx-details", hist);
  make("summary", "", details, "全部损失记录（按已走的步数）");
  const list = make("ol", "gx-list", details);
  list.start = 0;

  return (history, preview) => {
    const top = Math.max(...history, ...preview) || 1;
    const last = history.length - 1;
    const n = Math.max(last + preview.length, 1);
    const at = (v, i) => [(100 * i) / n, 30 - (28 * v) / top];
    const points = history.map(at);
    line.setAttribute("points", points.map((xy) => xy.join(",")).join(" "));
    ahead.setAttribute("points", [history[last], ...preview].map((v, i) => at(v, last + i).join(",")).join(" "));
    ahead.dataset.losses = JSON.stringify(preview); // what the dashed line shows, for the page's tests
    dot.setAttribute("d", `M${points[last].join(",")}h0`);
    title.textContent = last === 0
      ? `损失记录：起点 ${fmt(history[0], 4)}（还没走）`
      : `损失记录：起点 ${fmt(history[0], 4)} → 走 ${last} 步后 ${fmt(history[last], 4)}`;
    list.replaceChildren();
    for (const loss of history) make("li", "gx-item", list, fmt(loss, 4));
  };
}

function build(model, el) {
  const root = widgetRoot(el, "gx-root", "梯度一步探索器");
  const labels = model.get("labels");
  const V = labels.length;
  const colour = colours(model);

  // Bars: solid = p now, hatched = p' after one step; heights on a fixed 0..1 axis.
  const bars = barChart(root, "gx", labels, ["now", "after"]).map(([now, after], k) => {
    now.style.background = colour(k);
    after.style.setProperty("--gx-colour", colour(k));
    return { now, after };
  });
  writeLine(make("p", "gx-legend", root), [["span", "gx-key gx-key-now"], "实心：当前 p　", ["span", "gx-key gx-key-after"],
                                           "斜线：走一步后 p′　粗框：目标"]);

  // Sliders: one per score (a new start), and the learning rate (does not restart).
  const controls = make("div", "lc-controls", root);
  const sliders = scoreSliders(controls, "gx", model, {
    labels, colour, aria: (label) => `${label} 的分数 z（从这里重新开始）`, out: "gx-zval",
    onInput: (k, value) => restartAt(model.get("logits").map((z, j) => (j === k ? value : z)), model.get("target")),
  });
  const lr = sliderRow(controls, {
    name: "学习率 η", input: "gx-lr", out: "gx-lrval",
    min: model.get("lr_min"), max: model.get("lr_max"), step: model.get("lr_step"),
  });
  lr.input.addEventListener("input", () => save(model, { lr: lr.input.valueAsNumber }));

  // Target and the stepping buttons.
  const actions = make("div", "lc-actions", root);
  const select = targetSelect(actions, "gx", labels, (y) => restartAt(model.get("logits"), y));
  const stepButton = make("button", "gx-step", actions, "走一步");
  const playButton = make("button", "gx-play", actions, "连续走");
  const resetButton = make("button", "gx-reset", actions, "回到起点");
  for (const b of [stepButton, playButton, resetButton]) b.type = "button";
  playButton.setAttribute("aria-pressed", "false");

  // Readout: the update rule, what it holds for (scores as the variables), one row per candidate.
  const formula = subscripted(make("p", "gx-formula", root), "g = p − e_y，z′ = z − η·g，p′ = softmax(z′)");
  formula.setAttribute("aria-label", "梯度 g 等于 p 减 e_y；走一步后的分数 z′ 等于 z 减 η 乘 g；p′ 是 z′ 的 softmax");
  make("p", "gx-scope", root, "这里把一个位置的分数 z 直接当作变量来更新，所以每走一步分数之和不变，损失也只降不升。"
    + "真实训练更新的是产生分数的参数，学习率太大时损失可能上升（见第 4 章）。");
  const cells = readoutTable(root, "gx", labels, ["z", "p", "梯度 g", "z′", "p′"], ["z", "p", "g", "zn", "pn"]);
  const lossLine = liveRegion("p", "gx-lossline", root);
  const drawHistory = historyView(root);
  keepControlKeys(root);

  // ---------------------------------------------------------- actions
  function restartAt(z, y) {
    stop();
    save(model, { logits: z, target: y, start_logits: z, steps: 0, history: [crossEntropy(z, y)] });
  }
  function stepOnce() {
    const steps = model.get("steps");
    if (steps >= model.get("max_steps")) return false;
    const { logits, losses } = runSteps(model.get("logits"), model.get("target"), model.get("lr"), 1);
    save(model, { logits, steps: steps + 1, history: [...model.get("history"), ...losses] });
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
    save(model, { logits: z, steps: 0, history: [crossEntropy(z, model.get("target"))] });
  });

  // ---------------------------------------------------------- view
  function update() {
    const z = model.get("logits");
    if (z.length !== V) return; // the candidate count changed: a rebuild follows
    const y = model.get("target");
    const eta = model.get("lr");
    const m = stepMaths(z, y, eta);
    for (let k = 0; k < V; k++) {
      setHeight(bars[k].now, m.probs[k]);
      setHeight(bars[k].after, m.nextProbs[k]);
      moveSlider(sliders[k].input, z[k]);
      sliders[k].out.textContent = minusSign(fmt(z[k], 2));
      const c = cells[k];
      c.z.textContent = minusSign(fmt(z[k], 3));
      c.z.dataset.value = String(z[k]); // the exact state (String round-trips a double)
      c.p.textContent = fmt(m.probs[k], 3);
      c.g.textContent = minusSign(fmt(m.grad[k], 3));
      c.zn.textContent = minusSign(fmt(m.nextLogits[k], 3));
      c.pn.textContent = fmt(m.nextProbs[k], 3);
    }
    markTarget(bars.map((b, k) => [b.now, b.after, cells[k].tr]), y);
    moveSlider(lr.input, eta);
    lr.out.textContent = short(eta);
    select.value = String(y);
    const steps = model.get("steps");
    const atEnd = steps >= model.get("max_steps");
    // A button that disables itself under the reader's focus would drop it to the page: the next move is
    // 回到起点, so the focus goes there.
    const dropped = [stepButton, playButton].includes(document.activeElement);
    stepButton.disabled = atEnd;
    playButton.disabled = atEnd && timer === null;
    if (dropped && document.activeElement.disabled) resetButton.focus();
    playButton.textContent = timer === null ? "连续走" : "暂停";
    playButton.setAttribute("aria-pressed", String(timer !== null));
    writeLine(lossLine, [`已走 ${steps} 步：损失 ℓ = `, ["strong", "gx-loss", fmt(m.loss, 4)], "，再走一步后 ℓ′ = ",
                         ["strong", "gx-nextloss", fmt(m.nextLoss, 4)], atEnd ? `（已到 ${steps} 步上限）` : ""]);
    lossLine.dataset.steps = String(steps);
    drawHistory(model.get("history"), runSteps(z, y, eta, PREVIEW_STEPS).losses);
  }

  const stopWatching = onChanges(model, ["logits", "target", "lr", "steps", "history", "max_steps"], update);
  update();
  return () => {
    stop();
    stopWatching();
    root.remove();
  };
}

export default { render: candidateRender(build, ["lr_min", "lr_max", "lr_step"]) };
