"""The season's standings as a grid of cells (page, PDF) and as rows (spreadsheets)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext as _

from tarotclub.games.presenters import figure, number
from tarotclub.players.links import player_name, player_urls

from .selectors import SeasonStandings


def value_display(standings: SeasonStandings, line) -> str:
    """The season's figure as the page shows it: the average to one decimal, else a number
    with a real minus sign."""
    if line.value.denominator != 1 or standings.season.formula == "average":
        return figure(line.value, 1)
    return number(int(line.value))


def evening_label(n: int) -> str:
    """An evening's short name in the standings' columns: its number in the season."""
    return _("E%(n)s") % {"n": n}


def evening_header(evening) -> str:
    return date_format(evening.date, "SHORT_DATE_FORMAT")


@dataclass(frozen=True)
class Cell:
    text: str
    css: str = "num"
    label: str = ""  # what a phone shows before the figure, its column's header being hidden


@dataclass
class Grid:
    """The standings as the page and the PDF draw them: headers, then rows of cells.

    Made here rather than by django-tables2, whose per-cell rendering takes some 300 ms for
    40 players over 30 evenings; the cells are the same on screen and on paper.
    """

    headers: list[Cell]
    rows: list[list[Cell]]

    def html(self, *, empty: str) -> SafeString:
        """The whole <table>, every text escaped (a safe string, such as a name with its
        note, is kept as it is)."""

        def text(value) -> str:
            return str(value) if isinstance(value, SafeData) else escape(str(value))

        head = "".join(f'<th scope="col" class="{c.css}">{text(c.text)}</th>' for c in self.headers)
        if self.rows:
            body = "".join(
                "<tr>"
                + "".join(
                    f'<td class="{c.css}"'
                    + (f' data-label="{escape(c.label)}"' if c.label else "")
                    + f">{text(c.text)}</td>"
                    for c in row
                )
                + "</tr>"
                for row in self.rows
            )
        else:
            body = f'<tr><td colspan="{len(self.headers)}">{text(empty)}</td></tr>'
        return mark_safe(  # noqa: S308  (every text above is escaped; the classes are ours)
            '<table class="data standings season-standings">'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        )


def grid(standings: SeasonStandings, *, link_players: bool = False) -> Grid:
    """The grid; the names as links to the players' pages when `link_players` (a member's
    page; never on paper)."""
    url = player_urls()
    headers = [
        Cell(_("Rank"), "num"),
        Cell(_("Player"), "name"),
        Cell(_("Season"), "num"),
        Cell(_("Won"), "num"),
        *(
            Cell(f"{evening_label(i)} · {evening_header(e)}", "num")
            for i, e in enumerate(standings.evenings, start=1)
        ),
    ]
    labels = [evening_label(i) for i in range(1, len(standings.evenings) + 1)]
    won = _("won")
    keys = [e.key for e in standings.evenings]
    unranked = _("unranked")
    rows = []
    for line in standings.lines:
        rank = "" if line.rank is None else (f"{line.rank}=" if line.tied else str(line.rank))
        name = player_name(line.player, line.name, link=link_players, url=url)
        if not line.ranked:
            name = format_html('{} <small class="muted">({})</small>', name, unranked)
        cells = [
            Cell(rank, "num rank"),
            Cell(name, "name"),
            Cell(value_display(standings, line), "num total"),
            Cell(str(line.wins), "num round wins", won),
        ]
        for key, label in zip(keys, labels, strict=True):
            v = line.values.get(key)
            if v is None:
                cells.append(Cell("–", "num round missed", label))
            elif key in line.counted:
                cells.append(Cell(number(v), "num round", label))
            else:
                cells.append(Cell(f"({number(v)})", "num round muted not-counted", label))
        rows.append(cells)
    return Grid(headers=headers, rows=rows)


def export_rows(standings: SeasonStandings) -> tuple[list, list[list]]:
    """Plain values for a spreadsheet: numbers as numbers, an empty cell for an evening missed."""
    headers = [_("Rank"), _("Player"), _("Season"), _("Evenings won"), _("Evenings")]
    casual = str(standings.season.get_kind_display())
    for e in standings.evenings:
        if e.tournament:
            label = e.tournament.name
        else:
            label = _("Casual games") if standings.season.is_tarot else casual
        headers.append(f"{e.date.isoformat()} {label}")
    rows = []
    for line in standings.lines:
        value = line.value
        value = round(float(value), 1) if value.denominator != 1 else int(value)
        row = [line.rank, line.name, value, line.wins, line.attended]
        for e in standings.evenings:
            row.append(line.values.get(e.key))
        rows.append(row)
    return headers, rows
