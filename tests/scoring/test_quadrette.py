"""Quadrettes (duplicate.md 2.3, 2.5): the movement of oppositions and the final match points."""

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import RuleError
from scoring import quadrette as rules
from scoring.movement import ORIENTATIONS
from scoring.quadrette import (
    boards_played,
    opponent,
    oppositions,
    ranking,
    round_tables,
    totals,
)

even_teams = st.integers(min_value=1, max_value=15).map(lambda n: 2 * n)


@given(even_teams, st.integers(min_value=1, max_value=20))
def test_each_round_pairs_every_team_once(teams, rounds):
    for pairs in oppositions(teams, rounds):
        seen = [n for pair in pairs for n in pair]
        assert sorted(seen) == list(range(1, teams + 1))
        assert all(a < b for a, b in pairs)


@given(even_teams, st.integers(min_value=1, max_value=20))
def test_no_pair_meets_twice_while_possible(teams, rounds):
    met = Counter(pair for pairs in oppositions(teams, rounds) for pair in pairs)
    # within one cycle of teams - 1 rounds every pair is new; then the cycle starts again
    cycles = -(-rounds // (teams - 1))
    assert max(met.values()) == cycles
    assert min(met.values()) >= rounds // (teams - 1)
    if rounds >= teams - 1:
        # a whole cycle: everybody met everybody
        assert len(met) == teams * (teams - 1) // 2


@given(even_teams, st.integers(min_value=1, max_value=20), st.integers(1, 8))
def test_tables_attackers_move_defences_stay_and_both_tables_play_the_same_boards(
    teams, rounds, per_round
):
    schedule = oppositions(teams, rounds)
    played_by = {}  # (team's attacker) -> boards
    for r, pairs in enumerate(schedule, start=1):
        tables = round_tables(pairs, r, per_round)
        # one table per team, the host's defence at its own table every round
        assert [t.table for t in tables] == list(range(1, teams + 1))
        assert all(t.host == t.table for t in tables)
        # every attacker plays once a round, never at his own team's table
        assert sorted(t.visitor for t in tables) == list(range(1, teams + 1))
        assert all(t.visitor != t.host for t in tables)
        by_table = {t.table: t for t in tables}
        for a, b in pairs:
            # A's attacker plays B's defence and B's attacker A's, on the same boards
            assert by_table[b].visitor == a and by_table[a].visitor == b
            assert by_table[a].boards == by_table[b].boards
        for t in tables:
            boards = played_by.setdefault(t.visitor, [])
            assert not set(boards) & set(t.boards)  # no attacker plays a board twice
            boards.extend(t.boards)
    # all teams play the same boards
    assert len({tuple(b) for b in played_by.values()}) == 1


def test_team_one_meets_the_others_in_order():
    schedule = oppositions(4, 3)
    assert [opponent(p, 1) for p in schedule] == [2, 3, 4]
    assert schedule[0] == [(1, 2), (3, 4)]


@pytest.mark.parametrize("teams", [0, 1, 3, 7, -2, True, "4"])
def test_odd_or_too_few_teams_are_refused(teams):
    with pytest.raises(RuleError):
        oppositions(teams, 1)


def test_no_round_is_refused():
    with pytest.raises(RuleError):
        oppositions(4, 0)


def _example_scores():
    """The worked result (2.5): team 1 (A) meets 2 (B) on boards 1–4, 3 (C) on 5–8. Keys are
    (round, table, board): A's attacker plays at the opponent's table."""
    rows = [
        (1, 2, 82, 66),
        (2, 2, -68, -58),
        (3, 2, 50, 50),
        (4, 2, 116, -52),
        (5, 3, 56, 106),
        (6, 3, -52, -52),
        (7, 3, 60, 50),
        (8, 3, 50, -56),
    ]
    scores = {}
    for board, other, own, theirs in rows:
        r = 1 if board <= 4 else 2
        scores[(r, other, board)] = own
        scores[(r, 1, board)] = theirs
    # the other opposition of each round (round 1: 3–4, round 2: 2–4), all equal
    for r, (x, y) in ((1, (3, 4)), (2, (2, 4))):
        for board in range(4 * r - 3, 4 * r + 1):
            scores[(r, x, board)] = scores[(r, y, board)] = 50
    return scores


def test_the_worked_quadrette_result():
    schedule = oppositions(4, 2)
    played, missing = boards_played(schedule, 4, _example_scores())
    assert missing == []
    result = totals(4, played)
    assert result[1] == Decimal("20.186")
    mine = [p for p in played if p.team == 1]
    assert [str(p.pm) for p in mine] == [
        "4.000",
        "-3.162",
        "0.000",
        "12.961",
        "-7.071",
        "0.000",
        "3.162",
        "10.296",
    ]
    # each opposition is zero-sum
    assert sum(result.values()) == 0
    assert ranking(result)[0] == (1, 1)


def test_a_board_counts_once_both_tables_played_it():
    schedule = oppositions(2, 1)
    played, missing = boards_played(schedule, 2, {(1, 1, 1): 50})
    assert played == []
    assert missing == [(1, 1, 2), (1, 2, 1), (1, 2, 2)]


def test_equal_totals_share_the_place():
    assert ranking(
        {1: Decimal("3.000"), 2: Decimal("-3.000"), 3: Decimal("0"), 4: Decimal("0")}
    ) == [
        (1, 1),
        (2, 3),
        (2, 4),
        (4, 2),
    ]


@given(
    even_teams.filter(lambda n: n <= 8),
    st.integers(1, 7),
    st.data(),
)
def test_match_points_are_zero_sum_and_each_board_counted_twice(teams, rounds, data):
    schedule = oppositions(teams, rounds)
    scores = {}
    for r, pairs in enumerate(schedule, start=1):
        for t in round_tables(pairs, r, 2):
            for b in t.boards:
                if data.draw(st.booleans()):
                    scores[(r, t.table, b)] = data.draw(st.integers(-300, 300).map(lambda x: 2 * x))
    played, missing = boards_played(schedule, 2, scores)
    assert len(played) % 2 == 0
    assert sum(totals(teams, played).values()) == 0
    assert len(missing) == 2 * rounds * teams - len(scores)


# --- the dealer once the hands are turned (open question 18) ----------------------------------


@given(st.integers(1, 64), st.sampled_from(ORIENTATIONS))
def test_turning_the_hands_keeps_the_lead_where_the_board_intends(board, dealer):
    from scoring.movement import lead_place, leader_of, taker_of

    taker = taker_of(board)
    turned = rules.turned_dealer(dealer, taker)
    # the taker's hand is South; the hand that leads leads from the same place for him
    assert lead_place("S", leader_of(turned)) == lead_place(taker, leader_of(dealer))
    # and the dealer is as far round from the taker as on the board
    assert (ORIENTATIONS.index(turned) - ORIENTATIONS.index("S")) % 4 == (
        ORIENTATIONS.index(dealer) - ORIENTATIONS.index(taker)
    ) % 4


def test_turned_dealers_by_hand():
    # taker marked North: the hands turn half round, North's dealer deals South, East's West
    assert rules.turned_dealer("N", "N") == "S"
    assert rules.turned_dealer("E", "N") == "W"
    # taker marked East: a quarter turn; the dealer marked South now sits West
    assert rules.turned_dealer("S", "E") == "W"
    # taker marked South: nothing turns
    assert [rules.turned_dealer(d, "S") for d in ORIENTATIONS] == list(ORIENTATIONS)
