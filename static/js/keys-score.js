/* Keys of the Kingdom's rules on the phone (scoring/keys.py's check_game and its session:
   start, step, play), for the entry screen's preview with no connection; tested against the
   Python rules on every case of tests/scoring/test_keys.py and on 10,000 random sessions
   (tests/scoring/test_keys_js.py). The server stays the authority. The standings (a
   summary over games) are not needed by the preview and are not ported.

   Also the entry form's fields (kinds/keys/forms.py) and the sentence of a game's row
   (kinds/keys/presenters.py), from the kind's offline text. */
(function () {
  "use strict";

  var R = window.RecordRules;
  var RuleError = R.RuleError;

  var SUITS = ["hearts", "spades", "diamonds", "clubs"];
  var MIN_PLAYERS = 2;
  var MAX_PLAYERS = 4;
  var KEYS_PER_SUIT = 5;
  var MAX_GUARDS = 2;
  var GAME_FIELDS = ["suits", "winner", "keys", "guards"];
  var SYMBOLS = { hearts: "\u2665", spades: "\u2660", diamonds: "\u2666", clubs: "\u2663" };

  // Python's str.strip() and str.lower() (for the suits, which are ASCII)
  var SPACE = "[\\u0009-\\u000d\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a" +
    "\\u2028\\u2029\\u202f\\u205f\\u3000]";
  var AROUND = new RegExp("^" + SPACE + "+|" + SPACE + "+$", "g");

  function keysOf(map) { return map.$map.map(function (pair) { return pair[0]; }); }

  function get(map, key) {
    for (var i = 0; i < map.$map.length; i += 1) {
      if (R.eq(map.$map[i][0], key)) return { found: true, value: map.$map[i][1] };
    }
    return { found: false, value: undefined };
  }

  function field(game, name) {
    var got = get(game, name);
    return got.found ? got.value : null;
  }

  /* _check_suits: [[player, suit], ...] in the given order. */
  function checkSuits(suits) {
    if (!R.isMap(suits)) throw new RuleError("ERR_SUITS_TYPE");
    var count = suits.$map.length;
    if (count < MIN_PLAYERS || count > MAX_PLAYERS) throw new RuleError("ERR_PLAYER_COUNT", { count: count });
    var clean = [];
    suits.$map.forEach(function (pair) {
      var player = pair[0], suit = pair[1];
      if (player === null || player === "") throw new RuleError("ERR_PLAYER_NAME");
      var name = typeof suit === "string" ? suit.replace(AROUND, "").toLowerCase() : suit;
      if (typeof name !== "string" || SUITS.indexOf(name) < 0) {
        throw new RuleError("ERR_SUIT_UNKNOWN", { suit: suit });
      }
      if (clean.some(function (c) { return c[1] === name; })) {
        throw new RuleError("ERR_SUIT_TWICE", { player: player, suit: name });
      }
      clean.push([player, name]);
    });
    return clean;
  }

  function known(players, player) { return R.index(players, player) >= 0; }

  function checkKeys(players, winner, keys) {
    if (!R.isMap(keys)) throw new RuleError("ERR_KEYS_TYPE");
    keys.$map.forEach(function (pair) {
      var player = pair[0], held = pair[1];
      if (!known(players, player)) throw new RuleError("ERR_UNKNOWN_PLAYER", { player: player });
      if (!R.isInt(held)) throw new RuleError("ERR_KEYS_INT", { player: player });
      if (R.eq(player, winner)) {
        if (held !== KEYS_PER_SUIT) throw new RuleError("ERR_WINNER_KEYS", { player: player, keys: held });
      } else if (held < 0 || held > KEYS_PER_SUIT) {
        throw new RuleError("ERR_KEYS_RANGE", { player: player, keys: held });
      }
    });
    var clean = [];
    players.forEach(function (player) {
      if (R.eq(player, winner)) return;
      var got = get(keys, player);
      if (!got.found) throw new RuleError("ERR_KEYS_MISSING", { player: player });
      clean.push([player, got.value]);
    });
    return clean;
  }

  function checkGuards(players, guards) {
    if (guards === null) return [];
    if (!R.isMap(guards)) throw new RuleError("ERR_GUARDS_TYPE");
    guards.$map.forEach(function (pair) {
      var player = pair[0], kept = pair[1];
      if (!known(players, player)) throw new RuleError("ERR_UNKNOWN_PLAYER", { player: player });
      if (!R.isInt(kept)) throw new RuleError("ERR_GUARDS_INT", { player: player });
      if (kept < 0 || kept > MAX_GUARDS) throw new RuleError("ERR_GUARDS_RANGE", { player: player, guards: kept });
    });
    var clean = [];
    players.forEach(function (player) {
      var got = get(guards, player);
      if (got.found) clean.push([player, got.value]);
    });
    return clean;
  }

  /* check_game: {suits, winner, keys, guards}, each mapping as pairs in the rules' order. */
  function checkGame(game) {
    if (!R.isMap(game)) throw new RuleError("ERR_GAME_TYPE");
    keysOf(game).forEach(function (name) {
      if (typeof name !== "string" || GAME_FIELDS.indexOf(name) < 0) {
        throw new RuleError("ERR_GAME_FIELD", { field: name });
      }
    });
    var suits = checkSuits(field(game, "suits"));
    var players = suits.map(function (pair) { return pair[0]; });
    var winner = field(game, "winner");
    if (winner === null) throw new RuleError("ERR_WINNER_MISSING");
    if (!known(players, winner)) throw new RuleError("ERR_UNKNOWN_PLAYER", { player: winner });
    var keys = checkKeys(players, winner, field(game, "keys"));
    var guards = checkGuards(players, field(game, "guards"));
    return { suits: suits, winner: winner, keys: keys, guards: guards };
  }

  // The house rule (scoring/keys.py KeysRules): with `partial_table` off, as written, every
  // player of the table plays each game.
  function start(players, rules) {
    var seats = R.checkPlayers(players, MIN_PLAYERS, MAX_PLAYERS, "ERR_PLAYER_COUNT");
    var partial = !!(rules && rules.partial_table);
    return { players: seats, games: [], history: [], finished: false, winner: null, partial: partial };
  }

  function step(state, game) {
    var checked = checkGame(game);
    checked.suits.forEach(function (pair) {
      if (!known(state.players, pair[0])) throw new RuleError("ERR_UNKNOWN_PLAYER", { player: pair[0] });
    });
    if (!state.partial) {
      state.players.forEach(function (player) {
        var playing = checked.suits.map(function (pair) { return pair[0]; });
        var plays = R.index(playing, player) >= 0;
        if (!plays) throw new RuleError("ERR_WHOLE_TABLE", { player: player });
      });
    }
    var games = state.games.concat([checked]);
    return { players: state.players, games: games, history: games, finished: false, winner: null, partial: state.partial };
  }

  function play(players, games, rules) {
    return R.replay(start(players, rules), step, games, "ERR_GAMES_TYPE");
  }

  // --- what a person reads (kinds/keys/presenters.py) -------------------------------------

  function fill(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in params ? String(params[name]) : whole;
    });
  }

  /* rows(...)[number - 1].summary: who won, with which suit. */
  function rowSummary(state, number, names, text) {
    var g = state.games[number - 1];
    var suit = g.suits.filter(function (pair) { return R.eq(pair[0], g.winner); })[0][1];
    var name = Object.prototype.hasOwnProperty.call(names, g.winner) ? names[g.winner] : "?";
    return fill(text.wins, { winner: name, suit: SYMBOLS[suit] });
  }

  /* A session never ends by itself and has no "next" (Keys.next_line). */
  function summary() {
    return { over: false, headline: "", next: "" };
  }

  /* The entry form's fields in their order (KeysForm): each player's suit, the winner, then
     each player's keys (0 to 5, not required) and guards (none, 0, 1 or 2). */
  function fields(seats, d) {
    var words = d.text.words;
    // the house rule: a player may sit a game out (no suit), so a suit is not required
    var partial = partialTable(d);
    var out = seats.map(function (pk) {
      return {
        name: "suit_" + pk, type: "choice", choices: SUITS, required: !partial,
        messages: { required: fill(words.suit_required, { name: d.page.names[pk] }), invalid: words.choice }
      };
    });
    out.push({
      name: "winner", type: "choice", coerce: true, required: true,
      choices: seats.map(String), messages: { required: words.winner_required, invalid: words.choice }
    });
    seats.forEach(function (pk) {
      out.push({ name: "keys_" + pk, type: "whole", low: 0, high: KEYS_PER_SUIT, required: false });
      out.push({
        name: "guards_" + pk, type: "choice", coerce: true, required: false,
        choices: ["0", "1", "2"], messages: { invalid: words.choice }
      });
    });
    return out;
  }

  function partialTable(d) {
    return !!(d && d.page && d.page.options && d.page.options.partial_table);
  }

  /* Who plays this game: everyone, or (house rule) those given a suit. */
  function playing(seats, values) {
    return seats.filter(function (pk) { return values["suit_" + pk] !== null && values["suit_" + pk] !== ""; });
  }

  /* KeysForm.clean: every loser's keys are set (of those playing, under the house rule). */
  function clean(seats, values, d) {
    for (var i = 0; i < seats.length; i += 1) {
      var pk = seats[i];
      if (partialTable(d) && (values["suit_" + pk] === null || values["suit_" + pk] === "")) continue;
      if (pk !== values.winner && values["keys_" + pk] === null) return d.text.form.required;
    }
    return null;
  }

  /* KeysForm.record_data as the rules take it. */
  function record(seats, values) {
    var guards = [];
    seats = playing(seats, values);  // KeysForm._playing
    seats.forEach(function (pk) {
      if (values["guards_" + pk] !== null) guards.push([pk, values["guards_" + pk]]);
    });
    return {
      $map: [
        ["suits", { $map: seats.map(function (pk) { return [pk, values["suit_" + pk]]; }) }],
        ["winner", values.winner],
        ["keys", { $map: seats.filter(function (pk) { return pk !== values.winner; }).map(function (pk) {
          return [pk, values["keys_" + pk]];
        }) }],
        ["guards", guards.length ? { $map: guards } : null]
      ]
    };
  }

  function pairs(list) { return list.map(function (pair) { return [pair[0], pair[1]]; }); }

  /* The state as the Python state's fields (dicts as pairs). */
  function exported(state) {
    return {
      players: state.players,
      games: state.games.map(function (g) {
        return { suits: pairs(g.suits), winner: g.winner, keys: pairs(g.keys), guards: pairs(g.guards) };
      }),
      finished: state.finished,
      winner: state.winner
    };
  }

  function imported(state) {
    return {
      players: state.players, games: state.games, history: state.games,
      finished: state.finished, winner: state.winner
    };
  }

  var rules = {
    values: { checkGame: function (game) { return exported({ players: [], games: [checkGame(game)] }).games[0]; } },
    start: start,
    step: step,
    play: play,
    checkGame: checkGame,
    exported: exported,
    imported: imported,
    rowSummary: rowSummary,
    summary: summary,
    fields: fields,
    clean: clean,
    record: record
  };
  window.KeysScore = rules;
  R.kinds.keys = rules;
})();
