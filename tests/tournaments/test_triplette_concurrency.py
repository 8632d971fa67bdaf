"""Triplettes from several screens at once: real threads on a real database (SQLite by
default, PostgreSQL with DATABASE_URL). Never a server error, never a team half registered,
never a player in two teams."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.tournaments import services, triplette_services
from tarotclub.tournaments.models import Entry, Tournament

from .test_concurrency import logged_in, page, together

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def director_user(django_user_model):
    return django_user_model.objects.create_user(
        username="director", password="pw-director-1", is_staff=True
    )


def new_event() -> Tournament:
    return services.tournament_create(
        name="Triplettes", date=dt.date(2026, 12, 2), rounds=2, format="triplette", seed=1
    )


def team(name, *members, line=""):
    data = {"register": "1", "team": name, "line": line}
    data.update({f"player_{i}": m for i, m in enumerate(members, start=1)})
    return data


def test_two_teams_registered_at_once_are_both_kept(director_user):
    t = new_event()
    url = reverse("tournaments:triplette_teams", args=[t.pk])
    a, b = logged_in(director_user), logged_in(director_user)
    responses = together(
        lambda: a.post(url, team("Les Rois", "Paul Dupont", "Anne Martin", "Léa Roux")),
        lambda: b.post(url, team("Les Dames", "Marc Bernard", "Julie Petit", "Yves Moreau")),
    )
    assert [r.status_code for r in responses] == [302, 302]
    assert Entry.objects.filter(tournament=t).count() == 6
    # without a line given, the two were put on different lines (under the lock)
    assert sorted(set(Entry.objects.values_list("line", flat=True))) == ["EW", "NS"]
    assert LogEntry.objects.filter(action=triplette_services.TEAM_REGISTERED).count() == 2


def test_the_same_team_sent_from_three_screens_is_registered_once(director_user):
    t = new_event()
    url = reverse("tournaments:triplette_teams", args=[t.pk])
    clients = [logged_in(director_user) for _ in range(3)]
    data = team("Les Valets", "Hugo Faure", "Inès Girard", "Noé Lambert")
    responses = together(*[lambda c=c: c.post(url, data) for c in clients])
    assert all(r.status_code < 500 for r in responses)
    assert Entry.objects.filter(tournament=t).count() == 3
    assert sum("already a triplette called" in page(r) for r in responses) == 2


def test_a_player_claimed_by_two_teams_at_once_plays_in_one(director_user):
    t = new_event()
    url = reverse("tournaments:triplette_teams", args=[t.pk])
    a, b = logged_in(director_user), logged_in(director_user)
    responses = together(
        lambda: a.post(url, team("One", "Eva Caron", "Luc Mercier", "Zoé Vidal")),
        lambda: b.post(url, team("Two", "Zoé Vidal", "Max Blanc", "Ida Noir")),
    )
    assert all(r.status_code < 500 for r in responses)
    assert Entry.objects.filter(tournament=t, player__name="Zoé Vidal").count() == 1
    assert Entry.objects.filter(tournament=t).count() == 3
    assert sum("already plays in triplette" in page(r) for r in responses) == 1
