"""Fool's Faith: rounds, challenge cards, ties, the dealer and every RuleError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError, foolsfaith
from scoring.foolsfaith import play, play_round, start

ABC = ["Ann", "Bob", "Cas"]


def rnd(ann: int, bob: int, cas: int) -> dict[str, int]:
    return {"Ann": ann, "Bob": bob, "Cas": cas}


def expect_error(template: str, players, rounds) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(players, rounds)
    assert info.value.template == template
    return info.value


# --- the rules ------------------------------------------------------------------------------


def test_a_new_game_starts_empty_with_the_youngest_dealing():
    state = play(ABC, [])
    assert state.cards == {"Ann": 0, "Bob": 0, "Cas": 0}
    assert state.stake == 1
    assert state.dealer == "Ann"  # players[0] is the youngest
    assert not state.finished
    assert state.winner is None
    assert state.round_winners == ()
    assert state.history == ()


def test_the_single_player_with_most_tricks_takes_a_card_and_deals_next():
    state = play(ABC, [rnd(2, 5, 1)])
    assert state.cards == {"Ann": 0, "Bob": 1, "Cas": 0}
    assert state.round_winners == ("Bob",)
    assert state.dealer == "Bob"
    assert state.stake == 1
    assert not state.finished


def test_the_game_ends_when_a_player_holds_two_cards():
    state = play(ABC, [rnd(2, 5, 1), rnd(4, 1, 3), rnd(1, 4, 3)])
    assert state.cards == {"Ann": 1, "Bob": 2, "Cas": 0}
    assert state.finished
    assert state.winner == "Bob"
    assert state.dealer is None
    assert state.round_winners == ("Bob", "Ann", "Bob")


def test_a_tie_gives_no_card_doubles_the_stake_and_the_dealer_deals_again():
    state = play(ABC, [rnd(2, 5, 1), rnd(3, 3, 2)])
    assert state.cards == {"Ann": 0, "Bob": 1, "Cas": 0}
    assert state.round_winners == ("Bob", None)
    assert state.stake == 2
    assert state.dealer == "Bob"  # house default: the dealer of the tied round deals again
    last = state.history[-1]
    assert last.winner is None
    assert last.tied == ("Ann", "Bob")
    assert last.cards_won == 0


def test_a_tie_in_the_first_round_keeps_the_first_dealer():
    state = play(ABC, [rnd(4, 4, 0)])
    assert state.dealer == "Ann"
    assert state.stake == 2


def test_the_winner_of_a_round_worth_two_wins_the_game_at_once():
    state = play(ABC, [rnd(3, 3, 2), rnd(1, 2, 5)])
    assert state.cards == {"Ann": 0, "Bob": 0, "Cas": 2}
    assert state.finished
    assert state.winner == "Cas"
    assert state.history[-1].stake == 2
    assert state.history[-1].cards_won == 2


def test_a_player_holding_one_card_who_wins_a_round_worth_two_ends_with_three():
    state = play(ABC, [rnd(5, 2, 1), rnd(3, 3, 2), rnd(6, 1, 1)])
    assert state.cards["Ann"] == 3
    assert state.winner == "Ann"


def test_a_further_tie_keeps_the_stake_at_two():
    state = play(ABC, [rnd(3, 3, 2), rnd(2, 3, 3), rnd(4, 0, 4)])
    assert state.stake == 2
    assert state.cards == {"Ann": 0, "Bob": 0, "Cas": 0}
    assert state.round_winners == (None, None, None)
    assert state.dealer == "Ann"
    assert not state.finished


def test_the_stake_is_one_again_after_a_round_is_won():
    state = play(ABC, [rnd(4, 2, 2)])
    assert state.stake == 1
    assert state.history[0].cards_won == 1


def test_a_three_way_tie_is_a_tie():
    state = play(["A", "B", "C", "D"], [{"A": 2, "B": 2, "C": 2, "D": 2}])
    assert state.history[0].tied == ("A", "B", "C", "D")
    assert state.stake == 2


def test_five_players_and_the_dealer_follows_each_round_winner():
    players = ["A", "B", "C", "D", "E"]
    rounds = [
        {"A": 0, "B": 0, "C": 4, "D": 2, "E": 2},
        {"A": 0, "B": 0, "C": 1, "D": 2, "E": 5},
    ]
    state = play(players, rounds)
    assert [r.dealer for r in state.history] == ["A", "C"]
    assert state.dealer == "E"


def test_tricks_and_rounds_won_are_totalled_for_standings():
    state = play(ABC, [rnd(2, 5, 1), rnd(3, 3, 2), rnd(1, 1, 6)])
    assert state.tricks == {"Ann": 6, "Bob": 9, "Cas": 9}
    assert state.rounds_won == {"Ann": 0, "Bob": 1, "Cas": 1}
    assert state.finished and state.winner == "Cas"


def test_history_holds_a_score_sheet_line_per_round():
    state = play(ABC, [rnd(2, 5, 1), rnd(4, 4, 0), rnd(8, 0, 0)])
    first, second, third = state.history
    assert (first.number, first.dealer, first.stake, first.winner) == (1, "Ann", 1, "Bob")
    assert first.tricks == rnd(2, 5, 1)
    assert first.cards == {"Ann": 0, "Bob": 1, "Cas": 0}
    assert (second.number, second.dealer, second.stake, second.winner) == (2, "Bob", 1, None)
    assert (third.number, third.dealer, third.stake, third.winner) == (3, "Bob", 2, "Ann")
    assert third.cards == {"Ann": 2, "Bob": 1, "Cas": 0}


def test_players_may_be_ids_and_play_round_extends_a_state():
    state = play_round(start([7, 3, 9]), {7: 1, 3: 1, 9: 6})
    assert state.cards == {7: 0, 3: 0, 9: 1}
    assert state.dealer == 9


def test_play_does_not_change_its_input():
    rounds = [rnd(2, 5, 1)]
    state = play(ABC, rounds)
    state.cards["Ann"] = 99
    assert rounds == [rnd(2, 5, 1)]
    assert play(ABC, rounds).cards["Ann"] == 0


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C", "D", "E", "F"], []])
def test_three_to_five_players(players):
    error = expect_error(foolsfaith.ERR_PLAYER_COUNT, players, [])
    assert error.params == {"count": len(players)}


@pytest.mark.parametrize("players", ["ABC", None, 3, {"A", "B", "C"}])
def test_players_must_be_a_list(players):
    expect_error(foolsfaith.ERR_PLAYERS_TYPE, players, [])


def test_players_must_be_distinct():
    error = expect_error(foolsfaith.ERR_PLAYER_TWICE, ["A", "B", "A"], [])
    assert error.params == {"player": "A"}


@pytest.mark.parametrize("bad", [None, "", ["x"]])
def test_players_must_be_named(bad):
    expect_error(foolsfaith.ERR_PLAYER_NAME, ["A", "B", bad], [])


@pytest.mark.parametrize("rounds", [None, "rounds", 5])
def test_rounds_must_be_a_list(rounds):
    expect_error(foolsfaith.ERR_ROUNDS_TYPE, ABC, rounds)


@pytest.mark.parametrize("round_", [None, [2, 5, 1], "8", 8])
def test_a_round_must_be_a_dict(round_):
    expect_error(foolsfaith.ERR_ROUND_TYPE, ABC, [round_])


def test_an_unknown_player_is_refused():
    error = expect_error(
        foolsfaith.ERR_UNKNOWN_PLAYER, ABC, [{"Ann": 2, "Bob": 5, "Cas": 0, "Dan": 1}]
    )
    assert error.params == {"player": "Dan"}


def test_every_player_must_be_present():
    error = expect_error(foolsfaith.ERR_MISSING_PLAYER, ABC, [{"Ann": 3, "Bob": 5}])
    assert error.params == {"player": "Cas"}


@pytest.mark.parametrize("bad", ["3", 3.0, True, None, [3]])
def test_tricks_must_be_whole_numbers(bad):
    error = expect_error(foolsfaith.ERR_TRICKS_TYPE, ABC, [{"Ann": bad, "Bob": 5, "Cas": 0}])
    assert error.params == {"player": "Ann"}


def test_tricks_cannot_be_negative():
    error = expect_error(foolsfaith.ERR_TRICKS_NEGATIVE, ABC, [rnd(-1, 5, 4)])
    assert error.params == {"player": "Ann"}


@pytest.mark.parametrize("tricks", [(2, 2, 2), (3, 3, 3), (0, 0, 0), (8, 1, 0)])
def test_tricks_must_add_up_to_eight(tricks):
    error = expect_error(foolsfaith.ERR_TRICKS_TOTAL, ABC, [rnd(*tricks)])
    assert error.params == {"total": sum(tricks)}


def test_no_round_after_the_game_is_over():
    error = expect_error(foolsfaith.ERR_GAME_OVER, ABC, [rnd(5, 2, 1), rnd(5, 2, 1), rnd(5, 2, 1)])
    assert error.params == {"winner": "Ann"}


def test_error_messages_are_plain_sentences():
    with pytest.raises(RuleError) as info:
        play(ABC, [rnd(3, 3, 3)])
    assert str(info.value) == "The tricks of a round must add up to 8, not 9."


# --- properties -----------------------------------------------------------------------------


@st.composite
def games(draw):
    """Players and up to 20 rounds, each dealing the 8 tricks among the players."""
    count = draw(st.integers(3, 5))
    players = [f"p{i}" for i in range(count)]
    rounds = []
    for _ in range(draw(st.integers(0, 20))):
        takers = draw(st.lists(st.integers(0, count - 1), min_size=8, max_size=8))
        rounds.append({p: takers.count(i) for i, p in enumerate(players)})
    return players, rounds


@settings(max_examples=200, deadline=None)
@given(games())
def test_cards_stay_within_the_deck_and_the_game_ends_exactly_at_two(game):
    players, rounds = game
    state = start(players)
    for tricks in rounds:
        if state.finished:
            with pytest.raises(RuleError):
                play_round(state, tricks)
            break
        before = state
        state = play_round(state, tricks)
        # no player ever holds more than 2 + 1 cards (1 held, then a round worth 2)
        assert max(state.cards.values()) <= 3
        # everyone else holds at most 1, so the 10 challenge cards never run out
        assert sum(state.cards.values()) <= len(players) + 2 <= 10
        # the game ends exactly when somebody holds 2 (or more)
        assert state.finished == (max(state.cards.values()) >= 2)
        if state.finished:
            assert state.cards[state.winner] >= 2
            assert state.dealer is None
        else:
            assert state.winner is None
            assert state.stake in (1, 2)
        # cards are only ever gained, by the round winner, by the stake of the round
        gained = {p: state.cards[p] - before.cards[p] for p in players}
        winner = state.round_winners[-1]
        assert gained == {p: (before.stake if p == winner else 0) for p in players}
        assert sum(state.tricks.values()) == 8 * len(state.history)
