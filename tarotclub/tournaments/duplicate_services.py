"""Writes of individual duplicate tournaments beyond the start and the rounds (`services`):
the dealer marked on a board (duplicate.md 1.2).

Each is one transaction under the tournament's lock, refuses bad input with a translated
message and changes nothing then, and leaves a history entry.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring.movement import ORIENTATIONS, dealer_of
from tarotclub.core.models import log_action
from tarotclub.games.models import Game
from tarotclub.kinds.tarot.models import Deal

from . import duplicate
from .history import BOARD_DEALER_SET
from .models import Orientation, Status, Table, Tournament
from .services import ERR_FINISHED, ERR_ORIENTATION, TournamentError, _lock

ERR_NOT_DUPLICATE = _("This tournament is not an individual duplicate tournament.")
ERR_BOARD = _("There is no board %(board)s: the boards are numbered from 1 to %(count)s.")
ERR_BOARD_PLAYED = _(
    "Board %(board)s has been played (a score is entered): its dealer can no longer change."
)
ERR_DEALER_MOVED = _(
    "The dealer of board %(board)s has just been changed to %(dealer)s (another screen or a "
    "second tap): nothing was changed."
)


def _board(t: Tournament, board) -> int:
    count = duplicate.board_count(t)
    if isinstance(board, bool) or not isinstance(board, int) or not 1 <= board <= count:
        raise TournamentError(ERR_BOARD, params={"board": board, "count": count})
    return board


@transaction.atomic
def board_set_dealer(
    *, tournament: Tournament, board: int, dealer: str, was: str | None = None, user=None
) -> Tournament:
    """Mark `dealer` (an orientation) as the dealer of `board`; the player to his right leads.

    Until the board has a result, at any table: then the deal exists and is put back as it
    was played. `was` is the dealer the director's form showed: when another screen changed
    it meanwhile, nothing changes. The tables already seated with the board (its first play
    not entered yet) show the new dealer on their phone. Setting the dealer it has changes
    nothing and logs nothing (a double tap)."""
    t = _lock(tournament)
    if not t.duplicate:
        raise TournamentError(ERR_NOT_DUPLICATE)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    board = _board(t, board)
    if not isinstance(dealer, str) or dealer not in ORIENTATIONS:
        raise TournamentError(ERR_ORIENTATION)
    current = duplicate.board_dealer(t, board)
    if was is not None and was != current:
        if current == dealer:  # the same change, made twice: nothing to do
            return t
        raise TournamentError(
            ERR_DEALER_MOVED,
            code="moved",
            params={"board": board, "dealer": str(Orientation(current).label)},
        )
    # the seated games holding the board, locked (a deal is saved under its game's lock: none
    # can be entered on them while this runs), in a fixed order
    per = t.deals_per_round
    number = (board - 1) % per + 1
    tables = Table.objects.filter(tournament=t).values_list("game_id", flat=True)
    games = [
        g
        for g in Game.objects.select_for_update().filter(pk__in=list(tables)).order_by("pk")
        if board in ((g.options or {}).get("boards") or [])
    ]
    if Deal.objects.filter(game__in=[g.pk for g in games], number=number).exists():
        raise TournamentError(ERR_BOARD_PLAYED, params={"board": board})
    if dealer == current:
        return t
    marked = dict(t.board_dealers or {})
    if dealer == dealer_of(board):
        marked.pop(str(board), None)
    else:
        marked[str(board)] = dealer
    t.board_dealers = marked
    t.save(update_fields=["board_dealers"])
    for g in games:
        boards = g.options["boards"]
        g.options = {**g.options, "dealers": [duplicate.board_dealer(t, b) for b in boards]}
        g.save(update_fields=["options"])
    log_action(
        t,
        BOARD_DEALER_SET,
        user=user,
        before={"board": board, "dealer": current},
        after={
            "board": board,
            "dealer": dealer,
            "leader": duplicate.leader_of(dealer),
            "games": [g.pk for g in games],
        },
    )
    return t
