"""Issue 12: a 1,000-player tournament plays start to finish on SQLite (and PostgreSQL).

From 1,000 tables on, a prefetch through the tables' games asked SQLite for "id = 1 OR
id = 2 OR ..." and SQLite refused ("Expression tree is too large"): the round history that
plans the next rounds, and so adding and withdrawing a player too. One deal a table a round
keeps the full test to a CI-friendly runtime (about 17 s on a small 2-core machine) while
building every table the tournament really has.
"""

from __future__ import annotations

import datetime as dt

import pytest

from tarotclub.games.models import Game, Seat
from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Status, Table, Tournament

from .helpers import make_tournament, play_round

pytestmark = pytest.mark.django_db

N = 1000


def test_a_thousand_players_play_five_rounds_start_to_finish():
    t, players = make_tournament(N, rounds=5, deals=1)
    t = services.tournament_start(tournament=t)
    for rnd in range(1, 4):
        play_round(t)
        t = services.tournament_next_round(tournament=t)
        assert t.current_round == rnd + 1
    # round 4 is seated: 1,000 tables exist. Late players and a withdrawal replan round 5.
    assert Table.objects.filter(tournament=t).count() == N
    for i in range(4):
        entry = services.entry_register(
            tournament=t, player=Player.objects.create(name=f"Late {i}")
        )
        assert entry.first_round == 5
    services.entry_withdraw(entry=t.entries.get(player=players[0]))
    t.refresh_from_db()
    assert sum(len(tb) for tb in t.plan[0]) == N + 3
    for _ in range(2):
        play_round(t)
        t = services.tournament_next_round(tournament=t)
    assert t.status == Status.FINISHED
    seats = Seat.objects.filter(game__tournament_table__tournament=t)
    per_round = [seats.filter(game__tournament_table__round=r).count() for r in range(1, 6)]
    assert per_round == [N, N, N, N, N + 3]
    assert not Seat.objects.filter(game__tournament_table__round=5, player=players[0]).exists()


def test_a_round_of_1200_tables_is_read_for_the_history_and_the_planner():
    """A 4,800-player round, built directly (seating that many is the planner's business)."""
    t = Tournament.objects.create(name="Final", date=dt.date(2026, 12, 1), creation_key="k")
    players = Player.objects.bulk_create(Player(name=f"P{i:05d}") for i in range(4 * 1200))
    games = Game.objects.bulk_create(Game(name=f"T{i}") for i in range(1200))
    Seat.objects.bulk_create(
        Seat(game=g, player=players[4 * i + pos], position=3 - pos)  # stored out of order
        for i, g in enumerate(games)
        for pos in range(4)
    )
    Table.objects.bulk_create(
        Table(tournament=t, round=1, number=1200 - i, game=g) for i, g in enumerate(games)
    )
    seats = services.round_seats(t, 1)
    assert [x["table"] for x in seats["tables"]] == list(range(1, 1201))
    last = seats["tables"][-1]  # table 1200 is the first game
    assert last["game"] == games[0].pk
    assert [p["pk"] for p in last["players"]] == [x.pk for x in reversed(players[:4])]
    history = services._history(t)
    assert len(history) == 1 and len(history[0]) == 1200
    assert history[0][-1] == [x.pk for x in reversed(players[:4])]
