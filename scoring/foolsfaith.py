"""Fool's Faith: a trick-taking game for 3 to 5 players, won with 2 challenge cards.

The web app stores each round as a dict ``player -> tricks taken`` and replays the game with
:func:`play` after every entry. The rules (``rules/variants.md``):

- every round the tricks of all players add up to 8;
- the single player with the most tricks wins the round, takes as many challenge cards as
  the round is worth (its *stake*) and deals the next round;
- when two or more players share the most tricks nobody takes a card, the same dealer deals
  again (house default) and the next round is worth 2 cards; a further tie keeps it at 2;
- the game ends as soon as a player holds 2 cards (or more: a player holding 1 card who wins
  a round worth 2 ends with 3).

**House rule** (`FoolsFaithRules`, passed as ``rules=``; the default is the house default
above): ``tie_dealer`` says who deals after a tied round: ``"same"`` (the same dealer deals
again) or ``"next"`` (the deal passes to the next player, as after any round in a game with
no winner to take it: the next one in ``players``' order).

``players`` are any distinct hashable keys (ids or names), the first one being the first
dealer (the youngest player). Error messages name a player by that key.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
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
    replay,
    trick_errors,
)

Player = Hashable

MIN_PLAYERS = 3
MAX_PLAYERS = 5
TRICKS_PER_ROUND = 8
CARDS_TO_WIN = 2
TIE_STAKE = 2

ERR_PLAYER_COUNT = _("Fool's Faith is played by 3 to 5 players, not %(count)s.")
ERR_ROUNDS_TYPE = _("The rounds must be given as a list.")
ERR_ROUND_TYPE = _("A round must give the number of tricks each player took.")
ERR_UNKNOWN_PLAYER = ERR_NOT_PLAYING
ERR_MISSING_PLAYER = ERR_TRICKS_MISSING_FOR
ERR_TRICKS_TYPE = ERR_TRICKS_NOT_WHOLE
ERR_TRICKS_NEGATIVE = ERR_TRICKS_BELOW_ZERO
ERR_TRICKS_TOTAL = _("The tricks of a round must add up to 8, not %(total)s.")
ERR_GAME_OVER = _("This game is over: %(winner)s has won it. Start a new game.")

#: Fool's Faith starts with no setting.
OPTIONS: tuple[Option, ...] = ()

TIE_SAME_DEALER = "same"
TIE_NEXT_DEALER = "next"


@dataclass(frozen=True)
class FoolsFaithRules(HouseRules):
    """Who deals after a tied round: the same dealer (house default) or the next player."""

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "tie_dealer": (TIE_SAME_DEALER, TIE_NEXT_DEALER)
    }
    tie_dealer: str = TIE_SAME_DEALER


#: The protocol's names: the house rules' class and the rules as written.
Rules = FoolsFaithRules
DEFAULT_RULES = FoolsFaithRules()

_TRICK_ERRORS = trick_errors(not_a_mapping=ERR_ROUND_TYPE, total=ERR_TRICKS_TOTAL)


@dataclass(frozen=True)
class RoundResult:
    """One round as the score sheet shows it."""

    number: int  # 1, 2, ...
    dealer: Player
    stake: int  # challenge cards the round was worth (1 or 2)
    tricks: dict[Player, int]
    winner: Player | None  # None when the most tricks were shared
    tied: tuple[Player, ...]  # players who shared the most tricks (empty when there is a winner)
    cards_won: int  # challenge cards the winner took (0 after a tie)
    cards: dict[Player, int]  # challenge cards held after the round


@dataclass(frozen=True)
class FoolsFaithState:
    """A game after its recorded rounds.

    ``dealer`` deals the next round (None once the game is over); ``stake`` is what the next
    round is worth. ``tricks`` and ``rounds_won`` are totals over the game for standings.
    """

    players: tuple[Player, ...]
    cards: dict[Player, int]
    stake: int
    round_winners: tuple[Player | None, ...]
    finished: bool
    winner: Player | None
    dealer: Player | None
    tricks: dict[Player, int]
    rounds_won: dict[Player, int]
    history: tuple[RoundResult, ...]
    rules: FoolsFaithRules = field(default=DEFAULT_RULES)


def _check_players(players: Any) -> tuple[Player, ...]:
    return check_players(players, low=MIN_PLAYERS, high=MAX_PLAYERS, count_error=ERR_PLAYER_COUNT)


def start(players: Sequence[Player], rules: FoolsFaithRules | None = None) -> FoolsFaithState:
    """A new game: nobody holds a card, the first round is worth 1, ``players[0]`` deals."""
    seats = _check_players(players)
    rules = DEFAULT_RULES if rules is None else rules
    if not isinstance(rules, FoolsFaithRules):
        raise TypeError("rules must be FoolsFaithRules")
    return FoolsFaithState(
        players=seats,
        cards=dict.fromkeys(seats, 0),
        stake=1,
        round_winners=(),
        finished=False,
        winner=None,
        dealer=seats[0],
        tricks=dict.fromkeys(seats, 0),
        rounds_won=dict.fromkeys(seats, 0),
        history=(),
        rules=rules,
    )


def check_tricks(players: Sequence[Player], tricks: Any) -> dict[Player, int]:
    """Validate one round's ``player -> tricks`` and return it in seat order."""
    return check_counts(players, tricks, total=TRICKS_PER_ROUND, errors=_TRICK_ERRORS)


def play_round(state: FoolsFaithState, tricks: Mapping[Player, int]) -> FoolsFaithState:
    """The state after one more round (``tricks``: player -> tricks taken)."""
    if state.finished:
        raise RuleError(ERR_GAME_OVER, winner=state.winner)
    taken = check_tricks(state.players, tricks)
    most = max(taken.values())
    leaders = tuple(player for player in state.players if taken[player] == most)
    cards = dict(state.cards)
    rounds_won = dict(state.rounds_won)
    if len(leaders) == 1:
        winner: Player | None = leaders[0]
        tied: tuple[Player, ...] = ()
        cards_won = state.stake
        cards[winner] += cards_won
        rounds_won[winner] += 1
        dealer: Player | None = winner
        stake = 1
    else:
        winner, tied, cards_won = None, leaders, 0
        if state.rules.tie_dealer == TIE_NEXT_DEALER:
            seat = state.players.index(state.dealer)
            dealer = state.players[(seat + 1) % len(state.players)]
        else:
            dealer = state.dealer  # house default: the same dealer deals again
        stake = TIE_STAKE
    finished = winner is not None and cards[winner] >= CARDS_TO_WIN
    result = RoundResult(
        number=len(state.history) + 1,
        dealer=state.dealer,
        stake=state.stake,
        tricks=taken,
        winner=winner,
        tied=tied,
        cards_won=cards_won,
        cards=dict(cards),
    )
    return FoolsFaithState(
        players=state.players,
        cards=cards,
        stake=stake,
        round_winners=(*state.round_winners, winner),
        finished=finished,
        winner=winner if finished else None,
        dealer=None if finished else dealer,
        tricks={player: state.tricks[player] + taken[player] for player in state.players},
        rounds_won=rounds_won,
        history=(*state.history, result),
        rules=state.rules,
    )


def play(
    players: Sequence[Player],
    rounds: Sequence[Mapping[Player, int]],
    rules: FoolsFaithRules | None = None,
) -> FoolsFaithState:
    """Replay a whole game from its rounds (each a dict player -> tricks taken)."""
    return replay(start(players, rules), step, rounds, records_error=ERR_ROUNDS_TYPE)


#: One more record (a round): the protocol's name for `play_round`.
step = play_round
