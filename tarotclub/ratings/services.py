"""Bringing the ratings up to date with the games (derived data: rebuilt, never entered)."""

from __future__ import annotations

import dataclasses

from django.db import connection, transaction
from django.utils import timezone

from scoring import ratings as rules

from . import selectors
from .models import PlayerRating, RatingEvent, RatingState


@dataclasses.dataclass(frozen=True)
class Refresh:
    """What a refresh did: the games rated again (0: all was up to date)."""

    games: int
    events: int


def ratings_refresh(*, full: bool = False) -> Refresh:
    """Rate again every game from the first one that changed since the last refresh.

    Cheap when nothing changed (two reads, no lock). Otherwise, under the ratings' lock, the
    rating rows from that game on are deleted and made again from the stored deals, starting
    from each player's skill before it; so a corrected deal never leaves a stale rating.
    `full` rates every game again from the start (`manage.py ratings_recompute`).
    """
    if not full and selectors.stale_from() is None:
        return Refresh(0, 0)
    with transaction.atomic():
        # The lock first (a write: the row's lock on PostgreSQL, SQLite's write lock), then
        # look again: another request may have done the work while this one waited.
        RatingState.objects.get_or_create(pk=1)
        RatingState.objects.filter(pk=1).update(refreshed_at=timezone.now())
        key = None if full else selectors.stale_from()
        if key is None and not full:
            return Refresh(0, 0)
        return _rate_from(key)


def _rate_from(key) -> Refresh:
    if key is None:
        RatingEvent.objects.all().delete()
        before: dict[int, selectors.Standing] = {}
    else:
        RatingEvent.objects.filter(selectors._after(key, at="at", pk="game_id")).delete()
        before = selectors.standing_before(key)
    games = selectors.played_from(key)
    updates, _skills = rules.rate(
        (rules.Table(g.key, g.totals) for g in games),
        start={p: s.skill for p, s in before.items()},
    )
    by_key = {g.key: g for g in games}
    adapt = connection.ops.adapt_datetimefield_value
    when = {g.key: adapt(g.key[0]) for g in games}
    rows = []
    standing = dict(before)
    for u in updates:
        game = by_key[u.table]
        at, game_id = game.key
        b, a = u.before, u.after
        rows.append(
            (game_id, u.player, when[u.table], game.revision, u.place, u.size)
            + (b.mu, b.sigma, a.mu, a.sigma)
        )
        count = standing[u.player].games + 1 if u.player in standing else 1
        standing[u.player] = selectors.Standing(a, count, at)
    _insert_events(rows)
    PlayerRating.objects.all().delete()
    PlayerRating.objects.bulk_create(
        (
            PlayerRating(
                player_id=p,
                mu=s.skill.mu,
                sigma=s.skill.sigma,
                rating=s.skill.rating,
                games=s.games,
                last_at=s.last_at,
            )
            for p, s in standing.items()
        ),
        batch_size=500,
    )
    return Refresh(len(games), len(rows))


EVENT_COLUMNS = (
    "game_id",
    "player_id",
    "at",
    "revision",
    "place",
    "size",
    "mu_before",
    "sigma_before",
    "mu",
    "sigma",
)


def _insert_events(rows: list[tuple]) -> None:
    """Insert the rating rows with one prepared statement run for every row.

    A season is tens of thousands of rows of derived data: Django's bulk_create spends most of
    its time compiling each value (4 of the 6 s of a 5,000-game season), so the rows go in
    through the connection's cursor instead, with the values adapted as the ORM would
    (`adapt_datetimefield_value`), on SQLite and PostgreSQL alike.
    """
    if not rows:
        return
    qn = connection.ops.quote_name
    columns = ", ".join(qn(c) for c in EVENT_COLUMNS)
    marks = ", ".join(["%s"] * len(EVENT_COLUMNS))
    sql = f"INSERT INTO {qn(RatingEvent._meta.db_table)} ({columns}) VALUES ({marks})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 5000):
            cursor.executemany(sql, rows[start : start + 5000])
