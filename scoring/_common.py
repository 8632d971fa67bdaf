"""Checks shared by the rules of the club's other games."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from . import RuleError, _

ERR_PLAYERS_TYPE = _("The players must be given as a list.")
ERR_PLAYER_NAME = _("Every player must have a name.")
ERR_PLAYER_TWICE = _("%(player)s is listed more than once.")


def is_int(value: Any) -> bool:
    """A whole number, and not a bool (True is an int in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_players(players: Any, *, low: int, high: int, count_error: str) -> tuple[Hashable, ...]:
    """A list of `low` to `high` distinct, named, hashable player keys, as a tuple."""
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise RuleError(ERR_PLAYERS_TYPE)
    if not low <= len(players) <= high:
        raise RuleError(count_error, count=len(players))
    seen: set[Hashable] = set()
    for player in players:
        if player is None or player == "":
            raise RuleError(ERR_PLAYER_NAME)
        try:
            hash(player)
        except TypeError:
            raise RuleError(ERR_PLAYER_NAME) from None
        if player in seen:
            raise RuleError(ERR_PLAYER_TWICE, player=player)
        seen.add(player)
    return tuple(players)
