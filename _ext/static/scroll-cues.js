/* Boxes of the text that scroll sideways show it (_ext/scroll_cues.py): class lc-scrolls while the content is
   wider than the box, data-scroll-at = start | middle | end for where the reader is in it. */
(() => {
  const SCROLLERS = [
    "div.math mjx-container", "span.math", ".pst-scrollable-table-container", "div.highlight pre",
    ".cell_output pre", ".cell_output .output", ".bd-article table.table", ".lc-pan",
  ].map((s) => `.bd-article ${s}`).join(", ");

  // An inline formula hiding this much or less hides only a glyph's overhang: faded, a lone “=” would turn white.
  const MATHS_SLACK = 3;
  // A display formula at most this much too wide is set smaller to fit, rather than scrolled for its last symbols.
  const FIT_DOWN_TO = 0.85;

  // The picture's own size is set: its width is in ex, and neither a smaller font (the same rounded x-height) nor
  // zoom (not applied to an inline <svg>) shrinks it reliably. Its viewBox scales the drawing with it.
  function fit(box) {
    const picture = box.querySelector(":scope > svg");
    if (!picture) return;
    picture.style.width = picture.style.height = "";
    if (!box.clientWidth) return;   // not laid out (a closed fold): fitted when it opens
    const ratio = box.clientWidth / box.scrollWidth;
    if (ratio >= 1 || ratio < FIT_DOWN_TO) return;
    const { width, height } = picture.getBoundingClientRect();
    picture.style.width = `${Math.floor(width * ratio)}px`;
    picture.style.height = `${height * Math.floor(width * ratio) / width}px`;
  }

  function mark(box) {
    const hidden = box.scrollWidth - box.clientWidth;
    const scrolls = hidden > (box.matches("span.math") ? MATHS_SLACK : 1) && box.clientWidth > 0;
    box.classList.toggle("lc-scrolls", scrolls);
    if (!scrolls) {
      delete box.dataset.scrollAt;
      return;
    }
    const x = Math.abs(box.scrollLeft);
    box.dataset.scrollAt = x <= 1 ? "start" : x >= hidden - 1 ? "end" : "middle";
    const caption = box.querySelector(":scope > table > caption");   // stays on screen (scroll-cues.css): no fade
    if (caption) {
      const bottom = caption.getBoundingClientRect().bottom - box.getBoundingClientRect().top;
      box.style.setProperty("--lc-keep-top", `${Math.ceil(bottom)}px`);
    }
    if (box.tabIndex < 0) box.setAttribute("tabindex", "0");   // a keyboard scrolls it too (the theme may say -1)
  }

  function start() {
    const boxes = document.querySelectorAll(SCROLLERS);
    // A formula is fitted when its box is laid out or resized, not while the reader scrolls it.
    const measure = (box) => { if (box.matches("div.math mjx-container")) fit(box); mark(box); };
    const resized = new ResizeObserver((entries) => entries.forEach((e) => measure(e.target)));
    boxes.forEach((box) => { measure(box); resized.observe(box); });
    document.addEventListener("scroll", (event) => {
      if (event.target instanceof Element && event.target.classList.contains("lc-scrolls")) mark(event.target);
    }, { capture: true, passive: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
