"""Issue 13: a player's name is a link to their page wherever a member reads it (standings,
projector page and screen, the director's page, "where do I sit?"); an anonymous reader (a
phone from a table's share link, the wall) gets the names without links, never a link to a
page that would refuse them. The pages are cached per tournament revision: the cache keeps
the two readers apart."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

from .helpers import make_tournament, play_round, play_table

pytestmark = pytest.mark.django_db

PUBLIC = ["standings", "projector", "projector_screen"]


def running(n: int = 9):
    t, players = make_tournament(n, rounds=3, deals=2)
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    play_table(Table.objects.filter(tournament=t, round=2).order_by("number").first())
    return t, players


def linked(html: str) -> set[int]:
    """The pks of the players whose page the markup links to."""
    return {int(pk) for pk in re.findall(r'class="player-link" href="/players/(\d+)/"', html)}


def text(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def member_client(member):
    c = Client()
    c.force_login(member)
    return c


@pytest.mark.parametrize("name", PUBLIC)
def test_a_member_reads_links_and_an_anonymous_reader_none_from_the_same_cached_page(
    member_client, name
):
    t, players = running()
    url = reverse(f"tournaments:{name}", args=[t.pk])
    anonymous = text(Client().get(url))  # first: the cache now holds the anonymous page
    member = text(member_client.get(url))
    again = text(Client().get(url))  # and the member's page did not replace it
    assert "player-link" not in anonymous and "player-link" not in again
    assert linked(member) == {p.pk for p in players}
    for p in players:  # every name is still there for the anonymous reader
        assert p.name in anonymous


def test_the_directors_lists_link_each_player(director):
    t, players = running()
    c = Client()
    c.force_login(director)
    html = text(c.get(reverse("tournaments:manage", args=[t.pk])))
    entries = html.split('<ul class="entries">')[1].split("</ul>")[0]
    seats = html.split('<ul class="round-tables">')[1].split("</section>")[0]
    assert linked(entries) == {p.pk for p in players}
    assert linked(seats) == {p.pk for p in players}
    polled = text(c.get(reverse("tournaments:manage_tables", args=[t.pk])))
    assert linked(polled) == {p.pk for p in players}


def test_where_do_i_sit_links_the_name_for_a_member_only(member_client):
    t, players = running()
    url = reverse("tournaments:where", args=[t.pk]) + "?q=" + players[0].name[:4]
    assert "player-link" not in text(Client().get(url))
    assert players[0].pk in linked(text(member_client.get(url)))


@pytest.mark.parametrize("name", PUBLIC)
def test_the_links_cost_no_query_a_player(member_client, name):
    from .test_page_queries import counts

    small, _ = running(8)
    large, _ = running(24)
    assert counts(member_client, name, small) == counts(member_client, name, large)
    assert counts(Client(), name, small) == counts(Client(), name, large)
