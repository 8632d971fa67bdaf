"""Reads of games, whatever their kind: a constant number of queries per page."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence

from django.db import connection
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from tarotclub.core import sql
from tarotclub.players.models import Player
from tarotclub.players.selectors import short_labels

from . import policy
from .models import Game, Record, RefusedEntry, Seat


def game_with_seats(qs: QuerySet[Game] | None = None) -> QuerySet[Game]:
    qs = qs if qs is not None else Game.objects.all()
    return qs.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    )


def game_by_token(token: str) -> Game | None:
    """The game of a share link with its seats and players, in one query.

    The first read of every page of a game, and of every save: one plain SELECT joining the
    game, its seats and their players (`core.sql`). The ORM's `select_related` compiled it in
    ten times the time it ran.

    The same statement reads the state of the event the game is a table of (every event
    lookup's `policy.EventSql`, as `services.lock_game` reads it under the lock), which the
    policy's verdicts of the page then read instead of asking it in one more query: the sheet,
    the entry pages and a poll that brings a change. A write checks the policy again on the
    game as its lock reads it, never on this one.
    """
    if not token or len(token) > 32:
        return None
    game_cols, seat_cols, player_cols = _token_columns()
    events = policy.event_sql()
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(connection.vendor, tuple(events or ())), [token])
        rows = cursor.fetchall()
    if not rows:
        return None
    game = game_cols.build(rows[0])
    seat_start = game_cols.width
    if events is not None:
        found, seat_start = policy.read_events(events, rows[0], seat_start)
        setattr(game, policy.EVENT_READ, found)
    player_start = seat_start + seat_cols.width
    seats = []
    for row in rows:
        if row[seat_start] is None:  # a game without seats (LEFT JOIN)
            continue
        seat = seat_cols.build(row, seat_start)
        seat.game = game
        seat.player = player_cols.build(row, player_start)
        seats.append(seat)
    game._prefetched_objects_cache = {"seats": seats}
    return game


def _token_columns():
    return sql.columns_of(Game, "g"), sql.columns_of(Seat, "s"), sql.columns_of(Player, "p")


@functools.cache
def _token_sql(vendor: str, events: tuple) -> str:
    g, s, p = _token_columns()
    pk = sql.quote("id")
    joins, extra = "", ""
    join, columns = policy.event_joins(events, "g")
    if columns:  # (a game is the table of at most one event: one row a seat, as without)
        joins, extra = f"{join} ", f"{columns}, "
    return (
        f"SELECT {g.sql}, {extra}{s.sql}, {p.sql} FROM {sql.table(Game)} g {joins}"
        f"LEFT JOIN {sql.table(Seat)} s ON s.{sql.column(Seat, 'game')} = g.{pk} "
        f"LEFT JOIN {sql.table(Player)} p ON p.{pk} = s.{sql.column(Seat, 'player')} "
        f"WHERE g.{sql.column(Game, 'token')} = %s ORDER BY s.{sql.column(Seat, 'position')}"
    )


def revision_by_token(token: str) -> tuple[int, str] | None:
    """(revision, kind) of a share link's game, for a poll that asks whether anything changed.

    The most frequent request of a room (every open sheet, every 4 s), mostly answered by this
    alone: one plain SELECT on the unique token. The ORM's `.values_list().first()` compiled
    it (with an ORDER BY and a LIMIT a unique column needs not) in more time than it ran.
    """
    if not token or len(token) > 32:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_revision_sql(connection.vendor), [token])
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None


@functools.cache
def _revision_sql(vendor: str) -> str:
    return (
        f"SELECT {sql.column(Game, 'revision')}, {sql.column(Game, 'kind')} FROM"
        f" {sql.table(Game)} WHERE {sql.column(Game, 'token')} = %s"
    )


def seat_players(game: Game) -> list[Player]:
    """The players in playing order (uses the prefetch cache when there is one).

    Each player gets a `label`: a short name that is unique at this table, and a `compact`
    one for the sheet's narrow columns (`presenters.compact_names`).
    """
    from .presenters import compact_names

    cache = getattr(game, "_prefetched_objects_cache", {})
    seats = cache.get("seats")
    if seats is None:  # a game read without its seats: seats and players in one query
        seats = Seat.objects.filter(game=game).select_related("player")
    players = [s.player for s in sorted(seats, key=lambda s: s.position)]
    labels = short_labels(players)
    for p in players:
        p.label = labels[p.pk]
    compact = compact_names(players)
    for p in players:
        p.compact = compact[p.pk]
    return players


def tournament_table(game: Game):
    """The tournament table this game is, if any (the relation lives in the tournaments app),
    read with its tournament in one plain SELECT: whoever shows a table shows its tournament
    (the sheet's heading, the score sheets); the ORM compiled it (with the table's default
    ordering) in more time than it ran. Kept on the game, as `game.tournament_table` keeps it.
    No query for a game whose read found it the table of no event (`game_by_token`)."""
    if getattr(game, policy.EVENT_READ, False) is None:
        return None
    relation = Game.tournament_table.related  # (the tournaments app's Table.game)
    if relation.is_cached(game):
        return relation.get_cached_value(game)
    table_cols, event_cols = _table_columns()
    with connection.cursor() as cursor:
        cursor.execute(_table_sql(connection.vendor), [game.pk])
        row = cursor.fetchone()
    table = None
    if row is not None:
        table = table_cols.build(row)
        table.tournament = event_cols.build(row, table_cols.width)
        relation.field.set_cached_value(table, game)
    relation.set_cached_value(game, table)
    return table


def _table_columns():
    table = Game.tournament_table.related.related_model
    return sql.columns_of(table, "t"), sql.columns_of(table.tournament.field.related_model, "u")


@functools.cache
def _table_sql(vendor: str) -> str:
    t, u = _table_columns()
    table, event = t.model, u.model
    return (
        f"SELECT {t.sql}, {u.sql} FROM {sql.table(table)} t INNER JOIN {sql.table(event)} u "
        f"ON u.{sql.quote(event._meta.pk.column)} = t.{sql.column(table, 'tournament')} "
        f"WHERE t.{sql.column(table, 'game')} = %s"
    )


def names_of(players: Sequence[Player]) -> dict[int, str]:
    """Player pk → the name the sheet shows."""
    return {p.pk: getattr(p, "label", p.short_name) for p in players}


def game_list(
    *,
    finished: bool | None = None,
    kind: str | None = None,
    player: Player | None = None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
    archived: bool = False,
    user=None,
) -> QuerySet[Game]:
    """Casual games (tournament tables are listed with their tournament), newest first, with
    their seats and records. Archived games are left out; with `archived`, only they are
    listed, and only those `user` may restore (their own, or all of them for a director)."""
    qs = game_with_seats().filter(tournament_table__isnull=True)
    qs = qs.prefetch_related(Prefetch("records", queryset=Record.objects.order_by("number")))
    if archived:
        qs = qs.filter(archived_at__isnull=False)
        if user is None or not user.is_authenticated:
            return qs.none()
        if not user.is_staff:
            qs = qs.filter(created_by=user)
    else:
        qs = qs.filter(archived_at__isnull=True)
    if finished is not None:
        qs = qs.filter(finished_at__isnull=not finished)
    if kind:
        qs = qs.filter(kind=kind)
    if player is not None:
        qs = qs.filter(seats__player=player)
    if date_from:
        qs = qs.filter(created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(created_at__date__lte=date_to)
    return qs.order_by("-created_at", "-pk")


def _midnight(day: dt.date) -> dt.datetime:
    """The start of `day` in the current time zone."""
    return timezone.make_aware(dt.datetime.combine(day, dt.time()))


def games_in_range(
    kind, date_from: dt.date | None = None, date_to: dt.date | None = None
) -> QuerySet[Game]:
    """Casual games of `kind` started within the dates (inclusive), with seats and records."""
    qs = Game.objects.filter(
        kind=kind.identifier, tournament_table__isnull=True, archived_at__isnull=True
    )
    # local midnights rather than `created_at__date`: the same days, and the database compares
    # the stored times (SQLite would otherwise call back into Python for every row)
    if date_from:
        qs = qs.filter(created_at__gte=_midnight(date_from))
    if date_to and date_to < dt.date.max:
        qs = qs.filter(created_at__lt=_midnight(date_to + dt.timedelta(days=1)))
    prefetch = [
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch("records", queryset=Record.objects.order_by("number")),
        *kind.standings_prefetch(),
    ]
    return qs.prefetch_related(*prefetch).order_by("-created_at", "-pk")


def games_in_progress(kinds: Sequence, limit: int = 20) -> list[Game]:
    """The latest unfinished casual games of these kinds, with their seats."""
    qs = game_with_seats().filter(
        kind__in=[k.identifier for k in kinds], finished_at__isnull=True, archived_at__isnull=True
    )
    return list(qs.filter(tournament_table__isnull=True).order_by("-created_at", "-pk")[:limit])


def kept_entries(game: Game) -> list[RefusedEntry]:
    """The entries phones sent after the game's sheet closed, not settled yet (oldest first)."""
    return list(RefusedEntry.objects.filter(game=game, outcome=""))


def kept_entry(game: Game, pk: int) -> RefusedEntry | None:
    """One of the game's kept entries (settled or not), or None."""
    return RefusedEntry.objects.filter(game=game, pk=pk).select_related("game").first()


def kept_entries_of(games) -> list[RefusedEntry]:
    """The waiting kept entries of many games (a tournament's tables), in one query."""
    return list(
        RefusedEntry.objects.filter(game__in=games, outcome="")
        .select_related("game")
        .order_by("created_at", "pk")
    )
