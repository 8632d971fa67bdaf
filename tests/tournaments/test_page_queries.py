"""Issue 12: the standings, projector (page and screen fragment) and director pages make the
same number of queries whatever the number of players (no query a player or a table).

Each page is read at two sizes, mid-way through a round (some tables confirmed, some with
deals, some not started), and the query counts must be equal: the first read of a revision
(cold: nothing cached), a read again (warm: the fragment comes from the cache) and a
conditional read of the browser's copy (304). The counts are pinned too, so a new query per
page is a deliberate change.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

from .helpers import make_tournament, play_round, play_table

pytestmark = pytest.mark.django_db

SMALL, LARGE = 20, 200
#: Queries of each page for a signed-in director (the session and the user among them):
#: (cold, warm, 304).
PAGES = {
    "standings": (6, 3, 3),
    "projector": (7, 3, 3),
    "projector_screen": (7, 3, 3),
    "manage": (9, 3, 3),  # the entries kept for the director (one query, any size)
    "manage_tables": (5, 3, 3),
}


def running(n_players: int):
    """Round 1 played, round 2 under way: a table confirmed, one with a deal, the rest empty."""
    t, _ = make_tournament(n_players, rounds=3, deals=2)
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    tables = list(Table.objects.filter(tournament=t, round=2).order_by("number"))
    play_table(tables[0])
    play_table(tables[1], confirm=False)
    return t


def counts(client: Client, name: str, t) -> tuple[int, int, int]:
    url = reverse(f"tournaments:{name}", args=[t.pk])
    client.get(url)  # warm caches that are not per request (content types, translations)
    cache.clear()
    found = []
    etag = None
    for headers in ({}, {}, "etag"):
        if headers == "etag":
            headers = {"If-None-Match": etag}
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url, headers=headers)
        assert response.status_code == (304 if "If-None-Match" in headers else 200)
        etag = response["ETag"]
        found.append(len(ctx.captured_queries))
    return tuple(found)


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


@pytest.mark.parametrize("name", sorted(PAGES))
def test_a_page_makes_as_many_queries_for_200_players_as_for_20(director_client, name):
    small = counts(director_client, name, running(SMALL))
    large = counts(director_client, name, running(LARGE))
    assert (small, large) == (PAGES[name], PAGES[name])
