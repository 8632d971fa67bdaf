"""The tables every kind shares: a game's history, standings figures, the list of games.

django-tables2 tables fed with computed rows (dicts), so a kind's figures need no model.
"""

from __future__ import annotations

import django_tables2 as tables
from django.utils import formats
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tarotclub.core.text import no_break_hyphens

from .presenters import html_cell


class CellColumn(tables.Column):
    """One player's cell in a history row: a main value and a small line under it."""

    def __init__(self, *, pk: int, title: str = "", **kwargs):
        self.pk = pk
        attrs = {"th": {"class": "num score", "title": title}, "td": {"class": "num score"}}
        super().__init__(
            accessor=tables.A("cells"), attrs=attrs, orderable=False, empty_values=(), **kwargs
        )

    def render(self, value, record):
        cell = record["cells"].get(self.pk)
        return html_cell(cell) if cell else "—"

    def value(self, value, record):
        cell = record["cells"].get(self.pk)
        return cell.main if cell else ""


class HistoryTable(tables.Table):
    """A replayed game's entries, one row each (`presenters.Row`), a column per player.

    On a phone (games.css) each entry becomes a card: what happened on top, a link over the
    whole card (it opens the entry), the players' cells under it in even columns."""

    number = tables.Column(
        verbose_name="#",
        orderable=False,
        attrs={"th": {"class": "deal-number"}, "td": {"class": "num deal-number"}},
    )
    summary = tables.Column(
        verbose_name=_("What happened"),
        orderable=False,
        attrs={"th": {"class": "deal"}, "td": {"class": "deal"}},
    )

    class Meta:
        attrs = {"class": "data variant-sheet"}
        empty_text = _("Nothing entered yet.")
        orderable = False

    def __init__(self, rows, *, players, link=None, dealer=True, words=None, **kwargs):
        from .forms import choice_cols

        extra = [
            (
                f"p{p.pk}",
                CellColumn(pk=p.pk, verbose_name=getattr(p, "compact", p.label), title=p.name),
            )
            for p in players
        ]
        data = [
            {"number": r.number, "dealer": r.dealer, "summary": r.summary, "cells": r.cells}
            for r in rows
        ]
        self.link = link
        self.show_dealer = dealer
        self.entry_word = words.entry if words is not None else _("Deal %(n)s")
        kwargs.setdefault(
            "attrs", {"class": f"data variant-sheet sheet-cards {choice_cols(len(players))}"}
        )
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_summary(self, value, record):
        said = format_html(
            '<span class="deal-no">{}</span> {}',
            self.entry_word % {"n": record["number"]},
            no_break_hyphens(value),
        )
        if self.show_dealer and record["dealer"]:
            said = format_html(
                '{}<br><small class="muted">{}</small>',
                said,
                no_break_hyphens(_("%(dealer)s dealt") % {"dealer": record["dealer"]}),
            )
        if self.link:
            # the whole row is this link's target (a stretched link, games.css)
            return format_html(
                '<a class="row-link" href="{}">{}</a>', self.link(record["number"]), said
            )
        return said


def _num(value, digits=0):
    if value is None:
        return "—"
    return number_format(value, decimal_pos=digits)


class NumberColumn(tables.Column):
    """A figure, right-aligned; None shows as a dash; rates as percentages."""

    def __init__(self, *args, digits: int = 0, percent: bool = False, **kwargs):
        self.digits = digits
        self.percent = percent
        attrs = {"th": {"class": "num"}, "td": {"class": "num"}}
        kwargs.setdefault("attrs", attrs)
        kwargs.setdefault("empty_values", ())
        super().__init__(*args, **kwargs)

    def render(self, value):
        if value is None:
            return "—"
        if self.percent:
            return f"{_num(value * 100, 0)} %"
        return _num(value, self.digits)


class GameStandingsTable(tables.Table):
    """A kind's standings over many games: a row per player (a dict with "player"); the
    kind's table adds its figures as `NumberColumn`s."""

    player = tables.Column(verbose_name=_("Player"))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"class": "data standings"})
        kwargs.setdefault("empty_text", _("No game in this period."))
        kwargs.setdefault("order_by", "player")
        super().__init__(*args, **kwargs)


class GameListTable(tables.Table):
    date = tables.DateTimeColumn(
        verbose_name=_("Date"), accessor="created_at", format="SHORT_DATE_FORMAT", orderable=False
    )
    kind = tables.Column(verbose_name=_("Game"), accessor="kind_label", orderable=False)
    players = tables.Column(verbose_name=_("Players and totals"), orderable=False, empty_values=())

    class Meta:
        attrs = {"class": "data"}
        empty_text = _("No games yet.")
        orderable = False

    def render_date(self, value, record):
        return format_html(
            '<a href="{}">{}</a>', record["url"], formats.date_format(value, "SHORT_DATE_FORMAT")
        )

    def render_players(self, record):
        return record["players"]
