"""The pure computations behind the other games' figures on the player and head-to-head
pages, against a plain recount."""

from __future__ import annotations

import datetime as dt
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from tarotclub.games.standings import places
from tarotclub.players.stats import Meetings, cumulative, meetings

days = st.dates(min_value=dt.date(2025, 1, 1), max_value=dt.date(2025, 3, 1))
points = st.lists(st.tuples(days, st.integers(-50, 50)), max_size=40)


@given(points)
def test_cumulative_is_the_running_total_at_each_days_end(pairs):
    result = cumulative(pairs)
    assert [d for d, _v in result] == sorted({d for d, _v in pairs})
    for day, running in result:
        assert running == sum(v for d, v in pairs if d <= day)


def test_cumulative_of_nothing_is_nothing():
    assert cumulative([]) == []


figures = st.dictionaries(st.integers(1, 8), st.integers(-3, 3), min_size=1, max_size=6)


@given(figures)
def test_places_share_ties_and_count_the_better_ones(values):
    result = places(values)
    assert set(result) == set(values)
    for pk, place in result.items():
        assert place == 1 + len([v for v in values.values() if v > values[pk]])
    for a, b in combinations(values, 2):
        assert (result[a] < result[b]) == (values[a] > values[b])
        assert (result[a] == result[b]) == (values[a] == values[b])
    assert min(result.values()) == 1


def test_places_compare_tuples_as_the_kinds_give_them():
    # Fool's Faith: (the winner, challenge cards held)
    assert places({1: (True, 2), 2: (False, 1), 3: (False, 1), 4: (False, 0)}) == {
        1: 1, 2: 2, 3: 2, 4: 4,
    }  # fmt: skip


results = st.lists(st.dictionaries(st.integers(1, 5), st.integers(1, 5), max_size=5), max_size=30)


@given(results, st.integers(1, 5), st.integers(1, 5))
def test_meetings_recount(places_list, first, second):
    out = meetings(places_list, first, second)
    both = [p for p in places_list if first in p and second in p]
    assert out == Meetings(
        results=len(both),
        first_ahead=len([p for p in both if p[first] < p[second]]),
        second_ahead=len([p for p in both if p[second] < p[first]]),
        level=len([p for p in both if p[first] == p[second]]),
    )
    assert out.first_ahead + out.second_ahead + out.level == out.results
    swapped = meetings(places_list, second, first)
    assert (swapped.first_ahead, swapped.second_ahead) == (out.second_ahead, out.first_ahead)
