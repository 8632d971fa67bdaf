"""French Tarot scored by the rules of the Fédération Française de Tarot (3, 4 and 5 players).

The rulebook, as this module applies it (see ``../shared/rules/fft.md``):

1. The attack needs a **target** that depends on the bouts it holds: 0 → 56, 1 → 51, 2 → 41,
   3 → 36 card points.
2. **Half points go to the side that wins**: 40½ with 2 bouts counts 40 (lost by 1),
   41½ counts 42 (won by 1).
3. The **gap** is how far the rounded points are from the target; exactly on target is won by 0.
4. The contract sets the **multiplier**: prise ×1, garde ×2, garde sans ×4, garde contre ×6.
5. The **unit** is what each single defender pays (or receives when the attack loses):
   (25 + gap) × multiplier, plus petit au bout 10 × multiplier for the side that took it,
   plus every declared poignée (20, 30, 40) for the side that wins the contract,
   plus the chelem bonus (+400, +200, −200; −200 for a defence slam).
6. **Shares**: every defender −unit; the taker takes the rest (+2, +3 or +4 units),
   at 5 players the called partner +1 unit and the taker +2.

Every deal sums to zero. Anything that cannot happen at the table raises ``RuleError``
with a plain sentence saying what is wrong.

**House rules** (`TarotRules`, passed as ``rules=``; the default `FFT_RULES` is the federation's
rulebook, so a call without it scores exactly as above). A club may switch on:

- **Misère de tête**: a player whose hand holds no face card (no king, queen, knight or jack)
  shows it before the first card is played;
- **Misère d'atout**: a player whose hand holds no trump shows it before the first card (the
  Excuse is not a trump: it may be in the hand).

A misère is worth its amount (`TarotRules.misere_amount`, 10 unless the club says otherwise)
from **each other player** at the table, whichever side the declarer plays on and whatever
the contract's result; it is never multiplied. Both misères may be declared by the same player
(twice the amount). At a table of five where the dealer sits out, the dealer neither declares
nor pays. A player with a misère d'atout holds no trump, so cannot show a poignée. The deal
stays zero-sum: the declarer takes ``amount × (players − 1)``, each other player pays
``amount``.

- **Poignée amounts**: the simple, double and triple poignée may be worth other amounts than
  20, 30 and 40 (still never multiplied, still to the side that wins the contract).
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from . import RuleError, _
from ._common import HouseRules, has_foreign_digits, shown, typed_match

Player = Hashable  # a player's key: a str or an int in practice


# --- The vocabulary of the score sheet -----------------------------------------------------------


class Contract(StrEnum):
    """The bid the taker won the auction with, from the lowest to the highest."""

    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"


class Side(StrEnum):
    """One side of the deal: the attack (taker and partner) or the defence (everybody else)."""

    ATTACK = "attack"
    DEFENCE = "defence"


class Poignee(StrEnum):
    """A declared handful of trumps."""

    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"


class Misere(StrEnum):
    """A declared misère (a house rule): a hand without face cards, or without trumps."""

    TETE = "tete"
    ATOUT = "atout"


class Chelem(StrEnum):
    """The slam (every trick to one side), announced or not."""

    NONE = "none"
    ANNOUNCED_MADE = "announced_made"
    UNANNOUNCED_MADE = "unannounced_made"
    ANNOUNCED_FAILED = "announced_failed"
    DEFENCE = "defence"


CONTRACT_LABELS = {
    Contract.PRISE: _("prise"),
    Contract.GARDE: _("garde"),
    Contract.GARDE_SANS: _("garde sans"),
    Contract.GARDE_CONTRE: _("garde contre"),
}
SIDE_LABELS = {Side.ATTACK: _("attack"), Side.DEFENCE: _("defence")}


# --- The numbers of the rulebook -----------------------------------------------------------------

TABLE_SIZES = (3, 4, 5)
TOTAL_POINTS = 91  # card points in the deck
BOUT_MIN_POINTS = 4  # a bout is worth 4½; the Excuse nets 4 once a ½-point card is given for it

#: Card points the attack needs, by the number of bouts it holds.
TARGETS = {0: 56, 1: 51, 2: 41, 3: 36}
BASE = 25  # every contract is worth 25 plus the gap
MULTIPLIERS = {
    Contract.PRISE: 1,
    Contract.GARDE: 2,
    Contract.GARDE_SANS: 4,
    Contract.GARDE_CONTRE: 6,
}
PETIT_AU_BOUT_VALUE = 10  # multiplied by the contract's multiplier
#: Never multiplied; every declared poignée goes to the side that wins the contract.
POIGNEE_VALUES = {Poignee.SIMPLE: 20, Poignee.DOUBLE: 30, Poignee.TRIPLE: 40}
#: Trumps to show for each poignée, by table size (the Excuse may stand in for the last one).
POIGNEE_SIZES = {
    3: {Poignee.SIMPLE: 13, Poignee.DOUBLE: 15, Poignee.TRIPLE: 18},
    4: {Poignee.SIMPLE: 10, Poignee.DOUBLE: 13, Poignee.TRIPLE: 15},
    5: {Poignee.SIMPLE: 8, Poignee.DOUBLE: 10, Poignee.TRIPLE: 13},
}
SHOWABLE_CARDS = 22  # the 21 trumps and the Excuse
#: Never multiplied; signed from the attack's view (a defence slam pays each defender 200).
CHELEM_BONUSES = {
    Chelem.NONE: 0,
    Chelem.ANNOUNCED_MADE: 400,
    Chelem.UNANNOUNCED_MADE: 200,
    Chelem.ANNOUNCED_FAILED: -200,
    Chelem.DEFENCE: -200,
}
ATTACK_SLAMS = frozenset({Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE})
MISERE_AMOUNT = 10  # the usual club amount, from each other player, never multiplied
#: The highest amount a club may set for a poignée or a misère.
HOUSE_AMOUNT_MAX = 1000


# --- House rules a club may switch on ------------------------------------------------------------


@dataclass(frozen=True)
class TarotRules(HouseRules):
    """The rules a deal is scored by: the federation's by default (see the module's docstring).

    Build one from stored data with `TarotRules.from_dict` (it validates); `as_dict` gives
    that data back. `FFT_RULES` is the default.
    """

    AMOUNTS: ClassVar[dict[str, tuple[int, int]]] = {
        "misere_amount": (1, HOUSE_AMOUNT_MAX),
        "poignee_simple": (1, HOUSE_AMOUNT_MAX),
        "poignee_double": (1, HOUSE_AMOUNT_MAX),
        "poignee_triple": (1, HOUSE_AMOUNT_MAX),
    }
    misere_tete: bool = False
    misere_atout: bool = False
    misere_amount: int = MISERE_AMOUNT
    poignee_simple: int = POIGNEE_VALUES[Poignee.SIMPLE]
    poignee_double: int = POIGNEE_VALUES[Poignee.DOUBLE]
    poignee_triple: int = POIGNEE_VALUES[Poignee.TRIPLE]

    @property
    def poignee_values(self) -> dict[Poignee, int]:
        return {
            Poignee.SIMPLE: self.poignee_simple,
            Poignee.DOUBLE: self.poignee_double,
            Poignee.TRIPLE: self.poignee_triple,
        }

    @property
    def miseres(self) -> tuple[Misere, ...]:
        """The misères the club plays with, in the order the deal screen shows them."""
        return tuple(
            kind
            for kind, on in ((Misere.TETE, self.misere_tete), (Misere.ATOUT, self.misere_atout))
            if on
        )

    @property
    def is_default(self) -> bool:
        """True when a deal is scored exactly by the rulebook (a misère amount that is not
        used changes nothing)."""
        return not self.miseres and self.poignee_values == POIGNEE_VALUES

    is_federation = is_default


# --- What can be wrong with a deal ---------------------------------------------------------------

ERR_TABLE_SIZE = _("French Tarot is played by 3, 4 or 5 players, not %(count)s.")
ERR_EMPTY_SEAT = _("Seat %(seat)s has no player.")
ERR_DUPLICATE_SEAT = _("%(player)s is seated twice at the table.")
ERR_UNKNOWN_TAKER = _("The taker %(player)s is not seated at this table.")
ERR_PARTNER_TABLE_SIZE = _(
    "Only at 5 players does the taker call a partner; this table has %(count)s players."
)
ERR_UNKNOWN_PARTNER = _("The partner %(player)s is not seated at this table.")
ERR_CONTRACT = _("The contract is prise, garde, garde sans or garde contre, not %(value)s.")
ERR_BOUTS = _("The attack holds 0, 1, 2 or 3 bouts, not %(value)s.")
ERR_POINTS_NOT_A_NUMBER = _(
    "The attack's points must be a number such as 41 or 40.5, not %(value)s."
)
ERR_POINTS_DIGITS = _(
    "Type the attack's points with the digits 0 to 9, such as 41 or 40.5, not %(value)s."
)
ERR_POINTS_HALVES = _("The attack's points go by halves (such as 40 or 40.5), not %(value)s.")
ERR_POINTS_RANGE = _("The attack's points are between 0 and 91, not %(value)s.")
ERR_POINTS_TOO_FEW_FOR_BOUTS = _(
    "Holding %(bouts)s of the 3 bouts (4½ points each), the attack has at least %(minimum)s "
    "points, not %(points)s."
)
ERR_POINTS_TOO_MANY_FOR_BOUTS = _(
    "The defence holds %(defence_bouts)s of the 3 bouts (4½ points each), so the attack has at "
    "most %(maximum)s points, not %(points)s."
)
ERR_SIDE = _("The petit au bout goes to the attack or to the defence, not %(value)s.")
ERR_PETIT_AU_BOUT_ATTACK_NO_BOUT = _(
    "The attack took the petit au bout, so it holds the Petit: it cannot have 0 bouts."
)
ERR_PETIT_AU_BOUT_DEFENCE_ALL_BOUTS = _(
    "The defence took the petit au bout, so it holds the Petit: the attack cannot have all 3 bouts."
)
ERR_POIGNEE_SHAPE = _("Each poignée names one player and its size (simple, double or triple).")
ERR_POIGNEE_KIND = _("A poignée is simple, double or triple, not %(value)s.")
ERR_UNKNOWN_POIGNEE_PLAYER = _("%(player)s declared a poignée but is not seated at this table.")
ERR_DUPLICATE_POIGNEE = _("%(player)s can declare only one poignée in a deal.")
ERR_POIGNEES_TOO_MANY_TRUMPS = _(
    "These poignées need at least %(needed)s trumps at %(count)s players, but only 22 cards "
    "can be shown (21 trumps and the Excuse)."
)
ERR_CHELEM = _(
    "The slam is none, announced and made, made without announcement, announced and failed, "
    "or made by the defence, not %(value)s."
)
# The bouts held are said "1 of the 3 bouts": the noun agrees with the 3, whatever is held.
ERR_CHELEM_ATTACK_LOST = _(
    "The attack made a slam, so it won the contract, but %(points)s points with %(bouts)s of "
    "the 3 bouts is a lost contract."
)
ERR_CHELEM_DEFENCE_WON = _(
    "The defence made a slam, so the attack lost the contract, but %(points)s points with "
    "%(bouts)s of the 3 bouts is a won contract."
)
ERR_SLAM_ATTACK_CARDS = _(
    "The attack made a slam, so the defence kept at most the Excuse: the attack has 3 bouts "
    "and 91 points, or 2 bouts and at least 86½ points, not %(points)s points with %(bouts)s of "
    "the 3 bouts."
)
ERR_SLAM_GARDE_CONTRE_POINTS = _(
    "The attack made a slam in a garde contre: only the chien (%(chien)s points at most) and "
    "perhaps the Excuse count for the defence, so the attack has at least %(minimum)s points, "
    "not %(points)s."
)
ERR_SLAM_DEFENCE_CARDS = _(
    "The defence made a slam, so the attack took no trick and holds at most the Excuse: at most "
    "1 bout and 4½ points, not %(points)s points with %(bouts)s of the 3 bouts."
)
ERR_SLAM_DEFENCE_GARDE_SANS_POINTS = _(
    "The defence made a slam in a garde sans, so the attack holds only the chien and perhaps the "
    "Excuse: at most %(maximum)s points, not %(points)s."
)
ERR_PETIT_AU_BOUT_AGAINST_ATTACK_SLAM = _(
    "The attack made a slam, so it won the last trick: the defence cannot have the petit au bout."
)
ERR_PETIT_AU_BOUT_AGAINST_DEFENCE_SLAM = _(
    "The defence made a slam, so it won the last trick: the attack cannot have the petit au bout."
)


ERR_MISERE_SHAPE = _("Each misère names one player and its kind (de tête or d'atout).")
ERR_MISERE_KIND = _("A misère is de tête or d'atout, not %(value)s.")
ERR_MISERE_OFF = _("This game is played without the misère %(kind)s.")
ERR_UNKNOWN_MISERE_PLAYER = _("%(player)s declared a misère but is not seated at this table.")
ERR_DUPLICATE_MISERE = _("%(player)s declared the same misère twice.")
ERR_MISERE_ATOUT_POIGNEE = _(
    "%(player)s declared a misère d'atout (no trump in hand), so cannot show a poignée."
)


# --- The score -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealScore:
    """The score of one deal with the breakdown a player needs to check it.

    Every bonus is signed from the attack's view; each defender scores ``-unit``.
    """

    seats: tuple[Player, ...]
    taker: Player
    partner: Player | None  # None when the taker plays alone
    attack: tuple[Player, ...]  # in seat order
    defence: tuple[Player, ...]  # in seat order
    contract: Contract
    bouts: int
    points: Fraction  # as entered
    target: int
    rounded_points: int  # after the half-point rule
    won: bool
    gap: int
    multiplier: int
    contract_part: int
    petit_au_bout: Side | None
    petit_au_bout_bonus: int
    poignees: tuple[tuple[Player, Poignee], ...]  # in seat order
    poignee_bonus: int
    chelem: Chelem
    chelem_bonus: int
    unit: int
    scores: dict[Player, int] = field(hash=False)  # in seat order, sums to 0
    #: House rules: the misères declared, in seat order, and what they moved (sums to 0;
    #: already in ``scores``).
    miseres: tuple[tuple[Player, Misere], ...] = ()
    misere_scores: dict[Player, int] = field(default_factory=dict, hash=False)
    rules: TarotRules = field(default=None, hash=False)  # type: ignore[assignment]


def score_deal(
    *,
    seats: Iterable[Player],
    taker: Player,
    contract: Contract | str,
    bouts: int,
    points: Any,
    partner: Player | None = None,
    petit_au_bout: Side | str | None = None,
    poignees: Iterable[tuple[Player, Poignee | str]] | Mapping[Player, Poignee | str] = (),
    chelem: Chelem | str = Chelem.NONE,
    miseres: Iterable[tuple[Player, Misere | str]] = (),
    rules: TarotRules | None = None,
) -> DealScore:
    """Score one deal; raise ``RuleError`` if it could not have been played.

    ``rules`` are the house rules (`FFT_RULES`, the federation's, by default); ``miseres`` the
    misères declared, as (player, kind) pairs, refused unless ``rules`` switch them on.
    """
    rules = FFT_RULES if rules is None else rules
    if not isinstance(rules, TarotRules):
        raise TypeError("rules must be a TarotRules")
    seats = _check_seats(seats)
    if taker not in seats:
        raise RuleError(ERR_UNKNOWN_TAKER, player=taker)
    taker = seats[seats.index(taker)]  # the key exactly as seated
    partner = _check_partner(seats, taker, partner)
    contract = _enum(Contract, contract, ERR_CONTRACT)
    bouts = parse_bouts(bouts)
    points = parse_points(points)
    _check_points_for_bouts(points, bouts)
    petit_au_bout = None if petit_au_bout is None else _enum(Side, petit_au_bout, ERR_SIDE)
    if petit_au_bout is Side.ATTACK and bouts == 0:
        raise RuleError(ERR_PETIT_AU_BOUT_ATTACK_NO_BOUT)
    if petit_au_bout is Side.DEFENCE and bouts == 3:
        raise RuleError(ERR_PETIT_AU_BOUT_DEFENCE_ALL_BOUTS)
    poignees = _check_poignees(seats, poignees)
    miseres = _check_miseres(seats, miseres, rules, poignees)
    chelem = _enum(Chelem, chelem, ERR_CHELEM)

    # 1-3. Target, half points to the side that wins, gap.
    target = TARGETS[bouts]
    won = points >= target
    rounded_points = math.ceil(points) if won else math.floor(points)  # 40½ → 40, 41½ → 42
    gap = abs(rounded_points - target)

    _check_chelem(chelem, won, petit_au_bout, points, bouts)
    _check_slam_cards(chelem, contract, bouts, points, len(seats))

    # 4-5. The unit each defender pays, signed from the attack's view.
    multiplier = MULTIPLIERS[contract]
    result_sign = 1 if won else -1
    contract_part = result_sign * (BASE + gap) * multiplier
    petit_au_bout_bonus = 0
    if petit_au_bout is Side.ATTACK:
        petit_au_bout_bonus = PETIT_AU_BOUT_VALUE * multiplier
    elif petit_au_bout is Side.DEFENCE:
        petit_au_bout_bonus = -PETIT_AU_BOUT_VALUE * multiplier
    values = rules.poignee_values
    poignee_bonus = result_sign * sum(values[kind] for _player, kind in poignees)
    chelem_bonus = CHELEM_BONUSES[chelem]
    unit = contract_part + petit_au_bout_bonus + poignee_bonus + chelem_bonus

    # 6. Shares: each defender -unit, the partner +unit, the taker the rest.
    attack = tuple(p for p in seats if p in (taker, partner))
    defence = tuple(p for p in seats if p not in attack)
    taker_units = len(defence) - (len(attack) - 1)
    share = {taker: taker_units * unit}
    if partner is not None:
        share[partner] = unit
    misere_scores = dict.fromkeys(seats, 0)
    for declarer, _kind in miseres:
        for p in seats:
            misere_scores[p] += rules.misere_amount * (len(seats) - 1 if p == declarer else -1)
    scores = {p: share.get(p, -unit) + misere_scores[p] for p in seats}
    # An invariant, not a user error: survives python -O.
    if sum(scores.values()) != 0 or sum(misere_scores.values()) != 0:
        raise AssertionError(f"Deal does not sum to zero: {scores!r}")

    return DealScore(
        seats=seats,
        taker=taker,
        partner=partner,
        attack=attack,
        defence=defence,
        contract=contract,
        bouts=bouts,
        points=points,
        target=target,
        rounded_points=rounded_points,
        won=won,
        gap=gap,
        multiplier=multiplier,
        contract_part=contract_part,
        petit_au_bout=petit_au_bout,
        petit_au_bout_bonus=petit_au_bout_bonus,
        poignees=poignees,
        poignee_bonus=poignee_bonus,
        chelem=chelem,
        chelem_bonus=chelem_bonus,
        unit=unit,
        scores=scores,
        miseres=miseres,
        misere_scores=misere_scores if miseres else {},
        rules=rules,
    )


FFT_RULES = TarotRules()
#: The protocol's names: the house rules' class and the rules as written.
Rules = TarotRules
DEFAULT_RULES = FFT_RULES


# --- Validation that forms can reuse -------------------------------------------------------------


def parse_points(value: Any) -> Fraction:
    """The attack's card points as a Fraction: a multiple of ½ from 0 to 91.

    Accepts int, Fraction, Decimal, float and the text a person types ("41", "40.5", "40,5",
    "40½", "½", with spaces around): see ``_parse_points_text``. Rejects bool, NaN,
    infinities and anything else with ``RuleError``, in a time that does not depend on the size
    of the value (no huge exponent is ever expanded).
    """
    if isinstance(value, bool):
        raise RuleError(ERR_POINTS_NOT_A_NUMBER, value=value)
    if isinstance(value, numbers.Rational):  # int, Fraction
        points = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise RuleError(ERR_POINTS_NOT_A_NUMBER, value=value)
        points = Fraction(value)
    elif isinstance(value, Decimal):
        points = _decimal_points(value)
    elif isinstance(value, str):
        points = _parse_points_text(value)
    else:
        raise RuleError(ERR_POINTS_NOT_A_NUMBER, value=shown(value))
    if (points * 2).denominator != 1:
        raise RuleError(ERR_POINTS_HALVES, value=shown(value))
    if not 0 <= points <= TOTAL_POINTS:
        raise RuleError(ERR_POINTS_RANGE, value=shown(value))
    return points


#: Text a person types as bouts: one ASCII digit, spaces around allowed.
_BOUTS_TEXT = re.compile(r"\s{0,4}(?P<digit>[0-9])\s{0,4}", re.ASCII)
BOUTS_TEXT_MAX_LENGTH = 9


def parse_bouts(value: Any) -> int:
    """The number of bouts held by the attack, 0 to 3 (an int, or one ASCII digit as text)."""
    if isinstance(value, str):
        match = typed_match(_BOUTS_TEXT, value, BOUTS_TEXT_MAX_LENGTH)
        if match is None:
            raise RuleError(ERR_BOUTS, value=shown(value))
        bouts: Any = int(match["digit"])
    elif isinstance(value, numbers.Integral) and not isinstance(value, bool):
        bouts = int(value)
    else:
        raise RuleError(ERR_BOUTS, value=shown(value))
    if bouts not in TARGETS:
        raise RuleError(ERR_BOUTS, value=shown(value))
    return bouts


def poignee_sizes(n_players: int) -> dict[Poignee, int]:
    """Trumps to show for a simple, double and triple poignée at a table of ``n_players``."""
    if n_players not in POIGNEE_SIZES:
        raise RuleError(ERR_TABLE_SIZE, count=n_players)
    return dict(POIGNEE_SIZES[n_players])


def format_points(points: Fraction) -> str:
    """Card points as a player writes them: ``40``, ``40½``."""
    whole, half = divmod(points * 2, 2)
    return f"{int(whole)}½" if half else str(int(whole))


# --- The checks ----------------------------------------------------------------------------------


def _check_seats(seats: Iterable[Player]) -> tuple[Player, ...]:
    if isinstance(seats, str | bytes):
        raise TypeError("seats must be a sequence of player keys, not a string")
    seats = tuple(seats)
    if len(seats) not in TABLE_SIZES:
        raise RuleError(ERR_TABLE_SIZE, count=len(seats))
    seen: set[Player] = set()
    for number, player in enumerate(seats, start=1):
        if player is None or player == "":
            raise RuleError(ERR_EMPTY_SEAT, seat=number)
        if player in seen:
            raise RuleError(ERR_DUPLICATE_SEAT, player=player)
        seen.add(player)
    return seats


def _check_partner(
    seats: tuple[Player, ...], taker: Player, partner: Player | None
) -> Player | None:
    """The called partner, or None when the taker plays alone (called himself or the chien)."""
    if partner is None:
        return None
    if len(seats) != 5:
        raise RuleError(ERR_PARTNER_TABLE_SIZE, count=len(seats))
    if partner not in seats:
        raise RuleError(ERR_UNKNOWN_PARTNER, player=partner)
    partner = seats[seats.index(partner)]  # the key exactly as seated
    return None if partner == taker else partner


def _check_points_for_bouts(points: Fraction, bouts: int) -> None:
    """Each bout is worth at least 4 points to the side that holds it."""
    minimum = BOUT_MIN_POINTS * bouts
    maximum = TOTAL_POINTS - BOUT_MIN_POINTS * (3 - bouts)
    if points < minimum:
        raise RuleError(
            ERR_POINTS_TOO_FEW_FOR_BOUTS,
            bouts=bouts,
            minimum=minimum,
            points=format_points(points),
        )
    if points > maximum:
        raise RuleError(
            ERR_POINTS_TOO_MANY_FOR_BOUTS,
            bouts=bouts,
            maximum=maximum,
            defence_bouts=3 - bouts,
            points=format_points(points),
        )


def _check_poignees(
    seats: tuple[Player, ...],
    poignees: Iterable[tuple[Player, Poignee | str]] | Mapping[Player, Poignee | str],
) -> tuple[tuple[Player, Poignee], ...]:
    """At most one poignée per seated player, and no more trumps shown than exist."""
    pairs = poignees.items() if isinstance(poignees, Mapping) else poignees
    declared: dict[Player, Poignee] = {}
    for pair in pairs:
        if isinstance(pair, str | bytes):
            raise RuleError(ERR_POIGNEE_SHAPE)
        try:
            player, kind = pair
        except (TypeError, ValueError):
            raise RuleError(ERR_POIGNEE_SHAPE) from None
        if player not in seats:
            raise RuleError(ERR_UNKNOWN_POIGNEE_PLAYER, player=player)
        if player in declared:
            raise RuleError(ERR_DUPLICATE_POIGNEE, player=player)
        declared[player] = _enum(Poignee, kind, ERR_POIGNEE_KIND)
    sizes = POIGNEE_SIZES[len(seats)]
    needed = sum(sizes[kind] for kind in declared.values())
    if needed > SHOWABLE_CARDS:
        raise RuleError(ERR_POIGNEES_TOO_MANY_TRUMPS, needed=needed, count=len(seats))
    return tuple((p, declared[p]) for p in seats if p in declared)


def _check_miseres(
    seats: tuple[Player, ...],
    miseres: Iterable[tuple[Player, Misere | str]],
    rules: TarotRules,
    poignees: tuple[tuple[Player, Poignee], ...],
) -> tuple[tuple[Player, Misere], ...]:
    """Each misère by a seated player, of a kind the house rules switch on, at most once each
    (a player may declare both kinds); no poignée beside a misère d'atout."""
    if isinstance(miseres, str | bytes | Mapping):
        raise RuleError(ERR_MISERE_SHAPE)
    declared: list[tuple[Player, Misere]] = []
    for pair in miseres:
        if isinstance(pair, str | bytes):
            raise RuleError(ERR_MISERE_SHAPE)
        try:
            player, kind = pair
        except (TypeError, ValueError):
            raise RuleError(ERR_MISERE_SHAPE) from None
        try:
            seated = player in seats
        except TypeError:
            seated = False
        if not seated:
            raise RuleError(ERR_UNKNOWN_MISERE_PLAYER, player=shown(player))
        kind = _enum(Misere, kind, ERR_MISERE_KIND)
        if kind not in rules.miseres:
            raise RuleError(ERR_MISERE_OFF, kind=MISERE_NAMES[kind])
        player = seats[seats.index(player)]
        if (player, kind) in declared:
            raise RuleError(ERR_DUPLICATE_MISERE, player=player)
        declared.append((player, kind))
    showing = {p for p, _kind in poignees}
    for player, kind in declared:
        if kind is Misere.ATOUT and player in showing:
            raise RuleError(ERR_MISERE_ATOUT_POIGNEE, player=player)
    order = {kind: i for i, kind in enumerate(Misere)}
    return tuple(sorted(declared, key=lambda pk: (seats.index(pk[0]), order[pk[1]])))


#: How a message names each misère (French words every club uses, in every language).
MISERE_NAMES = {Misere.TETE: "de tête", Misere.ATOUT: "d'atout"}


def _check_chelem(
    chelem: Chelem, won: bool, petit_au_bout: Side | None, points: Fraction, bouts: int
) -> None:
    """The side with the slam won the contract and the last trick.

    (When the slam side plays the Excuse last, the Petit in the penultimate trick counts as
    "au bout" for it, so a petit au bout for the slam side is always fine.) A slam announced
    and failed says nothing about who won.
    """
    if chelem in ATTACK_SLAMS:
        if not won:
            raise RuleError(ERR_CHELEM_ATTACK_LOST, points=format_points(points), bouts=bouts)
        if petit_au_bout is Side.DEFENCE:
            raise RuleError(ERR_PETIT_AU_BOUT_AGAINST_ATTACK_SLAM)
    elif chelem is Chelem.DEFENCE:
        if won:
            raise RuleError(ERR_CHELEM_DEFENCE_WON, points=format_points(points), bouts=bouts)
        if petit_au_bout is Side.ATTACK:
            raise RuleError(ERR_PETIT_AU_BOUT_AGAINST_DEFENCE_SLAM)


#: Cards in the chien by table size (fft.md, "Deal shape by table size").
CHIEN_CARDS = {3: 6, 4: 6, 5: 3}
#: The most card points one card holds: a bout or a king, 4½.
CARD_MAX = Fraction(9, 2)


def slam_bounds(
    chelem: Chelem, contract: Contract, bouts: int, players: int
) -> tuple[Fraction, Fraction] | None:
    """The attack's card points a made slam leaves possible with `bouts`, as (lowest, highest),
    or None when the slam leaves the attack no such number of bouts (fft.md, "What a slam leaves
    to the other side"). Every other deal: (0, 91). The bout limits (4 points a bout) apply on
    top of these.

    - An attack slam, except in a garde contre: the defence kept at most the Excuse, so 3 bouts
      and 91 points, or 2 bouts and at least 86½.
    - An attack slam in a garde contre: the chien counts for the defence (at most 4½ a card:
      27 points at 3 or 4 players, 13½ at 5), and perhaps the Excuse, so the attack has at least
      91 − chien − 4½, with the bouts that were played.
    - A defence slam: the attack took no trick and holds at most the Excuse: at most 1 bout and
      4½ points; in a garde sans the chien is the attack's too: at most 4½ + the chien's points.
    """
    chien = CHIEN_CARDS[players] * CARD_MAX
    if chelem in ATTACK_SLAMS:
        if contract is Contract.GARDE_CONTRE:
            return (TOTAL_POINTS - chien - CARD_MAX, Fraction(TOTAL_POINTS))
        if bouts == 3:
            return (Fraction(TOTAL_POINTS), Fraction(TOTAL_POINTS))
        if bouts == 2:
            return (TOTAL_POINTS - CARD_MAX, Fraction(TOTAL_POINTS))
        return None
    if chelem is Chelem.DEFENCE:
        if contract is Contract.GARDE_SANS:
            return (Fraction(0), CARD_MAX + chien)
        return (Fraction(0), CARD_MAX) if bouts <= 1 else None
    return (Fraction(0), Fraction(TOTAL_POINTS))


def _check_slam_cards(
    chelem: Chelem, contract: Contract, bouts: int, points: Fraction, players: int
) -> None:
    """A made slam leaves the other side only the cards `slam_bounds` says."""
    bounds = slam_bounds(chelem, contract, bouts, players)
    if bounds is not None and bounds[0] <= points <= bounds[1]:
        return
    shown = {"bouts": bouts, "points": format_points(points)}
    if chelem in ATTACK_SLAMS:
        if contract is Contract.GARDE_CONTRE:
            raise RuleError(
                ERR_SLAM_GARDE_CONTRE_POINTS,
                chien=format_points(CHIEN_CARDS[players] * CARD_MAX),
                minimum=format_points(bounds[0]),
                points=format_points(points),
            )
        raise RuleError(ERR_SLAM_ATTACK_CARDS, **shown)
    if contract is Contract.GARDE_SANS:
        raise RuleError(
            ERR_SLAM_DEFENCE_GARDE_SANS_POINTS,
            maximum=format_points(bounds[1]),
            points=format_points(points),
        )
    raise RuleError(ERR_SLAM_DEFENCE_CARDS, **shown)


def _enum(kind: type[StrEnum], value: Any, template: str) -> Any:
    """``value`` as a member of ``kind`` (the member itself or its string value)."""
    try:
        return kind(value)
    except (ValueError, TypeError):
        raise RuleError(template, value=value) from None


#: Longest text accepted as card points (" 40,5 " is 6); longer text is refused unread.
POINTS_TEXT_MAX_LENGTH = 16

#: What a person types as card points, and nothing else: up to 3 ASCII digits (more are
#: captured only to say "between 0 and 91"), then "." or "," and a digit, or "½" (alone or
#: right after the digits). A leading "-" is captured only to say "between 0 and 91".
#: No exponent, underscore, "+", other script's digit, nan or infinity; every quantifier is
#: bounded, so matching never takes long.
_POINTS_TEXT = re.compile(
    r"\s{0,16}(?:"
    r"(?P<minus>-)?(?P<whole>[0-9]{0,6})(?:[.,](?P<decimals>[0-9]{1,6}))?"
    r"|(?P<half_whole>[0-9]{0,6}) ?(?P<half>½)"
    r")\s{0,16}",
    re.ASCII,
)


def _parse_points_text(text: str) -> Fraction:
    """Points typed by a player: "41", "40.5", "40,5", "40½", "½", " 41 ".

    The length is checked first, then the regex; only the few digits it captured are
    converted, so a refusal costs the same whatever the text holds.
    """
    match = typed_match(_POINTS_TEXT, text, POINTS_TEXT_MAX_LENGTH)
    if match is None:
        foreign = len(text) <= POINTS_TEXT_MAX_LENGTH and has_foreign_digits(text)
        raise RuleError(
            ERR_POINTS_DIGITS if foreign else ERR_POINTS_NOT_A_NUMBER, value=shown(text)
        )
    if match["half"]:
        whole, decimals = match["half_whole"], None
        points = Fraction(int(whole or "0")) + Fraction(1, 2)
    else:
        whole, decimals = match["whole"], match["decimals"]
        if not whole and decimals is None:  # "", "-", spaces only
            raise RuleError(ERR_POINTS_NOT_A_NUMBER, value=shown(text))
        points = Fraction(int(whole or "0"))
        if decimals is not None:
            points += Fraction(int(decimals), 10 ** len(decimals))
    if match["minus"] or len(whole) > 3:
        raise RuleError(ERR_POINTS_RANGE, value=shown(text))
    return points


def _decimal_points(value: Decimal) -> Fraction:
    """A Decimal as a Fraction, refusing what is not a number, out of range or finer than ½.

    ``Fraction(Decimal("1e30000000"))`` would expand the exponent for minutes: the range is
    compared first, and trailing zeros are dropped before the digits after the point are read.
    """
    if not value.is_finite():
        raise RuleError(ERR_POINTS_NOT_A_NUMBER, value=shown(value))
    if not 0 <= value <= TOTAL_POINTS:
        raise RuleError(ERR_POINTS_RANGE, value=shown(value))
    if value.is_zero():
        return Fraction(0)
    _sign, digits, exponent = value.as_tuple()
    kept = len(digits)
    while kept > 1 and digits[kept - 1] == 0 and exponent < 0:
        kept -= 1
        exponent += 1
    if exponent < -1:  # a digit beyond the tenths is not zero: not a half
        raise RuleError(ERR_POINTS_HALVES, value=shown(value))
    coefficient = int("".join(map(str, digits[:kept])))
    return Fraction(coefficient) * Fraction(10) ** exponent


__all__ = [
    "ATTACK_SLAMS",
    "BASE",
    "CHELEM_BONUSES",
    "CONTRACT_LABELS",
    "MULTIPLIERS",
    "PETIT_AU_BOUT_VALUE",
    "POIGNEE_SIZES",
    "POIGNEE_VALUES",
    "SHOWABLE_CARDS",
    "SIDE_LABELS",
    "TABLE_SIZES",
    "TARGETS",
    "CHIEN_CARDS",
    "FFT_RULES",
    "MISERE_AMOUNT",
    "Chelem",
    "Contract",
    "DealScore",
    "Misere",
    "TarotRules",
    "Poignee",
    "Side",
    "format_points",
    "parse_bouts",
    "parse_points",
    "poignee_sizes",
    "score_deal",
    "slam_bounds",
]
