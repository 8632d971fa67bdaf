/* Cuckoo's rules on the phone (scoring/cuckoo.py in JavaScript: start, play_deal, play),
   tested against the Python rules on every case of tests/scoring/test_cuckoo.py and on
   10,000 random matches (tests/scoring/test_cuckoo_js.py). The server stays the authority.

   Also the entry form's fields, which follow the state (who takes part in the deal), and
   the sentences of a deal's row and of what comes next (kinds/cuckoo/forms.py and
   presenters.py), from the kind's offline text. */
(function () {
  "use strict";

  var R = window.RecordRules;
  var RuleError = R.RuleError;

  var RANKS = ["fool", "owl", "pot", "0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX",
    "X", "XI", "XII", "house", "horse", "cat", "dragoon", "cuckoo"];
  var FOOL = "fool";
  var GUARDS = ["dragoon", "cat"];
  var COPIES_PER_RANK = 2;
  var MIN_PLAYERS = 3;
  var MAX_PLAYERS = 12;
  var DEAL_FIELDS = ["cards", "swap_losses"];
  var SPACE = "[\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a" +
    "\\u2028\\u2029\\u202f\\u205f\\u3000]";
  var AROUND = new RegExp("^" + SPACE + "+|" + SPACE + "+$", "g");
  var LOOKUP = {};
  RANKS.forEach(function (rank) { LOOKUP[rank.toLowerCase()] = rank; });

  function order(rank) { return RANKS.indexOf(rank); }

  function rankOf(card) {
    var rank = null;
    if (typeof card === "string") {
      var key = card.replace(AROUND, "").toLowerCase();
      if (Object.prototype.hasOwnProperty.call(LOOKUP, key)) rank = LOOKUP[key];
    }
    if (rank === null) throw new RuleError("ERR_RANK", { rank: card });
    return rank;
  }

  function zerosOf(n, value) {
    var out = [];
    for (var i = 0; i < n; i += 1) out.push(value);
    return out;
  }

  function start(players, lives) {
    if (lives === undefined) lives = 3;
    var seats = R.checkPlayers(players, MIN_PLAYERS, MAX_PLAYERS, "ERR_PLAYER_COUNT");
    if (!R.isInt(lives) || lives < 1) throw new RuleError("ERR_LIVES");
    return {
      players: seats, starting_lives: lives, lives: zerosOf(seats.length, lives), resting: [],
      out: [], finished: false, winner: null, draw: false, dealer: seats[0],
      taking_part: seats.slice(), history: []
    };
  }

  function has(list, key) { return R.index(list, key) >= 0; }
  function livesOf(state, lives, player) { return lives[R.index(state.players, player)]; }

  function get(map, key) {
    for (var i = 0; i < map.$map.length; i += 1) {
      if (R.eq(map.$map[i][0], key)) return { found: true, value: map.$map[i][1] };
    }
    return { found: false, value: null };
  }

  function checkNamed(state, player) {
    if (!has(state.players, player)) throw new RuleError("ERR_UNKNOWN_PLAYER", { player: player });
    if (livesOf(state, state.lives, player) === 0) throw new RuleError("ERR_PLAYER_OUT", { player: player });
    if (has(state.resting, player)) throw new RuleError("ERR_PLAYER_RESTING", { player: player });
  }

  /* _check_deal: [ranks as [[player, rank]] (dealt in order), losses [[player, n]]]. */
  function checkDeal(state, deal) {
    if (!R.isMap(deal)) throw new RuleError("ERR_DEAL_TYPE");
    deal.$map.forEach(function (pair) {
      if (typeof pair[0] !== "string" || DEAL_FIELDS.indexOf(pair[0]) < 0) {
        throw new RuleError("ERR_DEAL_FIELD", { field: pair[0] });
      }
    });
    var dealtIn = state.taking_part;
    var cards = get(deal, "cards").value;
    if (cards === null) cards = { $map: [] };
    if (!R.isMap(cards)) throw new RuleError("ERR_DEAL_TYPE");
    cards.$map.forEach(function (pair) { checkNamed(state, pair[0]); });
    if (cards.$map.length || dealtIn.length >= 2) {
      dealtIn.forEach(function (player) {
        if (!get(cards, player).found) throw new RuleError("ERR_CARD_MISSING", { player: player });
      });
    }
    var ranks = [];
    dealtIn.forEach(function (player) {
      var got = get(cards, player);
      if (got.found) ranks.push([player, rankOf(got.value)]);
    });
    RANKS.forEach(function (rank) {
      var count = ranks.filter(function (pair) { return pair[1] === rank; }).length;
      if (count > COPIES_PER_RANK) throw new RuleError("ERR_RANK_COUNT", { count: count, rank: rank });
    });
    var swaps = get(deal, "swap_losses").value;
    if (swaps === null) swaps = { $map: [] };
    if (!R.isMap(swaps)) throw new RuleError("ERR_SWAPS_TYPE");
    swaps.$map.forEach(function (pair) {
      var player = pair[0], lost = pair[1];
      checkNamed(state, player);
      if (!R.isInt(lost)) throw new RuleError("ERR_SWAP_INT", { player: player });
      if (lost < 0) throw new RuleError("ERR_SWAP_NEGATIVE", { player: player });
      var left = livesOf(state, state.lives, player);
      if (lost > left) throw new RuleError("ERR_SWAP_TOO_MANY", { player: player, lives: left, lost: lost });
      if (lost > 1) throw new RuleError("ERR_SWAP_ONE_TURN", { player: player, lost: lost });
    });
    var losses = [];
    dealtIn.forEach(function (player) {
      var got = get(swaps, player);
      var lost = got.found ? got.value : 0;
      if (lost > 0) losses.push([player, lost]);
    });
    if (losses.length && dealtIn.length < 2) throw new RuleError("ERR_SKIPPED_SWAPS");
    var guarded = ranks.some(function (pair) { return GUARDS.indexOf(pair[1]) >= 0; });
    losses.forEach(function (pair) {
      if (!guarded && !R.eq(pair[0], state.dealer)) throw new RuleError("ERR_SWAP_NO_GUARD", { player: pair[0] });
    });
    return [ranks, losses];
  }

  function rankFor(ranks, player) {
    return ranks.filter(function (pair) { return R.eq(pair[0], player); })[0][1];
  }

  function lowest(players, ranks) {
    var bottom = Math.min.apply(null, players.map(function (p) { return order(rankFor(ranks, p)); }));
    return players.filter(function (p) { return order(rankFor(ranks, p)) === bottom; });
  }

  function playDeal(state, deal) {
    if (state.finished) throw new RuleError("ERR_GAME_OVER");
    var checked = checkDeal(state, deal);
    var ranks = checked[0], swapLosses = checked[1];
    var seats = state.players;
    var lives = state.lives.slice();
    function life(p) { return lives[R.index(seats, p)]; }
    swapLosses.forEach(function (pair) { lives[R.index(seats, pair[0])] -= pair[1]; });
    var out = swapLosses.filter(function (pair) { return life(pair[0]) === 0; }).map(function (pair) { return pair[0]; });
    var compared = state.taking_part.filter(function (p) { return life(p) > 0; });
    var alive = seats.filter(function (p) { return life(p) > 0; });
    var fools = [], losers = [];
    var skipped = compared.length < 2;
    if (skipped) {
      compared = [];
    } else {
      fools = compared.filter(function (p) { return rankFor(ranks, p) === FOOL; });
      if (!fools.length) {
        losers = lowest(compared, ranks);
      } else if (fools.length === 1) {
        var low = lowest(compared.filter(function (p) { return !has(fools, p); }), ranks);
        losers = compared.filter(function (p) { return has(fools, p) || has(low, p); });
      } else {
        losers = fools;
      }
      losers.forEach(function (p) { lives[R.index(seats, p)] -= 1; });
      out = out.concat(losers.filter(function (p) { return life(p) === 0; }));
      alive = seats.filter(function (p) { return life(p) > 0; });
    }
    var finished = alive.length < 2;
    var resting = finished ? [] : fools.filter(function (p) { return life(p) > 0; });
    var dealer = null;
    if (!finished) {
      var seat = R.index(seats, state.dealer);
      for (var step = 1; step <= seats.length; step += 1) {
        var next = seats[(seat + step) % seats.length];
        if (life(next) > 0) { dealer = next; break; }
      }
    }
    var result = {
      number: state.history.length + 1, dealer: state.dealer, cards: ranks, swap_losses: swapLosses,
      compared: compared, skipped: skipped, fools: fools, losers: losers, lives: lives.slice(),
      out: out, resting: resting
    };
    return {
      players: seats, starting_lives: state.starting_lives, lives: lives, resting: resting,
      out: state.out.concat(out), finished: finished,
      winner: alive.length === 1 ? alive[0] : null, draw: !alive.length, dealer: dealer,
      taking_part: finished ? [] : alive.filter(function (p) { return !has(resting, p); }),
      history: state.history.concat([result])
    };
  }

  function play(players, deals, lives) {
    return R.replay(start(players, lives), playDeal, deals, "ERR_DEALS_TYPE");
  }

  function pairs(players, values) { return players.map(function (p, i) { return [p, values[i]]; }); }

  function exported(state) {
    var ps = state.players;
    return Object.assign({}, state, {
      lives: pairs(ps, state.lives),
      history: state.history.map(function (r) { return Object.assign({}, r, { lives: pairs(ps, r.lives) }); })
    });
  }

  function imported(state) {
    function values(list) { return list.map(function (pair) { return pair[1]; }); }
    return Object.assign({}, state, {
      lives: values(state.lives),
      history: state.history.map(function (r) { return Object.assign({}, r, { lives: values(r.lives) }); })
    });
  }

  // --- the entry screen (kinds/cuckoo/forms.py) and what a person reads (presenters.py) --

  function fill(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in params ? String(params[name]) : whole;
    });
  }

  function joinNames(pks, names) {
    return pks.map(function (pk) {
      return Object.prototype.hasOwnProperty.call(names, pk) ? names[pk] : "?";
    }).join(", ");
  }

  /* The players taking part in the next deal, in seat order (CuckooForm.taking_part). */
  function takingPart(seats, state) {
    return seats.filter(function (pk) { return has(state.taking_part, pk); });
  }

  /* CuckooForm's fields: for each player taking part, the final card and the lives lost
     during the swaps (0 to 1, at most what is left); none when the deal is skipped. */
  function fields(seats, d, state) {
    var part = takingPart(seats, state);
    if (part.length < 2) return [];
    var words = d.text.words;
    var out = [];
    part.forEach(function (pk) {
      out.push({
        name: "card_" + pk, type: "choice", choices: RANKS, required: true,
        messages: { required: fill(words.card_required, { name: d.page.names[pk] }), invalid: words.card_choice }
      });
      out.push({
        name: "swap_" + pk, type: "whole", low: 0,
        high: Math.min(1, livesOf(state, state.lives, pk)), required: false
      });
    });
    return out;
  }

  /* CuckooForm.record_data as the rules take it. */
  function record(seats, values, state) {
    var part = takingPart(seats, state);
    if (part.length < 2) return { $map: [["cards", { $map: [] }], ["swap_losses", { $map: [] }]] };
    return {
      $map: [
        ["cards", { $map: part.map(function (pk) { return [pk, values["card_" + pk]]; }) }],
        ["swap_losses", { $map: part.filter(function (pk) { return values["swap_" + pk]; }).map(function (pk) {
          return [pk, values["swap_" + pk]];
        }) }]
      ]
    };
  }

  /* deal_text: what the deal's row says. */
  function rowSummary(state, number, names, text) {
    var r = state.history[number - 1];
    var parts = [];
    if (r.skipped) {
      parts.push(text.skipped);
    } else {
      if (r.fools.length) parts.push(fill(text.fool, { players: joinNames(r.fools, names) }));
      parts.push(fill(text.lost, { players: joinNames(r.losers, names) }));
    }
    if (r.swap_losses.length) {
      var swaps = r.swap_losses.map(function (pair) { return names[pair[0]] + " \u2212" + pair[1]; }).join(", ");
      parts.unshift(fill(text.swaps, { losses: swaps }));
    }
    if (r.out.length) parts.push(fill(text.out, { players: joinNames(r.out, names) }));
    if (r.resting.length) parts.push(fill(text.rests, { players: joinNames(r.resting, names) }));
    return parts.join(" \u00b7 ");
  }

  /* summary(...) as the preview shows it: the match's end, or who deals next. */
  function summary(state, names, text) {
    if (state.finished) {
      if (state.draw) {
        var last = state.history.length ? state.history[state.history.length - 1].out : [];
        return { over: true, headline: fill(text.draw, { players: joinNames(last, names) }), next: "" };
      }
      return { over: true, headline: fill(text.over, { winner: names[state.winner] }), next: "" };
    }
    return {
      over: false, headline: "",
      next: fill(text.next_deal, { n: state.history.length + 1, dealer: names[state.dealer] })
    };
  }

  var rules = {
    values: { rankOf: rankOf },
    fields: fields,
    record: record,
    rowSummary: rowSummary,
    summary: summary,
    start: function (players, options) {
      // the page's options ({lives}), or start(players, lives) as the scoring tests call it
      var given = options !== null && typeof options === "object" && !Array.isArray(options) &&
        Object.prototype.hasOwnProperty.call(options, "lives") && !R.isMap(options);
      return start(players, given ? options.lives : options);
    },
    step: playDeal,
    playDeal: playDeal,
    play: play,
    exported: exported,
    imported: imported
  };
  window.CuckooScore = rules;
  R.kinds.cuckoo = rules;
})();
