/* What the phone-side ports of the club's other games share (scoring/_common.py in
   JavaScript): Python's values and their equality, the checks of players and of counts, and the
   replay of a list of records. Each kind's script (foolsfaith-score.js, ...) builds on it and
   registers itself as RecordRules.kinds.<identifier>.

   Values are JSON with tags for what JSON cannot say as Python does: {"$map": [[key, value],
   ...]} is a mapping (a dict, in its order), {"$float": x} a float (3.0 is not a whole
   number), {"$tuple": [...]} and {"$set": [...]}; a plain array is a list. A refusal throws
   RuleError with the name of the scoring module's ERR_ constant and the message's values. */
(function () {
  "use strict";

  function RuleError(code, params) {
    this.name = "RuleError";
    this.code = code;
    this.params = params || {};
    this.message = code;
  }
  RuleError.prototype = Object.create(Error.prototype);
  RuleError.prototype.constructor = RuleError;

  function tag(value, name) {
    return value !== null && typeof value === "object" && !Array.isArray(value) &&
      Object.prototype.hasOwnProperty.call(value, name);
  }
  function isMap(value) { return tag(value, "$map"); }
  function isFloat(value) { return tag(value, "$float"); }
  function isTuple(value) { return tag(value, "$tuple"); }
  function isSet(value) { return tag(value, "$set"); }

  /* A number as Python compares it: True == 1 == 1.0; else null. */
  function numeric(value) {
    if (typeof value === "number") return value;
    if (typeof value === "boolean") return value ? 1 : 0;
    if (isFloat(value)) return value.$float;
    return null;
  }

  /* Python's == on the values a key can be. */
  function eq(a, b) {
    var x = numeric(a), y = numeric(b);
    if (x !== null || y !== null) return x !== null && y !== null && x === y;
    if (typeof a === "string" || typeof b === "string") return a === b;
    if (a === null || b === null) return a === b;
    if (isTuple(a) && isTuple(b)) {
      return a.$tuple.length === b.$tuple.length &&
        a.$tuple.every(function (v, i) { return eq(v, b.$tuple[i]); });
    }
    return false;
  }

  /* Python's hash() would not refuse it (a list, a dict or a set would). */
  function hashable(value) {
    if (Array.isArray(value) || isMap(value) || isSet(value)) return false;
    if (isTuple(value)) return value.$tuple.every(hashable);
    return true;
  }

  /* A list or a tuple (Python's Sequence, text aside). */
  function sequence(value) {
    if (Array.isArray(value)) return value;
    if (isTuple(value)) return value.$tuple;
    return null;
  }

  function index(list, key) {
    for (var i = 0; i < list.length; i += 1) if (eq(list[i], key)) return i;
    return -1;
  }

  /* The value a mapping holds for `key` ({found, value}). */
  function lookup(map, key) {
    var pairs = map.$map;
    for (var i = 0; i < pairs.length; i += 1) {
      if (eq(pairs[i][0], key)) return { found: true, value: pairs[i][1] };
    }
    return { found: false, value: undefined };
  }

  /* is_int: a whole number, and not a bool. */
  function isInt(value) {
    return typeof value === "number" && Number.isInteger(value);
  }

  /* check_players: `low` to `high` distinct, named, hashable keys, as a new array. */
  function checkPlayers(players, low, high, countError) {
    var list = sequence(players);
    if (list === null) throw new RuleError("ERR_PLAYERS_TYPE");
    if (list.length < low || list.length > high) throw new RuleError(countError, { count: list.length });
    var seen = [];
    list.forEach(function (player) {
      if (player === null || player === "" || !hashable(player)) throw new RuleError("ERR_PLAYER_NAME");
      if (index(seen, player) >= 0) throw new RuleError("ERR_PLAYER_TWICE", { player: player });
      seen.push(player);
    });
    return list.slice();
  }

  /* check_counts: a count for every player, whole and not negative, adding up to `total`;
     an array in seat order. `errors` names the codes (CountErrors). */
  function checkCounts(players, counts, total, errors) {
    if (!isMap(counts)) throw new RuleError(errors.not_a_mapping);
    counts.$map.forEach(function (pair) {
      if (index(players, pair[0]) < 0) throw new RuleError(errors.unknown_player, { player: pair[0] });
    });
    var out = players.map(function (player) {
      var got = lookup(counts, player);
      if (!got.found) throw new RuleError(errors.missing, { player: player });
      if (!isInt(got.value)) throw new RuleError(errors.not_whole, { player: player });
      if (got.value < 0) throw new RuleError(errors.negative, { player: player });
      return got.value;
    });
    var added = out.reduce(function (a, b) { return a + b; }, 0);
    if (added !== total) throw new RuleError(errors.total, { total: added });
    return out;
  }

  /* The codes of counting tricks: a game's own for the whole, the shared ones per player. */
  function trickErrors(notAMapping, total) {
    return {
      not_a_mapping: notAMapping,
      unknown_player: "ERR_NOT_PLAYING",
      missing: "ERR_TRICKS_MISSING_FOR",
      not_whole: "ERR_TRICKS_NOT_WHOLE",
      negative: "ERR_TRICKS_BELOW_ZERO",
      total: total
    };
  }

  /* replay: step `state` through every record; `records` must be a list. */
  function replay(state, step, records, recordsError) {
    var list = sequence(records);
    if (list === null) throw new RuleError(recordsError);
    list.forEach(function (record) { state = step(state, record); });
    return state;
  }

  /* A value as Python's %s shows it in a message. */
  function pyText(value) {
    if (value === null || value === undefined) return "None";
    if (value === true) return "True";
    if (value === false) return "False";
    if (typeof value === "number") return String(value);
    if (typeof value === "string") return value;
    if (isFloat(value)) {
      var x = value.$float;
      return Number.isInteger(x) && Math.abs(x) < 1e16 ? x + ".0" : String(x);
    }
    if (Array.isArray(value)) return "[" + value.map(pyRepr).join(", ") + "]";
    if (isMap(value)) {
      return "{" + value.$map.map(function (pair) { return pyRepr(pair[0]) + ": " + pyRepr(pair[1]); }).join(", ") + "}";
    }
    if (isTuple(value)) {
      var items = value.$tuple.map(pyRepr);
      return "(" + items.join(", ") + (items.length === 1 ? "," : "") + ")";
    }
    return String(value);
  }
  function pyRepr(value) {
    return typeof value === "string" ? "'" + value + "'" : pyText(value);
  }

  window.RecordRules = {
    RuleError: RuleError,
    eq: eq,
    index: index,
    isInt: isInt,
    isMap: isMap,
    checkPlayers: checkPlayers,
    checkCounts: checkCounts,
    trickErrors: trickErrors,
    replay: replay,
    pyText: pyText,
    kinds: (window.RecordRules && window.RecordRules.kinds) || {}
  };
})();
