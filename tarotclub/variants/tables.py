"""The history of a game and the standings, as django-tables2 tables fed with computed rows."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from . import rules
from .presenters import html_cell, signed


class CellColumn(tables.Column):
    """One player's cell in a history row: a main value and a small line under it."""

    def __init__(self, *, pk: int, **kwargs):
        self.pk = pk
        attrs = {"th": {"class": "num"}, "td": {"class": "num"}}
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
    number = tables.Column(verbose_name="#", orderable=False, attrs={"td": {"class": "num"}})
    summary = tables.Column(verbose_name=_("What happened"), orderable=False)

    class Meta:
        attrs = {"class": "data variant-sheet"}
        empty_text = _("Nothing entered yet.")
        orderable = False

    def __init__(self, rows, *, players, link=None, dealer=True, **kwargs):
        extra = [(f"p{p.pk}", CellColumn(pk=p.pk, verbose_name=p.label)) for p in players]
        data = [
            {"number": r.number, "dealer": r.dealer, "summary": r.summary, "cells": r.cells}
            for r in rows
        ]
        self.link = link
        self.show_dealer = dealer
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_number(self, value, record):
        if self.link:
            return format_html('<a href="{}">{}</a>', self.link(value), value)
        return value

    def render_summary(self, value, record):
        if self.show_dealer and record["dealer"]:
            return format_html(
                '{}<br><small class="muted">{}</small>',
                value,
                _("%(dealer)s dealt") % {"dealer": record["dealer"]},
            )
        return value


# --- standings ---------------------------------------------------------------------------------


def _num(value, digits=0):
    if value is None:
        return "—"
    return number_format(value, decimal_pos=digits)


class NumberColumn(tables.Column):
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


class StandingsTable(tables.Table):
    player = tables.Column(verbose_name=_("Player"))

    class Meta:
        attrs = {"class": "data standings"}
        empty_text = _("No game in this period.")
        order_by = "player"


class FoolsFaithStandings(StandingsTable):
    class Meta(StandingsTable.Meta):
        pass

    played = NumberColumn(verbose_name=_("Games"))
    won = NumberColumn(verbose_name=_("Won"))
    win_rate = NumberColumn(verbose_name=_("Win rate"), percent=True)
    rounds_won = NumberColumn(verbose_name=_("Rounds won"))
    tricks = NumberColumn(verbose_name=_("Tricks"))
    cards = NumberColumn(verbose_name=_("Challenge cards"))
    received = NumberColumn(verbose_name=_("Challenges received"))

    def render_received(self, value, record):
        if not record["challenges"]:
            return value
        items = format_html_join("", "<li>{}</li>", ((c,) for c in record["challenges"]))
        return format_html(
            '<details><summary>{}</summary><ul class="challenge-list">{}</ul></details>',
            value,
            items,
        )


class DeathsPotStandings(StandingsTable):
    class Meta(StandingsTable.Meta):
        pass

    games = NumberColumn(verbose_name=_("Games"))
    deals = NumberColumn(verbose_name=_("Deals"))
    pots = NumberColumn(verbose_name=_("Pots taken"))
    net = NumberColumn(verbose_name=_("Net balance"))
    average = NumberColumn(verbose_name=_("Per game"), digits=1)

    def render_net(self, value):
        return signed(value)


class KeysStandings(StandingsTable):
    class Meta(StandingsTable.Meta):
        pass

    played = NumberColumn(verbose_name=_("Games"))
    won = NumberColumn(verbose_name=_("Won"))
    win_rate = NumberColumn(verbose_name=_("Win rate"), percent=True)
    average_keys = NumberColumn(verbose_name=_("Keys when losing"), digits=1)


class CuckooStandings(StandingsTable):
    class Meta(StandingsTable.Meta):
        pass

    played = NumberColumn(verbose_name=_("Matches"))
    won = NumberColumn(verbose_name=_("Won"))
    win_rate = NumberColumn(verbose_name=_("Win rate"), percent=True)
    draws = NumberColumn(verbose_name=_("Draws"))
    average_place = NumberColumn(verbose_name=_("Average place"), digits=1)
    first_out = NumberColumn(verbose_name=_("Out first"))


STANDINGS_TABLES = {
    rules.FOOLS_FAITH: FoolsFaithStandings,
    rules.DEATHS_POT: DeathsPotStandings,
    rules.KEYS: KeysStandings,
    rules.CUCKOO: CuckooStandings,
}
