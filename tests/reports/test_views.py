"""Printouts of a running tournament and of a casual game; who may print what; bad input."""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils.formats import date_format

from tarotclub.games import selectors as game_selectors
from tarotclub.games import services as games
from tarotclub.games.presenters import signed
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal
from tarotclub.tournaments import services
from tarotclub.tournaments.models import SEAT_NAMES, Table
from tests.tournaments.helpers import make_tournament, play_round, play_table

from .conftest import count_name, pdf_page_lines, pdf_pages, save_png

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    """18 players: two tables of five (the dealer sits out) and two of four; round 1 seated."""
    t, players = make_tournament(18, rounds=3, deals=4)
    t = services.tournament_start(tournament=t)
    return t, players


def names_of(players, pks):
    by_pk = {p.pk: p.name for p in players}
    return [by_pk[pk] for pk in pks]


# --- who may print what --------------------------------------------------------------------------


def test_table_sheets_are_for_directors(running, client, member, director_client):
    t, _ = running
    url = reverse("reports:round_sheets_pdf", args=[t.pk, 1])
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    client.force_login(member)
    assert client.get(url).status_code == 403
    assert director_client.get(url).status_code == 200


def test_standings_seating_and_players_sheets_are_public(running, english_client):
    t, players = running
    for url in (
        reverse("reports:standings_pdf", args=[t.pk]),
        reverse("reports:seating_pdf", args=[t.pk, 1]),
        reverse("reports:player_pdf", args=[t.pk, players[0].pk]),
    ):
        response = english_client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    page = english_client.get(reverse("reports:players", args=[t.pk])).content.decode()
    assert reverse("reports:player_pdf", args=[t.pk, players[5].pk]) in page


@pytest.mark.parametrize(
    "name,args",
    [
        ("standings_pdf", [999]),
        ("standings_export", [999, "csv"]),
        ("deals_export", [999, "xlsx"]),
        ("round_sheets_pdf", [999, 1]),
        ("seating_pdf", [999, 1]),
        ("player_pdf", [999, 1]),
        ("deals", [999]),
        ("players", [999]),
    ],
)
def test_unknown_tournament_is_404(director_client, name, args):
    assert director_client.get(reverse(f"reports:{name}", args=args)).status_code == 404


def test_bad_rounds_formats_and_players_are_404_never_500(running, director_client, make_players):
    t, players = running
    (stranger,) = make_players("Stranger")
    not_started, _ = make_tournament(8, rounds=2)
    bad = [
        reverse("reports:round_sheets_pdf", args=[t.pk, 0]),
        reverse("reports:round_sheets_pdf", args=[t.pk, 4]),  # 3 rounds
        reverse("reports:seating_pdf", args=[t.pk, 99999]),
        reverse("reports:seating_pdf", args=[not_started.pk, 1]),  # nothing seated or planned
        reverse("reports:round_sheets_pdf", args=[not_started.pk, 1]),
        reverse("reports:standings_export", args=[t.pk, "doc"]),
        reverse("reports:standings_export", args=[t.pk, "json"]),
        reverse("reports:deals_export", args=[t.pk, "ods"]),
        reverse("reports:player_pdf", args=[t.pk, stranger.pk]),  # not registered here
        reverse("reports:player_pdf", args=[t.pk, 10**9]),
        reverse("reports:game_sheet_pdf", args=["no-such-token"]),
        reverse("reports:game_deals_export", args=["no-such-token", "csv"]),
        reverse("reports:game_deals_export", args=[Table.objects.first().game.token, "ods"]),
        f"/tournaments/{t.pk}/round/x/sheets.pdf",
        f"/tournaments/{10**20}/standings.pdf",
        f"/tournaments/{t.pk}/round/{10**20}/seating.pdf",
        f"/tournaments/{t.pk}/player/{10**20}.pdf",
        f"/tournaments/{t.pk}/standings.",
    ]
    for url in bad:
        assert director_client.get(url).status_code == 404, url


def test_the_deals_print_as_one_pdf_of_the_same_rows(running, client, artifacts):
    t, players = running
    play_round(t)
    response = client.get(reverse("reports:deals_pdf", args=[t.pk]))
    save_png(response.content, artifacts / "deals-pdf.png")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert 'filename="deals-' in response["Content-Disposition"]
    text = " ".join(" ".join(pdf_pages(response.content)).split())  # names wrap in cells
    deals = Deal.objects.filter(game__tournament_table__tournament=t)
    assert deals.exists()
    for deal in deals:
        assert deal.taker.name in text
    assert "No deal has been entered yet." not in text
    one = client.get(reverse("reports:deals_pdf", args=[t.pk]) + "?round=1")
    assert 'filename="deals-r1-' in one["Content-Disposition"]


def test_other_games_have_no_tarot_sheet(client, five, member):
    game = games.game_start(players=five[:4], kind="foolsfaith", created_by=member)
    assert client.get(reverse("reports:game_sheet_pdf", args=[game.token])).status_code == 404
    url = reverse("reports:game_deals_export", args=[game.token, "csv"])
    assert client.get(url).status_code == 404


# --- rounds seated and rounds planned ------------------------------------------------------------


def test_planned_round_from_the_plan_without_qr_codes(running, director_client, artifacts):
    t, players = running
    plan = t.plan[0]  # round 2
    assert sorted(len(x) for x in plan) == [4, 4, 5, 5]
    response = director_client.get(reverse("reports:round_sheets_pdf", args=[t.pk, 2]))
    assert response.status_code == 200
    save_png(response.content, artifacts / "pdf" / "table-sheets-planned.png")
    pages = pdf_pages(response.content)
    assert len(pages) == len(plan)
    for number, (page, seated) in enumerate(zip(pages, plan, strict=True), start=1):
        assert f"Table {number}\nRound 2 of 3" in page
        assert "No QR code yet" in page and "/t/" not in page
        for position, name in enumerate(names_of(players, seated)):
            # the federation's headings: seat · starting table, then the name
            seat = str(SEAT_NAMES[position]).upper()
            assert re.search(rf"{seat} · \d+\s+{re.escape(name)}", page), (seat, name)
        if len(seated) == 5:
            # 5 deals so that each plays 4; each dealer's cell is marked
            assert re.search(r"5 deals · [^\n]+\s+the dealer sits out each deal and scores 0", page)
            assert page.count("sits out") == 5 + 1
    # ?filled=1 has nothing to fill in a round not played yet: the same empty sheets
    filled = director_client.get(reverse("reports:round_sheets_pdf", args=[t.pk, 2]), {"filled": 1})
    assert len(pdf_pages(filled.content)) == len(plan)


def test_seating_plan_of_a_planned_round(running, english_client):
    t, players = running
    plan = t.plan[1]  # round 3
    response = english_client.get(reverse("reports:seating_pdf", args=[t.pk, 3]))
    (page,) = pdf_pages(response.content)
    assert "Planned seating" in page
    for number, seated in enumerate(plan, start=1):
        for position, name in enumerate(names_of(players, seated)):
            assert f"{name} TABLE {number} {SEAT_NAMES[position]}" in page
    assert all(count_name(page, p.name) == 1 for p in players)


def test_seating_sorts_names_without_regard_to_accents_or_case(director_client, make_players):
    t = services.tournament_create(
        name="Accents", date=dt.date(2026, 12, 1), rounds=1, deals_per_round=1
    )
    for p in make_players("Zoé", "émile", "Eva", "Dirk", "anne", "Bram", "Chloé", "Émilie"):
        services.entry_register(tournament=t, player=p)
    services.tournament_start(tournament=t)
    (page,) = pdf_pages(director_client.get(reverse("reports:seating_pdf", args=[t.pk, 1])).content)
    order = ["anne", "Bram", "Chloé", "Dirk", "émile", "Émilie", "Eva", "Zoé"]
    positions = [page.index(f"{name} TABLE") for name in order]
    assert positions == sorted(positions)


def test_empty_sheets_of_a_seated_round_have_each_tables_qr(running, director_client):
    t, _ = running
    pages = pdf_pages(
        director_client.get(reverse("reports:round_sheets_pdf", args=[t.pk, 1])).content
    )
    tables = Table.objects.filter(tournament=t, round=1).select_related("game")
    assert len(pages) == tables.count() == 4
    for table in tables:
        page = re.sub(r"\s", "", pages[table.number - 1])
        assert f"/t/{table.game.token}/" in page


def test_a_table_sheet_mid_round_lists_what_is_in_and_leaves_the_rest(running, director_client):
    t, _ = running
    table = next(
        x
        for x in Table.objects.filter(tournament=t, round=1).select_related("game")
        if x.game.seats.count() == 5
    )
    play_table(table, confirm=False)
    tarot.deal_undo_last(game=table.game, number=table.game.deals.count())
    response = director_client.get(reverse("reports:game_sheet_pdf", args=[table.game.token]))
    (page,) = pdf_page_lines(response.content)
    planned = table.game.options["deals"]
    title = page.index(f"Table {table.number}")
    assert page[title + 1] == f"Round 1 of 3 · {planned} deals · {date_format(t.date)}"
    # the last deal is not in: its row is there, with its dealer (who sits out) and no score
    players = game_selectors.seat_players(table.game)
    dealer = tarot.dealer_for(table.game, planned, players)
    assert f"{planned} {dealer.label} sits out" in page
    assert not any("Sheet confirmed" in line for line in page)
    # what is in adds up to zero: the box is ticked
    assert "✓ The totals add up to 0" in page


# --- a casual game -------------------------------------------------------------------------------


def test_casual_game_sheet_pdf(game5, english_client, artifacts):
    anne, bram, chloe, dirk, eva = game_selectors.seat_players(game5)
    tarot.deal_add(
        game=game5,
        data=tarot.DealInput(
            taker=anne.pk,
            contract="garde",
            bouts=2,
            points=Fraction(49),
            partner=chloe.pk,
            petit_au_bout="attack",
            poignees=((anne.pk, "simple"),),
        ),
    )
    tarot.deal_add(
        game=game5,
        data=tarot.DealInput(taker=bram.pk, contract="prise", bouts=1, points=Fraction(40)),
    )
    response = english_client.get(reverse("reports:game_sheet_pdf", args=[game5.token]))
    assert response.status_code == 200
    save_png(response.content, artifacts / "pdf" / "game-sheet.png")
    (page,) = pdf_pages(response.content)
    assert "PARTNER" in page  # five play: the called partner has a column
    words = " ".join(page.split())  # a narrow cell may wrap its words
    assert "Anne Chloé garde" in words and "attack" in words and "simple (Anne)" in words
    totals = tarot.game_totals_db(game5)
    assert sum(totals.values()) == 0
    cells = " ".join(signed(totals[p.pk]) for p in (anne, bram, chloe, dirk, eva))
    assert f"TOTAL {cells}" in page
    assert "✓  The totals add up to 0" in page
    assert "Signature" not in page and "North" not in page  # no tournament seats here
    assert response["Content-Disposition"].startswith('inline; filename="sheet-')


def test_links_on_the_pages(running, director_client, game4):
    t, _ = running
    header = director_client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    for url in (
        reverse("reports:standings_pdf", args=[t.pk]),
        reverse("reports:standings_export", args=[t.pk, "csv"]),
        reverse("reports:standings_export", args=[t.pk, "xlsx"]),
        reverse("reports:seating_pdf", args=[t.pk, 1]),
        reverse("reports:deals", args=[t.pk]),
    ):
        assert f'href="{url}"' in header, url
    manage = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    for url in (
        reverse("reports:round_sheets_pdf", args=[t.pk, 1]),
        reverse("reports:round_sheets_pdf", args=[t.pk, 1]) + "?filled=1",
        reverse("reports:round_sheets_pdf", args=[t.pk, 2]),  # planned
        reverse("reports:seating_pdf", args=[t.pk, 3]),
    ):
        assert f'href="{url}"' in manage, url
    assert f'href="{reverse("reports:round_sheets_pdf", args=[t.pk, 2])}?filled=1"' not in manage
    sheet = director_client.get(reverse("games:sheet", args=[game4.token])).content.decode()
    for url in (
        reverse("reports:game_sheet_pdf", args=[game4.token]),
        reverse("reports:game_deals_export", args=[game4.token, "csv"]),
        reverse("reports:game_deals_export", args=[game4.token, "xlsx"]),
    ):
        assert f'href="{url}"' in sheet, url


def test_before_the_start_the_standings_list_who_is_registered(english_client):
    t, players = make_tournament(5, rounds=2)
    standings = english_client.get(reverse("reports:standings_pdf", args=[t.pk])).content
    (lines,) = pdf_page_lines(standings)
    assert "RANK PLAYER LICENCE TOTAL" in lines  # no round column yet
    assert all(count_name("\n".join(lines), p.name) == 1 for p in players)
    (page,) = pdf_pages(
        english_client.get(reverse("reports:player_pdf", args=[t.pk, players[0].pk])).content
    )
    assert "Not seated in any round yet." in page
    rows = english_client.get(reverse("reports:deals", args=[t.pk]), {"page": "abc"})
    assert rows.status_code == 200 and "No deal has been entered yet." in rows.content.decode()
