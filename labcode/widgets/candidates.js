// Front-end pieces of the candidate explorers (softmax_explorer.js, gradient_explorer.js; Python side:
// _candidates.CandidateExplorer): per candidate a bar column, a score slider and a table row, a target
// select, and the render that rebuilds the view when the candidates change. `p` is the explorer's class
// prefix (sx, gx): every element carries a shared class (candidates.css) and its explorer's own.
import { make, onChanges, sliderRow } from "./dom.js";

// A readout as the reader sees it: the typographic minus U+2212 ("−0.335", as the book sets it); the numbers
// themselves come from maths.js's fmt and short, which write Python's "-".
export function minusSign(text) {
  return text.replace(/^-/, "\u2212");
}

// Append `text` with its subscripts set as subscripts: "−ln p_y" writes y in a <sub>, as the book sets p_y.
// A subscript is the one letter or digit after "_".
export function subscripted(parent, text) {
  text.split(/_([A-Za-z0-9])/).forEach((part, i) => {
    if (i % 2) make("sub", "", parent, part);
    else if (part) parent.append(part);
  });
  return parent;
}

// The palette trait as a colour per candidate k.
export function colours(model) {
  const palette = model.get("palette");
  return (k) => palette[k % palette.length];
}

// Bars on a fixed 0..1 axis, one column per candidate. `kinds` names the bars of a column: each is a
// `${p}-bar` (plus `${p}-${kind}` for a named kind). Returns, per candidate, its bars in that order.
export function barChart(parent, p, labels, kinds) {
  const chart = make("div", `lc-chart ${p}-chart`, parent);
  chart.setAttribute("aria-hidden", "true");
  return labels.map((label) => {
    const col = make("div", "lc-col", chart);
    const track = make("div", `lc-track ${p}-track`, col);
    const bars = kinds.map((kind) => make("div", `lc-bar ${p}-bar${kind ? ` ${p}-${kind}` : ""}`, track));
    make("div", "lc-barlabel", col, label);
    return bars;
  });
}

// A bar's height for probability `prob`, in % of the axis.
export function setHeight(bar, prob) {
  bar.style.height = `${(100 * prob).toFixed(2)}%`;
}

// One slider per candidate's score z_k (range and step from the logit_* traits); `onInput(k, value)` runs
// when the reader moves one. Returns, per candidate, { input, out } with data-k = k on input and out.
export function scoreSliders(parent, p, model, { labels, colour, aria, out, onInput }) {
  return labels.map((label, k) => {
    const s = sliderRow(parent, {
      name: `z(${label})`, swatch: colour(k), input: `${p}-logit`, out, aria: aria(label),
      min: model.get("logit_min"), max: model.get("logit_max"), step: model.get("logit_step"),
    });
    s.input.dataset.k = s.out.dataset.k = String(k);
    s.input.addEventListener("input", () => onInput(k, s.input.valueAsNumber));
    return s;
  });
}

// Put a slider at `value`, unless it is already there (the one being dragged holds that value anyway).
export function moveSlider(input, value) {
  if (input.valueAsNumber !== value) input.value = String(value);
}

// The target select, one option per candidate; `onChange(k)` gets the candidate chosen.
export function targetSelect(parent, p, labels, onChange) {
  const label = make("label", `${p}-target`, parent);
  make("span", "", label, "真实目标 y ");
  const select = make("select", `${p}-select`, label);
  labels.forEach((name, k) => {
    make("option", "", select, name).value = String(k);
  });
  select.addEventListener("change", () => onChange(Number(select.value)));
  return select;
}

// The readout table: a row per candidate, headed by its name, then one cell per key (class
// `lc-num ${p}-${key}`, data-k = k). Returns, per candidate, { tr, [key]: cell }.
export function readoutTable(parent, p, labels, headers, keys) {
  const table = make("table", `lc-table ${p}-table`, parent);
  const head = make("tr", "", make("thead", "", table));
  for (const h of ["候选", ...headers]) make("th", "", head, h);
  const body = make("tbody", "", table);
  return labels.map((label, k) => {
    const tr = make("tr", "", body);
    make("th", "", tr, label).scope = "row";
    const row = { tr };
    for (const key of keys) {
      row[key] = make("td", `lc-num ${p}-${key}`, tr);
      row[key].dataset.k = String(k);
    }
    return row;
  });
}

// Mark candidate y as the target (outline and bold, candidates.css) on these elements of each candidate.
export function markTarget(perCandidate, y) {
  perCandidate.forEach((nodes, k) => {
    for (const node of nodes) node.classList.toggle("lc-is-target", k === y);
  });
}

// An explorer's `render`: `build(model, el)` draws the view and returns its teardown. The view is built
// again when a layout trait changes, or when a new candidate count is complete (labels and logits of a
// new count may arrive one at a time).
export function candidateRender(build, layoutTraits) {
  return ({ model, el }) => {
    let view = { V: model.get("logits").length, teardown: build(model, el) };
    const refresh = (force) => {
      const V = model.get("logits").length;
      if (V !== model.get("labels").length || (!force && V === view.V)) return;
      view.teardown();
      view = { V, teardown: build(model, el) };
    };
    const stopLayout = onChanges(model, ["labels", "palette", "logit_min", "logit_max", "logit_step",
                                         ...layoutTraits], () => refresh(true));
    const stopCount = onChanges(model, ["logits"], () => refresh(false));
    return () => {
      view.teardown();
      stopLayout();
      stopCount();
    };
  };
}
