/* The few behaviours every page shares, without inline handlers (the Content-Security-Policy
   allows no inline script). Without this script the pages still work. */
(function () {
  "use strict";

  // A share link is selected in one tap, ready to copy.
  document.addEventListener("click", function (event) {
    var input = event.target.closest && event.target.closest("input[data-select-on-tap]");
    if (input) input.select();
  });
})();
