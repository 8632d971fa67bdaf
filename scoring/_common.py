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


# --- Text a person typed -------------------------------------------------------------------------
#
# Python's own parsers read far more than a person types: int() and Decimal() accept other
# scripts' digits ("٤٠"), underscores ("4_0"), and Decimal() exponents ("1e30000000", whose
# conversion to a Fraction takes minutes of CPU). Typed text is refused by its length first,
# then matched against a regex of bounded width; only what that regex captured is converted.

#: How much of a refused text a message quotes.
SHOWN_LENGTH = 12


def shown(value: Any) -> Any:
    """The refused value as a message quotes it: a short excerpt, whatever was sent."""
    if isinstance(value, bool | None):
        return value
    try:
        text = value if isinstance(value, str) else str(value)
    except ValueError:  # an int too long to write out (Python refuses over 4300 digits)
        return "…"
    if len(text) <= SHOWN_LENGTH:
        return value
    return text[:SHOWN_LENGTH] + "…"


def has_foreign_digits(text: str) -> bool:
    """True when `text` holds a digit or number sign of another script ("٤", "４", "²")."""
    return any(c.isnumeric() and not ("0" <= c <= "9") and c != "½" for c in text)


def typed_match(pattern, text: str, max_length: int):
    """`pattern.fullmatch(text)`, or None when `text` is longer than `max_length`.

    The length is checked first, so a long text costs nothing whatever it holds.
    """
    if len(text) > max_length:
        return None
    return pattern.fullmatch(text)
