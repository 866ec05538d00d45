/* Reading mode (_ext/reading_mode.py): the header button and the line under the title switch it; the choice is
   kept in localStorage ("on" / "off"); with no choice the mode follows the width. The head script has already
   applied it before the page was drawn. */
(() => {
  const KEY = "lc-reading-mode";
  const phone = matchMedia("(max-width: 600px)");
  const root = document.documentElement;

  function stored() {
    try {
      const value = localStorage.getItem(KEY);
      return value === "on" || value === "off" ? value : null;
    } catch (e) {
      return null;
    }
  }

  function show(on) {
    root.classList.toggle("lc-reading", on);
    for (const button of document.querySelectorAll(".btn-reading-mode-button")) {
      button.setAttribute("aria-pressed", String(on));
      button.setAttribute("aria-label", "阅读模式（折叠代码）");
    }
    for (const line of document.querySelectorAll(".lc-reading-state")) {
      line.hidden = false;
      line.classList.toggle("lc-off", !on);
      line.querySelector(".lc-reading-text").textContent = on
        ? "阅读模式：代码已折叠。"
        : "代码已显示。";
      line.querySelector(".lc-reading-toggle").textContent = on ? "显示代码" : "折叠代码";
    }
  }

  function choose(on) {
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch (e) { /* a browser that keeps nothing: the switch still works for this page */ }
    show(on);
  }

  function start() {
    document.querySelectorAll(".btn-reading-mode-button, .lc-reading-toggle").forEach((button) => {
      button.removeAttribute("onclick");
      button.addEventListener("click", () => choose(!root.classList.contains("lc-reading")));
    });
    const choice = stored();
    if (choice === null) {
      try { localStorage.removeItem(KEY); } catch (e) { /* nothing kept, nothing to clean */ }
    }
    show(choice === null ? phone.matches : choice === "on");
    phone.addEventListener("change", () => { if (stored() === null) show(phone.matches); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
