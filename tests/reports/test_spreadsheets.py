"""Downloads a spreadsheet can compute with (issue 11, item 11).

One column per player (or seat) holding a number; taker, contract, bouts, points, result and
bonuses each in a column of their own; no text cell with leading or trailing spaces; numbers
are numbers in Excel (not text), and bare in the CSV.
"""

from __future__ import annotations

import csv
import io
import re

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

NAME_AND_SCORE = re.compile(r"\S\s+[+\-−]\d+$")  # "Isabelle Girard +174"


def xlsx_rows(response) -> list[list]:
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    return [list(r) for r in book.active.iter_rows(values_only=True)]


def csv_rows(response) -> list[list]:
    text = response.content.decode("utf-8")
    return list(csv.reader(io.StringIO(text[1:]), quoting=csv.QUOTE_NONNUMERIC))


def no_padded_text(rows):
    texts = [c for row in rows for c in row if isinstance(c, str)]
    assert [t for t in texts if t != t.strip()] == []
    assert [t for t in texts if NAME_AND_SCORE.search(t)] == []


@pytest.fixture
def played():
    """18 players (tables of five and four), 2 rounds of 2 deals, one round still running."""
    t, players = make_tournament(18, rounds=3, deals=2)
    t = services.tournament_start(tournament=t)
    for _ in range(2):
        play_round(t, points_for=points_for)
        t = services.tournament_next_round(tournament=t)
    return t


def test_tournament_deals_have_a_number_column_per_seat(played, english_client):
    t = played
    response = english_client.get(reverse("reports:deals_export", args=[t.pk, "xlsx"]))
    rows = xlsx_rows(response)
    head = rows[0]
    for column in ("Taker", "Contract", "Bouts", "Points", "Result", "Margin"):
        assert column in head
    for column in ("Petit au bout", "Poignée", "Slam"):
        assert column in head
    seats = ["North", "East", "South", "West", "Fifth"]
    for seat in seats:
        assert head.index(f"{seat} score") == head.index(seat) + 1
    deals = {
        (d.game.tournament_table.round, d.game.tournament_table.number, d.number): d
        for d in Deal.objects.filter(game__tournament_table__tournament=t).select_related(
            "taker", "game__tournament_table"
        )
    }
    assert len(rows) == 1 + len(deals)
    for row in rows[1:]:
        cell = dict(zip(head, row, strict=True))
        deal = deals[(cell["Round"], cell["Table"], cell["#"])]
        assert cell["Taker"] == deal.taker.name
        assert cell["Bouts"] == deal.bouts and isinstance(cell["Bouts"], int)
        assert cell["Margin"] == deal.gap and isinstance(cell["Margin"], int)
        assert cell["Result"] == ("won" if deal.won else "lost")
        scores = [cell[f"{s} score"] for s in seats if cell[s]]
        assert len(scores) in (4, 5)
        assert all(isinstance(s, int) for s in scores) and sum(scores) == 0
        lines = {ln.player.name: ln.score for ln in deal.lines.select_related("player")}
        assert {cell[s]: cell[f"{s} score"] for s in seats if cell[s]} == lines
    no_padded_text(rows)
    # the CSV: the same cells, numbers bare
    rows_csv = csv_rows(english_client.get(reverse("reports:deals_export", args=[t.pk, "csv"])))
    assert rows_csv[0] == head
    for a, b in zip(rows[1:], rows_csv[1:], strict=True):
        assert [("" if x is None else x) for x in a] == b
    no_padded_text(rows_csv)


def test_a_games_deals_have_one_number_column_per_player(game4, english_client):
    players = game_selectors.seat_players(game4)
    anne, bram, chloe, dirk = players
    for taker, points in ((anne, 56), (chloe, 31)):
        tarot.deal_add(
            game=game4,
            data=tarot.DealInput(
                taker=taker.pk, contract="garde", bouts=2, points=points, petit_au_bout="attack"
            ),
        )
    response = english_client.get(reverse("reports:game_deals_export", args=[game4.token, "xlsx"]))
    rows = xlsx_rows(response)
    head = rows[0]
    names = [p.name for p in players]
    assert head[-4:] == names
    for column in ("Taker", "Contract", "Bouts", "Points", "Result", "Margin", "Petit au bout"):
        assert column in head
    for row, deal in zip(rows[1:], game4.deals.order_by("number"), strict=True):
        cell = dict(zip(head, row, strict=True))
        scores = {ln.player.name: ln.score for ln in deal.lines.select_related("player")}
        assert {n: cell[n] for n in names} == scores
        assert all(isinstance(cell[n], int) for n in names)
        assert cell["Taker"] == deal.taker.name and cell["Contract"] == "garde"
        assert cell["Points"] == deal.points_half / 2 and cell["Bouts"] == 2
    no_padded_text(rows)
    rows_csv = csv_rows(
        english_client.get(reverse("reports:game_deals_export", args=[game4.token, "csv"]))
    )
    assert rows_csv[0] == head
    assert [r[-4:] for r in rows_csv[1:]] == [[float(x) for x in r[-4:]] for r in rows[1:]]


def test_standings_ranks_and_rounds_are_numbers(played, english_client):
    t = played
    rows = xlsx_rows(english_client.get(reverse("reports:standings_export", args=[t.pk, "xlsx"])))
    head = rows[0]
    assert head[:2] == ["Rank", "Player"]
    standings = selectors.standings(t)
    for row, expected in zip(rows[1:], standings.rows, strict=True):
        cell = dict(zip(head, row, strict=True))
        assert cell["Rank"] == expected.rank and isinstance(cell["Rank"], int)
        assert cell["Total"] == expected.total
        for r in standings.round_numbers:
            played_round = expected.rounds[r]
            # a round not played is an empty cell, not a dash
            assert cell[f"R{r}"] == played_round
    # the round being played (round 3, no deal in): every player's cell is 0 or empty
    assert all(dict(zip(head, r, strict=True))["R3"] in (0, None) for r in rows[1:])
    no_padded_text(rows)


def test_a_withdrawn_players_unplayed_round_is_empty(english_client):
    t, players = make_tournament(9, rounds=3, deals=1)
    t = services.tournament_start(tournament=t)
    play_round(t, points_for=points_for)
    entry = t.entries.get(player=players[0])
    services.entry_withdraw(entry=entry)
    t = services.tournament_next_round(tournament=t)
    play_round(t, points_for=points_for)
    rows = csv_rows(english_client.get(reverse("reports:standings_export", args=[t.pk, "csv"])))
    head = rows[0]
    row = next(r for r in rows[1:] if players[0].name in r)
    assert row[head.index("R2")] == ""  # not "–"
    assert isinstance(row[head.index("R1")], float)
