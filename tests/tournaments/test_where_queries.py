"""Issue 12: "Where do I sit?" finds the seat in the database, in as many queries for 200
players as for 20, and shows only the current round's seats."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarotclub.games.models import Seat
from tarotclub.tournaments import services

from .helpers import make_tournament, play_round

pytestmark = pytest.mark.django_db

SMALL, LARGE = 20, 200
QUERIES = 2  # the tournament, then the matching seats with their players and tables


def second_round(n_players: int):
    t, players = make_tournament(n_players, rounds=3, deals=1)
    t = services.tournament_start(tournament=t)
    play_round(t)
    return services.tournament_next_round(tournament=t), players


def where(t, q: str):
    url = reverse("tournaments:where", args=[t.pk])
    client = Client()
    client.get(url, {"q": q})  # warm what is not per request (translations, content types)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, {"q": q})
    assert response.status_code == 200
    # The name is matched, and the list cut, by the database: no round read into Python.
    sql = ctx.captured_queries[-1]["sql"]
    assert "name_key" in sql and "LIMIT 20" in sql, sql
    return len(ctx.captured_queries), response


@pytest.mark.parametrize("q", ["player", "0007"])
def test_where_do_i_sit_makes_as_many_queries_for_200_players_as_for_20(q):
    small, _ = where(second_round(SMALL)[0], q)
    large, _ = where(second_round(LARGE)[0], q)
    assert (small, large) == (QUERIES, QUERIES)


def test_where_do_i_sit_shows_the_current_round_seat_only():
    t, players = second_round(SMALL)
    player = players[7]
    seat = Seat.objects.select_related("game__tournament_table").get(
        player=player, game__tournament_table__round=2
    )
    _, response = where(t, player.name[-4:])
    found = response.context["found"]
    assert [(f["player"], f["table"]) for f in found] == [
        (player, seat.game.tournament_table.number)
    ]
    # Every player of the round matches "player": at most 20 shown, in name order.
    _, response = where(t, "player")
    names = [f["player"].name for f in response.context["found"]]
    assert names == sorted(p.name for p in players)[:20]
