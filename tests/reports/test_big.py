"""The printouts of a finished 200-player tournament, read back with a PDF text extractor."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tarotclub.games.models import Seat
from tarotclub.games.presenters import number as minus_number
from tarotclub.games.presenters import signed
from tarotclub.kinds.tarot.models import DealLine
from tarotclub.tournaments import selectors
from tarotclub.tournaments.models import SEAT_NAMES, Entry, Table

from .conftest import count_name, pdf_page_lines, pdf_pages, pdf_rows, save_png

pytestmark = pytest.mark.django_db


def get_pdf(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return response


def test_standings_pdf_lists_each_of_200_players_exactly_once(big, english_client, artifacts):
    response = get_pdf(english_client, reverse("reports:standings_pdf", args=[big.pk]))
    assert response["Content-Disposition"] == (
        'inline; filename="standings-test-cup-2026-11-29.pdf"'
    )
    pages = pdf_pages(response.content)
    save_png(response.content, artifacts / "pdf" / "standings.png")
    save_png(response.content, artifacts / "pdf" / "standings-page-2.png", page=1)
    # ~37 rows of 6 mm fit on an A4 page under the header: 200 rows take 6 pages
    assert 5 <= len(pages) <= 7
    text = "\n".join(pages)
    names = list(Entry.objects.filter(tournament=big).values_list("player__name", flat=True))
    assert len(names) == 200
    for name in names:
        assert count_name(text, name) == 1, name
    for number, lines in enumerate(pdf_page_lines(response.content), start=1):
        # every page: the club, the tournament and its date, the page number, the header row
        assert lines[0] == "Tarot Club Test cup · 29 Nov 2026 Standings"
        assert lines[-1].endswith(f"Page {number} of {len(pages)}")
        assert "RANK PLAYER LICENCE R1 R2 R3 R4 R5 TOTAL" in lines


def test_standings_pdf_rows_are_whole_and_ties_are_marked(big, english_client):
    lines = pdf_rows(
        get_pdf(english_client, reverse("reports:standings_pdf", args=[big.pk])).content
    )
    standings = selectors.standings(big)
    assert any(row.tied for row in standings.rows)  # equal points patterns make ties
    for row in standings.rows:
        # one line per player: rank (with "=" when tied), name, licence, 5 rounds, total
        rank = f"{row.rank}=" if row.tied else str(row.rank)
        rounds = " ".join(minus_number(row.rounds[r]) for r in range(1, 6))
        expected = f"{rank} {row.player.name} {row.licence} {rounds} {minus_number(row.total)}"
        assert expected in lines, expected
    # and the order is the ranking's
    positions = [
        next(i for i, line in enumerate(lines) if f" {row.player.name} " in line)
        for row in standings.rows
    ]
    assert positions == sorted(positions)


def test_table_sheets_of_a_50_table_round_one_page_each(big, director_client, artifacts):
    url = reverse("reports:round_sheets_pdf", args=[big.pk, 5])
    response = get_pdf(director_client, url)
    save_png(response.content, artifacts / "pdf" / "table-sheets-empty.png")
    pages = pdf_pages(response.content)
    tables = list(
        Table.objects.filter(tournament=big, round=5).select_related("game").order_by("number")
    )
    assert len(tables) == 50 and len(pages) == 50
    seats = {}
    for s in Seat.objects.filter(game__tournament_table__in=tables).select_related("player"):
        seats.setdefault(s.game_id, []).append(s)
    for table, page in zip(tables, pages, strict=True):
        assert f"Table {table.number}\nRound 5 of 5 · 4 deals" in page
        # the QR code's link, printed under it too (it may wrap; kerning may add spaces)
        assert f"http://testserver/t/{table.game.token}/" in re.sub(r"\s", "", page)
        for s in seats[table.game_id]:
            seat = str(SEAT_NAMES[s.position]).upper()  # heading: seat · starting table, name
            assert re.search(rf"{seat} · \d+\s+{re.escape(s.player.name)}", page)
            assert f"{SEAT_NAMES[s.position]} · {s.player.name}" in page  # signature box
        # empty: the dealers are printed (seat order), no score yet, an unticked box
        assert "✓" not in page and not re.search(r"[+−]\d", page)
        assert "The totals add up to 0" in page
    # one document: the page numbers run 1 to 50
    for number, page in enumerate(pages, start=1):
        assert f"Page {number} of 50" in page


def test_filled_table_sheets_carry_the_deals_and_totals(big, director_client, artifacts):
    url = reverse("reports:round_sheets_pdf", args=[big.pk, 5]) + "?filled=1"
    response = get_pdf(director_client, url)
    save_png(response.content, artifacts / "pdf" / "table-sheets-filled.png")
    pages = pdf_pages(response.content)
    assert len(pages) == 50
    table = Table.objects.get(tournament=big, round=5, number=7)
    page = pages[6]
    # the federation's order (North, South, East, West), a + and a − column each
    seats = sorted(
        Seat.objects.filter(game=table.game), key=lambda s: (0, 2, 1, 3).index(s.position)
    )
    text = " ".join(page.split())
    for deal in table.game.deals.prefetch_related("lines"):
        scores = {line.player_id: line.score for line in deal.lines.all()}
        assert sum(scores.values()) == 0
        cells = " ".join(str(abs(scores[s.player_id])) for s in seats)
        assert f"{deal.points_half // 2} points {cells}" in text
    lines = {
        s.player_id: list(
            DealLine.objects.filter(deal__game=table.game, player=s.player).values_list(
                "score", flat=True
            )
        )
        for s in seats
    }
    plus = {pk: sum(v for v in scores if v > 0) for pk, scores in lines.items()}
    minus = {pk: -sum(v for v in scores if v < 0) for pk, scores in lines.items()}
    totals = " ".join(f"{plus[s.player_id]} {minus[s.player_id]}" for s in seats)
    balances = " ".join(signed(sum(lines[s.player_id])) for s in seats)
    assert f"TOTAL {totals} BALANCE {balances}" in text
    assert "✓\nThe totals add up to 0\nSheet confirmed" in page


def test_seating_plan_alphabetical_with_table_and_seat(big, english_client, artifacts):
    response = get_pdf(english_client, reverse("reports:seating_pdf", args=[big.pk, 3]))
    save_png(response.content, artifacts / "pdf" / "seating.png")
    pages = pdf_pages(response.content)
    text = "\n".join(pages)
    seats = Seat.objects.filter(
        game__tournament_table__tournament=big, game__tournament_table__round=3
    ).values_list("player__name", "game__tournament_table__number", "position")
    assert len(seats) == 200
    where = {}
    for name, number, position in seats:
        line = f"{name} TABLE {number} {SEAT_NAMES[position]}"
        assert count_name(text, name) == 1
        assert line in text, line
        where[name] = text.index(line)
    assert [where[n] for n in sorted(where)] == sorted(where.values())  # alphabetical
    assert "Round 3 of 5: where do I sit?" in pages[0]
    assert len(pages) == 4  # 2 columns of ~24 names in large type: 48 a page


def test_player_sheet_round_by_round(big, english_client, artifacts):
    row = selectors.standings(big).rows[10]
    player = row.player
    response = get_pdf(english_client, reverse("reports:player_pdf", args=[big.pk, player.pk]))
    save_png(response.content, artifacts / "pdf" / "player.png")
    (page,) = pdf_pages(response.content)
    assert player.name in page and row.licence in page
    rank = f"{row.rank}=" if row.tied else str(row.rank)
    assert re.search(rf"FINAL RANK.*\n?.*{re.escape(rank)} / 200", page)
    running = 0
    for table in Table.objects.filter(tournament=big, game__seats__player=player).order_by("round"):
        score = row.rounds[table.round]
        running += score
        seat = Seat.objects.get(game=table.game, player=player)
        assert re.search(
            rf"^{table.round} {table.number} {SEAT_NAMES[seat.position]} ", page, re.MULTILINE
        )
        for other in Seat.objects.filter(game=table.game).exclude(player=player):
            assert other.player.name in page
        assert f"{signed(score)} {signed(running)}" in page
    assert running == row.total
