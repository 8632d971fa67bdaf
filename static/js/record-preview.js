/* The entry screen's preview with no network, for the games replayed from their records
   (Fool's Faith...): when htmx cannot ask the server, the preview box is filled here, with
   the same content as games/_record_preview.html (the new row's sentence, then the game's
   end or what comes next; or the first message of the form or of the rules). The game is
   replayed by the kind's own script (RecordRules.kinds.<kind>, tested against scoring/) from
   the page's #record-offline data (the players, their names, the stored records), then the
   entries this phone keeps for the game and still has to send, then the new one. Every
   sentence is the server's, in the page's language (OfflineText.<kind>, /offline/<language>/
   <kind>.js). Saving still goes to the server, which stays the authority. */
(function () {
  "use strict";

  function data() {
    var node = document.getElementById("record-offline");
    if (!node || !window.RecordRules) return null;
    try {
      var parsed = JSON.parse(node.textContent);
      var rules = window.RecordRules.kinds[parsed.kind];
      var text = (window.OfflineText || {})[parsed.kind];
      if (!rules || !text) return null;
      return { page: parsed, rules: rules, text: text };
    } catch (e) {
      return null;
    }
  }

  function fill(template, params) {
    return String(template).replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in params ? String(params[name]) : whole;
    });
  }

  // core.text.no_break_hyphens: a hyphen inside a word does not break the line.
  function nobreak(text) {
    return text.replace(/(?<=[\p{L}\p{N}_])-(?=[\p{L}\p{N}_])/gu, "\u2011");
  }

  // Python's str.strip(), as Django's fields strip what is typed.
  var SPACE = "[\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a" +
    "\\u2028\\u2029\\u202f\\u205f\\u3000]";
  var AROUND = new RegExp("^" + SPACE + "+|" + SPACE + "+$", "g");
  function strip(text) { return text.replace(AROUND, ""); }

  var MAX_DIGITS = 18, MAX_SPACES = 16, MAX_TEXT = 10000;

  function digitsOnly(value) {
    if (value.length > MAX_TEXT) return false;
    return /^[0-9]+$/.test(strip(value));
  }

  /* core.forms.WholeNumberField (a stepper: required, from `low` to `high`): {value} or
     {error}. */
  function whole(raw, field, form) {
    var value = raw;
    if (value.length <= MAX_TEXT) value = strip(value);
    if (value === "") {
      return field.required ? { error: form.required } : { value: null };
    }
    var number = null;
    if (value.length <= MAX_DIGITS + MAX_SPACES) {
      var text = strip(value);
      if (text.length <= MAX_DIGITS && /^[0-9]{1,18}$/.test(text)) number = Number(text);
    }
    if (number === null) {
      if (digitsOnly(value)) return { error: fill(form.max_value, { limit_value: field.high }) };
      if (value.charAt(0) === "-" && digitsOnly(value.slice(1))) {
        return { error: fill(form.min_value, { limit_value: field.low }) };
      }
      return { error: form.invalid };
    }
    if (number > field.high) return { error: fill(form.max_value, { limit_value: field.high }) };
    if (number < field.low) return { error: fill(form.min_value, { limit_value: field.low }) };
    return { value: number };
  }

  /* A ChoiceField (buttons; a TypedChoiceField with `coerce`): {value} or {error}. */
  function choice(raw, field) {
    if (raw === "") return field.required ? { error: field.messages.required } : { value: null };
    if (field.choices.indexOf(raw) < 0) return { error: field.messages.invalid };
    return { value: field.coerce ? Number(raw) : raw };
  }

  /* The form's fields read as the server's form does: {values} or {error} (the first: the
     fields' own in their order, then the form's `clean`). */
  function read(get, d, state) {
    var values = {};
    var fields = d.rules.fields(d.page.seats, d, state);
    for (var i = 0; i < fields.length; i += 1) {
      var raw = get(fields[i].name);
      raw = raw === null || raw === undefined ? "" : String(raw);
      var got = fields[i].type === "choice" ? choice(raw, fields[i]) : whole(raw, fields[i], d.text.form);
      if (got.error !== undefined) return { error: got.error };
      values[fields[i].name] = got.value;
    }
    var wrong = d.rules.clean ? d.rules.clean(d.page.seats, values, d) : null;
    return wrong ? { error: wrong } : { values: values };
  }

  /* scoring's RuleError as the server says it (replayed.named_message): players by name. */
  function message(error, d) {
    var params = {};
    Object.keys(error.params).forEach(function (key) {
      var value = error.params[key];
      var labels = (d.text.values || {})[key];
      if ((key === "player" || key === "winner") && Object.prototype.hasOwnProperty.call(d.page.names, value)) {
        value = d.page.names[value];
      } else if (labels && typeof value === "string" && Object.prototype.hasOwnProperty.call(labels, value)) {
        value = labels[value];  // a value the kind names (a suit)
      } else {
        value = window.RecordRules.pyText(value);
      }
      params[key] = value;
    });
    var template = d.text.rules[error.code];
    return Object.keys(params).length ? fill(template, params) : template;
  }

  /* What the server's live preview gives (Kind.preview, live): {preview}, {error}, {} (the
     entry is not finished yet) or null (the phone cannot tell: its note says so). `waiting`
     are the fields of the entries this phone keeps for the game, in order. */
  function compute(form, d, waiting) {
    var R = window.RecordRules, rules = d.rules;
    // the game before the new entry: the page's records, then the ones the phone keeps
    var state;
    try {
      state = rules.start(d.page.order, d.page.options);
      d.page.records.forEach(function (record) { state = rules.step(state, record); });
      for (var i = 0; i < waiting.length; i += 1) {
        var kept = read(function (name) {
          var pair = waiting[i].filter(function (p) { return p[0] === name; })[0];
          return pair ? pair[1] : "";
        }, d, state);
        if (kept.error !== undefined) return null;
        if (rules.unfinished && rules.unfinished(d.page.seats, kept.values)) return null;
        state = rules.step(state, rules.record(d.page.seats, kept.values, state));
      }
    } catch (e) {
      return null;  // what the phone keeps does not replay: the server will say
    }
    var missing = false;
    var own = read(function (name) {
      var input = form.elements[name];
      if (!input) missing = true;
      return input ? input.value : "";
    }, d, state);
    // a form made for another state (a kind whose fields follow who takes part)
    if (missing) return null;
    if (own.error !== undefined) return { error: own.error };
    if (rules.unfinished && rules.unfinished(d.page.seats, own.values)) return {};
    try {
      state = rules.step(state, rules.record(d.page.seats, own.values, state));
    } catch (e) {
      if (!(e instanceof R.RuleError)) throw e;
      return { error: message(e, d) };
    }
    var names = d.page.names;
    var words = d.text.words;
    var summary = rules.summary(state, names, words);
    return {
      preview: {
        row: rules.rowSummary(state, state.history.length, names, words),
        over: summary.over,
        headline: summary.headline,
        next: summary.next
      }
    };
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* The row's sentence: a text, or its parts (texts, and names kept whole: {name}, the
     server's <span class="dp-name">), each text made non-breaking at its hyphens. */
  function verdict(row) {
    var p = element("p", "verdict");
    if (typeof row === "string") {
      p.textContent = nobreak(row);
      return p;
    }
    var text = "";
    function flush() {
      if (text) p.appendChild(document.createTextNode(nobreak(text)));
      text = "";
    }
    row.forEach(function (part) {
      if (typeof part === "string") {
        text += part;
        return;
      }
      flush();
      p.appendChild(element("span", "dp-name", nobreak(part.name)));
    });
    flush();
    return p;
  }

  /* games/_record_preview.html with live=True, and the phone's note. */
  function show(box, out, d, form) {
    var nodes = [];
    if (out === null) {
      nodes.push(element("p", "help offline-preview", form.dataset.offlinePreview));
      box.replaceChildren.apply(box, nodes);
      return;
    }
    if (out.preview) {
      var p = out.preview;
      var bar = element("div", "bar-result");
      bar.appendChild(verdict(p.row));
      if (p.over) {
        var over = element("p", "game-over");
        over.appendChild(element("strong", "", nobreak(p.headline)));
        bar.appendChild(over);
      } else if (p.next) {
        bar.appendChild(element("p", "muted", d.text.words.next + " " + nobreak(p.next)));
      }
      nodes.push(bar);
    } else if (out.error) {
      nodes.push(element("p", "bar-hint", out.error));
    }
    nodes.push(element("p", "bar-hint offline-note", d.text.words.offline));
    box.replaceChildren.apply(box, nodes);
  }

  /* The fields of this game's entries the phone keeps and has not sent (all waiting; any
     other state, and the phone cannot tell what the sheet will be). */
  function waitingFields(form) {
    var Q = window.TarotQueue;
    var token = form.dataset.offlineToken;
    if (!Q || !token) return Promise.resolve([]);
    var mine = form.querySelector("input[name=client_id]");
    return Q.all(token).then(function (entries) {
      entries = entries.filter(function (e) { return !mine || e.id !== mine.value; });
      if (entries.some(function (e) { return e.state !== "waiting"; })) return null;
      return entries.map(function (e) { return e.fields; });
    }, function () { return null; });
  }

  var shown = 0;
  function render(form) {
    var d = data();
    var box = document.getElementById("preview");
    if (!d || !box) return Promise.resolve();
    var ticket = shown += 1;
    return waitingFields(form).then(function (waiting) {
      if (ticket !== shown) return;  // a newer change is on its way
      show(box, waiting === null ? null : compute(form, d, waiting), d, form);
    });
  }

  function start() {
    var form = document.getElementById("record-form");
    if (!data() || !form) return;
    var again = function () { render(form); };
    // htmx asks the server on each change: offline, it is not asked; when the request fails
    // on the way, the phone answers instead.
    form.addEventListener("htmx:beforeRequest", function (event) {
      if (navigator.onLine === false) {
        event.preventDefault();
        again();
      }
    });
    form.addEventListener("htmx:sendError", again);
    form.addEventListener("htmx:responseError", again);
    form.addEventListener("htmx:timeout", again);
    form.addEventListener("submit", function (event) {
      var button = event.submitter;
      if (navigator.onLine === false && button && button.name === "preview") {
        event.preventDefault();
        again();
      }
    });
    if (typeof window.htmx === "undefined") {
      form.addEventListener("change", function () { if (navigator.onLine === false) again(); });
      form.addEventListener("input", function () { if (navigator.onLine === false) again(); });
    }
  }

  window.RecordPreview = {
    ready: function () { return !!(data() && document.getElementById("record-form")); },
    compute: function (form, waiting) { return compute(form, data(), waiting || []); },
    render: render
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
