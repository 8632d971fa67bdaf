"""A round's table sheets, drawn (reports/drawn.py): read back from the PDF as a reader sees
them (pypdf's layout mode), and as a printer prints them (pypdfium2's pixels): the ruled and
shaded grid, the QR code module by module, long names kept inside their cells, a long round
going on over a second page, and the words in the reader's language."""

from __future__ import annotations

import re

import pytest
import segno
from django.utils import translation
from django.utils.translation import gettext as _
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotclub.reports import drawn
from tarotclub.reports.documents import Cell, GridRow, SheetPlayer, TableSheet
from tarotclub.tournaments.models import SEAT_NAMES

from .conftest import pdf_image, pdf_page_lines

WHITE = (255, 255, 255)
SHADE = (250, 247, 240)  # print.css --zebra: the − columns
OUT = (235, 229, 216)  # a player sitting out
SCALE = 3  # pixels a point
URL = "http://club.example/t/AbCdEfGhIjKlMnOpQrStUvWx/"
FRAME = {"club": "Tarot Club", "event": "Cup · 29 Nov 2026", "doc_title": "Table sheets"}


def make_sheet(players=4, deals=4, *, sits_out=False, filled=False, names=None, table=1):
    """A federation sheet as documents.round_sheets makes it (seated, with its link)."""
    names = names or [f"Player {i}" for i in range(players)]
    people = [
        SheetPlayer(
            pk=i, seat=str(SEAT_NAMES[i]), name=names[i], label=names[i], licence=f"L{i:05d}"
        )
        for i in range(players)
    ]
    rows = []
    for n in range(1, deals + 1):
        out = (n - 1) % players if sits_out else None
        if filled:  # the dealer's left neighbour takes and wins 25, the others pay
            taker = n % players
            payers = [i for i in range(players) if i not in (taker, out)]
            cells = [
                Cell(score=0, out=True)
                if i == out
                else Cell(score=25 * len(payers) if i == taker else -25)
                for i in range(players)
            ]
            rows.append(
                GridRow(
                    number=n,
                    dealer=names[(n - 1) % players],
                    cells=cells,
                    taker=names[taker],
                    contract="garde",
                    bouts="2",
                    points="45",
                )
            )
        else:
            cells = [Cell(out=i == out) for i in range(players)]
            rows.append(GridRow(number=n, dealer=names[(n - 1) % players], cells=cells))
    totals = [sum(r.cells[i].score or 0 for r in rows) for i in range(players)] if filled else None
    return TableSheet(
        players=people,
        rows=rows,
        partner=False,
        filled=filled,
        totals=totals,
        zero_sum=(sum(totals) == 0) if filled else None,
        table=table,
        round=2,
        rounds=5,
        planned=deals,
        url=URL,
        sits_out=sits_out,
        federation=True,
    )


def draw(*sheets: TableSheet) -> bytes:
    with translation.override("en"):
        return drawn.sheets_pdf(list(sheets), **FRAME).content


def render(content: bytes, page: int = 0):
    return pdf_image(content, page, scale=SCALE)


def px(mm: float) -> int:
    return round(mm * drawn.MM * SCALE)


def dark(pixel) -> bool:
    return sum(pixel) < 3 * 110


def bands(image) -> list[tuple[int, int]]:
    """The grid's rows, top to bottom, as (top, bottom) pixel rows between its horizontal
    lines: the grid is the longest line down the page's left margin (its left border), its
    rows' lines are found just inside it (the number's column: no text there)."""
    border = px(drawn.LEFT)
    runs, start = [], None
    for y in range(image.height):
        if any(dark(image.getpixel((border + d, y))) for d in (-1, 0, 1)):
            start = y if start is None else start
        elif start is not None:
            runs.append((start, y - 1))
            start = None
    top, bottom = max(runs, key=lambda run: run[1] - run[0])
    x = px(drawn.LEFT + 0.4)
    lines, run = [], None
    for y in range(top, bottom + 1):
        if dark(image.getpixel((x, y))):
            run = (run[0], y) if run else (y, y)
        elif run:
            lines.append(run)
            run = None
    if run:
        lines.append(run)
    return [(a[1] + 1, b[0] - 1) for a, b in zip(lines, lines[1:], strict=False)]


@pytest.mark.parametrize(
    ("players", "sits_out", "filled"),
    [(4, False, False), (4, False, True), (5, True, False), (5, True, True)],
)
def test_every_column_is_ruled_and_the_minus_columns_shaded(players, sits_out, filled):
    """On paper, at mid-height of each row: a dark line on every column's edge, the +
    columns white, the − columns shaded, a player sitting out one grey cell over both; the
    same in the Total and Balance rows. The − headings are shaded too."""
    sheet = make_sheet(players, sits_out=sits_out, filled=filled)
    image = render(draw(sheet))
    edges = drawn.column_edges(sheet.fed)
    found = bands(image)
    # the headings (one band down the number's column), a band a deal, Total, Balance
    assert len(found) == 1 + len(sheet.rows) + 2
    heading, *rows, total, balance = found
    for k in range(sheet.fed.score_columns):  # the + and − heading row
        x = px(edges[4 + k] + 2)
        expected = SHADE if k % 2 else (239, 232, 218)  # --head
        assert image.getpixel((x, heading[1] - px(1))) == expected, k
    for band, row in [*zip(rows, sheet.fed.rows, strict=True), (total, None), (balance, None)]:
        y = (band[0] + band[1]) // 2
        for i in range(len(sheet.fed.players)):
            out = row is not None and row.cells[i].out
            for side in (0, 1):  # + then −: a point a fifth into the column, left of any score
                a, b = edges[4 + 2 * i + side], edges[5 + 2 * i + side]
                colour = image.getpixel((px(a + (b - a) / 5), y))
                assert colour == (OUT if out else SHADE if side else WHITE), (row, i, side)
        for k, x in enumerate(edges[1:-1], start=1):
            pixels = [image.getpixel((px(x) + d, y)) for d in range(-3, 4)]
            between = k >= 5 and k % 2 == 1  # between a player's + and −
            if row is None and k < 4:  # the Total and Balance labels span the deal's columns
                assert not any(dark(p) for p in pixels), (k, "label")
            elif between and row is not None and row.cells[(k - 5) // 2].out:
                assert not any(dark(p) for p in pixels), (k, "sits out")
            else:
                assert any(dark(p) for p in pixels), (k, row)


def test_the_qr_code_is_the_tables_link_module_by_module():
    """Every module of the drawn code, sampled at its centre, is the one segno computes for
    the table's link (with its white border of 3 modules): a phone reads this link."""
    image = render(draw(make_sheet()))
    matrix = list(segno.make(URL, error="m").matrix_iter(scale=1, border=3))
    module = drawn.QR_SIZE / len(matrix)
    left = drawn.LEFT + drawn.WIDTH - drawn.QR_BLOCK / 2 - drawn.QR_SIZE / 2
    top = drawn.TOP - 1.5
    for r, row in enumerate(matrix):
        for c, bit in enumerate(row):
            pixel = image.getpixel((px(left + (c + 0.5) * module), px(top + (r + 0.5) * module)))
            assert dark(pixel) == bool(bit), (r, c)


def test_a_planned_rounds_sheet_says_it_has_no_qr_code_yet():
    sheet = make_sheet()
    sheet.url = ""
    (page,) = pdf_page_lines(draw(sheet))
    text = " ".join(page)
    assert "No QR code yet: this round is not seated." in text and "/t/" not in text


@settings(max_examples=200, deadline=None)
@given(
    text=st.lists(
        st.text(alphabet="abcdéfghijklmnopqrstuvwxyzWMÉ-'", min_size=1, max_size=30),
        min_size=1,
        max_size=8,
    ).map(" ".join),
    width=st.floats(5, 60),
    lines=st.integers(1, 3),
)
def test_wrapped_text_keeps_within_its_width_and_loses_nothing_it_does_not_mark(text, width, lines):
    regular, _bold = drawn._fonts()
    out = drawn._wrap(text, regular, 9, width, lines)
    assert 1 <= len(out) <= lines
    for line in out:
        assert drawn._width(line, regular, 9) <= width + 1e-6 or len(line) == 1
    if not out[-1].endswith("…"):
        assert "".join(out).replace(" ", "") == text.replace(" ", "")


def test_long_names_stay_inside_their_cells():
    long = "Marie-Élisabeth de la Tour d'Auvergne-Montmorency-Laval"
    names = [long, "Ann", "Bob", "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft"]
    sheet = make_sheet(names=names, filled=True)
    content = draw(sheet)
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(content)
    try:
        text = pdf[0].get_textpage()
        edges = drawn.column_edges(sheet.fed)
        height = drawn.PAGE_H * drawn.MM

        def inside(left_mm, right_mm):
            return text.get_text_bounded(left_mm * drawn.MM, 0, right_mm * drawn.MM, height)

        # the dealer's and the taker's columns hold the names, cut with an ellipsis where
        # they do not fit; nothing of them runs into the next column
        dealers = inside(edges[1], edges[2])
        # "Marie-" on a line, "Élisabeth de…" on the next (pdfium reads its hyphen as soft)
        assert re.search(r"Marie\W{1,3}Élisabeth de…", dealers), dealers
        contracts = inside(edges[3] + 0.3, edges[4])
        assert "Marie" not in contracts and "Wolfe" not in contracts and "Tour" not in contracts
        # a player's heading (over the + and − columns) and their signature box
        first = inside(edges[4] + 0.3, edges[6] - 0.3)
        assert "Marie-Élisabeth" in first
    finally:
        pdf.close()
    lines = " ".join(" ".join(page) for page in pdf_page_lines(content))
    assert "North · Marie-Élisabeth" in lines


def test_a_long_round_goes_on_over_a_second_page_with_its_headings():
    """30 deals at a table of five (24 a player): the grid goes on over a second page with
    its headings again; the totals, the check line and the signatures come after the last
    deal; the page numbers run through the document; nothing runs into the page's foot."""
    long, short = make_sheet(5, 30, sits_out=True, filled=True), make_sheet(4, 4, table=2)
    content = draw(long, short)
    pages = pdf_page_lines(content)
    assert len(pages) == 3
    first, second, third = pages
    headings = "DEAL DEALER TAKER CONTRACT" + " + −" * 5
    numbers = []
    for lines in (first, second):
        assert headings in lines
        numbers += [int(m[1]) for line in lines if (m := re.match(r"(\d+) Player \d", line))]
    assert numbers == list(range(1, 31))  # every deal, once, in order
    assert "Table 1" in first and "Table 1" not in second
    assert not any(line.startswith("TOTAL") for line in first)
    assert any(line.startswith("TOTAL") for line in second)
    assert "SIGNATURES: EACH PLAYER CHECKS THE SHEET AND SIGNS" in second
    assert "Table 2" in third
    for k, lines in enumerate(pages, start=1):
        assert lines[-1].endswith(f"Page {k} of 3")

    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(content)
    try:
        for k in range(3):
            foot = (
                pdf[k]
                .get_textpage()
                .get_text_bounded(0, 0, drawn.PAGE_W * drawn.MM, drawn.BOTTOM * drawn.MM)
            )
            assert foot.split()[:2] == ["Printed", "on"] and foot.split()[-4:] == [
                "Page",
                str(k + 1),
                "of",
                "3",
            ]
    finally:
        pdf.close()
    for k in range(3):  # and no line of the grid or box below the last words
        image = render(content, k)
        margin = image.crop((0, px(drawn.PAGE_H - drawn.BOTTOM), image.width, image.height))
        darks = margin.convert("L").point(lambda v: 255 if v < 110 else 0).histogram()[255]
        # the footer's small words ink a few pixels in a thousand; one line across, 2 in 100
        assert darks < 0.01 * margin.width * margin.height, k


@pytest.mark.parametrize("language", ["fr", "nl", "en"])
def test_the_words_are_the_readers_language(language):
    sheet = make_sheet(filled=True)
    with translation.override(language):
        content = drawn.sheets_pdf([sheet], **FRAME).content
        expected = [
            _("Welcome and good luck").upper(),
            _("Table %(n)s") % {"n": 1},
            " ".join([_("Deal"), _("Dealer"), _("Taker"), _("Contract")]).upper(),
            _("Total").upper(),
            _("Balance").upper(),
            _("The totals add up to 0"),
            _("Signatures: each player checks the sheet and signs").upper(),
            _("Page %(page)s of %(pages)s") % {"page": 1, "pages": 1},
        ]
    if language != "en":
        with translation.override("en"):
            assert _("The totals add up to 0") not in expected  # a translation, not English
    text = " ".join(pdf_page_lines(content)[0])
    for words in expected:
        assert words in text, words


def test_hostile_names_are_printed_as_they_are():
    """PDF string delimiters, markup, a backslash, a right-to-left name, an emoji (not in the
    font: a blank glyph, nothing breaks) and control characters."""
    names = ["Ann (x) \\ <b>", "Ελένη", "Zoë 🂡", "a\tb\x00c"]
    sheet = make_sheet(names=names, filled=True)
    content = draw(sheet)
    text = " ".join(pdf_page_lines(content)[0])
    assert "Ann (x) \\ <b>" in text and "Ελένη" in text and "Zoë" in text
    # longer than any name the site takes, one word and many: cut, on the page
    sheet = make_sheet(names=["W" * 5000, "a " * 2500, "Bob", "Eve"], filled=True)
    (lines,) = pdf_page_lines(draw(sheet))
    assert any("W…" in line for line in lines) and any("a a…" in line for line in lines)
