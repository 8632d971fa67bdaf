"""Death's Pot: antes, Death, honours, tricks, the dealer, zero-sum and every RuleError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError, deathspot
from scoring.deathspot import ANTE, DEATH, EXCUSE, TRICKS, TRUMP1, TRUMP11, Payment, play

ABC = ["A", "B", "C"]


def tricks(**counts: int) -> dict[str, int]:
    return counts


def kinds(payments) -> list[tuple[str, str, int]]:
    return [(p.kind, p.player, p.amount) for p in payments]


def antes(players, stake=1) -> list[tuple[str, str, int]]:
    return [(ANTE, p, -stake) for p in players]


def expect_error(template: str, players, deals, stake=1) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(players, deals, stake)
    assert info.value.template == template
    return info.value


# --- antes ----------------------------------------------------------------------------------


def test_everyone_antes_when_the_game_starts():
    state = play(ABC, [])
    assert state.pot == 3
    assert state.balances == {"A": -1, "B": -1, "C": -1}
    assert kinds(state.opening) == antes(ABC)
    assert [p.pot for p in state.opening] == [1, 2, 3]
    assert state.dealer == "A"
    assert state.history == ()


def test_the_stake_multiplies_the_ante():
    state = play(["A", "B"], [], stake=5)
    assert state.pot == 10
    assert state.balances == {"A": -5, "B": -5}
    assert state.stake == 5


# --- Death ----------------------------------------------------------------------------------


def test_death_takes_the_whole_pot_and_everyone_antes_again():
    # 4 players, stake 2: opening pot 8. D takes 8 and the pot is refilled with 4 x 2.
    state = play(["A", "B", "C", "D"], [{"death": "D"}], stake=2)
    deal = state.history[0]
    assert kinds(deal.payments) == [(DEATH, "D", 8), *antes("ABCD", 2)]
    assert [p.pot for p in deal.payments] == [0, 2, 4, 6, 8]
    assert state.balances == {"A": -4, "B": -4, "C": -4, "D": 4}  # D: -2 + 8 - 2
    assert state.pot == 8
    assert deal.death == "D"
    assert deal.tricks is None
    assert deal.honours == {}


def test_death_with_honour_keys_left_empty_is_accepted():
    state = play(ABC, [{"death": "B", "excuse": None, "trump1": None, "trump11": None}])
    assert state.balances["B"] == 1  # -1 + 3 - 1


@pytest.mark.parametrize(
    "extra",
    [{"excuse": "A"}, {"trump1": "C"}, {"trump11": "B"}, {"tricks": {"A": 4, "B": 4, "C": 4}}],
)
def test_a_death_deal_carries_no_honours_or_tricks(extra):
    expect_error(deathspot.ERR_DEATH_ALONE, ABC, [{"death": "A", **extra}])


# --- honours and tricks ---------------------------------------------------------------------


def test_honours_in_order_then_the_tricks_winner_with_antes_whenever_the_pot_empties():
    # Opening pot 3 (everyone -1). Excuse to A: pot 2. Trump 11 to B: 2 stakes, pot 0, so
    # everyone antes: pot 3. A has most tricks and takes 3: pot 0, everyone antes: pot 3.
    # A: -1 +1 -1 +3 -1 = 1; B: -1 +2 -1 -1 = -1; C: -1 -1 -1 = -3.
    deal = {"excuse": "A", "trump11": "B", "tricks": tricks(A=5, B=4, C=3)}
    state = play(ABC, [deal])
    result = state.history[0]
    assert kinds(result.payments) == [
        (EXCUSE, "A", 1),
        (TRUMP11, "B", 2),
        *antes(ABC),
        (TRICKS, "A", 3),
        *antes(ABC),
    ]
    assert [p.pot for p in result.payments] == [2, 0, 1, 2, 3, 0, 1, 2, 3]
    assert state.balances == {"A": 1, "B": -1, "C": -3}
    assert state.pot == 3
    assert result.honours == {EXCUSE: "A", TRUMP11: "B"}
    assert result.tricks_winner == "A"
    assert result.tied == ()
    assert (result.balances, result.pot) == (state.balances, state.pot)


def test_honours_are_paid_excuse_trump1_trump11_whatever_the_key_order():
    deal = {"trump11": "C", "trump1": "B", "excuse": "A", "tricks": tricks(A=6, B=3, C=3)}
    payments = play(ABC, [deal], stake=1).history[0].payments
    assert [p.kind for p in payments if p.kind != ANTE][:3] == [EXCUSE, TRUMP1, TRUMP11]


def test_an_honour_is_capped_at_what_the_pot_holds():
    # 2 players, opening pot 2. Excuse to A: pot 1. Trump 11 (2 stakes) to B gets only 1,
    # the pot is empty, both ante: pot 2. Tied tricks: the pot stays.
    # A: -1 +1 -1 = -1; B: -1 +1 -1 = -1; pot 2.
    deal = {"excuse": "A", "trump11": "B", "tricks": tricks(A=6, B=6)}
    state = play(["A", "B"], [deal])
    payments = state.history[0].payments
    assert payments[0] == Payment(EXCUSE, "A", 1, 1)
    assert payments[1] == Payment(TRUMP11, "B", 1, 0, capped=True)
    assert kinds(payments[2:]) == antes("AB")
    assert state.balances == {"A": -1, "B": -1}
    assert state.pot == 2


def test_after_an_honour_empties_the_pot_the_next_one_is_paid_from_the_new_ante():
    # 2 players, opening pot 2: excuse A (pot 1), trump 1 B (pot 0, ante: pot 2),
    # trump 11 A takes 2 (pot 0, ante: pot 2), B has most tricks: takes 2, ante: pot 2.
    # A: -1 +1 -1 +2 -1 -1 = -1; B: -1 +1 -1 -1 +2 -1 = -1.
    deal = {"excuse": "A", "trump1": "B", "trump11": "A", "tricks": tricks(A=5, B=7)}
    state = play(["A", "B"], [deal])
    payments = state.history[0].payments
    assert kinds(payments) == [
        (EXCUSE, "A", 1),
        (TRUMP1, "B", 1),
        *antes("AB"),
        (TRUMP11, "A", 2),
        *antes("AB"),
        (TRICKS, "B", 2),
        *antes("AB"),
    ]
    assert not any(p.capped for p in payments)
    assert state.balances == {"A": -1, "B": -1}
    assert state.pot == 2


def test_one_player_may_show_several_honours():
    # Opening pot 3: A takes excuse (pot 2), trump 1 (pot 1), trump 11 capped at 1 (pot 0),
    # everyone antes (pot 3), then B takes 3 for the tricks, everyone antes.
    # A: -1 +1 +1 +1 -1 -1 = 0; B: -1 -1 +3 -1 = 0; C: -1 -1 -1 = -3.
    deal = {"excuse": "A", "trump1": "A", "trump11": "A", "tricks": tricks(A=2, B=8, C=2)}
    state = play(ABC, [deal])
    assert state.history[0].payments[2].capped
    assert state.balances == {"A": 0, "B": 0, "C": -3}
    assert state.pot == 3


def test_shared_most_tricks_leave_the_pot_for_the_next_deal():
    # Opening pot 3. Deal 1: trump 1 to C (pot 2); 4-4-4 tie, the pot stays at 2.
    # Deal 2: C takes the 2 left, everyone antes: pot 3.
    # A: -1 -1 = -2; B: -2; C: -1 +1 +2 -1 = 1.
    deals = [
        {"trump1": "C", "tricks": tricks(A=4, B=4, C=4)},
        {"tricks": tricks(A=3, B=3, C=6)},
    ]
    state = play(ABC, deals)
    first, second = state.history
    assert first.tricks_winner is None
    assert first.tied == ("A", "B", "C")
    assert first.pot == 2
    assert kinds(first.payments) == [(TRUMP1, "C", 1)]
    assert kinds(second.payments) == [(TRICKS, "C", 2), *antes(ABC)]
    assert state.balances == {"A": -2, "B": -2, "C": 1}
    assert state.pot == 3


def test_a_tie_below_the_top_does_not_stop_the_winner():
    state = play(ABC, [{"tricks": tricks(A=6, B=3, C=3)}])
    assert state.history[0].tricks_winner == "A"
    assert state.balances == {"A": 1, "B": -2, "C": -2}  # A: -1 + 3 - 1


def test_the_stake_multiplies_every_payment():
    deal = {"excuse": "A", "trump11": "B", "tricks": tricks(A=5, B=4, C=3)}
    one = play(ABC, [deal, {"death": "C"}])
    five = play(ABC, [deal, {"death": "C"}], stake=5)
    assert five.balances == {p: 5 * v for p, v in one.balances.items()}
    assert five.pot == 5 * one.pot
    for small, big in zip(one.history[1].payments, five.history[1].payments, strict=True):
        assert big.amount == 5 * small.amount


# --- dealer ---------------------------------------------------------------------------------


def test_the_deal_passes_anticlockwise_to_the_right():
    # players are in playing order (anticlockwise: each sits on the right of the one before),
    # so the deal, passing to the right, goes to the next one in the list
    deals = [{"death": "A"}, {"death": "B"}, {"death": "C"}, {"death": "A"}]
    state = play(["A", "B", "C", "D"], deals)
    assert [d.dealer for d in state.history] == ["A", "B", "C", "D"]
    assert state.dealer == "A"


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C", "D", "E", "F", "G"]])
def test_two_to_six_players(players):
    error = expect_error(deathspot.ERR_PLAYER_COUNT, players, [])
    assert error.params == {"count": len(players)}


def test_players_are_a_list_of_distinct_names():
    expect_error(deathspot.ERR_PLAYERS_TYPE, "AB", [])
    expect_error(deathspot.ERR_PLAYER_TWICE, ["A", "A"], [])
    expect_error(deathspot.ERR_PLAYER_NAME, ["A", None], [])


@pytest.mark.parametrize("stake", [0, -1, "1", True, 1.5, None])
def test_the_stake_is_a_positive_whole_number(stake):
    expect_error(deathspot.ERR_STAKE, ABC, [], stake)


@pytest.mark.parametrize("deals", [None, "deals", {"death": "A"}])
def test_deals_must_be_a_list(deals):
    expect_error(deathspot.ERR_DEALS_TYPE, ABC, deals)


@pytest.mark.parametrize("deal", [None, "A", ["death", "A"]])
def test_a_deal_must_be_a_dict(deal):
    expect_error(deathspot.ERR_DEAL_TYPE, ABC, [deal])


def test_a_deal_records_only_known_fields():
    error = expect_error(deathspot.ERR_DEAL_FIELD, ABC, [{"death": "A", "trump21": "B"}])
    assert error.params == {"field": "trump21"}


@pytest.mark.parametrize("field", ["death", "excuse", "trump1", "trump11"])
def test_holders_must_be_at_the_table(field):
    deal = {field: "Zoe"}
    if field != "death":
        deal["tricks"] = tricks(A=4, B=4, C=4)
    error = expect_error(deathspot.ERR_UNKNOWN_PLAYER, ABC, [deal])
    assert error.params == {"player": "Zoe"}


def test_a_deal_without_death_needs_the_tricks():
    expect_error(deathspot.ERR_TRICKS_MISSING, ABC, [{"excuse": "A"}])
    expect_error(deathspot.ERR_TRICKS_MISSING, ABC, [{}])


def test_tricks_errors():
    expect_error(deathspot.ERR_TRICKS_TYPE, ABC, [{"tricks": [4, 4, 4]}])
    error = expect_error(deathspot.ERR_UNKNOWN_PLAYER, ABC, [{"tricks": tricks(A=4, B=4, Z=4)}])
    assert error.params == {"player": "Z"}
    error = expect_error(deathspot.ERR_MISSING_PLAYER, ABC, [{"tricks": tricks(A=6, B=6)}])
    assert error.params == {"player": "C"}
    for bad in ("4", 4.0, True, None):
        expect_error(deathspot.ERR_TRICKS_INT, ABC, [{"tricks": {"A": bad, "B": 4, "C": 4}}])
    expect_error(deathspot.ERR_TRICKS_NEGATIVE, ABC, [{"tricks": tricks(A=-1, B=7, C=6)}])
    error = expect_error(deathspot.ERR_TRICKS_TOTAL, ABC, [{"tricks": tricks(A=4, B=4, C=3)}])
    assert error.params == {"total": 11}


def test_check_deal_fills_in_the_missing_fields():
    clean = deathspot.check_deal(ABC, {"trump1": "B", "tricks": tricks(A=4, B=4, C=4)})
    assert clean == {
        "death": None,
        "excuse": None,
        "trump1": "B",
        "trump11": None,
        "tricks": {"A": 4, "B": 4, "C": 4},
    }


# --- properties -----------------------------------------------------------------------------


@st.composite
def games(draw):
    count = draw(st.integers(2, 6))
    players = [f"p{i}" for i in range(count)]
    holder = st.one_of(st.none(), st.sampled_from(players))
    deals = []
    for _ in range(draw(st.integers(0, 15))):
        if draw(st.booleans()) and draw(st.booleans()):
            deals.append({"death": draw(st.sampled_from(players))})
            continue
        takers = draw(st.lists(st.integers(0, count - 1), min_size=12, max_size=12))
        deal = {kind: draw(holder) for kind in ("excuse", "trump1", "trump11")}
        deal["tricks"] = {p: takers.count(i) for i, p in enumerate(players)}
        deals.append(deal)
    return players, deals, draw(st.integers(1, 5))


@settings(max_examples=200, deadline=None)
@given(games())
def test_balances_and_pot_always_add_up_to_zero(game):
    players, deals, stake = game
    state = deathspot.start(players, stake)
    assert sum(state.balances.values()) + state.pot == 0
    for deal in deals:
        before = state
        state = deathspot.play_deal(state, deal)
        assert sum(state.balances.values()) + state.pot == 0
        # the pot is never left empty and only ever holds whole stakes
        assert state.pot > 0
        assert state.pot % stake == 0
        # every payment is logged: replaying them gives the new balances and pot
        balances, pot = dict(before.balances), before.pot
        for payment in state.history[-1].payments:
            assert payment.amount != 0
            balances[payment.player] += payment.amount
            pot -= payment.amount
            assert pot == payment.pot >= 0
            assert sum(balances.values()) + pot == 0
        assert (balances, pot) == (state.balances, state.pot)
