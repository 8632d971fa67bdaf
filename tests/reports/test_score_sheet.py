"""The federation's score sheet on screen (reports:score_sheet): a tournament table's, linked
from its live sheet; none for a game outside a tournament; as many queries at a table of five
(five deals) as at a table of four."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table
from tests.tournaments.helpers import make_tournament, play_table

pytestmark = pytest.mark.django_db


def queries(client, url) -> int:
    client.get(url)  # warm what is not per request
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_a_tables_score_sheet_is_linked_from_its_live_sheet(english_client):
    t, _ = make_tournament(9, rounds=2, deals=2)
    t = services.tournament_start(tournament=t)
    small, large = sorted(
        Table.objects.filter(tournament=t, round=1).select_related("game"),
        key=lambda x: x.game.seats.count(),
    )
    url = reverse("reports:score_sheet", args=[small.game.token])
    live = english_client.get(reverse("games:sheet", args=[small.game.token])).content.decode()
    assert f'href="{url}"' in live
    play_table(small)
    play_table(large)
    before = queries(english_client, url)
    response = english_client.get(url)
    html = response.content.decode()
    assert "Welcome and good luck" in html and "Balance" in html
    sheet = response.context["sheet"]
    assert [x.balance for x in sheet.fed.totals] == [
        sum(line.score for d in small.game.deals.all() for line in d.lines.filter(player=p.pk))
        for p in sheet.fed.players
    ]
    assert queries(english_client, reverse("reports:score_sheet", args=[large.game.token])) == (
        before
    )


def test_a_game_outside_a_tournament_has_no_federation_sheet(game4, english_client):
    response = english_client.get(reverse("reports:score_sheet", args=[game4.token]))
    assert response.status_code == 404
    live = english_client.get(reverse("games:sheet", args=[game4.token])).content.decode()
    assert "/scoresheet/" not in live
