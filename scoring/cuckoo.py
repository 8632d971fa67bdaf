"""Cuckoo: a Scandinavian swapping game with lives, for 3 to 12 players.

The web app stores each deal and replays the match with :func:`play` after every entry. A deal
is a dict with ``"cards"`` (player -> final rank, for exactly the players taking part) and,
optionally, ``"swap_losses"`` (player -> lives lost to a Dragoon or a Cat during the swaps).
Ranks are the strings of :data:`RANKS` (case and surrounding spaces are ignored).

The rules of ``rules/variants.md``, and how this module reads them where they are silent:

- ``players`` are listed in seat order going clockwise; the dealer of the first deal is
  ``players[0]`` and after every deal (a skipped one too) the deal moves to the next seat in
  that order whose player is still alive (resting players are alive and can deal).
- The players taking part in a deal are exactly those alive and not resting
  (``state.taking_part``); ``cards`` must name exactly them.
- Swap losses come first. Each player has one turn in a deal, so the swaps cost any player at
  most one life. A loss means someone kept a Dragoon or a Cat (its holder refuses the swap), so
  one of the final cards is one, unless the loser is the dealer, who draws from the stock.
  A player brought to 0 by them leaves and is not compared. The record
  does not say in which order the swaps happened, so all players brought to 0 by the swaps of
  one deal count as leaving at the same moment.
- The remaining players taking part are then compared:
  no Fool - every player tied for the lowest card loses a life; one Fool - its holder and
  every other player tied for the lowest card among the others lose a life; two Fools - only
  the two holders lose a life. Fool holders still alive rest during the next deal.
- A deal with fewer than two players taking part is skipped without any loss. If fewer than
  two were dealt in, ``cards`` may be left empty and no swap loss can be recorded; if the
  swaps leave fewer than two to compare, the swap losses stand but nobody else loses a life.
  Nobody rests after a skipped deal: the players who rested come back.
- After every loss, if one player is left alive (resting or not) they win; if nobody is left,
  the players who left last all reached 0 at the same moment and the match is a draw.
- Players leaving at the same moment are listed in ``out`` in seat order.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring import RuleError, _
from scoring._common import (  # noqa: F401  (re-exported: the messages of this module)
    ERR_PLAYER_NAME,
    ERR_PLAYER_TWICE,
    ERR_PLAYERS_TYPE,
    Option,
    check_players,
    is_int,
    replay,
)

Player = Hashable

#: The 21 ranks from lowest to highest; the deck holds two of each.
RANKS: tuple[str, ...] = (
    "fool",
    "owl",
    "pot",
    "0",
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "house",
    "horse",
    "cat",
    "dragoon",
    "cuckoo",
)
FOOL = "fool"
#: The cards whose holder refuses a swap, and the asker loses a life.
GUARDS = frozenset({"dragoon", "cat"})
COPIES_PER_RANK = 2
MIN_PLAYERS = 3
MAX_PLAYERS = 12
DEAL_FIELDS = frozenset({"cards", "swap_losses"})

#: The setting a match starts with.
OPTIONS = (Option("lives", _("Lives per player"), default=3, low=1, high=10),)

_ORDER = {rank: position for position, rank in enumerate(RANKS)}
_LOOKUP = {rank.lower(): rank for rank in RANKS}

ERR_PLAYER_COUNT = _("Cuckoo is played by 3 to 12 players, not %(count)s.")
ERR_LIVES = _("Players start with a whole number of lives, at least 1.")
ERR_DEALS_TYPE = _("The deals must be given as a list.")
ERR_DEAL_TYPE = _("A deal must give the card each player taking part ended with.")
ERR_DEAL_FIELD = _("A deal cannot record %(field)s.")
ERR_GAME_OVER = _("This match is over. Start a new one.")
ERR_UNKNOWN_PLAYER = _("%(player)s is not playing in this match.")
ERR_PLAYER_OUT = _("%(player)s has no lives left and is out of the match.")
ERR_PLAYER_RESTING = _("%(player)s held a Fool in the last deal and rests during this one.")
ERR_CARD_MISSING = _("The card of %(player)s is missing.")
ERR_RANK = _("%(rank)s is not a Cuckoo card.")
ERR_RANK_COUNT = _("The deck holds two cards of each rank, but %(count)s players show %(rank)s.")
ERR_SWAPS_TYPE = _("Give the lives lost during the swaps as a number for each player.")
ERR_SWAP_INT = _("The lives %(player)s lost during the swaps must be a whole number.")
ERR_SWAP_NEGATIVE = _("The lives %(player)s lost during the swaps cannot be negative.")
# (lost > lives >= 1, so "lives" is plural; the count of lives left has no noun after it)
ERR_SWAP_TOO_MANY = _(
    "%(player)s cannot lose %(lost)s lives during the swaps: they have only %(lives)s left."
)
ERR_SWAP_ONE_TURN = _(
    "%(player)s has one turn in a deal, so the swaps cost them at most one life, not %(lost)s."
)
ERR_SWAP_NO_GUARD = _(
    "%(player)s lost a life during the swaps, so someone refused with a Dragoon or a Cat, but "
    "no final card is one. Only the dealer, drawing from the stock, loses a life without one."
)
ERR_SKIPPED_SWAPS = _(
    "Fewer than two players take part in this deal, so it is skipped: nobody loses a life."
)


@dataclass(frozen=True)
class DealResult:
    """One deal as the score sheet shows it."""

    number: int  # 1, 2, ...
    dealer: Player
    cards: dict[Player, str]  # final cards, in seat order
    swap_losses: dict[Player, int]  # lives lost during the swaps (players who lost some)
    compared: tuple[Player, ...]  # players in the final comparison (empty when skipped)
    skipped: bool  # no comparison: fewer than two players to compare
    fools: tuple[Player, ...]  # Fool holders among the compared players
    losers: tuple[Player, ...]  # players who lost a life in the comparison
    lives: dict[Player, int]  # after the deal
    out: tuple[Player, ...]  # players who left during this deal
    resting: tuple[Player, ...]  # players who rest during the next deal


@dataclass(frozen=True)
class CuckooState:
    """A match after its recorded deals.

    ``dealer`` deals the next deal and ``taking_part`` get a card in it (both None / empty
    once the match is over). ``out`` lists the players in the order they left.
    """

    players: tuple[Player, ...]
    starting_lives: int
    lives: dict[Player, int]
    resting: tuple[Player, ...]
    out: tuple[Player, ...]
    finished: bool
    winner: Player | None
    draw: bool
    dealer: Player | None
    taking_part: tuple[Player, ...]
    history: tuple[DealResult, ...]


def _check_players(players: Any) -> tuple[Player, ...]:
    return check_players(players, low=MIN_PLAYERS, high=MAX_PLAYERS, count_error=ERR_PLAYER_COUNT)


def rank_of(card: Any) -> str:
    """The rank in :data:`RANKS` spelling (``"Fool"`` -> ``"fool"``, ``"xii"`` -> ``"XII"``)."""
    rank = _LOOKUP.get(card.strip().lower()) if isinstance(card, str) else None
    if rank is None:
        raise RuleError(ERR_RANK, rank=card)
    return rank


def start(players: Sequence[Player], lives: int = 3) -> CuckooState:
    """A new match: everyone has ``lives`` lives, ``players[0]`` deals first."""
    seats = _check_players(players)
    if not is_int(lives) or lives < 1:
        raise RuleError(ERR_LIVES)
    return CuckooState(
        players=seats,
        starting_lives=lives,
        lives=dict.fromkeys(seats, lives),
        resting=(),
        out=(),
        finished=False,
        winner=None,
        draw=False,
        dealer=seats[0],
        taking_part=seats,
        history=(),
    )


def _check_named(state: CuckooState, player: Any) -> None:
    """RuleError unless ``player`` takes part in the next deal."""
    if player not in state.players:
        raise RuleError(ERR_UNKNOWN_PLAYER, player=player)
    if state.lives[player] == 0:
        raise RuleError(ERR_PLAYER_OUT, player=player)
    if player in state.resting:
        raise RuleError(ERR_PLAYER_RESTING, player=player)


def _check_deal(state: CuckooState, deal: Any) -> tuple[dict[Player, str], dict[Player, int]]:
    if not isinstance(deal, Mapping):
        raise RuleError(ERR_DEAL_TYPE)
    for field in deal:
        if field not in DEAL_FIELDS:
            raise RuleError(ERR_DEAL_FIELD, field=field)
    dealt_in = state.taking_part
    cards = deal.get("cards")
    if cards is None:
        cards = {}
    if not isinstance(cards, Mapping):
        raise RuleError(ERR_DEAL_TYPE)
    for player in cards:
        _check_named(state, player)
    if cards or len(dealt_in) >= 2:
        for player in dealt_in:
            if player not in cards:
                raise RuleError(ERR_CARD_MISSING, player=player)
    ranks = {player: rank_of(cards[player]) for player in dealt_in if player in cards}
    for rank in RANKS:
        count = sum(1 for held in ranks.values() if held == rank)
        if count > COPIES_PER_RANK:
            raise RuleError(ERR_RANK_COUNT, count=count, rank=rank)

    swaps = deal.get("swap_losses")
    if swaps is None:
        swaps = {}
    if not isinstance(swaps, Mapping):
        raise RuleError(ERR_SWAPS_TYPE)
    for player, lost in swaps.items():
        _check_named(state, player)
        if not is_int(lost):
            raise RuleError(ERR_SWAP_INT, player=player)
        if lost < 0:
            raise RuleError(ERR_SWAP_NEGATIVE, player=player)
        if lost > state.lives[player]:
            raise RuleError(ERR_SWAP_TOO_MANY, player=player, lives=state.lives[player], lost=lost)
        if lost > 1:
            raise RuleError(ERR_SWAP_ONE_TURN, player=player, lost=lost)
    losses = {player: swaps[player] for player in dealt_in if swaps.get(player, 0) > 0}
    if losses and len(dealt_in) < 2:
        raise RuleError(ERR_SKIPPED_SWAPS)
    guarded = any(rank in GUARDS for rank in ranks.values())
    for player in losses:
        if not guarded and player != state.dealer:
            raise RuleError(ERR_SWAP_NO_GUARD, player=player)
    return ranks, losses


def _lowest(players: Sequence[Player], ranks: Mapping[Player, str]) -> tuple[Player, ...]:
    bottom = min(_ORDER[ranks[player]] for player in players)
    return tuple(player for player in players if _ORDER[ranks[player]] == bottom)


def play_deal(state: CuckooState, deal: Mapping[str, Any]) -> CuckooState:
    """The state after one more deal."""
    if state.finished:
        raise RuleError(ERR_GAME_OVER)
    ranks, swap_losses = _check_deal(state, deal)
    seats = state.players
    lives = dict(state.lives)

    for player, lost in swap_losses.items():
        lives[player] -= lost
    # swap_losses is in seat order: players who left at the same moment stay in seat order
    out = [player for player in swap_losses if lives[player] == 0]

    compared = tuple(player for player in state.taking_part if lives[player] > 0)
    alive = [player for player in seats if lives[player] > 0]
    fools: tuple[Player, ...] = ()
    losers: tuple[Player, ...] = ()
    skipped = len(compared) < 2
    if skipped:
        compared = ()
    else:
        fools = tuple(player for player in compared if ranks[player] == FOOL)
        if not fools:
            losers = _lowest(compared, ranks)
        elif len(fools) == 1:
            lowest = _lowest([player for player in compared if player not in fools], ranks)
            losers = tuple(player for player in compared if player in fools or player in lowest)
        else:
            losers = fools
        for player in losers:
            lives[player] -= 1
        out += [player for player in losers if lives[player] == 0]
        alive = [player for player in seats if lives[player] > 0]

    finished = len(alive) < 2
    resting = () if finished else tuple(player for player in fools if lives[player] > 0)
    dealer: Player | None = None
    if not finished:
        seat = seats.index(state.dealer)
        dealer = next(
            seats[(seat + step) % len(seats)]
            for step in range(1, len(seats) + 1)
            if lives[seats[(seat + step) % len(seats)]] > 0
        )
    left = tuple(out)
    result = DealResult(
        number=len(state.history) + 1,
        dealer=state.dealer,
        cards=ranks,
        swap_losses=swap_losses,
        compared=compared,
        skipped=skipped,
        fools=fools,
        losers=losers,
        lives=dict(lives),
        out=left,
        resting=resting,
    )
    return CuckooState(
        players=seats,
        starting_lives=state.starting_lives,
        lives=lives,
        resting=resting,
        out=state.out + left,
        finished=finished,
        winner=alive[0] if len(alive) == 1 else None,
        draw=not alive,
        dealer=dealer,
        taking_part=() if finished else tuple(player for player in alive if player not in resting),
        history=(*state.history, result),
    )


#: One more record (a deal): the protocol's name for `play_deal`.
step = play_deal


def places(state: CuckooState) -> dict[Player, int]:
    """Final place of each player of a finished match: 1 for the winner (or every player of a
    draw); players who left together share a place, counted from the number still in after."""
    result: dict[Player, int] = {}
    alive = [p for p in state.players if state.lives[p] > 0]
    for p in alive:
        result[p] = 1
    remaining = len(alive)
    groups = [r.out for r in state.history if r.out]
    for group in reversed(groups):
        for p in group:
            result[p] = remaining + 1 if remaining else 1
        remaining += len(group)
    return result


def play(
    players: Sequence[Player], deals: Sequence[Mapping[str, Any]], lives: int = 3
) -> CuckooState:
    """Replay a whole match from its deals."""
    return replay(start(players, lives), step, deals, records_error=ERR_DEALS_TYPE)
