"""static/js/deathspot-score.js, the phone's Death's Pot rules, agrees with `scoring.deathspot`.

(a) Every call that tests/scoring/test_deathspot.py and test_protocol.py make to check_deal,
    start, play and play_deal (step) is recorded, run through the script, and compared: the
    whole state (balances, pot, dealer, the opening ante, every deal with its payments), or the
    same error code with the same parameters.
(b) 10,000 seeded random games, valid and invalid deals mixed, compared the same way.
"""

from __future__ import annotations

import random

import pytest

from scoring import RuleError, _common, deathspot
from tests.scoring.replayed_js import (
    compare,
    error_outcome,
    open_script_page,
    pairs,
    record_calls,
    to_js,
)

pytestmark = pytest.mark.browser

CODES = {getattr(m, n): n for m in (_common, deathspot) for n in dir(m) if n.startswith("ERR_")}
# the aliases of the shared messages: the names the script uses
CODES[deathspot.ERR_UNKNOWN_PLAYER] = "ERR_NOT_PLAYING"
CODES[deathspot.ERR_MISSING_PLAYER] = "ERR_TRICKS_MISSING_FOR"
CODES[deathspot.ERR_TRICKS_INT] = "ERR_TRICKS_NOT_WHOLE"
CODES[deathspot.ERR_TRICKS_NEGATIVE] = "ERR_TRICKS_BELOW_ZERO"
PORTED = ("check_deal", "start", "play", "play_deal", "step")


@pytest.fixture(scope="module")
def script_page(browser):
    page = open_script_page(browser, "deathspot-score.js")
    yield page
    page.context.close()


def payment_js(p) -> dict:
    return {
        "kind": p.kind,
        "player": to_js(p.player),
        "amount": p.amount,
        "pot": p.pot,
        "capped": p.capped,
    }


def state_js(state) -> dict:
    return {
        "players": [to_js(p) for p in state.players],
        "stake": state.stake,
        "balances": pairs(state.balances),
        "pot": state.pot,
        "dealer": to_js(state.dealer),
        "opening": [payment_js(p) for p in state.opening],
        "history": [
            {
                "number": r.number,
                "dealer": to_js(r.dealer),
                "death": to_js(r.death),
                "honours": pairs(r.honours),
                "tricks": None if r.tricks is None else pairs(r.tricks),
                "tricks_winner": to_js(r.tricks_winner),
                "tied": [to_js(p) for p in r.tied],
                "payments": [payment_js(p) for p in r.payments],
                "balances": pairs(r.balances),
                "pot": r.pot,
            }
            for r in state.history
        ],
        "finished": state.finished,
        "winner": to_js(state.winner),
        "rules": state.rules.as_dict(),
    }


def python_outcome(name: str, args: tuple):
    try:
        result = getattr(deathspot, "play_deal" if name == "step" else name)(*args)
    except RuleError as e:
        return error_outcome(e, CODES)
    if name == "check_deal":
        tricks = result["tricks"]
        return {
            "value": {
                k: (pairs(v) if k == "tricks" and tricks is not None else to_js(v))
                for k, v in result.items()
            }
        }
    return {"state": state_js(result)}


def js_call(name: str, args: tuple):
    fn = {"check_deal": "checkDeal", "play_deal": "step"}.get(name, name)
    return [fn, [to_js(a, state_js) for a in args]]


def test_the_script_agrees_with_every_case_of_the_scoring_tests(script_page, monkeypatch):
    from tests.scoring import test_deathspot, test_house_rules, test_protocol

    tests = [test_deathspot, test_protocol, test_house_rules]
    calls, ran = record_calls(monkeypatch, deathspot, PORTED, tests)
    monkeypatch.undo()
    assert ran > 40, ran
    counted = {name: sum(1 for n, _ in calls if n == name) for name in PORTED}
    assert all(counted[name] for name in ("check_deal", "start", "play")), counted
    assert len(calls) > 200, len(calls)  # the hypothesis examples too
    errors = {python_outcome(n, a).get("error") for n, a in calls} - {None}
    assert {"ERR_DEATH_ALONE", "ERR_TRICKS_TOTAL", "ERR_STAKE", "ERR_DEAL_FIELD"} <= errors
    assert compare(script_page, "deathspot", calls, python_outcome, js_call) == []


KEYS = ["ann", "bob", "cat", "dan", "eve", "fay", 1, 2, 3, 17]


def random_deal(rng: random.Random, players: list):
    roll = rng.random()
    if roll < 0.01:
        return rng.choice([None, "deal", [1, 2], 3])
    if roll < 0.2:
        deal = {"death": rng.choice(players)}
        if rng.random() < 0.5:
            deal.update({"excuse": None, "trump1": None, "trump11": None})
        if rng.random() < 0.05:
            deal[rng.choice(["excuse", "tricks"])] = players[0]
        return deal
    takers = [rng.randrange(len(players)) for _ in range(12)]
    if rng.random() < 0.25:
        takers = [i % 2 for i in range(12)]
    tricks = {p: takers.count(i) for i, p in enumerate(players)}
    deal = {"death": None} if rng.random() < 0.5 else {}
    for honour in ("excuse", "trump1", "trump11"):
        if rng.random() < 0.5:
            deal[honour] = rng.choice(players)
        elif rng.random() < 0.3:
            deal[honour] = None
    deal["tricks"] = tricks
    roll = rng.random()
    if roll < 0.04:
        tricks[rng.choice(players)] += rng.choice([-1, 1])
    elif roll < 0.06:
        tricks[rng.choice(players)] = rng.choice(["3", 3.0, True, None, -1])
    elif roll < 0.07:
        del tricks[rng.choice(players)]
    elif roll < 0.08:
        deal["tricks"] = rng.choice([None, [1, 2], "12"])
    elif roll < 0.09:
        deal[rng.choice(["excuse", "trump11", "death"])] = rng.choice(["zoe", 99])
    elif roll < 0.10:
        deal["petit"] = 1
    elif roll < 0.11:
        del deal["tricks"]
    return deal


def random_game(rng: random.Random):
    n = rng.choice([2, 3, 4, 5, 6]) if rng.random() > 0.02 else rng.choice([1, 7])
    players = rng.sample(KEYS, n)
    seats = list(players) if len(players) >= 2 else ["a", "b"]
    stake = rng.choice([1, 1, 1, 2, 5]) if rng.random() > 0.02 else rng.choice([0, -1, "2", 1.5])
    deals = [random_deal(rng, seats) for _ in range(rng.choice([0, 1, 2, 3, 5, 8]))]
    if rng.random() < 0.01:
        deals = rng.choice([None, "deals", 5])
    # the house rule for a tie for the most tricks, as written or the club's (half each)
    rules = deathspot.DeathsPotRules(
        tie_pot=rng.choice(deathspot.DeathsPotRules.CHOICES["tie_pot"])
    )
    return players, deals, stake, rules


def test_ten_thousand_random_games_agree(script_page):
    rng = random.Random(20261204)
    cases = [("play", random_game(rng)) for _ in range(10_000)]
    outcomes = [python_outcome(name, args) for name, args in cases]
    valid = sum(1 for o in outcomes if "error" not in o)
    assert 4_000 <= valid <= 9_000, valid
    codes = {o["error"] for o in outcomes if "error" in o}
    assert len(codes) >= 12, sorted(codes)
    # the club's rule shares the pot in some deals (a tricks payment in a tied deal)
    shared = [
        o
        for o in outcomes
        if "state" in o
        and any(
            r["tied"] and any(p["kind"] == "tricks" for p in r["payments"])
            for r in o["state"]["history"]
        )
    ]
    assert len(shared) > 300, len(shared)
    assert compare(script_page, "deathspot", cases, python_outcome, js_call) == []


def test_the_comparison_sees_a_difference(script_page, monkeypatch):
    case = ("play", (["a", "b"], [{"death": "a"}], 1))
    assert compare(script_page, "deathspot", [case], python_outcome, js_call) == []
    original = deathspot.play
    monkeypatch.setattr(deathspot, "play", lambda p, d, s=1: original(p, [{"death": "b"}], s))
    assert len(compare(script_page, "deathspot", [case], python_outcome, js_call)) == 1
