"""The two big papers drawn straight onto PDF pages (ReportLab), not laid out from HTML: a
free-deal round's table sheets and a tournament's standings.

A federation final's director prints a sheet per table at every round, and pins up the
standings of a few hundred players. WeasyPrint lays out every cell as boxes (style, line,
border, text): about 200 ms a table sheet (8–11 s for 50 tables, where issue 12 asks for 3 s
on one core) and 1.3 s for the standings of 200 players (1 s asked), after every trick of
markup. Both layouts are fixed tables, so they are drawn here at measured positions: the
look of `print.css` (its colours, sizes and column widths, the same DejaVu Sans) and the
words of the templates they replace (the same messages, in the reader's language). Every
other paper, and a triplette's or a casual game's sheet, stays an HTML template.

- `sheets_pdf`: the sheets of `documents.round_sheets` / `documents.table_sheet` (the
  federation's grid, duplicate.md 3.4), a page each; a table playing more deals than a page
  holds goes on over the next page with its headings.
- `standings_pdf`: `printouts.standings_paper`, A4 portrait, the table's heading on every page,
  then the team ranking and the ties' legend.
"""

from __future__ import annotations

import io
import re
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import segno
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from tarotclub.core.text import no_break_hyphens
from tarotclub.games.presenters import number as minus_number
from tarotclub.games.presenters import signed

from .documents import FederationGrid, StandingsColumn, TableSheet
from .pdf import Pdf

MM = 72 / 25.4  # points a millimetre
PAGE_W, PAGE_H = 297.0, 210.0  # A4 landscape, mm
LEFT, RIGHT, TOP, BOTTOM = 12.0, 12.0, 17.0, 13.0  # print.css @page margins
WIDTH = PAGE_W - LEFT - RIGHT

# print.css's colours
INK = HexColor("#1d1b16")
MUTED = HexColor("#6b665c")
ACCENT = HexColor("#7a1f2b")
HEAD = HexColor("#efe8da")
ZEBRA = HexColor("#faf7f0")
OUT = HexColor("#ebe5d8")
GOOD = HexColor("#1f6b3a")
BAD = HexColor("#a4231b")
CONFIRMED = HexColor("#dff0e3")
BLACK = HexColor("#000000")

LINE = 0.7  # pt: the grid's lines (two half-width borders where cells meet)
THICK = 1.25  # pt: the line above the totals
PAD = 1.2  # mm: a cell's padding left and right
PAD_Y = 0.8  # mm: top and bottom
#: The deal's columns (print.css `table.grid.fed`): content width + padding + line, in mm.
INFO = [10.0, 24.0, 24.0, 34.0]
INFO_OUTER = [w + 2 * PAD + LINE / MM for w in INFO]
#: A body row's height (`.sheet.<density> table.grid.fed tbody td`, plus padding) by density.
ROW_HEIGHT = {"roomy": 10.0, "normal": 8.0, "tight": 6.5, "tiny": 5.0}
HEADING_1, HEADING_2 = 13.2, 5.6  # the players' headings, then the + and − row
FOOT_ROW = 8.0 + 2 * PAD_Y  # Total, Balance
QR_SIZE = 32.0
TOP_BLOCK = 88.0  # the sheet's name and lead (`.sheet-id`)
QR_BLOCK = 56.0  # the QR code and its captions (`.sheet-qr`)

FONTS = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu")


@lru_cache(maxsize=1)
def _fonts() -> tuple[str, str]:
    """Register DejaVu Sans (print.css's second choice, installed with fonts-dejavu-core)."""
    names = []
    for weight, file in FONTS.items():
        path = next((Path(d) / file for d in FONT_DIRS if (Path(d) / file).exists()), None)
        if path is None:  # elsewhere: ask fontconfig
            pattern = "DejaVu Sans:bold" if weight == "bold" else "DejaVu Sans"
            found = subprocess.run(
                ["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, check=True
            )
            path = Path(found.stdout.strip())
        name = f"Sheet-{weight}"
        pdfmetrics.registerFont(TTFont(name, str(path)))
        names.append(name)
    return names[0], names[1]


def _width(text: str, font: str, size: float) -> float:
    """The text's width in mm."""
    return stringWidth(text, font, size) / MM


def _fitting(text: str, font: str, size: float, width: float, suffix: str = "") -> int:
    """How many of the text's first characters fit in `width` mm, followed by `suffix` (a
    binary search: a hostile 10,000-character name costs a few dozen measures, not 10,000)."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if _width(text[:middle] + suffix, font, size) <= width:
            low = middle
        else:
            high = middle - 1
    return low


def _fit(text: str, font: str, size: float, width: float) -> str:
    """The text, cut with an ellipsis if wider than `width` mm."""
    if _width(text, font, size) <= width:
        return text
    return text[: _fitting(text, font, size, width, "…")].rstrip() + "…"


def _shrunk(text: str, font: str, size: float, width: float) -> tuple[str, float]:
    """A heading in its column: its size lowered (to 5.5 pt at the least) until it fits, then
    cut with an ellipsis ("DONNE" in a column made for "DEAL")."""
    while size > 5.5 and _width(text, font, size) > width:
        size -= 0.5
    return _fit(text, font, size, width), size


def _wrap(text: str, font: str, size: float, width: float, lines: int) -> list[str]:
    """The text in at most `lines` lines of `width` mm: broken after a space or a hyphen
    ("Marie-" / "Élisabeth"), inside a word only when it alone is wider than the line; the
    last line ellipsised when the text does not fit."""
    out: list[str] = []
    pieces = [piece for piece in _BREAKS.split(" ".join(text.split())) if piece]
    current = ""
    while pieces:
        piece = pieces[0]
        if _width((current + piece).rstrip(), font, size) <= width:
            current += piece
            pieces.pop(0)
            continue
        if not current:  # one word wider than the line: cut it
            cut = max(1, _fitting(piece, font, size, width))
            current, pieces[0] = piece[:cut], piece[cut:]
        if len(out) == lines - 1:  # the last line: what is left, ellipsised
            out.append(_fit((current + "".join(pieces)).rstrip(), font, size, width))
            return out
        out.append(current.rstrip())
        current = ""
    if current.strip():
        out.append(current.rstrip())
    return out or [""]


#: Where a line may break: after a space or a hyphen.
_BREAKS = re.compile(r"(?<=[ -])")


def column_edges(grid: FederationGrid) -> list[float]:
    """The grid's columns' left edges, then its right edge, in mm from the page's left: the
    deal's four columns (`INFO`), then a + and a − column a player sharing what is left."""
    score = (WIDTH - sum(INFO_OUTER)) / grid.score_columns
    edges, x = [], LEFT
    for w in [*INFO_OUTER, *[score] * grid.score_columns]:
        edges.append(x)
        x += w
    return [*edges, LEFT + WIDTH]


@dataclass
class _Page:
    sheet: TableSheet
    rows: range  # the grid's rows on this page
    first: bool  # the sheet's top (name, QR code) is on it
    last: bool  # its totals, check box and signatures are on it


class _Paper:
    """Draws on one canvas, positions in mm from the page's top left, the page's frame as
    reports/base_pdf.html's (club, event and paper above, date printed and page number below).
    Without a canvas nothing is drawn: the parts are only measured."""

    page_w, page_h = PAGE_W, PAGE_H  # A4 landscape; the standings are portrait

    def __init__(self, canvas, *, club: str = "", event: str = "", doc_title="", pages: int = 0):
        self.c = canvas
        self.width = self.page_w - LEFT - RIGHT
        self.regular, self.bold = _fonts()
        self.club, self.event, self.doc_title = club, event, doc_title
        self.pages = pages
        self.page = 0
        printed = formats.date_format(timezone.localtime(), "SHORT_DATETIME_FORMAT")
        self.printed = _("Printed on %(printed)s") % {"printed": printed}

    # -- drawing primitives (y from the top, in mm) ---------------------------------------

    def text(self, x, y, text, *, size, bold=False, color=INK, align="left", space=0.0):
        """`text` with its baseline at y; `space`: letter spacing in em (print.css's)."""
        if not text or self.c is None:
            return
        c = self.c
        font = self.bold if bold else self.regular
        c.setFillColor(color)
        c.setFont(font, size)
        char_space = space * size
        if align != "left":
            width = _width(text, font, size) + char_space * len(text) / MM
            x = x - width if align == "right" else x - width / 2
        c.drawString(x * MM, (self.page_h - y) * MM, text, charSpace=char_space)

    def rect(self, x, y, w, h, *, fill=None, stroke=None, width=LINE, radius=0.0, dash=None):
        c = self.c
        if c is None:
            return
        if fill:
            c.setFillColor(fill)
        if stroke:
            c.setStrokeColor(stroke)
            c.setLineWidth(width)
            c.setDash(*dash) if dash else c.setDash()
        args = (x * MM, (self.page_h - y - h) * MM, w * MM, h * MM)
        if radius:
            c.roundRect(*args, radius * MM, stroke=1 if stroke else 0, fill=1 if fill else 0)
        else:
            c.rect(*args, stroke=1 if stroke else 0, fill=1 if fill else 0)

    def line(self, x1, y1, x2, y2, *, width=LINE, color=INK):
        if self.c is None:
            return
        self.c.setStrokeColor(color)
        self.c.setLineWidth(width)
        self.c.setDash()
        self.c.line(x1 * MM, (self.page_h - y1) * MM, x2 * MM, (self.page_h - y2) * MM)

    def hline(self, x1, x2, y, *, width=LINE, color=INK):
        self.line(x1, y, x2, y, width=width, color=color)

    def vline(self, x, y1, y2, *, width=LINE, color=INK):
        self.line(x, y1, x, y2, width=width, color=color)

    # -- the page's frame: header and footer ---------------------------------------------

    def header(self):
        self.page += 1
        y = TOP - 2.5 - 1.2 - 0.6
        self.text(
            LEFT,
            y,
            _fit(self.club, self.bold, 8.5, self.width * 0.3 - 2),
            size=8.5,
            bold=True,
            color=ACCENT,
        )
        self.text(
            LEFT + self.width / 2,
            y,
            _fit(self.event, self.bold, 8.5, self.width * 0.4 - 2),
            size=8.5,
            bold=True,
            align="center",
        )
        self.text(
            LEFT + self.width,
            y,
            _fit(self.doc_title, self.regular, 8.5, self.width * 0.3 - 2),
            size=8.5,
            color=MUTED,
            align="right",
        )
        self.hline(LEFT, LEFT + self.width, TOP - 2.5, width=1.2, color=ACCENT)

    def footer(self):
        y = self.page_h - BOTTOM + 2 + 2.6
        self.text(LEFT, y, self.printed, size=7.5, color=MUTED)
        counter = _("Page %(page)s of %(pages)s") % {"page": self.page, "pages": self.pages}
        self.text(LEFT + self.width, y, counter, size=7.5, color=MUTED, align="right")


class _Sheets(_Paper):
    """The table sheets: a sheet a page (or more), A4 landscape."""

    # -- the sheet's top: its name, its lead and its QR code -----------------------------

    def top(self, sheet: TableSheet) -> float:
        """Draws the top; returns where the grid starts."""
        y = TOP
        if sheet.table:
            self.text(
                LEFT,
                y + 2.9,
                _("Welcome and good luck").upper(),
                size=8,
                bold=True,
                color=MUTED,
                space=0.12,
            )
            y += 8 * 1.3 / MM
            title = _("Table %(n)s") % {"n": sheet.table}
        else:
            title = sheet.title
        self.text(
            LEFT, y + 7.6, _fit(title, self.bold, 24, TOP_BLOCK), size=24, bold=True, color=ACCENT
        )
        y += 24 * 1.1 / MM + 1
        lead = [
            _("Round %(r)s of %(total)s") % {"r": sheet.round, "total": sheet.rounds},
            ngettext("%(n)s deal", "%(n)s deals", sheet.planned or 0) % {"n": sheet.planned},
        ]
        if sheet.date:
            lead.append(formats.date_format(sheet.date, "DATE_FORMAT"))
        lines = [" · ".join(lead)]
        if sheet.sits_out:
            lines.append(_("the dealer sits out each deal and scores 0"))
        lines.append(_("The number beside each seat is the player's starting table."))
        for line in lines:
            for part in _wrap(line, self.regular, 10, TOP_BLOCK, 3):
                self.text(LEFT, y + 3.6, part, size=10, color=MUTED)
                y += 10 * 1.3 / MM
        if sheet.house_rules:
            y += 1
            for part in _wrap(sheet.house_rules, self.bold, 9, TOP_BLOCK, 4):
                self.text(LEFT, y + 3.3, part, size=9, bold=True)
                y += 9 * 1.3 / MM
        left_bottom = y

        x = LEFT + WIDTH - QR_BLOCK
        middle = x + QR_BLOCK / 2
        y = TOP
        if sheet.url:
            y -= 1.5
            self.qr(sheet.url, middle - QR_SIZE / 2, y)
            y += QR_SIZE + 0.2
            self.text(
                middle,
                y + 2.7,
                _("Scan to enter the deals on a phone"),
                size=7.5,
                color=MUTED,
                align="center",
            )
            y += 7.5 * 1.3 / MM
            for part in _chunks(sheet.url, self.regular, 6.5, QR_BLOCK):
                self.text(middle, y + 2.4, part, size=6.5, color=MUTED, align="center")
                y += 6.5 * 1.3 / MM
        elif sheet.table:
            message = _(
                "No QR code yet: this round is not seated. The seating may still change if "
                "players register or withdraw; print the sheets again once the round starts "
                "to get each table's QR code."
            )
            parts = _wrap(message, self.regular, 7.5, QR_BLOCK - 4.3, 8)
            height = len(parts) * 7.5 * 1.3 / MM + 4
            self.rect(x, y, QR_BLOCK, height, stroke=MUTED, width=0.8, dash=(2, 2))
            for k, part in enumerate(parts):
                self.text(x + 2.1, y + 2 + 2.7 + k * 7.5 * 1.3 / MM, part, size=7.5, color=MUTED)
            y += height
        return max(left_bottom, y) + 3

    def qr(self, url: str, x: float, y: float) -> None:
        """The QR code (with its white border of 3 modules) as one filled path."""
        if self.c is None:
            return
        code = segno.make(url, error="m")
        matrix = list(code.matrix_iter(scale=1, border=3))
        module = QR_SIZE / len(matrix)
        path = self.c.beginPath()
        for r, row in enumerate(matrix):
            start = None
            for k, dark in enumerate([*row, 0]):
                if dark and start is None:
                    start = k
                elif not dark and start is not None:
                    top = PAGE_H - y - (r + 1) * module
                    path.rect(
                        (x + start * module) * MM, top * MM, (k - start) * module * MM, module * MM
                    )
                    start = None
        self.c.setFillColor(BLACK)
        self.c.drawPath(path, stroke=0, fill=1)

    # -- the grid -------------------------------------------------------------------------

    def player_headings(self, grid: FederationGrid, edges: list[float]) -> list[list[tuple]]:
        """Each player's heading, line by line (text, size, bold, colour): the seat and the
        starting table, the name (on two lines if need be), the licence."""
        headings = []
        for i, p in enumerate(grid.players):
            width = edges[6 + 2 * i] - edges[4 + 2 * i] - 2 * PAD
            seat = str(p.seat).upper() + (f" · {p.start_table}" if p.start_table else "")
            lines = [(_fit(seat, self.bold, 8.5, width), 8.5, True, INK)]
            lines += [(n, 9, True, INK) for n in _wrap(p.name, self.bold, 9, width, 2)]
            if p.licence:
                lines.append((_fit(p.licence, self.regular, 6.5, width), 6.5, False, MUTED))
            headings.append(lines)
        return headings

    def heading_height(self, grid: FederationGrid, edges: list[float]) -> float:
        """The players' heading row: as tall as its tallest heading (3 lines at the least)."""
        tallest = max(
            (
                sum(size * 1.3 / MM for _t, size, _b, _c in h)
                for h in self.player_headings(grid, edges)
            ),
            default=0.0,
        )
        return max(HEADING_1, tallest + 2 * PAD_Y)

    def heading(self, grid: FederationGrid, edges: list[float], y: float) -> float:
        headings = self.player_headings(grid, edges)
        first = self.heading_height(grid, edges)
        bottom = y + first + HEADING_2
        self.rect(LEFT, y, WIDTH, first + HEADING_2, fill=HEAD)
        for k in range(grid.score_columns):  # the − headings are shaded
            if k % 2:
                self.rect(
                    edges[4 + k], y + first, edges[5 + k] - edges[4 + k], HEADING_2, fill=ZEBRA
                )
        labels = [_("Deal"), _("Dealer"), _("Taker"), _("Contract")]
        for k, label in enumerate(labels):
            width = edges[k + 1] - edges[k] - 2 * PAD
            text, size = _shrunk(label.upper(), self.bold, 7.5, width)
            x, align = ((edges[0] + edges[1]) / 2, "center") if k == 0 else (edges[k] + PAD, "left")
            self.text(x, bottom - PAD_Y - 1.1, text, size=size, bold=True, align=align)
        for i, lines in enumerate(headings):
            middle = (edges[4 + 2 * i] + edges[6 + 2 * i]) / 2
            at = y + first - PAD_Y - sum(size * 1.3 / MM for _t, size, _b, _c in lines)
            for text, size, bold, color in lines:
                self.text(
                    middle, at + size / MM, text, size=size, bold=bold, color=color, align="center"
                )
                at += size * 1.3 / MM
        for i in range(len(grid.players)):  # then the + and − row
            for k, sign in enumerate(("+", "−")):
                a, b = edges[4 + 2 * i + k], edges[5 + 2 * i + k]
                self.text(
                    (a + b) / 2, bottom - PAD_Y - 1.2, sign, size=9, bold=True, align="center"
                )
        # lines: the frame, the rows, the columns (the players' over both heading rows)
        self.hline(edges[4], LEFT + WIDTH, y + first)
        for k, x in enumerate(edges[1:-1], start=1):
            self.vline(x, y + (first if k >= 4 and k % 2 else 0), bottom)
        self.hline(LEFT, LEFT + WIDTH, y)
        return bottom

    def body(self, sheet: TableSheet, grid: FederationGrid, edges, rows: range, y: float) -> float:
        height = ROW_HEIGHT[sheet.density] + 2 * PAD_Y + LINE / MM
        top = y
        if not grid.rows:
            self.text(
                (LEFT + LEFT + WIDTH) / 2,
                y + 4 + 3.2,
                _("No deal yet."),
                size=9,
                color=MUTED,
                align="center",
            )
            y += 12
            self.hline(LEFT, LEFT + WIDTH, top)
            return y
        for index in rows:
            row = grid.rows[index]
            for k in range(grid.score_columns):  # the − columns' shading
                if k % 2:
                    self.rect(edges[4 + k], y, edges[5 + k] - edges[4 + k], height, fill=ZEBRA)
            baseline = y + PAD_Y + 3.2
            self.text((edges[0] + edges[1]) / 2, baseline, str(row.number), size=9, align="center")
            for k, who in ((1, row.dealer), (2, row.taker)):
                width = edges[k + 1] - edges[k] - 2 * PAD
                lines = max(1, int((height - 2 * PAD_Y) // (9 * 1.3 / MM)))
                for n, part in enumerate(_wrap(who, self.regular, 9, width, lines)):
                    self.text(edges[k] + PAD, baseline + n * 9 * 1.3 / MM, part, size=9)
            width = edges[4] - edges[3] - 2 * PAD
            contract = _fit(row.contract, self.regular, 9, width)
            self.text(edges[3] + PAD, baseline, contract, size=9)
            if row.detail and height - 2 * PAD_Y < 9 * 1.3 / MM + 6.5 * 1.3 / MM:
                # a short row: the detail after the contract, on its line
                x = edges[3] + PAD + _width(contract + " ", self.regular, 9)
                rest = edges[4] - PAD - x
                if rest > 3:
                    detail = _fit(row.detail, self.regular, 6.5, rest)
                    self.text(x, baseline, detail, size=6.5, color=MUTED)
            elif row.detail:
                self.text(
                    edges[3] + PAD,
                    baseline + 3.0,
                    _fit(row.detail, self.regular, 6.5, width),
                    size=6.5,
                    color=MUTED,
                )
            for i, cell in enumerate(row.cells):
                a, m, b = edges[4 + 2 * i], edges[5 + 2 * i], edges[6 + 2 * i]
                if cell.out:
                    self.rect(a, y, b - a, height, fill=OUT)
                    self.text(
                        (a + b) / 2,
                        baseline - 0.6,
                        _("sits out"),
                        size=6.5,
                        color=MUTED,
                        align="center",
                    )
                    continue
                for value, right in ((cell.plus, m), (cell.minus, b)):
                    if value is not None:
                        self.text(
                            right - PAD,
                            baseline + 0.3,
                            str(value),
                            size=10,
                            bold=True,
                            align="right",
                        )
            self.hline(LEFT, LEFT + WIDTH, y)
            for k, x in enumerate(edges[1:-1], start=1):
                out = k >= 5 and k % 2 == 1 and row.cells[(k - 5) // 2].out
                if not out:  # a player sitting out: one cell over their + and −
                    self.vline(x, y, y + height)
            y += height
        return y

    def foot(self, grid: FederationGrid, edges, y: float) -> float:
        self.rect(LEFT, y, edges[4] - LEFT, 2 * FOOT_ROW, fill=HEAD)
        for k in range(grid.score_columns):
            if k % 2:
                self.rect(edges[4 + k], y, edges[5 + k] - edges[4 + k], 2 * FOOT_ROW, fill=ZEBRA)
        for n, label in enumerate((_("Total"), _("Balance"))):
            middle = y + n * FOOT_ROW + FOOT_ROW / 2 + 1.1
            self.text(
                edges[4] - PAD, middle, label.upper(), size=9, bold=True, align="right", space=0.02
            )
            if grid.totals is None:
                continue
            for i, x in enumerate(grid.totals):
                m, b = edges[5 + 2 * i], edges[6 + 2 * i]
                if n == 0:
                    values = ((str(x.plus), m), (str(x.minus), b))
                else:
                    values = ((signed(x.balance), m if x.balance >= 0 else b),)
                for value, right in values:
                    self.text(right - PAD, middle + 0.3, value, size=11, bold=True, align="right")
        self.hline(LEFT, LEFT + WIDTH, y, width=THICK)
        self.hline(LEFT, LEFT + WIDTH, y + FOOT_ROW)
        for x in edges[4:-1]:
            self.vline(x, y, y + 2 * FOOT_ROW)
        return y + 2 * FOOT_ROW

    def outline(self, top: float, bottom: float) -> None:
        self.rect(LEFT, top, WIDTH, bottom - top, stroke=INK, width=LINE)

    # -- the sheet's bottom: the check and the signatures ---------------------------------

    def bottom(self, sheet: TableSheet, grid: FederationGrid, y: float) -> float:
        """Draws the check line and the signatures under the grid; returns where they end."""
        y += 3
        self.rect(LEFT, y, 4.5, 4.5, stroke=INK, width=1)
        if sheet.zero_sum:
            self.text(LEFT + 2.25, y + 3.5, "✓", size=10, bold=True, align="center")
        x = LEFT + 4.5 + 1.5 + 0.7
        label = _("The totals add up to 0")
        self.text(x, y + 3.6, label, size=10)
        x += _width(label, self.regular, 10)
        if sheet.zero_sum is False:
            warning = " — " + _("they do not: check the deals.")
            self.text(x, y + 3.6, warning, size=10, bold=True, color=BAD)
            x += _width(warning, self.bold, 10)
        if sheet.filled and sheet.locked:
            pill = _("Sheet confirmed")
            w = _width(pill, self.bold, 8.5) + 4
            self.rect(x + 6, y + 0.5, w, 4.2, fill=CONFIRMED, radius=2)
            self.text(x + 8, y + 3.6, pill, size=8.5, bold=True, color=GOOD)
        y += 4.5 + 3
        if not sheet.signatures:
            return y
        self.text(
            LEFT,
            y + 2.7,
            _("Signatures: each player checks the sheet and signs").upper(),
            size=7.5,
            color=MUTED,
            space=0.02,
        )
        y += 7.5 * 1.3 / MM + 1
        signers = grid.players
        width = WIDTH / len(signers)
        for k, p in enumerate(signers):
            x = LEFT + k * width + (4 if k else 0)
            w = width - (4 if k else 0)
            self.rect(x, y, w, 13, stroke=INK, width=0.7, radius=1.5)
            who = f"{p.seat} · {p.name}" if p.seat else p.name
            self.text(x, y + 13 + 0.8 + 2.7, _fit(who, self.regular, 7.5, w), size=7.5, color=MUTED)
        return y + 13 + 0.8 + 7.5 * 1.3 / MM


def _chunks(text: str, font: str, size: float, width: float) -> list[str]:
    """A URL in lines of `width` mm, broken anywhere (print.css `word-break: break-all`)."""
    lines = []
    while text:
        cut = max(1, _fitting(text, font, size, width))
        lines.append(text[:cut])
        text = text[cut:]
    return lines


def _pages(sheets: list[TableSheet]) -> list[_Page]:
    """Each sheet's pages: as many rows on each as it holds, the totals with the last rows.
    The sheet's top and bottom are measured (laid out without drawing)."""
    pages = []
    measure = _Sheets(None)
    for sheet in sheets:
        heading = measure.heading_height(sheet.fed, column_edges(sheet.fed)) + HEADING_2
        room = PAGE_H - TOP - BOTTOM - heading
        top = measure.top(sheet) - TOP
        bottom = 2 * FOOT_ROW + measure.bottom(sheet, sheet.fed, 0.0)
        height = ROW_HEIGHT[sheet.density] + 2 * PAD_Y + LINE / MM
        count = len(sheet.rows)
        start, first = 0, True
        while True:
            above = top if first else 0.0
            fits = int((room - above - bottom) // height)
            if start + fits >= count:
                pages.append(_Page(sheet, range(start, count), first, True))
                break
            fits = max(1, int((room - above) // height))
            pages.append(_Page(sheet, range(start, start + fits), first, False))
            start, first = start + fits, False
    return pages


def _canvas(buffer, paper: type[_Paper], *, club: str, event: str, doc_title: str) -> Canvas:
    """A compressed PDF canvas of the paper's page size, with the document's title, author
    and subject (reports/base_pdf.html's)."""
    canvas = Canvas(
        buffer, pagesize=(paper.page_w * MM, paper.page_h * MM), pageCompression=1, invariant=0
    )
    canvas.setTitle(f"{doc_title} · {event}")
    canvas.setAuthor(club)
    canvas.setSubject(f"{doc_title} · {event}")
    canvas.setCreator("Tarot club")
    return canvas


def sheets_pdf(sheets: list[TableSheet], *, club: str, event: str, doc_title: str) -> Pdf:
    """The sheets (federation's layout) as one PDF: A4 landscape, a page per table."""
    pages = _pages(sheets)
    buffer = io.BytesIO()
    canvas = _canvas(buffer, _Sheets, club=club, event=event, doc_title=doc_title)
    draw = _Sheets(canvas, club=club, event=event, doc_title=doc_title, pages=len(pages))
    for page in pages:
        sheet, grid = page.sheet, page.sheet.fed
        edges = column_edges(grid)
        draw.header()
        y = draw.top(sheet) if page.first else TOP
        top = y
        y = draw.heading(grid, edges, y)
        y = draw.body(sheet, grid, edges, page.rows, y)
        if page.last:
            y = draw.foot(grid, edges, y)
        draw.outline(top, y)
        if page.last:
            draw.bottom(sheet, grid, y)
        draw.footer()
        canvas.showPage()
    canvas.save()
    return Pdf(content=buffer.getvalue(), pages=len(pages))


# --- the standings (A4 portrait) ------------------------------------------------------------

LINE_COLOUR = HexColor("#ddd5c4")  # print.css --line
ROW = 6.4  # mm: a player's row (9 pt text, 2.4 mm of padding, .5 pt line)
CELL_PAD = 1.5  # mm: a cell's padding left and right (print.css `table.data`)
HEAD_ROW = 7.5 * 1.3 / MM + 2 * 1.6  # the table's heading row


class _Standings(_Paper):
    """The standings of a tournament, a row a player, the heading on every page; then the
    team ranking and the legend of the ties. Laid out twice: once without a canvas to count
    the pages ("Page 2 of 6"), then drawn."""

    page_w, page_h = 210.0, 297.0

    def flow(self, paper: dict) -> None:
        self.header()
        self.y = TOP
        self.heading_of_page = None
        self.title(paper)
        columns, lines = paper["columns"], paper["lines"]
        widths = self.column_widths(columns)
        if not lines:
            self.table_heading(columns, widths)
            self.text(LEFT + CELL_PAD, self.y + 4.3, _("Nobody is registered yet."), size=9)
            self.y += ROW
        else:
            self.heading_of_page = (columns, widths)
            self.table_heading(columns, widths)
            for k, line in enumerate(lines):
                self.room(ROW)
                self.player_row(columns, widths, line, k)
        self.heading_of_page = None
        if paper["teams"]:
            self.teams(paper["teams"])
        if paper["ties"]:
            legend = _(
                "“=” after a rank: tied with the player above or below (same score, same "
                "rounds topped, same best round)."
            )
            parts = _wrap(legend, self.regular, 8, self.width, 4)
            self.room(3 + len(parts) * 8 * 1.3 / MM)
            self.y += 3
            for part in parts:
                self.text(LEFT, self.y + 2.9, part, size=8, color=MUTED)
                self.y += 8 * 1.3 / MM
        self.footer()

    def room(self, height: float) -> None:
        """A new page when `height` mm do not fit on this one (the table's heading again)."""
        if self.y + height <= self.page_h - BOTTOM:
            return
        self.footer()
        if self.c is not None:
            self.c.showPage()
        self.header()
        self.y = TOP
        if self.heading_of_page:
            self.table_heading(*self.heading_of_page)

    def title(self, paper: dict) -> None:
        self.text(LEFT, self.y + 6.2, paper["title"], size=17, bold=True, color=ACCENT)
        self.y += 17 * 1.3 / MM + 1
        for part in _wrap(paper["lead"], self.regular, 10, self.width, 3):
            self.text(LEFT, self.y + 3.6, part, size=10, color=MUTED)
            self.y += 10 * 1.3 / MM
        self.y += 4
        if paper["house_rules"]:
            for part in _wrap(paper["house_rules"], self.bold, 10, self.width, 4):
                self.text(LEFT, self.y + 3.6, part, size=10, bold=True)
                self.y += 10 * 1.3 / MM
            self.y += 3

    def column_widths(self, columns) -> list[float]:
        """print.css `table.standings`: rank 15 mm, name 34 %, licence 22 mm, total and
        average 19 mm; the rounds share what is left."""
        fixed = {"rank": 15.0, "name": 0.34 * self.width, "licence": 22.0}
        fixed.update(total=19.0, average=19.0)
        rounds = sum(1 for c in columns if c.css == "round")
        left = self.width - sum(fixed[c.css] for c in columns if c.css != "round")
        return [fixed.get(c.css, left / max(rounds, 1)) for c in columns]

    def table_heading(self, columns, widths) -> None:
        self.rect(LEFT, self.y, self.width, HEAD_ROW, fill=HEAD)
        x = LEFT
        for k, (column, width) in enumerate(zip(columns, widths, strict=True)):
            label, size = _shrunk(column.label.upper(), self.bold, 7.5, width - 2 * CELL_PAD)
            if column.numeric or k == 0:
                self.text(
                    x + width - CELL_PAD,
                    self.y + 1.6 + 2.7,
                    label,
                    size=size,
                    bold=True,
                    align="right",
                )
            else:
                self.text(x + CELL_PAD, self.y + 1.6 + 2.7, label, size=size, bold=True)
            x += width
        self.y += HEAD_ROW
        self.hline(LEFT, LEFT + self.width, self.y, width=1)

    def player_row(self, columns, widths, line, index: int) -> None:
        if index % 2:
            self.rect(LEFT, self.y, self.width, ROW, fill=ZEBRA)
        x, baseline = LEFT, self.y + 4.3
        for column, width, value in zip(columns, widths, line.values, strict=True):
            room = width - 2 * CELL_PAD
            if column.css == "name":
                # (the word outside the f-string, where makemessages finds it)
                word = _("withdrawn")
                withdrawn = f" ({word})" if line.withdrawn else ""
                mark = _width(withdrawn, self.regular, 9)
                name = _fit(value, self.regular, 9, room - mark)
                self.text(x + CELL_PAD, baseline, name, size=9)
                if withdrawn:
                    after = x + CELL_PAD + _width(name, self.regular, 9)
                    self.text(after, baseline, withdrawn, size=9, color=MUTED)
            elif column.css == "licence":
                self.text(
                    x + CELL_PAD, baseline, _fit(value, self.regular, 8, room), size=8, color=MUTED
                )
            else:
                bold = column.css == "total"
                font = self.bold if bold else self.regular
                self.text(
                    x + width - CELL_PAD,
                    baseline,
                    _fit(value, font, 9, room),
                    size=9,
                    bold=bold,
                    align="right",
                )
            x += width
        self.y += ROW
        self.hline(LEFT, LEFT + self.width, self.y - 0.09, width=0.5, color=LINE_COLOUR)

    def teams(self, teams) -> None:
        self.room(5 + 13 * 1.3 / MM + 1 + 10 * 1.3 / MM * 2 + HEAD_ROW + ROW)
        self.y += 5
        self.text(LEFT, self.y + 4.7, _("Team ranking"), size=13, bold=True)
        self.y += 13 * 1.3 / MM + 1
        lead = _(
            "A team's score is the sum of its players' scores; teammates never sit at the "
            "same table."
        )
        for part in _wrap(lead, self.regular, 10, self.width, 3):
            self.text(LEFT, self.y + 3.6, part, size=10, color=MUTED)
            self.y += 10 * 1.3 / MM
        self.y += 2
        columns = [
            StandingsColumn("rank", _("Rank"), True),
            StandingsColumn("team", _("Team"), False),
            StandingsColumn("players", _("Players"), False),
            StandingsColumn("total", _("Total"), True),
        ]
        widths = [15.0, 45.0, self.width - 15 - 45 - 19, 19.0]
        self.heading_of_page = (columns, widths)
        self.table_heading(columns, widths)
        for k, team in enumerate(teams):
            members = ", ".join(  # a name breaks at its spaces, not its hyphens (as the site)
                f"{no_break_hyphens(' '.join(row.player.name.split()))} ({minus_number(row.total)})"
                for row in team.members
            )
            parts = _wrap(members, self.regular, 9, widths[2] - 2 * CELL_PAD, 6)
            name = _wrap(team.name, self.regular, 9, widths[1] - 2 * CELL_PAD, 2)
            height = ROW + (max(len(parts), len(name)) - 1) * 9 * 1.3 / MM
            self.room(height)
            if k % 2:
                self.rect(LEFT, self.y, self.width, height, fill=ZEBRA)
            baseline = self.y + 4.3
            rank = f"{team.rank}=" if team.tied else str(team.rank)
            self.text(LEFT + widths[0] - CELL_PAD, baseline, rank, size=9, align="right")
            for n, part in enumerate(name):
                self.text(LEFT + widths[0] + CELL_PAD, baseline + n * 9 * 1.3 / MM, part, size=9)
            x = LEFT + widths[0] + widths[1] + CELL_PAD
            for n, part in enumerate(parts):
                self.text(x, baseline + n * 9 * 1.3 / MM, part, size=9)
            self.text(
                LEFT + self.width - CELL_PAD, baseline, team.total_display, size=9, align="right"
            )
            self.y += height
            self.hline(LEFT, LEFT + self.width, self.y - 0.09, width=0.5, color=LINE_COLOUR)
        self.heading_of_page = None


def standings_pdf(paper: dict, *, club: str, event: str, doc_title: str) -> Pdf:
    """The standings (`printouts.standings_paper`): A4 portrait, the table's heading on
    every page, then the team ranking and the ties' legend."""
    measure = _Standings(None)
    measure.flow(paper)
    buffer = io.BytesIO()
    canvas = _canvas(buffer, _Standings, club=club, event=event, doc_title=doc_title)
    draw = _Standings(canvas, club=club, event=event, doc_title=doc_title, pages=measure.page)
    draw.flow(paper)
    canvas.showPage()
    canvas.save()
    return Pdf(content=buffer.getvalue(), pages=draw.page)
