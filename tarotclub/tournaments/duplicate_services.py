"""Writes of individual duplicate tournaments beyond the start and the rounds (`services`):
the dealer marked on a board (duplicate.md 1.2), a substitute for a player who withdraws.

Each is one transaction under the tournament's lock, refuses bad input with a translated
message and changes nothing then, and leaves a history entry.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring.movement import ORIENTATIONS, dealer_of
from tarotclub.core.models import log_action
from tarotclub.games.models import Game, Seat
from tarotclub.games.services import bump_revision
from tarotclub.kinds.tarot.models import Deal
from tarotclub.players.models import Player, name_key
from tarotclub.players.services import player_create

from . import duplicate
from .history import BOARD_DEALER_SET, ENTRY_SUBSTITUTED
from .models import Entry, Orientation, Status, Table, Tournament
from .services import (
    ERR_ENTRY_GONE,
    ERR_FINISHED,
    ERR_ORIENTATION,
    TournamentError,
    _entry,
    _lock,
    _replan,
)

ERR_NOT_DUPLICATE = _("This tournament is not an individual duplicate tournament.")
ERR_BOARD = _("There is no board %(board)s: the boards are numbered from 1 to %(count)s.")
ERR_BOARD_PLAYED = _(
    "Board %(board)s has been played (a score is entered): its dealer can no longer change."
)
ERR_DEALER_MOVED = _(
    "The dealer of board %(board)s has just been changed to %(dealer)s (another screen or a "
    "second tap): nothing was changed."
)

ERR_SUBSTITUTE_NOT_RUNNING = _(
    "A substitute is seated once the tournament has started: before, change the registrations."
)
ERR_SUBSTITUTE_ROUND = _("A substitute plays from a round between 2 and %(rounds)s.")
ERR_SUBSTITUTE_WHO = _("Choose the substitute in the players' list or give a guest's name.")
ERR_SUBSTITUTE_IN = _("%(name)s already plays in this tournament: a substitute is someone else.")
ERR_SUBSTITUTE_OF_SUBSTITUTE = _(
    "%(name)s is a substitute: the seat %(seat)s has had its substitute already."
)
ERR_SUBSTITUTE_TAKEN = _(
    "%(name)s is already replaced by %(substitute)s from round %(round)s (another screen or a "
    "second tap): nothing was changed."
)
ERR_SUBSTITUTE_PLAYED = _(
    "Table %(table)s has entered a deal in round %(round)s: %(name)s played it. A substitute "
    "takes the seat from a round the seat's table has not begun."
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


def _same_person(entry: Entry, player: Player | None, guest_name: str) -> bool:
    if player is not None:
        return entry.player_id == player.pk
    return bool(guest_name) and entry.player.name_key == name_key(guest_name)


@transaction.atomic
def entry_substitute(
    *,
    tournament: Tournament,
    entry: Entry,
    player: Player | None = None,
    guest_name: str = "",
    from_round,
    user=None,
) -> Entry:
    """Seat a substitute (a roster `player`, or a guest by name) in the seat of `entry`, a
    player who withdraws, from round `from_round` on (duplicate.md 1.6: the boards need four
    players at every table). The boards played before stay the withdrawn player's; the
    substitute has a record of his own (`scoring.duplicate.grade_session(substitutes=)`).

    The seat's tables already seated from that round (the current round's, while none of its
    deals is entered) take the substitute at once: their seat, the imposed takers, the name
    on the table's phone. Seating the same substitute again changes nothing and logs nothing
    (a double tap); another substitute for the same seat is refused."""
    t = _lock(tournament)
    if not t.duplicate:
        raise TournamentError(ERR_NOT_DUPLICATE)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if t.status != Status.RUNNING:
        raise TournamentError(ERR_SUBSTITUTE_NOT_RUNNING)
    # the entry's row only: FOR UPDATE on the joined player row too would hold the player a deal
    # being saved at the seat's table checks (its lines' foreign key), while this waits for
    # that deal's game: a deadlock on PostgreSQL
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=entry.pk, tournament=t)
        .first()
    )
    if entry is None:
        raise TournamentError(ERR_ENTRY_GONE, code="gone")
    seat = (entry.orientation, entry.start_table)
    if entry.replaces_id or not entry.orientation or not entry.start_table:
        raise TournamentError(
            ERR_SUBSTITUTE_OF_SUBSTITUTE,
            params={"name": entry.player.name, "seat": f"{seat[0]}{seat[1] or ''}"},
        )
    if isinstance(from_round, bool) or not isinstance(from_round, int):
        raise TournamentError(ERR_SUBSTITUTE_ROUND, params={"rounds": t.rounds})
    if not 2 <= from_round <= t.rounds:
        raise TournamentError(ERR_SUBSTITUTE_ROUND, params={"rounds": t.rounds})
    guest_name = " ".join((guest_name or "").split())
    if player is None and not guest_name:
        raise TournamentError(ERR_SUBSTITUTE_WHO)
    existing = entry.substitutes.select_related("player").first()
    if existing is not None:
        if _same_person(existing, player, guest_name) and existing.first_round == from_round:
            return existing  # the same substitute again: a double tap, nothing to do
        raise TournamentError(
            ERR_SUBSTITUTE_TAKEN,
            code="taken",
            params={
                "name": entry.player.name,
                "substitute": existing.player.name,
                "round": existing.first_round,
            },
        )
    if player is None:
        # a guest who came before is the same guest again, found by the name's key
        player = Player.objects.filter(name_key=name_key(guest_name)).first()
        if player is None:
            player = player_create(name=guest_name, guest=True, user=user)
    if Entry.objects.filter(tournament=t, player=player).exists():
        raise TournamentError(ERR_SUBSTITUTE_IN, params={"name": player.name})
    m = duplicate.stored_movement(t)
    # the seat's tables already seated from that round, their games locked in a fixed order
    # (a deal is saved under its game's lock: none can be entered while this runs)
    at = {
        r: next(s.table for s in m.seating(r) if s.seats[seat[0]] == seat)
        for r in range(from_round, t.current_round + 1)
    }
    tables = [
        x
        for x in Table.objects.filter(tournament=t, round__in=list(at)).order_by("round")
        if at[x.round] == x.number
    ]
    games = {
        g.pk: g for g in Game.objects.select_for_update().filter(pk__in=[x.game_id for x in tables])
    }
    played = Deal.objects.filter(game_id__in=list(games)).values_list("game_id", flat=True)
    played = set(played)
    for x in tables:
        if x.game_id in played:
            raise TournamentError(
                ERR_SUBSTITUTE_PLAYED,
                params={"table": x.number, "round": x.round, "name": entry.player.name},
            )
    before = _entry(entry)
    substitute = Entry.objects.create(
        tournament=t,
        player=player,
        licence=(player.licence or "")[:20],
        first_round=from_round,
        replaces=entry,
    )
    entry.last_round = from_round - 1
    entry.save(update_fields=["last_round"])
    for x in tables:
        game = games[x.game_id]
        Seat.objects.filter(game=game, player_id=entry.player_id).update(player=player)
        imposed = [
            [player.pk if pk == entry.player_id else pk, contract]
            for pk, contract in (game.options or {}).get("imposed") or []
        ]
        game.options = {**game.options, "imposed": imposed}
        game.save(update_fields=["options"])
        bump_revision(game)  # the table's phone shows the substitute's name
    _replan(t)
    log_action(
        t,
        ENTRY_SUBSTITUTED,
        user=user,
        before=before,
        after={
            **_entry(entry),
            "substitute": {**_entry(substitute), "guest": player.guest},
            "from_round": from_round,
            "games": sorted(games),
        },
    )
    return substitute
