"""The free-deal printouts and downloads answer for a quadrette tournament (the
attacker South, the defence at its own table): never a server error."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table
from tests.core.test_robustness import route_names
from tests.tournaments.quadrette_helpers import make_quadrette, play_quadrette_round

pytestmark = pytest.mark.django_db


def test_every_tournament_and_table_download_answers(director):
    c = Client(raise_request_exception=False)
    c.force_login(director)
    t, _teams = make_quadrette(4, rounds=2)
    services.tournament_start(tournament=t)
    play_quadrette_round(t)
    game = Table.objects.filter(tournament=t, round=1).first().game
    values = {"pk": t.pk, "token": game.token, "fmt": "csv", "round_number": 1, "number": 1}
    checked = []
    for name, params in route_names():
        if not name.startswith("reports:") or not set(params) <= set(values):
            continue
        if not {"pk", "token"} & set(params):
            continue
        url = reverse(name, kwargs={p: values[p] for p in params})
        response = c.get(url)
        assert response.status_code < 500, (url, response.status_code)
        checked.append(name)
    assert len(checked) >= 8, checked
