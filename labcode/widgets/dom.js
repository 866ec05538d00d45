// DOM helpers shared by every widget (labcode/widgets/*.js).

export function make(tag, cls, parent, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return parent.appendChild(node);
}

// A <tag> in `parent` whose new text a screen reader announces.
export function liveRegion(tag, cls, parent) {
  const node = make(tag, cls, parent);
  node.setAttribute("aria-live", "polite");
  return node;
}

// A line of text in `parent`, replacing what it held: each piece is a plain <span> (a string), or [tag, class,
// text] for the numbers a test or the eye looks for.
export function writeLine(parent, pieces) {
  parent.replaceChildren();
  for (const piece of pieces) {
    const [tag, cls, text] = typeof piece === "string" ? ["span", "", piece] : piece;
    make(tag, cls, parent, text);
  }
}

// An SVG element with these attributes, appended to `parent`.
export function svg(tag, attrs, parent) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return parent.appendChild(node);
}

// Set traits ({ name: value, ... }) and send them to the kernel, as a reader's move does.
export function save(model, traits) {
  model.set(traits);
  model.save_changes();
}

// The root element of a widget: a labelled group carrying the widgets' class (widget.css).
export function widgetRoot(el, cls, label) {
  const root = make("div", `${cls} lc-widget`, el);
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", label);
  scrollNotSlide(root);
  return root;
}

// Send the events a reader's move of `input` sends.
const moved = (input) => ["input", "change"].forEach((type) => input.dispatchEvent(new Event(type, { bubbles: true })));

// A finger dragging up or down across a slider means to scroll the page. The browser scrolls (touch-action:
// pan-y, widget.css) and cancels the pointer, but the slider has already jumped to where the finger landed:
// put its value back, with the events a reader's move sends, so the widget shows it again.
function scrollNotSlide(root) {
  let before = null; // [input, value] while a finger is down on a slider
  root.addEventListener("pointerdown", (event) => {
    const input = event.target;
    before = event.pointerType === "touch" && input.type === "range" ? [input, input.value] : null;
  }, true);
  root.addEventListener("pointercancel", (event) => {
    if (!before || before[0] !== event.target) return;
    const [input, value] = before;
    before = null;
    if (input.value === value) return;
    input.value = value;
    moved(input);
  }, true);
  root.addEventListener("pointerup", () => { before = null; }, true);
}

// One labelled slider with its readout, on one grid row: [swatch name] [range input] [value].
// `input` and `out` are the classes of the input and of the readout. With `steppers`, a − and a + button
// around the readout move the slider one step, so that a finger sets an exact value (lr = 80 on a phone,
// where the slider gives two pixels a step); they send the events a reader's move sends.
// Returns { input, out }.
export function sliderRow(parent, { name, swatch, input: inputClass, out: outClass, aria, min, max, step, steppers }) {
  const row = make("label", steppers ? "lc-row lc-stepped" : "lc-row", parent);
  const label = make("span", "lc-name", row);
  if (swatch) make("span", "lc-swatch", label).style.background = swatch;
  make("span", "", label, name);
  const input = make("input", inputClass, row);   // first control of the label: the one it names
  Object.assign(input, { type: "range", min: String(min), max: String(max), step: String(step) });
  input.setAttribute("aria-label", aria || name);
  const stepper = (cls, text, words, move) => {
    const button = make("button", `lc-step ${cls}`, row, text);
    button.type = "button";
    button.setAttribute("aria-label", `${aria || name}${words}`);
    button.addEventListener("click", (event) => {
      event.preventDefault();
      const before = input.value;
      move();
      if (input.value !== before) moved(input);
    });
  };
  if (steppers) stepper("lc-step-down", "−", "减小一格", () => input.stepDown());
  const out = make("output", `lc-num ${outClass}`, row);
  if (steppers) stepper("lc-step-up", "+", "增大一格", () => input.stepUp());
  return { input, out };
}

// Call `fn` on every change of these traits; returns the function that stops listening.
export function onChanges(model, traits, fn) {
  for (const name of traits) model.on(`change:${name}`, fn);
  return () => {
    for (const name of traits) model.off(`change:${name}`, fn);
  };
}

// JupyterLab binds arrow keys (and Space, Enter...) to notebook commands at the document
// level, and Notebook 7 (Lumino) listens in the capture phase: keep the keys that the
// native controls use inside the widget. Call once the controls exist.
const CONTROL_KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "PageUp", "PageDown", " ", "Enter"];

export function keepControlKeys(root) {
  root.addEventListener("keydown", (event) => {
    const modified = event.shiftKey || event.ctrlKey || event.altKey || event.metaKey;
    if (!modified && CONTROL_KEYS.includes(event.key)) event.stopPropagation();
  });
  // Lumino skips its shortcuts for a key whose target carries this attribute.
  for (const node of root.querySelectorAll("input, select, button, textarea")) {
    node.setAttribute("data-lm-suppress-shortcuts", "true");
  }
}
