/* French Tarot by the FFT rules, for the phone when the network is gone: the same rules and
   checks as scoring/fft.py `score_deal`, in the same order, with the same error codes (the
   names of its ERR_ constants) and parameters. The server stays the authority; this script
   only previews. tests/browser/test_tarot_score.py runs every case of tests/scoring/test_fft.py
   and 10,000 random deals through both and compares them.

   Exact arithmetic: card points are counted in half points (integers), never in floats.
   One global: TarotScore. No dependency, no build step. */
(function (root) {
  "use strict";

  var TABLE_SIZES = [3, 4, 5];
  var TOTAL_HALVES = 182; // 91 card points
  var BOUT_MIN_POINTS = 4;
  var TARGETS = { 0: 56, 1: 51, 2: 41, 3: 36 };
  var BASE = 25;
  var CONTRACTS = ["prise", "garde", "garde_sans", "garde_contre"];
  var MULTIPLIERS = { prise: 1, garde: 2, garde_sans: 4, garde_contre: 6 };
  var SIDES = ["attack", "defence"];
  var PETIT_AU_BOUT_VALUE = 10;
  var POIGNEES = ["simple", "double", "triple"];
  var POIGNEE_VALUES = { simple: 20, double: 30, triple: 40 };
  var POIGNEE_SIZES = {
    3: { simple: 13, double: 15, triple: 18 },
    4: { simple: 10, double: 13, triple: 15 },
    5: { simple: 8, double: 10, triple: 13 }
  };
  var SHOWABLE_CARDS = 22;
  // House rules (scoring/fft.py TarotRules): the federation's by default.
  var FFT_RULES = {
    misere_tete: false, misere_atout: false, misere_amount: 10,
    poignee_simple: 20, poignee_double: 30, poignee_triple: 40
  };
  var MISERES = ["tete", "atout"];
  var MISERE_NAMES = { tete: "de tête", atout: "d'atout" };
  var CHELEMS = ["none", "announced_made", "unannounced_made", "announced_failed", "defence"];
  var CHELEM_BONUSES = {
    none: 0, announced_made: 400, unannounced_made: 200, announced_failed: -200, defence: -200
  };
  var CHIEN_CARDS = { 3: 6, 4: 6, 5: 3 };
  var CARD_MAX_HALVES = 9; // a bout or a king: 4½
  var SHOWN_LENGTH = 12;
  var POINTS_TEXT_MAX_LENGTH = 16;
  var BOUTS_TEXT_MAX_LENGTH = 9;

  function RuleError(code, params) {
    this.code = code;
    this.params = params || {};
  }

  function fail(code, params) {
    throw new RuleError(code, params);
  }

  function isAttackSlam(chelem) {
    return chelem === "announced_made" || chelem === "unannounced_made";
  }

  // --- values as the messages quote them (Python's str of the same value) ---------------------

  function codePoints(text) {
    return Array.from(text);
  }

  /** A refused value as a message quotes it: at most 12 characters, then "…". */
  function shown(value) {
    var text;
    if (typeof value === "string") text = value;
    else if (isRational(value)) {
      text = value.denominator === 1 ? String(value.numerator)
        : value.numerator + "/" + value.denominator;
    } else if (typeof value === "number") text = String(value);
    else return value;
    var chars = codePoints(text);
    return chars.length <= SHOWN_LENGTH ? value : chars.slice(0, SHOWN_LENGTH).join("") + "…";
  }

  /** Card points as a player writes them: 40, 40½ (from half points). */
  function formatPoints(halves) {
    var whole = Math.floor(halves / 2);
    return halves % 2 ? whole + "½" : String(whole);
  }

  // --- the checks of the seats ------------------------------------------------------------------

  function indexOf(seats, player) {
    for (var i = 0; i < seats.length; i++) if (seats[i] === player) return i;
    return -1;
  }

  function checkSeats(seats) {
    if (typeof seats === "string" || !Array.isArray(seats)) {
      throw new TypeError("seats must be a sequence of player keys, not a string");
    }
    if (TABLE_SIZES.indexOf(seats.length) < 0) fail("ERR_TABLE_SIZE", { count: seats.length });
    for (var i = 0; i < seats.length; i++) {
      var player = seats[i];
      if (player === null || player === undefined || player === "") {
        fail("ERR_EMPTY_SEAT", { seat: i + 1 });
      }
      if (indexOf(seats.slice(0, i), player) >= 0) fail("ERR_DUPLICATE_SEAT", { player: player });
    }
    return seats.slice();
  }

  function checkPartner(seats, taker, partner) {
    if (partner === null || partner === undefined) return null;
    if (seats.length !== 5) fail("ERR_PARTNER_TABLE_SIZE", { count: seats.length });
    if (indexOf(seats, partner) < 0) fail("ERR_UNKNOWN_PARTNER", { player: partner });
    return partner === taker ? null : partner;
  }

  function member(values, value, code) {
    if (typeof value !== "string" || values.indexOf(value) < 0) fail(code, { value: value });
    return value;
  }

  // --- points and bouts as a person types them ---------------------------------------------------

  // What scoring/fft.py _POINTS_TEXT reads, and nothing else (Python's \s under re.ASCII).
  var POINTS_TEXT = new RegExp(
    "^[ \\t\\n\\r\\f\\v]{0,16}(?:" +
      "(-)?([0-9]{0,6})(?:[.,]([0-9]{1,6}))?" +
      "|([0-9]{0,6}) ?(½)" +
      ")[ \\t\\n\\r\\f\\v]{0,16}$"
  );
  var BOUTS_TEXT = /^[ \t\n\r\f\v]{0,4}([0-9])[ \t\n\r\f\v]{0,4}$/;
  // A digit or number sign of another script (Python's str.isnumeric, but for "0"-"9" and "½").
  var FOREIGN_DIGIT = /[^0-9½]/u;
  // Python's isnumeric: the Unicode numbers (\p{N}) and the ideographs with a numeric value
  // (一, 二, 十, 百, ...; Numeric_Type=Numeric, which no JavaScript property names).
  var NUMERIC = new RegExp(
    "[\\p{N}" +
    "\\u{3405}\\u{3483}\\u{382a}\\u{3b4d}\\u{4e00}\\u{4e03}\\u{4e07}\\u{4e09}" +
    "\\u{4e5d}\\u{4e8c}\\u{4e94}\\u{4e96}\\u{4ebf}\\u{4ec0}\\u{4edf}\\u{4ee8}" +
    "\\u{4f0d}\\u{4f70}\\u{5104}\\u{5146}\\u{5169}\\u{516b}\\u{516d}\\u{5341}" +
    "\\u{5343}\\u{5344}\\u{5345}\\u{534c}\\u{53c1}\\u{53c2}\\u{53c3}\\u{53c4}" +
    "\\u{56db}\\u{58f1}\\u{58f9}\\u{5e7a}\\u{5efe}\\u{5eff}\\u{5f0c}\\u{5f0d}" +
    "\\u{5f0e}\\u{5f10}\\u{62fe}\\u{634c}\\u{67d2}\\u{6f06}\\u{7396}\\u{767e}" +
    "\\u{8086}\\u{842c}\\u{8cae}\\u{8cb3}\\u{8d30}\\u{9621}\\u{9646}\\u{964c}" +
    "\\u{9678}\\u{96f6}\\u{f96b}\\u{f973}\\u{f978}\\u{f9b2}\\u{f9d1}\\u{f9d3}" +
    "\\u{f9fd}\\u{20001}\\u{20064}\\u{200e2}\\u{20121}\\u{2092a}\\u{20983}\\u{2098c}" +
    "\\u{2099c}\\u{20aea}\\u{20afd}\\u{20b19}\\u{22390}\\u{22998}\\u{23b1b}\\u{2626d}" +
    "\\u{2f890}" +
    "]", "u"
  );

  function hasForeignDigits(text) {
    return codePoints(text).some(function (c) {
      return NUMERIC.test(c) && FOREIGN_DIGIT.test(c);
    });
  }

  /** Typed card points → half points: "41", "40.5", "40,5", "40½", "½", " 41 ". */
  function parsePointsText(text) {
    var match = codePoints(text).length <= POINTS_TEXT_MAX_LENGTH ? POINTS_TEXT.exec(text) : null;
    if (match === null) {
      var foreign = codePoints(text).length <= POINTS_TEXT_MAX_LENGTH && hasForeignDigits(text);
      fail(foreign ? "ERR_POINTS_DIGITS" : "ERR_POINTS_NOT_A_NUMBER", { value: shown(text) });
    }
    var whole, halves;
    if (match[5]) {
      whole = match[4];
      halves = 2 * Number(whole || "0") + 1;
    } else {
      whole = match[2];
      var decimals = match[3];
      if (!whole && decimals === undefined) fail("ERR_POINTS_NOT_A_NUMBER", { value: shown(text) });
      if (match[1] || whole.length > 3) fail("ERR_POINTS_RANGE", { value: shown(text) });
      halves = 2 * Number(whole || "0");
      if (decimals !== undefined) {
        // decimals / 10^n must be a multiple of ½: 2 × decimals divisible by 10^n
        var scale = Math.pow(10, decimals.length);
        var twice = 2 * Number(decimals);
        if (twice % scale !== 0) fail("ERR_POINTS_HALVES", { value: shown(text) });
        halves += twice / scale;
      }
    }
    if (match[1] || whole.length > 3) fail("ERR_POINTS_RANGE", { value: shown(text) });
    return halves;
  }

  function isRational(value) {
    return (
      value !== null && typeof value === "object" && !Array.isArray(value) &&
      Number.isSafeInteger(value.numerator) && Number.isSafeInteger(value.denominator) &&
      value.denominator > 0
    );
  }

  /**
   * The attack's card points in half points, 0 to 182. `value`: the text a person types, a
   * number, or an exact fraction {numerator, denominator} (safe integers).
   */
  function parsePoints(value) {
    var halves;
    if (typeof value === "string") {
      halves = parsePointsText(value);
    } else if (typeof value === "number") {
      if (!Number.isFinite(value)) fail("ERR_POINTS_NOT_A_NUMBER", { value: value });
      if (!Number.isInteger(value * 2)) fail("ERR_POINTS_HALVES", { value: shown(value) });
      if (!(value >= 0 && value <= TOTAL_HALVES / 2)) fail("ERR_POINTS_RANGE", { value: shown(value) });
      return value * 2; // exact: doubling a float never rounds
    } else if (isRational(value)) {
      var n = value.numerator, d = value.denominator;
      if ((2 * n) % d !== 0) fail("ERR_POINTS_HALVES", { value: shown(value) });
      halves = (2 * n) / d;
    } else {
      fail("ERR_POINTS_NOT_A_NUMBER", { value: typeof value === "boolean" ? value : shown(value) });
    }
    if (!(halves >= 0 && halves <= TOTAL_HALVES)) fail("ERR_POINTS_RANGE", { value: shown(value) });
    return halves;
  }

  /** The bouts held by the attack: 0 to 3, as a whole number or one ASCII digit as text. */
  function parseBouts(value) {
    var bouts;
    if (typeof value === "string") {
      var match = codePoints(value).length <= BOUTS_TEXT_MAX_LENGTH ? BOUTS_TEXT.exec(value) : null;
      if (match === null) fail("ERR_BOUTS", { value: shown(value) });
      bouts = Number(match[1]);
    } else if (typeof value === "number" && Number.isInteger(value)) {
      bouts = value;
    } else {
      fail("ERR_BOUTS", { value: shown(value) });
    }
    if (!(bouts in TARGETS) || bouts < 0 || bouts > 3) fail("ERR_BOUTS", { value: shown(value) });
    return bouts;
  }

  function checkPointsForBouts(halves, bouts) {
    var minimum = BOUT_MIN_POINTS * bouts;
    var maximum = TOTAL_HALVES / 2 - BOUT_MIN_POINTS * (3 - bouts);
    if (halves < 2 * minimum) {
      fail("ERR_POINTS_TOO_FEW_FOR_BOUTS", {
        bouts: bouts, minimum: minimum, points: formatPoints(halves)
      });
    }
    if (halves > 2 * maximum) {
      fail("ERR_POINTS_TOO_MANY_FOR_BOUTS", {
        bouts: bouts, maximum: maximum, defence_bouts: 3 - bouts, points: formatPoints(halves)
      });
    }
  }

  function checkPoignees(seats, poignees) {
    var pairs = poignees === null || poignees === undefined ? [] : poignees;
    if (!Array.isArray(pairs)) throw new TypeError("poignees must be a list of pairs");
    var declared = [];
    var kinds = [];
    pairs.forEach(function (pair) {
      if (!Array.isArray(pair) || pair.length !== 2) fail("ERR_POIGNEE_SHAPE");
      var player = pair[0];
      if (indexOf(seats, player) < 0) fail("ERR_UNKNOWN_POIGNEE_PLAYER", { player: player });
      if (indexOf(declared, player) >= 0) fail("ERR_DUPLICATE_POIGNEE", { player: player });
      declared.push(player);
      kinds.push(member(POIGNEES, pair[1], "ERR_POIGNEE_KIND"));
    });
    var sizes = POIGNEE_SIZES[seats.length];
    var needed = kinds.reduce(function (sum, kind) { return sum + sizes[kind]; }, 0);
    if (needed > SHOWABLE_CARDS) {
      fail("ERR_POIGNEES_TOO_MANY_TRUMPS", { needed: needed, count: seats.length });
    }
    var ordered = [];
    seats.forEach(function (p) {
      var i = indexOf(declared, p);
      if (i >= 0) ordered.push([p, kinds[i]]);
    });
    return ordered;
  }

  /** The house rules as the server gives them ({misere_tete, ...}), the federation's if absent. */
  function houseRules(rules) {
    var out = {};
    Object.keys(FFT_RULES).forEach(function (k) {
      out[k] = rules && rules[k] !== undefined && rules[k] !== null ? rules[k] : FFT_RULES[k];
    });
    return out;
  }

  function checkMiseres(seats, miseres, rules, poignees) {
    var pairs = miseres === null || miseres === undefined ? [] : miseres;
    if (typeof pairs === "string" || !Array.isArray(pairs)) fail("ERR_MISERE_SHAPE");
    var declared = [];
    pairs.forEach(function (pair) {
      if (typeof pair === "string" || !Array.isArray(pair) || pair.length !== 2) {
        fail("ERR_MISERE_SHAPE");
      }
      var player = pair[0];
      if (indexOf(seats, player) < 0) fail("ERR_UNKNOWN_MISERE_PLAYER", { player: shown(player) });
      var kind = member(MISERES, pair[1], "ERR_MISERE_KIND");
      if (!rules["misere_" + kind]) fail("ERR_MISERE_OFF", { kind: MISERE_NAMES[kind] });
      declared.forEach(function (d) {
        if (d[0] === player && d[1] === kind) fail("ERR_DUPLICATE_MISERE", { player: player });
      });
      declared.push([player, kind]);
    });
    declared.forEach(function (d) {
      if (d[1] === "atout") {
        poignees.forEach(function (pg) {
          if (pg[0] === d[0]) fail("ERR_MISERE_ATOUT_POIGNEE", { player: d[0] });
        });
      }
    });
    return declared.slice().sort(function (x, y) {
      return indexOf(seats, x[0]) - indexOf(seats, y[0]) || MISERES.indexOf(x[1]) - MISERES.indexOf(y[1]);
    });
  }

  function checkChelem(chelem, won, petitAuBout, halves, bouts) {
    if (isAttackSlam(chelem)) {
      if (!won) fail("ERR_CHELEM_ATTACK_LOST", { points: formatPoints(halves), bouts: bouts });
      if (petitAuBout === "defence") fail("ERR_PETIT_AU_BOUT_AGAINST_ATTACK_SLAM");
    } else if (chelem === "defence") {
      if (won) fail("ERR_CHELEM_DEFENCE_WON", { points: formatPoints(halves), bouts: bouts });
      if (petitAuBout === "attack") fail("ERR_PETIT_AU_BOUT_AGAINST_DEFENCE_SLAM");
    }
  }

  /**
   * The attack's card points a made slam leaves possible with `bouts`, in half points, as
   * [lowest, highest], or null when the slam leaves the attack no such number of bouts
   * (scoring/fft.py slam_bounds). Every other deal: [0, 182].
   */
  function slamBounds(chelem, contract, bouts, players) {
    var chien = CHIEN_CARDS[players] * CARD_MAX_HALVES;
    if (isAttackSlam(chelem)) {
      if (contract === "garde_contre") return [TOTAL_HALVES - chien - CARD_MAX_HALVES, TOTAL_HALVES];
      if (bouts === 3) return [TOTAL_HALVES, TOTAL_HALVES];
      if (bouts === 2) return [TOTAL_HALVES - CARD_MAX_HALVES, TOTAL_HALVES];
      return null;
    }
    if (chelem === "defence") {
      if (contract === "garde_sans") return [0, CARD_MAX_HALVES + chien];
      return bouts <= 1 ? [0, CARD_MAX_HALVES] : null;
    }
    return [0, TOTAL_HALVES];
  }

  function checkSlamCards(chelem, contract, bouts, halves, players) {
    var bounds = slamBounds(chelem, contract, bouts, players);
    if (bounds !== null && bounds[0] <= halves && halves <= bounds[1]) return;
    var said = { bouts: bouts, points: formatPoints(halves) };
    if (isAttackSlam(chelem)) {
      if (contract === "garde_contre") {
        fail("ERR_SLAM_GARDE_CONTRE_POINTS", {
          chien: formatPoints(CHIEN_CARDS[players] * CARD_MAX_HALVES),
          minimum: formatPoints(bounds[0]),
          points: formatPoints(halves)
        });
      }
      fail("ERR_SLAM_ATTACK_CARDS", said);
    }
    if (contract === "garde_sans") {
      fail("ERR_SLAM_DEFENCE_GARDE_SANS_POINTS", {
        maximum: formatPoints(bounds[1]), points: formatPoints(halves)
      });
    }
    fail("ERR_SLAM_DEFENCE_CARDS", said);
  }

  function poigneeSizes(players) {
    if (!(players in POIGNEE_SIZES)) fail("ERR_TABLE_SIZE", { count: players });
    var sizes = POIGNEE_SIZES[players];
    return { simple: sizes.simple, double: sizes.double, triple: sizes.triple };
  }

  /**
   * Score one deal. `deal`: {seats, taker, contract, bouts, points, partner, petit_au_bout,
   * poignees ([[player, kind], ...]), chelem, miseres ([[player, "tete"|"atout"], ...]),
   * rules ({misere_tete, misere_atout, misere_amount, poignee_simple, ...}: the game's house
   * rules, the federation's when left out)}, the keyword arguments of score_deal.
   * Returns the DealScore's fields (points in `halves`, `scores` as [[player, score], ...] in
   * seat order); throws a RuleError {code, params} when the deal could not have been played.
   */
  function scoreDeal(deal) {
    var seats = checkSeats(deal.seats);
    var taker = deal.taker;
    if (indexOf(seats, taker) < 0) fail("ERR_UNKNOWN_TAKER", { player: taker === undefined ? null : taker });
    var partner = checkPartner(seats, taker, deal.partner);
    var contract = member(CONTRACTS, deal.contract, "ERR_CONTRACT");
    var bouts = parseBouts(deal.bouts);
    var halves = parsePoints(deal.points);
    checkPointsForBouts(halves, bouts);
    var side = deal.petit_au_bout;
    var petitAuBout = side === null || side === undefined ? null : member(SIDES, side, "ERR_SIDE");
    if (petitAuBout === "attack" && bouts === 0) fail("ERR_PETIT_AU_BOUT_ATTACK_NO_BOUT");
    if (petitAuBout === "defence" && bouts === 3) fail("ERR_PETIT_AU_BOUT_DEFENCE_ALL_BOUTS");
    var poignees = checkPoignees(seats, deal.poignees);
    var rules = houseRules(deal.rules);
    var miseres = checkMiseres(seats, deal.miseres, rules, poignees);
    var chelem = member(CHELEMS, deal.chelem === undefined ? "none" : deal.chelem, "ERR_CHELEM");

    // 1-3. Target, half points to the side that wins, gap.
    var target = TARGETS[bouts];
    var won = halves >= 2 * target;
    var rounded = won ? Math.ceil(halves / 2) : Math.floor(halves / 2); // exact: halves / 2 is n or n + ½
    var gap = Math.abs(rounded - target);

    checkChelem(chelem, won, petitAuBout, halves, bouts);
    checkSlamCards(chelem, contract, bouts, halves, seats.length);

    // 4-5. The unit each defender pays, signed from the attack's view.
    var multiplier = MULTIPLIERS[contract];
    var sign = won ? 1 : -1;
    var contractPart = sign * (BASE + gap) * multiplier;
    var petitBonus = 0;
    if (petitAuBout === "attack") petitBonus = PETIT_AU_BOUT_VALUE * multiplier;
    else if (petitAuBout === "defence") petitBonus = -PETIT_AU_BOUT_VALUE * multiplier;
    var poigneeBonus = sign * poignees.reduce(function (sum, pair) {
      return sum + rules["poignee_" + pair[1]];
    }, 0);
    var chelemBonus = CHELEM_BONUSES[chelem];
    var unit = contractPart + petitBonus + poigneeBonus + chelemBonus;

    // 6. Shares: each defender -unit, the partner +unit, the taker the rest.
    var attack = seats.filter(function (p) { return p === taker || p === partner; });
    var defence = seats.filter(function (p) { return attack.indexOf(p) < 0; });
    var takerUnits = defence.length - (attack.length - 1);
    // House rules: each misère is worth its amount from each other player.
    var misereScores = seats.map(function (p) {
      var total = 0;
      miseres.forEach(function (m) {
        total += rules.misere_amount * (m[0] === p ? seats.length - 1 : -1);
      });
      return [p, total];
    });
    var scores = seats.map(function (p, i) {
      var share = -unit;
      if (p === taker) share = takerUnits * unit;
      else if (p === partner) share = unit;
      return [p, share + misereScores[i][1]];
    });
    var sum = scores.reduce(function (s, pair) { return s + pair[1]; }, 0);
    if (sum !== 0) throw new Error("Deal does not sum to zero");

    return {
      seats: seats,
      taker: taker,
      partner: partner,
      attack: attack,
      defence: defence,
      contract: contract,
      bouts: bouts,
      halves: halves,
      target: target,
      rounded_points: rounded,
      won: won,
      gap: gap,
      multiplier: multiplier,
      contract_part: contractPart,
      petit_au_bout: petitAuBout,
      petit_au_bout_bonus: petitBonus,
      poignees: poignees,
      poignee_bonus: poigneeBonus,
      chelem: chelem,
      chelem_bonus: chelemBonus,
      unit: unit,
      scores: scores,
      miseres: miseres,
      misere_scores: miseres.length ? misereScores : []
    };
  }

  root.TarotScore = {
    RuleError: RuleError,
    scoreDeal: scoreDeal,
    parsePoints: parsePoints,
    parseBouts: parseBouts,
    slamBounds: slamBounds,
    poigneeSizes: poigneeSizes,
    houseRules: houseRules,
    formatPoints: formatPoints,
    shown: shown,
    TOTAL_HALVES: TOTAL_HALVES
  };
})(typeof window !== "undefined" ? window : this);
