"""A whole individual duplicate session graded (scoring.duplicate.grade_session) on a movement
(scoring.movement): the rulebook's board 1 (G1), and the sums that must hold for any scores."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate import grade_session, overall_percentage
from scoring.movement import boards_of_set, default_movement, movement, taker_of


def test_board_1_of_the_rulebook_on_the_default_5_table_movement():
    m = default_movement(5, 5)
    # G1 (duplicate.md 1.7): board 1, taker North, rounds 1-5 at tables 1, 5, 4, 3, 2
    scores = {(1, 1): 56, (1, 2): 62, (1, 3): -56, (1, 4): -52, (1, 5): 50}
    session = grade_session(m, 4, scores)
    sheet = session.boards[1]
    assert [(p.round, p.table, p.score) for p in sheet] == [
        (1, 1, 56),
        (2, 5, 62),
        (3, 4, -56),
        (4, 3, -52),
        (5, 2, 50),
    ]
    assert [p.attack for p in sheet] == [75, 100, 0, 25, 50]
    assert [p.defence for p in sheet] == [25, 0, 100, 75, 50]
    # North never moves: the taker of each play is the North of that table
    assert [p.taker for p in sheet] == [("N", 1), ("N", 5), ("N", 4), ("N", 3), ("N", 2)]
    assert sheet[0].defenders == (("E", 1), ("S", 1), ("W", 1))
    record = session.records[("N", 5)]
    assert record.attack == 100 and record.defence is None and record.overall == 100
    # at the top, tied on 100 %: N5 and the three who defended against N4's -56
    top = [p for p in session.general if session.records[p].overall == 100]
    assert sorted(top) == [("E", 2), ("N", 5), ("S", 5), ("W", 3)]  # spec: "1: N4 E2 S5 W3"
    assert session.general[: len(top)] == sorted(top)  # ties by player key
    assert session.records[("N", 4)].overall == 0
    assert {p for p, r in session.records.items() if r.overall is None} == set()


def test_a_board_played_once_is_graded_50_50_and_unplayed_boards_are_left_out():
    m = movement(5, 3)
    session = grade_session(m, 4, {(2, 1): 80})
    assert list(session.boards) == [2]
    (play,) = session.boards[2]
    assert (play.attack, play.defence) == (50, 50)
    assert session.records[play.taker].overall == 50
    # nobody who sat elsewhere has a percentage yet, nor a place
    assert len(session.general) == 4


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([(3, 1), (4, 2), (5, 5), (6, 3), (7, 4), (8, 6)]),
    st.sampled_from([4, 8]),
    st.randoms(use_true_random=False),
)
def test_any_scores_grade_to_the_rulebook_sums(size, per_set, rng):
    tables, rounds = size
    m = movement(tables, rounds)
    scores = {}
    for round in range(1, rounds + 1):
        for seating in m.seating(round):
            for board in boards_of_set(seating.board_set, per_set):
                scores[(board, round)] = rng.choice([-120, -56, -52, 50, 56, 56, 62, 106])
    session = grade_session(m, per_set, scores)
    for board, sheet in session.boards.items():
        assert len(sheet) == rounds
        if rounds >= 2:
            assert sum(p.attack for p in sheet) == 50 * len(sheet)
        assert all(0 <= p.attack <= 100 and p.attack + p.defence == 100 for p in sheet)
        assert all(p.taker[0] == taker_of(board) for p in sheet)
    for record in session.records.values():
        # per_set / 4 boards taken a round, the other boards defended
        assert len(record.took) == rounds * per_set // 4
        assert len(record.defended) == rounds * per_set * 3 // 4
        expected = overall_percentage(
            [p.attack for p in record.took], [p.defence for p in record.defended]
        )
        assert record.overall == expected
        assert record.attack == sum(p.attack for p in record.took) / len(record.took)
        assert isinstance(record.overall, Fraction)
    everybody = sorted(m.players())
    assert sorted(session.general) == everybody
    assert sorted(session.alternating) == everybody
    overall = [session.records[p].overall for p in session.general]
    assert overall == sorted(overall, reverse=True)
    # the alternating ranking's first tier is the four line winners
    tier = session.alternating[:4]
    assert sorted(p[0] for p in tier) == sorted("NESW")
