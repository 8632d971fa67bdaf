"""Every round's tables stay reachable from the director's page, which refreshes itself
(htmx polling of a fragment, no meta refresh); the "all deals" page links to each table
(issue 11, item 7)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

from .helpers import make_tournament, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(director):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(director)
    return c


@pytest.fixture
def at_round_3():
    t, players = make_tournament(8, rounds=4, deals=1)
    t = services.tournament_start(tournament=t)
    for _ in range(2):
        play_round(t)
        t = services.tournament_next_round(tournament=t)
    return t


def test_every_rounds_tables_are_reachable(director_client, at_round_3):
    t = at_round_3
    manage = reverse("tournaments:manage", args=[t.pk])
    page = director_client.get(manage).content.decode()
    for n in (1, 2, 3):
        assert f'href="{manage}?round={n}"' in page
    for n in (1, 2):
        page = director_client.get(manage, {"round": n}).content.decode()
        for table in Table.objects.filter(tournament=t, round=n):
            assert reverse("games:sheet", args=[table.game.token]) in page
        # another round's tables are not on it
        other = Table.objects.filter(tournament=t, round=3).first()
        assert reverse("games:sheet", args=[other.game.token]) not in page
        assert "Start the next round" not in page  # acting happens on the current round


def test_a_hostile_round_falls_back_to_the_current_one(director_client, at_round_3):
    t = at_round_3
    manage = reverse("tournaments:manage", args=[t.pk])
    current = Table.objects.filter(tournament=t, round=3).first()
    for bad in ("0", "4", "99999999999999999999", "-1", "x", "١", "1 OR 1=1"):
        for url in (manage, reverse("tournaments:manage_tables", args=[t.pk])):
            response = director_client.get(url, {"round": bad})
            assert response.status_code == 200, bad
            assert reverse("games:sheet", args=[current.game.token]) in response.content.decode()


def test_the_directors_page_polls_a_fragment(director_client, client, member, at_round_3):
    t = at_round_3
    page = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    fragment_url = reverse("tournaments:manage_tables", args=[t.pk])
    assert f'hx-get="{fragment_url}"' in page
    assert 'hx-trigger="every ' in page
    assert 'http-equiv="refresh"' not in page
    fragment = director_client.get(fragment_url, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert "<html" not in html and 'id="round-tables"' in html
    # it follows the tournament: once the round moves on, the poll shows the new round
    play_round(t)
    services.tournament_next_round(tournament=t)
    html = director_client.get(fragment_url).content.decode()
    new = Table.objects.filter(tournament=t, round=4).first()
    assert reverse("games:sheet", args=[new.game.token]) in html
    # directors only
    assert client.get(fragment_url).status_code == 302
    client.force_login(member)
    assert client.get(fragment_url).status_code == 403


def test_a_finished_tournament_does_not_poll(director_client):
    t, _ = make_tournament(4, rounds=1, deals=1)
    t = services.tournament_start(tournament=t)
    play_round(t)
    services.tournament_next_round(tournament=t)
    page = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert 'hx-trigger="every ' not in page


def test_the_all_deals_page_links_to_each_table(director_client, client, at_round_3):
    t = at_round_3
    deals = reverse("reports:deals", args=[t.pk])
    tables = Table.objects.filter(tournament=t, round__lte=2)
    # the public page links each table to its own deals, never to its share link
    page = client.get(deals).content.decode()
    for table in tables:
        assert f"{deals}?round={table.round}&amp;table={table.number}" in page
        assert table.game.token not in page
    one = tables.first()
    page = client.get(deals, {"round": one.round, "table": one.number}).content.decode()
    assert page.count('class="seat-score"') == one.game.deals.count() * 4
    # a director's page links each table to its sheet
    page = director_client.get(deals).content.decode()
    for table in tables:
        assert reverse("games:sheet", args=[table.game.token]) in page
    # hostile filters: the whole list, no error
    for bad in ({"table": "x"}, {"table": "999"}, {"round": "1", "table": "-3"}):
        assert client.get(deals, bad).status_code == 200


def test_the_all_deals_tables_frame_is_focusable(client, at_round_3):
    page = client.get(reverse("reports:deals", args=[at_round_3.pk])).content.decode()
    assert 'class="table-wrap" tabindex="0" role="region"' in page


def test_a_poll_after_the_session_ended_reloads_the_page(client, member, at_round_3):
    """htmx follows a redirect and would swap the login page into the section: instead the
    poll asks for a full reload (which then shows the login page)."""
    url = reverse("tournaments:manage_tables", args=[at_round_3.pk])
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Refresh"] == "true"
    client.force_login(member)
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Refresh"] == "true"
