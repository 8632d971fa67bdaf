"""CSV and Excel from the on-screen django-tables2 tables: same columns, plain values."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser

import openpyxl
import pytest
from django.urls import reverse

from tarotclub.games import selectors as game_selectors
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal
from tarotclub.tournaments import selectors, services
from tests.tournaments.helpers import make_tournament, play_round

from .conftest import points_for

pytestmark = pytest.mark.django_db


class _Headers(HTMLParser):
    """The <th> texts of the first table whose class list holds `css`."""

    def __init__(self, css: str):
        super().__init__()
        self.css, self.depth, self.in_th, self.headers, self.done = css, 0, False, [], False

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table" and not self.done and (self.depth or self.css in classes):
            self.depth += 1
        elif tag == "th" and self.depth:
            self.in_th = True
            self.headers.append("")

    def handle_endtag(self, tag):
        if tag == "th":
            self.in_th = False
        elif tag == "table" and self.depth:
            self.depth -= 1
            self.done = self.depth == 0
        elif tag == "thead" and self.depth:
            self.done = True
            self.depth = 0

    def handle_data(self, data):
        if self.in_th:
            self.headers[-1] += data


def screen_headers(html: str, css: str) -> list[str]:
    parser = _Headers(css)
    parser.feed(html)
    return [" ".join(h.split()) for h in parser.headers]


def read_csv(response) -> list[list[str]]:
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # so that Excel reads the accents right
    return list(csv.reader(io.StringIO(text[1:])))


def read_xlsx(response) -> list[list]:
    book = openpyxl.load_workbook(io.BytesIO(response.content), read_only=True)
    return [list(row) for row in book.active.iter_rows(values_only=True)]


@pytest.fixture
def played():
    """18 players (tables of five and four), 2 rounds of 2 deals played and confirmed."""
    t, players = make_tournament(18, rounds=2, deals=2)
    t = services.tournament_start(tournament=t)
    for _ in range(2):
        play_round(t, points_for=points_for)
        t = services.tournament_next_round(tournament=t)
    return t


def test_standings_csv_and_xlsx_match_the_screen(played, english_client):
    t = played
    screen = english_client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    headers = screen_headers(screen, "standings")
    assert headers == ["Rank", "Player", "Licence", "R1", "R2", "Total"]
    response = english_client.get(reverse("reports:standings_export", args=[t.pk, "csv"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="standings-test-cup-2026-11-29.csv"'
    )
    rows = read_csv(response)
    assert rows[0] == headers
    standings = selectors.standings(t)
    assert len(rows) == 1 + len(standings.rows) == 19
    for row, expected in zip(rows[1:], standings.rows, strict=True):
        assert row == [
            str(expected.rank),  # a number: tied players share it
            expected.player.name,
            expected.licence,
            str(expected.rounds[1]),
            str(expected.rounds[2]),
            str(expected.total),
        ]
    xlsx = english_client.get(reverse("reports:standings_export", args=[t.pk, "xlsx"]))
    assert xlsx["Content-Disposition"].endswith('standings-test-cup-2026-11-29.xlsx"')
    sheet = read_xlsx(xlsx)
    assert sheet[0] == headers
    # the same rows; numbers stay numbers in the spreadsheet
    assert [[str(v) for v in row] for row in sheet[1:]] == rows[1:]
    assert all(isinstance(row[-1], int) for row in sheet[1:])


def test_deals_csv_and_xlsx_match_the_all_deals_page(played, english_client):
    t = played
    page = english_client.get(reverse("reports:deals", args=[t.pk]))
    assert page.status_code == 200
    headers = screen_headers(page.content.decode(), "deals")
    assert headers[:3] == ["Round", "Table", "#"]
    assert headers[-5:] == ["North", "East", "South", "West", "Fifth"]
    assert "Partner" not in headers  # at a table of five the dealer sits out: nobody is called
    response = english_client.get(reverse("reports:deals_export", args=[t.pk, "csv"]))
    rows = read_csv(response)
    # the screen's columns, each seat's player followed by their score in its own column
    seats = headers[-5:]
    expected = [h for h in headers if h not in seats] + [
        x for seat in seats for x in (seat, f"{seat} score")
    ]
    assert [h for h in rows[0] if h not in ("Partner", "Margin")] == expected
    deals = Deal.objects.filter(game__tournament_table__tournament=t).count()
    assert len(rows) == 1 + deals
    assert all("<" not in cell for row in rows for cell in row)  # plain values, no HTML
    first = rows[1]
    assert first[:3] == ["1", "1", "1"]
    # the five (or four) scores add up to zero
    for row in rows[1:]:
        cell = dict(zip(rows[0], row, strict=True))
        scores = [int(cell[f"{seat} score"]) for seat in seats if cell[seat]]
        assert len(scores) in (4, 5) and sum(scores) == 0
    xlsx = read_xlsx(english_client.get(reverse("reports:deals_export", args=[t.pk, "xlsx"])))
    assert xlsx[0] == rows[0] and len(xlsx) == len(rows)
    points = rows[0].index("Points")
    assert [row[points] for row in xlsx[1:]] == [float(row[points]) for row in rows[1:]]
    # one round only
    url = reverse("reports:deals_export", args=[t.pk, "csv"])
    one = read_csv(english_client.get(url, {"round": 2}))
    assert {row[0] for row in one[1:]} == {"2"}


def test_game_deals_export_from_the_score_sheet(game4, english_client):
    anne, bram, chloe, dirk = game_selectors.seat_players(game4)
    for taker, points in ((anne, 56), (chloe, 31)):
        tarot.deal_add(
            game=game4,
            data=tarot.DealInput(
                taker=taker.pk, contract="garde", bouts=2, points=points, petit_au_bout="attack"
            ),
        )
    screen = english_client.get(reverse("games:sheet", args=[game4.token])).content.decode()
    headers = screen_headers(screen, "sheet")
    assert headers == ["#", "Dealer", "Deal", "Anne", "Bram", "Chloé", "Dirk"]
    response = english_client.get(reverse("reports:game_deals_export", args=[game4.token, "csv"]))
    rows = read_csv(response)
    # the screen's "Deal" column is split into columns of its own; one column per player
    assert rows[0][:2] == headers[:2] and rows[0][-4:] == [
        p.name for p in game_selectors.seat_players(game4)
    ]
    assert "Deal" not in rows[0] and {"Taker", "Contract", "Bouts", "Points"} <= set(rows[0])
    assert len(rows) == 3
    for row, deal in zip(rows[1:], game4.deals.prefetch_related("lines"), strict=True):
        scores = {line.player_id: line.score for line in deal.lines.all()}
        assert row[0] == str(deal.number)
        assert row[rows[0].index("Contract")] == "garde"
        assert [int(x) for x in row[-4:]] == [scores[p.pk] for p in (anne, bram, chloe, dirk)]
    url = reverse("reports:game_deals_export", args=[game4.token, "xlsx"])
    xlsx = read_xlsx(english_client.get(url))
    assert xlsx[0] == rows[0] and [r[-4:] for r in xlsx[1:]] == [
        [int(x) for x in r[-4:]] for r in rows[1:]
    ]
