"""Death's Pot: an old gambling game for 2 to 6 players; points are stakes paid into a pot.

The web app stores each deal and replays the game with :func:`play` after every entry. A deal
is a dict with either ``"death": player`` (that player showed trump 13) or the honours
``"excuse"``, ``"trump1"``, ``"trump11"`` (the player who showed it, or None / left out) and
``"tricks"`` (player -> tricks taken, every player present, adding up to 12). Keys whose value
is None count as left out, so a form may always send every key.

How this module reads the rules of ``rules/variants.md`` (one consistent reading):

- **The pot is never empty between payments.** Every player pays one stake (the *ante*) when
  the game starts and again right after any payment that empties the pot: Death taking it,
  an honour that takes the last of it, the tricks winner taking what is left. So the ante
  that follows the end of a deal belongs to that deal's record, and every deal starts with
  something in the pot. The opening ante is kept in ``state.opening``.
- Death: its holder takes the whole pot, everyone antes, the deal ends. A Death deal carries
  no honours and no tricks.
- Honours are paid in the order Excuse (1 stake), trump 1 (1 stake), trump 11 (2 stakes),
  each capped at what the pot holds (the rest is lost, not paid from the next ante); when a
  payment empties the pot everyone antes before the next honour is paid.
- Tricks: the single player with the most tricks takes the whole pot, then everyone antes.
  If the most tricks are shared the pot stays for the next deal (house default).
- ``stake`` (a positive whole number, the unit agreed before play) multiplies every payment;
  all amounts in the state are in those units times ``stake``.
- Seating: ``players`` are listed in playing order, the order the site seats every table in:
  play goes anticlockwise, so each next player sits on the right of the one before. The deal
  passes anticlockwise too, i.e. to the right, so it follows that order: ``players[0]`` deals
  first, then ``players[1]``, ``players[2]``, and so on.

**House rule** (`DeathsPotRules`, passed as ``rules=``; the default is the house default):
``tie_pot`` says what happens to the pot when the most tricks are shared: ``"stays"`` (it
stays for the next deal) or ``"shared"`` (the tied players share it equally, each taking the
same whole number of stakes; what cannot be shared evenly stays in the pot, and if nothing
stays everyone antes as after any payment that empties the pot).

Invariant, checked after every payment: ``sum(balances.values()) + pot == 0``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, ClassVar

from scoring import RuleError, _
from scoring._common import (  # noqa: F401  (re-exported: the messages of this module)
    ERR_NOT_PLAYING,
    ERR_PLAYER_NAME,
    ERR_PLAYER_TWICE,
    ERR_PLAYERS_TYPE,
    ERR_TRICKS_BELOW_ZERO,
    ERR_TRICKS_MISSING_FOR,
    ERR_TRICKS_NOT_WHOLE,
    HouseRules,
    Option,
    check_counts,
    check_players,
    is_int,
    replay,
    trick_errors,
)

Player = Hashable

MIN_PLAYERS = 2
MAX_PLAYERS = 6
TRICKS_PER_DEAL = 12

# Kinds of payment, in the order they can happen in a deal.
ANTE = "ante"
DEATH = "death"
EXCUSE = "excuse"
TRUMP1 = "trump1"
TRUMP11 = "trump11"
TRICKS = "tricks"

#: Honours in the order they are paid, with their value in stakes.
HONOURS: tuple[tuple[str, int], ...] = ((EXCUSE, 1), (TRUMP1, 1), (TRUMP11, 2))
DEAL_FIELDS = frozenset({DEATH, EXCUSE, TRUMP1, TRUMP11, TRICKS})

ERR_PLAYER_COUNT = _("Death's Pot is played by 2 to 6 players, not %(count)s.")
ERR_STAKE = _("The stake must be a whole number of at least 1.")
ERR_DEALS_TYPE = _("The deals must be given as a list.")
ERR_DEAL_TYPE = _("A deal must say who held Death, or the honours and the tricks.")
ERR_DEAL_FIELD = _("A deal cannot record %(field)s.")
ERR_UNKNOWN_PLAYER = ERR_NOT_PLAYING
ERR_DEATH_ALONE = _(
    "When Death is shown its holder takes the pot and the deal ends: "
    "record no honours and no tricks with it."
)
ERR_TRICKS_MISSING = _("Record the tricks each player took (or who held Death).")
ERR_TRICKS_TYPE = _("The tricks must be given for each player.")
ERR_MISSING_PLAYER = ERR_TRICKS_MISSING_FOR
ERR_TRICKS_INT = ERR_TRICKS_NOT_WHOLE
ERR_TRICKS_NEGATIVE = ERR_TRICKS_BELOW_ZERO
ERR_TRICKS_TOTAL = _("The tricks of a deal must add up to 12, not %(total)s.")

#: The setting a game starts with: the unit every payment is counted in.
OPTIONS = (Option("stake", _("Stake (units per payment)"), default=1, low=1, high=1000),)

TIE_POT_STAYS = "stays"
TIE_POT_SHARED = "shared"


@dataclass(frozen=True)
class DeathsPotRules(HouseRules):
    """The pot on a tie for most tricks: it stays (house default) or the tied players share it."""

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"tie_pot": (TIE_POT_STAYS, TIE_POT_SHARED)}
    tie_pot: str = TIE_POT_STAYS


#: The protocol's names: the house rules' class and the rules as written.
Rules = DeathsPotRules
DEFAULT_RULES = DeathsPotRules()

_TRICK_ERRORS = trick_errors(not_a_mapping=ERR_TRICKS_TYPE, total=ERR_TRICKS_TOTAL)


@dataclass(frozen=True)
class Payment:
    """One movement of stakes between a player and the pot.

    ``amount`` is the change to the player's balance: negative for an ante (paid into the
    pot), positive for a win (taken from the pot). ``pot`` is what the pot holds afterwards.
    ``capped`` is True when an honour was worth more than the pot held.
    """

    kind: str  # ANTE, DEATH, EXCUSE, TRUMP1, TRUMP11 or TRICKS
    player: Player
    amount: int
    pot: int
    capped: bool = False


@dataclass(frozen=True)
class DealResult:
    """One deal as the score sheet shows it."""

    number: int  # 1, 2, ...
    dealer: Player
    death: Player | None
    honours: dict[str, Player]  # kind -> holder, only the honours shown
    tricks: dict[Player, int] | None  # None in a Death deal
    tricks_winner: Player | None
    tied: tuple[Player, ...]  # players sharing the most tricks (the pot stayed or was shared)
    payments: tuple[Payment, ...]  # in order, antes included
    balances: dict[Player, int]  # after the deal
    pot: int  # after the deal


@dataclass(frozen=True)
class DeathsPotState:
    """A game after its recorded deals; ``dealer`` deals the next one."""

    players: tuple[Player, ...]
    stake: int
    balances: dict[Player, int]
    pot: int
    dealer: Player
    opening: tuple[Payment, ...]  # the opening ante
    history: tuple[DealResult, ...]
    # The rules never end a game of Death's Pot: the players stop when they like.
    finished: bool = False
    winner: Player | None = None
    rules: DeathsPotRules = dataclass_field(default=DEFAULT_RULES)


def _check_players(players: Any) -> tuple[Player, ...]:
    return check_players(players, low=MIN_PLAYERS, high=MAX_PLAYERS, count_error=ERR_PLAYER_COUNT)


class _Ledger:
    """Balances and pot while a deal is worked out; every payment is logged."""

    def __init__(self, players: tuple[Player, ...], stake: int, balances: dict, pot: int):
        self.players = players
        self.stake = stake
        self.balances = dict(balances)
        self.pot = pot
        self.payments: list[Payment] = []

    def _log(self, payment: Payment) -> None:
        self.payments.append(payment)
        assert sum(self.balances.values()) + self.pot == 0, "Death's Pot is no longer zero-sum"

    def ante(self) -> None:
        for player in self.players:
            self.balances[player] -= self.stake
            self.pot += self.stake
            self._log(Payment(ANTE, player, -self.stake, self.pot))

    def pay(self, kind: str, player: Player, due: int | None = None, ante: bool = True) -> None:
        """Pay ``due`` (all of the pot when None) to ``player``, capped; ante if emptied
        (unless ``ante`` is False: a share of the pot, the ante follows the last share)."""
        amount = self.pot if due is None else min(due, self.pot)
        self.balances[player] += amount
        self.pot -= amount
        self._log(Payment(kind, player, amount, self.pot, capped=due is not None and amount < due))
        if self.pot == 0 and ante:
            self.ante()

    def share(self, players: tuple[Player, ...]) -> None:
        """Share the pot equally among ``players`` in whole stakes; the rest stays."""
        each = self.pot // len(players)
        if each:
            for player in players:
                self.pay(TRICKS, player, each, ante=False)
        if self.pot == 0:
            self.ante()


def start(
    players: Sequence[Player], stake: int = 1, rules: DeathsPotRules | None = None
) -> DeathsPotState:
    """A new game: everyone pays the opening ante, ``players[0]`` deals first."""
    seats = _check_players(players)
    rules = DEFAULT_RULES if rules is None else rules
    if not isinstance(rules, DeathsPotRules):
        raise TypeError("rules must be DeathsPotRules")
    if not is_int(stake) or stake < 1:
        raise RuleError(ERR_STAKE)
    ledger = _Ledger(seats, stake, dict.fromkeys(seats, 0), 0)
    ledger.ante()
    return DeathsPotState(
        players=seats,
        stake=stake,
        balances=ledger.balances,
        pot=ledger.pot,
        dealer=seats[0],
        opening=tuple(ledger.payments),
        history=(),
        rules=rules,
    )


def _check_holder(players: tuple[Player, ...], holder: Any) -> None:
    try:
        known = holder in players
    except TypeError:
        known = False
    if not known:
        raise RuleError(ERR_UNKNOWN_PLAYER, player=holder)


def _check_tricks(players: tuple[Player, ...], tricks: Any) -> dict[Player, int]:
    if tricks is None:
        raise RuleError(ERR_TRICKS_MISSING)
    return check_counts(players, tricks, total=TRICKS_PER_DEAL, errors=_TRICK_ERRORS)


def check_deal(players: Sequence[Player], deal: Any) -> dict[str, Any]:
    """Validate one deal; return it with every field present (None when not shown)."""
    seats = tuple(players)
    if not isinstance(deal, Mapping):
        raise RuleError(ERR_DEAL_TYPE)
    for field in deal:
        if field not in DEAL_FIELDS:
            raise RuleError(ERR_DEAL_FIELD, field=field)
    clean: dict[str, Any] = {field: deal.get(field) for field in DEAL_FIELDS}
    for field in (DEATH, EXCUSE, TRUMP1, TRUMP11):
        if clean[field] is not None:
            _check_holder(seats, clean[field])
    if clean[DEATH] is not None:
        if any(clean[kind] is not None for kind, _value in HONOURS) or clean[TRICKS] is not None:
            raise RuleError(ERR_DEATH_ALONE)
    else:
        clean[TRICKS] = _check_tricks(seats, clean[TRICKS])
    return clean


def play_deal(state: DeathsPotState, deal: Mapping[str, Any]) -> DeathsPotState:
    """The state after one more deal."""
    clean = check_deal(state.players, deal)
    ledger = _Ledger(state.players, state.stake, state.balances, state.pot)
    honours: dict[str, Player] = {}
    tricks_winner: Player | None = None
    tied: tuple[Player, ...] = ()
    if clean[DEATH] is not None:
        ledger.pay(DEATH, clean[DEATH])
    else:
        for kind, value in HONOURS:
            holder = clean[kind]
            if holder is not None:
                honours[kind] = holder
                ledger.pay(kind, holder, value * state.stake)
        tricks = clean[TRICKS]
        most = max(tricks.values())
        leaders = tuple(player for player in state.players if tricks[player] == most)
        if len(leaders) == 1:
            tricks_winner = leaders[0]
            ledger.pay(TRICKS, tricks_winner)
        else:
            tied = leaders  # house default: the pot stays for the next deal
            if state.rules.tie_pot == TIE_POT_SHARED:
                ledger.share(leaders)
    seat = state.players.index(state.dealer)
    result = DealResult(
        number=len(state.history) + 1,
        dealer=state.dealer,
        death=clean[DEATH],
        honours=honours,
        tricks=clean[TRICKS],
        tricks_winner=tricks_winner,
        tied=tied,
        payments=tuple(ledger.payments),
        balances=dict(ledger.balances),
        pot=ledger.pot,
    )
    return DeathsPotState(
        players=state.players,
        stake=state.stake,
        balances=ledger.balances,
        pot=ledger.pot,
        dealer=state.players[(seat + 1) % len(state.players)],  # to the right: the next seat
        opening=state.opening,
        history=(*state.history, result),
        rules=state.rules,
    )


def play(
    players: Sequence[Player],
    deals: Sequence[Mapping[str, Any]],
    stake: int = 1,
    rules: DeathsPotRules | None = None,
) -> DeathsPotState:
    """Replay a whole game from its deals; ``stake`` multiplies every payment."""
    return replay(start(players, stake, rules), step, deals, records_error=ERR_DEALS_TYPE)


#: One more record (a deal): the protocol's name for `play_deal`.
step = play_deal
