"""The standings as a django-tables2 table: one column per round, the total (and average)."""

from __future__ import annotations

import django_tables2 as tables
from django.conf import settings
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tarotclub.core.text import escaped
from tarotclub.games.presenters import number
from tarotclub.games.tables import ScoreColumn
from tarotclub.players.links import player_name, player_urls


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

    def __init__(
        self, standings, *args, show_average: bool = False, link_players: bool = False, **kwargs
    ):
        self.link_players = link_players  # names link to the players' pages (for members)
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
                "pk": row.player.pk,
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
        name = player_name(record["pk"], value, link=self.link_players)
        if record["withdrawn"]:
            return format_html('{} <small class="muted">({})</small>', name, _("withdrawn"))
        return name

    def value_name(self, value, record):
        return value

    def value_average(self, value, record):  # a number in the spreadsheet: -12.5
        average = record["average_value"]
        return "" if average is None else round(float(average), 1)


# --- the standings' HTML without django-tables2's cost a cell ----------------------------------
#
# django-tables2 spends ~40 µs a cell (a signature inspection, a bound column, a template
# variable each): 82 of the 96 ms of a 200-player page. The page renders the same markup as
# `render_table(StandingsTable(...))` (django_tables2/table.html) from precomputed cells:
# tests/tournaments/test_standings_html.py proves the two equal, for both rankings, a
# withdrawn player, ties, empty cells and an empty tournament. The export keeps the
# django-tables2 table (its `value_*` methods).

_DEFAULT = "—"  # django-tables2's default for an empty cell (None or "")


def _cell(value) -> str:
    """A cell as the table template prints it: localized, escaped unless already safe."""
    if value is None or value == "":
        return _DEFAULT
    if isinstance(value, SafeData):
        return str(value)
    return _text(value)


def standings_html(standings, *, show_average: bool = False, link_players: bool = False) -> str:
    """The standings table, exactly as `StandingsTable` renders it on the page (the names as
    links to the players' pages when `link_players`: for a member)."""
    rounds = standings.round_numbers
    labels = [conditional_escape(_("R%(n)s") % {"n": r}) for r in rounds]
    head = [
        f"<th >{conditional_escape(_('Rank'))}</th>",
        f"<th >{conditional_escape(_('Player'))}</th>",
        f'<th class="licence">{conditional_escape(_("Licence"))}</th>',
        *(f'<th class="num">{label}</th>' for label in labels),
        f'<th class="num">{conditional_escape(_("Total"))}</th>',
    ]
    if show_average:
        head.append(f'<th class="num">{conditional_escape(_("Average"))}</th>')
    withdrawn = conditional_escape(_("withdrawn"))
    url = player_urls()
    round_tds = [f'<td class="num round" data-label="{label}">' for label in labels]
    body = []
    for i, row in enumerate(standings.rows):
        name = player_name(row.player.pk, row.player.name, link=link_players, url=url)
        if row.withdrawn:
            name = f'{name} <small class="muted">({withdrawn})</small>'
        cells = [
            '<tr class="odd">' if i % 2 else '<tr class="even">',
            '<td class="num rank">',
            _cell(f"{row.rank}=" if row.tied else row.rank),
            '</td><td class="name">',
            name,
            '</td><td class="licence">',
            _cell(row.licence),
            "</td>",
        ]
        for r, td in zip(rounds, round_tds, strict=True):
            value = row.rounds.get(r)
            cells += [td, "–" if value is None else number(value), "</td>"]
        cells += ['<td class="num total">', number(row.total), "</td>"]
        if show_average:
            cells += ['<td class="num">', _cell(row.average_display), "</td>"]
        cells.append("</tr>")
        body.append("".join(cells))
    if not body:
        empty = conditional_escape(_("Nobody is registered yet."))
        body.append(f'<tr><td colspan="{len(head)}">{empty}</td></tr>')
    return mark_safe(
        '<div class="table-container"><table class="data standings"><thead ><tr>'
        + "".join(head)
        + "</tr></thead><tbody >"
        + "".join(body)
        + "</tbody></table></div>"
    )


# --- the director's page: its long lists, a few thousand items at a federation final ----------
#
# Rendered in Python for the same reason as the standings (the template engine's cost an
# item: 2,000 entries and 500 tables took ~400 ms); the markup is the one the templates made,
# proven equal in tests/tournaments/test_manage_html.py.

_SENTINEL = 987654321  # stands for a pk in a URL reversed once


def _url_maker(name: str, *args):
    """`make(pk)`: the URL `name` with `args` and `pk` last, reversed once for every pk."""
    head, tail = reverse(name, args=[*args, _SENTINEL]).rsplit(str(_SENTINEL), 1)
    return lambda pk: f"{head}{pk}{tail}"


def _text(value) -> str:
    """A value as `{{ value }}` prints it. A whole number (a table, a round, a rank) is its
    digits unless thousands are grouped (Django's `localize` then asks for no separator)."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return escaped(localize(value))


def _name(player, url) -> str:
    """`{% player p p.name %}` for a member (the director is one): the name as a link."""
    return player_name(player.pk, player.name, link=True, url=url)


def entries_html(t, entries) -> str:
    """The director's list of registered players: one `<li>` an entry."""
    withdraw = _url_maker("tournaments:withdraw", t.pk)
    replace = _url_maker("tournaments:substitute", t.pk)
    status, duplicate = t.status, t.duplicate  # (read once: `duplicate` is a property)
    replaces = duplicate and status == "running"
    replace_label = conditional_escape(gettext("Replace"))  # a duplicate player's substitute
    entries = list(entries)
    seat_of = {e.pk: f"{e.orientation}{e.start_table}" for e in entries if e.orientation}
    replaced = {e.replaces_id for e in entries if e.replaces_id}
    url = player_urls()
    # gettext on the literal itself, outside any f-string: the only call makemessages finds
    guest = ' <small class="badge">{}</small>'.format(escaped(gettext("guest")))
    action = escaped(gettext("remove") if status == "registration" else gettext("withdraw"))
    withdrawable = status == "registration" or (status != "finished" and not duplicate)
    out = []
    for e in entries:
        player = e.player
        parts = ["<li>", _name(player, url)]
        if player.guest:
            parts.append(guest)
        if e.licence:
            parts.append(f' <small class="muted">{_text(e.licence)}</small>')
        if e.orientation:  # a duplicate seat: orientation and starting table, "E3"
            parts.append(
                f' <span class="badge">{_text(e.orientation)}{_text(e.start_table)}</span>'
            )
        if e.replaces_id and e.replaces_id in seat_of:  # a duplicate substitute
            label = gettext("substitute in %(seat)s") % {"seat": _text(seat_of[e.replaces_id])}
            parts.append(f' <span class="badge">{label}</span>')
        if e.first_round > 1:
            label = gettext("from round %(n)s") % {"n": _text(e.first_round)}
            parts.append(f' <span class="badge">{label}</span>')
        if e.last_round is not None:
            label = gettext("withdrew after round %(n)s") % {"n": _text(e.last_round)}
            parts.append(f' <span class="badge bad">{label}</span>')
        elif withdrawable:
            parts.append(f' <a class="button small" href="{withdraw(e.pk)}">{action}</a>')
        if replaces and e.orientation and not e.replaces_id and e.pk not in replaced:
            parts.append(f' <a class="button small" href="{replace(e.pk)}">{replace_label}</a>')
        parts.append("</li>")
        out.append("".join(parts))
    return mark_safe("\n".join(out))


def _deals_label(labels: dict[int, str], planned: int) -> str:
    label = labels.get(planned)
    if label is None:
        label = labels[planned] = ngettext(
            "%(done)s of %(planned)s deal", "%(done)s of %(planned)s deals", planned
        )
    return label


def round_tables_html(t, tables, *, csrf_input: str) -> str:
    """The tables of the director's round section: one `<li>` a table (`selectors.round_tables`).
    `csrf_input` is the form's hidden token field (the cached section holds a placeholder)."""
    sheet = reverse("games:sheet", args=["T"])[:-2]  # "/t/" + token + "/"
    unlock = _url_maker("tournaments:unlock", t.pk)
    url = player_urls()
    # gettext on the literal itself, outside any f-string: the only call makemessages finds
    confirmed = '<span class="badge good">{}</span>'.format(escaped(gettext("confirmed")))
    not_started = '<span class="badge bad">{}</span>'.format(escaped(gettext("not started")))
    guest = ' <small class="badge">{}</small>'.format(escaped(gettext("guest")))
    unlock_button = '<button type="submit" class="button">{}</button>'.format(
        escaped(gettext("Unlock"))
    )
    open_label = escaped(gettext("Open"))
    table_label = gettext("Table %(n)s")
    # the plural follows the deals planned, as on the sheet ("1 of 4 deals"); a table's planned
    # count is one of two (four players, or five), so each label is looked up once a page
    deals_labels: dict[int, str] = {}
    running = t.status == "running"
    # a seat's name is a lazy translation: translated and escaped once a page, not once a seat
    seat_labels: dict[int, str] = {}
    out = []
    for x in tables:
        table, state = x["table"], x["state"]
        href = f"{sheet}{escaped(x['game'].token)}/"
        number = table_label % {"n": _text(table.number)}
        if state == "confirmed":
            badge = confirmed
        elif state == "in_progress":
            badge = '<span class="badge">{}</span>'.format(
                _deals_label(deals_labels, x["planned"])
                % {"done": _text(x["done"]), "planned": _text(x["planned"])}
            )
        else:
            badge = not_started
        for seat, _p in x["seats"]:
            if id(seat) not in seat_labels:  # (the names live as long as `tables`)
                seat_labels[id(seat)] = _text(seat)
        seats = "".join(
            f'<li><small class="muted">{seat_labels[id(seat)]}</small> {_name(p, url)}'
            f"{guest if p.guest else ''}</li>"
            for seat, p in x["seats"]
        )
        if state == "confirmed" and running:
            act = (
                f'<form method="post" action="{unlock(table.pk)}">{csrf_input}'
                f"{unlock_button}</form>"
            )
        else:
            act = f'<a class="button" href="{href}">{open_label}</a>'
        out.append(
            f'<li class="round-table state-{state}">\n'
            f'<a class="table-number" href="{href}">{number}</a>\n'
            f'<span class="table-state">{badge}</span>\n'
            f'<ul class="table-seats">{seats}</ul>\n'
            f'<div class="table-actions">{act}</div>\n</li>'
        )
    return mark_safe("\n".join(out))
