"""Keys of the Kingdom: validating a game and the standings over many games."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError, keys
from scoring.keys import check_game, standings


def game(**overrides):
    base = {
        "suits": {"Ann": "hearts", "Bob": "spades", "Cas": "clubs"},
        "winner": "Ann",
        "keys": {"Bob": 3, "Cas": 0},
    }
    base.update(overrides)
    return base


def expect_error(template: str, record) -> RuleError:
    with pytest.raises(RuleError) as info:
        check_game(record)
    assert info.value.template == template
    # standings refuse the same game with the same message
    with pytest.raises(RuleError) as again:
        standings([game(), record])
    assert again.value.template == template
    return info.value


# --- check_game -----------------------------------------------------------------------------


def test_a_valid_game_is_returned_cleaned_up():
    checked = check_game(game(suits={"Ann": " Hearts", "Bob": "SPADES", "Cas": "clubs"}))
    assert checked.suits == {"Ann": "hearts", "Bob": "spades", "Cas": "clubs"}
    assert checked.winner == "Ann"
    assert checked.keys == {"Bob": 3, "Cas": 0}
    assert checked.guards == {}
    assert checked.players == ("Ann", "Bob", "Cas")
    assert checked.losers == ("Bob", "Cas")


def test_two_and_four_players_are_fine():
    check_game({"suits": {"A": "hearts", "B": "clubs"}, "winner": "B", "keys": {"A": 5}})
    four = {"A": "hearts", "B": "spades", "C": "diamonds", "D": "clubs"}
    check_game({"suits": four, "winner": "D", "keys": {"A": 0, "B": 1, "C": 5}})


def test_the_winner_may_be_given_with_all_five_keys():
    checked = check_game(game(keys={"Ann": 5, "Bob": 3, "Cas": 0}))
    assert checked.keys == {"Bob": 3, "Cas": 0}


@pytest.mark.parametrize("held", [0, 4, 6])
def test_the_winner_cannot_hold_fewer_or_more_than_five_keys(held):
    error = expect_error(keys.ERR_WINNER_KEYS, game(keys={"Ann": held, "Bob": 3, "Cas": 0}))
    assert error.params == {"player": "Ann", "keys": held}


def test_a_loser_may_hold_all_five_keys():
    assert check_game(game(keys={"Bob": 5, "Cas": 5})).keys == {"Bob": 5, "Cas": 5}


def test_guards_are_optional_and_may_cover_some_players():
    assert check_game(game(guards=None)).guards == {}
    checked = check_game(game(guards={"Cas": 2, "Ann": 0}))
    assert checked.guards == {"Ann": 0, "Cas": 2}


@pytest.mark.parametrize("record", [None, "game", ["Ann"]])
def test_a_game_must_be_a_dict(record):
    with pytest.raises(RuleError) as info:
        check_game(record)
    assert info.value.template == keys.ERR_GAME_TYPE


def test_unknown_fields_are_refused():
    error = expect_error(keys.ERR_GAME_FIELD, game(excuse="Ann"))
    assert error.params == {"field": "excuse"}


@pytest.mark.parametrize("suits", [None, ["hearts", "spades"], "hearts"])
def test_suits_must_be_a_dict(suits):
    expect_error(keys.ERR_SUITS_TYPE, game(suits=suits))


@pytest.mark.parametrize(
    "suits",
    [
        {"Ann": "hearts"},
        {"A": "hearts", "B": "spades", "C": "diamonds", "D": "clubs", "E": "hearts"},
    ],
)
def test_two_to_four_players(suits):
    error = expect_error(keys.ERR_PLAYER_COUNT, game(suits=suits))
    assert error.params == {"count": len(suits)}


@pytest.mark.parametrize("suit", ["trumps", "coeur", "", 1, None])
def test_only_the_four_suits(suit):
    expect_error(keys.ERR_SUIT_UNKNOWN, game(suits={"Ann": "hearts", "Bob": "spades", "Cas": suit}))


def test_each_player_has_a_different_suit():
    error = expect_error(
        keys.ERR_SUIT_TWICE, game(suits={"Ann": "hearts", "Bob": "spades", "Cas": "Hearts"})
    )
    assert error.params == {"player": "Cas", "suit": "hearts"}


def test_players_must_be_named():
    expect_error(
        keys.ERR_PLAYER_NAME,
        {"suits": {"": "hearts", "Bob": "spades"}, "winner": "Bob", "keys": {"": 1}},
    )


def test_the_winner_is_required_and_at_the_table():
    expect_error(keys.ERR_WINNER_MISSING, game(winner=None))
    record = game()
    del record["winner"]
    expect_error(keys.ERR_WINNER_MISSING, record)
    error = expect_error(keys.ERR_UNKNOWN_PLAYER, game(winner="Zoe"))
    assert error.params == {"player": "Zoe"}
    expect_error(keys.ERR_UNKNOWN_PLAYER, game(winner=["Ann"]))


def test_keys_must_cover_every_loser():
    error = expect_error(keys.ERR_KEYS_MISSING, game(keys={"Bob": 3}))
    assert error.params == {"player": "Cas"}
    expect_error(keys.ERR_KEYS_TYPE, game(keys=None))
    expect_error(keys.ERR_KEYS_TYPE, game(keys=[3, 0]))


def test_keys_of_a_player_not_in_the_game_are_refused():
    error = expect_error(keys.ERR_UNKNOWN_PLAYER, game(keys={"Bob": 3, "Cas": 0, "Dan": 1}))
    assert error.params == {"player": "Dan"}


@pytest.mark.parametrize("held", ["3", 3.0, True, None])
def test_keys_are_whole_numbers(held):
    error = expect_error(keys.ERR_KEYS_INT, game(keys={"Bob": held, "Cas": 0}))
    assert error.params == {"player": "Bob"}


@pytest.mark.parametrize("held", [-1, 6])
def test_a_loser_holds_zero_to_five_keys(held):
    error = expect_error(keys.ERR_KEYS_RANGE, game(keys={"Bob": held, "Cas": 0}))
    assert error.params == {"player": "Bob", "keys": held}


def test_guard_errors():
    expect_error(keys.ERR_GUARDS_TYPE, game(guards=[1, 2]))
    expect_error(keys.ERR_UNKNOWN_PLAYER, game(guards={"Dan": 1}))
    expect_error(keys.ERR_GUARDS_INT, game(guards={"Bob": "1"}))
    expect_error(keys.ERR_GUARDS_INT, game(guards={"Bob": False}))
    error = expect_error(keys.ERR_GUARDS_RANGE, game(guards={"Bob": 3}))
    assert error.params == {"player": "Bob", "guards": 3}
    expect_error(keys.ERR_GUARDS_RANGE, game(guards={"Bob": -1}))


# --- standings ------------------------------------------------------------------------------

LOG = [
    {"suits": {"A": "hearts", "B": "spades"}, "winner": "A", "keys": {"B": 3}},
    {
        "suits": {"A": "hearts", "B": "spades", "C": "clubs"},
        "winner": "C",
        "keys": {"A": 5, "B": 0},
    },
    {"suits": {"B": "diamonds", "C": "clubs"}, "winner": "B", "keys": {"B": 5, "C": 2}},
    {"suits": {"D": "hearts", "A": "spades"}, "winner": "D", "keys": {"A": 1}, "guards": {"D": 2}},
]


def test_standings_over_a_log_computed_by_hand():
    # A: 3 played, won game 1, lost games 2 (5 keys) and 4 (1 key): rate 1/3, average 3.
    # B: 3 played, won game 3, lost 1 (3 keys) and 2 (0 keys): rate 1/3, average 3/2.
    # C: 2 played, won game 2, lost game 3 (2 keys): rate 1/2, average 2.
    # D: 1 played, won it: rate 1, never lost.
    table = standings(LOG)
    a, b, c, d = (table.players[p] for p in "ABCD")
    assert (a.played, a.won, a.lost, a.keys_when_losing) == (3, 1, 2, 6)
    assert (a.win_rate, a.average_keys_when_losing) == (Fraction(1, 3), Fraction(3))
    assert (b.played, b.won, b.lost, b.keys_when_losing) == (3, 1, 2, 3)
    assert (b.win_rate, b.average_keys_when_losing) == (Fraction(1, 3), Fraction(3, 2))
    assert (c.played, c.won, c.win_rate, c.average_keys_when_losing) == (
        2,
        1,
        Fraction(1, 2),
        Fraction(2),
    )
    assert (d.played, d.won, d.lost, d.win_rate) == (1, 1, 0, Fraction(1))
    assert d.average_keys_when_losing is None
    assert list(table.players) == ["A", "B", "C", "D"]  # first appearance
    # by win rate, then games won; A and B are level and keep their first-appearance order
    assert table.ranking == ("D", "C", "A", "B")
    assert len(table.games) == 4
    assert table.games[3].guards == {"D": 2}


def test_no_games_no_standings():
    table = standings([])
    assert table.players == {}
    assert table.ranking == ()


@pytest.mark.parametrize("games", [None, "games", {"suits": {}}])
def test_games_must_be_a_list(games):
    with pytest.raises(RuleError) as info:
        standings(games)
    assert info.value.template == keys.ERR_GAMES_TYPE


def test_win_rate_is_exact():
    log = [
        {"suits": {"A": "hearts", "B": "spades"}, "winner": winner, "keys": {loser: 2}}
        for winner, loser in [("A", "B"), ("B", "A"), ("B", "A")]
    ]
    record = standings(log).players["A"]
    assert record.win_rate == Fraction(1, 3)
    assert isinstance(record.win_rate, Fraction)


# --- properties -----------------------------------------------------------------------------


@st.composite
def logs(draw):
    pool = ["p0", "p1", "p2", "p3", "p4", "p5"]
    log = []
    for _ in range(draw(st.integers(0, 12))):
        players = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=4, unique=True))
        suits = draw(st.permutations(keys.SUITS))
        winner = draw(st.sampled_from(players))
        held = {p: draw(st.integers(0, 5)) for p in players if p != winner}
        suit_of = dict(zip(players, suits, strict=False))
        log.append({"suits": suit_of, "winner": winner, "keys": held})
    return log


@settings(max_examples=150, deadline=None)
@given(logs())
def test_standings_add_up(log):
    table = standings(log)
    assert sum(r.won for r in table.players.values()) == len(log)
    assert sum(r.played for r in table.players.values()) == sum(len(g["suits"]) for g in log)
    for record in table.players.values():
        assert record.won + record.lost == record.played
        assert 0 <= record.win_rate <= 1
        if record.lost:
            assert 0 <= record.average_keys_when_losing <= 5
        else:
            assert record.average_keys_when_losing is None
    rates = [table.players[p].win_rate for p in table.ranking]
    assert rates == sorted(rates, reverse=True)
