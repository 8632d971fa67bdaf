"""Issue 13: the season's standings, projector page and screen link each name to the
player's page for a member; anonymously (the wall, a visitor) the names are plain, and the
PDF never holds a link."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.seasons import services
from tarotclub.seasons.views import standings_context

from .helpers import roster, tournament

pytestmark = pytest.mark.django_db

LINK = re.compile(r'class="player-link" href="/players/(\d+)/"')


@pytest.fixture
def season_players():
    players = roster(6, "Joueur")
    t = tournament(players, dt.date(2026, 2, 6), shift=1)
    season = services.season_create(
        name="Championnat", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31),
        formula="total", tournaments=[t],
    )  # fmt: skip
    return season, players


@pytest.mark.parametrize("name", ["standings", "projector", "projector_screen"])
def test_a_member_reads_links_and_an_anonymous_reader_plain_names(member, season_players, name):
    season, players = season_players
    url = reverse(f"seasons:{name}", args=[season.pk])
    anonymous = Client().get(url).content.decode()
    assert "player-link" not in anonymous
    assert all(p.name in anonymous for p in players)
    c = Client()
    c.force_login(member)
    assert {int(pk) for pk in LINK.findall(c.get(url).content.decode())} == {p.pk for p in players}


def test_the_pdfs_grid_has_no_link(season_players):
    season, _ = season_players
    assert "player-link" not in str(standings_context(season)["grid"])
