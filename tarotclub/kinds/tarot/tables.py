"""The French Tarot score sheet as a django-tables2 table fed with the sheet's rows."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tarotclub.games.presenters import signed


class ScoreColumn(tables.Column):
    """One player's score for each deal, with the running total under it; the total in the foot."""

    def __init__(self, *, pk: int, total: int, leader: bool, **kwargs):
        self.pk = pk
        cls = "num leader" if leader else "num"
        attrs = {"th": {"class": cls}, "td": {"class": cls}, "tf": {"class": cls}}
        super().__init__(
            accessor=tables.A(f"scores__{pk}"),
            attrs=attrs,
            footer=str(total),
            orderable=False,
            default=0,
            **kwargs,
        )

    def render(self, value, record):
        running = record["running"].get(self.pk, 0)
        css = "pos" if value > 0 else "neg" if value < 0 else ""
        return format_html(
            '<span class="{}">{}</span><br><small class="muted">{}</small>',
            css,
            signed(value),
            running,
        )

    def value(self, value, record):  # export: the plain number
        return value


class SheetTable(tables.Table):
    number = tables.Column(
        verbose_name="#", orderable=False, attrs={"td": {"class": "num"}}, footer=_("Total")
    )
    dealer = tables.Column(verbose_name=_("Dealer"), orderable=False)
    deal = tables.Column(verbose_name=_("Deal"), orderable=False, empty_values=())

    class Meta:
        attrs = {"class": "data sheet"}
        empty_text = _("No deal yet. Tap “New deal” to enter the first one.")
        orderable = False
        template_name = "django_tables2/table.html"

    def __init__(self, sheet, *args, link=None, **kwargs):
        extra = [
            (
                f"p{p.pk}",
                ScoreColumn(
                    pk=p.pk,
                    total=sheet.totals.get(p.pk, 0),
                    leader=p.pk in sheet.leaders,
                    verbose_name=p.label,
                ),
            )
            for p in sheet.players
        ]
        rows = [
            {
                "number": r.number,
                "dealer": r.dealer,
                "taker": r.taker,
                "contract": r.contract,
                "result": r.result,
                "won": r.won,
                "bonuses": r.bonuses,
                "scores": r.scores,
                "running": r.running,
            }
            for r in sheet.rows
        ]
        self.link = link
        super().__init__(rows, *args, extra_columns=extra, **kwargs)

    def render_number(self, value, record):
        if self.link:
            return format_html('<a href="{}">{}</a>', self.link(value), value)
        return value

    def render_deal(self, record):
        badge = "good" if record["won"] else "bad"
        bonuses = (
            format_html('<br><small class="muted">{}</small>', record["bonuses"])
            if record["bonuses"]
            else ""
        )
        return format_html(
            '<strong>{}</strong> {}<br><span class="badge {}">{}</span>{}',
            record["taker"],
            record["contract"],
            badge,
            record["result"],
            bonuses,
        )

    def value_deal(self, record):
        return f"{record['taker']} {record['contract']} {record['result']} {record['bonuses']}"
