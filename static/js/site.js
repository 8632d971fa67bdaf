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

  // A score sheet's poll, after a change, swaps in only the rows that changed (htmx, out of
  // band; games/_sheet_changes.html), each with its own running totals right. What the
  // other rows show that moved with it is brought up to date here, from the sheet itself:
  // the running totals of the rows after a corrected deal (the state names the first one)
  // and the leader's column. Without this script the sheet is whole at every page load.
  var MINUS = "\u2212";
  function readNumber(node) {
    var n = node ? parseInt(node.textContent.trim().replace(MINUS, "-").replace("+", ""), 10) : 0;
    return isNaN(n) ? 0 : n;
  }
  function showNumber(n) {
    return n < 0 ? MINUS + -n : String(n);
  }
  function refreshSheet() {
    var state = document.getElementById("sheet-state");
    var head = document.getElementById("sheet-head");
    var body = document.getElementById("sheet-rows");
    if (!state || !head || !body || !body.rows.length) return;
    var leads = Array.prototype.map.call(head.querySelectorAll("th"), function (th) {
      return th.classList.contains("leader");
    });
    var rows = Array.prototype.slice.call(body.rows);
    var stale = rows.some(function (row) {
      return Array.prototype.some.call(row.cells, function (td, i) {
        return td.classList.contains("leader") !== !!leads[i];
      });
    });
    if (stale) {
      rows.forEach(function (row) {
        Array.prototype.forEach.call(row.cells, function (td, i) {
          td.classList.toggle("leader", !!leads[i]);
        });
      });
    }
    var from = state.getAttribute("data-recount");
    if (!from) return;
    state.removeAttribute("data-recount");
    var start = rows.indexOf(document.getElementById("deal-" + from));
    if (start < 0) return;
    var running = [];
    if (start > 0) {
      rows[start - 1].querySelectorAll("td.score").forEach(function (td, j) {
        running[j] = readNumber(td.querySelector("small"));
      });
    }
    rows.slice(start).forEach(function (row) {
      row.querySelectorAll("td.score").forEach(function (td, j) {
        running[j] = (running[j] || 0) + readNumber(td.querySelector("span"));
        var small = td.querySelector("small");
        if (small) small.textContent = showNumber(running[j]);
      });
    });
  }
  document.addEventListener("htmx:afterSettle", refreshSheet);
  document.addEventListener("htmx:oobAfterSwap", refreshSheet);

  // Scripts a page needs only later (the deal screen's offline preview): loaded, in order,
  // once the page is shown, so that the first load stays light.
  window.addEventListener("load", function () {
    document.querySelectorAll("[data-later-scripts]").forEach(function (node) {
      node.getAttribute("data-later-scripts").split(" ").forEach(function (src) {
        if (!src) return;
        var script = document.createElement("script");
        script.src = src;
        script.async = false;
        document.body.appendChild(script);
      });
    });
  });
})();
