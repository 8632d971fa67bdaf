"""Ranking and tie-breaks, the average ranking, and a constant number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import fft
from tarotclub.kinds.tarot import services as tarot
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import Table

from .helpers import make_tournament, play_round

pytestmark = pytest.mark.django_db


def play_deals(deals):
    """A 4-player, one-table tournament, one deal per round: (taker index, contract, points)."""
    t, players = make_tournament(4, rounds=len(deals), deals=1)
    t = services.tournament_start(tournament=t)
    for taker, contract, points in deals:
        table = Table.objects.get(tournament=t, round=t.current_round)
        tarot.deal_add(
            game=table.game,
            data=tarot.DealInput(
                taker=players[taker].pk, contract=contract, bouts=1, points=points
            ),
        )
        services.table_confirm(table=table)
        t = services.tournament_next_round(tournament=t)
    return t, players


def ranks(t, players):
    rows = selectors.standings(t).rows
    return {players.index(r.player): (r.rank, r.tied) for r in rows}, rows


def test_totals_are_the_sum_of_the_rounds():
    t, players = play_deals([(0, "prise", 51), (1, "garde", 61), (2, "prise", 40)])
    seats = [p.pk for p in players]
    expected = {pk: 0 for pk in seats}
    for taker, contract, points in [(0, "prise", 51), (1, "garde", 61), (2, "prise", 40)]:
        for pk, s in fft.score_deal(
            seats=seats, taker=seats[taker], contract=contract, bouts=1, points=points
        ).scores.items():
            expected[pk] += s
    rows = selectors.standings(t).rows
    assert {r.player.pk: r.total for r in rows} == expected
    assert [r.total for r in rows] == sorted(expected.values(), reverse=True)
    assert all(sum(v for v in r.rounds.values()) == r.total for r in rows)


def test_tie_broken_by_rounds_topped_at_the_table():
    # A and B end on 100; A had the top score at the table twice, B once (with a bigger best)
    t, players = play_deals([(0, "prise", 51), (0, "prise", 51), (1, "garde", 51)])
    r, rows = ranks(t, players)
    assert rows[0].total == rows[1].total == 100
    assert r[0] == (1, False) and r[1] == (2, False)


def test_tie_broken_by_best_round():
    # A, B and D end on 30; A and B topped twice each; A's best round is 90, B's 30
    t, players = play_deals([(0, "prise", 56), (0, "prise", 46), (2, "prise", 46)])
    r, rows = ranks(t, players)
    assert r[0][0] < r[1][0]


def test_a_complete_tie_is_shown_as_such():
    t, players = play_deals([(0, "prise", 51), (1, "prise", 51)])
    r, _ = ranks(t, players)
    assert r[0] == r[1] == (1, True)  # same total, one top each, same best round


def test_average_ranking_for_late_players():
    t, players = make_tournament(4, rounds=2, deals=1)
    t = services.tournament_start(tournament=t)
    late = services.entry_register(tournament=t, guest_name="Late")
    play_round(t, points_for=lambda i: 61)
    t = services.tournament_next_round(tournament=t)
    play_round(t, points_for=lambda i: 61)
    t = services.tournament_next_round(tournament=t)
    t = services.tournament_update(tournament=t, ranking="average")
    rows = selectors.standings(t).rows
    by_pk = {r.player.pk: r for r in rows}
    assert by_pk[late.player_id].played == 1
    for row in rows:
        assert row.average == row.total / row.played
    averages = [r.average for r in rows]
    assert averages == sorted(averages, reverse=True)


def count_standings_queries(n_players: int) -> int:
    t, _ = make_tournament(n_players, rounds=2, deals=2)
    t = services.tournament_start(tournament=t)
    for _ in range(2):
        play_round(t)
        t = services.tournament_next_round(tournament=t)
    with CaptureQueriesContext(connection) as ctx:
        selectors.standings(t)
    return len(ctx.captured_queries)


def test_standings_queries_do_not_grow_with_players_or_deals():
    assert count_standings_queries(8) == count_standings_queries(24)
