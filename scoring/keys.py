"""Keys of the Kingdom: standings over a log of games for 2 to 4 players.

A game is a dict:

- ``"suits"``: player -> ``"hearts"``, ``"spades"``, ``"diamonds"`` or ``"clubs"``; 2 to 4
  players, each with a different suit (case and surrounding spaces are ignored);
- ``"winner"``: one of those players (they hold their five keys and the Excuse);
- ``"keys"``: loser -> keys held at the end (0 to 5, a loser may hold all five but not the
  Excuse). Every loser must be present. The winner may be left out; if given, the number
  must be 5, since the winner holds all five keys by definition. Any other number is refused
  rather than silently ignored;
- ``"guards"`` (optional, may be None): player -> trumps kept as guards (0 to 2). Players left
  out simply have no guards recorded.

**House rule** (`KeysRules`, passed as ``rules=`` to a session): ``partial_table``. Off (the
default), every player of the table plays every game of the session; on, a game may be played
by only some of the table (at least 2 of them), the others sitting it out (they count no game
played).

:func:`check_game` validates one game before the web app saves it; :func:`standings` returns
games played, won and lost, the win rate and the average keys held when losing, as exact
:class:`~fractions.Fraction` values.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from fractions import Fraction
from typing import Any, ClassVar

from scoring import RuleError, _
from scoring._common import (
    ERR_PLAYER_NAME,
    HouseRules,
    Option,
    check_players,
    is_int,
    replay,
)

Player = Hashable

SUITS = ("hearts", "spades", "diamonds", "clubs")
MIN_PLAYERS = 2
MAX_PLAYERS = 4
KEYS_PER_SUIT = 5
MAX_GUARDS = 2
GAME_FIELDS = frozenset({"suits", "winner", "keys", "guards"})

ERR_GAMES_TYPE = _("The games must be given as a list.")
ERR_GAME_TYPE = _("A game must give the players' suits, the winner and the keys of the losers.")
ERR_GAME_FIELD = _("A game cannot record %(field)s.")
ERR_SUITS_TYPE = _("Give the suit each player chose.")
ERR_PLAYER_COUNT = _("Keys of the Kingdom is played by 2 to 4 players, not %(count)s.")
ERR_SUIT_UNKNOWN = _("%(suit)s is not a suit: choose hearts, spades, diamonds or clubs.")
ERR_SUIT_TWICE = _("%(player)s chose %(suit)s, which another player already has.")
ERR_WINNER_MISSING = _("Say who won the game.")
ERR_UNKNOWN_PLAYER = _("%(player)s is not playing in this game.")
ERR_KEYS_TYPE = _("Give the keys each losing player held.")
ERR_KEYS_MISSING = _("The keys held by %(player)s are missing.")
ERR_KEYS_INT = _("The keys held by %(player)s must be a whole number.")
ERR_KEYS_RANGE = _("A player holds 0 to 5 keys; %(player)s cannot hold %(keys)s.")
ERR_WINNER_KEYS = _("The winner %(player)s holds all five keys, not %(keys)s.")
ERR_GUARDS_TYPE = _("Give the guards as a number for each player.")
ERR_GUARDS_INT = _("The guards of %(player)s must be a whole number.")
ERR_WHOLE_TABLE = _(
    "Every player of the table plays each game here: %(player)s is missing from this one."
)
ERR_GUARDS_RANGE = _("A player keeps 0 to 2 guards; %(player)s cannot keep %(guards)s.")


@dataclass(frozen=True)
class KeysGame:
    """One validated game."""

    suits: dict[Player, str]
    winner: Player
    keys: dict[Player, int]  # losers only
    guards: dict[Player, int]  # only the players whose guards were recorded

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(self.suits)

    @property
    def losers(self) -> tuple[Player, ...]:
        return tuple(player for player in self.suits if player != self.winner)


@dataclass(frozen=True)
class KeysRecord:
    """One player's line in the standings."""

    played: int
    won: int
    lost: int
    keys_when_losing: int  # total keys held at the end of the games lost
    win_rate: Fraction  # won / played
    average_keys_when_losing: Fraction | None  # None when never lost


@dataclass(frozen=True)
class KeysStandings:
    """Standings over a log of games.

    ``players`` follows the order in which players first appear; ``ranking`` orders them by
    win rate, then games won (then first appearance).
    """

    players: dict[Player, KeysRecord]
    ranking: tuple[Player, ...]
    games: tuple[KeysGame, ...]


def _known(players: Mapping[Player, Any], player: Any) -> bool:
    try:
        return player in players
    except TypeError:  # an unhashable value
        return False


def _check_suits(suits: Any) -> dict[Player, str]:
    if not isinstance(suits, Mapping):
        raise RuleError(ERR_SUITS_TYPE)
    if not MIN_PLAYERS <= len(suits) <= MAX_PLAYERS:
        raise RuleError(ERR_PLAYER_COUNT, count=len(suits))
    clean: dict[Player, str] = {}
    for player, suit in suits.items():
        if player is None or player == "":
            raise RuleError(ERR_PLAYER_NAME)
        name = suit.strip().lower() if isinstance(suit, str) else suit
        if name not in SUITS:
            raise RuleError(ERR_SUIT_UNKNOWN, suit=suit)
        if name in clean.values():
            raise RuleError(ERR_SUIT_TWICE, player=player, suit=name)
        clean[player] = name
    return clean


def _check_keys(suits: dict[Player, str], winner: Player, keys: Any) -> dict[Player, int]:
    if not isinstance(keys, Mapping):
        raise RuleError(ERR_KEYS_TYPE)
    for player, held in keys.items():
        if not _known(suits, player):
            raise RuleError(ERR_UNKNOWN_PLAYER, player=player)
        if not is_int(held):
            raise RuleError(ERR_KEYS_INT, player=player)
        if player == winner:
            if held != KEYS_PER_SUIT:
                raise RuleError(ERR_WINNER_KEYS, player=player, keys=held)
        elif not 0 <= held <= KEYS_PER_SUIT:
            raise RuleError(ERR_KEYS_RANGE, player=player, keys=held)
    clean: dict[Player, int] = {}
    for player in suits:
        if player == winner:
            continue
        if player not in keys:
            raise RuleError(ERR_KEYS_MISSING, player=player)
        clean[player] = keys[player]
    return clean


def _check_guards(suits: dict[Player, str], guards: Any) -> dict[Player, int]:
    if guards is None:
        return {}
    if not isinstance(guards, Mapping):
        raise RuleError(ERR_GUARDS_TYPE)
    for player, kept in guards.items():
        if not _known(suits, player):
            raise RuleError(ERR_UNKNOWN_PLAYER, player=player)
        if not is_int(kept):
            raise RuleError(ERR_GUARDS_INT, player=player)
        if not 0 <= kept <= MAX_GUARDS:
            raise RuleError(ERR_GUARDS_RANGE, player=player, guards=kept)
    return {player: guards[player] for player in suits if player in guards}


def check_game(game: Any) -> KeysGame:
    """Validate one game (RuleError if it cannot have happened) and return it cleaned up."""
    if not isinstance(game, Mapping):
        raise RuleError(ERR_GAME_TYPE)
    for field in game:
        if field not in GAME_FIELDS:
            raise RuleError(ERR_GAME_FIELD, field=field)
    suits = _check_suits(game.get("suits"))
    winner = game.get("winner")
    if winner is None:
        raise RuleError(ERR_WINNER_MISSING)
    if not _known(suits, winner):
        raise RuleError(ERR_UNKNOWN_PLAYER, player=winner)
    keys = _check_keys(suits, winner, game.get("keys"))
    guards = _check_guards(suits, game.get("guards"))
    return KeysGame(suits=suits, winner=winner, keys=keys, guards=guards)


def standings(games: Sequence[Mapping[str, Any]]) -> KeysStandings:
    """Standings over all games (each validated as by :func:`check_game`)."""
    if isinstance(games, str | bytes) or not isinstance(games, Sequence):
        raise RuleError(ERR_GAMES_TYPE)
    checked = tuple(check_game(game) for game in games)
    played: dict[Player, int] = {}
    won: dict[Player, int] = {}
    keys_lost: dict[Player, int] = {}
    for game in checked:
        for player in game.suits:
            played[player] = played.get(player, 0) + 1
            won.setdefault(player, 0)
            keys_lost.setdefault(player, 0)
        won[game.winner] += 1
        for player, held in game.keys.items():
            keys_lost[player] += held
    records: dict[Player, KeysRecord] = {}
    for player, count in played.items():
        lost = count - won[player]
        records[player] = KeysRecord(
            played=count,
            won=won[player],
            lost=lost,
            keys_when_losing=keys_lost[player],
            win_rate=Fraction(won[player], count),
            average_keys_when_losing=Fraction(keys_lost[player], lost) if lost else None,
        )
    ranking = tuple(
        sorted(records, key=lambda player: (-records[player].win_rate, -records[player].won))
    )
    return KeysStandings(players=records, ranking=ranking, games=checked)


# --- a session at the club: the protocol of the replayed games ---------------------------------

#: A session of Keys starts with no setting.
OPTIONS: tuple[Option, ...] = ()


@dataclass(frozen=True)
class KeysRules(HouseRules):
    """Whether a game may be played by only some of the table (off by default)."""

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}
    partial_table: bool = False


#: The protocol's names: the house rules' class and the rules as written.
Rules = KeysRules
DEFAULT_RULES = KeysRules()


@dataclass(frozen=True)
class KeysState:
    """A session at one table: its players and the games they recorded, in order.

    Keys of the Kingdom has no running score: each record is a whole game, and a session never
    ends by itself (``finished`` stays False until the players stop).
    """

    players: tuple[Player, ...]
    games: tuple[KeysGame, ...]
    finished: bool = False
    winner: Player | None = None
    rules: KeysRules = dataclass_field(default=DEFAULT_RULES)

    @property
    def history(self) -> tuple[KeysGame, ...]:
        return self.games


def start(players: Sequence[Player], rules: KeysRules | None = None) -> KeysState:
    """A new session at a table of 2 to 4 players."""
    seats = check_players(players, low=MIN_PLAYERS, high=MAX_PLAYERS, count_error=ERR_PLAYER_COUNT)
    rules = DEFAULT_RULES if rules is None else rules
    if not isinstance(rules, KeysRules):
        raise TypeError("rules must be KeysRules")
    return KeysState(players=seats, games=(), rules=rules)


def step(state: KeysState, game: Any) -> KeysState:
    """The session after one more game, played by players of the table."""
    checked = check_game(game)
    for player in checked.suits:
        if player not in state.players:
            raise RuleError(ERR_UNKNOWN_PLAYER, player=player)
    if not state.rules.partial_table:
        for player in state.players:
            if player not in checked.suits:
                raise RuleError(ERR_WHOLE_TABLE, player=player)
    return KeysState(players=state.players, games=(*state.games, checked), rules=state.rules)


def play(
    players: Sequence[Player],
    games: Sequence[Mapping[str, Any]],
    rules: KeysRules | None = None,
) -> KeysState:
    """Replay a whole session from its games."""
    return replay(start(players, rules), step, games, records_error=ERR_GAMES_TYPE)
