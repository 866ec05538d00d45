// Front end of labcode.widgets.SoftmaxExplorer (an anywidget ES module).
// The browser does the maths itself, so the page stays live with no kernel:
// on a static site the sliders still recompute the bars. In a kernel the
// traitlets sync both ways and Python recomputes the same values with labcode.
import { crossEntropy, fmt, shiftFits, short, softmax } from "./maths.js";
import { keepControlKeys, liveRegion, make, onChanges, save, sliderRow, widgetRoot } from "./dom.js";
import {
  barChart, candidateRender, colours, markTarget, minusSign, moveSlider, readoutTable, scoreSliders, setHeight,
  subscripted, targetSelect,
} from "./candidates.js";

// Same maths as labcode.softmax / cross_entropy / cross_entropy_grad applied to z / tau:
//   p = softmax(z / tau), loss = logsumexp(z / tau) - z_y / tau, dl/dz = (p - e_y) / tau.
// Shift by the max before dividing by tau, so a tiny tau cannot overflow exp.
export function explorerMaths(logits, temperature, target) {
  const m = Math.max(...logits);
  const s = logits.map((z) => (z - m) / temperature); // (V,) all <= 0, max is 0
  const probs = softmax(s);
  const loss = crossEntropy(s, target); // logsumexp(s) - s_y
  const grad = probs.map((p, k) => (p - (k === target ? 1 : 0)) / temperature);
  return { probs, loss, grad };
}

// Build the whole view for the current candidates, palette and slider ranges; returns its teardown.
function build(model, el) {
  const root = widgetRoot(el, "sx-root", "Softmax 探索器");
  const labels = model.get("labels");
  const V = labels.length;
  const colour = colours(model);

  // Bars: heights are probabilities on a fixed 0..1 axis (as in the PNG snapshot), the value on top.
  const bars = barChart(root, "sx", labels, [""]).map(([bar], k) => {
    bar.style.background = colour(k);
    return { bar, value: make("span", "sx-barval", bar) };
  });

  // One range input per score: native inputs are keyboard-operable (arrows, Home/End, PageUp/Down).
  const controls = make("div", "lc-controls", root);
  const sliders = scoreSliders(controls, "sx", model, {
    labels, colour, aria: (label) => `${label}的分数 z`, out: "sx-z",
    onInput: (k, value) => save(model, { logits: model.get("logits").map((z, j) => (j === k ? value : z)) }),
  });

  // Temperature on a log scale: the slider holds log10(tau).
  const temp = sliderRow(controls, {
    name: "温度 τ", input: "sx-temp", out: "sx-t", aria: "温度 τ（对数刻度）",
    min: Math.log10(model.get("temperature_min")), max: Math.log10(model.get("temperature_max")), step: 0.01,
  });
  temp.input.addEventListener("input", () => save(model, {
    temperature: Number((10 ** temp.input.valueAsNumber).toPrecision(3)) }));

  const actions = make("div", "lc-actions", root);
  const select = targetSelect(actions, "sx", labels, (k) => save(model, { target: k }));
  // Adding the same c to every score leaves p unchanged: the buttons let the reader see it. A button is
  // switched off while a score would leave the sliders' range, so no slider sits at its end showing
  // another value (the note under the buttons says why).
  const shifts = make("span", "sx-shifts", actions);
  const lo = model.get("logit_min"), hi = model.get("logit_max");
  const buttons = [-1, 1].map((delta) => {
    const button = make("button", "sx-shift", shifts, `所有分数 ${delta > 0 ? "+" : "−"}1`);
    button.type = "button";
    button.dataset.delta = String(delta);
    button.addEventListener("click", () => {
      const z = model.get("logits");
      if (shiftFits(z, delta, lo, hi)) save(model, { logits: z.map((v) => v + delta) });
    });
    return button;
  });
  const shiftNote = liveRegion("p", "sx-shiftnote", root);

  // Readout: one row per candidate, so it stays narrow on a phone.
  const cells = readoutTable(root, "sx", labels, ["概率 p", "梯度 ∂ℓ/∂z"], ["p", "g"]);
  keepControlKeys(root);
  const lossLine = liveRegion("p", "sx-lossline", root);

  function update() {
    const z = model.get("logits");
    if (z.length !== V) return; // the candidate count changed: a rebuild follows
    const tau = model.get("temperature");
    const y = model.get("target");
    const { probs, loss, grad } = explorerMaths(z, tau, y);
    for (let k = 0; k < V; k++) {
      setHeight(bars[k].bar, probs[k]);
      bars[k].value.textContent = fmt(probs[k], 3);
      moveSlider(sliders[k].input, z[k]);
      sliders[k].out.textContent = minusSign(short(z[k]));
      cells[k].p.textContent = fmt(probs[k], 3);
      cells[k].g.textContent = minusSign(fmt(grad[k], 3));
    }
    markTarget(bars.map((b, k) => [b.bar, cells[k].tr]), y);
    const logTau = Math.log10(tau);
    if (Math.abs(temp.input.valueAsNumber - logTau) > 0.005) temp.input.value = String(logTau);
    temp.out.textContent = short(tau);
    temp.input.setAttribute("aria-valuetext", `τ = ${short(tau)}`);
    select.value = String(y);
    const blocked = buttons.filter((b) => !shiftFits(z, Number(b.dataset.delta), lo, hi));
    for (const b of buttons) b.disabled = blocked.includes(b);
    shiftNote.textContent = blocked.length === 0 ? ""
      : `分数滑块的范围是 ${short(lo).replace("-", "−")} 到 ${short(hi).replace("-", "−")}：`
        + `再整体 ${blocked.map((b) => (b.dataset.delta === "1" ? "+1" : "−1")).join(" 或 ")}，就有分数超出范围，`
        + "所以这个按钮暂时不能按；把靠近端点的分数拖回来一些，就能继续平移。";
    // At tau = 1 this is the training loss; at another tau it is the loss of the tempered distribution, which
    // the book uses only to show the effect of tau (chapter 1: temperature is no part of the training objective).
    lossLine.textContent = "";
    const tempered = Math.abs(tau - 1) > 1e-12;
    subscripted(make("span", "", lossLine), tempered
      ? `温度 τ 下的损失 −ln p_y(τ) = −ln p(${labels[y]}) = `
      : `交叉熵损失 ℓ = −ln p_y = −ln p(${labels[y]}) = `);
    make("strong", "sx-loss", lossLine, fmt(loss, 4));
    if (tempered) make("span", "sx-tempnote", lossLine, "（只为演示温度的作用：训练用的损失是 τ\u00a0=\u00a01 时的）");
  }

  const stop = onChanges(model, ["logits", "temperature", "target"], update);
  update();
  return () => {
    stop();
    root.remove();
  };
}

export default { render: candidateRender(build, ["temperature_min", "temperature_max"]) };
