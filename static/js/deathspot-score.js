/* Death's Pot's rules on the phone (scoring/deathspot.py in JavaScript), for the entry
   screen's preview with no connection; tested against the Python rules on every case of
   tests/scoring/test_deathspot.py and on 10,000 random games (tests/scoring/
   test_deathspot_js.py). The server stays the authority.

   Also the entry form's fields (kinds/deathspot/forms.py) and the sentences of a deal's row
   and of what comes next (kinds/deathspot/presenters.py), from the kind's offline text. */
(function () {
  "use strict";

  var R = window.RecordRules;
  var RuleError = R.RuleError;

  var MIN_PLAYERS = 2;
  var MAX_PLAYERS = 6;
  var TRICKS_PER_DEAL = 12;
  var HONOURS = [["excuse", 1], ["trump1", 1], ["trump11", 2]];
  var DEAL_FIELDS = ["death", "excuse", "trump1", "trump11", "tricks"];
  var TRICK_ERRORS = R.trickErrors("ERR_TRICKS_TYPE", "ERR_TRICKS_TOTAL");
  var MINUS = "\u2212";

  /* Balances by seat and the pot while a deal is worked out; every payment is logged. */
  function Ledger(players, stake, balances, pot) {
    this.players = players;
    this.stake = stake;
    this.balances = balances.slice();
    this.pot = pot;
    this.payments = [];
  }
  Ledger.prototype.ante = function () {
    var self = this;
    this.players.forEach(function (player, i) {
      self.balances[i] -= self.stake;
      self.pot += self.stake;
      self.payments.push({ kind: "ante", player: player, amount: -self.stake, pot: self.pot, capped: false });
    });
  };
  Ledger.prototype.pay = function (kind, player, due) {
    var amount = due === null ? this.pot : Math.min(due, this.pot);
    this.balances[R.index(this.players, player)] += amount;
    this.pot -= amount;
    this.payments.push({ kind: kind, player: player, amount: amount, pot: this.pot, capped: due !== null && amount < due });
    if (this.pot === 0) this.ante();
  };
  /* A share of the pot: paid without the ante, which follows the last share (_Ledger.share). */
  Ledger.prototype.share = function (players) {
    var each = Math.floor(this.pot / players.length);
    var self = this;
    if (each) {
      players.forEach(function (player) {
        self.balances[R.index(self.players, player)] += each;
        self.pot -= each;
        self.payments.push({ kind: "tricks", player: player, amount: each, pot: self.pot, capped: false });
      });
    }
    if (this.pot === 0) this.ante();
  };

  function zeros(n) {
    var out = [];
    for (var i = 0; i < n; i += 1) out.push(0);
    return out;
  }

  var TIE_POT_STAYS = "stays";
  var TIE_POT_SHARED = "shared";

  /* `options`: the stake, and the house rule `tie_pot` (scoring/deathspot.py DeathsPotRules):
     "shared" shares the pot among the players tied for the most tricks; absent or "stays", as
     written, the pot stays for the next deal. */
  function start(players, options) {
    var stake = options && "stake" in options ? options.stake : 1;
    var tiePot = options && options.tie_pot === TIE_POT_SHARED ? TIE_POT_SHARED : TIE_POT_STAYS;
    var seats = R.checkPlayers(players, MIN_PLAYERS, MAX_PLAYERS, "ERR_PLAYER_COUNT");
    if (!R.isInt(stake) || stake < 1) throw new RuleError("ERR_STAKE");
    var ledger = new Ledger(seats, stake, zeros(seats.length), 0);
    ledger.ante();
    return {
      players: seats, stake: stake, balances: ledger.balances, pot: ledger.pot,
      dealer: seats[0], opening: ledger.payments, history: [], finished: false, winner: null,
      rules: { tie_pot: tiePot }
    };
  }

  function get(map, key) {
    for (var i = 0; i < map.$map.length; i += 1) {
      if (R.eq(map.$map[i][0], key)) return map.$map[i][1];
    }
    return null;  // deal.get(field): None when left out
  }

  /* check_deal: every field, null when not shown; the tricks as [[player, n], ...]. */
  function checkDeal(players, deal) {
    if (!R.isMap(deal)) throw new RuleError("ERR_DEAL_TYPE");
    deal.$map.forEach(function (pair) {
      if (typeof pair[0] !== "string" || DEAL_FIELDS.indexOf(pair[0]) < 0) {
        throw new RuleError("ERR_DEAL_FIELD", { field: pair[0] });
      }
    });
    var clean = {};
    DEAL_FIELDS.forEach(function (field) { clean[field] = get(deal, field); });
    ["death", "excuse", "trump1", "trump11"].forEach(function (field) {
      if (clean[field] !== null && R.index(players, clean[field]) < 0) {
        throw new RuleError("ERR_NOT_PLAYING", { player: clean[field] });
      }
    });
    if (clean.death !== null) {
      if (HONOURS.some(function (h) { return clean[h[0]] !== null; }) || clean.tricks !== null) {
        throw new RuleError("ERR_DEATH_ALONE");
      }
    } else {
      if (clean.tricks === null) throw new RuleError("ERR_TRICKS_MISSING");
      var counts = R.checkCounts(players, clean.tricks, TRICKS_PER_DEAL, TRICK_ERRORS);
      clean.tricks = players.map(function (p, i) { return [p, counts[i]]; });
    }
    return clean;
  }

  function playDeal(state, deal) {
    var players = state.players;
    var clean = checkDeal(players, deal);
    var ledger = new Ledger(players, state.stake, state.balances, state.pot);
    var honours = [];
    var tricksWinner = null;
    var tied = [];
    if (clean.death !== null) {
      ledger.pay("death", clean.death, null);
    } else {
      HONOURS.forEach(function (h) {
        var holder = clean[h[0]];
        if (holder !== null) {
          honours.push([h[0], holder]);
          ledger.pay(h[0], holder, h[1] * state.stake);
        }
      });
      var counts = clean.tricks.map(function (pair) { return pair[1]; });
      var most = Math.max.apply(null, counts);
      var leaders = players.filter(function (p, i) { return counts[i] === most; });
      if (leaders.length === 1) {
        tricksWinner = leaders[0];
        ledger.pay("tricks", tricksWinner, null);
      } else {
        tied = leaders;  // house default: the pot stays for the next deal
        if (state.rules.tie_pot === TIE_POT_SHARED) ledger.share(leaders);
      }
    }
    var seat = R.index(players, state.dealer);
    var result = {
      number: state.history.length + 1,
      dealer: state.dealer,
      death: clean.death,
      honours: honours,
      tricks: clean.tricks,
      tricks_winner: tricksWinner,
      tied: tied,
      payments: ledger.payments,
      balances: ledger.balances.slice(),
      pot: ledger.pot
    };
    return {
      players: players, stake: state.stake, balances: ledger.balances, pot: ledger.pot,
      dealer: players[(seat + 1) % players.length], opening: state.opening,
      history: state.history.concat([result]), finished: false, winner: null, rules: state.rules
    };
  }

  function play(players, deals, stake, rules) {
    var options = { stake: stake === undefined ? 1 : stake, tie_pot: rules ? rules.tie_pot : null };
    return R.replay(start(players, options), playDeal, deals, "ERR_DEALS_TYPE");
  }

  // --- the state as the Python state's fields -------------------------------------------

  function pairs(players, values) { return players.map(function (p, i) { return [p, values[i]]; }); }

  function exported(state) {
    var ps = state.players;
    return {
      players: ps, stake: state.stake, balances: pairs(ps, state.balances), pot: state.pot,
      dealer: state.dealer, opening: state.opening,
      history: state.history.map(function (r) {
        return Object.assign({}, r, { balances: pairs(ps, r.balances) });
      }),
      finished: state.finished, winner: state.winner, rules: state.rules
    };
  }

  function imported(state) {
    function values(list) { return list.map(function (pair) { return pair[1]; }); }
    return Object.assign({}, state, {
      rules: state.rules || { tie_pot: TIE_POT_STAYS },
      balances: values(state.balances),
      history: state.history.map(function (r) { return Object.assign({}, r, { balances: values(r.balances) }); })
    });
  }

  // --- what a person reads (kinds/deathspot/presenters.py) ------------------------------

  function fill(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in params ? String(params[name]) : whole;
    });
  }
  function signed(v) { return v > 0 ? "+" + v : v < 0 ? MINUS + -v : "0"; }

  /* A sentence whose %(...)s values may be names kept whole (a {name} part): the parts of
     the row, text and names, in order. */
  function say(template, params) {
    var parts = [];
    var at = 0;
    template.replace(/%\((\w+)\)s/g, function (whole, key, offset) {
      parts.push(template.slice(at, offset));
      var value = params[key];
      if (Array.isArray(value)) parts.push.apply(parts, value);
      else if (value && value.name !== undefined) parts.push(value);
      else parts.push(String(value));
      at = offset + whole.length;
      return whole;
    });
    parts.push(template.slice(at));
    return parts;
  }

  /* deal_text: the payments in order, the antes once a round, a tie, the pot left; each name
     a part {name} (the server's <span class="dp-name">). */
  function rowSummary(state, number, names, text) {
    var r = state.history[number - 1];
    function name(pk) { return { name: names[pk] }; }
    var parts = [];
    var payments = r.payments;
    payments.forEach(function (pay, i) {
      if (pay.kind === "ante") {
        if (i === 0 || payments[i - 1].kind !== "ante") parts.push([fill(text.re_ante, { stake: -pay.amount })]);
      } else if (pay.kind === "death") {
        parts.push(say(text.death, { player: name(pay.player), amount: pay.amount }));
      } else if (pay.kind === "tricks") {
        var tricks = r.tricks.filter(function (pair) { return R.eq(pair[0], pay.player); })[0][1];
        // house rule: the tied players share the pot
        var said = r.tied.length ? text.tricks_share : text.tricks;
        parts.push(say(said, { player: name(pay.player), tricks: tricks, amount: pay.amount }));
      } else {
        var line = [text.honours[pay.kind] + ": ", name(pay.player), " " + signed(pay.amount)];
        if (pay.capped) line.push(" " + text.capped);
        parts.push(line);
      }
    });
    if (r.death === null && r.tricks_winner === null) {
      var tied = [];
      r.tied.forEach(function (pk, i) {
        if (i) tied.push(", ");
        tied.push(name(pk));
      });
      var shared = payments.some(function (pay) { return pay.kind === "tricks"; });
      parts.push(say(shared ? text.tie_shared : text.tie, { players: tied }));
    }
    parts.push([fill(text.pot, { pot: r.pot })]);
    var out = [];
    parts.forEach(function (part, i) {
      if (i) out.push(" \u00b7 ");
      out.push.apply(out, part);
    });
    return out;
  }

  /* summary(...) as the preview shows it: the game never ends by the rules; what is next is
     who deals (its first line). */
  function summary(state, names, text) {
    return {
      over: false, headline: "",
      next: fill(text.next_deal, { n: state.history.length + 1, dealer: names[state.dealer] })
    };
  }

  /* The entry form's fields (DeathsPotForm): Death and the honours (nobody or a player), then
     each player's tricks (0 to 12, not required). */
  function fields(seats, d) {
    var choices = [""].concat(seats.map(String));
    var out = ["death", "excuse", "trump1", "trump11"].map(function (name) {
      return { name: name, type: "choice", coerce: true, required: false, choices: choices, messages: { invalid: d.text.words.choice } };
    });
    seats.forEach(function (pk) {
      out.push({ name: "tricks_" + pk, type: "whole", low: 0, high: TRICKS_PER_DEAL, required: false });
    });
    return out;
  }

  /* DeathsPotForm.clean: without Death, every player's tricks are set. */
  function clean(seats, values, d) {
    if (values.death !== null) return null;
    for (var i = 0; i < seats.length; i += 1) {
      if (values["tricks_" + seats[i]] === null) return d.text.form.required;
    }
    return null;
  }

  function unfinished(seats, values) {
    if (values.death !== null) return false;
    var total = 0;
    seats.forEach(function (pk) { total += values["tricks_" + pk] || 0; });
    return total !== TRICKS_PER_DEAL;
  }

  function record(seats, values) {
    if (values.death !== null) {
      return { $map: [["death", values.death], ["excuse", null], ["trump1", null], ["trump11", null]] };
    }
    return {
      $map: [
        ["death", null], ["excuse", values.excuse], ["trump1", values.trump1], ["trump11", values.trump11],
        ["tricks", { $map: seats.map(function (pk) { return [pk, values["tricks_" + pk]]; }) }]
      ]
    };
  }

  var rules = {
    values: {
      checkDeal: function (players, deal) {
        var c = checkDeal(players.$tuple || players, deal);
        return Object.assign({}, c);
      }
    },
    start: function (players, options, rules) {
      // the page's options ({stake, tie_pot}), or start(players, stake, rules) as the scoring
      // tests call it
      var given = options !== null && typeof options === "object" && !Array.isArray(options) &&
        Object.prototype.hasOwnProperty.call(options, "stake") && !R.isMap(options);
      if (given) return start(players, options);
      return start(players, {
        stake: options === undefined ? 1 : options, tie_pot: rules ? rules.tie_pot : null
      });
    },
    step: playDeal,
    playDeal: playDeal,
    play: play,
    exported: exported,
    imported: imported,
    rowSummary: rowSummary,
    summary: summary,
    fields: fields,
    clean: clean,
    unfinished: unfinished,
    record: record
  };
  window.DeathsPotScore = rules;
  R.kinds.deathspot = rules;
})();
