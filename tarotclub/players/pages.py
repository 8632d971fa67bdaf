"""What a player's page and the head-to-head page show, read with a constant number of queries
(`selectors`) and computed by `stats` (pure); the charts are SVG from `core.charts`."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarotclub.core.charts import bar_chart, line_chart
from tarotclub.games.presenters import figure
from tarotclub.kinds.tarot.labels import CONTRACT_LABELS, POIGNEE_LABELS

from . import selectors, stats
from .models import Player

ROLE_LABELS = {
    stats.TAKER: gettext_lazy("taker"),
    stats.PARTNER: gettext_lazy("partner"),
    stats.DEFENDER: gettext_lazy("defender"),
}


def percent(value: Fraction | None) -> str:
    return "" if value is None else f"{figure(value * 100)}\u00a0%"


def percent2(value: Fraction | None) -> str:
    """A duplicate percentage (already 0–100) to 2 decimals, as the rankings show it."""
    return "" if value is None else f"{figure(value, 2)}\u00a0%"


def average(value: Fraction | None) -> str:
    return "" if value is None else figure(value, 1)


def _deal_line(row: stats.DealRow | None, games: dict) -> dict | None:
    if row is None:
        return None
    return {
        "score": row.score,
        "day": row.day,
        "number": row.number,
        "contract": CONTRACT_LABELS.get(row.contract, row.contract),
        "role": ROLE_LABELS[row.role],
        "game": games.get(row.game),
    }


def tarot_section(rows: list[stats.DealRow], *, size: int | None, games: dict) -> dict:
    """The French Tarot statistics, as the template shows them, with their charts."""
    s = stats.tarot_stats(rows, size=size)
    roles = [
        {
            "label": ROLE_LABELS[role],
            "deals": s.roles[role].deals,
            "share": percent(s.share(role)),
            "average": average(s.roles[role].average),
            "won": percent(
                Fraction(s.roles[role].won, s.roles[role].deals) if s.roles[role].deals else None
            ),
        }
        for role in stats.ROLES
    ]
    contracts = [
        {
            "label": CONTRACT_LABELS.get(c.contract, c.contract),
            "taken": c.taken,
            "won": c.won,
            "rate": percent(c.rate),
        }
        for c in s.contracts.values()
    ]
    poignees = [
        {
            "label": POIGNEE_LABELS.get(kind, kind),
            "count": c.count,
            "success": c.success,
            "rate": percent(c.rate),
        }
        for kind, c in s.poignees.items()
    ]
    title = _("Cumulative score")
    cumulative = line_chart(
        [(_("Score"), s.cumulative)], title=title, x_label=_("Date"), y_label=_("Points")
    )
    contract_chart = bar_chart(
        [(c["label"], c["taken"], c["won"]) for c in contracts],
        title=_("Contracts taken and won"),
        x_label=_("Contract"),
        y_label=_("Taken"),
        part_label=_("Won"),
    )
    return {
        "stats": s,
        "roles": roles,
        "contracts": contracts,
        "poignees": poignees,
        "petit": {"count": s.petit_au_bout.count, "success": s.petit_au_bout.success},
        "petit_rate": percent(s.petit_au_bout.rate),
        "chelem_announced_rate": percent(s.chelem_announced.rate),
        "best": _deal_line(s.best, games),
        "worst": _deal_line(s.worst, games),
        "total_average": average(Fraction(s.total, s.deals) if s.deals else None),
        "cumulative_chart": cumulative,
        "contract_chart": contract_chart,
        "by_size": sorted(s.by_size.items()),
    }


def _tournament_summary(lines: list[selectors.TournamentLine]) -> dict:
    played = [t for t in lines if t.played]
    # a duplicate's (or quadrette's) boards are no rounds
    free = [t for t in played if t.overall is None and t.pm is None]
    rounds = sum(t.played for t in free)
    return {
        "count": len(played),
        "average_place": average(
            Fraction(sum(t.place for t in played), len(played)) if played else None
        ),
        "best_place": min((t.place for t in played), default=None),
        "average_round": average(Fraction(sum(t.total for t in free), rounds) if rounds else None),
        "wins": sum(1 for t in played if t.place == 1),
    }


def _row_of(rows: list[dict], pk: int) -> dict | None:
    return next((r for r in rows if r.get("pk") == pk), None)


def standings_cells(kind, rows: list[dict], pks) -> list[dict]:
    """The kind's standings columns (but the name) for these players' rows, rendered as its
    standings page renders them: [{"label", "cells": [one per pk, a dash without a row]}];
    nothing when none of them has a row."""
    table = kind.standings_table(rows)
    bound = {row.record.get("pk"): row for row in table.rows}
    if not any(pk in bound for pk in pks):
        return []
    return [
        {
            "label": column.header,
            "cells": [bound[pk].get_cell(column.name) if pk in bound else "—" for pk in pks],
        }
        for column in table.columns
        if column.name != "player"
    ]


def _day(game) -> object:
    from django.utils import timezone

    return timezone.localtime(game.created_at).date()


def kind_trend(kind, played: list, pk: int) -> list:
    """The kind's trend figure for the player, game by game, added up day by day: each
    game's own standings row (the same rows the standings page sums)."""
    points = []
    for p in played:
        row = _row_of(kind.standings_rows([p]), pk)
        if row is not None:
            points.append((_day(p.game), row.get(kind.trend_figure) or 0))
    return stats.cumulative(points)


def kind_section(kind, played: list, player: Player) -> dict:
    """One other kind on the player's page: its standings figures for the player (the row
    its standings page shows for them over the same games) and the trend chart."""
    row = _row_of(kind.standings_rows(played), player.pk)
    section = {
        "kind": kind,
        "games": len(played),
        "row": row,
        "figures": standings_cells(kind, [row], [player.pk]) if row else [],
        "chart": None,
        "note": kind.standings_note,
    }
    if row and kind.trend_figure:
        section["trend_note"] = kind.trend_note
        section["chart"] = line_chart(
            [(player.short_name, kind_trend(kind, played, player.pk))],
            title=str(kind.trend_title),
            x_label=_("Date"),
            y_label=str(kind.trend_title),
            whole=True,  # the trend figures are counts and stakes
        )
    return section


def player_page(player: Player, *, date_from=None, date_to=None, size=None) -> dict:
    """Everything on a player's page: a constant number of queries whatever their history."""
    games = selectors.player_games(player, date_from=date_from, date_to=date_to)
    tournaments = selectors.player_tournaments(player, date_from=date_from, date_to=date_to)
    rows = selectors.tarot_rows(player, date_from=date_from, date_to=date_to)
    by_pk = {line.game.pk: line.game for line in games}
    replayed = {k.identifier for k in selectors.replayed_kinds()}
    kinds = [
        {
            "figures": f,
            "rate": percent(f.rate),
            "months": [{"month": m, "games": g, "won": w} for m, (g, w) in f.months.items()],
        }
        for f in selectors.kind_figures(games)
        if f.kind.identifier not in replayed
    ]
    others = [
        kind_section(kind, played, player)
        for kind, played in selectors.kind_played([line.game for line in games])
    ]
    return {
        "games": games[:30],
        "games_count": len(games),
        "tournaments": [
            {"line": t, "average": average(t.average), "overall": percent2(t.overall)}
            for t in tournaments
        ],
        "tournament_summary": _tournament_summary(tournaments),
        "tarot": tarot_section(rows, size=size, games=by_pk),
        "size": size,
        "kinds": kinds,
        "other_kinds": others,
    }


def versus_page(player: Player, other: Player, *, date_from=None, date_to=None) -> dict:
    """Two players' results at the same table, in the games started within the dates (both
    optional, inclusive): two queries of compact rows, then the other kinds' shared games."""
    mine = selectors.tarot_rows(player, date_from=date_from, date_to=date_to)
    theirs = selectors.tarot_rows(other, date_from=date_from, date_to=date_to)
    result = stats.head_to_head(mine, theirs)
    shared = {r.deal for r in mine} & {r.deal for r in theirs}
    series = []
    for who, rows in ((player, mine), (other, theirs)):
        running, points = 0, []
        daily: dict = {}
        for r in rows:
            if r.deal in shared:
                daily[r.day] = daily.get(r.day, 0) + r.score
        for day in sorted(daily):
            running += daily[day]
            points.append((day, running))
        series.append((who.short_name, points))
    if not shared:
        series = []
    chart = line_chart(
        series,
        title=_("Cumulative score at the same table"),
        x_label=_("Date"),
        y_label=_("Points"),
    )
    others = []
    for kind, played in selectors.kind_played(
        selectors.shared_games(player, other, date_from=date_from, date_to=date_to)
    ):
        pks = [player.pk, other.pk]
        met = stats.meetings(
            (places for p in played for places in kind.table_results(p)), player.pk, other.pk
        )
        others.append(
            {
                "kind": kind,
                "games": len(played),
                "meetings": met,
                "results_note": kind.results_note,
                "figures": standings_cells(kind, kind.standings_rows(played), pks),
            }
        )
    labels = selectors.short_labels([player, other])
    return {
        "other_kinds": others,
        "labels": [labels[player.pk], labels[other.pk]],
        "result": result,
        "chart": chart,
        "together_rate": percent(
            Fraction(result.together_won, result.together) if result.together else None
        ),
    }
