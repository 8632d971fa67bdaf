"""A season's standings: the tournaments' own results, casual evenings by date, the formula,
and a constant number of queries."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import season as rules
from tarotclub.games.models import Game
from tarotclub.seasons import selectors, services
from tarotclub.tournaments import selectors as tournament_selectors

from .helpers import casual_game, roster, tournament

pytestmark = pytest.mark.django_db

JAN, DEC = dt.date(2026, 1, 1), dt.date(2026, 12, 31)


def season(**kwargs):
    return services.season_create(**{"name": "S", "start": JAN, "end": DEC, **kwargs})


def at(game: Game, day: dt.date, hour: int = 20) -> None:
    when = timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))
    Game.objects.filter(pk=game.pk).update(created_at=when)


def test_each_evening_is_the_tournament_as_its_own_standings_rank_it():
    players = roster(9)
    evenings = [
        tournament(players[:8], dt.date(2026, 2, 1), shift=0),
        tournament(players[1:9], dt.date(2026, 3, 1), shift=3, ranking="average"),
        # registered, one round played of three: the registered who never sat get nothing
        tournament(players[:8], dt.date(2026, 4, 1), rounds=3, shift=5, play=1),
    ]
    s = season(tournaments=evenings)
    standings = selectors.season_standings(s)
    assert [e.tournament for e in standings.evenings] == evenings
    by_player = {line.player: line for line in standings.lines}
    for t in evenings:
        rows = tournament_selectors.standings(t).rows
        for row in rows:
            result = by_player[row.player.pk].results.get(("t", t.pk))
            if row.played == 0:
                assert result is None
                continue
            assert result == rules.Result(score=row.total, place=row.rank, rounds=row.played)
    # the season's total is the sum of the tournaments' totals (brute force)
    for line in standings.lines:
        expected = 0
        for t in evenings:
            expected += sum(r.total for r in tournament_selectors.standings(t).rows
                            if r.player.pk == line.player)  # fmt: skip
        assert line.value == expected
    assert [line.rank for line in standings.lines] == sorted(line.rank for line in standings.lines)


def test_casual_games_count_by_calendar_date_only_when_asked():
    a, b, c, d, e = roster(5)
    g1 = casual_game([a, b, c, d], shift=1)
    g2 = casual_game([a, b, c, e], shift=2)
    g3 = casual_game([a, b, c, d], shift=3)
    outside = casual_game([a, b, c, d], shift=4)
    at(g1, dt.date(2026, 5, 1), 19)
    at(g2, dt.date(2026, 5, 1), 23)
    at(g3, dt.date(2026, 5, 8))
    at(outside, dt.date(2027, 1, 1), 0)
    assert selectors.season_standings(season()).lines == []
    standings = selectors.season_standings(season(include_casual=True))
    assert [e.date for e in standings.evenings] == [dt.date(2026, 5, 1), dt.date(2026, 5, 8)]
    first = ("d", "2026-05-01")
    totals = {}
    for game in (g1, g2):
        for line in game.deals.all():
            for dl in line.lines.all():
                totals[dl.player_id] = totals.get(dl.player_id, 0) + dl.score
    by_player = {line.player: line for line in standings.lines}
    for pk, total in totals.items():
        result = by_player[pk].results[first]
        assert result.score == total
        assert result.place == 1 + sum(1 for v in totals.values() if v > total)
    assert by_player[a.pk].results[first].rounds == 2
    assert by_player[e.pk].results[first].rounds == 1
    assert ("d", "2026-05-08") not in by_player[e.pk].results


def test_archived_and_tournament_games_are_not_casual():
    players = roster(4)
    t = tournament(players, dt.date(2026, 6, 1))
    g = casual_game(players)
    at(g, dt.date(2026, 6, 2))
    Game.objects.filter(pk=g.pk).update(archived_at=timezone.now())
    standings = selectors.season_standings(season(include_casual=True))
    assert standings.evenings == [] and t.pk


def test_average_lists_rare_players_unranked():
    players = roster(5)
    t1 = tournament(players[:4], dt.date(2026, 2, 1))
    t2 = tournament(players[1:5], dt.date(2026, 3, 1), shift=2)
    s = season(tournaments=[t1, t2], formula="average", min_attendance=2)
    standings = selectors.season_standings(s)
    unranked = {line.player for line in standings.unranked}
    assert unranked == {players[0].pk, players[4].pk}
    assert all(line.rank is None for line in standings.unranked)
    assert standings.lines[-2:] == standings.unranked


def queries(s) -> int:
    with CaptureQueriesContext(connection) as ctx:
        selectors.season_standings(s)
    return len(ctx.captured_queries)


def test_a_constant_number_of_queries():
    players = roster(8)
    small = season(tournaments=[tournament(players[:4], dt.date(2026, 2, 1))],
                   include_casual=True)  # fmt: skip
    small.refresh_from_db()
    few = queries(small)
    big_tournaments = [
        tournament(players, dt.date(2026, 3, d), shift=d, rounds=3) for d in range(1, 6)
    ]
    for d in range(1, 4):
        at(casual_game(players[:4], shift=d), dt.date(2026, 4, d))
    big = season(tournaments=big_tournaments, include_casual=True)
    big.refresh_from_db()
    assert queries(big) == few == 5
