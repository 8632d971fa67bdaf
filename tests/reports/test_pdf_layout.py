"""What the laid-out casual score sheets hold, box by box (WeasyPrint's own boxes): the grid is
built the cheap way (fixed layout, blank runs over drawn column lines). A round's table sheets
and the standings are drawn instead: test_drawn_sheets.py, test_drawn_standings.py."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from tarotclub.reports import pdf
from tarotclub.reports.documents import Cell, GridRow, SheetPlayer, TableSheet, grid_rules

pytestmark = pytest.mark.django_db


def laid_out(template: str, context: dict):
    context = {"club_name": settings.CLUB_NAME, "page_counter": pdf.page_counter_css(), **context}
    html = render_to_string(template, context)
    import weasyprint

    return weasyprint.HTML(string=html, base_url=str(settings.BASE_DIR)).render(
        stylesheets=[pdf.stylesheet()]
    )


def boxes(page, tag: str, css_class: str | None = None):
    found = []
    for box in page._page_box.descendants():
        element = getattr(box, "element", None)
        if getattr(box, "element_tag", None) != tag or element is None:
            continue
        if css_class is None or css_class in (element.get("class") or "").split():
            found.append(box)
    return found


def grid_of(page):
    """The grid's table box, and its row groups by tag (thead, tbody, tfoot)."""
    (table,) = [b for b in boxes(page, "table", "grid") if hasattr(b, "column_widths")]
    return table, {group.element_tag: group for group in table.children}


def blank_sheet(players: int, *, partner: bool, sits_out: bool = False) -> TableSheet:
    people = [SheetPlayer(pk=i, seat="", name=f"Player {i}", label=f"P{i}") for i in range(players)]
    rows = [
        GridRow(
            number=n,
            dealer=people[(n - 1) % players].label,
            cells=[Cell(out=sits_out and i == (n - 1) % players) for i in range(players)],
        )
        for n in range(1, players + 1)
    ]
    return TableSheet(players=people, rows=rows, partner=partner, filled=False, planned=players)


def rule_positions(uri: str, width: float) -> list[float]:
    """Where the image's lines fall, in the table's pixels, for a table `width` pixels wide."""
    import re
    from urllib.parse import unquote

    svg = unquote(uri.removeprefix("data:image/svg+xml,"))
    positions = []
    for line in re.findall(r"<line [^>]*>", svg):
        x = re.search(r'x1="([-\d.]+)(%?)"', line)
        shift = re.search(r"translate\(([-\d.]+) 0\)", line)
        at = float(x.group(1)) * width / 100 if x.group(2) else float(x.group(1))
        positions.append(at + (float(shift.group(1)) if shift else 0))
    return positions


@pytest.mark.parametrize(
    ("players", "partner", "sits_out"),
    [(3, False, False), (4, False, False), (5, True, False), (5, False, True)],
)
def test_the_column_lines_image_falls_on_every_columns_edge(players, partner, sits_out):
    """The blank cells' column lines (one SVG, the grid's background) lie where the cells'
    borders meet, for each layout of columns: a change of a column's width in print.css
    without documents.GRID_INFO_WIDTHS_MM fails here."""
    sheet = blank_sheet(players, partner=partner, sits_out=sits_out)
    with translation.override("en"):
        document = laid_out("reports/table_sheets_pdf.html", {"sheets": [sheet]})
    grid, groups = grid_of(document.pages[0])
    assert sheet.ruled and grid.style["background_image"] == (("url", sheet.rules),)
    assert grid.background.layers[0].image is not None  # drawn, not refused
    edges = [x - grid.content_box_x() for x in grid.column_positions[1:]]
    assert len(edges) == sheet.columns - 1
    assert rule_positions(sheet.rules, grid.width) == pytest.approx(edges, abs=0.01)
    for row in groups["tbody"].children:
        assert sum(cell.colspan for cell in row.children) == sheet.columns
        outs = [c for c in row.children if "out" in (c.element.get("class") or "").split()]
        assert len(outs) == (1 if sits_out else 0)


def test_rules_are_made_once_per_layout():
    assert grid_rules(4, partner=False) is grid_rules(4, partner=False)
    assert grid_rules(5, partner=True) != grid_rules(5, partner=False)


def test_a_rows_empty_cells_become_one_blank_slot_each_run():
    row = GridRow(
        number=1,
        dealer="Ann",
        taker="Bob",
        contract="garde",
        points="51",
        cells=[Cell(score=75), Cell(out=True), Cell(), Cell()],
    )
    slots = row.slots(partner=True)
    shape = [s.blank or (s.css, s.text or s.cell) for s in slots]
    assert shape == [
        ("who", "Ann"),
        ("who", "Bob"),
        1,  # partner
        ("contract", "garde"),
        1,  # bouts
        ("small", "51"),
        3,  # petit, poignées, chelem
        ("score", row.cells[0]),
        ("score", row.cells[1]),
        2,
    ]
    assert sum(s.blank or 1 for s in slots) == 1 + 8 + 4  # every column but the number


def test_a_five_player_sheets_scores_fit_their_cells(make_players):
    """A casual sheet of five with two slams: every score, running total and total fits inside
    its cell's padding (a "+1760" beside a "−880" never touches it), and the heading's names
    break after their hyphen, not inside a word."""
    from fractions import Fraction

    from tarotclub.games import selectors as game_selectors
    from tarotclub.games.services import game_start
    from tarotclub.kinds.tarot import services as tarot
    from tarotclub.reports import documents

    players = make_players(
        "Marie-Élisabeth Vandenberghe", "Jean-Baptiste Van der Heyden", "Anne", "Bart", "Luc"
    )
    game = game_start(players=players, kind="tarot")
    for i in range(6):
        seated = game_selectors.seat_players(game)
        active = tarot.active_players(game, tarot.dealer_for(game, i + 1, seated), seated)
        big = i in (0, 3)
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(
                taker=active[i % 5].pk,
                partner=active[(i + 1) % 5].pk,
                contract="garde_contre" if big else "prise",
                bouts=3 if big else 1,
                points=Fraction(91 if big else 44 + 4 * i),
                chelem="announced_made" if big else "none",
            ),
        )
    sheet = documents.casual_sheet(game, base_url="http://testserver/")
    with translation.override("en"):
        document = laid_out(
            "reports/game_sheet_pdf.html", {"sheet": sheet, "game": game, "doc_title": "Sheet"}
        )
    grid, groups = grid_of(document.pages[0])
    scores = [
        cell
        for group in ("tbody", "tfoot")
        for row in groups[group].children
        for cell in row.children
        if "score" in (cell.element.get("class") or "").split()
    ]
    assert len(scores) == 5 * 6 + 5
    assert any("1760" in "".join(cell.element.itertext()) for cell in scores)
    for cell in scores:
        for line in (b for b in cell.descendants() if type(b).__name__ == "LineBox"):
            assert line.width <= cell.width + 0.01, "".join(cell.element.itertext())
    heads = [
        c for c in groups["thead"].children[0].children if "score" in (c.element.get("class") or "")
    ]
    broken = []
    for cell in heads:
        lines = [b for b in cell.descendants() if type(b).__name__ == "LineBox"]
        words = [
            "".join(t.text for t in line.descendants() if type(t).__name__ == "TextBox").strip()
            for line in lines
        ]
        broken += [w for w in words[:-1] if w and not w.endswith("-")]
    assert broken == []  # "Marie-" / "Élisabeth", never "Marie-Élisab" / "eth"
