"""Every deal of a tournament, one row each: on its page, and as CSV or Excel."""

from __future__ import annotations

from fractions import Fraction

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy

from scoring.fft import format_points
from tarotclub.core.text import no_break_hyphens
from tarotclub.games.presenters import signed
from tarotclub.kinds.tarot.presenters import result_text
from tarotclub.tournaments.models import SEAT_NAMES


class SeatColumn(tables.Column):
    """The player in one seat and their score for the deal."""

    def __init__(self, position: int, **kwargs):
        super().__init__(
            verbose_name=SEAT_NAMES[position],
            accessor=tables.A(f"seats__{position}"),
            orderable=False,
            default="",
            attrs={"td": {"class": "seat-score", "data-label": SEAT_NAMES[position]}},
            **kwargs,
        )

    def render(self, value):
        name, score = value
        css = "pos" if score > 0 else "neg" if score < 0 else ""
        return format_html(
            '<span class="seat-name">{}</span> <span class="num {}">{}</span>',
            no_break_hyphens(name),
            css,
            signed(score),
        )

    def value(self, value):  # export: "Anne +75"
        if not value:
            return ""
        name, score = value
        return f"{name} {score:+d}" if score else f"{name} 0"


class DealsTable(tables.Table):
    round = tables.Column(verbose_name=gettext_lazy("Round"), attrs={"td": {"class": "num"}})
    table = tables.Column(verbose_name=gettext_lazy("Table"), attrs={"td": {"class": "num"}})
    number = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}})
    dealer = tables.Column(verbose_name=gettext_lazy("Dealer"))
    taker = tables.Column(verbose_name=gettext_lazy("Taker"))
    partner = tables.Column(verbose_name=gettext_lazy("Partner"), default="")
    contract = tables.Column(verbose_name=gettext_lazy("Contract"))
    bouts = tables.Column(verbose_name=gettext_lazy("Bouts"), attrs={"td": {"class": "num"}})
    points = tables.Column(verbose_name=gettext_lazy("Points"), attrs={"td": {"class": "num"}})
    result = tables.Column(verbose_name=gettext_lazy("Result"), accessor="gap")
    petit_au_bout = tables.Column(verbose_name=gettext_lazy("Petit au bout"), default="")
    poignees = tables.Column(verbose_name=gettext_lazy("Poignée"), default="")
    chelem = tables.Column(verbose_name=gettext_lazy("Slam"), default="")

    class Meta:
        attrs = {"class": "data deals"}
        orderable = False
        empty_text = gettext_lazy("No deal has been entered yet.")
        template_name = "django_tables2/table.html"

    def __init__(self, rows: list[dict], *args, table_link=None, **kwargs):
        """`table_link(record)`: the URL the table's number links to (None: no link)."""
        self.table_link = table_link
        seats = max((len(r["seats"]) for r in rows), default=4)
        extra = [(f"seat{i}", SeatColumn(i)) for i in range(max(seats, 4))]
        exclude = list(kwargs.pop("exclude", ()) or ())
        if not any(r["partner"] for r in rows):
            exclude.append("partner")
        super().__init__(rows, *args, extra_columns=extra, exclude=exclude, **kwargs)
        for column in self.columns:  # the narrow layout labels each cell (CSS attr())
            td = column.column.attrs.setdefault("td", {})
            td.setdefault("data-label", column.header)

    def render_dealer(self, value):
        return format_html("<span>{}</span>", no_break_hyphens(value))

    def render_taker(self, value):
        return format_html("<span>{}</span>", no_break_hyphens(value))

    def render_partner(self, value):
        return format_html("<span>{}</span>", no_break_hyphens(value))

    def render_table(self, value, record):
        url = self.table_link(record) if self.table_link else None
        if not url:
            return value
        return format_html('<a class="table-link" href="{}">{}</a>', url, value)

    def _result(self, record) -> str:
        return result_text(record["won"], record["gap"])

    def render_result(self, record):
        css = "good" if record["won"] else "bad"
        return format_html('<span class="badge {}">{}</span>', css, self._result(record))

    def value_result(self, record):
        return self._result(record)

    def render_points(self, value):
        return format_points(value)

    def value_points(self, value):  # a number in the spreadsheet: 40.5
        value = Fraction(value)
        return int(value) if value.denominator == 1 else float(value)
