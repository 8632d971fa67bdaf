"""The federation's table sheet, unplayed: each row's empty cells are one blank cell and the
grid's background (documents.federation_rules) draws the columns' lines and the − columns'
shading through them, where the cells' own borders and backgrounds used to (issue 12)."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.utils import translation

from tarotclub.reports.documents import (
    Cell,
    FederationRow,
    GridRow,
    SheetPlayer,
    TableSheet,
    federation_rules,
)
from tarotclub.tournaments.models import SEAT_NAMES

from .test_pdf_layout import grid_of, laid_out

pytestmark = pytest.mark.django_db

SHADE = (250, 247, 240)  # print.css --zebra, the − columns
WHITE = (255, 255, 255)


def row(cells: list[Cell], **kwargs) -> FederationRow:
    return FederationRow(
        number=1,
        dealer="Ann",
        cells=cells,
        **{
            "taker": "",
            "contract": "",
            "detail": "",
            **kwargs,
        },
    )


def test_an_unplayed_rows_cells_are_runs_between_the_players_sitting_out():
    assert row([Cell() for _ in range(4)]).blank == [2 + 8]
    assert row([Cell(), Cell(), Cell(out=True), Cell(), Cell()]).blank == [2 + 4, 0, 4]
    assert row([Cell(out=True), Cell(), Cell(), Cell(), Cell()]).blank == [2, 0, 8]
    assert row([Cell(), Cell(), Cell(), Cell(), Cell(out=True)]).blank == [2 + 8, 0]
    # a row with anything to show keeps a cell per column
    assert row([Cell() for _ in range(4)], taker="Bob").blank == []
    assert row([Cell() for _ in range(4)], contract="garde").blank == []
    assert row([Cell(score=0), Cell(), Cell(), Cell()]).blank == []
    # every run and sitting-out pair covers every column after the dealer
    cells = [Cell(), Cell(out=True), Cell(), Cell(), Cell()]
    assert sum(span or 2 for span in row(cells).blank) == 2 + 2 * len(cells)


def test_the_image_is_made_once_per_number_of_players():
    assert federation_rules(4) is federation_rules(4)
    assert len({federation_rules(n) for n in (4, 5, 6)}) == 3


def blank_sheet(players: int, *, sits_out: bool) -> TableSheet:
    people = [
        SheetPlayer(pk=i, seat=str(SEAT_NAMES[i]), name=f"Player {i}", label=f"P{i}")
        for i in range(players)
    ]
    rows = [
        GridRow(
            number=n,
            dealer=people[(n - 1) % players].label,
            cells=[Cell(out=sits_out and i == (n - 1) % players) for i in range(players)],
        )
        for n in range(1, players + 1)
    ]
    return TableSheet(
        players=people,
        rows=rows,
        partner=False,
        filled=False,
        planned=players,
        table=1,
        round=1,
        rounds=1,
        federation=True,
        sits_out=sits_out,
    )


def line_positions(uri: str, width: float) -> list[float]:
    svg = unquote(uri.removeprefix("data:image/svg+xml,"))
    positions = []
    for line in re.findall(r"<line [^>]*>", svg):
        x = re.search(r'x1="([-\d.]+)(%?)"', line)
        shift = re.search(r"translate\(([-\d.]+) 0\)", line)
        at = float(x.group(1)) * width / 100 if x.group(2) else float(x.group(1))
        positions.append(at + (float(shift.group(1)) if shift else 0))
    return positions


@pytest.mark.parametrize(("players", "sits_out"), [(4, False), (5, True), (6, False)])
def test_the_blank_cells_show_every_columns_line_and_shading(players, sits_out):
    """Laid out: each unplayed row is its number, its dealer and blank cells over the other
    columns; the image's lines fall on the edges inside them (a column's width changed in
    print.css without documents.FEDERATION_INFO_WIDTHS_MM fails here). Printed: a dark line
    on every edge and the − columns shaded, + columns white, in the rows and the totals."""
    import pypdfium2 as pdfium

    sheet = blank_sheet(players, sits_out=sits_out)
    with translation.override("en"):
        document = laid_out("reports/table_sheets_pdf.html", {"sheets": [sheet]})
    grid, groups = grid_of(document.pages[0])
    assert sheet.fed.ruled and grid.style["background_image"] == (("url", sheet.fed.rules),)
    assert grid.background.layers[0].image is not None  # drawn, not refused
    left = grid.content_box_x()
    edges = [x - left for x in grid.column_positions[1:]]
    assert len(edges) == sheet.columns - 1
    assert line_positions(sheet.fed.rules, grid.width) == pytest.approx(edges[2:], abs=0.01)
    body = groups["tbody"].children
    for tr, fed_row in zip(body, sheet.fed.rows, strict=True):
        assert sum(cell.colspan for cell in tr.children) == sheet.columns
        assert len(tr.children) == 2 + len(fed_row.blank)  # number, dealer, runs and outs
        outs = [c for c in tr.children if "out" in (c.element.get("class") or "").split()]
        assert len(outs) == (1 if sits_out else 0)
        assert [c.colspan for c in tr.children[2:]] == [span or 2 for span in fed_row.blank]
    for tr in groups["tfoot"].children:
        assert [c.colspan for c in tr.children] == [4, 2 * players]

    scale = 2  # the page's pixels per pt; WeasyPrint's px are 0.75 pt
    pdf = pdfium.PdfDocument(document.write_pdf())
    try:
        image = pdf[0].render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()

    def x_of(px: float) -> float:
        return px * 0.75 * scale

    columns = [*grid.column_positions, left + grid.width]
    footing = groups["tfoot"].children
    rows = [
        tr for tr in body if not any("out" in (c.element.get("class") or "") for c in tr.children)
    ]
    for tr in rows + footing:
        y = round(x_of(tr.position_y + tr.height / 2))
        for k in range(4, sheet.columns):  # the score columns
            middle = round(x_of((columns[k] + columns[k + 1]) / 2))
            assert image.getpixel((middle, y)) == (SHADE if (k - 4) % 2 else WHITE), (k, y)
        # the edges after the taker's (a row) or after the totals' heading (the totals)
        for k in range(4 if tr in footing else 3, sheet.columns):
            at = x_of(columns[k])
            darkest = min(sum(image.getpixel((x, y))) for x in range(int(at) - 2, int(at) + 3))
            assert darkest < 3 * 110, (k, y)
