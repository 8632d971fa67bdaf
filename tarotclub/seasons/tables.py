"""The season's standings as a django-tables2 table: rank, player, figure, the evenings."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarotclub.core.text import no_break_hyphens
from tarotclub.games.presenters import figure, number

from .selectors import SeasonStandings


def value_display(standings: SeasonStandings, line) -> str:
    """The season's figure as the page shows it: the average to one decimal, else a number
    with a real minus sign."""
    if line.value.denominator != 1 or standings.season.formula == "average":
        return figure(line.value, 1)
    return number(int(line.value))


def evening_header(evening) -> str:
    return date_format(evening.date, "SHORT_DATE_FORMAT")


class EveningColumn(tables.Column):
    """An evening's figure; an evening that does not count (best N) is shown in parentheses."""

    def render(self, value):
        shown, counted = number(value[0]), value[1]
        if counted:
            return shown
        return format_html('<span class="muted not-counted">({})</span>', shown)

    def value(self, value):
        return "" if value is None else value[0]


class SeasonTable(tables.Table):
    rank = tables.Column(verbose_name=gettext_lazy("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=gettext_lazy("Player"), attrs={"td": {"class": "name"}})
    value = tables.Column(
        verbose_name=gettext_lazy("Season"),
        attrs={"th": {"class": "num"}, "td": {"class": "num total"}},
    )
    wins = tables.Column(
        verbose_name=gettext_lazy("Won"), attrs={"th": {"class": "num"}, "td": {"class": "num"}}
    )

    class Meta:
        attrs = {"class": "data standings season-standings"}
        orderable = False
        empty_text = gettext_lazy("Nobody has played an evening of this season yet.")

    def __init__(self, standings: SeasonStandings, *args, **kwargs):
        extra = [
            (
                f"e{i}",
                EveningColumn(
                    verbose_name=evening_header(e),
                    accessor=tables.A(f"e{i}"),
                    attrs={"th": {"class": "num"}, "td": {"class": "num round"}},
                    default="–",
                ),
            )
            for i, e in enumerate(standings.evenings)
        ]
        rows = []
        for line in standings.lines:
            data = {
                "rank": "" if line.rank is None else (f"{line.rank}=" if line.tied else line.rank),
                "name": line.name,
                "ranked": line.ranked,
                "value": value_display(standings, line),
                "wins": line.wins,
            }
            for i, e in enumerate(standings.evenings):
                v = line.values.get(e.key)
                data[f"e{i}"] = None if v is None else (v, e.key in line.counted)
            rows.append(data)
        super().__init__(rows, *args, extra_columns=extra, **kwargs)
        self.standings = standings

    def render_name(self, value, record):
        if not record["ranked"]:
            return format_html(
                '{} <small class="muted">({})</small>', no_break_hyphens(value), _("unranked")
            )
        return no_break_hyphens(value)


def export_rows(standings: SeasonStandings) -> tuple[list, list[list]]:
    """Plain values for a spreadsheet: numbers as numbers, an empty cell for an evening missed."""
    headers = [_("Rank"), _("Player"), _("Season"), _("Evenings won"), _("Evenings")]
    for e in standings.evenings:
        label = e.tournament.name if e.tournament else _("Casual games")
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
