"""The projector pages through the standings in large type, updated in place by htmx, with
no meta refresh (issue 11, item 10)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tarotclub.tournaments import services

from .helpers import make_tournament, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    t, players = make_tournament(70, rounds=3, deals=1)
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    return t, players


def names_on(html: str, players) -> set[str]:
    return {p.name for p in players if p.name in html}


def test_the_pages_hold_every_player_once(client, evening):
    t, players = evening
    url = reverse("tournaments:projector", args=[t.pk])
    html = client.get(url).content.decode()
    assert 'http-equiv="refresh"' not in html
    screen = reverse("tournaments:projector_screen", args=[t.pk])
    assert f'hx-get="{screen}?page=2"' in html and 'hx-trigger="every ' in html
    pages = int(re.search(r'data-pages="(\d+)"', html).group(1))
    per_page = int(re.search(r'data-per-page="(\d+)"', html).group(1))
    assert pages == -(-70 // per_page) and pages > 1
    seen: list[set[str]] = []
    for n in range(1, pages + 1):
        fragment = client.get(screen, {"page": n}).content.decode()
        assert "<html" not in fragment
        seen.append(names_on(fragment, players))
        following = n % pages + 1  # the last page hands over to the first
        assert f'hx-get="{screen}?page={following}"' in fragment
    assert set().union(*seen) == {p.name for p in players}
    assert sum(len(s) for s in seen) == 70  # each name on one page only


def test_the_projector_shows_the_rounds_progress(client, evening):
    t, _ = evening
    html = client.get(reverse("tournaments:projector", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = html.content.decode()
    tables = t.tables.filter(round=2).count()
    assert "round 2 of 3" in text
    assert f"0 of {tables} tables confirmed" in text
    assert "<progress" in text


@pytest.mark.parametrize("bad", ["0", "999", "-1", "x", "٣", "1" * 40])
def test_a_hostile_page_number_shows_a_page(client, evening, bad):
    t, _ = evening
    for name in ("projector", "projector_screen"):
        response = client.get(reverse(f"tournaments:{name}", args=[t.pk]), {"page": bad})
        assert response.status_code == 200


def test_an_empty_tournament_on_the_projector(client):
    t, _ = make_tournament(0, rounds=1)
    response = client.get(reverse("tournaments:projector", args=[t.pk]))
    assert response.status_code == 200
    assert client.get(reverse("tournaments:projector_screen", args=[t.pk])).status_code == 200
