// DOM helpers shared by every widget of the family (labcode/widgets/*.js).

export function make(tag, cls, parent, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
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
