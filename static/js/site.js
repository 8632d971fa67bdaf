/* The few behaviours every page shares, without inline handlers (the Content-Security-Policy
   allows no inline script). Without this script the pages still work. */
(function () {
  "use strict";

  // A share link is selected in one tap, ready to copy.
  document.addEventListener("click", function (event) {
    var input = event.target.closest && event.target.closest("input[data-select-on-tap]");
    if (input) input.select();
  });

  // The header's menu is a <details> disclosure that opens and closes by itself. Here it also
  // closes, as menus do, on Escape (the focus goes back to its button), on a tap outside it,
  // and when the keyboard's focus leaves it.
  function openMenus() {
    return document.querySelectorAll("details.site-menu[open]");
  }
  function close(menu, refocus) {
    menu.open = false;
    if (refocus) {
      var summary = menu.querySelector("summary");
      if (summary) summary.focus();
    }
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    openMenus().forEach(function (menu) {
      close(menu, menu.contains(document.activeElement));
    });
  });
  document.addEventListener("click", function (event) {
    openMenus().forEach(function (menu) {
      if (!menu.contains(event.target)) close(menu, false);
    });
  });
  document.addEventListener("focusin", function (event) {
    openMenus().forEach(function (menu) {
      if (!menu.contains(event.target)) close(menu, false);
    });
  });
})();
