"""A triplette tournament's table sheets, seating plan, position cards and on-screen sheet
name the lines and the teams (members with badges) and each board's attacker by the
rotation, not a seat N/E/S/W per person (duplicate.md 2.2): a table holds one North-South and
one East-West team, and 4 of the 6 play each board."""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring import triplette as rules
from tarotclub.reports import documents
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Entry, Table
from tests.tournaments.triplette_helpers import make_triplette, play_triplette_round

pytestmark = pytest.mark.django_db

#: A seat named for a person, as on an individual's sheet ("North · Dupont", "Sixth")
SEAT = re.compile(r"(?<![-\w])(North|South|East|West) ·|Fifth|Sixth")


def has(text: str, wanted: str) -> bool:
    """`wanted` is in the PDF's text, whatever spaces the extraction puts in ("T eam")."""
    return "".join(wanted.split()) in "".join(text.split())


def text_of(response) -> str:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)


@pytest.fixture
def desk(director):
    c = Client()
    c.force_login(director)
    return c


@pytest.fixture
def started():
    t, teams = make_triplette(4, rounds=2, seed=5)
    t = services.tournament_start(tournament=t)
    return t, teams


def test_a_triplette_table_sheet_names_both_teams_and_each_boards_attacker(desk, started):
    t, _teams = started
    play_triplette_round(t, lambda board, rnd, table: 60 if board % 2 else -70, confirm=False)
    url = reverse("reports:round_sheets_pdf", args=[t.pk, 1]) + "?filled=1"
    response = desk.get(url)
    text = text_of(response)
    assert not SEAT.search(text), SEAT.search(text)
    entries = {e.player_id: e for e in Entry.objects.filter(tournament=t).select_related("player")}
    for table in Table.objects.filter(tournament=t, round=1).select_related("game"):
        options = table.game.options
        seated = [s.player_id for s in table.game.seats.order_by("position")]
        ns, ew = entries[seated[0]].team, entries[seated[3]].team
        assert ns != ew and entries[seated[0]].line == "NS" and entries[seated[3]].line == "EW"
        sheet = documents.table_sheet(table, qr=False)
        assert [s.team for s in sheet.sides] == [ns, ew]
        assert [s.label for s in sheet.sides] == ["North-South", "East-West"]
        assert [m.colour for m in sheet.sides[0].members] == ["Blue", "White", "Red"]
        for row, board, (attacker, _contract) in zip(
            sheet.rows, options["boards"], options["imposed"], strict=True
        ):
            line = rules.attacking_line(board)
            assert row.board == board and row.line == line
            assert row.attack_team == (ns if line == "NS" else ew)
            assert row.defence_team == (ew if line == "NS" else ns)
            assert row.attacker == entries[attacker].player.name
            defenders = seated[3:] if line == "NS" else seated[:3]
            assert row.defenders == [entries[pk].player.name for pk in defenders]
            assert row.score == (60 if board % 2 else -70)
        # the attackers follow the rotation from the colour drawn (p. 20)
        ns_names = [entries[pk].player.name for pk in seated[:3]]
        ns_rows = [r for r in sheet.rows if r.line == "NS"]
        assert [r.attacker for r in ns_rows] == rules.attack_order(
            ns_names, t.first_colour, len(ns_rows)
        )
        assert has(text, ns) and has(text, ew)
        for row in sheet.rows:
            assert has(text, row.attacker)
    assert all(c in text.upper() for c in ("BLUE", "WHITE", "RED"))
    assert "North-South" in text and "East-West" in text


def test_the_planned_rounds_sheet_carries_the_rotation_on(desk, started):
    t, _teams = started
    play_triplette_round(t)
    sheets = documents.round_sheets(t, 2)
    assert sheets and all(s.triplette and not s.qr for s in sheets)
    # round 2 continues each team's rotation: the plan's options are the table's to come
    t = services.tournament_next_round(tournament=t)
    seated = documents.round_sheets(t, 2)
    assert [[(r.board, r.attacker) for r in s.rows] for s in sheets] == [
        [(r.board, r.attacker) for r in s.rows] for s in seated
    ]
    text = text_of(desk.get(reverse("reports:round_sheets_pdf", args=[t.pk, 2])))
    assert not SEAT.search(text), SEAT.search(text)


def test_the_seating_plan_and_position_cards_say_line_team_and_badge(desk, started):
    t, teams = started
    text = text_of(desk.get(reverse("reports:seating_pdf", args=[t.pk, 1])))
    assert not SEAT.search(text), SEAT.search(text)
    first = Entry.objects.filter(tournament=t, player=teams[0][0]).get()
    line = documents.seating(t, 1)
    mine = next(x for x in line if x.name == teams[0][0].name)
    assert mine.seat == first.get_line_display()
    assert mine.team == f"{first.team} · {first.get_badge_display()}"
    assert "North-South" in text and "East-West" in text and has(text, mine.team)
    cards = text_of(desk.get(reverse("reports:position_cards_pdf", args=[t.pk])))
    assert "LINE" in cards.upper() and has(cards, f"{first.team} · {first.get_badge_display()}")
    assert "Sixth" not in cards


def test_the_sheet_on_screen_and_its_pdf_for_one_triplette_table(desk, started):
    t, _teams = started
    play_triplette_round(t, confirm=False)
    table = Table.objects.filter(tournament=t, round=1, number=1).select_related("game").get()
    page = desk.get(reverse("reports:score_sheet", args=[table.game.token]))
    assert page.status_code == 200
    html = page.content.decode()
    sheet = documents.table_sheet(table, qr=False)
    for side in sheet.sides:
        assert side.team in html and side.label in html
    for row in sheet.rows:
        assert row.attacker in html
    assert "Sixth" not in html
    pdf = desk.get(reverse("reports:game_sheet_pdf", args=[table.game.token]))
    text = text_of(pdf)
    assert has(text, sheet.sides[0].team) and "Sixth" not in text
    # it renders to a page that is not blank
    page0 = pdfium.PdfDocument(pdf.content)[0].render(scale=0.5).to_pil().convert("L")
    assert page0.getextrema()[0] < 100


def test_a_players_sheet_names_lines_not_seats(desk, started):
    t, teams = started
    play_triplette_round(t)
    text = text_of(desk.get(reverse("reports:player_pdf", args=[t.pk, teams[1][0].pk])))
    assert not SEAT.search(text), SEAT.search(text)
    assert "East-West" in text and "North-South" in text


def test_the_sheets_and_seating_take_as_many_queries_for_two_or_four_tables():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for teams in (4, 8):
        t, _teams = make_triplette(teams, rounds=2)
        t = services.tournament_start(tournament=t)
        play_triplette_round(t, confirm=False)
        asked = []
        for build, args, kwargs in (
            (documents.round_sheets, (t, 1), {"filled": True}),
            (documents.round_sheets, (t, 2), {}),
            (documents.seating, (t, 1), {}),
            (documents.seating, (t, 2), {}),
        ):
            with CaptureQueriesContext(connection) as queries:
                assert build(*args, **kwargs)
            asked.append(len(queries))
        counts.append(asked)
    assert counts[0] == counts[1], counts
