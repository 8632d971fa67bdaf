"""Triplette movements (duplicate.md 1.6, 2.2): Stay (North-South teams keep their table) and
Howell (every team meets every other, lines from a card), checked independently of the
module's own `problems`: no team plays a set twice, no set at two tables at once, meetings as
even as can be, every set played as often, each team's lines and attacks balanced."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError
from scoring.movement import boards_of_set
from scoring.triplette import attacking_line
from scoring.triplette_movement import (
    HOWELL,
    STAY,
    Meeting,
    howell_movement,
    howell_starter,
    make,
    stay_movement,
)

NO_HOWELL = (4, 6, 10)  # no starter exists (exhaustive search, module docstring)


def check_hard_rules(mv):
    """Each round seats every team once at T tables playing T different sets; no team plays
    a set twice; the two teams of a table differ."""
    played: dict[int, list[int]] = {t: [] for t in range(1, mv.teams + 1)}
    for meetings in mv.rounds:
        assert [m.table for m in meetings] == list(range(1, mv.tables + 1))
        seated = [t for m in meetings for t in (m.ns, m.ew)]
        assert sorted(seated) == list(range(1, mv.teams + 1))
        sets = [m.board_set for m in meetings]
        assert len(set(sets)) == len(sets) and all(1 <= s <= mv.sets for s in sets)
        for m in meetings:
            played[m.ns].append(m.board_set)
            played[m.ew].append(m.board_set)
    for sets in played.values():
        assert len(sets) == len(set(sets)) == len(mv.rounds)
    assert mv.problems() == []


def attacks(mv, team: int, per_set: int) -> tuple[int, int]:
    """(boards attacked, boards defended) by a team over the session."""
    attacked = defended = 0
    for line in mv.card(team):
        for board in boards_of_set(line.board_set, per_set):
            if attacking_line(board) == line.line:
                attacked += 1
            else:
                defended += 1
    return attacked, defended


# --- cases --------------------------------------------------------------------------------------


def test_stay_of_three_tables_moves_east_west_teams_and_sets_up_one_table():
    mv = stay_movement(6, 3)
    assert mv.rounds[0] == (Meeting(1, 1, 1, 4), Meeting(2, 2, 2, 5), Meeting(3, 3, 3, 6))
    # round 2: East-West team 4 (started at table 1) at table 2, table 1 plays set 2
    assert mv.rounds[1] == (Meeting(1, 2, 1, 6), Meeting(2, 3, 2, 4), Meeting(3, 1, 3, 5))
    assert mv.rounds[2] == (Meeting(1, 3, 1, 5), Meeting(2, 1, 2, 6), Meeting(3, 2, 3, 4))
    assert [c.table for c in mv.card(4)] == [1, 2, 3]
    assert [c.line for c in mv.card(4)] == ["EW"] * 3
    assert mv.repeats() == 0


def test_stay_of_two_tables_repeats_its_pairs_in_the_second_round():
    # moving East-West would give them their first set again (a + b = 0 twice): with 2 tables
    # the second round can only change the sets, and both pairs meet again
    mv = stay_movement(4, 2)
    assert [(m.ns, m.ew, m.board_set) for m in mv.rounds[1]] == [(1, 3, 2), (2, 4, 1)]
    assert mv.repeats() == 2 and stay_movement(4, 1).repeats() == 0


def test_howell_of_eight_teams_round_one_and_cards():
    mv = howell_movement(8)
    assert howell_starter(4) == (0, 2, 4, 1)
    assert mv.rounds[0] == (
        Meeting(1, 1, 1, 8),
        Meeting(2, 3, 2, 7),
        Meeting(3, 5, 6, 3),
        Meeting(4, 2, 4, 5),
    )
    card = mv.card(8)
    assert [c.table for c in card] == [1] * 7
    assert [c.opponent for c in card] == [1, 2, 3, 4, 5, 6, 7]
    assert [c.line for c in card] == ["EW", "NS", "EW", "NS", "EW", "NS", "EW"]
    assert sorted(c.board_set for c in card) == list(range(1, 8))


@pytest.mark.parametrize("teams", NO_HOWELL)
def test_no_howell_for_4_6_and_10_teams(teams):
    assert howell_starter(teams // 2) is None
    with pytest.raises(RuleError):
        howell_movement(teams)


@pytest.mark.parametrize(
    ("teams", "rounds"), [(3, 1), (2, 1), (0, 1), (8, 0), (8, 5), (-4, 1), ("8", 1), (8, "2")]
)
def test_bad_sizes_are_refused(teams, rounds):
    with pytest.raises(RuleError):
        stay_movement(teams, rounds)


def test_howell_rounds_are_refused_beyond_one_round_a_pair():
    with pytest.raises(RuleError):
        howell_movement(8, 8)
    assert len(make(HOWELL, 8, 3).rounds) == 3 and make(STAY, 8, 3).kind == STAY


# --- properties ---------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(tables=st.integers(2, 30), data=st.data())
def test_stay_keeps_the_rules(tables, data):
    rounds = data.draw(st.integers(1, tables))
    mv = stay_movement(2 * tables, rounds)
    check_hard_rules(mv)
    for meetings in mv.rounds:
        assert [m.ns for m in meetings] == list(range(1, tables + 1))  # N-S stay
        assert all(m.ew > tables for m in meetings)
    # every set played once a round; meetings: none again, but the T-th round of an even T
    assert set(mv.plays().values()) == {rounds}
    meet = mv.meetings()
    assert all(len(pair) == 2 and min(pair) <= tables < max(pair) for pair in meet)
    if tables % 2 or rounds < tables:
        assert max(meet.values()) == 1
    else:  # a_r and a_r + b_r cannot both be all different mod an even T: one round again
        assert mv.repeats() == tables and max(meet.values()) == 2


@settings(max_examples=40, deadline=None)
@given(teams=st.integers(2, 16).map(lambda n: 2 * n).filter(lambda n: n not in NO_HOWELL))
def test_a_full_howell_meets_every_pair_once_and_plays_every_set_as_often(teams):
    mv = howell_movement(teams)
    tables = teams // 2
    assert len(mv.rounds) == mv.sets == teams - 1
    check_hard_rules(mv)
    meet = mv.meetings()
    assert set(meet) == {frozenset(p) for p in combinations(range(1, teams + 1), 2)}
    assert set(meet.values()) == {1}
    # every board played by T tables: graded on the same scale
    assert set(mv.plays().values()) == {tables}
    for team in range(1, teams + 1):
        lines = Counter(c.line for c in mv.card(team))
        assert abs(lines["NS"] - lines["EW"]) == 1  # teams − 1 rounds: odd
        # boards of 4 a set (takers N, E, S, W): each team attacks half of what it plays
        assert attacks(mv, team, 4) == (2 * (teams - 1), 2 * (teams - 1))


@settings(max_examples=40, deadline=None)
@given(
    teams=st.integers(2, 16).map(lambda n: 2 * n).filter(lambda n: n not in NO_HOWELL),
    data=st.data(),
)
def test_a_shorter_howell_keeps_the_rules(teams, data):
    rounds = data.draw(st.integers(1, teams - 1))
    mv = howell_movement(teams, rounds)
    check_hard_rules(mv)
    assert max(mv.meetings().values()) == 1
    assert max(mv.plays().values()) <= teams // 2
    for team in range(1, teams + 1):
        lines = Counter(c.line for c in mv.card(team))
        assert abs(lines["NS"] - lines["EW"]) <= 2
