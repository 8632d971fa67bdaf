"""scoring.ratings: the same figures as openskill itself gives for the same games."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scoring import RuleError
from scoring.ratings import Skill, Table, initial, places, rate


def by_hand(games):
    """openskill used directly, as its documentation shows: ranks, lower is better."""
    model = PlackettLuce()
    ratings = {}
    for totals in games:
        players = list(totals)
        teams = [[ratings.get(p) or model.rating(name=str(p))] for p in players]
        # rank = 1 + how many did better: ties share a rank
        ranks = [1 + sum(1 for q in players if totals[q] > totals[p]) for p in players]
        for p, (new,) in zip(players, model.rate(teams, ranks=ranks), strict=True):
            ratings[p] = new
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


def season(seed: int, games: int = 60, club: int = 12):
    rnd = random.Random(seed)
    out = []
    for _ in range(games):
        size = rnd.choice((3, 4, 5))
        players = rnd.sample(range(club), size)
        scores = [rnd.randrange(-60, 61) * 10 for _ in players]
        out.append(dict(zip(players, scores, strict=True)))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_same_skills_as_openskill_for_the_same_games(seed):
    games = season(seed)
    _updates, skills = rate(Table(i, totals) for i, totals in enumerate(games))
    expected = by_hand(games)
    assert set(skills) == set(expected)
    for player, (mu, sigma) in expected.items():
        assert skills[player].mu == pytest.approx(mu, abs=1e-9)
        assert skills[player].sigma == pytest.approx(sigma, abs=1e-9)


def test_each_update_chains_from_the_players_previous_one():
    games = season(7, games=30)
    updates, skills = rate(Table(i, totals) for i, totals in enumerate(games))
    last = {}
    for u in updates:
        assert u.before == last.get(u.player, initial())
        last[u.player] = u.after
    assert last == skills
    assert len(updates) == sum(len(g) for g in games)


def test_starting_from_given_skills_is_rating_the_rest_of_the_season():
    games = [Table(i, t) for i, t in enumerate(season(11, games=40))]
    _u, whole = rate(games)
    _u, first = rate(games[:25])
    _u, rest = rate(games[25:], start=first)
    assert rest.keys() >= whole.keys() - first.keys()
    for player, skill in whole.items():
        assert rest[player].mu == pytest.approx(skill.mu)
        assert rest[player].sigma == pytest.approx(skill.sigma)


def test_places_rank_the_highest_total_first_and_ties_share_the_better_place():
    assert places({"a": 120, "b": -40, "c": 120, "d": -200}) == {"a": 1, "b": 3, "c": 1, "d": 4}


def test_a_newcomer_starts_at_the_model_defaults_and_a_rating_of_zero():
    fresh = initial()
    assert (fresh.mu, fresh.sigma) == (25.0, pytest.approx(25 / 3))
    assert fresh.rating == pytest.approx(0.0)


def test_the_winner_gains_and_the_last_loses():
    updates, _ = rate([Table("g", {"a": 300, "b": 100, "c": -100, "d": -300})])
    change = {u.player: u.after.mu - u.before.mu for u in updates}
    assert change["a"] > change["b"] > change["c"] > change["d"]
    assert change["a"] > 0 > change["d"]
    assert [u.place for u in updates] == [1, 2, 3, 4]
    assert {u.size for u in updates} == {4}


def test_equal_totals_give_equal_changes_to_equal_players():
    updates, _ = rate([Table("g", {"a": 50, "b": 50, "c": -100})])
    change = {u.player: u.after.mu - u.before.mu for u in updates}
    assert change["a"] == pytest.approx(change["b"])


@pytest.mark.parametrize("totals", [{}, {"a": 10}])
def test_a_table_needs_two_players(totals):
    with pytest.raises(RuleError, match="at least two players"):
        rate([Table("g", totals)])


@pytest.mark.parametrize("bad", [1.5, "10", None, True])
def test_a_total_must_be_a_whole_number(bad):
    with pytest.raises(RuleError, match="whole number"):
        rate([Table("g", {"a": 10, "b": bad})])


tables = st.lists(
    st.dictionaries(st.integers(0, 9), st.integers(-2000, 2000), min_size=3, max_size=5),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(tables)
def test_the_order_of_players_at_a_table_does_not_matter(games):
    _u, skills = rate(Table(i, t) for i, t in enumerate(games))
    flipped = [dict(reversed(list(t.items()))) for t in games]
    _u, again = rate(Table(i, t) for i, t in enumerate(flipped))
    for p, s in skills.items():
        assert again[p].mu == pytest.approx(s.mu)
        assert again[p].sigma == pytest.approx(s.sigma)


@settings(max_examples=60, deadline=None)
@given(tables)
def test_a_better_place_never_gains_less_than_a_worse_one_from_equal_skills(games):
    # everyone starts equal at the first table: changes follow the places. (Not with ties:
    # Plackett-Luce scores a shared place so that a lone player just behind two tied ones
    # gains more than they do: totals 2, 2, 1, 0, 0 give +1.0, +1.0, +1.6, −1.8, −1.8.)
    assume(len(set(games[0].values())) == len(games[0]))
    updates, _ = rate([Table(0, games[0])])
    change = sorted((u.place, u.after.mu - u.before.mu) for u in updates)
    gains = [c for _p, c in change]
    assert all(a >= b - 1e-9 for a, b in zip(gains, gains[1:], strict=False))
    assert all(isinstance(u.after, Skill) and u.after.sigma > 0 for u in updates)
