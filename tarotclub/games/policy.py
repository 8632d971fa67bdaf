"""Who may write what to a game, in every state of the game and of the event it belongs to.

One decision table for every write route of a game, whatever its kind: make an entry (a deal,
a round...), correct one, undo the last one, finish the game, confirm a tournament table's
sheet, unlock it. The views ask it which
buttons to show and refuse early with its reason; the services ask it again under the game's
row lock, so a view that forgot a check bypasses nothing.

`games` knows no tournament. An app that seats games at its events registers two lookups when
it starts (see `tarotclub.tournaments.apps`):

- `register_event_lookup(f, sql=...)`: `f(game)` says whether the game is one of its tables
  and in which state (`EventTable`), or None; `sql` (an `EventSql`) is the same question as
  columns of the statement that locks the game (`games.services.lock_game`), so a save does
  not ask it in a statement of its own;
- `register_gone_lookup(f)`: `f(token)` says what to tell a phone whose game no longer exists
  (a tournament table the director redrew away), or None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from . import kinds
from .models import Game

DEAL = "deal"
CORRECT = "correct"
UNDO = "undo"
FINISH = "finish"
CONFIRM = "confirm"
UNLOCK = "unlock"
ACTIONS = (DEAL, CORRECT, UNDO, FINISH, CONFIRM, UNLOCK)

ERR_UNKNOWN_KIND = _("This game's kind is not kept here any more.")
ERR_FINISHED = _("This game is finished: its deals can no longer change.")
ERR_LOCKED = _("This table's sheet is confirmed: only the director can change it now.")
ERR_NO_DEAL = _("There is no deal to undo.")
# Said without a counted noun, so it reads right for a table of 1 deal as for 24.
ERR_ALL_DEALS_IN = _(
    "Every deal planned at this table is in (%(count)s): confirm the sheet, or correct a deal."
)
# The plural follows the deals planned ("1 of 4 deals"; French rephrases it: "donnes : 1 sur 4").
ERR_SHEET_INCOMPLETE = ngettext_lazy(
    "The sheet has %(done)s of %(planned)s deal: enter it first.",
    "The sheet has %(done)s of %(planned)s deals: enter them all first.",
    "planned",
)
ERR_TABLE_FINISH = _(
    "A tournament table is not finished from its sheet: confirm the sheet once every deal is "
    "in; the director closes the round."
)
ERR_ROUND_OVER = _(
    "This round is over: the table's sheet can only be read now. Ask the director for a correction."
)
ERR_EVENT_FINISHED = _("The tournament is finished: its sheets can no longer change.")
ERR_NOT_A_TABLE = _("Only the sheet of a tournament table is confirmed.")
ERR_ALREADY_CONFIRMED = _("This sheet is already confirmed.")
ERR_NOT_CONFIRMED = _("This sheet is not confirmed: there is nothing to unlock.")
ERR_DIRECTOR_ONLY = _("Only the director can unlock a sheet.")
ERR_ARCHIVED = _("This game is archived: restore it from the list of games to change it.")
ERR_ARCHIVE_LOGIN = _("Log in to archive or restore a game.")
ERR_ARCHIVE_NOT_YOURS = _("Only the game's creator or a director can archive or restore it.")
ERR_ARCHIVE_TABLE = _("A tournament table is not archived: the director redraws the round instead.")


@dataclass(frozen=True)
class EventTable:
    """What an event (a tournament) says about one of its tables."""

    round_over: bool  # the event went on past this table's round (or finished)
    event_finished: bool


@dataclass(frozen=True)
class Gone:
    """What to tell whoever opens the link of a game that no longer exists."""

    title: str
    message: str
    lines: list[str] = field(default_factory=list)
    link: tuple[str, str] | None = None  # (label, url)


@dataclass(frozen=True)
class Verdict:
    """May this write happen? When not, `reason` says why, in the user's language."""

    allowed: bool
    message: object = ""  # a lazy translation
    params: dict | None = None

    def __bool__(self) -> bool:
        return self.allowed

    @property
    def reason(self) -> str:
        if self.allowed:
            return ""
        # `%` on the lazy message itself: a plural one picks its form from the params
        return str(self.message % self.params) if self.params else str(self.message)


ALLOWED = Verdict(True)


def _no(message, **params) -> Verdict:
    return Verdict(False, message, params or None)


@dataclass(frozen=True)
class EventSql:
    """An event lookup as part of the statement that locks a game (one round trip less on every
    save): `joins(game, alias)` gives the LEFT JOIN clauses onto the game's row (`game` is its
    table alias; the lookup's own aliases start with `alias`) and the SQL list of the `width`
    columns they read; `parse(values)` makes those values the lookup's answer (None: the game
    is none of this event's tables). The joins must find at most one row per game."""

    joins: Callable[[str, str], tuple[str, str]]
    width: int
    parse: Callable[[Sequence], EventTable | None]


_event_lookups: list[Callable[[Game], EventTable | None]] = []
_event_sql: dict[Callable, EventSql] = {}
_gone_lookups: list[Callable[[str], Gone | None]] = []


def register_event_lookup(
    lookup: Callable[[Game], EventTable | None], *, sql: EventSql | None = None
) -> None:
    if lookup not in _event_lookups:
        _event_lookups.append(lookup)
    if sql is not None:
        _event_sql[lookup] = sql


def event_sql() -> list[EventSql] | None:
    """The SQL forms of every event lookup, in order; None when one of them has none (then the
    lookups are asked one by one, `event_table`)."""
    if any(lookup not in _event_sql for lookup in _event_lookups):
        return None
    return [_event_sql[lookup] for lookup in _event_lookups]


#: The attribute of a game read with the event lookups' columns (`games.services.lock_game`
#: under its lock, `games.selectors.game_by_token` for a page): their answer, read in that
#: statement.
EVENT_READ = "event_read"


def event_joins(events: Sequence[EventSql], game: str) -> tuple[str, str]:
    """The LEFT JOINs of `events` (`event_sql()`) onto the game's row (table alias `game`), and
    the columns they read, for a statement that reads the game (`read_events` reads them)."""
    joins, columns = [], []
    for i, event in enumerate(events):
        join, read = event.joins(game, f"ev{i}_")
        joins.append(join)
        columns.append(read)
    return " ".join(joins), ", ".join(columns)


def read_events(
    events: Sequence[EventSql], row: Sequence, at: int
) -> tuple[EventTable | None, int]:
    """The answer of the `event_joins` columns of `row` from column `at` on (the first of
    `events` that finds the game's event), and the column after them."""
    found = None
    for event in events:
        answer = event.parse(row[at : at + event.width])
        found = found if found is not None else answer
        at += event.width
    return found, at


def register_gone_lookup(lookup: Callable[[str], Gone | None]) -> None:
    if lookup not in _gone_lookups:
        _gone_lookups.append(lookup)


def event_table(game: Game) -> EventTable | None:
    """The state of the event this game is a table of, read now (or read with the game's
    lock, in the same statement); None for a casual game."""
    if hasattr(game, EVENT_READ):
        return getattr(game, EVENT_READ)
    for lookup in _event_lookups:
        found = lookup(game)
        if found is not None:
            return found
    return None


def gone(token: str) -> Gone | None:
    """What to say about a share link whose game no longer exists (None: say nothing, 404)."""
    for lookup in _gone_lookups:
        found = lookup(token)
        if found is not None:
            return found
    return None


def is_director(user) -> bool:
    """Directors are staff accounts; a phone on a share link is nobody in particular."""
    return bool(user is not None and user.is_authenticated and user.is_staff)


def _decide(action: str, *, game: Game, director: bool, facts: _Facts) -> Verdict:
    if action not in ACTIONS:
        raise ValueError(f"unknown write {action!r}")
    if facts.kind is None:
        return _no(ERR_UNKNOWN_KIND)
    if game.archived_at is not None:
        return _no(ERR_ARCHIVED)
    if game.finished and not (action == UNDO and facts.reopens()):
        # a game the rules ended opens again when its last entry is undone
        return _no(facts.finished_reason(action))
    event = facts.event
    deals = facts.deals
    if event is None:
        if action in (CONFIRM, UNLOCK):
            return _no(ERR_NOT_A_TABLE)
    else:
        if event.event_finished:
            return _no(ERR_EVENT_FINISHED)
        if action == FINISH:
            return _no(ERR_TABLE_FINISH)
        if action == UNLOCK:
            if not director:
                return _no(ERR_DIRECTOR_ONLY)
            return ALLOWED if game.locked else _no(ERR_NOT_CONFIRMED)
        if event.round_over and not director:
            return _no(ERR_ROUND_OVER)
        if action == CONFIRM and game.locked:
            return _no(ERR_ALREADY_CONFIRMED)
    if game.locked and not director:
        return _no(ERR_LOCKED)
    planned = game.options.get("deals") or 0
    if action == DEAL and planned and deals() >= planned:
        return _no(ERR_ALL_DEALS_IN, count=planned)
    if action == UNDO and deals() == 0:
        return _no(facts.kind.nothing_to_undo)
    if action == CONFIRM and deals() < planned:
        return _no(ERR_SHEET_INCOMPLETE, done=deals(), planned=planned)
    return ALLOWED


def may_archive(game: Game, *, user=None) -> Verdict:
    """May `user` archive (or restore) this casual game? Its creator or a director may."""
    if user is None or not user.is_authenticated:
        return _no(ERR_ARCHIVE_LOGIN)
    creator = game.created_by_id is not None and game.created_by_id == user.pk
    if not (creator or is_director(user)):
        return _no(ERR_ARCHIVE_NOT_YOURS)
    if event_table(game) is not None:
        return _no(ERR_ARCHIVE_TABLE)
    return ALLOWED


def may_settle(game: Game, *, user=None) -> bool:
    """May `user` add or discard the entries a closed sheet kept (`models.RefusedEntry`)?
    The game's creator or a director may; a phone on the share link may not."""
    if user is None or not user.is_authenticated:
        return False
    return is_director(user) or (game.created_by_id is not None and game.created_by_id == user.pk)


class _Facts:
    """What the decisions read, each at most once.

    `played` is the game as the page or the service already read it (its kind's `load`);
    without it the entries are counted, and the game is read only where a finished game's
    state matters.
    """

    def __init__(self, game: Game, deal_count: int | None, played=None):
        self.game = game
        self.kind = kinds.get(game.kind)
        self._played = played
        self._deals = (
            deal_count
            if deal_count is not None
            else (played.last_number if played is not None else None)
        )
        self._event: EventTable | None | bool = False

    def deals(self) -> int:
        if self._deals is None:
            self._deals = self.kind.count_entries(self.game)
        return self._deals

    @property
    def played(self):
        if self._played is None:
            self._played = self.kind.load(self.game)
        return self._played

    def reopens(self) -> bool:
        return self.kind.reopens and self.played.can_undo

    def finished_reason(self, action: str):
        return self.kind.finished_reason(self.played if self.kind.reopens else None, action)

    @property
    def event(self) -> EventTable | None:
        if self._event is False:
            self._event = event_table(self.game)
        return self._event


def check(
    game: Game, action: str, *, user=None, deal_count: int | None = None, played=None
) -> Verdict:
    """May `user` (None: a phone on the share link) do `action` to `game` now?"""
    facts = _Facts(game, deal_count, played)
    return _decide(action, game=game, director=is_director(user), facts=facts)


def verdicts(
    game: Game, *, user=None, deal_count: int | None = None, played=None
) -> dict[str, Verdict]:
    """Every write's verdict, for a page that shows the buttons: {action: Verdict}."""
    facts = _Facts(game, deal_count, played)
    director = is_director(user)
    return {
        action: _decide(action, game=game, director=director, facts=facts) for action in ACTIONS
    }
