/* A solution's arrow (sphinx-togglebutton's, labelled “Toggle hidden content”) is named by the solution's title
   (_ext/touch_targets.py); whether it is open, the button says with aria-expanded. Runs once the toggles exist. */
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll(".admonition.toggle > .admonition-title > button.toggle-button")) {
    const title = button.parentElement.textContent.trim();
    button.setAttribute("aria-label", title || "显示或收起");
  }
});
