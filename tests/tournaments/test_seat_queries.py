"""Issue 12: seating a round makes as many queries for 500 tables as for 5 (the games, their
seats and the tournament's tables are inserted in bulk), so a 2,000-player round is seated in
a director's click on PostgreSQL too."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tarotclub.games.models import Game, Seat
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

from .helpers import make_tournament, play_round

pytestmark = pytest.mark.django_db

SMALL, LARGE = 20, 200


def statements(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as ctx:
        result = call()
    control = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
    return sum(1 for q in ctx.captured_queries if not q["sql"].startswith(control)), result


def start_and_next(n_players: int) -> tuple[int, int, object]:
    t, _ = make_tournament(n_players, rounds=3, deals=1)
    started, t = statements(lambda: services.tournament_start(tournament=t))
    play_round(t)
    nexted, t = statements(lambda: services.tournament_next_round(tournament=t))
    return started, nexted, t


def test_starting_and_seating_the_next_round_make_as_many_queries_for_200_players():
    small = start_and_next(SMALL)[:2]
    large_start, large_next, t = start_and_next(LARGE)
    assert (large_start, large_next) == small
    # and the round is seated as before: 50 tables of 4, each its own game in seat order
    tables = Table.objects.filter(tournament=t, round=2).order_by("number")
    assert [tb.number for tb in tables] == list(range(1, LARGE // 4 + 1))
    plan = services.round_seats(t, 2)["tables"]
    assert all(len(x["players"]) == 4 for x in plan)
    for tb in tables[:3]:
        game = tb.game
        assert game.kind == "tarot" and game.name == f"{t.name} · R2 T{tb.number}"
        # the table keeps the tournament's copy of the house rules: none, the federation's
        assert game.options == {"deals": 1, "house": {}} and not game.dealer_sits_out
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        assert [s.position for s in seats] == [0, 1, 2, 3]
    assert Game.objects.filter(tournament_table__tournament=t).count() == 2 * LARGE // 4
