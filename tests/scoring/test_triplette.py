"""Triplettes (duplicate.md 2.2): badges, rotation, the mapping onto the movement's seats."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError
from scoring.movement import movement, taker_of
from scoring.triplette import (
    BADGES,
    attack_order,
    attacker_badge,
    attacking_line,
    badges,
    draw_first_colour,
    from_individual,
    keys_of,
    schedule,
    seats,
    surname_key,
    table_teams,
)
from scoring.triplette_movement import howell_movement, stay_movement


def test_spec_example_rotation():
    # Dupont (Bleu), Martin (Blanc), Roux (Rouge), colour drawn Blanc
    names = ["Léa Roux", "Paul Dupont", "Anne Martin"]
    assert badges(names) == ["rouge", "bleu", "blanc"]
    assert attack_order(names, "blanc", 4) == [
        "Anne Martin",
        "Léa Roux",
        "Paul Dupont",
        "Anne Martin",
    ]


def test_surnames_without_case_or_accents():
    assert surname_key("élodie Écuyer") < surname_key("Jean Faure")
    # same surname: the whole name breaks the tie (Adam before Zoé)
    assert badges(["Zoé Dupont", "Adam Dupont", "Marc Bernard"]) == ["rouge", "blanc", "bleu"]


@pytest.mark.parametrize("count", [0, 2, 4])
def test_a_team_of_the_wrong_size_is_refused(count):
    with pytest.raises(RuleError):
        badges([f"P{i}" for i in range(count)])


def test_unknown_colour_refused():
    with pytest.raises(RuleError):
        attacker_badge("vert", 0)


def test_draw_is_seeded():
    assert draw_first_colour(7, 0) == draw_first_colour(7, 0)
    assert {draw_first_colour(s) for s in range(50)} == set(BADGES)


def test_lines_attack_their_marked_boards():
    assert [attacking_line(b) for b in range(1, 9)] == ["NS", "EW"] * 4


def test_seats_on_one_board():
    # board 2 is marked E: the E-W attacker sits East, N-S defends at S (front), W, N
    assert seats(2, "ew1", ["a", "b", "c"]) == {"E": "ew1", "S": "a", "W": "b", "N": "c"}
    assert seats(1, "ns1", ["a", "b", "c"]) == {"N": "ns1", "E": "a", "S": "b", "W": "c"}


@settings(deadline=None, max_examples=30)
@given(tables=st.integers(2, 7), per=st.sampled_from([4, 8]), data=st.data())
def test_schedule_rules(tables, per, data):
    rounds = data.draw(st.integers(1, tables))
    m = data.draw(
        st.sampled_from(
            [from_individual(movement(tables, rounds)), stay_movement(2 * tables, rounds)]
        )
    )
    deals = schedule(m, per)
    # every table plays every board of its set each round, one N-S and one E-W team a table
    assert len(deals) == tables * rounds * per
    for r in range(1, rounds + 1):
        teams = table_teams(m, r)
        assert sorted(ns for _, _, ns, _ in teams) == [("NS", t) for t in range(1, tables + 1)]
        assert sorted(ew for _, _, _, ew in teams) == [("EW", t) for t in range(1, tables + 1)]
    # no team plays a board twice (rule a)
    played = Counter()
    for d in deals:
        played[(d.north_south, d.board)] += 1
        played[(d.east_west, d.board)] += 1
        assert d.attacking[0] == attacking_line(d.board)
        assert {d.attacking, d.defending} == {d.north_south, d.east_west}
    assert max(played.values()) == 1
    # each team's rotation counts its attacked boards 0, 1, 2 … in round order
    by_team = {}
    for d in deals:
        by_team.setdefault(d.attacking, []).append((d.round, d.board, d.k))
    for rows in by_team.values():
        assert [k for _, _, k in rows] == list(range(len(rows)))
        assert [(r, b) for r, b, _ in rows] == sorted((r, b) for r, b, _ in rows)
        assert len(rows) == rounds * per // 2
    # the board's taker orientation is on the attacking team's line
    for d in deals:
        assert taker_of(d.board) in (("N", "S") if d.attacking[0] == "NS" else ("E", "W"))


def test_rotation_over_a_session():
    m = stay_movement(4, 2)
    deals = schedule(m, 4)
    ns1 = [d for d in deals if d.attacking == ("NS", 1)]
    names = ["Paul Dupont", "Anne Martin", "Léa Roux"]
    order = attack_order(names, "blanc", len(ns1))
    assert order == ["Anne Martin", "Léa Roux", "Paul Dupont", "Anne Martin"]


@settings(deadline=None, max_examples=20)
@given(tables=st.sampled_from([4, 6, 7, 8]), per=st.sampled_from([4, 8]), data=st.data())
def test_schedule_howell(tables, per, data):
    """Howell: teams keep their key (starting line and table) while their line changes; the
    team seated on the board's attacking line that round attacks it; no board twice; each
    team's rotation runs on over its attacked boards."""
    rounds = data.draw(st.integers(1, 2 * tables - 1))
    m = howell_movement(2 * tables, rounds)
    keys = keys_of(m)
    assert sorted(keys.values()) == sorted(
        (line, t) for line in ("NS", "EW") for t in range(1, tables + 1)
    )
    deals = schedule(m, per)
    assert len(deals) == tables * rounds * per
    played = Counter()
    for d in deals:
        played[(d.north_south, d.board)] += 1
        played[(d.east_west, d.board)] += 1
        seated_ns = {keys[x.ns] for x in m.rounds[d.round - 1] if x.table == d.table}
        assert {d.north_south} == seated_ns
        assert d.attacking == (d.north_south if attacking_line(d.board) == "NS" else d.east_west)
    assert max(played.values()) == 1
    by_team = {}
    for d in deals:
        by_team.setdefault(d.attacking, []).append(d.k)
    for ks in by_team.values():
        assert ks == list(range(len(ks)))
    if rounds >= 2:  # some team changes its line: its key stays its starting one
        assert any(d.north_south[0] == "EW" for d in deals)


def test_from_individual_keeps_the_old_keys():
    """A tournament started before the choice: the individual's movement read as before
    (North-South team i keyed ("NS", i), East-West ("EW", j) at its starting table)."""
    old = movement(3, 3)
    m = from_individual(old)
    for r in range(1, 4):
        assert [(t, s, ns, ew) for t, s, ns, ew in table_teams(m, r)] == [
            (s.table, s.board_set, ("NS", s.seats["N"][1]), ("EW", s.seats["E"][1]))
            for s in old.seating(r)
        ]
