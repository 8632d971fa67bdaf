"""Who may write what to a game, in every state of the game and of the event it belongs to.

One decision table for every write route of a game: enter a deal, correct one, undo the last
one, finish the game, confirm a tournament table's sheet, unlock it. The views ask it which
buttons to show and refuse early with its reason; the services ask it again under the game's
row lock, so a view that forgot a check bypasses nothing.

`games` knows no tournament. An app that seats games at its events registers two lookups when
it starts (see `tarotclub.tournaments.apps`):

- `register_event_lookup(f)`: `f(game)` says whether the game is one of its tables and in
  which state (`EventTable`), or None;
- `register_gone_lookup(f)`: `f(token)` says what to tell a phone whose game no longer exists
  (a tournament table the director redrew away), or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from .models import Game, GameKind

DEAL = "deal"
CORRECT = "correct"
UNDO = "undo"
FINISH = "finish"
CONFIRM = "confirm"
UNLOCK = "unlock"
ACTIONS = (DEAL, CORRECT, UNDO, FINISH, CONFIRM, UNLOCK)

ERR_NOT_TAROT = _("This is not a French Tarot game.")
ERR_FINISHED = _("This game is finished: its deals can no longer change.")
ERR_LOCKED = _("This table's sheet is confirmed: only the director can change it now.")
ERR_NO_DEAL = _("There is no deal to undo.")
ERR_ALL_DEALS_IN = _(
    "All %(count)s deals of this table are in: confirm the sheet, or correct a deal."
)
ERR_SHEET_INCOMPLETE = _("The sheet has %(done)s of %(planned)s deals: enter them all first.")
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
        text = str(self.message)
        return text % self.params if self.params else text


ALLOWED = Verdict(True)


def _no(message, **params) -> Verdict:
    return Verdict(False, message, params or None)


_event_lookups: list[Callable[[Game], EventTable | None]] = []
_gone_lookups: list[Callable[[str], Gone | None]] = []


def register_event_lookup(lookup: Callable[[Game], EventTable | None]) -> None:
    if lookup not in _event_lookups:
        _event_lookups.append(lookup)


def register_gone_lookup(lookup: Callable[[str], Gone | None]) -> None:
    if lookup not in _gone_lookups:
        _gone_lookups.append(lookup)


def event_table(game: Game) -> EventTable | None:
    """The state of the event this game is a table of, read now; None for a casual game."""
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


def _decide(
    action: str, *, game: Game, director: bool, event: EventTable | None, deals: Callable
) -> Verdict:
    if action not in ACTIONS:
        raise ValueError(f"unknown write {action!r}")
    if action in (DEAL, CORRECT, UNDO) and game.kind != GameKind.TAROT:
        return _no(ERR_NOT_TAROT)
    if game.finished:
        return _no(ERR_FINISHED)
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
        return _no(ERR_NO_DEAL)
    if action == CONFIRM and deals() < planned:
        return _no(ERR_SHEET_INCOMPLETE, done=deals(), planned=planned)
    return ALLOWED


class _Facts:
    """What the decisions read, each at most once."""

    def __init__(self, game: Game, deal_count: int | None):
        self.game = game
        self._deals = deal_count
        self._event: EventTable | None | bool = False

    def deals(self) -> int:
        if self._deals is None:
            self._deals = self.game.deals.count()
        return self._deals

    @property
    def event(self) -> EventTable | None:
        if self._event is False:
            self._event = event_table(self.game)
        return self._event


def check(game: Game, action: str, *, user=None, deal_count: int | None = None) -> Verdict:
    """May `user` (None: a phone on the share link) do `action` to `game` now?"""
    facts = _Facts(game, deal_count)
    return _decide(
        action, game=game, director=is_director(user), event=facts.event, deals=facts.deals
    )


def verdicts(game: Game, *, user=None, deal_count: int | None = None) -> dict[str, Verdict]:
    """Every write's verdict, for a page that shows the buttons: {action: Verdict}."""
    facts = _Facts(game, deal_count)
    director = is_director(user)
    return {
        action: _decide(action, game=game, director=director, event=facts.event, deals=facts.deals)
        for action in ACTIONS
    }
