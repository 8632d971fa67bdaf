"""What the CSV and Excel downloads hold: rows a spreadsheet can compute with.

One value per cell: a name, a label, or a number (int, or float for half points). A player's
score is a number in a column of its own (per seat in a tournament's deals, per player in a
game's deals), never "Anne +75"; the taker, contract, bouts, points, result, margin and each
bonus have their own columns; a round not played is an empty cell (None), not a dash.
"""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _

from tarotclub.games import selectors as game_selectors
from tarotclub.kinds.tarot.presenters import deal_labels
from tarotclub.reports.documents import deal_fields
from tarotclub.tournaments import selectors as tournament_selectors
from tarotclub.tournaments.models import SEAT_NAMES


def number(value):
    """A Fraction of card points as a spreadsheet number: 40 or 40.5."""
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def _result(won: bool) -> str:
    return _("won") if won else _("lost")


def _deal_headers() -> list[str]:
    return [
        _("Dealer"),
        _("Taker"),
        _("Partner"),
        _("Contract"),
        _("Bouts"),
        _("Points"),
        _("Result"),
        _("Margin"),
        _("Petit au bout"),
        _("Poignée"),
        _("Slam"),
    ]


def _deal_cells(row: dict) -> list:
    return [
        row["dealer"],
        row["taker"],
        row["partner"],
        row["contract"],
        row["bouts"],
        number(row["points"]),
        _result(row["won"]),
        row["gap"],
        row["petit_au_bout"],
        row["poignees"],
        row["chelem"],
    ]


def tournament_deals(rows: list[dict]) -> tuple[list[str], list[list]]:
    """`documents.tournament_deals` rows: round, table, #, the deal, then per seat its
    player's name and their score (a number)."""
    seats = max(4, max((len(r["seats"]) for r in rows), default=4))
    headers = [_("Round"), _("Table"), "#", *_deal_headers()]
    for position in range(seats):
        seat = str(SEAT_NAMES[position])
        headers += [seat, _("%(seat)s score") % {"seat": seat}]
    out = []
    for r in rows:
        cells = [r["round"], r["table"], r["number"], *_deal_cells(r)]
        for position in range(seats):
            if position < len(r["seats"]):
                name, score = r["seats"][position]
                cells += [name, score]
            else:
                cells += [None, None]
        out.append(cells)
    return headers, out


def game_deals(game) -> tuple[list[str], list[list]]:
    """A game's deals: #, the deal, then one column per player (their full name) with the
    score of each deal."""
    players = game_selectors.seat_players(game)
    names = {p.pk: p.name for p in players}
    headers = ["#", *_deal_headers(), *[p.name for p in players]]
    out = []
    deals = game.deals.order_by("number").prefetch_related("lines")
    for deal in deals:
        row = deal_fields(deal, deal_labels(deal, names))
        scores = {line.player_id: line.score for line in deal.lines.all()}
        out.append([deal.number, *_deal_cells(row), *[scores.get(p.pk, 0) for p in players]])
    return headers, out


def standings(t) -> tuple[list[str], list[list]]:
    """Rank (a number: tied players share it), player, licence, (team), each round, total
    (and the average when the tournament ranks by it).

    A free-deal teams event (duplicate.md 2.1) has a Team column, and after the players, an
    empty row, the team ranking's heading and one row per team: rank, team, its players, and
    in the players' round and total columns the sums of its members' figures.
    """
    result = tournament_selectors.standings(t)
    by_average = t.ranking == "average"
    teams = bool(result.teams)
    rounds = [_("R%(n)s") % {"n": r} for r in result.round_numbers]
    headers = [_("Rank"), _("Player"), _("Licence")]
    if teams:
        headers.append(_("Team"))
    headers += rounds
    headers.append(_("Total"))
    if by_average:
        headers.append(_("Average"))
    out = []
    for row in result.rows:
        cells = [row.rank, row.player.name, row.licence]
        if teams:
            cells.append(row.team)
        cells += [row.rounds.get(r) for r in result.round_numbers]
        cells.append(row.total)
        if by_average:
            cells.append(None if row.average is None else round(float(row.average), 1))
        out.append(cells)
    if teams:
        tail = [None] if by_average else []
        out.append([None] * len(headers))
        out.append([_("Rank"), _("Team"), _("Players"), None, *rounds, _("Total"), *tail])
        for team in result.teams:
            sums = []
            for r in result.round_numbers:
                played = [m.rounds.get(r) for m in team.members if m.rounds.get(r) is not None]
                sums.append(sum(played) if played else None)
            members = ", ".join(m.player.name for m in team.members)
            out.append([team.rank, team.name, members, None, *sums, team.total, *tail])
    return headers, out


# --- duplicate tournaments ----------------------------------------------------------------------


def _percent(value) -> float | None:
    """A percentage as a spreadsheet number, to 2 decimals (None: no graded board)."""
    return None if value is None else round(float(value), 2)


def _grade(value) -> float:
    """A grade as a spreadsheet number, to 1 decimal."""
    return round(float(value), 1)


def _orientation(o: str) -> str:
    from tarotclub.tournaments.models import Orientation

    return str(Orientation(o).label)


def duplicate_rankings(g) -> tuple[list, list[list]]:
    """A graded duplicate tournament (`tournaments.duplicate.graded`): one row a player in
    the alternating ranking's order, with the general ranking's place beside it."""
    from tarotclub.tournaments import duplicate

    headers = [
        _("Alternating ranking"),
        _("General ranking"),
        _("Player"),
        _("Seat"),
        _("Attack %"),
        _("Defence %"),
        _("Overall %"),
    ]
    general = {r["player"]: r["place"] for r in duplicate.ranking_rows(g, "general")}
    rows = [
        [
            r["place"],
            general[r["player"]],
            r["full_name"],
            r["seat"],
            _percent(r["attack"]),
            _percent(r["defence"]),
            _percent(r["overall"]),
        ]
        for r in duplicate.ranking_rows(g, "alternating")
    ]
    return headers, rows


def duplicate_grading(g) -> tuple[list, list[list]]:
    """Every board's grading sheet (duplicate.md 1.10), one row a play."""
    from tarotclub.tournaments import duplicate

    headers = [
        _("Board"),
        _("Taker's orientation"),
        _("Round"),
        _("Table"),
        _("Taker"),
        _("Taker won"),
        _("Taker lost"),
        _("Attack grade"),
        _("Defence grade"),
    ]
    rows = [
        [
            b,
            _orientation(duplicate.taker_of(b)),
            r["round"],
            r["table"],
            r["taker"],
            r["won"],
            r["lost"],
            _grade(r["attack"]),
            _grade(r["defence"]),
        ]
        for b in g.boards
        for r in duplicate.grading_rows(g, b)
    ]
    return headers, rows
