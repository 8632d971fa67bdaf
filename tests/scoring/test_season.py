"""The season's formulas and tie-breaks (scoring.season), case by case and as properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.season import (
    AVERAGE,
    BEATEN,
    BEST,
    DEFAULT_POINTS,
    FIGURES,
    PLACES,
    SCORE,
    TOTAL,
    Entrant,
    Formula,
    Result,
    beaten,
    casual_results,
    parse_points,
    place_points,
    places,
    rank,
    tournament_results,
)

NAMES = {p: p for p in "ABCDEFGH"}
EVENINGS = ["e1", "e2", "e3"]


def ranks(lines):
    return [(r.player, r.rank, r.tied) for r in lines]


def test_places_share_equal_scores():
    assert places({"A": 10, "B": 30, "C": 10, "D": -5}) == {"A": 2, "B": 1, "C": 2, "D": 4}


def test_total_sums_every_evening_and_breaks_ties_by_evenings_won():
    results = {
        # A and B both total 30; A won an evening, B did not
        "A": {"e1": Result(40, 1), "e2": Result(-10, 3)},
        "B": {"e1": Result(15, 2), "e2": Result(15, 2)},
        "C": {"e2": Result(50, 1)},
    }
    lines = rank(results, Formula(TOTAL), names=NAMES, order=EVENINGS)
    assert ranks(lines) == [("C", 1, False), ("A", 2, False), ("B", 3, False)]
    assert lines[1].value == 30 and lines[2].value == 30


def test_then_best_single_evening_then_name_shares_the_rank():
    results = {
        # same total, one win each; A's best evening is higher
        "A": {"e1": Result(50, 1), "e2": Result(-20, 4)},
        "B": {"e1": Result(10, 3), "e2": Result(20, 1)},
        # D and C: equal on everything → the same rank, listed by name
        "D": {"e3": Result(30, 1)},
        "C": {"e3": Result(30, 1)},
    }
    lines = rank(results, Formula(TOTAL), names=NAMES, order=EVENINGS)
    assert ranks(lines) == [("A", 1, False), ("C", 2, True), ("D", 2, True), ("B", 4, False)]


def test_best_n_keeps_the_best_evenings_only():
    results = {
        "A": {"e1": Result(10, 2), "e2": Result(-30, 3), "e3": Result(20, 1)},
        "B": {"e1": Result(25, 1), "e2": Result(5, 2)},
    }
    lines = rank(results, Formula(BEST, best_n=2), names=NAMES, order=EVENINGS)
    a = next(r for r in lines if r.player == "A")
    assert a.value == 30 and a.counted == {"e1", "e3"}
    # B: 30 too, one win each; best evening 25 beats A's 20
    assert ranks(lines) == [("B", 1, False), ("A", 2, False)]


def test_best_n_on_equal_evenings_counts_the_earlier():
    lines = rank(
        {"A": {"e1": Result(10, 1), "e2": Result(10, 1), "e3": Result(10, 1)}},
        Formula(BEST, best_n=2),
        names=NAMES,
        order=EVENINGS,
    )
    assert lines[0].counted == {"e1", "e2"}


def test_points_by_place_with_ties_at_the_top():
    table = (10, 6, 4)
    results = {
        "A": {"e1": Result(50, 1), "e2": Result(0, 2)},  # 10 + 6
        "B": {"e1": Result(50, 1), "e2": Result(0, 2)},  # 10 + 6, tied with A entirely
        "C": {"e1": Result(-10, 3), "e2": Result(60, 1), "e3": Result(5, 4)},  # 4 + 10 + 0
    }
    lines = rank(results, Formula(PLACES, points=table), names=NAMES, order=EVENINGS)
    assert [r.value for r in lines] == [16, 16, 14]
    assert ranks(lines) == [("A", 1, True), ("B", 1, True), ("C", 3, False)]
    assert lines[2].values == {"e1": 4, "e2": 10, "e3": 0}


def test_points_by_place_best_n():
    results = {
        "A": {"e1": Result(0, 1), "e2": Result(0, 5), "e3": Result(0, 2)},
        "B": {"e1": Result(0, 2), "e2": Result(0, 1)},
    }
    lines = rank(results, Formula(PLACES, best_n=2), names=NAMES, order=EVENINGS)
    # A: 25 + 20 (the 11 of 5th does not count); B: 20 + 25; equal wins, equal best → tied
    assert [r.value for r in lines] == [45, 45]
    assert ranks(lines) == [("A", 1, True), ("B", 1, True)]


def test_average_ranks_only_who_came_often_enough():
    results = {
        "A": {"e1": Result(40, 1, rounds=4), "e2": Result(0, 2, rounds=4)},  # 5 a round
        "B": {"e1": Result(100, 1, rounds=2)},  # 50 a round, but one evening only
        "C": {"e1": Result(-8, 3, rounds=4), "e2": Result(16, 1, rounds=4)},  # 1 a round
        "D": {"e2": Result(20, 1, rounds=4)},  # 5 a round, one evening only
    }
    lines = rank(results, Formula(AVERAGE, min_attendance=2), names=NAMES, order=EVENINGS)
    assert ranks(lines) == [
        ("A", 1, False),
        ("C", 2, False),
        ("B", None, False),
        ("D", None, False),
    ]
    assert lines[0].value == Fraction(5) and lines[2].value == 50
    assert [r.ranked for r in lines] == [True, True, False, False]


def test_average_ties_are_broken_by_wins():
    results = {
        "A": {"e1": Result(12, 2, rounds=3), "e2": Result(0, 2, rounds=1)},
        "B": {"e1": Result(4, 1, rounds=1)},
    }
    lines = rank(results, Formula(AVERAGE), names=NAMES, order=EVENINGS)
    assert ranks(lines) == [("B", 1, False), ("A", 2, False)]


def test_formula_needs_its_settings():
    with pytest.raises(ValueError):
        Formula(BEST)
    with pytest.raises(ValueError):
        Formula("median")
    with pytest.raises(ValueError):
        Formula(PLACES, best_n=0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("25, 20, 16", (25, 20, 16)), ("10;5 5 0", (10, 5, 5, 0)), ("7", (7,))],
)
def test_parse_points(text, expected):
    assert parse_points(text) == expected


@pytest.mark.parametrize("text", ["", "10, 20", "10, -1", "10, x", "1.5"])
def test_parse_points_refuses(text):
    with pytest.raises(ValueError):
        parse_points(text)


def test_place_points_past_the_table_is_zero():
    assert place_points(1, DEFAULT_POINTS) == 25
    assert place_points(15, DEFAULT_POINTS) == 1
    assert place_points(16, DEFAULT_POINTS) == 0


def test_tournament_results_break_ties_by_tables_topped_then_best_round():
    entrants = [
        Entrant("A", "A", {"g1": 20, "g3": 0}),  # total 20, topped g1
        Entrant("B", "B", {"g1": -20, "g4": 40}),  # total 20, topped g4 → same tops...
        Entrant("C", "C", {"g2": 10, "g3": 10}),  # total 20, topped g2 and g3
        Entrant("D", "D", {}),  # registered, never played: no result
    ]
    tables = {"g1": ["A", "B"], "g2": ["C"], "g3": ["A", "C"], "g4": ["B"]}
    out = tournament_results(entrants, tables)
    assert out["C"] == Result(20, 1, 2)
    assert out["B"].place == 2  # one top, best round 40
    assert out["A"].place == 3  # one top, best round 20
    assert "D" not in out


def test_casual_results_sum_a_day_of_games():
    out = casual_results({"g1": {"A": 30, "B": -30}, "g2": {"A": -50, "C": 50}})
    assert out == {"A": Result(-20, 2, 2), "B": Result(-30, 3, 1), "C": Result(50, 1, 1)}


# Seasons of the other games: each game's figure, then the same formulas and tie rules ------------


def test_the_figures_a_game_can_give():
    assert set(FIGURES) == {SCORE, BEATEN}


def test_beaten_counts_the_players_finished_below_and_ties_beat_nobody_among_them():
    # Fool's Faith at five: the winner, two level on challenge cards, then two level last
    assert beaten({"A": 1, "B": 2, "C": 2, "D": 4, "E": 4}) == {
        "A": 4, "B": 2, "C": 2, "D": 0, "E": 0,
    }  # fmt: skip
    # a Cuckoo draw: everybody shares the first place, nobody beats anybody
    assert beaten({"A": 1, "B": 1, "C": 1}) == {"A": 0, "B": 0, "C": 0}


def _evening(tables):
    """An evening of place-ranked games ({game: {player: place}}) as the season counts it."""
    return casual_results({g: beaten(places) for g, places in tables.items()})


@pytest.fixture
def keys_season():
    """Three evenings of Keys of the Kingdom (places: the winner, then the most keys held).

    e1: A wins at four (beats 3), B second, C and D level last; E wins at two over F.
    e2: B wins at four over A, C, D (A second); E and F level at two (a draw of places).
    e3: A wins at three over C and D; B wins at three over E and F, who are level.
    """
    e1 = _evening({"g1": {"A": 1, "B": 2, "C": 3, "D": 3}, "g2": {"E": 1, "F": 2}})
    e2 = _evening({"g3": {"B": 1, "A": 2, "C": 3, "D": 4}, "g4": {"E": 1, "F": 1}})
    e3 = _evening({"g5": {"A": 1, "C": 2, "D": 3}, "g6": {"B": 1, "E": 2, "F": 2}})
    evenings = {"e1": e1, "e2": e2, "e3": e3}
    by_player = {}
    for e, results in evenings.items():
        for p, r in results.items():
            by_player.setdefault(p, {})[e] = r
    return evenings, by_player


def test_keys_evenings_add_up_the_players_beaten(keys_season):
    evenings, _ = keys_season
    assert evenings["e1"] == {
        "A": Result(3, 1, 1), "B": Result(2, 2, 1), "C": Result(0, 4, 1),
        "D": Result(0, 4, 1), "E": Result(1, 3, 1), "F": Result(0, 4, 1),
    }  # fmt: skip
    # e2: B 3, A 2, C 1, D 0, E 0, F 0 → E, F and D share the fourth place
    assert {p: (r.score, r.place) for p, r in evenings["e2"].items()} == {
        "B": (3, 1), "A": (2, 2), "C": (1, 3), "D": (0, 4), "E": (0, 4), "F": (0, 4),
    }  # fmt: skip
    # e3: A and B both beat two: they share the evening's win
    assert evenings["e3"]["A"] == Result(2, 1, 1) == evenings["e3"]["B"]


def test_keys_season_total_with_a_tie_broken_by_evenings_won(keys_season):
    _, by_player = keys_season
    lines = rank(by_player, Formula(TOTAL), names=NAMES, order=EVENINGS)
    # A: 3+2+2 = 7, B: 2+3+2 = 7, both won two evenings; A's best evening (3) equals B's (3):
    # they share the first rank. Then C 1+1+1 = 3, E 1+0+0 = 1, D 0, F 0 (D and F tied).
    assert [(r.player, int(r.value), r.wins) for r in lines[:2]] == [("A", 7, 2), ("B", 7, 2)]
    assert ranks(lines) == [
        ("A", 1, True), ("B", 1, True), ("C", 3, False), ("E", 4, False),
        ("D", 5, True), ("F", 5, True),
    ]  # fmt: skip


def test_keys_season_points_by_place_shares_the_points_of_a_shared_place(keys_season):
    _, by_player = keys_season
    lines = rank(by_player, Formula(PLACES, points=(10, 6, 4, 2)), names=NAMES, order=EVENINGS)
    by = {r.player: r for r in lines}
    assert by["A"].values == {"e1": 10, "e2": 6, "e3": 10}
    assert by["B"].values == {"e1": 6, "e2": 10, "e3": 10}
    assert by["C"].values == {"e1": 2, "e2": 4, "e3": 4}  # third behind the shared win on e3
    assert by["D"].values == {"e1": 2, "e2": 2, "e3": 2}  # always among the fourth
    assert int(by["A"].value) == int(by["B"].value) == 26 and by["A"].rank == by["B"].rank == 1


def test_keys_season_best_n_and_average(keys_season):
    _, by_player = keys_season
    best = {r.player: r for r in rank(by_player, Formula(BEST, best_n=1), names=NAMES)}
    assert best["A"].counted == frozenset({"e1"}) and int(best["A"].value) == 3
    assert best["B"].counted == frozenset({"e2"}) and int(best["B"].value) == 3
    assert best["A"].rank == best["B"].rank == 1 and best["A"].tied
    average = rank(
        {**by_player, "G": {"e1": Result(3, 1, 1)}},
        Formula(AVERAGE, min_attendance=2),
        names={**NAMES, "G": "G"},
        order=EVENINGS,
    )
    g = next(r for r in average if r.player == "G")
    assert not g.ranked and g.rank is None and average[-1] is g  # one evening: unranked
    a = next(r for r in average if r.player == "A")
    assert a.value == Fraction(7, 3) and a.rank == 1


def test_deaths_pot_season_counts_the_net_balance_and_ties_fall_to_the_name():
    # Death's Pot: each game's net balance; two evenings, P and Q level on everything
    e1 = casual_results({"g1": {"P": 6, "Q": -2, "R": -4}, "g2": {"P": -6, "Q": 6}})
    e2 = casual_results({"g3": {"Q": 4, "P": 4, "R": -8}})
    assert e1["P"] == Result(0, 2, 2) and e1["Q"] == Result(4, 1, 2)
    assert e2["P"].place == e2["Q"].place == 1
    by_player = {}
    for e, results in {"e1": e1, "e2": e2}.items():
        for p, r in results.items():
            by_player.setdefault(p, {})[e] = r
    lines = rank(by_player, Formula(TOTAL), names={"P": "P", "Q": "Q", "R": "R"})
    # Q: 4+4 = 8 with two wins; P: 0+4 = 4 with one; R: −12
    assert [(r.player, int(r.value), r.wins, r.rank) for r in lines] == [
        ("Q", 8, 2, 1), ("P", 4, 1, 2), ("R", -12, 0, 3),
    ]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from("ABCDEFGH"), st.integers(1, 8), min_size=1))
def test_beaten_is_the_count_of_worse_places(table):
    out = beaten(table)
    assert set(out) == set(table)
    for p, place in table.items():
        assert out[p] == sum(1 for q in table if table[q] > place)
    # a better place never beats fewer players; the unique best beats all the others
    for p in table:
        for q in table:
            if table[p] < table[q]:
                assert out[p] > out[q]
    best = min(table.values())
    if list(table.values()).count(best) == 1:
        winner = next(p for p in table if table[p] == best)
        assert out[winner] == len(table) - 1


# Properties -------------------------------------------------------------------------------------

players = st.sampled_from(list("ABCDEF"))
evenings = st.sampled_from(["e1", "e2", "e3", "e4", "e5"])
result = st.builds(
    Result,
    score=st.integers(-500, 500),
    place=st.integers(1, 20),
    rounds=st.integers(1, 6),
)
season = st.dictionaries(players, st.dictionaries(evenings, result, min_size=1), min_size=1)
ORDER = ["e1", "e2", "e3", "e4", "e5"]


@settings(max_examples=150, deadline=None)
@given(season, st.integers(5, 9))
def test_best_n_with_n_at_least_the_evenings_equals_the_total(results, n):
    total = rank(results, Formula(TOTAL), names=NAMES, order=ORDER)
    best = rank(results, Formula(BEST, best_n=n), names=NAMES, order=ORDER)
    assert [(r.player, r.value, r.rank) for r in total] == [
        (r.player, r.value, r.rank) for r in best
    ]


@settings(max_examples=150, deadline=None)
@given(season, st.integers(1, 5))
def test_best_n_never_beats_the_total_of_positive_evenings_nor_counts_more_than_n(results, n):
    for row in rank(results, Formula(BEST, best_n=n), names=NAMES, order=ORDER):
        assert len(row.counted) == min(n, row.attended)
        kept = sorted(row.values.values(), reverse=True)[:n]
        assert row.value == sum(kept)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=20).map(lambda v: sorted(v, reverse=True)))
def test_points_by_place_are_monotone_in_place(table):
    table = tuple(table)
    values = [place_points(p, table) for p in range(1, 25)]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))


@settings(max_examples=150, deadline=None)
@given(season)
def test_ranks_are_ordered_and_ties_share_a_rank(results):
    for formula in (Formula(TOTAL), Formula(PLACES), Formula(AVERAGE, min_attendance=2)):
        lines = rank(results, formula, names=NAMES, order=ORDER)
        ranked = [r for r in lines if r.ranked]
        assert all(not r.ranked for r in lines[len(ranked) :])  # unranked come last
        for i, row in enumerate(ranked):
            assert 1 <= row.rank <= i + 1
            if i:
                before = ranked[i - 1]
                assert before.value >= row.value
                if row.rank == before.rank:
                    assert (before.value, before.wins, before.best) == (
                        row.value,
                        row.wins,
                        row.best,
                    )
                else:
                    assert row.rank == i + 1
        assert sorted(r.player for r in lines) == sorted(results)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["g1", "g2", "g3"]),
        st.dictionaries(players, st.integers(-200, 200), min_size=1),
    )
)
def test_casual_places_follow_the_day_total(games):
    out = casual_results(games)
    for r in out.values():
        assert r.place == 1 + sum(1 for q in out.values() if q.score > r.score)
