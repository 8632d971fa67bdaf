"""Writes of a tournament: each one transaction, validated, through the seating planner."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tarotclub.games import services as games
from tarotclub.games.models import Game
from tarotclub.kinds.tarot.services import game_totals_db
from tarotclub.players.models import Player
from tarotclub.players.services import player_create

from . import seating
from .models import Entry, Status, Table, Tournament

ERR_NAME = _("Give the tournament a name.")
ERR_ROUNDS = _("A tournament has 1 to 20 rounds.")
ERR_DEALS = _("A round has 1 to 24 deals per table.")
ERR_NOT_REGISTRATION = _("The tournament has started: this can no longer change.")
ERR_FINISHED = _("The tournament is finished.")
ERR_ALREADY_REGISTERED = _("%(name)s is already registered.")
ERR_NOT_ENOUGH = _("At least %(min)s players are needed to start (%(count)s registered).")
ERR_NOT_RUNNING = _("The tournament is not running.")
ERR_ALREADY_WITHDRAWN = _("%(name)s has already withdrawn.")
ERR_TABLES_OPEN = _("These tables have not confirmed their sheet: %(tables)s.")
ERR_ROUND_STARTED = _("Deals have been entered in this round: it can no longer be redrawn.")
ERR_SHEET_INCOMPLETE = _("The sheet has %(done)s of %(planned)s deals: enter them all first.")
ERR_SHEET_NOT_ZERO = _("The totals of this table do not add up to 0.")
ERR_LAST_ROUND = _("This was the last round.")
ERR_SEATING = _("The players cannot be seated: %(reason)s")

#: Seat names by position; a table of five has a fifth seat.
SEAT_NAMES = [_("North"), _("East"), _("South"), _("West"), _("Fifth")]


class TournamentError(ValidationError):
    """A refused change, with a message in the user's language."""


def deals_for_table(tournament: Tournament, size: int) -> int:
    """Deals a table plays in a round: at five the dealer sits out, so everybody plays as many."""
    if size == 5:
        return -(-tournament.deals_per_round * 5 // 4)
    return tournament.deals_per_round


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


# --- set-up ------------------------------------------------------------------------------------


@transaction.atomic
def tournament_create(
    *,
    name: str,
    date: dt.date,
    place: str = "",
    rounds: int = 5,
    deals_per_round: int = 4,
    allow_three: bool = False,
    ranking: str = "total",
    created_by=None,
) -> Tournament:
    name = " ".join((name or "").split())
    if not name:
        raise TournamentError(ERR_NAME)
    if not 1 <= rounds <= 20:
        raise TournamentError(ERR_ROUNDS)
    if not 1 <= deals_per_round <= 24:
        raise TournamentError(ERR_DEALS)
    return Tournament.objects.create(
        name=name[:120],
        date=date,
        place=(place or "").strip()[:120],
        rounds=rounds,
        deals_per_round=deals_per_round,
        allow_three=allow_three,
        ranking=ranking,
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
    )


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, ranking: str | None = None, allow_three: bool | None = None
) -> Tournament:
    """Settings that may change at any time (the ranking) or until the start (tables of 3)."""
    t = _lock(tournament)
    if ranking is not None:
        t.ranking = ranking
    if allow_three is not None and allow_three != t.allow_three:
        if t.status != Status.REGISTRATION:
            raise TournamentError(ERR_NOT_REGISTRATION)
        t.allow_three = allow_three
    t.save(update_fields=["ranking", "allow_three"])
    return t


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    player: Player | None = None,
    guest_name: str = "",
    licence: str = "",
) -> Entry:
    """Register a roster player, or a guest by name. A late player sits from the next round."""
    t = _lock(tournament)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if player is None:
        player = player_create(name=guest_name, guest=True, licence=licence)
    if Entry.objects.filter(tournament=t, player=player).exists():
        raise TournamentError(ERR_ALREADY_REGISTERED, params={"name": player.name})
    licence = (licence or player.licence or "").strip()[:20]
    entry = Entry.objects.create(
        tournament=t,
        player=player,
        licence=licence,
        first_round=t.current_round + 1 if t.status == Status.RUNNING else 1,
    )
    if t.status == Status.RUNNING:
        _replan(t)
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> Entry:
    """The player is not seated from the next round on; their scores stay."""
    t = _lock(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if entry.withdrawn:
        raise TournamentError(ERR_ALREADY_WITHDRAWN, params={"name": entry.player.name})
    if t.status == Status.REGISTRATION:
        entry.delete()
        return entry
    entry.last_round = t.current_round
    entry.save(update_fields=["last_round"])
    _replan(t)
    return entry


# --- seating -----------------------------------------------------------------------------------


def _present(t: Tournament, round_number: int) -> list[int]:
    """Player pks seated in `round_number`: registered by then and not withdrawn before."""
    return sorted(
        e.player_id
        for e in t.entries.all()
        if e.first_round <= round_number and (e.last_round is None or e.last_round >= round_number)
    )


def _history(t: Tournament) -> list[list[list[int]]]:
    """The rounds already seated, in the planner's shape, seats in order."""
    rounds: dict[int, list[list[int]]] = {}
    tables = (
        Table.objects.filter(tournament=t)
        .order_by("round", "number")
        .prefetch_related("game__seats")
    )
    for table in tables:
        seats = sorted(table.game.seats.all(), key=lambda s: s.position)
        rounds.setdefault(table.round, []).append([s.player_id for s in seats])
    return [rounds[r] for r in sorted(rounds)]


def _replan(t: Tournament) -> None:
    """Plan every round still to come from the rounds already seated; store it."""
    remaining = t.rounds - t.current_round
    if remaining <= 0:
        t.plan = []
    else:
        players = _present(t, t.current_round + 1)
        try:
            t.plan = seating.plan_rounds(
                players,
                remaining,
                history=_history(t),
                allow_three=t.allow_three,
                seed=t.seed,
            )
        except seating.SeatingError as e:
            raise TournamentError(ERR_SEATING, params={"reason": e.translated(gettext)}) from e
    t.save(update_fields=["plan"])


def _seat_round(t: Tournament, round_number: int, tables: list[list[int]]) -> None:
    players = {p.pk: p for p in Player.objects.filter(pk__in=[pk for tb in tables for pk in tb])}
    for number, seated in enumerate(tables, start=1):
        size = len(seated)
        game = games.game_start(
            players=[players[pk] for pk in seated],
            first_dealer=0,
            kind="tarot",
            name=f"{t.name} · R{round_number} T{number}",
            dealer_sits_out=size == 5,
            options={"deals": deals_for_table(t, size)},
        )
        Table.objects.create(tournament=t, round=round_number, number=number, game=game)


def _min_players(t: Tournament) -> int:
    return 3 if t.allow_three else 4


@transaction.atomic
def tournament_start(*, tournament: Tournament) -> Tournament:
    """Close registration, plan every round, seat round 1."""
    t = _lock(tournament)
    if t.status != Status.REGISTRATION:
        raise TournamentError(ERR_NOT_REGISTRATION)
    count = t.entries.count()
    if count < _min_players(t):
        raise TournamentError(ERR_NOT_ENOUGH, params={"min": _min_players(t), "count": count})
    _replan(t)
    t.status = Status.RUNNING
    t.current_round = 1
    _seat_round(t, 1, t.plan[0])
    t.plan = t.plan[1:]
    t.save(update_fields=["status", "current_round", "plan"])
    return t


def open_tables(t: Tournament, round_number: int) -> list[Table]:
    return list(
        Table.objects.filter(tournament=t, round=round_number, game__locked=False).order_by(
            "number"
        )
    )


@transaction.atomic
def tournament_next_round(*, tournament: Tournament, force: bool = False) -> Tournament:
    """Start the next round once every table has confirmed (or when the director forces it).

    After the last round, the tournament is finished.
    """
    t = _lock(tournament)
    if t.status != Status.RUNNING:
        raise TournamentError(ERR_NOT_RUNNING)
    still_open = open_tables(t, t.current_round)
    if still_open and not force:
        raise TournamentError(
            ERR_TABLES_OPEN, params={"tables": ", ".join(str(x.number) for x in still_open)}
        )
    for table in still_open:  # forced: lock what was entered so far
        games.game_set_locked(game=table.game, locked=True)
    if t.current_round >= t.rounds:
        t.status = Status.FINISHED
        t.plan = []
        t.save(update_fields=["status", "plan"])
        return t
    t.current_round += 1
    t.save(update_fields=["current_round"])
    _replan_from(t, t.current_round)
    _seat_round(t, t.current_round, t.plan[0])
    t.plan = t.plan[1:]
    t.save(update_fields=["plan"])
    return t


def _replan_from(t: Tournament, round_number: int) -> None:
    """Plan rounds `round_number`.. from history (current_round already points at it)."""
    saved = t.current_round
    t.current_round = round_number - 1
    _replan(t)
    t.current_round = saved


@transaction.atomic
def round_redraw(*, tournament: Tournament) -> Tournament:
    """Seat the current round anew (another draw) while no deal has been entered in it."""
    t = _lock(tournament)
    if t.status != Status.RUNNING:
        raise TournamentError(ERR_NOT_RUNNING)
    tables = list(
        Table.objects.filter(tournament=t, round=t.current_round)
        .select_related("game")
        .annotate(n=Count("game__deals"))
    )
    if any(x.n for x in tables) or any(x.game.locked for x in tables):
        raise TournamentError(ERR_ROUND_STARTED)
    game_ids = [x.game_id for x in tables]
    Table.objects.filter(pk__in=[x.pk for x in tables]).delete()
    Game.objects.filter(pk__in=game_ids).delete()
    t.seed = (t.seed * 1103515245 + 12345) % (2**31)
    t.save(update_fields=["seed"])
    _replan_from(t, t.current_round)
    _seat_round(t, t.current_round, t.plan[0])
    t.plan = t.plan[1:]
    t.save(update_fields=["plan"])
    return t


# --- the tables' sheets ------------------------------------------------------------------------


@transaction.atomic
def table_confirm(*, table: Table, user=None) -> Table:
    """The players confirm their sheet: every deal in, totals zero; then it is locked."""
    game = Game.objects.select_for_update().get(pk=table.game_id)
    if game.locked:
        return table
    planned = game.options.get("deals") or 0
    done = game.deals.count()
    if done < planned:
        raise TournamentError(ERR_SHEET_INCOMPLETE, params={"done": done, "planned": planned})
    totals = game_totals_db(game)
    if sum(totals.values()) != 0:
        raise TournamentError(ERR_SHEET_NOT_ZERO)
    games.game_set_locked(game=game, locked=True, user=user)
    return table


@transaction.atomic
def table_unlock(*, table: Table, user=None) -> Table:
    t = _lock(table.tournament)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    games.game_set_locked(game=table.game, locked=False, user=user)
    return table
