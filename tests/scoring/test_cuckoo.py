"""Cuckoo: lives lost to the lowest card and the Fools, swaps, resting, the dealer, the end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError, cuckoo
from scoring.cuckoo import RANKS, play, play_deal, start

ABCD = ["A", "B", "C", "D"]
ABC = ["A", "B", "C"]


def deal(swaps=None, **cards: str) -> dict:
    record: dict = {"cards": cards}
    if swaps is not None:
        record["swap_losses"] = swaps
    return record


def expect_error(template: str, players, deals, lives=3) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(players, deals, lives)
    assert info.value.template == template
    return info.value


# --- ranks ----------------------------------------------------------------------------------


def test_ranks_run_from_fool_to_cuckoo():
    assert len(RANKS) == 21
    assert RANKS[:5] == ("fool", "owl", "pot", "0", "I")
    numerals = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
    assert RANKS[4:16] == numerals
    assert RANKS[16:] == ("house", "horse", "cat", "dragoon", "cuckoo")


@pytest.mark.parametrize("low, high", zip(RANKS[1:-1], RANKS[2:], strict=True))
def test_the_lower_of_two_neighbouring_ranks_loses(low, high):
    state = play(ABC, [deal(A=high, B=low, C=high)])
    assert state.lives == {"A": 3, "B": 2, "C": 3}


def test_rank_spelling_is_forgiving():
    state = play(ABC, [deal(A=" Fool", B="xii", C="CUCKOO")])
    assert state.history[0].cards == {"A": "fool", "B": "XII", "C": "cuckoo"}
    assert cuckoo.rank_of("Dragoon") == "dragoon"


# --- losses ---------------------------------------------------------------------------------


def test_a_new_match():
    state = play(ABCD, [])
    assert state.lives == dict.fromkeys(ABCD, 3)
    assert state.dealer == "A"
    assert state.taking_part == tuple(ABCD)
    assert (state.resting, state.out, state.finished, state.winner, state.draw) == (
        (),
        (),
        False,
        None,
        False,
    )


def test_no_fool_the_lowest_card_loses_a_life():
    state = play(ABCD, [deal(A="V", B="I", C="XII", D="cuckoo")])
    assert state.lives == {"A": 3, "B": 2, "C": 3, "D": 3}
    assert state.history[0].losers == ("B",)
    assert state.resting == ()


def test_no_fool_everyone_tied_for_the_lowest_loses():
    state = play(ABCD, [deal(A="pot", B="pot", C="II", D="house")])
    assert state.lives == {"A": 2, "B": 2, "C": 3, "D": 3}


def test_one_fool_its_holder_and_the_lowest_of_the_others_lose():
    state = play(ABCD, [deal(A="fool", B="0", C="0", D="III")])
    assert state.lives == {"A": 2, "B": 2, "C": 2, "D": 3}
    assert state.history[0].fools == ("A",)
    assert state.history[0].losers == ("A", "B", "C")


def test_one_fool_the_lowest_other_card_may_be_high():
    state = play(ABC, [deal(A="cuckoo", B="fool", C="dragoon")])
    assert state.lives == {"A": 3, "B": 2, "C": 2}


def test_two_fools_only_their_holders_lose():
    state = play(ABCD, [deal(A="fool", B="owl", C="fool", D="pot")])
    assert state.lives == {"A": 2, "B": 3, "C": 2, "D": 3}
    assert state.history[0].losers == ("A", "C")


def test_fool_holders_still_alive_rest_during_the_next_deal_then_return():
    state = play(ABCD, [deal(A="fool", B="owl", C="fool", D="pot")])
    assert state.resting == ("A", "C")
    assert state.taking_part == ("B", "D")
    state = play_deal(state, deal(B="V", D="VI"))
    assert state.lives == {"A": 2, "B": 2, "C": 2, "D": 3}  # resting players lose nothing
    assert state.resting == ()
    assert state.taking_part == tuple(ABCD)


def test_a_fool_holder_brought_to_zero_leaves_instead_of_resting():
    state = play(ABCD, [deal(A="fool", B="I", C="II", D="III")], lives=1)
    assert state.out == ("A", "B")
    assert state.resting == ()
    assert state.taking_part == ("C", "D")
    assert state.lives == {"A": 0, "B": 0, "C": 1, "D": 1}


# --- swaps ----------------------------------------------------------------------------------


def test_swap_losses_come_on_top_of_the_comparison():
    # B asked C, who refused with the Cat: B loses a life at once
    state = play(ABCD, [deal({"B": 1}, A="owl", B="X", C="cat", D="XII")])
    assert state.lives == {"A": 2, "B": 2, "C": 3, "D": 3}
    assert state.history[0].swap_losses == {"B": 1}


def test_a_player_brought_to_zero_by_the_swaps_is_not_compared():
    # A (the dealer, drawing from the stock) leaves during the swaps; its Fool does not count,
    # so B's Fool is the only one: B and the lowest of the others (C) lose, D keeps its life.
    state = play(ABCD, [deal({"A": 1}, A="fool", B="fool", C="I", D="II")], lives=1)
    assert state.lives == {"A": 0, "B": 0, "C": 0, "D": 1}
    result = state.history[0]
    assert result.compared == ("B", "C", "D")
    assert result.fools == ("B",)
    assert result.losers == ("B", "C")
    assert state.out == ("A", "B", "C")
    assert state.winner == "D"


def test_the_lowest_card_of_a_player_out_by_the_swaps_does_not_count():
    state = play(ABCD, [deal({"A": 1}, A="owl", B="I", C="II", D="III")], lives=1)
    assert state.out == ("A", "B")
    assert state.lives == {"A": 0, "B": 0, "C": 1, "D": 1}


def test_players_out_by_the_swaps_leave_before_those_out_at_the_comparison():
    state = play(ABCD, [deal({"D": 1}, A="I", B="II", C="dragoon", D="owl")], lives=1)
    assert state.out == ("D", "A")


def test_swap_losses_leaving_one_to_compare_skip_the_comparison():
    # lives 2. Deal 1: A's Fool and B (lowest other) lose: A 1 (rests), B 1, C 2.
    # Deal 2: B and C play; B loses its last life in the swaps, C alone is left: no comparison.
    # Deal 3: A is back; A has the lowest card and leaves: C wins.
    state = play(ABC, [deal(A="fool", B="V", C="X")], lives=2)
    assert (state.lives, state.resting, state.dealer) == ({"A": 1, "B": 1, "C": 2}, ("A",), "B")
    state = play_deal(state, deal({"B": 1}, B="cuckoo", C="owl"))
    result = state.history[-1]
    assert result.skipped
    assert result.compared == ()
    assert state.lives == {"A": 1, "B": 0, "C": 2}
    assert state.resting == ()
    assert state.taking_part == ("A", "C")
    assert state.dealer == "C"  # the seat after B
    assert not state.finished
    state = play_deal(state, deal(A="I", C="II"))
    assert state.finished
    assert state.winner == "C"
    assert state.out == ("B", "A")
    assert state.dealer is None
    assert state.taking_part == ()


# --- fewer than two taking part -------------------------------------------------------------


def test_a_deal_with_one_player_taking_part_is_skipped():
    state = play(ABC, [deal(A="fool", B="fool", C="I")])
    assert state.taking_part == ("C",)
    for record in ({"cards": {}}, {}, {"cards": None}, deal(C="owl")):
        after = play_deal(state, record)
        assert after.lives == state.lives
        assert after.history[-1].skipped
        assert after.resting == ()
        assert after.taking_part == tuple(ABC)
        assert after.dealer == "C"  # the deal still moves on


def test_no_swap_loss_in_a_skipped_deal():
    state = play(ABC, [deal(A="fool", B="fool", C="I")])
    with pytest.raises(RuleError) as info:
        play_deal(state, deal({"C": 1}, C="V"))
    assert info.value.template == cuckoo.ERR_SKIPPED_SWAPS
    # a zero is no loss
    assert play_deal(state, deal({"C": 0}, C="V")).lives == state.lives


def test_a_deal_with_nobody_taking_part_is_skipped():
    deals = [
        deal(A="I", B="II", C="III"),  # A 1
        deal(A="I", B="V", C="V"),  # A 0: out
        deal(B="fool", C="fool"),  # B 1, C 1, both rest
    ]
    state = play(ABC, deals, lives=2)
    assert state.taking_part == ()
    assert state.resting == ("B", "C")
    state = play_deal(state, {})
    assert state.lives == {"A": 0, "B": 1, "C": 1}
    assert state.taking_part == ("B", "C")


# --- the end --------------------------------------------------------------------------------


def test_the_last_player_left_wins():
    state = play(ABC, [deal(A="I", B="II", C="III"), deal(B="II", C="I")], lives=1)
    assert state.finished
    assert state.winner == "B"
    assert not state.draw
    assert state.out == ("A", "C")


def test_all_remaining_players_reaching_zero_together_is_a_draw():
    # one Fool: A loses with B and C, tied for the lowest of the others
    state = play(ABC, [deal(A="fool", B="I", C="I")], lives=1)
    assert state.finished
    assert state.draw
    assert state.winner is None
    assert state.out == ("A", "B", "C")
    assert state.dealer is None


def test_the_last_two_tied_for_the_lowest_card_draw():
    state = play(ABC, [deal(A="I", B="II", C="III"), deal(B="IV", C="IV")], lives=1)
    assert (state.finished, state.winner, state.draw) == (True, None, True)
    assert state.out == ("A", "B", "C")


def test_two_fools_leave_the_other_player_as_winner():
    state = play(ABC, [deal(A="I", B="fool", C="fool")], lives=1)
    # A keeps its life and wins, the Fool holders are out
    assert (state.finished, state.winner, state.draw) == (True, "A", False)


def test_a_resting_player_wins_when_the_others_go_out():
    # lives 2. Deal 1: A's Fool, B and C tied lowest among the others: all at 1, A rests.
    # Deal 2: B and C tie and leave together: A, resting, is the last one left.
    state = play(ABC, [deal(A="fool", B="I", C="I"), deal(B="V", C="V")], lives=2)
    assert (state.finished, state.winner, state.draw) == (True, "A", False)
    assert state.out == ("B", "C")


def test_no_deal_after_the_end():
    expect_error(
        cuckoo.ERR_GAME_OVER, ABC, [deal(A="fool", B="I", C="I"), deal(A="I", B="II", C="V")], 1
    )


# --- the dealer -----------------------------------------------------------------------------


def test_the_dealer_moves_to_the_next_surviving_seat():
    deals = [deal(A="X", B="I", C="XI", D="XII"), deal(A="X", C="I", D="II")]
    state = play(ABCD, deals, lives=1)
    assert [r.dealer for r in state.history] == ["A", "C"]  # B left in deal 1
    assert state.out == ("B", "C")
    assert state.dealer == "D"


def test_the_dealer_wraps_round_the_table_and_skips_the_seats_of_players_out():
    deals = [
        deal(A="X", B="XI", C="XII", D="I"),  # D 2
        deal(A="X", B="XI", C="XII", D="I"),  # D 1
        deal(A="X", B="XI", C="I", D="XII"),  # C 2
        deal(A="X", B="XI", C="XII", D="I"),  # D out
    ]
    state = play(ABCD, deals)
    assert [r.dealer for r in state.history] == ["A", "B", "C", "D"]
    assert state.out == ("D",)
    assert state.dealer == "A"
    for cards in ({"A": "I", "B": "V", "C": "X"}, {"A": "V", "B": "I", "C": "X"}):
        state = play_deal(state, {"cards": cards})
    assert [r.dealer for r in state.history[4:]] == ["A", "B"]
    assert state.dealer == "C"
    state = play_deal(state, deal(A="I", B="V", C="X"))
    assert state.dealer == "A"  # D's seat is passed over
    assert state.lives == {"A": 1, "B": 2, "C": 2, "D": 0}


def test_a_resting_player_can_deal():
    state = play(ABCD, [deal(A="V", B="fool", C="VI", D="VII")])
    assert state.resting == ("B",)
    assert state.dealer == "B"


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [["A", "B"], [f"p{i}" for i in range(13)]])
def test_three_to_twelve_players(players):
    error = expect_error(cuckoo.ERR_PLAYER_COUNT, players, [])
    assert error.params == {"count": len(players)}


def test_players_are_a_list_of_distinct_names():
    expect_error(cuckoo.ERR_PLAYERS_TYPE, "ABC", [])
    expect_error(cuckoo.ERR_PLAYER_TWICE, ["A", "B", "A"], [])
    expect_error(cuckoo.ERR_PLAYER_NAME, ["A", "B", None], [])
    assert play(list(range(12)), []).taking_part == tuple(range(12))


@pytest.mark.parametrize("lives", [0, -1, "3", True, 2.5, None])
def test_lives_are_a_positive_whole_number(lives):
    expect_error(cuckoo.ERR_LIVES, ABC, [], lives)


def test_deals_and_deal_shapes():
    expect_error(cuckoo.ERR_DEALS_TYPE, ABC, None)
    expect_error(cuckoo.ERR_DEALS_TYPE, ABC, "deal")
    expect_error(cuckoo.ERR_DEAL_TYPE, ABC, [None])
    expect_error(cuckoo.ERR_DEAL_TYPE, ABC, [{"cards": ["I", "II", "III"]}])
    error = expect_error(cuckoo.ERR_DEAL_FIELD, ABC, [{"cards": {}, "dealer": "A"}])
    assert error.params == {"field": "dealer"}


def test_every_player_taking_part_needs_a_card():
    error = expect_error(cuckoo.ERR_CARD_MISSING, ABC, [deal(A="I", C="II")])
    assert error.params == {"player": "B"}
    expect_error(cuckoo.ERR_CARD_MISSING, ABC, [{}])


def test_an_unknown_player_cannot_play():
    error = expect_error(cuckoo.ERR_UNKNOWN_PLAYER, ABC, [deal(A="I", B="II", C="III", Z="V")])
    assert error.params == {"player": "Z"}


def test_a_player_who_is_out_cannot_play():
    deals = [deal(A="I", B="II", C="III", D="IV"), deal(A="V", B="I", C="II", D="III")]
    error = expect_error(cuckoo.ERR_PLAYER_OUT, ABCD, deals, 1)
    assert error.params == {"player": "A"}


def test_a_resting_player_cannot_play():
    deals = [deal(A="fool", B="I", C="II", D="III"), deal(A="I", B="II", C="III", D="IV")]
    error = expect_error(cuckoo.ERR_PLAYER_RESTING, ABCD, deals)
    assert error.params == {"player": "A"}


@pytest.mark.parametrize("card", ["joker", "XIII", "", 5, None, "1"])
def test_only_cuckoo_ranks(card):
    error = expect_error(cuckoo.ERR_RANK, ABC, [deal(A=card, B="I", C="II")])
    assert error.params == {"rank": card}


def test_at_most_two_cards_of_a_rank():
    error = expect_error(cuckoo.ERR_RANK_COUNT, ABCD, [deal(A="fool", B="Fool", C="fool", D="I")])
    assert error.params == {"count": 3, "rank": "fool"}


def test_swap_loss_errors():
    cards = {"A": "I", "B": "II", "C": "III", "D": "IV"}

    def swaps(losses):
        return [{"cards": cards, "swap_losses": losses}]

    expect_error(cuckoo.ERR_SWAPS_TYPE, ABCD, swaps([1]))
    expect_error(cuckoo.ERR_UNKNOWN_PLAYER, ABCD, swaps({"Z": 1}))
    for bad in ("1", True, 1.0):
        error = expect_error(cuckoo.ERR_SWAP_INT, ABCD, swaps({"A": bad}))
        assert error.params == {"player": "A"}
    expect_error(cuckoo.ERR_SWAP_NEGATIVE, ABCD, swaps({"A": -1}))
    error = expect_error(cuckoo.ERR_SWAP_TOO_MANY, ABCD, swaps({"A": 4}))
    assert error.params == {"player": "A", "lives": 3, "lost": 4}


def test_the_swaps_cost_a_player_at_most_one_life_a_deal():
    cards = {"A": "I", "B": "II", "C": "cat", "D": "IV"}
    error = expect_error(cuckoo.ERR_SWAP_ONE_TURN, ABCD, [deal({"B": 2}, **cards)])
    assert error.params == {"player": "B", "lost": 2}
    assert play(ABCD, [deal({"B": 1, "D": 1}, **cards)]).lives == {"A": 2, "B": 2, "C": 3, "D": 2}


def test_a_loss_in_the_swaps_needs_a_dragoon_or_a_cat_unless_the_dealer_drew_it():
    plain = {"A": "I", "B": "II", "C": "III", "D": "IV"}
    error = expect_error(cuckoo.ERR_SWAP_NO_GUARD, ABCD, [deal({"B": 1}, **plain)])
    assert error.params == {"player": "B"}
    for guard in ("dragoon", "cat"):
        assert play(ABCD, [deal({"B": 1}, **{**plain, "D": guard})]).lives["B"] == 2
    # A deals the first deal: drawing from the stock, the dealer may lose without a guard
    assert play(ABCD, [deal({"A": 1}, **plain)]).lives["A"] == 1  # the swap, then the lowest
    # the second deal is B's: then A may not
    state = play(ABCD, [deal(A="V", B="VI", C="VII", D="IV")])
    assert state.dealer == "B"
    with pytest.raises(RuleError) as info:
        play_deal(state, deal({"A": 1}, **plain))
    assert info.value.template == cuckoo.ERR_SWAP_NO_GUARD
    assert play_deal(state, deal({"B": 1}, **plain)).lives["B"] == 2


def test_swap_losses_of_a_resting_or_out_player_are_refused():
    state = play(ABCD, [deal(A="fool", B="I", C="II", D="III")], lives=1)  # A, B out
    cards = {"C": "V", "D": "VI"}
    with pytest.raises(RuleError) as info:
        play_deal(state, {"cards": cards, "swap_losses": {"A": 1}})
    assert info.value.template == cuckoo.ERR_PLAYER_OUT
    state = play(ABCD, [deal(A="fool", B="I", C="II", D="III")])  # A rests
    with pytest.raises(RuleError) as info:
        play_deal(state, {"cards": {"B": "V", "C": "VI", "D": "VII"}, "swap_losses": {"A": 1}})
    assert info.value.template == cuckoo.ERR_PLAYER_RESTING


# --- properties -----------------------------------------------------------------------------

DECK = [rank for rank in RANKS for _ in range(2)]


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_lives_only_go_down_and_every_match_ends(data):
    count = data.draw(st.integers(3, 12), label="players")
    lives = data.draw(st.integers(1, 3), label="lives")
    players = [f"p{i}" for i in range(count)]
    state = start(players, lives)
    # every deal that is not skipped costs a life, and a skipped deal brings the resting
    # players back, so two deals in a row always cost at least one life
    limit = 2 * lives * count
    for _ in range(limit):
        if state.finished:
            break
        taking = state.taking_part
        record: dict = {"cards": {}, "swap_losses": {}}
        if len(taking) >= 2:
            picks = data.draw(
                st.lists(
                    st.integers(0, len(DECK) - 1),
                    min_size=len(taking),
                    max_size=len(taking),
                    unique=True,
                )
            )
            record["cards"] = {p: DECK[i] for p, i in zip(taking, picks, strict=True)}
            guarded = any(card in ("dragoon", "cat") for card in record["cards"].values())
            for p in taking:
                # one life at most (one turn a deal), and only against a Dragoon or a Cat,
                # or by the dealer drawing from the stock
                if (guarded or p == state.dealer) and data.draw(st.integers(0, 9)) == 0:
                    record["swap_losses"][p] = 1
        before = state
        state = play_deal(state, record)
        # lives never increase, and a player out stays out with 0 lives
        assert all(state.lives[p] <= before.lives[p] for p in players)
        assert all(state.lives[p] == 0 for p in state.out)
        assert len(set(state.out)) == len(state.out)
        assert set(state.out) == {p for p in players if state.lives[p] == 0}
        alive = [p for p in players if state.lives[p] > 0]
        assert state.finished == (len(alive) <= 1)
        if state.finished:
            assert state.draw == (not alive)
            assert state.winner == (alive[0] if alive else None)
        else:
            assert set(state.taking_part) | set(state.resting) == set(alive)
            assert state.dealer in alive
    assert state.finished
    assert not (state.winner is not None and state.draw)
