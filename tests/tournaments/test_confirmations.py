"""Irreversible actions ask first (issue 11, item 9), and a finished tournament can be reopened.

Confirming a table's sheet, withdrawing or removing a player and finishing the tournament
each have a page: GET says what will happen and changes nothing; POST does it. The pages
that lead there offer a link, not a button that acts at once.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Status, Table

from .helpers import make_tournament, play_round, play_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(director):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(director)
    return c


def history(t, code):
    return LogEntry.objects.for_object(t).filter(action=code)


def forms_to(html: str, url: str) -> int:
    return len(re.findall(rf'<form[^>]*action="{re.escape(url)}"', html))


# --- confirming a table's sheet -----------------------------------------------------------


def test_confirming_a_sheet_asks_first(client):
    t, _ = make_tournament(4, rounds=1, deals=2)
    t = services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t)
    play_table(table, confirm=False)
    url = reverse("tournaments:confirm", args=[table.game.token])
    sheet = client.get(reverse("games:sheet", args=[table.game.token])).content.decode()
    assert forms_to(sheet, url) == 0  # no button that locks at once
    assert f'href="{url}"' in sheet
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    text = page.content.decode()
    assert "only the director" in text
    for seat in table.game.seats.select_related("player"):
        assert seat.player.name in text  # the totals being confirmed
    table.game.refresh_from_db()
    assert not table.game.locked  # a GET changes nothing
    assert client.post(url).status_code == 302
    table.game.refresh_from_db()
    assert table.game.locked


def test_the_confirmation_page_of_an_unknown_or_casual_table(client, game4):
    assert client.get(reverse("tournaments:confirm", args=["x" * 20])).status_code == 404
    response = client.get(reverse("tournaments:confirm", args=[game4.token]))
    assert response.status_code == 302  # back to the sheet, with the reason


# --- withdrawing, removing ------------------------------------------------------------------


def test_removing_a_registration_asks_first(director_client):
    t, players = make_tournament(5, rounds=2, deals=1)
    entry = t.entries.get(player=players[0])
    url = reverse("tournaments:withdraw", args=[t.pk, entry.pk])
    manage = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert forms_to(manage, url) == 0 and f'href="{url}"' in manage
    page = director_client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert players[0].name in text and "removed" in text
    assert t.entries.filter(pk=entry.pk).exists()
    director_client.post(url, {"from_round": "0"})
    assert not t.entries.filter(pk=entry.pk).exists()


def test_withdrawing_a_player_asks_first(director_client):
    t, players = make_tournament(9, rounds=3, deals=1)
    t = services.tournament_start(tournament=t)
    entry = t.entries.get(player=players[0])
    url = reverse("tournaments:withdraw", args=[t.pk, entry.pk])
    text = director_client.get(url).content.decode()
    assert "from round 2" in text and "scores" in text
    entry.refresh_from_db()
    assert not entry.withdrawn
    director_client.post(url, {"from_round": "1"})
    entry.refresh_from_db()
    assert entry.withdrawn


def test_the_withdraw_page_with_hostile_ids(director_client):
    t, players = make_tournament(4, rounds=1, deals=1)
    other, _ = make_tournament(4, rounds=1, deals=1)
    foreign = other.entries.first()
    assert director_client.get(f"/tournaments/{t.pk}/withdraw/{foreign.pk}/").status_code == 404
    assert director_client.get(f"/tournaments/{t.pk}/withdraw/99999/").status_code == 404


# --- finishing and reopening ----------------------------------------------------------------


def finished_tournament():
    t, players = make_tournament(4, rounds=1, deals=1)
    t = services.tournament_start(tournament=t)
    play_round(t)
    return t, players


def test_finishing_asks_first_even_when_every_table_is_confirmed(director_client):
    t, _ = finished_tournament()  # the last round's tables are all confirmed
    url = reverse("tournaments:next", args=[t.pk])
    manage = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert forms_to(manage, url) == 0 and f'href="{url}"' in manage
    page = director_client.get(url).content.decode()
    assert "Finish the tournament?" in page and "final" in page
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    director_client.post(url, {"from_round": "1", "force": "1"})
    t.refresh_from_db()
    assert t.status == Status.FINISHED


def test_a_director_reopens_a_finished_tournament(director_client, director):
    t, _ = finished_tournament()
    t = services.tournament_next_round(tournament=t)
    assert t.status == Status.FINISHED
    url = reverse("tournaments:reopen", args=[t.pk])
    manage = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert f'href="{url}"' in manage
    page = director_client.get(url)
    assert page.status_code == 200 and "Reopen" in page.content.decode()
    t.refresh_from_db()
    assert t.status == Status.FINISHED  # a GET changes nothing
    director_client.post(url)
    t.refresh_from_db()
    assert t.status == Status.RUNNING and t.current_round == t.rounds
    [entry] = history(t, services.REOPENED)
    assert entry.before == {"status": "finished"} and entry.after["status"] == "running"
    assert entry.user == director
    # a correction, then the tournament is finished again
    table = Table.objects.get(tournament=t)
    services.table_unlock(table=table, user=director)
    services.table_confirm(table=table)
    t = services.tournament_next_round(tournament=t, from_round=t.rounds)
    assert t.status == Status.FINISHED


def test_reopening_twice_reopens_once(director_client):
    t, _ = finished_tournament()
    t = services.tournament_next_round(tournament=t)
    url = reverse("tournaments:reopen", args=[t.pk])
    director_client.post(url)
    response = director_client.post(url, follow=True)  # the double tap
    assert response.status_code == 200
    assert "is not finished" in response.content.decode()
    assert history(t, services.REOPENED).count() == 1
    with pytest.raises(services.TournamentError):
        services.tournament_reopen(tournament=t)


def test_only_a_finished_tournament_is_reopened(director_client, client, member):
    t, _ = make_tournament(4, rounds=1, deals=1)
    with pytest.raises(services.TournamentError):
        services.tournament_reopen(tournament=t)
    url = reverse("tournaments:reopen", args=[t.pk])
    assert director_client.post(url).status_code == 302
    t.refresh_from_db()
    assert t.status == Status.REGISTRATION
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(member)
    assert client.post(url).status_code == 403
    assert director_client.get(reverse("tournaments:reopen", args=[99999])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_two_screens_reopen_at_the_same_moment(director):
    from .test_concurrency import together

    t, _ = finished_tournament()
    t = services.tournament_next_round(tournament=t)

    def tap():
        c = Client(raise_request_exception=False)
        c.force_login(director)
        return c.post(reverse("tournaments:reopen", args=[t.pk])).status_code

    assert together(tap, tap) == [302, 302]
    assert history(t, services.REOPENED).count() == 1
    t.refresh_from_db()
    assert t.status == Status.RUNNING
