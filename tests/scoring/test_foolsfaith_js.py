"""static/js/foolsfaith-score.js, the phone's Fool's Faith rules, agrees with `scoring.foolsfaith`.

(a) Every call that tests/scoring/test_foolsfaith.py and test_protocol.py make to
    `scoring.foolsfaith` (their parametrized cases and hypothesis examples) is recorded, run
    through the script, and compared: the whole state (cards, stake, dealer, winner, totals,
    every round of the history), or the same error code with the same parameters.
(b) 10,000 seeded random games, valid and invalid records mixed, compared the same way.

The script runs in the project's headless Chromium (all cases in one `page.evaluate`).
"""

from __future__ import annotations

import random

import pytest

from scoring import RuleError, foolsfaith
from tests.scoring.replayed_js import (
    differences,
    error_outcome,
    open_script_page,
    pairs,
    record_calls,
    to_js,
)

pytestmark = pytest.mark.browser

#: The codes the script answers with: the ERR_ names it uses (aliases share a message).
JS_CODES = [
    "ERR_PLAYERS_TYPE",
    "ERR_PLAYER_COUNT",
    "ERR_PLAYER_NAME",
    "ERR_PLAYER_TWICE",
    "ERR_ROUNDS_TYPE",
    "ERR_ROUND_TYPE",
    "ERR_NOT_PLAYING",
    "ERR_TRICKS_MISSING_FOR",
    "ERR_TRICKS_NOT_WHOLE",
    "ERR_TRICKS_BELOW_ZERO",
    "ERR_TRICKS_TOTAL",
    "ERR_GAME_OVER",
]
CODES = {getattr(foolsfaith, name): name for name in JS_CODES}


def test_every_message_of_the_rules_has_a_code():
    templates = {getattr(foolsfaith, n) for n in dir(foolsfaith) if n.startswith("ERR_")}
    assert templates == set(CODES)


@pytest.fixture(scope="module")
def script_page(browser):
    page = open_script_page(browser, "foolsfaith-score.js")
    yield page
    page.context.close()


def state_js(state) -> dict:
    """A Python state in the shape of the script's `exported` (dicts as pairs, seat order)."""
    return {
        "players": [to_js(p) for p in state.players],
        "cards": pairs(state.cards),
        "stake": state.stake,
        "round_winners": [to_js(w) for w in state.round_winners],
        "finished": state.finished,
        "winner": to_js(state.winner),
        "dealer": to_js(state.dealer),
        "tricks": pairs(state.tricks),
        "rounds_won": pairs(state.rounds_won),
        "rules": state.rules.as_dict(),
        "history": [
            {
                "number": r.number,
                "dealer": to_js(r.dealer),
                "stake": r.stake,
                "tricks": pairs(r.tricks),
                "winner": to_js(r.winner),
                "tied": [to_js(p) for p in r.tied],
                "cards_won": r.cards_won,
                "cards": pairs(r.cards),
            }
            for r in state.history
        ],
    }


def python_outcome(name: str, args: tuple):
    try:
        result = ORIGINALS[name](*args)
    except RuleError as e:
        return error_outcome(e, CODES)
    if name == "check_tricks":
        return {"value": pairs(result)}
    return {"state": state_js(result)}


JS_NAMES = {
    "play": "play",
    "start": "start",
    "play_round": "playRound",
    "check_tricks": "checkTricks",
}


def js_call(name: str, args: tuple):
    return [JS_NAMES[name], [to_js(a, state_js) for a in args]]


RUN_CASES = """
(cases) => {
  const R = RecordRules, F = FoolsFaithScore;
  return cases.map(([fn, args]) => {
    try {
      if (fn === "playRound") return {state: F.exported(F.playRound(F.imported(args[0]), args[1]))};
      if (fn === "checkTricks") {
        const players = args[0].$tuple || args[0];
        const out = F.checkTricks(players, args[1]);
        return {value: players.map((p, i) => [p, out[i]])};
      }
      return {state: F.exported(F[fn](...args))};
    } catch (e) {
      if (e instanceof R.RuleError) {
        const params = {};
        for (const k of Object.keys(e.params)) params[k] = R.pyText(e.params[k]);
        return {error: e.code, params};
      }
      return {error: "unexpected " + String(e) + " " + e.stack};
    }
  });
}
"""


def compare(page, cases):
    """Run `cases` ([(name, args)]) through the script; the ones that disagree."""
    calls = [js_call(name, args) for name, args in cases]
    expected = [python_outcome(name, args) for name, args in cases]
    return differences(page, RUN_CASES, calls, cases, expected)


# --- (a) every call the scoring tests make ----------------------------------------------------

RECORDED = ("play", "start", "play_round", "step", "check_tricks")
ORIGINALS = {name: getattr(foolsfaith, name) for name in RECORDED}


def record_the_scoring_tests(monkeypatch):
    """Every call tests/scoring/test_foolsfaith.py, test_protocol.py and test_house_rules.py
    make to the rules (a session stepped by hand is a round played): ([(name, args)], tests
    run)."""
    from tests.scoring import test_foolsfaith, test_house_rules, test_protocol

    tests = [test_foolsfaith, test_protocol, test_house_rules]
    calls, ran = record_calls(monkeypatch, foolsfaith, RECORDED, tests)
    return [("play_round" if name == "step" else name, args) for name, args in calls], ran


def test_the_script_agrees_with_every_case_of_the_scoring_tests(script_page, monkeypatch):
    calls, ran = record_the_scoring_tests(monkeypatch)
    monkeypatch.undo()
    assert ran > 40  # every test of both files, each parametrization
    by_function = {name: sum(1 for n, _ in calls if n == name) for name in JS_NAMES}
    assert all(by_function[name] > 0 for name in ("play", "start", "play_round")), by_function
    assert len(calls) > 500, len(calls)  # the hypothesis examples too
    errors = {python_outcome(n, a).get("error") for n, a in calls} - {None}
    assert set(JS_CODES) - errors == set()
    assert compare(script_page, calls) == []


# --- (b) 10,000 random games, valid and invalid ----------------------------------------------

KEYS = ["ann", "bob", "cat", "dan", "eve", 1, 2, 3, 17, 40]


def random_tricks(rng: random.Random, players: list):
    """A round: mostly the 8 tricks dealt among the players, with one thing or another wrong
    in some."""
    roll = rng.random()
    if roll < 0.01:
        return rng.choice([None, [2, 5, 1], "8", 8, (1, 2)])
    takers = [rng.randrange(len(players)) for _ in range(8)]
    if rng.random() < 0.3:  # a tie at the top is common at the table
        takers = [i % 2 for i in range(8)]
    tricks = {p: takers.count(i) for i, p in enumerate(players)}
    roll = rng.random()
    if roll < 0.05:
        p = rng.choice(players)
        tricks[p] += rng.choice([-1, 1, 2])
    elif roll < 0.07:
        tricks[rng.choice(players)] = rng.choice(["3", 3.0, True, None, [3], -1, 2.5])
    elif roll < 0.08:
        del tricks[rng.choice(players)]
    elif roll < 0.09:
        tricks[rng.choice(["zoe", 99, None])] = 0
    if rng.random() < 0.1:  # any order of keys
        items = list(tricks.items())
        rng.shuffle(items)
        tricks = dict(items)
    return tricks


def random_game(rng: random.Random):
    n = rng.choice([3, 4, 5]) if rng.random() > 0.03 else rng.choice([0, 2, 6])
    players = rng.sample(KEYS, n)
    if players and rng.random() < 0.02:
        players[rng.randrange(n)] = rng.choice([None, "", players[0], ["x"]])
    if rng.random() < 0.01:
        players = rng.choice(["ABC", None, 3, tuple(players)])
    seats = []
    if isinstance(players, list | tuple):
        seats = [p for p in players if not isinstance(p, list)]
    seats = seats or ["a", "b", "c"]
    rounds = [random_tricks(rng, seats) for _ in range(rng.choice([0, 1, 2, 2, 3, 3, 4, 5, 6, 9]))]
    if rng.random() < 0.01:
        rounds = rng.choice([None, "rounds", 5])
    # the house rule for a tied round, as written or the club's (half the games each)
    rules = foolsfaith.FoolsFaithRules(
        tie_dealer=rng.choice(foolsfaith.FoolsFaithRules.CHOICES["tie_dealer"])
    )
    return players, rounds, rules


def test_ten_thousand_random_games_agree(script_page):
    rng = random.Random(20261202)
    cases = [("play", random_game(rng)) for _ in range(10_000)]
    outcomes = [python_outcome(name, args) for name, args in cases]
    valid = [o for o in outcomes if "error" not in o]
    # a real mix: most games replay, some end, and the refusals cover every code
    assert 4_000 <= len(valid) <= 9_000, len(valid)
    assert sum(1 for o in valid if o["state"]["finished"]) > 1_000
    # the club's tie rule moves the dealer in some games still going
    moved = [
        o
        for (_, (_, _, rules)), o in zip(cases, outcomes, strict=True)
        if "state" in o
        and rules.tie_dealer == "next"
        and any(r["tied"] for r in o["state"]["history"])
    ]
    assert len(moved) > 500, len(moved)
    assert {o["error"] for o in outcomes if "error" in o} == set(JS_CODES)
    assert compare(script_page, cases) == []


def test_the_comparison_sees_a_difference(script_page, monkeypatch):
    """The harness is not blind: a case the script answers differently is reported."""
    case = ("play", (["a", "b", "c"], [{"a": 5, "b": 2, "c": 1}]))
    assert compare(script_page, [case]) == []
    original = ORIGINALS["play"]
    monkeypatch.setitem(
        ORIGINALS, "play", lambda players, rounds: original(players, [{"a": 2, "b": 5, "c": 1}])
    )
    assert len(compare(script_page, [case])) == 1
