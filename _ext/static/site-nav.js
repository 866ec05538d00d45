/* The theme opens its sidebars as dialogs on a phone (_ext/site_nav.py). A link in one that leads to this same
   page only scrolls it: close the dialog too, so the reader sees where the link went. */
document.addEventListener("click", (event) => {
  const link = event.target.closest("dialog[open] a[href]");
  if (!link) return;
  const target = new URL(link.href, location.href);
  if (target.origin === location.origin && target.pathname === location.pathname) {
    link.closest("dialog").close();
  }
});
