"""Triplette tournaments' pages: creation and teams through the forms, the colour redraw,
guide cards, grading, the rankings, the deal screen with the imposed attacker, the
downloads; queries pinned."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.tournaments import duplicate, services, triplette, triplette_services
from tarotclub.tournaments.models import Entry, Table, Tournament

from .duplicate_helpers import deal_for_score
from .triplette_helpers import make_triplette, play_triplette_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


def test_a_director_creates_a_triplette_event_and_registers_teams(director_client):
    c = director_client
    response = c.post(
        reverse("tournaments:new"),
        {
            "name": "Triplettes du jeudi",
            "date": "2026-12-05",
            "rounds": "2",
            "deals_per_round": "4",
            "ranking": "total",
            "format": "triplette",
        },
    )
    t = Tournament.objects.get()
    teams_url = reverse("tournaments:triplette_teams", args=[t.pk])
    assert response.status_code == 302 and response.url == teams_url
    assert t.triplette and t.first_colour
    page = c.get(teams_url).content.decode()
    assert 'name="player_3"' in page and 'name="line"' in page
    for i in range(4):
        r = c.post(
            teams_url,
            {
                "register": "1",
                "team": f"Équipe {i}",
                "player_1": f"Anne Z{i}",
                "player_2": f"Bob Y{i}",
                "player_3": f"Carl X{i}",
                "line": "",
            },
        )
        assert r.status_code == 302
    assert Entry.objects.count() == 12
    assert sorted({e.line for e in Entry.objects.all()}) == ["EW", "NS"]
    # refused: a player already in a team; the page says why and nothing changes
    r = c.post(
        teams_url,
        {"register": "1", "team": "Five", "player_1": "Anne Z0", "player_2": "D", "player_3": "E"},
    )
    assert r.status_code == 200 and "Anne Z0" in r.content.decode()
    assert Entry.objects.count() == 12
    # the colour redrawn, once for a double tap
    for _ in range(2):
        c.post(teams_url, {"redraw": "1", "draws": "0"})
    t.refresh_from_db()
    assert t.colour_draws == 1
    assert LogEntry.objects.filter(action=triplette_services.COLOUR_DRAWN).count() == 1
    r = c.post(reverse("tournaments:start", args=[t.pk]), {"from_round": "0"})
    t.refresh_from_db()
    assert t.status == "running" and t.table_count == 2


def test_hostile_posts_change_nothing(director_client):
    t, _teams = make_triplette(4)
    url = reverse("tournaments:triplette_teams", args=[t.pk])
    for data in [
        {"register": "1", "team": "x" * 200, "player_1": "a", "player_2": "b", "player_3": "c"},
        {"register": "1", "team": "T", "player_1": "a", "player_2": "b", "line": "XX"},
        {"remove": "1", "team": "\x00nobody"},
        {"redraw": "1", "draws": "abc"},
    ]:
        r = director_client.post(url, data)
        assert r.status_code in (200, 302, 400)
    assert Entry.objects.count() == 12
    t.refresh_from_db()
    assert t.colour_draws == 0


def test_pages_of_a_played_session(director_client, client):
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    play_triplette_round(t, lambda board, rnd, table: 60 if table == 1 else -56)
    services.tournament_next_round(tournament=t)
    play_triplette_round(t, lambda board, rnd, table: 50 + 2 * table)
    pk = t.pk
    g = triplette.graded(t)
    best = triplette.ranking_rows(g, "alternating")[0]
    page = client.get(reverse("tournaments:standings", args=[pk])).content.decode()
    assert best["name"] in page and "the one that counts" in page
    boards = director_client.get(reverse("tournaments:triplette_boards", args=[pk]) + "?round=2")
    assert boards.status_code == 200
    table = Table.objects.get(tournament=t, round=2, number=1)
    by_pk = {e.player_id: e.player.name for e in Entry.objects.select_related("player")}
    assert by_pk[table.game.options["imposed"][0][0]] in boards.content.decode()
    grading = director_client.get(reverse("tournaments:triplette_grading", args=[pk]))
    assert "100" in grading.content.decode()
    record_url = reverse("tournaments:triplette_record", args=[pk, best["code"]])
    assert (
        record_url
        in director_client.get(reverse("tournaments:standings", args=[pk])).content.decode()
    )
    record = director_client.get(record_url).content.decode()
    assert best["name"] in record and record.count("<tr>") == 3 + 8
    for seat in ("NS9", "XX1", "NS", "N1", "NS1x"):
        url = reverse("tournaments:triplette_record", args=[pk, seat])
        assert director_client.get(url).status_code == 404
    export = client.get(reverse("tournaments:triplette_export", args=[pk, "csv"]))
    rows = list(csv.reader(io.StringIO(export.content.decode("utf-8-sig"))))
    assert len(rows) == 5 and rows[1][2] == best["name"]
    assert client.get(reverse("tournaments:triplette_export", args=[pk, "xlsx"])).status_code == 200
    assert client.get(reverse("tournaments:triplette_export", args=[pk, "doc"])).status_code == 404
    pdf = director_client.get(reverse("tournaments:triplette_results_pdf", args=[pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get(reverse("tournaments:triplette_results_pdf", args=[pk])).status_code == 302


def test_the_deal_screen_names_the_imposed_attacker_and_plays_four(client):
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t, round=1, number=1)
    game = table.game
    taker = game.options["imposed"][0][0]
    name = Entry.objects.select_related("player").get(player_id=taker).player.short_name
    page = client.get(reverse("games:deal_new", args=[game.token])).content.decode()
    board = game.options["boards"][0]
    assert f"Board {board}" in page and name in page and "garde imposed" in page
    assert page.count('name="taker"') == 1 and f'value="{taker}"' in page
    # the poignée of each of the four who play, not of the two who wait
    sitting = [
        s.player_id for s in game.seats.all() if s.player_id not in game.options["active"][0]
    ]
    for pk in game.options["active"][0]:
        assert f'name="poignee_{pk}"' in page
    for pk in sitting:
        assert f'name="poignee_{pk}"' not in page
    data = {"taker": taker, "points_side": "attack", "chelem": "none", "number": "1"}
    data.update({k: str(v) for k, v in deal_for_score(62).items()})
    client.post(reverse("games:deal_new", args=[game.token]), data)
    assert duplicate.board_scores(t) == {(board, 1): 62}
    sheet = client.get(reverse("games:sheet", args=[game.token]))
    assert sheet.status_code == 200


def test_the_other_pages_answer_for_a_triplette_tournament(director_client):
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    play_triplette_round(t)
    for name in ("manage", "where", "standings", "triplette_teams"):
        assert director_client.get(reverse(f"tournaments:{name}", args=[t.pk])).status_code == 200
    assert director_client.get(reverse("tournaments:projector", args=[t.pk])).status_code == 302
    free = services.tournament_create(name="F", date=t.date)
    for name in ("triplette_teams", "triplette_boards", "triplette_grading"):
        assert (
            director_client.get(reverse(f"tournaments:{name}", args=[free.pk])).status_code == 404
        )


@pytest.mark.parametrize("teams,movement", [(4, "stay"), (6, "stay"), (8, "howell")])
def test_pages_read_a_constant_number_of_queries(
    director_client, client, django_assert_num_queries, teams, movement
):
    t, _teams = make_triplette(teams, rounds=2)
    triplette_services.triplette_choose_movement(tournament=t, kind=movement)
    services.tournament_start(tournament=t)
    play_triplette_round(t, lambda board, rnd, table: 50 + 2 * table)
    pk = t.pk
    for name, args, c, count in [
        ("tournaments:triplette_teams", [pk], director_client, 4),
        ("tournaments:triplette_boards", [pk], director_client, 6),
        ("tournaments:triplette_results_pdf", [pk], director_client, 5),
        ("tournaments:triplette_cards_pdf", [pk], director_client, 5),
        ("tournaments:triplette_grading", [pk], director_client, 5),
        ("tournaments:triplette_record", [pk, "EW1"], director_client, 5),
        ("tournaments:standings", [pk], client, 3),
        ("tournaments:triplette_export", [pk, "csv"], client, 3),
    ]:
        c.get(reverse(name, args=args))  # the session, once
        with django_assert_num_queries(count):
            assert c.get(reverse(name, args=args)).status_code == 200


def test_a_players_page_gives_the_teams_place_and_overall(director_client):
    from tarotclub.players.selectors import player_tournaments

    t, teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    play_triplette_round(t, lambda board, rnd, table: 60 if table == 1 else -56)
    t.refresh_from_db()
    g = triplette.graded(t)
    for members in teams:
        key = triplette.team_of(g, members[1].pk)
        (line,) = player_tournaments(members[1])
        assert line.place == g.results.alternating.index(key) + 1
        assert line.overall == g.results.overall[key] and line.entrants == 4
    page = director_client.get(reverse("players:detail", args=[teams[0][0].pk]))
    assert page.status_code == 200
