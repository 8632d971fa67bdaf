"""The federation's score sheet (duplicate.md 3.4) on a tournament table's sheet: a + and a −
column per player in the order North, South, East, West, the starting positions, a Total row
(sum of + and sum of −) and a Balance row, compared with the stored scores."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.formats import date_format
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotclub.games.models import Seat
from tarotclub.games.presenters import signed
from tarotclub.kinds.tarot.models import DealLine
from tarotclub.reports import documents
from tarotclub.reports.documents import Cell, GridRow, SheetPlayer, TableSheet, federation_grid
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import SEAT_NAMES, Table
from tests.tournaments.helpers import make_tournament, play_round

from .conftest import pdf_page_lines, points_for

pytestmark = pytest.mark.django_db

NSEW = [0, 2, 1, 3, 4]  # seat positions (North, East, South, West, Fifth) in the sheet's order


def sheet_of(scores_by_seat: list[list[int]]) -> TableSheet:
    """A filled sheet of len(scores_by_seat[0]) players, one row per deal."""
    n = len(scores_by_seat[0])
    players = [
        SheetPlayer(pk=i, seat=str(SEAT_NAMES[i]), name=f"P{i}", label=f"P{i}") for i in range(n)
    ]
    rows = [
        GridRow(number=k, dealer="", cells=[Cell(score=s) for s in deal])
        for k, deal in enumerate(scores_by_seat, start=1)
    ]
    totals = [sum(deal[i] for deal in scores_by_seat) for i in range(n)]
    return TableSheet(players=players, rows=rows, partner=False, filled=True, totals=totals)


def test_the_rulebooks_example_sheet():
    """The example of p. 10 (duplicate.md 3.4), its deals given here in seat order N, E, S, W."""
    north = [-106, -76, 42, 276, -582]
    south = [-106, -76, -126, -92, 1746]
    east = [318, -76, 42, -92, -582]
    west = [-106, 228, 42, -92, -582]
    deals = [list(x) for x in zip(north, east, south, west, strict=True)]
    grid = federation_grid(sheet_of(deals))
    assert [p.seat for p in grid.players] == ["North", "South", "East", "West"]
    assert [(x.plus, x.minus) for x in grid.totals] == [
        (318, 764),
        (1746, 400),
        (360, 750),
        (270, 780),
    ]
    assert [x.balance for x in grid.totals] == [-446, 1346, -390, -510]
    assert grid.balances_zero
    # deal 1: East 318 in his + column, the others 106 in their − columns
    assert [(c.plus, c.minus) for c in grid.rows[0].cells] == [
        (None, 106),
        (None, 106),
        (318, None),
        (None, 106),
    ]


@settings(max_examples=100, deadline=None)
@given(
    st.integers(3, 5).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(-3000, 3000), min_size=n, max_size=n), min_size=1, max_size=12
        )
    )
)
def test_plus_minus_and_balance_keep_every_score(deals):
    grid = federation_grid(sheet_of(deals))
    order = [i for i in NSEW if i < len(deals[0])]
    for row, deal in zip(grid.rows, deals, strict=True):
        for cell, i in zip(row.cells, order, strict=True):
            # exactly one of the two columns holds the score, without its sign
            assert (cell.plus or 0) - (cell.minus or 0) == deal[i]
            assert (cell.plus is None) != (cell.minus is None)
            assert (cell.plus or 0) >= 0 and (cell.minus or 0) >= 0
    for total, i in zip(grid.totals, order, strict=True):
        assert total.plus == sum(d[i] for d in deals if d[i] > 0)
        assert total.minus == -sum(d[i] for d in deals if d[i] < 0)
        assert total.balance == sum(d[i] for d in deals)


@pytest.fixture
def played():
    """13 players (two tables of four, one of five), round 1 played, round 2 seated."""
    t, players = make_tournament(13, rounds=3, deals=3)
    t = services.tournament_start(tournament=t)
    play_round(t, points_for=points_for)
    t = services.tournament_next_round(tournament=t)
    return t


def test_each_tables_sheet_matches_the_stored_scores(played):
    t = played
    sheets = documents.round_sheets(t, 1, filled=True)
    tables = {x.number: x for x in Table.objects.filter(tournament=t, round=1)}
    standings = {r.player.pk: r for r in selectors.standings(t).rows}
    for sheet in sheets:
        assert sheet.federation
        game = tables[sheet.table].game
        seats = {s.player_id: s.position for s in Seat.objects.filter(game=game)}
        grid = sheet.fed
        # North, South, East, West (then the fifth seat)
        assert [seats[p.pk] for p in grid.players] == [i for i in NSEW if i < len(seats)]
        stored = {}
        for line in DealLine.objects.filter(deal__game=game).select_related("deal"):
            stored[line.deal.number, line.player_id] = line.score
        for row in grid.rows:
            for p, cell in zip(grid.players, row.cells, strict=True):
                score = stored[row.number, p.pk]
                if cell.out:
                    assert score == 0 and cell.plus is None and cell.minus is None
                else:
                    assert (cell.plus, cell.minus) == (
                        (score, None) if score >= 0 else (None, -score)
                    )
        for p, total in zip(grid.players, grid.totals, strict=True):
            mine = [v for (n, pk), v in stored.items() if pk == p.pk]
            assert total.plus == sum(v for v in mine if v > 0)
            assert total.minus == -sum(v for v in mine if v < 0)
            assert total.balance == sum(mine) == standings[p.pk].rounds[1]
        assert grid.balances_zero and sheet.zero_sum
        # round 1: everybody starts here, at this table and seat
        for p in grid.players:
            assert p.start_table == sheet.table and p.start_seat == str(SEAT_NAMES[seats[p.pk]])


def test_the_printed_sheet_reads_as_the_federations(played, director_client):
    t = played
    response = director_client.get(
        reverse("reports:round_sheets_pdf", args=[t.pk, 1]) + "?filled=1"
    )
    pages = pdf_page_lines(response.content)
    sheets = documents.round_sheets(t, 1, filled=True)
    assert len(pages) == len(sheets) == 3
    for sheet, lines in zip(sheets, pages, strict=True):
        assert lines[1:4] == [
            "WELCOME AND GOOD LUCK",
            f"Table {sheet.table}",
            f"Round 1 of 3 · {sheet.planned} deals · {date_format(t.date)}",
        ]
        # the headings in the federation's order, each with the starting table, then + and −
        players = sheet.fed.players
        heads = " ".join(f"{str(p.seat).upper()} · {p.start_table}" for p in players)
        at = lines.index(heads)
        assert lines[at + 1 : at + 4] == [
            " ".join(p.name for p in players),
            " ".join(p.licence for p in players),
            "DEAL DEALER TAKER CONTRACT" + " + −" * len(players),
        ]
        totals = " ".join(f"{x.plus} {x.minus}" for x in sheet.fed.totals)
        balances = " ".join(signed(x.balance) for x in sheet.fed.totals)
        at = lines.index(f"TOTAL {totals}")
        assert lines[at + 1 : at + 5] == [
            f"BALANCE {balances}",
            "✓ The totals add up to 0 Sheet confirmed",
            "SIGNATURES: EACH PLAYER CHECKS THE SHEET AND SIGNS",
            " ".join(f"{p.seat} · {p.name}" for p in players),
        ]


def test_a_later_rounds_sheet_gives_each_players_starting_position(played):
    t = played
    start = {
        s.player_id: (s.game.tournament_table.number, str(SEAT_NAMES[s.position]))
        for s in Seat.objects.filter(
            game__tournament_table__tournament=t, game__tournament_table__round=1
        ).select_related("game__tournament_table")
    }
    for state_round in (2, 3):  # seated, then planned
        for sheet in documents.round_sheets(t, state_round):
            for p in sheet.players:
                assert (p.start_table, p.start_seat) == start[p.pk]
