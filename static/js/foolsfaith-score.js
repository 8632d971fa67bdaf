/* Fool's Faith's rules on the phone (scoring/foolsfaith.py in JavaScript), for the entry
   screen's preview with no connection; tested against the Python rules on every case of
   tests/scoring/test_foolsfaith.py and on 10,000 random games (tests/scoring/
   test_foolsfaith_js.py). The server stays the authority.

   A state keeps its figures by seat (arrays in the order of `players`); `exported` gives
   them as [player, value] pairs, as the Python state's dicts. Also the sentences the sheet's
   row and summary say (kinds/foolsfaith/presenters.py), from the kind's offline text. */
(function () {
  "use strict";

  var R = window.RecordRules;
  var RuleError = R.RuleError;

  var MIN_PLAYERS = 3;
  var MAX_PLAYERS = 5;
  var TRICKS_PER_ROUND = 8;
  var CARDS_TO_WIN = 2;
  var TIE_STAKE = 2;
  var TIE_SAME_DEALER = "same";
  var TIE_NEXT_DEALER = "next";
  var TRICK_ERRORS = R.trickErrors("ERR_ROUND_TYPE", "ERR_TRICKS_TOTAL");

  function zeros(n) {
    var out = [];
    for (var i = 0; i < n; i += 1) out.push(0);
    return out;
  }

  /* `rules`: the game's house rules (scoring/foolsfaith.py FoolsFaithRules as a plain
     object, or the page's options that hold them): `tie_dealer` "next" moves the deal on after
     a tied round; absent or "same", as written, the same dealer deals again. */
  function start(players, rules) {
    var seats = R.checkPlayers(players, MIN_PLAYERS, MAX_PLAYERS, "ERR_PLAYER_COUNT");
    return {
      rules: { tie_dealer: rules && rules.tie_dealer === TIE_NEXT_DEALER ? TIE_NEXT_DEALER : TIE_SAME_DEALER },
      players: seats,
      cards: zeros(seats.length),
      stake: 1,
      round_winners: [],
      finished: false,
      winner: null,
      dealer: seats[0],
      tricks: zeros(seats.length),
      rounds_won: zeros(seats.length),
      history: []
    };
  }

  function checkTricks(players, tricks) {
    return R.checkCounts(players, tricks, TRICKS_PER_ROUND, TRICK_ERRORS);
  }

  function playRound(state, tricks) {
    if (state.finished) throw new RuleError("ERR_GAME_OVER", { winner: state.winner });
    var players = state.players;
    var taken = checkTricks(players, tricks);
    var most = Math.max.apply(null, taken);
    var leaders = [];
    taken.forEach(function (n, i) { if (n === most) leaders.push(i); });
    var cards = state.cards.slice();
    var roundsWon = state.rounds_won.slice();
    var winner = null, tied = [], cardsWon = 0, dealer, stake;
    if (leaders.length === 1) {
      winner = leaders[0];
      cardsWon = state.stake;
      cards[winner] += cardsWon;
      roundsWon[winner] += 1;
      dealer = players[winner];
      stake = 1;
    } else {
      tied = leaders;
      if (state.rules.tie_dealer === TIE_NEXT_DEALER) {  // house rule: the next player deals
        dealer = players[(R.index(players, state.dealer) + 1) % players.length];
      } else {
        dealer = state.dealer;  // house default: the same dealer deals again
      }
      stake = TIE_STAKE;
    }
    var finished = winner !== null && cards[winner] >= CARDS_TO_WIN;
    var winnerKey = winner === null ? null : players[winner];
    var result = {
      number: state.history.length + 1,
      dealer: state.dealer,
      stake: state.stake,
      tricks: taken,
      winner: winnerKey,
      tied: tied.map(function (i) { return players[i]; }),
      cards_won: cardsWon,
      cards: cards.slice()
    };
    return {
      rules: state.rules,
      players: players,
      cards: cards,
      stake: stake,
      round_winners: state.round_winners.concat([winnerKey]),
      finished: finished,
      winner: finished ? winnerKey : null,
      dealer: finished ? null : dealer,
      tricks: state.tricks.map(function (n, i) { return n + taken[i]; }),
      rounds_won: roundsWon,
      history: state.history.concat([result])
    };
  }

  function play(players, rounds, rules) {
    return R.replay(start(players, rules), playRound, rounds, "ERR_ROUNDS_TYPE");
  }

  // --- the state as the Python state's fields (dicts as pairs in seat order) --------------

  function pairs(players, values) {
    return players.map(function (p, i) { return [p, values[i]]; });
  }

  function exported(state) {
    var ps = state.players;
    return {
      players: ps,
      cards: pairs(ps, state.cards),
      stake: state.stake,
      round_winners: state.round_winners,
      finished: state.finished,
      winner: state.winner,
      dealer: state.dealer,
      tricks: pairs(ps, state.tricks),
      rounds_won: pairs(ps, state.rounds_won),
      rules: state.rules,
      history: state.history.map(function (r) {
        return {
          number: r.number,
          dealer: r.dealer,
          stake: r.stake,
          tricks: pairs(ps, r.tricks),
          winner: r.winner,
          tied: r.tied,
          cards_won: r.cards_won,
          cards: pairs(ps, r.cards)
        };
      })
    };
  }

  /* The other way: a state given as `exported` makes (a Python state handed over). */
  function imported(state) {
    function values(list) { return list.map(function (pair) { return pair[1]; }); }
    return {
      players: state.players,
      cards: values(state.cards),
      stake: state.stake,
      round_winners: state.round_winners,
      finished: state.finished,
      winner: state.winner,
      dealer: state.dealer,
      tricks: values(state.tricks),
      rounds_won: values(state.rounds_won),
      rules: state.rules || { tie_dealer: TIE_SAME_DEALER },
      history: state.history.map(function (r) {
        return Object.assign({}, r, { tricks: values(r.tricks), cards: values(r.cards) });
      })
    };
  }

  // --- what a person reads (kinds/foolsfaith/presenters.py) -------------------------------

  function fill(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in params ? String(params[name]) : whole;
    });
  }

  /* ngettext for the counts the sentences take: the server gives each form by count. */
  function plural(forms, n) {
    return Object.prototype.hasOwnProperty.call(forms, n) ? forms[n] : forms.other;
  }

  function name(names, pk) {
    return Object.prototype.hasOwnProperty.call(names, pk) ? names[pk] : "?";
  }

  /* rows(...)[number - 1].summary: what the round's row says. */
  function rowSummary(state, number, names, text) {
    var r = state.history[number - 1];
    if (r.winner !== null) {
      return fill(plural(text.wins, r.cards_won), { winner: names[r.winner], n: r.cards_won });
    }
    return fill(text.tie, { players: r.tied.map(function (pk) { return name(names, pk); }).join(", ") });
  }

  /* summary(...) as the preview shows it: over (and its headline), or what is next (its
     first line: who deals, the stake). */
  function summary(state, names, text) {
    if (state.finished) {
      return { over: true, headline: fill(text.over, { winner: names[state.winner] }), next: "" };
    }
    var line = fill(plural(text.round, state.stake), {
      n: state.history.length + 1, dealer: names[state.dealer], stake: state.stake
    });
    // the sheet's second line after a tie ("whoever wins this round wins the game") is not
    // the preview's: its "Next:" is the first line (ReplayedKind.next_line)
    return { over: false, headline: "", next: line };
  }

  /* The entry form's record from its fields (FoolsFaithForm.record_data), seat by seat:
     values[pk] is the whole number already read by the form's checks. */
  function record(seats, values) {
    return { $map: seats.map(function (pk) { return [pk, values["tricks_" + pk]]; }) };
  }

  /* The live preview waits while the tricks do not add up yet (FoolsFaithForm.unfinished). */
  function unfinished(seats, values) {
    var total = 0;
    seats.forEach(function (pk) { total += values["tricks_" + pk]; });
    return total !== TRICKS_PER_ROUND;
  }

  /* The form's fields: each player's tricks, a stepper from 0 to 8. */
  function fields(seats) {
    return seats.map(function (pk) {
      return { name: "tricks_" + pk, type: "whole", low: 0, high: TRICKS_PER_ROUND, required: true };
    });
  }

  /* A stored round ({"tricks": {pk: n}}, its keys text) as the rules take it. */
  function rulesInput(data) {
    var tricks = data && data.tricks ? data.tricks : data;
    return {
      $map: Object.keys(tricks).map(function (key) {
        return [/^[0-9]{1,18}$/.test(key) ? Number(key) : key, tricks[key]];
      })
    };
  }

  var rules = {
    MIN_PLAYERS: MIN_PLAYERS,
    MAX_PLAYERS: MAX_PLAYERS,
    TRICKS_PER_ROUND: TRICKS_PER_ROUND,
    start: start,
    checkTricks: checkTricks,
    playRound: playRound,
    step: playRound,
    play: play,
    exported: exported,
    imported: imported,
    rowSummary: rowSummary,
    summary: summary,
    record: record,
    unfinished: unfinished,
    fields: fields,
    rulesInput: rulesInput
  };
  window.FoolsFaithScore = rules;
  R.kinds.foolsfaith = rules;
})();
