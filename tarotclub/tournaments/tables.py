"""The standings as a django-tables2 table: one column per round, the total (and average)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tarotclub.core.text import no_break_hyphens
from tarotclub.games.tables import ScoreColumn


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=_("Player"), attrs={"td": {"class": "name"}})
    licence = tables.Column(
        verbose_name=_("Licence"), attrs={"th": {"class": "licence"}, "td": {"class": "licence"}}
    )

    class Meta:
        attrs = {"class": "data standings"}
        orderable = False
        empty_text = _("Nobody is registered yet.")

    def __init__(self, standings, *args, show_average: bool = False, **kwargs):
        extra = [
            (
                f"r{r}",
                ScoreColumn(
                    verbose_name=_("R%(n)s") % {"n": r},
                    accessor=tables.A(f"r{r}"),
                    attrs={
                        "th": {"class": "num"},
                        "td": {"class": "num round", "data-label": _("R%(n)s") % {"n": r}},
                    },
                    default="–",
                ),
            )
            for r in standings.round_numbers
        ]
        extra.append(
            (
                "total",
                ScoreColumn(
                    verbose_name=_("Total"),
                    attrs={"th": {"class": "num"}, "td": {"class": "num total"}},
                ),
            )
        )
        if show_average:
            extra.append(
                (
                    "average",
                    tables.Column(
                        verbose_name=_("Average"),
                        attrs={"th": {"class": "num"}, "td": {"class": "num"}},
                    ),
                )
            )
        rows = []
        for row in standings.rows:
            data = {
                "rank": f"{row.rank}=" if row.tied else row.rank,
                "name": row.player.name,
                "withdrawn": row.withdrawn,
                "licence": row.licence,
                "total": row.total,
                "average": row.average_display,
                "average_value": row.average,
            }
            for r in standings.round_numbers:
                data[f"r{r}"] = row.rounds.get(r)
            rows.append(data)
        super().__init__(rows, *args, extra_columns=extra, **kwargs)

    def render_name(self, value, record):
        if record["withdrawn"]:
            return format_html(
                '{} <small class="muted">({})</small>', no_break_hyphens(value), _("withdrawn")
            )
        return no_break_hyphens(value)

    def value_name(self, value, record):
        return value

    def value_average(self, value, record):  # a number in the spreadsheet: -12.5
        average = record["average_value"]
        return "" if average is None else round(float(average), 1)
