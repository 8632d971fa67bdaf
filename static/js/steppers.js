/* Steppers: the − and + buttons around a number input (held down, they keep stepping), and the
   count left to share in a group, whose last untouched count fills itself with what remains.
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
    (root || document).querySelectorAll("[data-sum-group]").forEach(function (group) {
      startGroup(group);
      updateGroup(group);
    });
  }

  // The last player's count fills itself: once every other player of a group is entered, the
  // one left untouched gets what remains (marked, and still editable like any other).
  var filling = false;

  function inputs(group) {
    return Array.prototype.slice.call(group.querySelectorAll("input[type=number]"));
  }

  function startGroup(group) {
    if (group.hasAttribute("data-sum-started")) return;
    group.setAttribute("data-sum-started", "");
    var total = Number(group.getAttribute("data-sum-total"));
    var sum = 0;
    inputs(group).forEach(function (input) { sum += whole(input.value) || 0; });
    // a stored entry (a correction) already adds up: every count is the user's own
    if (sum === total && sum > 0) {
      inputs(group).forEach(function (input) { input.setAttribute("data-touched", ""); });
    }
  }

  function fillLast(group) {
    var total = Number(group.getAttribute("data-sum-total"));
    var all = inputs(group);
    var open = all.filter(function (input) { return !input.hasAttribute("data-touched"); });
    if (open.length !== 1 || all.length < 2) return;
    var last = open[0];
    var given = 0;
    var unreadable = false;
    all.forEach(function (input) {
      if (input === last) return;
      var v = whole(input.value);
      // a count the server would refuse ("1e1", "2.5", "-1"): nothing to fill from yet
      if (isNaN(v)) unreadable = unreadable || input.value.trim() !== "";
      else given += v;
    });
    if (unreadable) return;
    var left = total - given;
    if (left < 0 || clamp(last, left) !== left) return;
    var box = last.closest("[data-stepper]");
    if (box) box.classList.add("auto-filled");
    if (String(left) === last.value) return;
    last.value = String(left);
    filling = true;
    try {
      last.dispatchEvent(new Event("input", { bubbles: true }));
      last.dispatchEvent(new Event("change", { bubbles: true }));
    } finally {
      filling = false;
    }
  }

  function touched(input) {
    if (filling) return;
    input.setAttribute("data-touched", "");
    var box = input.closest("[data-stepper]");
    if (box) box.classList.remove("auto-filled");
  }

  function step(button) {
    var box = button.closest("[data-stepper]");
    var input = box && box.querySelector("input");
    if (!input) return false;
    var current = whole(input.value);
    if (isNaN(current)) current = 0;
    var next = clamp(input, current + Number(button.getAttribute("data-step")));
    if (String(next) === input.value) return false;
    input.value = String(next);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  }

  // Holding − or + keeps stepping (a big count in one press); a plain tap steps once.
  var hold = null;
  var held = false;

  function stopHold() {
    if (hold) { clearTimeout(hold.timer); clearInterval(hold.repeat); hold = null; }
  }

  document.addEventListener("pointerdown", function (event) {
    var button = event.target.closest && event.target.closest("[data-step]");
    if (!button || event.button > 0) return;
    stopHold();
    held = false;
    hold = { button: button };
    hold.timer = setTimeout(function () {
      held = true;
      step(button);
      hold.repeat = setInterval(function () { if (!step(button)) stopHold(); }, 150);
    }, 450);
  });
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (name) {
    document.addEventListener(name, stopHold, true);
  });
  document.addEventListener("contextmenu", function (event) {
    if (event.target.closest && event.target.closest("[data-step]")) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) return;
    event.preventDefault();
    if (held) { held = false; return; }  // the press already stepped while held
    step(button);
  });

  document.addEventListener("input", function (event) {
    var group = event.target.closest && event.target.closest("[data-sum-group]");
    if (!group) return;
    startGroup(group);
    if (event.target.matches("input[type=number]")) touched(event.target);
    fillLast(group);
    updateGroup(group);
  });

  // A tap in a count selects it: the typed number replaces it.
  document.addEventListener("focusin", function (event) {
    var input = event.target;
    if (input.matches && input.matches("[data-stepper] input[type=number]") && input.select) {
      input.select();
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { updateAll(); });
  } else {
    updateAll();
  }
  document.addEventListener("htmx:afterSwap", function (event) { updateAll(event.target); });
})();
