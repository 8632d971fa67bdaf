"""static/js/keys-score.js, the phone's Keys of the Kingdom rules, agrees with `scoring.keys`.

(a) Every call that tests/scoring/test_keys.py and test_protocol.py make to the functions the
    preview needs (check_game, start, step, play; the standings are not ported) is recorded,
    run through the script, and compared: each game as checked (suits, winner, keys, guards)
    and the session's state, or the same error code with the same parameters.
(b) 10,000 seeded random sessions, valid and invalid games mixed, compared the same way.
"""

from __future__ import annotations

import random

import pytest

from scoring import RuleError, _common, keys
from tests.scoring.replayed_js import (
    compare,
    error_outcome,
    open_script_page,
    pairs,
    record_calls,
    to_js,
)

pytestmark = pytest.mark.browser

#: The codes the script answers with: the ERR_ names of the shared checks, then the module's.
CODES = {getattr(m, n): n for m in (_common, keys) for n in dir(m) if n.startswith("ERR_")}
PORTED = ("check_game", "start", "step", "play")


@pytest.fixture(scope="module")
def script_page(browser):
    page = open_script_page(browser, "keys-score.js")
    yield page
    page.context.close()


def game_js(g: keys.KeysGame) -> dict:
    return {
        "suits": pairs(g.suits),
        "winner": to_js(g.winner),
        "keys": pairs(g.keys),
        "guards": pairs(g.guards),
    }


def state_js(state) -> dict:
    return {
        "players": [to_js(p) for p in state.players],
        "games": [game_js(g) for g in state.games],
        "finished": state.finished,
        "winner": to_js(state.winner),
    }


def python_outcome(name: str, args: tuple):
    try:
        result = getattr(keys, name)(*args)
    except RuleError as e:
        return error_outcome(e, CODES)
    if name == "check_game":
        return {"value": game_js(result)}
    return {"state": state_js(result)}


def js_call(name: str, args: tuple):
    fn = {"check_game": "checkGame"}.get(name, name)
    return [fn, [to_js(a, state_js) for a in args]]


def test_the_script_agrees_with_every_case_of_the_scoring_tests(script_page, monkeypatch):
    from tests.scoring import test_keys, test_protocol

    calls, ran = record_calls(monkeypatch, keys, PORTED, [test_keys, test_protocol])
    monkeypatch.undo()
    assert ran > 40, ran  # every test of both files, each parametrization
    counted = {name: sum(1 for n, _ in calls if n == name) for name in PORTED}
    # (no scoring test steps a session by hand: play steps it, and so do the random ones)
    assert all(counted[name] for name in ("check_game", "start", "play")), counted
    errors = {python_outcome(n, a).get("error") for n, a in calls} - {None}
    # every message of the game's checks is reached (the session's own list checks aside, and
    # the whole-table rule, which the random sessions below reach)
    assert {CODES[getattr(keys, n)] for n in dir(keys) if n.startswith("ERR_")} - errors <= {
        "ERR_GAMES_TYPE",
        "ERR_WHOLE_TABLE",
    }
    assert compare(script_page, "keys", calls, python_outcome, js_call) == []


KEYS = ["ann", "bob", "cat", "dan", 1, 2, 3, 17]
SUITS = list(keys.SUITS)


def random_game(rng: random.Random, players: list):
    """A game: mostly one that could have happened, with one thing or another wrong in some."""
    if rng.random() < 0.01:
        return rng.choice([None, "game", ["Ann"], 3])
    n = len(players)
    at = rng.sample(players, min(4, n if rng.random() < 0.8 else max(2, n - 1)))
    suits = dict(zip(at, rng.sample(SUITS, len(at)), strict=True))
    winner = rng.choice(at)
    held = {p: rng.randint(0, 5) for p in at if p != winner}
    game = {"suits": suits, "winner": winner, "keys": held}
    if rng.random() < 0.3:
        game["guards"] = {p: rng.randint(0, 2) for p in rng.sample(at, rng.randint(0, len(at)))}
    elif rng.random() < 0.1:
        game["guards"] = None
    roll = rng.random()
    if roll < 0.03:
        suits[rng.choice(at)] = rng.choice([" Hearts ", "SPADES", "trumps", "", 1, None, "cœur"])
    elif roll < 0.05:
        suits[rng.choice(at)] = suits[at[0]]
    elif roll < 0.07:
        game["winner"] = rng.choice([None, "zoe", ["ann"], 99])
    elif roll < 0.09:
        game["keys"][rng.choice(at)] = rng.choice([5, 4, 6, -1, "3", 3.0, True, None])
    elif roll < 0.10:
        game["keys"] = rng.choice([None, [3, 0], {}])
    elif roll < 0.11:
        game["guards"] = rng.choice([[1, 2], {"zoe": 1}, {at[0]: 3}, {at[0]: "1"}, {at[0]: -1}])
    elif roll < 0.12:
        game[rng.choice(["excuse", "trumps", 1])] = 1
    elif roll < 0.13:
        suits["zoe"] = "clubs"
    elif roll < 0.14:
        del game[rng.choice(["suits", "winner", "keys"])]
    if rng.random() < 0.1:
        items = list(game.items())
        rng.shuffle(items)
        game = dict(items)
    return game


def random_session(rng: random.Random):
    n = rng.choice([2, 3, 4]) if rng.random() > 0.03 else rng.choice([1, 5])
    players = rng.sample(KEYS, n)
    if rng.random() < 0.02:
        players[rng.randrange(n)] = rng.choice([None, "", players[0]])
    seats = [p for p in players if p not in (None, "")] or ["a", "b"]
    seats = list(dict.fromkeys(seats))
    if len(seats) < 2:
        seats = ["a", "b"]
    games = [random_game(rng, seats) for _ in range(rng.choice([0, 1, 2, 3, 5]))]
    if rng.random() < 0.01:
        games = rng.choice([None, "games", 5])
    return players, games


def test_ten_thousand_random_sessions_agree(script_page):
    rng = random.Random(20261203)
    cases = [("play", random_session(rng)) for _ in range(10_000)]
    outcomes = [python_outcome(name, args) for name, args in cases]
    valid = sum(1 for o in outcomes if "error" not in o)
    assert 4_000 <= valid <= 9_000, valid
    codes = {o["error"] for o in outcomes if "error" in o}
    assert len(codes) >= 17, sorted(codes)
    assert compare(script_page, "keys", cases, python_outcome, js_call) == []


def test_the_comparison_sees_a_difference(script_page, monkeypatch):
    """The harness is not blind: a case the script answers differently is reported."""
    g = {"suits": {"a": "hearts", "b": "spades"}, "winner": "a", "keys": {"b": 2}}
    case = ("play", (["a", "b"], [g]))
    assert compare(script_page, "keys", [case], python_outcome, js_call) == []
    other = {**g, "keys": {"b": 3}}
    monkeypatch.setattr(keys, "play", lambda players, games, play=keys.play: play(players, [other]))
    assert len(compare(script_page, "keys", [case], python_outcome, js_call)) == 1
