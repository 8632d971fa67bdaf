"""Quadrette tournaments' pages: creation and teams through the forms, the start's refusals,
the oppositions with the missing boards, the deal screen with the imposed attacker, the
public ranking (the worked +20.186 PM), the downloads, hostile input; queries pinned."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.tournaments import quadrette, services
from tarotclub.tournaments.models import Entry, Table, Tournament

from .quadrette_helpers import enter_board, garde_for, make_quadrette, play_quadrette_round
from .test_quadrette_services import example_score

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


def team(name, attacker, north, east, west):
    return {
        "register": "1",
        "team": name,
        "attacker": attacker,
        "north": north,
        "east": east,
        "west": west,
    }


def test_a_director_creates_a_quadrette_event_registers_teams_and_starts(director_client):
    c = director_client
    response = c.post(
        reverse("tournaments:new"),
        {
            "name": "Quadrettes du jeudi",
            "date": "2026-12-05",
            "rounds": "3",
            "deals_per_round": "4",
            "ranking": "total",
            "format": "quadrette",
        },
    )
    t = Tournament.objects.get()
    url = reverse("tournaments:quadrette_teams", args=[t.pk])
    assert response.status_code == 302 and response.url == url
    assert t.quadrette
    page = c.get(url).content.decode()
    assert 'name="attacker"' in page and 'name="west"' in page
    assert "must be even" in page  # the page says there is no bye
    for i in range(3):
        r = c.post(url, team(f"Équipe {i}", f"Anne Z{i}", f"Bob Y{i}", f"Carl X{i}", f"Dan W{i}"))
        assert r.status_code == 302
    assert Entry.objects.count() == 12
    # 3 teams: the start is refused with the reason, nothing changes
    r = c.post(reverse("tournaments:start", args=[t.pk]), {"from_round": "0"}, follow=True)
    assert "must be even (here 3)" in r.content.decode()
    t.refresh_from_db()
    assert t.status == "registration" and not Table.objects.exists()
    # refused: a player already in a team; a field missing
    r = c.post(url, team("Five", "Anne Z0", "E1", "E2", "E3"))
    assert r.status_code == 200 and "already plays in quadrette" in r.content.decode()
    r = c.post(url, {**team("Six", "F1", "F2", "F3", ""), "west": ""})
    assert r.status_code == 200
    assert Entry.objects.count() == 12
    c.post(url, team("Équipe 3", "Eve V", "Fay U", "Gus T", "Hal S"))
    r = c.post(reverse("tournaments:start", args=[t.pk]), {"from_round": "0"})
    t.refresh_from_db()
    assert t.status == "running" and t.table_count == 4
    assert Table.objects.filter(tournament=t, round=1).count() == 4
    # a second tap of the start is refused, nothing twice
    c.post(reverse("tournaments:start", args=[t.pk]), {"from_round": "0"})
    assert Table.objects.filter(tournament=t).count() == 4
    page = c.get(url).content.decode()
    assert 'name="register"' not in page and "table 1" in page


def test_the_worked_result_on_the_public_page_and_downloads(director_client, client):
    t, _teams = make_quadrette(4, rounds=2, names=["A", "B", "C", "D"])
    services.tournament_start(tournament=t)
    play_quadrette_round(t, example_score)
    pk = t.pk
    # the director sees round 2's boards all missing, with the tables' sheets
    services.tournament_next_round(tournament=t, from_round=1)
    boards = director_client.get(reverse("tournaments:quadrette_boards", args=[pk]))
    page = boards.content.decode()
    assert boards.status_code == 200
    assert "16 boards still missing" in page and "missing: 5, 6, 7, 8" in page
    assert page.count("all boards entered") == 0
    round_1 = director_client.get(reverse("tournaments:quadrette_boards", args=[pk]) + "?round=1")
    assert round_1.content.decode().count("all boards entered") == 4
    play_quadrette_round(t, example_score)
    page = client.get(reverse("tournaments:standings", args=[pk])).content.decode()
    assert "+20.186" in page and "still to be entered" not in page
    first = page.index('href="#team-1"')
    assert first < page.index('href="#team-2"') and first < page.index('href="#team-3"')
    # A's boards: the opponent's attacker's score beside its own, and the PM
    assert "+12.961" in page and "−7.071" in page
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(reverse("tournaments:quadrette_export", args=[pk, "csv"]))
                .content.decode()
                .lstrip("\ufeff")
            )
        )
    )
    assert rows[0][0] == "Rank" and rows[1][:2] == ["1", "A"] and rows[1][-1] == "20.186"
    assert client.get(reverse("tournaments:quadrette_export", args=[pk, "xlsx"])).status_code == 200
    assert client.get(reverse("tournaments:quadrette_export", args=[pk, "doc"])).status_code == 404
    pdf = director_client.get(reverse("tournaments:quadrette_results_pdf", args=[pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get(reverse("tournaments:quadrette_results_pdf", args=[pk])).status_code == 302


def test_the_deal_screen_imposes_the_attacker_in_garde(client):
    t, teams = make_quadrette(2, rounds=1)
    services.tournament_start(tournament=t)
    table = Table.objects.select_related("game").get(tournament=t, round=1, number=1)
    game = table.game
    attacker = game.options["imposed"][0][0]
    assert attacker == teams[1][0].pk  # team 2's attacker plays team 1's defence
    name = Entry.objects.select_related("player").get(player_id=attacker).player.short_name
    page = client.get(reverse("games:deal_new", args=[game.token])).content.decode()
    assert "Board 1" in page and name in page and "garde imposed" in page
    assert page.count('name="taker"') == 1 and f'value="{attacker}"' in page
    data = {"taker": attacker, "points_side": "attack", "chelem": "none", "number": "1"}
    data.update({k: str(v) for k, v in garde_for(62).items()})
    client.post(reverse("games:deal_new", args=[game.token]), data)
    # the same deal again (a double tap) changes nothing
    client.post(reverse("games:deal_new", args=[game.token]), data)
    assert quadrette.board_scores(t) == {(1, 1, 1): 62}
    # another taker posted by hand is refused
    defender = game.seats.order_by("position").first().player_id
    r = client.post(
        reverse("games:deal_new", args=[game.token]), {**data, "taker": defender, "number": "2"}
    )
    assert r.status_code < 500
    assert game.deals.count() == 1


def test_hostile_requests_change_nothing(director_client, client):
    t, _teams = make_quadrette(2, rounds=1)
    url = reverse("tournaments:quadrette_teams", args=[t.pk])
    before = (Entry.objects.count(), LogEntry.objects.count())
    for data in [
        team("x" * 500, "a" * 500, "b", "c", "d"),
        team("<script>", "", "", "", ""),
        {"register": "1"},
        {"remove": "1", "team": "Nobody"},
        {"remove": "1"},
        {"something": "else"},
    ]:
        r = director_client.post(url, data)
        assert r.status_code in (200, 302)
    assert (Entry.objects.count(), LogEntry.objects.count()) == before
    r = director_client.post(url, {"remove": "1", "team": "Nobody"}, follow=True)
    assert "no quadrette called Nobody" in r.content.decode()
    # the public may not register or see the director's pages
    assert client.post(url, team("Pub", "P1", "P2", "P3", "P4")).status_code == 302
    assert Entry.objects.count() == before[0]
    # before the start: no oppositions, no ranking yet, no downloads
    boards = reverse("tournaments:quadrette_boards", args=[t.pk])
    assert "when the tournament starts" in director_client.get(boards).content.decode()
    standings = client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    assert "The ranking appears once" in standings
    for name, args in [
        ("quadrette_export", [t.pk, "csv"]),
        ("quadrette_results_pdf", [t.pk]),
    ]:
        assert director_client.get(reverse(f"tournaments:{name}", args=args)).status_code == 404
    services.tournament_start(tournament=t)
    for q in ("?round=abc", "?round=-1", "?round=99", "?round=1e9", "?round=%C0"):
        assert director_client.get(boards + q).status_code == 200
    assert director_client.get(boards + "?round=%00").status_code == 400  # the site's rule
    # another format's tournament: not found
    free = services.tournament_create(name="F", date=t.date)
    for name in ("quadrette_teams", "quadrette_boards", "quadrette_results_pdf"):
        r = director_client.get(reverse(f"tournaments:{name}", args=[free.pk]))
        assert r.status_code == 404
    # after the start, registering is refused with the reason
    r = director_client.post(url, team("Late", "L1", "L2", "L3", "L4"))
    assert r.status_code == 200 and Entry.objects.count() == 8


def test_the_other_pages_answer_for_a_quadrette_tournament(director_client):
    t, _teams = make_quadrette(4, rounds=2)
    services.tournament_start(tournament=t)
    play_quadrette_round(t)
    for name in ("manage", "where", "standings", "quadrette_teams", "quadrette_boards"):
        assert director_client.get(reverse(f"tournaments:{name}", args=[t.pk])).status_code == 200
    assert director_client.get(reverse("tournaments:projector", args=[t.pk])).status_code == 302


@pytest.mark.parametrize("teams", [4, 8])
def test_pages_read_a_constant_number_of_queries(
    director_client, client, django_assert_num_queries, teams
):
    t, _teams = make_quadrette(teams, rounds=3)
    services.tournament_start(tournament=t)
    play_quadrette_round(t, lambda rnd, table, board: 50 + 2 * table)
    pk = t.pk
    for name, args, c, count in [
        ("tournaments:standings", [pk], client, 3),
        ("tournaments:quadrette_export", [pk, "csv"], client, 3),
        ("tournaments:quadrette_teams", [pk], director_client, 4),
        ("tournaments:quadrette_boards", [pk], director_client, 6),
        ("tournaments:quadrette_results_pdf", [pk], director_client, 5),
    ]:
        c.get(reverse(name, args=args))  # the session, once
        with django_assert_num_queries(count):
            assert c.get(reverse(name, args=args)).status_code == 200


def test_a_players_page_gives_the_teams_place_and_match_points(director_client):
    t, teams = make_quadrette(4, rounds=2, names=["A", "B", "C", "D"])
    services.tournament_start(tournament=t)
    play_quadrette_round(t, example_score)
    services.tournament_next_round(tournament=t, from_round=1)
    play_quadrette_round(t, example_score)
    from tarotclub.players.selectors import player_tournaments

    line = player_tournaments(teams[0][2])[0]  # a defender of A
    assert (line.place, line.entrants, line.played) == (1, 4, 8)
    assert str(line.pm) == "20.186"
    page = director_client.get(reverse("players:detail", args=[teams[0][2].pk])).content.decode()
    assert "quadrettes, +20.186 PM" in page and "place 1 of 4" in page


def test_the_travelling_slip_compares_the_two_tables_of_the_opposition(client):
    t, _teams = make_quadrette(4, rounds=1, names=["A", "B", "C", "D"])
    services.tournament_start(tournament=t)
    tables = {tb.number: tb for tb in Table.objects.filter(tournament=t).select_related("game")}
    slip = reverse("tournaments:slip", args=[tables[1].game.token, 1])
    page = client.get(slip).content.decode()
    assert "once your table has entered its own" in page
    enter_board(tables[1], 1, 66)  # B's attacker against A's defence
    enter_board(tables[3], 1, 50)  # another opposition: not on A's slip
    page = client.get(slip).content.decode()
    assert "Travelling slip" in page and "66" in page and "Match points" not in page
    enter_board(tables[2], 1, 82)  # A's attacker against B's defence
    page = client.get(slip).content.decode()
    assert "82" in page and "Match points for A on this board: +4.000" in page
    assert "taker South" in page
    other = client.get(reverse("tournaments:slip", args=[tables[2].game.token, 1]))
    assert "Match points for B on this board: −4.000" in other.content.decode()
    assert (
        client.get(reverse("tournaments:slip", args=[tables[1].game.token, 9])).status_code == 404
    )
    sheet = client.get(reverse("games:sheet", args=[tables[1].game.token])).content.decode()
    assert slip in sheet
