/* The theme opens its sidebars as dialogs on a phone (_ext/site_nav.py).
   - A link in one that leads to this same page only scrolls it: close the dialog too, so the reader sees where
     the link went.
   - Closed otherwise (关闭, Escape, a tap beside it), the dialog gives the focus back to the button that opened it
     (the theme's header buttons drop the focus when clicked, so it would fall to the page). */
const openers = { "pst-primary-sidebar-modal": ".primary-toggle", "pst-secondary-sidebar-modal": ".secondary-toggle" };
let followedLink = false;

document.addEventListener("click", (event) => {
  const link = event.target.closest("dialog[open] a[href]");
  if (!link) return;
  const target = new URL(link.href, location.href);
  if (target.origin === location.origin && target.pathname === location.pathname) {
    followedLink = true;
    link.closest("dialog").close();
  }
});

for (const [id, opener] of Object.entries(openers)) {
  const dialog = document.getElementById(id);
  if (!dialog) continue;
  dialog.addEventListener("close", () => {
    const button = document.querySelector(`.bd-header-article ${opener}`);
    if (!followedLink && button) button.focus({ preventScroll: true });
    followedLink = false;
  });
}
