/* Steppers: the − and + buttons around a number input, and the count left to share in a group.
   Without this script the inputs still work (type the number); the server checks everything. */
(function () {
  "use strict";

  // A count as a person types it: ASCII digits only, like the server reads it. parseInt would
  // read "1e1" as 1 and "2.5" as 2, and the count left to share would disagree with the server.
  function whole(text) {
    return /^\s*[0-9]{1,4}\s*$/.test(text) ? Number(text) : NaN;
  }

  function clamp(input, value) {
    var min = input.min === "" ? -Infinity : Number(input.min);
    var max = input.max === "" ? Infinity : Number(input.max);
    return Math.min(max, Math.max(min, value));
  }

  function updateGroup(group) {
    var status = group.querySelector("[data-sum-status]");
    if (!status) return;
    var total = Number(group.getAttribute("data-sum-total"));
    var sum = 0;
    group.querySelectorAll("input[type=number]").forEach(function (input) {
      var v = whole(input.value);
      if (!isNaN(v)) sum += v;
    });
    var left = total - sum;
    var text, state;
    if (left === 0) { text = status.getAttribute("data-done"); state = "done"; }
    else if (left > 0) { text = status.getAttribute("data-left"); state = "left"; }
    else { text = status.getAttribute("data-over"); state = "over"; }
    status.textContent = text.replace("{n}", String(Math.abs(left)));
    status.setAttribute("data-state", state);
  }

  function updateAll(root) {
    (root || document).querySelectorAll("[data-sum-group]").forEach(updateGroup);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    var box = button.closest("[data-stepper]");
    var input = box && box.querySelector("input");
    if (!input) return;
    event.preventDefault();
    var current = whole(input.value);
    if (isNaN(current)) current = 0;
    var next = clamp(input, current + Number(button.getAttribute("data-step")));
    if (String(next) !== input.value) {
      input.value = String(next);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  document.addEventListener("input", function (event) {
    var group = event.target.closest && event.target.closest("[data-sum-group]");
    if (group) updateGroup(group);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { updateAll(); });
  } else {
    updateAll();
  }
  document.addEventListener("htmx:afterSwap", function (event) { updateAll(event.target); });
})();
