"""A share link's game is read with the state of the tournament table it is (`game_by_token`
joins every event lookup's SQL, as `lock_game` does under the lock): the same answer as the
lookup asked on its own, for a casual game, a table of the round under way, a table of a round
that is over and a table of a finished tournament; and the pages that read it decide as before
(a round that is over takes the "New deal" button away) without asking it again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarotclub.demo.builders import make_tournament, play_round, play_table
from tarotclub.games import policy
from tarotclub.games.selectors import game_by_token
from tarotclub.games.services import game_start
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table, Tournament
from tarotclub.tournaments.selectors import _table_state_sql, table_state

pytestmark = pytest.mark.django_db


def _read(game):
    found = game_by_token(game.token)
    assert hasattr(found, policy.EVENT_READ)
    return getattr(found, policy.EVENT_READ)


def test_the_tables_state_comes_with_the_game_as_the_lookup_reads_it(four):
    casual = game_start(players=four, first_dealer=0)
    assert _read(casual) is None and table_state(casual) is None

    t, _ = make_tournament(4, rounds=2, deals=1)
    t = services.tournament_start(tournament=t)
    first = Table.objects.get(tournament=t, round=1).game
    under_way = _read(first)
    assert under_way == table_state(first)
    assert (under_way.round_over, under_way.event_finished) == (False, False)

    play_round(t)
    t = services.tournament_next_round(tournament=t)
    over = _read(first)
    assert over == table_state(first)
    assert (over.round_over, over.event_finished) == (True, False)
    second = Table.objects.get(tournament=t, round=2).game
    assert (_read(second).round_over, _read(second).event_finished) == (False, False)

    play_round(t)
    t = services.tournament_next_round(tournament=t)
    finished = _read(second)
    assert finished == table_state(second)
    assert (finished.round_over, finished.event_finished) == (True, True)


def test_a_sheet_of_a_round_that_is_over_offers_no_new_deal_and_asks_no_table_state(client):
    t, _ = make_tournament(8, rounds=2, deals=2)
    t = services.tournament_start(tournament=t)
    played, left = Table.objects.filter(tournament=t, round=1).order_by("number")
    play_table(played)
    url = reverse("games:sheet", args=[left.game.token])
    button = f'href="{reverse("games:deal_new", args=[left.game.token])}">New deal</a>'
    assert button in client.get(url).content.decode()
    services.tournament_next_round(tournament=t, force=True)  # the left table's round is over
    with CaptureQueriesContext(connection) as ctx:
        page = client.get(url).content.decode()
    assert button not in page
    # the table's state is read in the game's statement only: not by its lookup's own
    lookup = _table_state_sql(connection.vendor).split(" WHERE ")[0]
    assert not any(q["sql"].startswith(lookup) for q in ctx.captured_queries)
    assert lookup.startswith("SELECT t.")  # (what a statement of its own would start with)


def test_without_an_event_lookup_a_game_reads_as_a_casual_one(four, monkeypatch):
    t, _ = make_tournament(4, rounds=1, deals=1)
    t = services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t, round=1).game
    monkeypatch.setattr(policy, "_event_lookups", [])  # (a site without tournaments)
    found = game_by_token(table.token)
    assert getattr(found, policy.EVENT_READ) is None
    assert [s.player for s in found.seats.all()] == [s.player for s in table.seats.all()]


def test_a_games_tournament_table_is_read_with_its_tournament_and_a_casual_ones_not_at_all(
    four, django_assert_num_queries
):
    """`games.selectors.tournament_table`: the sheet's heading and the score sheets read the
    table with its tournament in one query; a game whose read found it the table of no event
    (a casual one) asks none; a game read otherwise still asks."""
    from tarotclub.games.models import Game
    from tarotclub.games.selectors import tournament_table

    casual = game_start(players=four, first_dealer=0)
    read = game_by_token(casual.token)
    with django_assert_num_queries(0):
        assert tournament_table(read) is None
    plain = Game.objects.get(pk=casual.pk)  # no event read with it: asked
    with django_assert_num_queries(1):
        assert tournament_table(plain) is None
    with django_assert_num_queries(0):
        assert tournament_table(plain) is None  # kept on the game

    t, _ = make_tournament(4, rounds=2, deals=1)
    t = services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t, round=1)
    for game in (game_by_token(table.game.token), Game.objects.get(pk=table.game_id)):
        with django_assert_num_queries(1):
            found = tournament_table(game)
            assert (found.pk, found.tournament.name, found.round) == (table.pk, t.name, 1)
            assert found.game is game
        # every field as the ORM reads it (dates, JSON, choices)
        for read, orm in ((found, table), (found.tournament, Tournament.objects.get(pk=t.pk))):
            fields = [f.attname for f in type(orm)._meta.concrete_fields]
            assert [getattr(read, f) for f in fields] == [getattr(orm, f) for f in fields]
            assert not read._state.adding
        with django_assert_num_queries(0):
            assert tournament_table(game) is found and game.tournament_table is found
