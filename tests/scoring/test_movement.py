"""Duplicate movements (scoring.movement): the spec's worked 5-table movement, rule (a) always,
no two players meeting twice wherever the search can, for any number of tables."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError
from scoring.movement import (
    ORIENTATIONS,
    attacks,
    boards_of_set,
    default_movement,
    movement,
    taker_of,
)

# duplicate.md 1.6, the worked example: "set: players N E S W" per table (rows) and round
SPEC_5_TABLES = """
1: N1 E1 S1 W1 | 2: N1 E5 S4 W3 | 3: N1 E4 S2 W5 | 4: N1 E3 S5 W2 | 5: N1 E2 S3 W4
2: N2 E2 S2 W2 | 3: N2 E1 S5 W4 | 4: N2 E5 S3 W1 | 5: N2 E4 S1 W3 | 1: N2 E3 S4 W5
3: N3 E3 S3 W3 | 4: N3 E2 S1 W5 | 5: N3 E1 S4 W2 | 1: N3 E5 S2 W4 | 2: N3 E4 S5 W1
4: N4 E4 S4 W4 | 5: N4 E3 S2 W1 | 1: N4 E2 S5 W3 | 2: N4 E1 S3 W5 | 3: N4 E5 S1 W2
5: N5 E5 S5 W5 | 1: N5 E4 S3 W2 | 2: N5 E3 S1 W4 | 3: N5 E2 S4 W1 | 4: N5 E1 S2 W3
"""

#: Rounds for which the spec's arithmetic movement holds (a) and (c), by tables (1.6).
SPEC_DEFAULT_HOLDS = {3: 1, 4: 1, 6: 2, 8: 2, 9: 3, 10: 5, 12: 3}


def _cells(movement, round):
    return [
        f"{s.board_set}: " + " ".join(f"{o}{s.seats[o][1]}" for o in ORIENTATIONS)
        for s in movement.seating(round)
    ]


def _recount(m) -> tuple[int, set]:
    """Repeats and rule (a) breaks, counted from table_of/set_at alone."""
    players = [(o, t) for o in ORIENTATIONS for t in range(1, m.tables + 1)]
    met: Counter = Counter()
    twice = set()
    for p in players:
        sets = [m.set_at(m.table_of(p, r), r) for r in range(1, m.rounds + 1)]
        if len(set(sets)) < len(sets):
            twice.add(p)
    for a, b in combinations(players, 2):
        together = sum(m.table_of(a, r) == m.table_of(b, r) for r in range(1, m.rounds + 1))
        met[(a, b)] = together
    return sum(max(0, c - 1) for c in met.values()), twice


def test_the_default_movement_is_the_spec_worked_example():
    m = default_movement(5, 5)
    rows = [line.split(" | ") for line in SPEC_5_TABLES.strip().splitlines()]
    for round in range(1, 6):
        assert _cells(m, round) == [row[round - 1] for row in rows]
    board_set_1 = [next(s.table for s in m.seating(r) if s.board_set == 1) for r in range(1, 6)]
    assert board_set_1 == [1, 5, 4, 3, 2]  # as on p. 18


@pytest.mark.parametrize("tables", [5, 7, 11, 13])
def test_with_tables_prime_to_6_everybody_meets_every_other_line_once(tables):
    m = movement(tables, tables)
    assert m.problems() == []
    met = m.meetings()
    for a, b in combinations(m.players(), 2):
        expected = 1 if a[0] != b[0] else 0
        assert met[frozenset((a, b))] == expected, (a, b)


@pytest.mark.parametrize("tables, rounds", sorted(SPEC_DEFAULT_HOLDS.items()))
def test_the_search_does_at_least_as_well_as_the_spec_default(tables, rounds):
    plain = default_movement(tables, rounds)
    assert plain.problems() == [] and plain.repeats() == 0
    assert movement(tables, rounds).repeats() == 0
    # one round more: the default breaks (a) or (c); the search still holds (a)
    more = movement(tables, rounds + 1)
    worse = default_movement(tables, rounds + 1)
    assert more.problems() == []
    assert worse.problems() or worse.repeats() > 0
    assert more.repeats() <= worse.repeats() or worse.problems()


@pytest.mark.parametrize(
    "tables, rounds, at_most",
    [(4, 4, 28), (6, 6, 36), (8, 6, 0), (8, 8, 56), (10, 8, 10), (12, 8, 0), (16, 8, 0)],
)
def test_repeats_where_lines_must_meet_again(tables, rounds, at_most):
    m = movement(tables, rounds)
    assert m.problems() == []
    assert m.repeats() <= at_most


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 9).flatmap(lambda t: st.tuples(st.just(t), st.integers(1, t))))
def test_any_size_holds_rule_a_and_its_counts_are_right(size):
    tables, rounds = size
    m = movement(tables, rounds)
    repeats, twice = _recount(m)
    assert twice == set()  # nobody plays a set twice
    assert m.problems() == []
    assert m.repeats() == repeats
    for round in range(1, rounds + 1):
        seating = m.seating(round)
        assert sorted(s.board_set for s in seating) == list(range(1, tables + 1))
        seated = [p for s in seating for p in s.seats.values()]
        assert sorted(seated) == sorted(m.players())  # everybody seated once, own line
        assert all(o == p[0] for s in seating for o, p in s.seats.items())
        for s in seating:  # the guide card's "next table" is where the player sits next
            for o, p in s.seats.items():
                following = m.table_of(p, round + 1) if round < rounds else None
                assert s.next_table[o] == following


@pytest.mark.parametrize("tables, rounds", [(6, 6), (6, 5), (7, 7)])
def test_the_same_movement_on_every_run(tables, rounds):
    assert movement(tables, rounds) == movement(tables, rounds)


def test_with_four_boards_a_set_every_player_attacks_one_board_a_round():
    m = movement(8, 6)
    for player in m.players():
        taken = attacks(m, player, 4)
        assert len(taken) == 6
        assert all(taker_of(b) == player[0] for b in taken)
        assert len(set(taken)) == 6
    assert list(boards_of_set(3, 4)) == [9, 10, 11, 12]
    assert [taker_of(b) for b in range(1, 6)] == ["N", "E", "S", "W", "N"]


@pytest.mark.parametrize(
    "tables, rounds", [(0, 1), (3, 0), (3, 4), (True, 1), (2, 1.5), ("3", 1), (-1, -1)]
)
def test_impossible_sessions_are_refused(tables, rounds):
    with pytest.raises(RuleError):
        movement(tables, rounds)


@pytest.mark.parametrize("per_set", [0, -4, True, 2.0])
def test_a_set_holds_at_least_one_board(per_set):
    with pytest.raises(RuleError):
        boards_of_set(1, per_set)
