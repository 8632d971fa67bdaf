/* The deal screen's score preview with no network: when htmx cannot ask the server (the phone
   is offline, or the request fails on the way), the preview box is filled here from the form's
   fields, with the same content as kinds/tarot/_preview.html (the verdict and each player's
   score, the formula and the shares, or the message saying what is wrong). The rules are
   TarotScore's (tarot-score.js, tested against scoring/fft.py); every sentence is the server's,
   in the page's language, from the #tarot-offline data (the seats) and TarotOfflineText (the
   sentences, /offline/<language>/tarot.js). Saving still goes to the server, which
   stays the authority. */
(function () {
  "use strict";

  var MINUS = "\u2212";
  // kinds/tarot/services.py MISERE_ERRORS: the rules' messages that name a misère's player.
  var MISERE_ERRORS = [
    "ERR_MISERE_SHAPE", "ERR_MISERE_KIND", "ERR_MISERE_OFF", "ERR_UNKNOWN_MISERE_PLAYER",
    "ERR_DUPLICATE_MISERE", "ERR_MISERE_ATOUT_POIGNEE"
  ];
  var ALONE = "alone";

  function data() {
    var node = document.getElementById("tarot-offline");
    if (!node) return null;
    try {
      var parsed = JSON.parse(node.textContent);
      // the seats come with the page, the sentences from the language's script (kept)
      var text = window.TarotOfflineText;
      if (!parsed || !parsed.seats || !text) return null;
      return Object.assign({}, text, parsed);
    } catch (e) {
      return null;
    }
  }

  /** Python's "%(name)s" % params. */
  function fill(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in params ? String(params[name]) : whole;
    });
  }

  function signed(value) {
    return value > 0 ? "+" + value : value < 0 ? MINUS + -value : "0";
  }

  // core.text.no_break_hyphens: a hyphen inside a word does not break the line.
  function nobreak(text) {
    return text.replace(/(?<=[\p{L}\p{N}_])-(?=[\p{L}\p{N}_])/gu, "\u2011");
  }

  // Python's str.strip(), as Django's CharField strips the points typed (trim() differs: it
  // keeps U+001C-U+001F and U+0085, and strips U+FEFF).
  var SPACE = "[\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a" +
    "\\u2028\\u2029\\u202f\\u205f\\u3000]";
  var AROUND = new RegExp("^" + SPACE + "+|" + SPACE + "+$", "g");

  function strip(text) {
    return text.replace(AROUND, "");
  }

  function checked(form, name) {
    var input = form.querySelector("input[name='" + name + "']:checked");
    return input ? input.value : "";
  }

  /** What the server's form and preview would say: {result} or {error}, and the points line. */
  function compute(form, d) {
    var taker = checked(form, "taker");
    var contract = checked(form, "contract");
    var bouts = checked(form, "bouts");
    var side = checked(form, "points_side") || "attack";
    var pointsInput = form.querySelector("[name=points]");
    var raw = pointsInput ? pointsInput.value : "";
    var fivePlayers = !!form.querySelector("input[name=partner]");
    var partner = fivePlayers ? checked(form, "partner") : "";

    // DealForm's fields in their order; the preview shows the first error.
    var error = null;
    function first(message) {
      if (error === null) error = message;
    }
    if (!taker) first(d.form.taker);
    if (!contract) first(d.form.contract);
    if (!bouts) first(d.form.bouts);
    var halves = null;
    var stripped = strip(raw);
    if (!stripped) {
      first(d.form.points);
    } else {
      try {
        halves = TarotScore.parsePoints(stripped);
      } catch (e) {
        if (!(e instanceof TarotScore.RuleError)) throw e;
        first(fill(d.rules[e.code], e.params));
      }
    }
    if (fivePlayers && !partner) first(d.form.partner);
    if (error === null && side === "defence") halves = TarotScore.TOTAL_HALVES - halves;

    var result = null;
    if (error === null) {
      var poignees = [];
      d.seats.forEach(function (seat) {
        var kind = checked(form, "poignee_" + seat.pk);
        if (kind) poignees.push([seat.pk, kind]);
      });
      // House rules: each player's misère field ("both": de tête and d'atout).
      var miseres = [];
      d.seats.forEach(function (seat) {
        var declared = checked(form, "misere_" + seat.pk);
        ["tete", "atout"].forEach(function (kind) {
          if (declared === kind || declared === "both") miseres.push([seat.pk, kind]);
        });
      });
      try {
        result = TarotScore.scoreDeal({
          miseres: miseres,
          rules: d.house_rules || null,
          seats: d.seats.map(function (seat) { return seat.pk; }),
          taker: Number(taker),
          partner: !partner || partner === ALONE ? null : Number(partner),
          contract: contract,
          bouts: Number(bouts),
          points: { numerator: halves, denominator: 2 },
          petit_au_bout: checked(form, "petit_au_bout") || null,
          poignees: poignees,
          chelem: checked(form, "chelem") || "none"
        });
      } catch (e) {
        if (!(e instanceof TarotScore.RuleError)) throw e;
        var params = e.params;
        if (MISERE_ERRORS.indexOf(e.code) >= 0 && "player" in params) {
          // kinds/tarot/services.py deal_score: a misère's message names its player
          params = Object.assign({}, params);
          d.seats.forEach(function (s) { if (s.pk === e.params.player) params.player = s.name; });
        }
        error = fill(d.rules[e.code], params);
      }
    }
    return { result: result, error: error, pointsBoth: pointsBoth(raw, side, d) };
  }

  // Kind.preview_extra: the points typed, said for both sides.
  function pointsBoth(raw, side, d) {
    var halves;
    try {
      halves = TarotScore.parsePoints(raw);
    } catch (e) {
      return "";
    }
    var mine = TarotScore.formatPoints(halves);
    var other = TarotScore.formatPoints(TarotScore.TOTAL_HALVES - halves);
    if (side === "defence") return fill(d.words.defence_side, { defence: mine, attack: other });
    return fill(d.words.attack_side, { attack: mine, defence: other });
  }

  // presenters.breakdown
  function breakdown(r, d) {
    var seat = {};
    d.seats.forEach(function (s) { seat[s.pk] = s; });
    var w = d.words;
    var points = fill(w.points, { points: TarotScore.formatPoints(r.halves) });
    if (r.rounded_points * 2 !== r.halves) {
      points += " (" + fill(w.counted, { points: r.rounded_points }) + ")";
    }
    var verdict = fill(r.won ? w.won : w.lost, { gap: r.gap });
    var headline = d.contracts[r.contract] + ", " + d.bouts[r.bouts] + ", " + points + ": " + verdict;

    var terms = [[r.contract_part, "(25 + " + r.gap + ") \u00d7 " + r.multiplier]];
    if (r.petit_au_bout_bonus) {
      terms.push([r.petit_au_bout_bonus, fill(w.petit_au_bout, { n: Math.abs(r.petit_au_bout_bonus) })]);
    }
    if (r.poignee_bonus) terms.push([r.poignee_bonus, fill(w.poignee, { n: Math.abs(r.poignee_bonus) })]);
    if (r.chelem_bonus) terms.push([r.chelem_bonus, fill(w.slam, { n: Math.abs(r.chelem_bonus) })]);
    var formula = "";
    terms.forEach(function (term, i) {
      if (i === 0) formula = term[0] >= 0 ? term[1] : MINUS + term[1];
      else formula += term[0] >= 0 ? " + " + term[1] : " " + MINUS + " " + term[1];
    });
    formula += " = " + fill(w.per_defender, { unit: signed(r.unit) });

    var score = {};
    r.scores.forEach(function (pair) { score[pair[0]] = pair[1]; });
    var unit = Math.abs(r.unit);
    var takerName = seat[r.taker].name;
    var shares = r.unit >= 0
      ? fill(w.pays, { unit: unit, taker: takerName, total: score[r.taker] })
      : fill(w.receives, { unit: unit, taker: takerName, total: -score[r.taker] });
    if (r.partner !== null) {
      shares += "; " + fill(w.partner, { partner: seat[r.partner].name, score: signed(score[r.partner]) });
    }
    (r.miseres || []).forEach(function (m) {
      shares += "; " + fill(w.misere, {
        misere: d.miseres[m[1]], player: seat[m[0]].name, amount: d.house_rules.misere_amount
      });
    });
    return {
      headline: headline,
      formula: formula,
      shares: shares,
      won: r.won,
      scores: r.scores.map(function (pair) {
        var s = seat[pair[0]];
        var v = pair[1];
        return [s.short, s.full, signed(v), v > 0 ? "pos" : v < 0 ? "neg" : ""];
      })
    };
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** kinds/tarot/_preview.html with live=True, and its two out-of-band parts. */
  function render(form, d) {
    var box = document.getElementById("preview");
    if (!box) return;
    var out = compute(form, d);
    var nodes = [];
    var b = out.result ? breakdown(out.result, d) : null;
    if (b) {
      var bar = element("div", "bar-result " + (b.won ? "won" : "lost"));
      bar.appendChild(element("p", "verdict", nobreak(b.headline)));
      var list = element("ol", "bar-scores");
      list.setAttribute("aria-label", d.words.scores);
      b.scores.forEach(function (s) {
        var item = element("li");
        if (s[1]) item.title = s[1];
        item.appendChild(element("span", "name", s[0]));
        item.appendChild(document.createTextNode(" "));
        item.appendChild(element("span", "value " + s[3], s[2]));
        list.appendChild(item);
      });
      bar.appendChild(list);
      nodes.push(bar);
    } else {
      nodes.push(element("p", "bar-hint", out.error === null ? d.words.hint : out.error));
    }
    nodes.push(element("p", "bar-hint offline-note", d.words.offline));
    box.replaceChildren.apply(box, nodes);

    var both = document.getElementById("points-both");
    if (both) both.textContent = out.pointsBoth;
    var detail = document.getElementById("preview-detail");
    if (detail) {
      detail.replaceChildren();
      if (b) {
        detail.appendChild(element("p", "formula", b.formula));
        detail.appendChild(element("p", "shares", nobreak(b.shares)));
      }
    }
  }

  /* A table where the dealer sits out: the screen kept by the phone serves the next deals
     too (offline-app.js gives it their number). The players of deal n are every seat but
     the dealer, seats[(first + n - 1) % seats] (kinds/tarot/selectors.dealer_for): the taker
     buttons and the poignée boxes are theirs, in seat order, and so are the preview's seats. */
  /* A triplette table (duplicate.md 2.2): 6 seated, 4 play each board. The players of board
     n are boards.active[n - 1] (N, E, S, W), its taker boards.imposed[n - 1], the attacker by
     the rotation (tournaments/triplette.table_options): the one taker button becomes his,
     the poignée boxes and the preview's seats are the four's, and the subtitle says so. */
  function reseatBoard(form, node, parsed, number) {
    var boards = parsed.boards;
    var row = boards.active[number - 1];
    if (!row) return;
    var byPk = {};
    boards.seats.forEach(function (s) { byPk[s.pk] = s; });
    var playing = row.map(function (pk) { return byPk[pk]; });
    if (playing.some(function (s) { return !s; })) return;
    var before = parsed.seats;
    var taker = byPk[boards.imposed[number - 1]];
    var radio = form.querySelector("input[name=taker]");
    if (radio && taker) {
      radio.value = String(taker.pk);
      radio.checked = true;
      var span = radio.parentNode.querySelector("span");
      if (span) span.textContent = nobreak(taker.label);
    }
    before.forEach(function (old, i) {
      var seat = playing[i];
      var box = form.querySelector("#fs-poignee_" + old.pk + ":not([data-reseated])");
      if (!seat || !box) return;
      box.dataset.reseated = "1";
      box.id = "fs-poignee_" + seat.pk;
      box.querySelectorAll("input[name=poignee_" + old.pk + "]").forEach(function (input) {
        input.name = "poignee_" + seat.pk;
        input.id = input.id.replace("poignee_" + old.pk, "poignee_" + seat.pk);
      });
      var legend = box.querySelector("legend");
      if (legend) legend.textContent = seat.label;
    });
    form.querySelectorAll("[data-reseated]").forEach(function (n) { delete n.dataset.reseated; });
    var subtitle = document.querySelector("h1 small span");
    var said = (boards.subtitles || [])[number - 1];
    if (subtitle && said) subtitle.textContent = nobreak(said);
    parsed.seats = playing;
    node.textContent = JSON.stringify(parsed);
  }

  function reseat(form) {
    var node = document.getElementById("tarot-offline");
    var number = parseInt(form.dataset.offlineNumber, 10);
    var parsed;
    try { parsed = JSON.parse(node.textContent); } catch (e) { return; }
    if (parsed && parsed.boards && !isNaN(number)) return reseatBoard(form, node, parsed, number);
    var rotation = parsed && parsed.rotation;
    if (!rotation || isNaN(number)) return;
    var all = rotation.seats;
    var dealer = all[(rotation.first + number - 1) % all.length];
    var playing = all.filter(function (s) { return s.pk !== dealer.pk; });
    var before = parsed.seats;
    if (playing.map(function (s) { return s.pk; }).join() === before.map(function (s) { return s.pk; }).join()) return;
    before.forEach(function (old, i) {
      var seat = playing[i];
      if (!seat) return;
      var radio = form.querySelector("input[name=taker][value='" + old.pk + "']:not([data-reseated])");
      if (radio) {
        radio.value = String(seat.pk);
        radio.checked = false;
        radio.dataset.reseated = "1";
        var span = radio.parentNode.querySelector("span");
        if (span) span.textContent = nobreak(seat.label);
      }
      var box = form.querySelector("#fs-poignee_" + old.pk + ":not([data-reseated])");
      if (box) {
        box.dataset.reseated = "1";
        box.id = "fs-poignee_" + seat.pk;
        box.querySelectorAll("input[name=poignee_" + old.pk + "]").forEach(function (input) {
          input.name = "poignee_" + seat.pk;
          input.id = input.id.replace("poignee_" + old.pk, "poignee_" + seat.pk);
        });
        var legend = box.querySelector("legend");
        if (legend) legend.textContent = seat.label;
      }
    });
    form.querySelectorAll("[data-reseated]").forEach(function (n) { delete n.dataset.reseated; });
    parsed.seats = playing;
    node.textContent = JSON.stringify(parsed);
  }

  function start() {
    var d = data();
    var form = document.getElementById("record-form");
    if (!d || !form || typeof TarotScore === "undefined") return;
    reseat(form);
    form.addEventListener("tarotclub:number", function () { reseat(form); });
    var show = function () { render(form, data()); };
    // htmx asks the server on each change: offline, it is not asked (the request would fail
    // after a wait); when the request fails on the way, the phone answers instead.
    form.addEventListener("htmx:beforeRequest", function (event) {
      if (navigator.onLine === false) {
        event.preventDefault();
        show();
      }
    });
    form.addEventListener("htmx:sendError", show);
    // a service worker's "offline" answer, or a server that could not answer
    form.addEventListener("htmx:responseError", show);
    form.addEventListener("htmx:timeout", show);
    // The Preview button offline: the page would not load; the preview shows here instead.
    form.addEventListener("submit", function (event) {
      var button = event.submitter;
      if (navigator.onLine === false && button && button.name === "preview") {
        event.preventDefault();
        show();
      }
    });
    if (typeof window.htmx === "undefined") {
      // htmx did not load (a cache without it): the page still previews when offline
      form.addEventListener("change", function () { if (navigator.onLine === false) show(); });
      form.addEventListener("input", function () { if (navigator.onLine === false) show(); });
    }
  }

  window.TarotPreview = {
    ready: function () { return !!(data() && document.getElementById("record-form")); },
    compute: function (form) { return compute(form, data()); },
    render: function (form) { render(form, data()); }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
