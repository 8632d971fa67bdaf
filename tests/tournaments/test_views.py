"""The tournament through its pages: director, tables, public pages."""

from __future__ import annotations

import pytest
from django.db.models import Max
from django.test import Client
from django.urls import reverse

from tarotclub.kinds.tarot.models import Deal
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Entry, Status, Table, Tournament

from .helpers import make_tournament, play_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


def test_directing_needs_a_staff_account(client, member):
    assert client.get(reverse("tournaments:new")).status_code == 302
    client.force_login(member)
    assert client.get(reverse("tournaments:new")).status_code == 403


def test_the_whole_evening_through_the_pages(director_client, client, make_players):
    c = director_client
    response = c.post(
        reverse("tournaments:new"),
        {
            "name": "Coupe d'hiver",
            "date": "2026-12-05",
            "rounds": "2",
            "deals_per_round": "1",
            "ranking": "total",
        },
    )
    t = Tournament.objects.get()
    assert response.status_code == 302
    manage = reverse("tournaments:manage", args=[t.pk])
    players = make_players(*[f"Joueur {i}" for i in range(8)])
    for p in players:
        c.post(manage, {"register": "1", "player": p.pk})
    c.post(manage, {"register": "1", "guest_name": "Invité", "licence": "X99"})
    assert t.entries.count() == 9
    c.post(reverse("tournaments:start", args=[t.pk]), {"from_round": "0"})
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    page = c.get(manage).content.decode()
    assert "not started" in page and "Round 1" in page
    # each table enters its deals through its own link, then confirms
    for table in Table.objects.filter(tournament=t, round=1):
        play_table(table, confirm=False)
        response = client.post(reverse("tournaments:confirm", args=[table.game.token]))
        assert response.status_code == 302
    assert "confirmed" in c.get(manage).content.decode()
    c.post(reverse("tournaments:next", args=[t.pk]), {"from_round": "1"})
    t.refresh_from_db()
    assert t.current_round == 2
    # the public pages
    standings = client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    assert "Invité" in standings and "X99" in standings
    projector = client.get(reverse("tournaments:projector", args=[t.pk])).content.decode()
    assert 'http-equiv="refresh"' not in projector and "round 2 of 2" in projector
    assert 'hx-trigger="every ' in projector  # htmx updates it in place
    where = client.get(reverse("tournaments:where", args=[t.pk]), {"q": "invit"})
    assert "Table" in where.content.decode() and "Invité" in where.content.decode()


def test_forcing_the_next_round_names_the_open_tables(director_client):
    t, _ = make_tournament(8)
    services.tournament_start(tournament=t)
    page = director_client.get(reverse("tournaments:next", args=[t.pk])).content.decode()
    assert "table 1" in page and "table 2" in page
    t.refresh_from_db()
    assert t.current_round == 1  # GET changes nothing
    director_client.post(
        reverse("tournaments:next", args=[t.pk]), {"force": "1", "from_round": "1"}
    )
    t.refresh_from_db()
    assert t.current_round == 2


def test_a_confirmed_sheet_is_locked_for_the_table_link(client, director_client):
    t, _ = make_tournament(8)
    services.tournament_start(tournament=t)
    table = Table.objects.filter(tournament=t).first()
    play_table(table)
    deal_new = reverse("games:deal_new", args=[table.game.token])
    assert client.get(deal_new).status_code == 302  # refused, back to the sheet
    edit = reverse("games:deal_edit", args=[table.game.token, 1])
    response = client.post(edit, {"taker": "1"}, follow=True)
    assert "only the director" in response.content.decode()
    # the director unlocks it
    director_client.post(reverse("tournaments:unlock", args=[t.pk, table.pk]))
    table.game.refresh_from_db()
    assert not table.game.locked


def test_registration_refusals(director_client):
    t, players = make_tournament(4)
    manage = reverse("tournaments:manage", args=[t.pk])
    for data in [
        {"register": "1"},
        {"register": "1", "player": "999999"},
        {"register": "1", "player": "abc"},
        {"register": "1", "player": players[0].pk},
        {"register": "1", "player": players[0].pk, "guest_name": "Both"},
    ]:
        response = director_client.post(manage, data)
        assert response.status_code == 200
        assert 'class="errors"' in response.content.decode() or "field-error" in (
            response.content.decode()
        )
    assert Entry.objects.filter(tournament=t).count() == 4


def _unused_pk(model) -> int:
    """A primary key no row has (not a fixed number such as 999, which a row may hold)."""
    return (model.objects.aggregate(top=Max("pk"))["top"] or 0) + 1000


def test_bad_urls_are_404(client, director_client):
    t, _ = make_tournament(4)
    services.tournament_start(tournament=t)
    other, _ = make_tournament(4)
    services.tournament_start(tournament=other)
    missing = _unused_pk(Tournament)
    for page in ("", "projector/", "where/"):
        assert client.get(f"/tournaments/{missing}/{page}").status_code == 404
    assert client.post("/t/nope/confirm/").status_code == 404
    # an entry or a table that does not exist, or that is another tournament's
    foreign_entry = Entry.objects.filter(tournament=other).first().pk
    foreign_table = Table.objects.filter(tournament=other).first().pk
    for entry in (_unused_pk(Entry), foreign_entry):
        assert director_client.post(f"/tournaments/{t.pk}/withdraw/{entry}/").status_code == 404
    for table in (_unused_pk(Table), foreign_table):
        assert director_client.post(f"/tournaments/{t.pk}/unlock/{table}/").status_code == 404
    assert not Entry.objects.filter(last_round__isnull=False).exists()  # nobody withdrawn
    assert Entry.objects.count() == 8


def test_where_do_i_sit_before_the_start_and_with_one_letter(client):
    t, _ = make_tournament(4)
    page = client.get(reverse("tournaments:where", args=[t.pk]), {"q": "Player"})
    assert "not started" in page.content.decode()
    services.tournament_start(tournament=t)
    page = client.get(reverse("tournaments:where", args=[t.pk]), {"q": "P"})
    assert "at least two letters" in page.content.decode()


def test_confirming_an_incomplete_sheet_says_why(client):
    t, _ = make_tournament(4)
    services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t)
    response = client.post(reverse("tournaments:confirm", args=[table.game.token]), follow=True)
    assert "0 of 4 deals" in response.content.decode()
    assert not Deal.objects.exists()
