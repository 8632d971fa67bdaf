"""scoring.duplicate: the rulebook's worked examples (duplicate.md 1.7-2.5) and properties."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import RuleError
from scoring.duplicate import (
    alternating_ranking,
    defence_grade,
    general_ranking,
    grade_board,
    match_points,
    overall_percentage,
    quadrette_result,
    shared_places,
    team_match_points,
)

# --- 1.7 grading: G1-G6 ---------------------------------------------------------------------


def test_g1_the_rulebooks_board_1():
    grades = grade_board([56, 62, -56, -52, 50])
    assert grades == [75, 100, 0, 25, 50]
    assert [defence_grade(g) for g in grades] == [25, 0, 100, 75, 50]


def test_g2_two_tied_at_the_top():
    assert grade_board([60, -54, 60, 50]) == [F(250, 3), 0, F(250, 3), F(100, 3)]
    assert defence_grade(F(250, 3)) == F(50, 3)


def test_g3_three_tied_takers_who_went_down():
    assert grade_board([-52, -52, -52, 56, -66, 106]) == [40, 40, 40, 80, 0, 100]


def test_g4_eleven_plays_with_two_ties():
    scores = [72, 64, 64, 58, 50, -52, -52, -52, -60, -70, -120]
    assert grade_board(scores) == [100, 85, 85, 70, 60, 40, 40, 40, 20, 10, 0]


def test_g5_all_equal_and_g6_two_plays():
    assert grade_board([50, 50, 50]) == [50, 50, 50]
    assert grade_board([56, -56]) == [100, 0]


@pytest.mark.parametrize("scores", [[], [56]])
def test_a_board_needs_two_plays(scores):
    with pytest.raises(RuleError, match="at least two tables"):
        grade_board(scores)


@pytest.mark.parametrize("bad", [56.0, "56", None, True, F(1, 2)])
def test_a_board_score_is_a_whole_number(bad):
    with pytest.raises(RuleError, match="whole number"):
        grade_board([50, bad])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-3000, 3000), min_size=2, max_size=40))
def test_grades_add_up_to_fifty_a_play_and_stay_within_0_and_100(scores):
    grades = grade_board(scores)
    assert sum(grades) == 50 * len(scores)
    assert all(0 <= g <= 100 for g in grades)
    assert all(g + defence_grade(g) == 100 for g in grades)
    # a better score never gets a lower grade; equal scores, equal grades
    for s, g in zip(scores, grades, strict=True):
        for t, h in zip(scores, grades, strict=True):
            if s > t:
                assert g > h
            if s == t:
                assert g == h
    assert max(grades) <= 100 and (len(set(scores)) == 1 or max(grades) > min(grades))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=2, max_size=15), st.randoms())
def test_the_order_of_the_slips_does_not_matter(scores, rnd):
    grades = dict(zip(range(len(scores)), grade_board(scores), strict=True))
    order = list(range(len(scores)))
    rnd.shuffle(order)
    again = grade_board([scores[i] for i in order])
    assert [grades[i] for i in order] == again


# --- 1.8 a player's percentages ---------------------------------------------------------------


def test_the_rulebooks_individual_example():
    overall = overall_percentage([75, 50], [25, 100, 50, 75, 0, F(125, 2)])
    assert overall == F(875, 16)  # 54.6875 %


def test_a_triplette_weighs_attack_and_defence_alike():
    assert overall_percentage([58], [47], team="triplette") == F(105, 2)  # 52.5 %


def test_a_side_without_grades_gives_its_weight_to_the_other():
    assert overall_percentage([], [20, 40]) == 30
    assert overall_percentage([80], []) == 80
    with pytest.raises(RuleError, match="no graded board"):
        overall_percentage([], [])


@pytest.mark.parametrize(
    ("attack", "defence", "team"),
    [([50], [50], "quadrette"), ([101], [], "individual"), ([50], [-1], "individual")],
)
def test_overall_refuses_what_cannot_be(attack, defence, team):
    with pytest.raises(RuleError):
        overall_percentage(attack, defence, team=team)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.fractions(0, 100), max_size=10),
    st.lists(st.fractions(0, 100), max_size=10),
    st.sampled_from(["individual", "triplette"]),
)
def test_overall_lies_between_the_two_means(attack, defence, team):
    if not attack and not defence:
        return
    overall = overall_percentage(attack, defence, team=team)
    means = [sum(x) / len(x) for x in (attack, defence) if x]
    assert min(means) <= overall <= max(means)


# --- 1.9 rankings -------------------------------------------------------------------------


LINES = {
    "N": {"N1": F("61.0"), "N2": F("48.5"), "N3": F("40.0")},
    "E": {"E1": F("55.0"), "E2": F("54.0"), "E3": F("41.0")},
    "S": {"S1": F("70.0"), "S2": F("45.0"), "S3": F("44.0")},
    "W": {"W1": F("50.0"), "W2": F("49.0"), "W3": F("30.0")},
}


def test_the_rulebooks_ranking_example():
    everyone = {p: v for line in LINES.values() for p, v in line.items()}
    assert general_ranking(everyone) == [
        "S1",
        "N1",
        "E1",
        "E2",
        "W1",
        "W2",
        "N2",
        "S2",
        "S3",
        "E3",
        "N3",
        "W3",
    ]
    assert alternating_ranking(LINES) == [
        "S1",
        "N1",
        "E1",
        "W1",
        "E2",
        "W2",
        "N2",
        "S2",
        "S3",
        "E3",
        "N3",
        "W3",
    ]


def test_triplettes_alternate_two_lines():
    lines = {"NS": {"a": 60, "b": 50, "c": 40}, "EW": {"x": 55, "y": 52, "z": 58}}
    assert alternating_ranking(lines) == ["a", "z", "x", "b", "y", "c"]


def test_ties_by_overall_then_key_and_lines_of_unequal_length():
    lines = {"N": {"b": 50, "a": 50}, "S": {"c": 50}}
    assert alternating_ranking(lines) == ["a", "c", "b"]


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from("NESW"),
        st.dictionaries(st.integers(0, 99), st.fractions(0, 100), max_size=6),
        min_size=1,
    )
)
def test_alternating_holds_everyone_once_and_each_line_in_its_order(lines):
    # a player plays one orientation
    seen, clean = set(), {}
    for o, players in lines.items():
        clean[o] = {p: v for p, v in players.items() if p not in seen}
        seen |= set(clean[o])
    order = alternating_ranking(clean)
    assert sorted(order) == sorted(seen)
    for players in clean.values():
        placed = [p for p in order if p in players]
        assert placed == general_ranking(players)


# --- 2.3-2.5 match points -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("diff", "pm"), [(16, "4.000"), (144, "12.000"), (-10, "-3.162"), (0, "0.000"), (14, "3.742")]
)
def test_the_rulebooks_match_points(diff, pm):
    assert match_points(diff) == Decimal(pm)
    assert match_points(-diff) == -Decimal(pm)


def test_the_official_grid_is_the_rounded_square_root():
    for diff in range(0, 700, 2):
        assert match_points(diff) == Decimal(f"{math.sqrt(diff):.3f}")


def test_the_worked_quadrette_result():
    against_b = [82 - 66, -68 - -58, 50 - 50, 116 - -52]
    against_c = [56 - 106, -52 - -52, 60 - 50, 50 - -56]
    assert quadrette_result(against_b) == Decimal("13.799")
    assert quadrette_result(against_c) == Decimal("6.387")
    assert quadrette_result(against_b + against_c) == Decimal("20.186")


def test_the_worked_team_match_quarter():
    boards = [(66, 116), (-168, -58), (148, 74), (50, 50)]
    points = [team_match_points(a - b) for a, b in boards]
    assert points == [
        (Decimal("0.000"), Decimal("7.071")),
        (Decimal("0.000"), Decimal("10.488")),
        (Decimal("8.602"), Decimal("0.000")),
        (Decimal("0.000"), Decimal("0.000")),
    ]
    assert sum(a for a, _ in points) == Decimal("8.602")
    assert sum(b for _, b in points) == Decimal("17.559")


@pytest.mark.parametrize("bad", [1.5, "16", None, False])
def test_a_difference_is_a_whole_number(bad):
    with pytest.raises(RuleError, match="whole number"):
        match_points(bad)


def test_equal_values_share_the_better_place():
    order = ["a", "b", "c", "d", "e"]
    value = {"a": F(70), "b": F(55), "c": F(55), "d": F(40), "e": 40}
    assert shared_places(order, value) == {"a": 1, "b": 2, "c": 2, "d": 4, "e": 4}
    assert shared_places([], {}) == {}
