"""static/js/cuckoo-score.js, the phone's Cuckoo rules, agrees with `scoring.cuckoo`.

(a) Every call that tests/scoring/test_cuckoo.py and test_protocol.py make to rank_of, start,
    play and play_deal (step) is recorded, run through the script, and compared: the whole
    state (lives, who rests, who is out, the dealer, every deal), or the same error code with
    the same parameters.
(b) 10,000 seeded random matches, valid and invalid deals mixed, compared the same way.
"""

from __future__ import annotations

import random

import pytest

from scoring import RuleError, _common, cuckoo
from tests.scoring.replayed_js import (
    compare,
    error_outcome,
    open_script_page,
    pairs,
    record_calls,
    to_js,
)

pytestmark = pytest.mark.browser

CODES = {getattr(m, n): n for m in (_common, cuckoo) for n in dir(m) if n.startswith("ERR_")}
PORTED = ("rank_of", "start", "play", "play_deal", "step")


@pytest.fixture(scope="module")
def script_page(browser):
    page = open_script_page(browser, "cuckoo-score.js")
    yield page
    page.context.close()


def keys(players):
    return [to_js(p) for p in players]


def state_js(state) -> dict:
    return {
        "players": keys(state.players),
        "starting_lives": state.starting_lives,
        "lives": pairs(state.lives),
        "resting": keys(state.resting),
        "out": keys(state.out),
        "finished": state.finished,
        "winner": to_js(state.winner),
        "draw": state.draw,
        "dealer": to_js(state.dealer),
        "taking_part": keys(state.taking_part),
        "history": [
            {
                "number": r.number,
                "dealer": to_js(r.dealer),
                "cards": pairs(r.cards),
                "swap_losses": pairs(r.swap_losses),
                "compared": keys(r.compared),
                "skipped": r.skipped,
                "fools": keys(r.fools),
                "losers": keys(r.losers),
                "lives": pairs(r.lives),
                "out": keys(r.out),
                "resting": keys(r.resting),
            }
            for r in state.history
        ],
    }


def python_outcome(name: str, args: tuple):
    try:
        result = getattr(cuckoo, "play_deal" if name == "step" else name)(*args)
    except RuleError as e:
        return error_outcome(e, CODES)
    if name == "rank_of":
        return {"value": result}
    return {"state": state_js(result)}


def js_call(name: str, args: tuple):
    fn = {"rank_of": "rankOf", "play_deal": "step"}.get(name, name)
    return [fn, [to_js(a, state_js) for a in args]]


def test_the_script_agrees_with_every_case_of_the_scoring_tests(script_page, monkeypatch):
    from tests.scoring import test_cuckoo, test_protocol

    calls, ran = record_calls(monkeypatch, cuckoo, PORTED, [test_cuckoo, test_protocol])
    monkeypatch.undo()
    assert ran > 40, ran
    counted = {name: sum(1 for n, _ in calls if n == name) for name in PORTED}
    assert all(counted[name] for name in ("start", "play", "play_deal")), counted
    assert len(calls) > 200, len(calls)  # the hypothesis examples too
    errors = {python_outcome(n, a).get("error") for n, a in calls} - {None}
    assert {CODES[getattr(cuckoo, n)] for n in dir(cuckoo) if n.startswith("ERR_")} - errors <= {
        "ERR_PLAYERS_TYPE",
        "ERR_PLAYER_NAME",
        "ERR_PLAYER_TWICE",
        "ERR_DEALS_TYPE",
    }
    assert compare(script_page, "cuckoo", calls, python_outcome, js_call) == []


KEYS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", 1, 2, 3, 17, 40]


def random_deal(rng: random.Random, state):
    """A deal for `state` (a Python state, to know who takes part): mostly one that could
    happen, with one thing or another wrong in some."""
    if rng.random() < 0.01:
        return rng.choice([None, "deal", [1], {"petit": 1}])
    part = list(state.taking_part)
    deck = [r for r in cuckoo.RANKS for _ in range(2)]
    if rng.random() < 0.3:
        deck = ["fool", "fool", "owl", "pot", "0", "dragoon", "cat"] * 4
    cards = dict(zip(part, rng.sample(deck, len(part)), strict=True))
    deal = {"cards": cards}
    if rng.random() < 0.3 and part:
        losers = rng.sample(part, rng.randint(1, min(2, len(part))))
        deal["swap_losses"] = {p: 1 for p in losers}
    roll = rng.random()
    if roll < 0.03 and part:
        cards[rng.choice(part)] = rng.choice([" Fool ", "xii", "trumps", 1, None, ""])
    elif roll < 0.05 and part:
        del cards[rng.choice(part)]
    elif roll < 0.06:
        cards[rng.choice([*state.players, "zoe"])] = "owl"
    elif roll < 0.07 and part:
        deal["swap_losses"] = {rng.choice(part): rng.choice([2, -1, "1", 1.0, True])}
    elif roll < 0.08:
        deal["swap_losses"] = rng.choice([[1], "x", None])
    elif roll < 0.085:
        deal["cards"] = rng.choice([None, [1], {}])
    return deal


def random_match(rng: random.Random):
    n = rng.choice([3, 4, 5, 6, 8, 12]) if rng.random() > 0.02 else rng.choice([2, 13])
    players = rng.sample(KEYS, min(n, len(KEYS)))
    lives = rng.choice([1, 2, 3, 3]) if rng.random() > 0.02 else rng.choice([0, "3", 2.0])
    deals = []
    try:
        state = cuckoo.start(players, 1 if not isinstance(lives, int) or lives < 1 else lives)
    except RuleError:
        return players, [], lives
    for _ in range(rng.choice([0, 1, 2, 4, 6, 10])):
        deal = random_deal(rng, state)
        deals.append(deal)
        try:
            state = cuckoo.play_deal(state, deal)
        except RuleError:
            break
    if rng.random() < 0.01:
        deals = rng.choice([None, "deals", 5])
    return players, deals, lives


def test_ten_thousand_random_matches_agree(script_page):
    rng = random.Random(20261205)
    cases = [("play", random_match(rng)) for _ in range(10_000)]
    outcomes = [python_outcome(name, args) for name, args in cases]
    valid = sum(1 for o in outcomes if "error" not in o)
    assert 4_000 <= valid <= 9_000, valid
    assert sum(1 for o in outcomes if o.get("state", {}).get("finished")) > 100
    codes = {o["error"] for o in outcomes if "error" in o}
    assert len(codes) >= 14, sorted(codes)
    assert compare(script_page, "cuckoo", cases, python_outcome, js_call) == []


def test_the_comparison_sees_a_difference(script_page, monkeypatch):
    deal = {"cards": {"a": "owl", "b": "XII", "c": "cuckoo"}}
    case = ("play", (["a", "b", "c"], [deal], 3))
    assert compare(script_page, "cuckoo", [case], python_outcome, js_call) == []
    other = {"cards": {"a": "XII", "b": "owl", "c": "cuckoo"}}
    original = cuckoo.play
    monkeypatch.setattr(cuckoo, "play", lambda p, d, lives=3: original(p, [other], lives))
    assert len(compare(script_page, "cuckoo", [case], python_outcome, js_call)) == 1
