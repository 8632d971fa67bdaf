"""A substitute in an individual duplicate session (scoring.duplicate.grade_session with
`substitutes`): the boards before stay with the player who withdrew, the substitute's record
is his boards only, the grades do not change, both are ranked in the seat's line."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError
from scoring.duplicate import grade_session, overall_percentage, player_in
from scoring.movement import boards_of_set, default_movement


def _all_scores(m, per_set, score_of):
    return {
        (b, r): score_of(b, r, s.table)
        for r in range(1, m.rounds + 1)
        for s in m.seating(r)
        for b in boards_of_set(s.board_set, per_set)
    }


def test_player_in_a_seat_round_by_round():
    subs = {("E", 2): 3}
    assert player_in(("E", 2), 2, subs) == ("E", 2)
    assert player_in(("E", 2), 3, subs) == ("E", 2, 3)
    assert player_in(("E", 2), 5, subs) == ("E", 2, 3)
    assert player_in(("N", 1), 5, subs) == ("N", 1)
    assert player_in(("N", 1), 5, None) == ("N", 1)


def test_a_substitute_from_round_3_of_5():
    m = default_movement(5, 5)
    scores = _all_scores(m, 4, lambda b, r, t: 50 + 2 * ((b * 7 + r * 3 + t) % 11))
    plain = grade_session(m, 4, scores)
    seat, sub = ("E", 2), ("E", 2, 3)
    session = grade_session(m, 4, scores, substitutes={seat: 3})
    # the grades of every board are the same: they compare tables
    assert {b: [(p.attack, p.defence) for p in ps] for b, ps in session.boards.items()} == {
        b: [(p.attack, p.defence) for p in ps] for b, ps in plain.boards.items()
    }
    whole = plain.records[seat]
    before, after = session.records[seat], session.records[sub]
    assert {p.round for p in before.took + before.defended} == {1, 2}
    assert {p.round for p in after.took + after.defended} == {3, 4, 5}
    # the two records share out the seat's boards exactly
    key = lambda p: (p.board, p.round)  # noqa: E731
    assert sorted(map(key, before.took + after.took)) == sorted(map(key, whole.took))
    assert sorted(map(key, before.defended + after.defended)) == sorted(map(key, whole.defended))
    # the substitute's percentages are from his boards only
    assert after.overall == overall_percentage(
        [p.attack for p in after.took], [p.defence for p in after.defended]
    )
    # both are ranked, and in the East line of the alternating ranking
    assert seat in session.general and sub in session.general
    assert len(session.general) == 21 and len(session.alternating) == 21
    # the substitute is the taker / defender named on the sheets of his rounds
    for p in after.took:
        assert p.taker == sub
    for p in before.defended:
        assert seat in p.defenders


@settings(max_examples=15, deadline=None)
@given(
    st.integers(min_value=2, max_value=5),
    st.sampled_from(["N", "E", "S", "W"]),
    st.integers(min_value=1, max_value=5),
    st.lists(st.integers(min_value=-60, max_value=60), min_size=100, max_size=100),
)
def test_the_seats_boards_are_shared_out_and_nothing_else_moves(start, o, table, values):
    m = default_movement(5, 5)
    scores = {
        k: 2 * v if abs(2 * v) >= 50 else 50 + abs(v)
        for k, v in zip(sorted(_all_scores(m, 4, lambda b, r, t: 0)), values, strict=False)
    }
    seat = (o, table)
    plain = grade_session(m, 4, scores)
    session = grade_session(m, 4, scores, substitutes={seat: start})
    for player, record in plain.records.items():
        if player != seat:  # the others' boards and percentages are the same
            other = session.records[player]
            assert (other.attack, other.defence, other.overall) == (
                record.attack,
                record.defence,
                record.overall,
            )
            assert [(p.board, p.round) for p in other.took + other.defended] == [
                (p.board, p.round) for p in record.took + record.defended
            ]
    sub = session.records[(o, table, start)]
    mine = session.records[seat]
    assert all(p.round >= start for p in sub.took + sub.defended)
    assert all(p.round < start for p in mine.took + mine.defended)
    total = len(plain.records[seat].took) + len(plain.records[seat].defended)
    assert len(sub.took + sub.defended) + len(mine.took + mine.defended) == total
    if sub.overall is not None:
        assert Fraction(0) <= sub.overall <= 100


@pytest.mark.parametrize(
    "subs",
    [{("X", 1): 2}, {("N", 9): 2}, {("N", 1): 1}, {("N", 1): 6}, {("N", 1): "2"}, {("N", 1): True}],
)
def test_bad_substitutions_are_refused(subs):
    with pytest.raises(RuleError):
        grade_session(default_movement(5, 5), 4, {}, substitutes=subs)
