"""What the rules of the club's other games share: checks, and the protocol of a replayed game."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
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


# --- the protocol of the replayed games -------------------------------------------------------
#
# The club's other games are kept as a list of records and
# replayed. Each of their modules offers the same names, so the site drives them all alike:
#
#   MIN_PLAYERS, MAX_PLAYERS   how many players the game takes
#   OPTIONS                    the settings a game starts with (a tuple of `Option`)
#   start(players, **options)  the state before the first record (RuleError when refused)
#   step(state, record)        the state after one more record (RuleError when refused)
#   play(players, records, **options)   start, then step through every record
#
# A state has `players`, `history` (one result per record), `finished` and `winner`.


@dataclass(frozen=True)
class Option:
    """A whole-number setting a game starts with, such as a number of lives."""

    name: str
    label: str  # English, marked for translation
    default: int
    low: int
    high: int


def replay(state: Any, step: Callable[[Any, Any], Any], records: Any, *, records_error: str):
    """Step `state` through every record; `records` must be a list (else `records_error`)."""
    if isinstance(records, str | bytes) or not isinstance(records, Sequence):
        raise RuleError(records_error)
    for record in records:
        state = step(state, record)
    return state


ERR_NOT_PLAYING = _("%(player)s is not playing in this game.")
ERR_TRICKS_MISSING_FOR = _("The tricks of %(player)s are missing.")
ERR_TRICKS_NOT_WHOLE = _("The tricks of %(player)s must be a whole number.")
ERR_TRICKS_BELOW_ZERO = _("The tricks of %(player)s cannot be negative.")


@dataclass(frozen=True)
class CountErrors:
    """The messages of `check_counts`, in the words of one game."""

    not_a_mapping: str
    unknown_player: str  # %(player)s
    missing: str  # %(player)s
    not_whole: str  # %(player)s
    negative: str  # %(player)s
    total: str  # %(total)s


def trick_errors(*, not_a_mapping: str, total: str) -> CountErrors:
    """The messages of counting tricks: a game's own for the whole, the shared ones per player."""
    return CountErrors(
        not_a_mapping,
        ERR_NOT_PLAYING,
        ERR_TRICKS_MISSING_FOR,
        ERR_TRICKS_NOT_WHOLE,
        ERR_TRICKS_BELOW_ZERO,
        total,
    )


def _known(players: Sequence[Hashable], player: Any) -> bool:
    try:
        return player in players
    except TypeError:  # an unhashable key can name nobody
        return False


def check_counts(
    players: Sequence[Hashable], counts: Any, *, total: int, errors: CountErrors
) -> dict[Hashable, int]:
    """A count for every player (tricks taken, say), whole and not negative, adding up to
    `total`; returned in seat order."""
    if not isinstance(counts, Mapping):
        raise RuleError(errors.not_a_mapping)
    for player in counts:
        if not _known(players, player):
            raise RuleError(errors.unknown_player, player=player)
    for player in players:
        if player not in counts:
            raise RuleError(errors.missing, player=player)
        value = counts[player]
        if not is_int(value):
            raise RuleError(errors.not_whole, player=player)
        if value < 0:
            raise RuleError(errors.negative, player=player)
    added = sum(counts[player] for player in players)
    if added != total:
        raise RuleError(errors.total, total=added)
    return {player: counts[player] for player in players}


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
