"""What the rules of the club's other games share: checks, and the protocol of a replayed game."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar

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


# --- house rules: a club's explicit, typed options ------------------------------------------------

ERR_HOUSE_RULES_SHAPE = _("House rules are given as names and values.")
ERR_HOUSE_RULE_UNKNOWN = _("%(rule)s is not a house rule of this game.")
ERR_HOUSE_RULE_VALUE = _("The house rule %(rule)s cannot be %(value)s.")
ERR_HOUSE_RULE_AMOUNT = _(
    "A house rule's amount is a whole number from %(low)s to %(high)s, not %(value)s."
)


@dataclass(frozen=True)
class HouseRules:
    """Base of a game's house rules: a frozen dataclass whose defaults are the rules as written
    (``rules/variants.md``'s house defaults). Each field is either a bool or a str whose
    allowed values a subclass lists in ``CHOICES`` (field name -> values, the first being the
    default). `from_dict` reads stored data and refuses anything else with RuleError."""

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: Whole-number fields: name -> (lowest, highest).
    AMOUNTS: ClassVar[dict[str, tuple[int, int]]] = {}

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.AMOUNTS:
                low, high = self.AMOUNTS[f.name]
                if not is_int(value) or not low <= value <= high:
                    raise RuleError(ERR_HOUSE_RULE_AMOUNT, low=low, high=high, value=shown(value))
                continue
            allowed = self.CHOICES.get(f.name)
            if allowed is None:
                ok = isinstance(value, bool)
            else:
                ok = isinstance(value, str) and value in allowed
            if not ok:
                raise RuleError(ERR_HOUSE_RULE_VALUE, rule=f.name, value=shown(value))

    @property
    def is_default(self) -> bool:
        return self == type(self)()

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Any):
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleError(ERR_HOUSE_RULES_SHAPE)
        names = {f.name for f in fields(cls)}
        for key in data:
            if key not in names:
                raise RuleError(ERR_HOUSE_RULE_UNKNOWN, rule=shown(key))
        return cls(**data)


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
