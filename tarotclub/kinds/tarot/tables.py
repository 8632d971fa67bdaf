"""The French Tarot score sheet as a django-tables2 table fed with the sheet's rows."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tarotclub.core.text import no_break_hyphens
from tarotclub.games.forms import choice_cols
from tarotclub.games.presenters import number, signed


class ScoreColumn(tables.Column):
    """One player's score for each deal, with the running total under it; the total in the foot."""

    def __init__(self, *, pk: int, total: int, leader: bool, title: str = "", **kwargs):
        self.pk = pk
        cls = "num score leader" if leader else "num score"
        attrs = {"th": {"class": cls, "title": title}, "td": {"class": cls}, "tf": {"class": cls}}
        super().__init__(
            accessor=tables.A(f"scores__{pk}"),
            attrs=attrs,
            footer=number(total),
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
            number(running),
        )

    def value(self, value, record):  # export: the plain number
        return value


class SheetTable(tables.Table):
    """The deals, a column per player. On a phone (games.css) each deal becomes a card: the
    deal in words on top, a link over the whole card (it opens the deal), the scores under it
    in as many even columns as `choice_cols` gives (all five players on one line)."""

    number = tables.Column(
        verbose_name="#",
        orderable=False,
        attrs={
            "th": {"class": "deal-number"},
            "td": {"class": "num deal-number"},
            "tf": {"class": "total-label"},
        },
        footer=_("Total"),
    )
    dealer = tables.Column(verbose_name=_("Dealer"), orderable=False)
    deal = tables.Column(
        verbose_name=_("Deal"),
        orderable=False,
        empty_values=(),
        attrs={"th": {"class": "deal"}, "td": {"class": "deal"}, "tf": {"class": "deal"}},
    )

    #: each deal's row is `<tr id="deal-N">`, so a poll replaces or takes away that row alone
    row_prefix = "deal-"

    class Meta:
        attrs = {"class": "data sheet"}
        row_attrs = {"id": lambda record: f"deal-{record['number']}"}
        empty_text = _("No deal yet. Tap “New deal” to enter the first one.")
        orderable = False
        template_name = "django_tables2/table.html"

    def __init__(self, sheet, *args, link=None, compact=False, **kwargs):
        extra = [
            (
                f"p{p.pk}",
                ScoreColumn(
                    pk=p.pk,
                    total=sheet.totals.get(p.pk, 0),
                    leader=p.pk in sheet.leaders,
                    # on screen the compact name (the full one as the title); exports: the label
                    verbose_name=getattr(p, "compact", p.label) if compact else p.label,
                    title=p.name,
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
        kwargs.setdefault(
            "attrs",
            {
                "class": f"data sheet sheet-cards {choice_cols(len(sheet.players))}",
                # a poll swaps the head (who leads), the foot (the totals) and rows by id
                "thead": {"id": "sheet-head"},
                "tbody": {"id": "sheet-rows"},
                "tfoot": {"id": "sheet-foot"},
            },
        )
        super().__init__(rows, *args, extra_columns=extra, **kwargs)

    def render_deal(self, record):
        badge = "good" if record["won"] else "bad"
        bonuses = (
            format_html('<br><small class="muted">{}</small>', no_break_hyphens(record["bonuses"]))
            if record["bonuses"]
            else ""
        )
        said = format_html(
            '<span class="deal-no">{}</span> <strong>{}</strong> {}<br>'
            '<span class="badge {}">{}</span>{}',
            _("Deal %(n)s") % {"n": record["number"]},
            no_break_hyphens(record["taker"]),
            record["contract"],
            badge,
            record["result"],
            bonuses,
        )
        if self.link:
            # the whole row is this link's target (a stretched link, games.css)
            return format_html(
                '<a class="row-link" href="{}">{}</a>', self.link(record["number"]), said
            )
        return said

    def value_deal(self, record):
        return f"{record['taker']} {record['contract']} {record['result']} {record['bonuses']}"
