/* Keeps a table's pages working when the room's Wi-Fi drops (issue 15).

   - The entry screen (a form with data-offline-token): each entry gets a client id made here
     (hidden client_id, a UUID; the server saves each id once). Saving with no connection, or
     while earlier entries of the game still wait, keeps the entry in the phone's queue
     (IndexedDB, offline-queue.js) and opens the sheet. With no connection the preview is
     the kind's own script's (`window.TarotPreview`, the deal screen's; `window.RecordPreview`,
     a replayed game's), else the box says it comes back with the connection.
   - The sheet (#offline-box): the waiting entries as rows, when it last synced and how many
     wait; the queue is sent in order when the connection returns (the online event, and
     retries with back-off). Each send gets one JSON answer (tarotclub/games/queued.py):
     saved or duplicate leaves the queue; a conflict shows both versions and a choice; a sheet
     that closed meanwhile says why (the server keeps the entry for the director); a send that
     fails by network stays queued.

   Loaded by offline.js once the page has loaded, after offline-queue.js. Without this
   script the pages work as plain forms. No inline script (CSP). */
(function () {
  "use strict";

  var Q = window.TarotQueue;
  if (!Q || !window.indexedDB) return;

  var KNOWN = "tarotclub:known:";
  var NOTICES = "tarotclub:notices:";

  function fill(text, params) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (m, key) {
      return Object.prototype.hasOwnProperty.call(params, key) ? params[key] : m;
    });
  }
  // core.text.no_break_hyphens: a hyphen inside a word does not break the line
  function nobreak(text) {
    return text.replace(/(?<=[\p{L}\p{N}_])-(?=[\p{L}\p{N}_])/gu, "\u2011");
  }
  function load(key, fallback) {
    try {
      var value = JSON.parse(window.localStorage.getItem(key));
      return value === null ? fallback : value;
    } catch (e) {
      return fallback;
    }
  }
  function store(key, value) {
    try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full */ }
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function button(label, className, onTap) {
    var b = el("button", "button " + (className || ""), label);
    b.type = "button";
    b.addEventListener("click", onTap);
    return b;
  }

  /* What the sheet showed last time it came from the server: {n, rev, at}. */
  function known(token) { return load(KNOWN + token, null); }
  function noteSynced(token) {
    var state = document.getElementById("sheet-state");
    if (!state) return;
    var n = parseInt((state.querySelector("input[name=n]") || {}).value, 10);
    var rev = parseInt((state.querySelector("input[name=rev]") || {}).value, 10);
    store(KNOWN + token, { n: isNaN(n) ? 0 : n, rev: isNaN(rev) ? 0 : rev, at: Date.now() });
  }

  // --- the entry screen -------------------------------------------------------------------

  function hidden(form, name) {
    var input = form.querySelector("input[type=hidden][name=" + name + "]");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    return input;
  }

  /* The entry in words, from what is chosen in the form (every kind's form: its checked
     buttons' labels, its filled numbers with their labels). */
  function summarise(form) {
    var parts = [];
    Array.prototype.forEach.call(form.elements, function (input) {
      if (input.type === "hidden" || input.disabled || !input.name) return;
      var label = input.labels && input.labels[0] ? input.labels[0].textContent.trim() : "";
      if (!label && input.closest("fieldset")) {
        var legend = input.closest("fieldset").querySelector("legend");
        label = legend && legend.firstChild ? legend.firstChild.textContent.trim() : "";
      }
      // a button left as the page chose it (no bonus, no slam...) says nothing
      if ((input.type === "radio" || input.type === "checkbox") && input.checked && !input.defaultChecked) {
        if (label) parts.push(label.replace(/\s+/g, " "));
      } else if ((input.type === "text" || input.type === "number") && input.value.trim()) {
        parts.push((label ? label.replace(/\s+/g, " ") + " " : "") + input.value.trim());
      } else if (input.tagName === "SELECT" && input.value && input.selectedOptions[0]) {
        parts.push(input.selectedOptions[0].textContent.trim());
      }
    });
    return parts.join(" · ").slice(0, 280);
  }

  function fieldsOf(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") out.push([name, value]);
    });
    return out;
  }

  /* The preview with no connection: the kind's own script when the page has one (the deal
     screen's static/js/tarot-preview.js, on tarot-score.js; record-preview.js for the games
     replayed from their records), else a note that it comes back with the connection. */
  function offlinePreview(form) {
    var box = document.getElementById("preview");
    if (!box) return;
    var own = [window.TarotPreview, window.RecordPreview].filter(function (script) {
      return script && script.ready();
    })[0];
    if (own) {
      own.render(form);
      return;
    }
    box.replaceChildren(el("p", "help offline-preview", form.dataset.offlinePreview));
  }

  /* The number of the entry being made: after the sheet's last known entry (or the page's,
     if newer) and the game's entries still waiting. */
  function nextNumber(form, waiting) {
    var last = known(form.dataset.offlineToken);
    var page = parseInt(form.dataset.offlinePage, 10) - 1;
    var base = Math.max(last ? last.n : 0, isNaN(page) ? 0 : page);
    return base + waiting.length + 1;
  }

  /* The entry screen's number (its hidden field and its title). */
  function showNumber(form, number) {
    var shown = form.dataset.offlineNumber;
    hidden(form, "number").value = String(number);
    if (String(number) === shown) return;
    form.dataset.offlineNumber = String(number);
    // the kind's own scripts (tarot-preview.js) seat the players of this entry
    form.dispatchEvent(new CustomEvent("tarotclub:number", { detail: { number: number } }));
    var title = document.querySelector("h1");
    var text = title && title.firstChild;
    if (text && text.nodeType === 3) text.textContent = text.textContent.replace(shown, String(number));
    // who deals it (tarot): the dealers in dealing order from entry 1, as the server's rule
    var subtitle = title && title.querySelector("[data-offline-dealers]");
    if (!subtitle) return;
    try {
      var dealers = JSON.parse(subtitle.dataset.offlineDealers);
      var name = dealers[(number - 1) % dealers.length];
      if (name !== undefined) subtitle.textContent = nobreak(fill(subtitle.dataset.offlineSubtitle, { name: name }));
    } catch (e) { /* the page's own subtitle stays */ }
  }

  /* An entry of the queue the server refused (the sheet's "Correct it": #queued=<id>) opened
     again: its number and id, its values, and the server's messages by their fields. */
  function reopen(form, entry) {
    hidden(form, "client_id").value = entry.id;
    showNumber(form, entry.number);
    var values = {};
    entry.fields.forEach(function (pair) {
      (values[pair[0]] = values[pair[0]] || []).push(pair[1]);
    });
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || input.type === "hidden" || input.type === "submit" || input.type === "button") return;
      var wanted = values[input.name] || [];
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = wanted.indexOf(input.value) >= 0;
      } else {
        input.value = wanted.length ? wanted[0] : "";
      }
    });
    form.dispatchEvent(new Event("change", { bubbles: true }));
    var answer = entry.answer || {};
    var top = el("div", "errors offline-fix");
    top.setAttribute("role", "alert");
    top.appendChild(el("p", "", form.dataset.offlineFix));
    Object.keys(answer.errors || {}).forEach(function (name) {
      var input = Array.prototype.filter.call(form.elements, function (i) { return i.name === name; })[0];
      var fieldset = input && input.type !== "hidden" ? input.closest("fieldset") : null;
      (answer.errors[name] || []).forEach(function (message) {
        if (fieldset) {
          fieldset.classList.add("has-error");
          var p = el("p", "field-error", message);
          p.setAttribute("role", "alert");
          fieldset.appendChild(p);
        } else {
          top.appendChild(el("p", "", message));
        }
      });
    });
    form.parentNode.insertBefore(top, form);
  }

  /* A game's state as the server last gave it (the other kinds: what follows comes from
     their rules, on the server) is the state before the entries the phone keeps: a note
     says so (`where`: "after" the node, or "inside" it), and goes with them. */
  function stateNote(node, text, where) {
    var found = where === "after" ? node.nextElementSibling : node.querySelector(".offline-state-note");
    var note = found && found.classList.contains("offline-state-note") ? found : null;
    if (!text) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = el("p", "help offline-state-note");
      if (where === "after") node.after(note);
      else node.appendChild(note);
    }
    note.textContent = text;
  }

  function entryScreen(form) {
    form.dataset.offlinePage = form.dataset.offlineNumber;
    var token = form.dataset.offlineToken;
    var id = hidden(form, "client_id");
    var summary = hidden(form, "summary");
    var fixing = null;  // the queued entry being corrected, if any
    id.value = Q.newId();
    // a page the browser brings back (the back button) makes a new entry: a new id
    window.addEventListener("pageshow", function (event) {
      if (event.persisted && !fixing) id.value = Q.newId();
    });
    document.body.addEventListener("htmx:sendError", function (event) {
      if (form.contains(event.target) || event.target === form) offlinePreview(form);
    });
    if (!navigator.onLine) offlinePreview(form);
    var asked = /^#queued=([0-9A-Fa-f-]{36})$/.exec(window.location.hash);
    var opened = (asked ? Q.get(asked[1]) : Promise.resolve(null)).then(function (entry) {
      if (entry && entry.token === token && entry.state === "invalid") {
        fixing = entry;
        reopen(form, entry);
      }
    });
    // a screen kept from before (or entries still waiting): the number this entry will have
    opened.then(function () { return Q.all(token); }).then(function (waiting) {
      if (!fixing) showNumber(form, nextNumber(form, waiting));
      var others = waiting.filter(function (e) { return !fixing || e.id !== fixing.id; });
      var line = document.querySelector(".state-line");
      if (line && others.length) stateNote(line, form.dataset.offlineState, "after");
    });
    var submitting = false;
    form.addEventListener("submit", function (event) {
      var by = event.submitter;
      if (by && by.name === "preview") {
        if (!navigator.onLine) {
          event.preventDefault();
          offlinePreview(form);
        }
        return;
      }
      event.preventDefault();
      if (submitting) return;  // a double tap: the first one is on its way
      submitting = true;
      summary.value = summarise(form);
      opened.then(function () { return Q.all(token); }).then(function (waiting) {
        if (navigator.onLine && !waiting.length) {
          form.submit();  // the plain save (the service worker keeps it if the network fails)
          return;
        }
        // a corrected entry keeps its place in the queue: its id, number and time
        var number = fixing ? fixing.number : nextNumber(form, waiting);
        hidden(form, "number").value = String(number);
        return Q.put({
          id: id.value,
          token: token,
          url: form.action,
          number: number,
          fields: fieldsOf(form),
          summary: summary.value,
          created: fixing ? fixing.created : Date.now(),
          state: "waiting",
          answer: null
        }).then(function () {
          window.location.assign(form.dataset.offlineSheet);
        });
      }).catch(function () {
        submitting = false;
        form.submit();
      });
    });
  }

  // --- the sheet --------------------------------------------------------------------------

  var box = document.getElementById("offline-box");
  var words = box ? box.dataset : {};
  // what the entry screen needs offline beyond the shell (its sentences): asked now, while
  // online, so that the service worker keeps it
  if (box && box.dataset.keep && navigator.onLine) {
    box.dataset.keep.split(" ").forEach(function (src) {
      if (src) fetch(src, { credentials: "same-origin" }).catch(function () {});
    });
  }
  function t(key) { return words["t" + key.replace(/(^|-)(\w)/g, function (m, d, c) { return c.toUpperCase(); })] || ""; }
  function entryName(n) { return fill(t("entry"), { n: n }); }

  function notices(token) { return load(NOTICES + token, []); }
  function addNotice(token, text) {
    var list = notices(token);
    list.push(text);
    store(NOTICES + token, list.slice(-10));
  }

  function renderNotices(token, holder) {
    holder.replaceChildren();
    notices(token).forEach(function (text, i) {
      var p = el("div", "errors offline-notice");
      p.setAttribute("role", "alert");
      p.appendChild(el("p", "", text));
      p.appendChild(button(t("ok"), "", function () {
        var list = notices(token);
        list.splice(i, 1);
        store(NOTICES + token, list);
        renderNotices(token, holder);
      }));
      holder.appendChild(p);
    });
  }

  function renderConflict(entry, li) {
    var answer = entry.answer || {};
    li.className = "waiting-row conflict-row";
    li.appendChild(el("p", "conflict-title", fill(t("conflict"), { entry: entryName(entry.number) })));
    var both = el("div", "conflict-versions");
    var theirs = el("div", "conflict-version theirs");
    theirs.appendChild(el("h3", "", t("theirs")));
    theirs.appendChild(el("p", "", answer.theirs ? answer.theirs.text : "—"));
    var mine = el("div", "conflict-version mine");
    mine.appendChild(el("h3", "", t("mine")));
    mine.appendChild(el("p", "", entry.summary || "—"));
    both.appendChild(theirs);
    both.appendChild(mine);
    li.appendChild(both);
    var actions = el("div", "actions");
    actions.appendChild(button(fill(t("as-next"), { entry: entryName(answer.next) }), "primary", function () {
      asNext(entry, answer.next);
    }));
    actions.appendChild(discardButton(entry, actions));
    li.appendChild(actions);
  }

  function discardButton(entry, actions) {
    return button(t("discard"), "danger", function () {
      actions.replaceChildren(el("p", "", t("discard-sure")));
      actions.appendChild(button(t("discard-yes"), "danger", function () {
        Q.remove(entry.id).then(refresh).then(sendAll);
      }));
      actions.appendChild(button(t("keep"), "", refresh));
    });
  }

  /* Send the entry again as entry `next`; the game's later waiting entries move with it. */
  function asNext(entry, next) {
    var shift = next - entry.number;
    Q.all(entry.token).then(function (list) {
      return Promise.all(list.map(function (other) {
        if (other.id !== entry.id && (other.state !== "waiting" || other.created < entry.created)) {
          return null;
        }
        other.number += shift;
        other.fields = other.fields.map(function (pair) {
          return pair[0] === "number" ? ["number", String(other.number)] : pair;
        });
        other.state = "waiting";
        other.answer = null;
        return Q.put(other);
      }));
    }).then(refresh).then(sendAll);
  }

  /* An entry the server refused as it stands (the form's errors): why, what it was, and a
     way to correct it in the entry screen (its values and the server's messages) or to
     discard it. A game that no longer exists can only be discarded. */
  function renderInvalid(entry, li) {
    var answer = entry.answer || {};
    li.className = "waiting-row invalid-row";
    li.appendChild(el("p", "errors", fill(t("invalid"), {
      entry: entryName(entry.number), reason: answer.message || ""
    })));
    var reasons = el("div", "errors invalid-reasons");
    Object.keys(answer.errors || {}).forEach(function (name) {
      (answer.errors[name] || []).forEach(function (message) {
        reasons.appendChild(el("p", "", message));
      });
    });
    if (reasons.childNodes.length) li.appendChild(reasons);
    li.appendChild(el("p", "", entry.summary || ""));
    var actions = el("div", "actions");
    if (answer.status !== "gone") {
      var fix = el("a", "button primary", t("correct"));
      fix.href = entry.url + "#queued=" + encodeURIComponent(entry.id);
      actions.appendChild(fix);
    }
    actions.appendChild(discardButton(entry, actions));
    li.appendChild(actions);
  }

  /* The sheet's "Deal n: X deals." after the entries the phone keeps (they come before the
     next deal): the server's rule (kinds/tarot/selectors.dealer_for), from the paragraph's
     data: the sheet's count of deals, the dealers in dealing order from deal 1, the planned
     number of deals (past it, no hint, as on the server) and the sentence with __N__ and
     __NAME__. */
  function nextDealer(entries) {
    var hint = document.querySelector(".next-dealer[data-next-dealers]");
    if (!hint) return;
    var dealers, count = parseInt(hint.dataset.nextCount, 10);
    try { dealers = JSON.parse(hint.dataset.nextDealers); } catch (e) { return; }
    if (!dealers.length || isNaN(count)) return;
    var next = count + entries.length + 1;
    var planned = parseInt(hint.dataset.nextPlanned, 10);
    hint.hidden = !isNaN(planned) && next > planned;
    var template = document.createElement("template");
    template.innerHTML = hint.dataset.nextText;
    var walker = document.createTreeWalker(template.content, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      walker.currentNode.nodeValue = walker.currentNode.nodeValue
        .replace("__N__", String(next))
        .replace("__NAME__", dealers[(next - 1) % dealers.length]);
    }
    hint.replaceChildren(template.content);
  }

  function render(token, entries) {
    if (!box) return;
    box.hidden = false;
    nextDealer(entries);
    var state = document.querySelector("#sheet .state");
    if (state) stateNote(state, entries.length ? t("state-before") : "", "inside");
    var last = known(token);
    var status = navigator.onLine
      ? (last ? fill(t("synced"), { time: new Date(last.at).toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" }) }) : t("never"))
      : t("offline");
    var waiting = entries.length;
    if (waiting) status += " " + fill(t(waiting === 1 ? "waiting-one" : "waiting-other"), { count: waiting });
    if (sending && navigator.onLine && waiting) status += " " + t("sending");
    box.querySelector("[data-offline-status]").textContent = status;
    renderNotices(token, box.querySelector("[data-offline-notices]"));
    var list = box.querySelector("[data-offline-waiting]");
    list.replaceChildren();
    entries.forEach(function (entry) {
      var li = el("li", "waiting-row");
      li.dataset.clientId = entry.id;
      if (entry.state === "conflict") {
        renderConflict(entry, li);
      } else if (entry.state === "invalid") {
        renderInvalid(entry, li);
      } else if (entry.state === "forbidden") {
        li.className = "waiting-row forbidden-row";
        li.appendChild(el("p", "errors", fill(t("forbidden"), { entry: entryName(entry.number) })));
        li.appendChild(el("p", "", entry.summary || ""));
        var again = el("div", "actions");
        again.appendChild(button(t("send-again"), "primary", function () {
          entry.state = "waiting";
          entry.answer = null;
          Q.put(entry).then(refresh).then(sendAll);
        }));
        again.appendChild(discardButton(entry, again));
        li.appendChild(again);
      } else {
        li.appendChild(el("strong", "", entryName(entry.number)));
        if (entry.summary) li.appendChild(document.createTextNode(" · " + entry.summary));
        li.appendChild(el("span", "waiting-label", " — " + t("waiting-row")));
      }
      list.appendChild(li);
    });
  }

  function refresh() {
    if (!box) return Promise.resolve();
    return Q.all(box.dataset.token).then(function (entries) { render(box.dataset.token, entries); });
  }

  // --- sending ---------------------------------------------------------------------------

  var sending = false;
  var delay = 2000;
  var timer = null;

  function schedule() {
    if (timer) return;
    timer = window.setTimeout(function () { timer = null; sendAll(); }, delay);
    delay = Math.min(delay * 2, 60000);
  }

  /* Where a fresh CSRF token comes from (core.views.csrf_token), from offline.js's tag. */
  var CSRF_URL = (document.querySelector("script[data-csrf]") || { dataset: {} }).dataset.csrf;

  /* One POST of an entry: the server's JSON answer; a refusal of the request itself (403:
     the CSRF token it carries is no longer accepted) is {status: "forbidden"}; a network
     failure or any other status rejects (the entry stays queued, tried again later). */
  function post(entry) {
    return fetch(entry.url, {
      method: "POST",
      body: new URLSearchParams(entry.fields),
      headers: { Accept: "application/json" },
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status === 410) return { status: "gone", message: "" };
      if (response.status === 403) return { status: "forbidden", message: "" };
      if (!response.ok) throw new Error("not sent: " + response.status);
      return response.json();
    });
  }

  /* A 403: the token the entry was made with is stale (a long time offline, a login or a
     logout meanwhile, cookies cleared). Ask the site for a fresh one (which also sets its
     cookie), put it in the entry and send it once more. */
  function postWithFreshToken(entry) {
    if (!CSRF_URL) return Promise.resolve({ status: "forbidden", message: "" });
    return fetch(CSRF_URL, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      cache: "no-store"
    }).then(function (response) {
      if (!response.ok) throw new Error("no token: " + response.status);
      return response.json();
    }).then(function (answer) {
      var replaced = false;
      entry.fields = entry.fields.map(function (pair) {
        if (pair[0] !== "csrfmiddlewaretoken") return pair;
        replaced = true;
        return ["csrfmiddlewaretoken", answer.token];
      });
      if (!replaced) entry.fields.push(["csrfmiddlewaretoken", answer.token]);
      return Q.put(entry).then(function () { return post(entry); });
    });
  }

  /* One entry sent: "saved", "done" (left the queue, not saved), "blocked" (kept, waits for
     the player: later entries of its game wait too); a network failure rejects. */
  function sendOne(entry) {
    return post(entry).then(function (answer) {
      return answer.status === "forbidden" ? postWithFreshToken(entry) : answer;
    }).then(function (answer) {
      switch (answer.status) {
        case "saved":
        case "duplicate":
          return Q.remove(entry.id).then(function () { return "saved"; });
        case "locked":
          addNotice(entry.token, fill(t("refused"), { entry: entryName(entry.number), reason: answer.message }) +
            (answer.kept ? " " + t("kept") : ""));
          return Q.remove(entry.id).then(function () { return "done"; });
        case "conflict":
        case "invalid":
        case "gone":
        case "forbidden":
          entry.state = { conflict: "conflict", forbidden: "forbidden" }[answer.status] || "invalid";
          entry.answer = answer;
          return Q.put(entry).then(function () { return "blocked"; });
        default:
          throw new Error("unknown answer");
      }
    });
  }

  function sendAll() {
    if (sending || !navigator.onLine) return Promise.resolve();
    sending = true;
    var saved = 0;
    return Q.all().then(function (entries) {
      var blocked = {};
      return entries.reduce(function (chain, entry) {
        return chain.then(function () {
          if (entry.state !== "waiting" || blocked[entry.token]) {
            blocked[entry.token] = true;  // in order: nothing goes past an entry that waits
            return null;
          }
          return refresh().then(function () { return sendOne(entry); }).then(function (outcome) {
            if (outcome === "saved") saved += 1;
            if (outcome === "blocked") blocked[entry.token] = true;
          });
        });
      }, Promise.resolve());
    }).then(function () {
      sending = false;
      delay = 2000;
      if (saved && box) {
        window.location.reload();  // the sheet as the server scored it
        return null;
      }
      return refresh();
    }, function () {
      sending = false;
      schedule();  // the network failed: everything stays queued, tried again later
      return refresh();
    });
  }

  function sheet() {
    var token = box.dataset.token;
    if (navigator.onLine) noteSynced(token);
    document.body.addEventListener("htmx:afterRequest", function (event) {
      var xhr = event.detail && event.detail.xhr;
      if (event.detail.elt && event.detail.elt.id === "sheet" && xhr && xhr.status >= 200 && xhr.status < 300) {
        noteSynced(token);
        refresh();
      }
    });
    document.body.addEventListener("htmx:sendError", refresh);
    window.addEventListener("offline", refresh);
    refresh().then(sendAll);
  }

  window.addEventListener("online", function () {
    delay = 2000;
    refresh().then(sendAll);
  });

  var form = document.querySelector("form[data-offline-token]");
  if (form) entryScreen(form);
  if (box) sheet();
  else if (navigator.onLine) sendAll();
})();
