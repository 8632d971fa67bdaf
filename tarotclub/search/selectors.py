"""One box finds a player, a game or a tournament, without case or accents ("elo" finds
"Élodie", "coupe d'ete" finds "Coupe d'été").

Players are matched in the database on their stored keys. Games (by their name or the name of a
player at the table) and tournaments (by name or place) have no stored key: their names are
read (two short columns) and matched here with the same `text_key`, which SQLite's LIKE, folding
only ASCII, could not do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tarotclub.core.text import text_key
from tarotclub.games.models import Game, Seat
from tarotclub.games.selectors import game_with_seats
from tarotclub.players.models import Player
from tarotclub.players.selectors import players_matching
from tarotclub.tournaments.models import Tournament

#: at most this many of each kind are shown (the page says when there are more)
SHOWN = 20
#: the longest query read; what is longer is cut here
QUERY_MAX = 80


@dataclass
class Found:
    query: str
    players: list[Player] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    tournaments: list[Tournament] = field(default_factory=list)
    more: dict[str, int] = field(default_factory=dict)  # kind -> how many were not shown

    @property
    def empty(self) -> bool:
        return not (self.players or self.games or self.tournaments)


def _keep(found: Found, kind: str, items: list, total: int) -> list:
    if total > SHOWN:
        found.more[kind] = total - SHOWN
    return items[:SHOWN]


def search(query: str, *, member: bool) -> Found:
    """What `query` finds. A member (logged in) finds players and casual games as well as
    tournaments; anyone else, the tournaments, which are public. At most 5 queries."""
    query = (query or "")[:QUERY_MAX]
    needle = text_key(query)
    found = Found(query=query)
    if not needle:
        return found
    if member:
        matching = players_matching(query)
        players = list(matching.order_by("name_key", "pk")[:SHOWN])
        found.players = _keep(found, "players", players, matching.count())
        found.games = _keep(found, "games", *_games(needle, query))
    found.tournaments = _keep(found, "tournaments", *_tournaments(needle))
    return found


def _games(needle: str, query: str) -> tuple[list[Game], int]:
    """Casual games, not archived, whose name or one of whose players matches: the newest
    `SHOWN`, and how many there are."""
    casual = Game.objects.filter(tournament_table__isnull=True, archived_at__isnull=True)
    named = {
        pk
        for pk, name in casual.exclude(name="").values_list("pk", "name")
        if needle in text_key(name)
    }
    by_player = Seat.objects.filter(
        game__in=casual, player__in=players_matching(query)
    ).values_list("game_id", flat=True)
    ids = named | set(by_player)
    if not ids:
        return [], 0
    newest = sorted(ids)[-SHOWN:]  # ids grow with time: the newest games
    games = game_with_seats(Game.objects.filter(pk__in=newest))
    return list(games.order_by("-created_at", "-pk")), len(ids)


def _tournaments(needle: str) -> tuple[list[Tournament], int]:
    """Tournaments whose name or place matches: the latest `SHOWN`, and how many there are."""
    rows = Tournament.objects.values_list("pk", "date", "name", "place")
    hits = [(d, pk) for pk, d, name, place in rows if needle in text_key(f"{name} · {place}")]
    if not hits:
        return [], 0
    latest = [pk for _d, pk in sorted(hits, reverse=True)[:SHOWN]]
    shown = Tournament.objects.filter(pk__in=latest).order_by("-date", "-pk")
    return list(shown), len(hits)


__all__ = ["QUERY_MAX", "SHOWN", "Found", "search"]
