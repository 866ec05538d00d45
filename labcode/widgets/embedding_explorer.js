// Front end of labcode.widgets.EmbeddingExplorer (an anywidget ES module).
// The frozen vocabulary, the small table E and the upstream gradients dH travel in the widget state,
// and the browser encodes, looks up and accumulates by itself, so typing works on the static page with
// no kernel and no network. In a kernel, Python recomputes with labcode.
import { embedding, embeddingBackward, embeddingBackwardOverwrite, encode, short, useCounts } from "./maths.js";
import { keepControlKeys, liveRegion, make, onChanges, save, svg, widgetRoot, writeLine } from "./dom.js";

// The maths this page runs, for the tests that compare it with labcode.
export * as maths from "./maths.js";

// A typed space would be an empty-looking box: show it as ␣ (the character itself still goes to encode()).
const visible = (ch) => (/\s/u.test(ch) ? "␣" : ch);
const vec = (row) => `[${row.map(short).join(", ")}]`;

// Everything the view shows for one phrase: ids, rows read (first use order) with counts,
// and each read row's gradient, right (np.add.at) and wrong (dE[ids] += dH, the overwrite bug).
// `index` (token -> id) may be passed in so that it is built once per vocabulary, not per keystroke.
export function explorerState(text, vocab, unk, E, gradOut, index = new Map(vocab.map((token, i) => [token, i]))) {
  const ids = encode(text, index, unk);
  const g = gradOut.slice(0, ids.length); // (T, D)
  const dE = embeddingBackward(g, ids, vocab.length);
  const dEBug = embeddingBackwardOverwrite(g, ids, vocab.length);
  const used = useCounts(ids);
  return {
    ids,
    H: embedding(E, ids),
    rows: used.map(([i]) => i),
    counts: used.map(([, n]) => n),
    gradRows: used.map(([i]) => dE[i]),
    gradRowsOverwrite: used.map(([i]) => dEBug[i]),
  };
}

function controls(model, root) {
  const box = make("div", "ee-controls", root);
  const textLabel = make("label", "ee-field", box);
  make("span", "", textLabel, "短语");
  const input = Object.assign(make("input", "ee-text", textLabel),
                              { type: "text", lang: "zh-CN", autocomplete: "off", spellcheck: false });

  const pickLabel = make("label", "ee-field", box);
  make("span", "", pickLabel, "例句");
  const select = make("select", "ee-examples", pickLabel);
  make("option", "", select, "（自己输入）").value = "";
  for (const example of model.get("examples")) make("option", "", select, example).value = example;

  const switchLabel = make("label", "ee-switch", box);
  const bug = make("input", "ee-bug", switchLabel);
  bug.type = "checkbox";
  bug.setAttribute("role", "switch");
  make("span", "", switchLabel, "对照错误写法 dE[ids] += dH");

  // The phrase has at most one character per row of grad_out. A character is a code point, as Python counts it
  // (an input's maxLength would count UTF-16 units: an emoji or a rare character took two): what is cut is said.
  const cut = liveRegion("p", "ee-cut", box);
  const maxLen = () => model.get("grad_out").length;
  input.placeholder = `最多 ${maxLen()} 个字`;
  const send = (text) => {
    const chars = Array.from(text);
    const kept = chars.slice(0, maxLen()).join("");
    cut.textContent = chars.length > maxLen()
      ? `短语最多 ${maxLen()} 个字：只取了前 ${maxLen()} 个，后面的 ${chars.length - maxLen()} 个没有用上。` : "";
    if (kept !== text && input.value === text) input.value = kept;
    save(model, { text: kept });
  };
  // Chinese input methods compose pinyin first: send the phrase once the characters are chosen.
  input.addEventListener("input", (event) => { if (!event.isComposing) send(input.value); });
  input.addEventListener("compositionend", () => send(input.value));
  select.addEventListener("change", () => { if (select.value) send(select.value); });
  bug.addEventListener("change", () => save(model, { show_bug: bug.checked }));
  return { input, select, bug };
}

function build(model, el) {
  const root = widgetRoot(el, "ee-root", "嵌入探索器");
  const ui = controls(model, root);
  const idsLine = liveRegion("p", "ee-idsline", root);

  const diagram = make("div", "ee-diagram", root);
  const left = make("div", "ee-positions", diagram);
  const lines = svg("svg", { class: "ee-lines", "aria-hidden": true }, diagram);
  const right = make("div", "ee-rows", diagram);

  const table = make("table", "ee-grad", root);
  make("caption", "", table, "梯度行：dE 的每一行 = 它每次被读时那个位置的上游梯度 dH[t] 之和（np.add.at）");
  const head = make("tr", "", make("thead", "", table));
  const body = make("tbody", "", table);
  const note = liveRegion("p", "ee-note", root);
  keepControlKeys(root);

  const vocab = model.get("vocab");
  const unk = model.get("unk");
  const index = new Map(vocab.map((token, i) => [token, i]));
  const token = (i) => (i === unk ? "UNK" : vocab[i]);
  let links = []; // [position element, row element]

  // Lines need the laid-out boxes: draw them in the next frame, with the page's own layout pass,
  // instead of forcing a layout on every keystroke.
  let pending = 0;
  const scheduleLines = () => { if (!pending) pending = requestAnimationFrame(drawLines); };

  function drawLines() {
    pending = 0;
    lines.replaceChildren();
    const box = lines.getBoundingClientRect();
    if (!box.width) return; // not laid out yet (hidden tab, closed dropdown)
    lines.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
    for (const [from, to] of links) {
      const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
      const line = svg("line", { x1: 2, y1: a.top + a.height / 2 - box.top, x2: box.width - 2,
                                 y2: b.top + b.height / 2 - box.top }, lines);
      if (to.classList.contains("ee-repeated")) line.setAttribute("class", "ee-repeated");
    }
    lines.dataset.text = model.get("text"); // which phrase the lines belong to
  }

  function update() {
    const text = model.get("text");
    const showBug = model.get("show_bug");
    const s = explorerState(text, vocab, unk, model.get("E"), model.get("grad_out"), index);
    if (ui.input.value !== text) ui.input.value = text; // equal while the reader types
    ui.select.value = model.get("examples").includes(text) ? text : "";
    ui.bug.checked = showBug;
    root.classList.toggle("ee-show-bug", showBug);
    writeLine(idsLine, ["编号 ids = ", ["code", "ee-ids", `[${s.ids.join(", ")}]`]]);
    const unknown = s.ids.filter((i) => i === unk).length;
    if (unknown) make("span", "ee-unk-note", idsLine, `（${unknown} 个字不在词表里，编成 UNK = ${unk}）`);

    left.replaceChildren();
    right.replaceChildren();
    make("div", "ee-head", left, "位置 t：字 → 编号，上游梯度 dH[t]");
    make("div", "ee-head", right, `E 中被读的行（E 共 ${vocab.length} 行）`);
    if (!s.ids.length) make("div", "ee-empty", left, "（空短语：没有读任何一行）");
    head.replaceChildren();
    for (const h of ["行", "次数", "正确：逐次相加"]) make("th", "", head, h);
    if (showBug) make("th", "ee-bugcol", head, "错误：dE[ids] += dH");
    body.replaceChildren();
    const rowNodes = new Map();
    s.rows.forEach((i, r) => {   // each row read: its box in the diagram and its line in the table
      const n = s.counts[r];
      const node = make("div", "ee-row", right);
      node.dataset.id = String(i);
      node.classList.toggle("ee-repeated", n > 1);
      make("span", "ee-row-name", node, `${token(i)}（编号 ${i}）`);
      const badge = make("span", "ee-count", node, `×${n}`);
      badge.title = `被读了 ${n} 次`;
      make("span", "ee-erow", node, `E[${i}]=${vec(s.H[s.ids.indexOf(i)])}`);
      rowNodes.set(i, node);

      const tr = make("tr", "", body);
      tr.dataset.id = String(i);
      make("th", "", tr, `${token(i)}（${i}）`).scope = "row";
      make("td", "ee-num ee-count-cell", tr, `×${n}`);
      const uses = s.ids.flatMap((id, t) => (id === i ? [vec(model.get("grad_out")[t])] : []));
      const sum = make("td", "ee-sum", tr);
      if (uses.length > 1) make("span", "ee-terms", sum, `${uses.join(" + ")} = `);
      make("strong", "ee-grad-row", sum, vec(s.gradRows[r]));
      if (showBug) {
        const wrong = make("td", "ee-bugcol", tr);
        make("strong", "ee-bug-row", wrong, vec(s.gradRowsOverwrite[r]));
        const lost = s.gradRows[r].some((v, d) => v !== s.gradRowsOverwrite[r][d]);
        tr.classList.toggle("ee-differs", lost);
        make("span", "ee-verdict", wrong, lost ? ` ✗ 丢了 ${n - 1} 份` : " ✓ 相同");
      }
    });
    links = Array.from(text).map((ch, t) => {
      const i = s.ids[t];
      const node = make("div", "ee-pos", left);
      node.dataset.t = String(t);
      node.classList.toggle("ee-is-unk", i === unk);
      make("span", "ee-t", node, `t=${t}`);
      const glyph = make("span", "ee-char", node, visible(ch));
      if (glyph.textContent !== ch) glyph.title = "空格（它不在词表里，编成 UNK）";
      make("span", "ee-id", node, i === unk ? `→ UNK ${i}` : `→ ${i}`);
      make("span", "ee-c", node, `dH=${vec(model.get("grad_out")[t])}`);
      return [node, rowNodes.get(i)];
    });
    const repeated = s.rows.filter((_, r) => s.counts[r] > 1).map(token);
    const quoted = repeated.map((tok) => `“${tok}”`).join("、");
    note.textContent = !showBug ? ""
      : !s.ids.length ? "（空短语）"
      : repeated.length
        ? `错误写法先把各行读出来、各自加上、再写回：同一行写了几次，它的每个元素只留下其中一次写入`
          + `（NumPy 不规定是哪一次），${quoted}的梯度丢了其余几份。`
        : "这个短语没有重复的字，两种写法结果相同；试试“谢谢”或“我爱我家”。";
    scheduleLines();
  }

  const stop = onChanges(model, ["text", "show_bug", "E", "grad_out"], update);
  const resize = new ResizeObserver(scheduleLines);
  resize.observe(diagram);
  update();
  return () => {
    stop();
    resize.disconnect();
    cancelAnimationFrame(pending);
    root.remove();
  };
}

function render({ model, el }) {
  let teardown = build(model, el);
  const stop = onChanges(model, ["examples"], () => { teardown(); teardown = build(model, el); });
  return () => {
    teardown();
    stop();
  };
}

export default { render };
