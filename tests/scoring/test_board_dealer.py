"""A board's dealer and who leads (scoring.movement): the spec's geometry, the default dealer."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import RuleError
from scoring.movement import (
    LEAD_PLACES,
    ORIENTATIONS,
    dealer_of,
    lead_place,
    leader_of,
    right_of,
    taker_of,
)

# duplicate.md, Vocabulary: "The player to the right of the dealer is: North → West,
# West → South, South → East, East → North."
SPEC_RIGHT = {"N": "W", "W": "S", "S": "E", "E": "N"}

# The geometry table: taker → (left of taker "front", facing "middle", right of taker "back").
SPEC_PLACES = {
    "N": ("E", "S", "W"),
    "E": ("S", "W", "N"),
    "S": ("W", "N", "E"),
    "W": ("N", "E", "S"),
}


@pytest.mark.parametrize(("dealer", "leader"), sorted(SPEC_RIGHT.items()))
def test_the_player_to_the_dealers_right_leads(dealer, leader):
    assert right_of(dealer) == leader
    assert leader_of(dealer) == leader


@pytest.mark.parametrize("taker", ORIENTATIONS)
def test_lead_places_follow_the_geometry_table(taker):
    front, middle, back = SPEC_PLACES[taker]
    assert lead_place(taker, taker) == "taker"
    assert lead_place(taker, front) == "front"
    assert lead_place(taker, middle) == "middle"
    assert lead_place(taker, back) == "back"


def test_the_back_place_is_the_takers_right():
    # the table's "right of taker" column is the Vocabulary's "player to the right"
    for taker, (_front, _middle, back) in SPEC_PLACES.items():
        assert right_of(taker) == back


def test_default_dealers_of_the_first_boards():
    # N for boards 1-4, E for 5-8, S for 9-12, W for 13-16, then N again
    assert [dealer_of(b) for b in range(1, 18)] == list("NNNNEEEESSSSWWWWN")
    # board 1: taker North, dealer North → West leads, the taker's back place
    assert taker_of(1) == "N" and leader_of(dealer_of(1)) == "W"
    assert lead_place("N", "W") == "back"
    # board 4: taker West, dealer North → West leads: the taker leads
    assert lead_place(taker_of(4), leader_of(dealer_of(4))) == "taker"


@given(st.integers(min_value=0, max_value=200))
def test_every_four_boards_lead_from_every_place_once(k):
    boards = range(4 * k + 1, 4 * k + 5)
    places = [lead_place(taker_of(b), leader_of(dealer_of(b))) for b in boards]
    assert sorted(places) == sorted(LEAD_PLACES)


@given(st.sampled_from(ORIENTATIONS), st.integers(min_value=0, max_value=50))
def test_each_takers_boards_lead_from_the_four_places_in_turn(orientation, k):
    # an orientation takes one board in four: its 4 taken boards from board 16k+1 on
    taken = [b for b in range(16 * k + 1, 16 * k + 17) if taker_of(b) == orientation]
    assert len(taken) == 4
    places = Counter(lead_place(orientation, leader_of(dealer_of(b))) for b in taken)
    assert places == Counter(LEAD_PLACES)


@given(st.integers(min_value=1, max_value=10_000))
def test_the_leader_is_never_the_dealer(board):
    dealer = dealer_of(board)
    assert dealer in ORIENTATIONS
    assert leader_of(dealer) != dealer
    assert right_of(right_of(right_of(right_of(dealer)))) == dealer


@pytest.mark.parametrize("bad", ["X", "", "n", None, 3, "NE"])
def test_a_bad_orientation_is_refused(bad):
    with pytest.raises(RuleError):
        right_of(bad)
    with pytest.raises(RuleError):
        lead_place("N", bad)


@pytest.mark.parametrize("bad", [0, -1, True, "1", 1.0])
def test_a_bad_board_is_refused(bad):
    with pytest.raises(ValueError):
        dealer_of(bad)
