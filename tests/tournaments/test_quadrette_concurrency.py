"""Quadrettes from several phones and screens at once: real threads on a real database
(SQLite by default, PostgreSQL with DATABASE_URL). Never a server error, never a board
entered twice, never a team half registered, never a player in two teams."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.tournaments import quadrette, quadrette_services, services
from tarotclub.tournaments.models import Entry, Table, Tournament

from .quadrette_helpers import garde_for, make_quadrette
from .test_concurrency import logged_in, page, together

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def director_user(django_user_model):
    return django_user_model.objects.create_user(
        username="director", password="pw-director-1", is_staff=True
    )


def new_event() -> Tournament:
    return services.tournament_create(
        name="Quadrettes", date=dt.date(2026, 12, 2), rounds=1, format="quadrette"
    )


def team(name, *members):
    keys = ("attacker", "north", "east", "west")
    return {"register": "1", "team": name, **dict(zip(keys, members, strict=True))}


def deal(game, number: int, score: int) -> dict:
    data = {
        "taker": game.options["imposed"][number - 1][0],
        "points_side": "attack",
        "chelem": "none",
        "number": str(number),
    }
    data.update({k: str(v) for k, v in garde_for(score).items()})
    return data


def test_the_two_tables_of_an_opposition_enter_the_same_board_at_once():
    t, _teams = make_quadrette(2, rounds=1)
    services.tournament_start(tournament=t)
    games = {tb.number: tb.game for tb in Table.objects.filter(tournament=t).select_related("game")}
    phones = [Client(raise_request_exception=False) for _ in range(2)]
    responses = together(
        lambda: phones[0].post(
            reverse("games:deal_new", args=[games[1].token]), deal(games[1], 1, 66)
        ),
        lambda: phones[1].post(
            reverse("games:deal_new", args=[games[2].token]), deal(games[2], 1, 82)
        ),
    )
    assert all(r.status_code < 500 for r in responses)
    g = quadrette.graded(Tournament.objects.get(pk=t.pk))
    assert quadrette.board_scores(t) == {(1, 1, 1): 66, (1, 2, 1): 82}
    # team 1's attacker made +82 at table 2, team 2's +66 at table 1: +4 PM for team 1
    assert g.totals == {1: Decimal("4.000"), 2: Decimal("-4.000")}


def test_two_phones_of_one_table_sending_the_same_board_enter_it_once():
    t, _teams = make_quadrette(2, rounds=1)
    services.tournament_start(tournament=t)
    game = Table.objects.select_related("game").get(tournament=t, number=1).game
    url = reverse("games:deal_new", args=[game.token])
    phones = [Client(raise_request_exception=False) for _ in range(3)]
    responses = together(*[lambda p=p: p.post(url, deal(game, 1, 56)) for p in phones])
    assert all(r.status_code < 500 for r in responses)
    assert game.deals.count() == 1
    assert quadrette.board_scores(t) == {(1, 1, 1): 56}


def test_two_teams_registered_at_once_are_both_kept(director_user):
    t = new_event()
    url = reverse("tournaments:quadrette_teams", args=[t.pk])
    a, b = logged_in(director_user), logged_in(director_user)
    responses = together(
        lambda: a.post(url, team("Les Rois", "Paul Dupont", "Anne Martin", "Léa Roux", "Ugo Vert")),
        lambda: b.post(
            url, team("Les Dames", "Marc Bernard", "Julie Petit", "Yves Moreau", "Ida Noir")
        ),
    )
    assert [r.status_code for r in responses] == [302, 302]
    assert Entry.objects.filter(tournament=t).count() == 8
    assert LogEntry.objects.filter(action=quadrette_services.TEAM_REGISTERED).count() == 2


def test_the_same_team_sent_from_three_screens_is_registered_once(director_user):
    t = new_event()
    url = reverse("tournaments:quadrette_teams", args=[t.pk])
    clients = [logged_in(director_user) for _ in range(3)]
    data = team("Les Valets", "Hugo Faure", "Inès Girard", "Noé Lambert", "Eva Caron")
    responses = together(*[lambda c=c: c.post(url, data) for c in clients])
    assert all(r.status_code < 500 for r in responses)
    assert Entry.objects.filter(tournament=t).count() == 4
    assert sum("already a quadrette called" in page(r) for r in responses) == 2


def test_a_player_claimed_by_two_teams_at_once_plays_in_one(director_user):
    t = new_event()
    url = reverse("tournaments:quadrette_teams", args=[t.pk])
    a, b = logged_in(director_user), logged_in(director_user)
    responses = together(
        lambda: a.post(url, team("One", "Eva Caron", "Luc Mercier", "Zoé Vidal", "Al Bo")),
        lambda: b.post(url, team("Two", "Zoé Vidal", "Max Blanc", "Ida Noir", "Cy Do")),
    )
    assert all(r.status_code < 500 for r in responses)
    assert Entry.objects.filter(tournament=t, player__name="Zoé Vidal").count() == 1
    assert Entry.objects.filter(tournament=t).count() == 4
    assert sum("already plays in quadrette" in page(r) for r in responses) == 1


def test_a_start_tapped_on_two_screens_starts_once(director_user):
    t, _teams = make_quadrette(2, rounds=1)
    url = reverse("tournaments:start", args=[t.pk])
    a, b = logged_in(director_user), logged_in(director_user)
    responses = together(
        lambda: a.post(url, {"from_round": "0"}), lambda: b.post(url, {"from_round": "0"})
    )
    assert all(r.status_code < 500 for r in responses)
    assert Table.objects.filter(tournament=t).count() == 2
