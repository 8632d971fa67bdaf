"""Reading the ratings: which games count, what is stale, the leaderboard, a player's history."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, Sum

from scoring import ratings as rules
from tarotclub.games.models import Game, Seat
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.players.models import Player

from .models import PlayerRating, RatingEvent

#: A game's place in the rating order: when it started, then its id.
Key = tuple[dt.datetime, int]

#: The leaderboard's default: players with fewer rated games are not listed.
MIN_GAMES = 3


def rated_games():
    """The games that count: French Tarot, not archived, with at least one deal, and over (a
    casual game once finished, a tournament table once its sheet is confirmed)."""
    return Game.objects.filter(kind="tarot", archived_at__isnull=True).filter(
        Q(finished_at__isnull=False) | Q(locked=True),
        Exists(Deal.objects.filter(game=OuterRef("pk"))),
    )


def _after(key: Key, *, at: str, pk: str) -> Q:
    """Rows at or after `key` in the rating order."""
    when, ident = key
    return Q(**{f"{at}__gt": when}) | Q(**{at: when, f"{pk}__gte": ident})


def stale_from() -> Key | None:
    """The first game (in rating order) whose ratings no longer match it, or None.

    A game is out of date when it counts but has no rating rows at its current revision (new,
    corrected, reopened and finished again...), or when it has rating rows but no longer
    counts (archived, unlocked, a last deal undone...). Each write to a game moves its
    revision in the same transaction, so this never misses a change. Two queries.
    """
    current = RatingEvent.objects.filter(game=OuterRef("pk"), revision=OuterRef("revision"))
    first_changed = (
        rated_games()
        .exclude(Exists(current))
        .order_by("created_at", "pk")
        .values_list("created_at", "pk")
        .first()
    )
    first_gone = (
        RatingEvent.objects.exclude(game__in=rated_games())
        .order_by("at", "game_id")
        .values_list("at", "game_id")
        .first()
    )
    found = [k for k in (first_changed, first_gone) if k is not None]
    return min(found) if found else None


@dataclass(frozen=True)
class Played:
    """A rated game as the ratings read it."""

    key: Key
    revision: int
    totals: dict[int, int]  # player id -> total at the table


def played_from(key: Key | None = None, *, date_from=None, date_to=None) -> list[Played]:
    """The rated games from `key` on (all when None), in rating order, each with every seated
    player's total (0 for a dealer who sat out every deal). Two queries."""
    games = rated_games()
    if key is not None:
        games = games.filter(_after(key, at="created_at", pk="pk"))
    if date_from:
        games = games.filter(created_at__date__gte=date_from)
    if date_to:
        games = games.filter(created_at__date__lte=date_to)
    seats = (
        Seat.objects.filter(game__in=games)
        .order_by("game__created_at", "game_id", "position")
        .values_list("game_id", "game__created_at", "game__revision", "player_id")
    )
    lines = (
        DealLine.objects.filter(deal__game__in=games)
        .values("deal__game_id", "player_id")
        .annotate(total=Sum("score"))
        .values_list("deal__game_id", "player_id", "total")
    )
    totals = {(g, p): t for g, p, t in lines}
    out: list[Played] = []
    for game_id, created, revision, player_id in seats:
        if not out or out[-1].key[1] != game_id:
            out.append(Played((created, game_id), revision, {}))
        out[-1].totals[player_id] = totals.get((game_id, player_id), 0)
    return out


@dataclass(frozen=True)
class Standing:
    """What the ratings know of a player before some point in the rating order."""

    skill: rules.Skill
    games: int
    last_at: dt.datetime


def standing_before(key: Key) -> dict[int, Standing]:
    """Each player's skill, rated games and last game before `key` (one query)."""
    rows = (
        RatingEvent.objects.exclude(_after(key, at="at", pk="game_id"))
        .order_by("at", "game_id")
        .values_list("player_id", "mu", "sigma", "at")
    )
    out: dict[int, Standing] = {}
    for player_id, mu, sigma, at in rows.iterator(chunk_size=2000):
        games = out[player_id].games + 1 if player_id in out else 1
        out[player_id] = Standing(rules.Skill(mu, sigma), games, at)
    return out


@dataclass(frozen=True)
class Line:
    """One row of the leaderboard."""

    place: int
    player: Player
    rating: float
    mu: float
    sigma: float
    games: int
    last_at: dt.datetime


def leaderboard(*, min_games: int = MIN_GAMES, date_from=None, date_to=None) -> list[Line]:
    """Players by rating (the conservative estimate), best first, with at least `min_games`
    rated games. With dates: ratings made from the games of that period alone, everyone
    starting afresh. Constant queries: 1 without dates (the stored ratings), 3 with."""
    if date_from or date_to:
        games = played_from(date_from=date_from, date_to=date_to)
        updates, skills = rules.rate(rules.Table(g.key, g.totals) for g in games)
        when = {g.key: g.key[0] for g in games}
        count: dict[int, int] = {}
        last: dict[int, dt.datetime] = {}
        for u in updates:
            count[u.player] = count.get(u.player, 0) + 1
            last[u.player] = when[u.table]
        keep = [p for p in skills if count[p] >= min_games]
        players = Player.objects.in_bulk(keep)
        rows = [
            (players[p], skills[p].rating, skills[p].mu, skills[p].sigma, count[p], last[p])
            for p in keep
        ]
    else:
        stored = (
            PlayerRating.objects.filter(games__gte=min_games)
            .select_related("player")
            .order_by("-rating", "player__name_key", "player_id")
        )
        rows = [(r.player, r.rating, r.mu, r.sigma, r.games, r.last_at) for r in stored]
    rows.sort(key=lambda r: (-r[1], r[0].name_key, r[0].pk))
    out: list[Line] = []
    for i, row in enumerate(rows):
        # equal ratings (to the shown decimal) share a place
        shown = round(row[1], 1)
        place = out[-1].place if out and round(out[-1].rating, 1) == shown else i + 1
        out.append(Line(place, *row))
    return out


def history(player: Player) -> list[RatingEvent]:
    """A player's rating after each of their rated games, in order (one query)."""
    return list(
        RatingEvent.objects.filter(player=player).select_related("game").order_by("at", "game_id")
    )


def current(player: Player) -> PlayerRating | None:
    return PlayerRating.objects.filter(player=player).first()


def ahead_of(rating: PlayerRating, *, min_games: int = MIN_GAMES) -> int:
    """How many players the leaderboard (every game, `min_games`) lists above this rating."""
    return PlayerRating.objects.filter(games__gte=min_games, rating__gt=rating.rating).count()
