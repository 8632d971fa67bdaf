"""The replayed games share one protocol: start, step, play, table sizes and options."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError, cuckoo, deathspot, foolsfaith, keys
from scoring._common import Option

MODULES = [foolsfaith, deathspot, keys, cuckoo]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_module_offers_the_protocol(module):
    assert 1 <= module.MIN_PLAYERS <= module.MAX_PLAYERS
    assert all(isinstance(o, Option) and o.low <= o.default <= o.high for o in module.OPTIONS)
    players = list(range(1, module.MIN_PLAYERS + 1))
    state = module.start(players, **{o.name: o.default for o in module.OPTIONS})
    assert tuple(state.players) == tuple(players)
    assert state.history == ()
    assert state.finished is False and state.winner is None
    assert callable(module.step) and callable(module.play)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_table_sizes_are_enforced_by_start(module):
    with pytest.raises(RuleError):
        module.start(list(range(1, module.MIN_PLAYERS)))
    with pytest.raises(RuleError):
        module.start(list(range(1, module.MAX_PLAYERS + 2)))
    module.start(list(range(1, module.MAX_PLAYERS + 1)))


@pytest.mark.parametrize("module", [deathspot, cuckoo], ids=lambda m: m.__name__)
def test_an_option_below_its_low_bound_is_refused(module):
    (option,) = module.OPTIONS
    players = list(range(1, module.MIN_PLAYERS + 1))
    with pytest.raises(RuleError):
        module.start(players, **{option.name: option.low - 1})
    assert module.start(players, **{option.name: option.low})


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_records_must_be_a_list(module):
    players = list(range(1, module.MIN_PLAYERS + 1))
    for junk in ("abc", 3, None):
        with pytest.raises(RuleError):
            module.play(players, junk)


def _stepwise(module, players, records, **options):
    state = module.start(players, **options)
    for record in records:
        state = module.step(state, record)
    return state


def _same(a, b):
    """Two runs agree: equal states, or the same refusal."""
    return a == b


def _run(fn):
    try:
        return fn()
    except RuleError as e:
        return ("refused", e.template, tuple(sorted(map(str, e.params.items()))))


def tricks(players, total):
    """Any split of `total` tricks between the players, sometimes off by one."""
    return st.lists(st.integers(0, total), min_size=len(players), max_size=len(players)).map(
        lambda xs: dict(zip(players, xs, strict=True))
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_play_is_start_then_step_fools_faith(data):
    players = [1, 2, 3, 4]
    rounds = data.draw(st.lists(tricks(players, 8), max_size=6))
    # Most random splits do not add up to 8: make about half of them valid.
    rounds = [r if sum(r.values()) == 8 or i % 2 else _fix(r, 8) for i, r in enumerate(rounds)]
    assert _same(
        _run(lambda: foolsfaith.play(players, rounds)),
        _run(lambda: _stepwise(foolsfaith, players, rounds)),
    )


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(1, 5))
def test_play_is_start_then_step_deaths_pot(data, stake):
    players = [1, 2, 3]
    deals = data.draw(st.lists(tricks(players, 12), max_size=6))
    deals = [{"tricks": d if i % 2 else _fix(d, 12)} for i, d in enumerate(deals)]
    assert _same(
        _run(lambda: deathspot.play(players, deals, stake=stake)),
        _run(lambda: _stepwise(deathspot, players, deals, stake=stake)),
    )


def _fix(counts: dict, total: int) -> dict:
    """The same players, with the first one's count set so that the counts add up to total."""
    first, *rest = counts
    others = {p: counts[p] for p in rest}
    if sum(others.values()) > total:
        others = dict.fromkeys(rest, 0)
    return {first: total - sum(others.values()), **others}


def test_keys_play_is_a_session_of_checked_games():
    players = ["a", "b"]
    game = {"suits": {"a": "hearts", "b": "spades"}, "winner": "a", "keys": {"b": 2}}
    state = keys.play(players, [game, game])
    assert len(state.history) == 2 and state.history[0].winner == "a"
    assert keys.standings([game, game]).players["a"].won == 2
    with pytest.raises(RuleError) as err:
        keys.play(players, [{**game, "suits": {"a": "hearts", "c": "spades"}, "keys": {"c": 1}}])
    assert err.value.template == keys.ERR_UNKNOWN_PLAYER
