"""The tables every kind shares: a game's history, standings figures, the list of games.

django-tables2 tables fed with computed rows (dicts), so a kind's figures need no model.
"""

from __future__ import annotations

import django_tables2 as tables
from django.utils import formats, timezone
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tarotclub.core.text import no_break_hyphens

from .presenters import figure, html_cell, number


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
    return figure(value, digits)


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
            return gettext("%(rate)s%%") % {"rate": _num(value * 100, 0)}
        return _num(value, self.digits)


class ScoreColumn(tables.Column):
    """A score (an int, or None for a dash): a real minus sign on the page, a plain number in
    an export, so a spreadsheet can compute with it."""

    def render(self, value):
        return number(value) if isinstance(value, int) else value

    def value(self, value):
        return value


class GameStandingsTable(tables.Table):
    """A kind's standings over many games: a row per player (a dict with "player"); the
    kind's table adds its figures as `NumberColumn`s."""

    player = tables.Column(verbose_name=_("Player"))

    def __init__(self, *args, link_players: bool = False, **kwargs):
        kwargs.setdefault("attrs", {"class": "data standings"})
        kwargs.setdefault("empty_text", _("No game in this period."))
        kwargs.setdefault("order_by", "player")
        super().__init__(*args, **kwargs)
        self.link_players = link_players  # names link to the players' pages (for members)

    def render_player(self, value, record):
        from tarotclub.players.links import player_name

        return player_name(record.get("pk"), value, link=self.link_players)

    def value_player(self, value, record):
        return value


class GameListTable(tables.Table):
    """Casual games, a page at a time: the game (name, kind, date), its players (with totals
    where the kind keeps them), and who won or leads. Fed with a queryset of games that come
    with their seats and records; `summarise()` reads the page's results in a few queries."""

    game = tables.Column(verbose_name=_("Game"), accessor="pk", orderable=False)
    players = tables.Column(verbose_name=_("Players"), accessor="pk", orderable=False)
    result = tables.Column(verbose_name=_("Result"), accessor="pk", orderable=False)

    class Meta:
        attrs = {"class": "data game-list"}
        empty_text = _("No game here.")
        orderable = False

    def __init__(self, *args, link_players: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.results: dict = {}
        self.players_of: dict = {}
        self.link_players = link_players  # names link to the players' pages (for members)

    def _name(self, player):
        from tarotclub.players.links import player_name

        return player_name(player.pk, player.label, link=self.link_players)

    def summarise(self) -> None:
        """Each game of the current page: its players (labelled) and its `ListResult`."""
        from . import kinds, selectors

        rows = self.page.object_list if hasattr(self, "page") else self.rows
        games = [row.record for row in rows]
        self.players_of = {g.pk: selectors.seat_players(g) for g in games}
        for kind in kinds.all_kinds():
            mine = [g for g in games if g.kind == kind.identifier]
            if mine:
                self.results.update(kind.list_results(mine))

    def render_game(self, record):
        from django.urls import reverse

        from . import kinds

        kind = kinds.get(record.kind)
        kind_name = kind.verbose_name if kind else record.kind
        date = formats.date_format(timezone.localtime(record.created_at), "SHORT_DATE_FORMAT")
        title = record.name or kind_name
        meta = f"{kind_name} · {date}" if record.name else date
        return format_html(
            '<a class="game-link" href="{}">{}</a><small class="muted">{}</small>',
            reverse("games:sheet", args=[record.token]),
            title,
            meta,
        )

    def render_players(self, record):
        players = self.players_of.get(record.pk, [])
        result = self.results.get(record.pk)
        totals = result.totals if result is not None else None
        if totals is None:
            return format_html_join(", ", "{}", ((self._name(p),) for p in players))
        return format_html_join(
            ", ",
            '<span class="nowrap">{} <span class="{}">{}</span></span>',
            (
                (self._name(p), _css(totals.get(p.pk, 0)), number(totals.get(p.pk, 0)))
                for p in players
            ),
        )

    def render_result(self, record):
        result = self.results.get(record.pk)
        names = {p.pk: self._name(p) for p in self.players_of.get(record.pk, [])}
        if result is not None and result.draw:
            text = gettext("Draw")
        elif result is not None and result.leaders:
            who = format_html_join(", ", "{}", ((names.get(pk, "?"),) for pk in result.leaders))
            line = gettext("Winner: %(names)s") if result.over else gettext("Leading: %(names)s")
            # the sentence escaped, the names (links for a member) put in as they are
            text = mark_safe(conditional_escape(line).replace("%(names)s", who))
        else:
            text = ""
        if record.archived:
            status, css = gettext("Archived"), "bad"
        elif record.finished:
            status, css = gettext("Finished"), ""
        else:
            status, css = gettext("In progress"), "good"
        return format_html('{}<span class="badge {}">{}</span>', _line(text), css, status)


def _css(value: int) -> str:
    return "pos" if value > 0 else "neg" if value < 0 else ""


def _line(text: str):
    return format_html("<strong>{}</strong><br>", text) if text else ""
