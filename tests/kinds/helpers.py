"""Reads the tests of the kinds share: a game as its pages read it, a kind's standings."""

from __future__ import annotations

from dataclasses import dataclass

from tarotclub.games import kinds


def played(game):
    """The game replayed once, as a page reads it (`state`, `entries`, `over`, `stopped`)."""
    game.refresh_from_db()
    return kinds.get(game.kind).load(game)


@dataclass
class Standings:
    rows: list
    states: list


def standings(kind: str, date_from=None, date_to=None) -> Standings:
    rows, _table, games = kinds.get(kind).standings(date_from, date_to)
    return Standings(rows, games)
