"""Reads of a season: its evenings and its standings, in a fixed number of queries.

A French Tarot season: five queries whatever its size (its tournaments, their entries, their
tables' totals, their seats, and, when casual games count, the casual games' totals). A season
of another kind counts that kind's casual games, one evening per date: the games with their
seats and records (and what the kind prefetches for its standings), replayed once each. The
ranking itself is `scoring.season`.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from scoring import season as rules
from tarotclub.core.text import text_key
from tarotclub.games.models import Seat
from tarotclub.games.selectors import games_in_range
from tarotclub.kinds.tarot.models import DealLine
from tarotclub.tournaments.models import Entry, Ranking, Tournament

from .models import TAROT, Formula, Season


@dataclass(frozen=True)
class Evening:
    """One column of the standings: a tournament, or a date of casual games."""

    key: tuple
    date: dt.date
    tournament: Tournament | None = None

    @property
    def url(self) -> str:
        if self.tournament is None:
            return ""
        return reverse("tournaments:standings", args=[self.tournament.pk])


@dataclass
class SeasonStandings:
    season: Season
    evenings: list[Evening]
    lines: list[rules.Line]
    formula: rules.Formula
    players: int = 0
    unranked: list[rules.Line] = field(default_factory=list)

    @property
    def ranked(self) -> list[rules.Line]:
        return [line for line in self.lines if line.ranked]

    @property
    def ties(self) -> bool:
        return any(line.tied for line in self.lines)

    @property
    def by_points(self) -> bool:
        return self.season.formula == Formula.PLACES


def _bounds(season: Season) -> tuple[dt.datetime, dt.datetime]:
    """The season's dates as aware datetimes, from its first day's midnight to after its last."""
    zone = timezone.get_current_timezone()
    start = dt.datetime.combine(season.start, dt.time.min, tzinfo=zone)
    end = dt.datetime.combine(season.end + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    return start, end


def tournament_evenings(season: Season) -> tuple[list[Evening], dict, dict]:
    """The season's tournaments as evenings, and each one's results ({key: {player: Result}})
    ranked as the tournament's own standings rank them, and the players' names. Four queries."""
    tournaments = list(season.tournaments.order_by("date", "pk"))
    ids = [t.pk for t in tournaments]
    names: dict[int, str] = {}
    entrants: dict[int, dict[int, rules.Entrant]] = defaultdict(dict)
    for t_id, p_id, name in (
        Entry.objects.filter(tournament_id__in=ids)
        .order_by("pk")
        .values_list("tournament_id", "player_id", "player__name")
    ):
        names[p_id] = name
        entrants[t_id][p_id] = rules.Entrant(p_id, name)
    totals = {
        (game, player): total
        for game, player, total in DealLine.objects.filter(
            deal__game__tournament_table__tournament_id__in=ids
        )
        .values_list("deal__game_id", "player_id")
        .annotate(total=Sum("score"))
        .values_list("deal__game_id", "player_id", "total")
        .order_by()
    }
    tables: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for game, player, t_id in Seat.objects.filter(
        game__tournament_table__tournament_id__in=ids
    ).values_list("game_id", "player_id", "game__tournament_table__tournament_id"):
        tables[t_id][game].append(player)
        entrant = entrants[t_id].get(player)
        if entrant is not None:
            entrant.tables[game] = totals.get((game, player), 0)
    evenings, results = [], {}
    for t in tournaments:
        key = ("t", t.pk)
        evenings.append(Evening(key=key, date=t.date, tournament=t))
        results[key] = rules.tournament_results(
            list(entrants[t.pk].values()),
            tables[t.pk],
            by_average=t.ranking == Ranking.AVERAGE,
        )
    return evenings, results, names


def _day_evenings(games: dict) -> tuple[list[Evening], dict]:
    """Casual games by date (`{date: {game: {player: figure}}}`) as evenings in date order,
    each with its results (each game a round)."""
    evenings, results = [], {}
    for day in sorted(games):
        key = ("d", day.isoformat())
        evenings.append(Evening(key=key, date=day))
        results[key] = rules.casual_results(games[day])
    return evenings, results


def casual_evenings(season: Season) -> tuple[list[Evening], dict, dict]:
    """The casual French Tarot games within the season's dates (not archived), one evening
    per calendar date. One query."""
    start, end = _bounds(season)
    games: dict[dt.date, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    names: dict[int, str] = {}
    zone = timezone.get_current_timezone()
    for game, created, player, name, total in (
        DealLine.objects.filter(
            deal__game__tournament_table__isnull=True,
            deal__game__archived_at__isnull=True,
            deal__game__created_at__gte=start,
            deal__game__created_at__lt=end,
        )
        .values_list("deal__game_id", "deal__game__created_at", "player_id", "player__name")
        .annotate(total=Sum("score"))
        .values_list(
            "deal__game_id", "deal__game__created_at", "player_id", "player__name", "total"
        )
        .order_by()
    ):
        day = timezone.localtime(created, zone).date()
        games[day][game][player] = total
        names[player] = name
    return (*_day_evenings(games), names)


#: Bump when what `kind_evenings` computes from the same games changes (a rules module's fix).
KIND_EVENINGS_VERSION = 1


def kind_evenings(season: Season, kind) -> tuple[list[Evening], dict, dict]:
    """The casual games of a replayed kind within the season's dates (not archived), one
    evening per calendar date; each result a game gives counts as a round, its figure as the
    kind says (`ReplayedKind.season_results`). A constant number of queries.

    Every game is replayed, so each evening's figures are kept in the cache under a
    fingerprint of that evening's games: each one's number, revision (every write to a game
    moves it), options (house rules) and start. A write, an archived or restored game, a game
    moved to another date changes its evening's fingerprint, and only that evening's games are
    replayed again. A read that finds every evening costs two queries (the fingerprints and the
    players' names, which a renaming changes without touching the games); one that finds none,
    the fingerprints and the games with their seats and records."""
    import hashlib
    import json

    from django.core.cache import cache

    from tarotclub.players.models import Player

    zone = timezone.get_current_timezone()
    by_day: dict[dt.date, list] = defaultdict(list)
    for pk, revision, options, created in (
        games_in_range(kind, season.start, season.end)
        .prefetch_related(None)
        .values_list("pk", "revision", "options", "created_at")
    ):
        by_day[timezone.localtime(created, zone).date()].append([pk, revision, options, created])
    keys = {
        day: "season-kind:"
        + hashlib.sha256(
            json.dumps([KIND_EVENINGS_VERSION, kind.identifier, rows], default=str).encode()
        ).hexdigest()
        for day, rows in by_day.items()
    }
    kept = cache.get_many(list(keys.values()))
    missing = [day for day, key in keys.items() if key not in kept]
    names: dict[int, str] = {}
    if missing:
        pks = None  # every evening: the season's games, without a list of them
        if len(missing) < len(keys):
            pks = [row[0] for day in missing for row in by_day[day]]
        figures, names = _replayed_days(season, kind, pks)
        new = {keys[day]: (figures.get(day, {}), sorted(names)) for day in missing}
        cache.set_many(new, 24 * 3600)
        kept.update(new)
    games = {day: kept[keys[day]][0] for day in sorted(by_day) if kept[keys[day]][0]}
    if len(missing) < len(keys):  # some evenings came from the cache: their players' names
        pks = {pk for day in keys for pk in kept[keys[day]][1]}
        names = dict(Player.objects.filter(pk__in=pks).values_list("pk", "name"))
    return (*_day_evenings(games), names)


def _replayed_days(season: Season, kind, pks) -> tuple[dict, dict]:
    """The season's games of `kind` (those of `pks` only, when given) replayed: each result's
    figures by date and game (`{date: {(game, i): {player: figure}}}`), and their players'
    names."""
    from types import SimpleNamespace

    from tarotclub.games.models import Record

    games: dict[dt.date, dict[tuple, dict[int, int]]] = defaultdict(dict)
    names: dict[int, str] = {}
    zone = timezone.get_current_timezone()
    games_qs = games_in_range(kind, season.start, season.end).prefetch_related(None)
    if pks is not None:
        games_qs = games_qs.filter(pk__in=pks)
    # three queries: the games, then their seats and their records as rows
    chosen = games_qs.order_by().values("pk")
    seated: dict[int, list] = defaultdict(list)
    for game_id, player_id, name in (
        Seat.objects.filter(game__in=chosen)
        .order_by("game_id", "position")
        .values_list("game_id", "player_id", "player__name")
    ):
        seated[game_id].append(SimpleNamespace(pk=player_id, name=name))
    datas: dict[int, list] = defaultdict(list)
    for game_id, data in (
        Record.objects.filter(game__in=chosen)
        .order_by("game_id", "number")
        .values_list("game_id", "data")
    ):
        datas[game_id].append(data)
    for game in games_qs:
        players = seated[game.pk]
        results = kind.season_results_from(game, players, datas[game.pk])
        if not results:
            continue
        day = timezone.localtime(game.created_at, zone).date()
        for i, figures in enumerate(results):
            games[day][(game.pk, i)] = figures
        for p in players:
            names[p.pk] = p.name
    return games, names


def season_kinds() -> list:
    """The game kinds a season may count: French Tarot, and every kind that says what a
    season counts of its games (`season_results`)."""
    from tarotclub.games import kinds

    return [k for k in kinds.all_kinds() if k.identifier == TAROT or hasattr(k, "season_results")]


def _evenings(season: Season) -> tuple[list[Evening], dict, dict]:
    """The season's evenings in date order, their results, and the players' names."""
    if not season.is_tarot:
        kind = season.game_kind
        if kind is None or not hasattr(kind, "season_results"):  # a kind no longer installed
            return [], {}, {}
        return kind_evenings(season, kind)
    evenings, results, names = tournament_evenings(season)
    if season.include_casual:
        casual, casual_results, casual_names = casual_evenings(season)
        evenings = sorted([*evenings, *casual], key=lambda e: (e.date, e.tournament is None, e.key))
        results.update(casual_results)
        names.update(casual_names)
    return evenings, results, names


def season_standings(season: Season) -> SeasonStandings:
    evenings, results, names = _evenings(season)
    by_player: dict[int, dict[tuple, rules.Result]] = defaultdict(dict)
    for evening in evenings:
        for player, result in results.get(evening.key, {}).items():
            by_player[player][evening.key] = result
    formula = season.rule()
    lines = rules.rank(
        by_player,
        formula,
        names=names,
        order=[e.key for e in evenings],
        name_key=functools.lru_cache(maxsize=None)(text_key),
    )
    return SeasonStandings(
        season=season,
        evenings=evenings,
        lines=lines,
        formula=formula,
        players=len(lines),
        unranked=[line for line in lines if not line.ranked],
    )


def season_list():
    return Season.objects.order_by("-start", "-pk")


def tournaments_to_choose():
    """The tournaments a season may count, newest first."""
    return Tournament.objects.order_by("-date", "-pk")
