"""Writes of a tournament: each one transaction, validated, through the seating planner.

Every write that changes what the standings show leaves an entry in the club's history
(`tarotclub.core.models.log_action`) on the tournament, with what it was before and after as
small JSON (names and primary keys). The director's forms carry what they act on (the round
they move from, the draw they redraw), so a double tap or a second screen never moves the
tournament twice.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring import RuleError
from scoring import triplette as triplette_rules
from scoring import triplette_movement as triplette_moves
from tarotclub.core.errors import Refused
from tarotclub.core.models import log_action
from tarotclub.core.text import text_key
from tarotclub.games import house, policy
from tarotclub.games import services as games
from tarotclub.games.models import Change, Game, Seat
from tarotclub.kinds.tarot.models import Deal
from tarotclub.kinds.tarot.services import game_totals_db
from tarotclub.players.models import Player, name_key
from tarotclub.players.services import player_create

from . import duplicate, quadrette, seating, triplette
from .history import (  # noqa: F401  (the actions a test or a page names by the services)
    CREATED,
    ENTRIES_REGISTERED,
    ENTRY_REGISTERED,
    ENTRY_REMOVED,
    ENTRY_WITHDRAWN,
    FINISHED,
    HOUSE_RULES_SET,
    REOPENED,
    ROUND_FORCED,
    ROUND_REDRAWN,
    ROUND_SEATED,
    STARTED,
    TABLE_CONFIRMED,
    TABLE_UNLOCKED,
    UPDATED,
)
from .models import (
    DUPLICATE_MAX_TABLES,
    Entry,
    Format,
    Line,
    Orientation,
    RedrawnTable,
    Status,
    Table,
    Tournament,
    deals_for_table,
)
from .selectors import bulk_preview

ERR_NAME = _("Give the tournament a name.")
ERR_ROUNDS = _("A tournament has 1 to 20 rounds.")
ERR_DEALS = _("A round has 1 to 24 deals per table.")
ERR_NOT_REGISTRATION = _("The tournament has started: this can no longer change.")
ERR_FINISHED = _("The tournament is finished.")
ERR_ALREADY_REGISTERED = _("%(name)s is already registered.")
# The plural follows the number registered (French: "1 inscrit", "2 inscrits").
ERR_NOT_ENOUGH = ngettext_lazy(
    "At least %(min)s players are needed to start (%(count)s registered).",
    "At least %(min)s players are needed to start (%(count)s registered).",
    "count",
)
ERR_NOT_RUNNING = _("The tournament is not running.")
ERR_ALREADY_WITHDRAWN = _("%(name)s has already withdrawn.")
ERR_TABLES_OPEN = _("These tables have not confirmed their sheet: %(tables)s.")
ERR_ROUND_STARTED = _("Deals have been entered in this round: it can no longer be redrawn.")
ERR_SHEET_INCOMPLETE = policy.ERR_SHEET_INCOMPLETE
ERR_SHEET_NOT_ZERO = _("The totals of this table do not add up to 0.")
ERR_LAST_ROUND = _("This was the last round.")
ERR_SEATING = _("The players cannot be seated: %(reason)s")
ERR_TEAM_FULL = _("Team %(team)s already has %(max)s players.")
ERR_TEAM_NAME = _("A team name has at most %(max)s characters.")
ERR_TEAM_SIZES = _("Teams have 2 or 4 players: %(teams)s.")
TEAM_MAX = 4  # free-deal teams of 2 or 4 (duplicate.md 2.1)
TEAM_NAME_MAX = 60
ERR_ROUND_MOVED = _(
    "The tournament is no longer at round %(round)s but at round %(current)s (another screen "
    "or a second tap moved it): nothing was changed."
)
ERR_STARTED_ALREADY = _(
    "The tournament has already started (another screen or a second tap): nothing was changed."
)
ERR_REDRAWN_ALREADY = _(
    "This round has just been redrawn (another screen or a second tap): nothing was changed. "
    "Check the new tables before redrawing again."
)

ERR_NOT_FINISHED = _(
    "The tournament is not finished (reopened meanwhile, or a second tap): nothing was changed."
)
ERR_BULK_CONFLICT = _(
    "Line %(line)s (%(text)s) names %(name)s but gives the licence of %(other)s, or names a "
    "player of another line: correct it, nothing was registered."
)
ERR_ENTRY_GONE = _("This player is no longer registered (removed meanwhile): nothing was changed.")

ERR_FORMAT = _("Choose free deals or duplicate.")
ERR_DUPLICATE_TABLES = _("A duplicate tournament has 2 to %(max)s tables of four.")
ERR_DUPLICATE_ROUNDS = _(
    "A duplicate tournament of %(tables)s tables has 1 to %(tables)s rounds: with more, a "
    "player would meet a set of boards again."
)
ERR_DUPLICATE_BOARDS = _(
    "In duplicate a table plays 4, 8, 12, 16, 20 or 24 boards a round, so that every player "
    "takes one board in four."
)
ERR_DUPLICATE_COUNT = ngettext_lazy(
    "A duplicate tournament of %(tables)s tables needs exactly %(seats)s players "
    "(%(count)s registered).",
    "A duplicate tournament of %(tables)s tables needs exactly %(seats)s players "
    "(%(count)s registered).",
    "count",
)
ERR_DUPLICATE_FULL = _("All %(seats)s seats of this duplicate tournament are taken.")
ERR_DUPLICATE_LATE = _(
    "A duplicate tournament takes no player after its start: the movement seats everybody "
    "from the first round."
)
ERR_DUPLICATE_WITHDRAW = _(
    "In a duplicate tournament a player cannot withdraw after the start: the boards need "
    "four players at every table. A substitute plays in their seat."
)
ERR_DUPLICATE_REDRAW = _("A duplicate round follows the movement: it is not redrawn.")
ERR_ORIENTATION = _("Choose North, East, South or West.")
ERR_TRIPLETTE_BY_TEAM = _("In a triplette tournament players are registered by team of 3.")
ERR_TRIPLETTE_LOOSE = _("These players are in no triplette: %(names)s.")
ERR_TRIPLETTE_SIZE = _("A triplette has exactly 3 players: %(teams)s.")
ERR_TRIPLETTE_ODD = _(
    "Triplettes play one North-South against one East-West team at each table: the number "
    "of teams must be even (here %(count)s)."
)
ERR_TRIPLETTE_LINES = _(
    "There must be as many North-South as East-West teams (here %(ns)s and %(ew)s)."
)
ERR_TRIPLETTE_ROUNDS = _(
    "This movement of %(teams)s triplettes has at most %(most)s rounds (here %(rounds)s): "
    "with more, a team would play a set of boards again. Choose fewer rounds or the other "
    "movement."
)
ERR_TRIPLETTE_FEW = _("A triplette tournament needs at least 4 teams (here %(count)s).")
ERR_QUADRETTE_BY_TEAM = _("In a quadrette tournament players are registered by team of 4.")
ERR_QUADRETTE_LOOSE = _("These players are in no quadrette: %(names)s.")
ERR_QUADRETTE_SIZE = _(
    "A quadrette has exactly 4 players, one attacker and 3 defenders: %(teams)s."
)
ERR_QUADRETTE_ODD = _(
    "Quadrettes meet two by two in each round (no team sits out): the number of teams must "
    "be even (here %(count)s)."
)
ERR_QUADRETTE_FEW = _("A quadrette tournament needs at least 2 teams (here %(count)s).")
ERR_START_TABLE = _("The starting table is a number from 1 to %(tables)s.")
ERR_SEAT_TAKEN = _("%(seat)s is already %(name)s's seat.")
ERR_SEAT_HALF = _("Give both the orientation and the starting table, or neither.")


#: What the tournament's history records (tarotclub.core.models.LogEntry on the tournament).


class TournamentError(Refused):
    """A refused change, with a message in the user's language."""


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _check_round(t: Tournament, from_round: int | None) -> None:
    """The form was made at round `from_round`; refuse when the tournament moved since."""
    if from_round is not None and from_round != t.current_round:
        raise TournamentError(
            ERR_ROUND_MOVED,
            code="moved",
            params={"round": from_round, "current": t.current_round},
        )


def _lock_round_games(t: Tournament, round_number: int) -> tuple[list[Table], dict[int, Game]]:
    """The round's tables, and their games locked (in a fixed order: no deadlock)."""
    tables = list(Table.objects.filter(tournament=t, round=round_number).order_by("number"))
    locked = Game.objects.select_for_update().filter(pk__in=[x.game_id for x in tables])
    return tables, {g.pk: g for g in locked.order_by("pk")}


def _player(player: Player) -> dict:
    return {"pk": player.pk, "name": player.name}


def team_players(given, existing, *, twice, in_team, user=None) -> list[Player]:
    """A team's members registered together (triplettes, quadrettes): `given` as (roster
    player or None, guest name) pairs, a guest who came before found by his name's key;
    refused (`twice`, `in_team`) when one is named twice or already plays in a team of
    `existing` entries. New guests are created last, once everything is checked."""
    keys = [name_key(guest) for p, guest in given if p is None]
    found = {p.name_key: p for p in Player.objects.filter(name_key__in=keys)} if keys else {}
    resolved: list[Player | str] = [
        p if p is not None else found.get(name_key(g), g) for p, g in given
    ]
    seen: set = set()
    for m in resolved:
        ident = m.pk if isinstance(m, Player) else name_key(m)
        if ident in seen:
            label = m.name if isinstance(m, Player) else m
            raise TournamentError(twice, params={"name": label})
        seen.add(ident)
    registered = {e.player_id: e for e in existing}
    for m in resolved:
        if isinstance(m, Player) and m.pk in registered:
            other = registered[m.pk].team or "—"
            raise TournamentError(in_team, params={"name": m.name, "team": other})
    return [
        m if isinstance(m, Player) else player_create(name=m, guest=True, user=user)
        for m in resolved
    ]


def _entry(entry: Entry) -> dict:
    return {
        "entry": entry.pk,
        "player": _player(entry.player),
        "licence": entry.licence,
        "first_round": entry.first_round,
        "last_round": entry.last_round,
        **({"team": entry.team} if entry.team else {}),
        **({"seat": f"{entry.orientation}{entry.start_table}"} if entry.orientation else {}),
    }


def _settings(t: Tournament) -> dict:
    return {
        "name": t.name,
        "date": t.date.isoformat(),
        "place": t.place,
        "rounds": t.rounds,
        "deals_per_round": t.deals_per_round,
        "allow_three": t.allow_three,
        "ranking": t.ranking,
        **({"format": t.format, "tables": t.table_count} if t.format == Format.DUPLICATE else {}),
        **(
            {"format": t.format, "first_colour": t.first_colour}
            if t.format == Format.TRIPLETTE
            else {}
        ),
        **({"format": t.format} if t.format == Format.QUADRETTE else {}),
    }


def round_seats(t: Tournament, round_number: int) -> dict:
    """A round's seating for the history: {"round", "tables": [{table, game, players}]}."""
    # One join over the seats. A prefetch through the tables' games asked for them as
    # "id = 1 OR id = 2 OR ...", which SQLite refuses from 1,000 games on ("Expression tree
    # is too large"): a round of 1,000 tables could not be logged.
    seats = (
        Seat.objects.filter(game__tournament_table__tournament=t)
        .filter(game__tournament_table__round=round_number)
        .select_related("player")
        .annotate(table_number=F("game__tournament_table__number"))
        .order_by("table_number", "position")
    )
    tables: dict[int, dict] = {}
    for s in seats:
        table = tables.setdefault(s.table_number, {"table": s.table_number, "game": s.game_id})
        table.setdefault("players", []).append(_player(s.player))
    return {"round": round_number, "tables": list(tables.values())}


def _table(table: Table, game: Game) -> dict:
    return {"round": table.round, "table": table.number, "game": game.pk}


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
    format: str = Format.FREE,
    tables: int = 0,
    created_by=None,
    key: str = "",
    seed: int | None = None,
) -> Tournament:
    """A new tournament. `key` is the creation form's one-time key: the same form sent twice
    (a double tap, a reload) gives the tournament created the first time. `seed` fixes the
    seating draw (the demo club draws the same tables at every load); by default it is new.

    In duplicate (`format`), `tables` tables of four play `deals_per_round` boards a round
    (a multiple of 4), for at most `tables` rounds (duplicate.md 1.6)."""
    key = (key or "")[:32]
    if key:
        existing = Tournament.objects.filter(creation_key=key).first()
        if existing is not None:
            return existing
    name = " ".join((name or "").split())
    if not name:
        raise TournamentError(ERR_NAME)
    if not 1 <= rounds <= 20:
        raise TournamentError(ERR_ROUNDS)
    if not 1 <= deals_per_round <= 24:
        raise TournamentError(ERR_DEALS)
    if format not in Format.values:
        raise TournamentError(ERR_FORMAT)
    if format == Format.DUPLICATE:
        if isinstance(tables, bool) or not isinstance(tables, int):
            raise TournamentError(ERR_DUPLICATE_TABLES, params={"max": DUPLICATE_MAX_TABLES})
        if not 2 <= tables <= DUPLICATE_MAX_TABLES:
            raise TournamentError(ERR_DUPLICATE_TABLES, params={"max": DUPLICATE_MAX_TABLES})
        if rounds > tables:
            raise TournamentError(ERR_DUPLICATE_ROUNDS, params={"tables": tables})
        if deals_per_round % 4:
            raise TournamentError(ERR_DUPLICATE_BOARDS)
        allow_three = False
    elif format == Format.TRIPLETTE:
        # the tables are the North-South teams, counted at the start (duplicate.md 2.2)
        if deals_per_round % 4:
            raise TournamentError(ERR_DUPLICATE_BOARDS)
        allow_three, tables = False, 0
    elif format == Format.QUADRETTE:
        # the tables are the teams (each defence keeps its own), counted at the start (2.3)
        allow_three, tables = False, 0
    else:
        tables = 0
    try:
        with transaction.atomic():  # a savepoint: a simultaneous twin may win the key
            t = Tournament.objects.create(
                creation_key=key,
                name=name[:120],
                date=date,
                place=(place or "").strip()[:120],
                rounds=rounds,
                deals_per_round=deals_per_round,
                allow_three=allow_three,
                ranking=ranking,
                format=format,
                table_count=tables,
                house_rules=house.stored(house.club_defaults("tarot")),
                created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
                **({"seed": seed} if seed is not None else {}),
            )
            if format == Format.TRIPLETTE:
                t.first_colour = triplette_rules.draw_first_colour(t.seed, 0)
                t.save(update_fields=["first_colour"])
    except IntegrityError:
        existing = Tournament.objects.filter(creation_key=key).first() if key else None
        if existing is None:
            raise
        return existing
    log_action(t, CREATED, user=created_by, after=_settings(t))
    return t


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    ranking: str | None = None,
    allow_three: bool | None = None,
    user=None,
) -> Tournament:
    """Settings that may change at any time (the ranking) or until the start (tables of 3)."""
    t = _lock(tournament)
    before = {"ranking": t.ranking, "allow_three": t.allow_three}
    if ranking is not None:
        t.ranking = ranking
    if allow_three is not None and allow_three != t.allow_three:
        if t.status != Status.REGISTRATION:
            raise TournamentError(ERR_NOT_REGISTRATION)
        t.allow_three = allow_three
    after = {"ranking": t.ranking, "allow_three": t.allow_three}
    if after != before:
        t.save(update_fields=["ranking", "allow_three"])
        changed = [k for k in after if after[k] != before[k]]
        log_action(
            t,
            UPDATED,
            user=user,
            before={k: before[k] for k in changed},
            after={k: after[k] for k in changed},
        )
    return t


@transaction.atomic
def tournament_set_house_rules(*, tournament: Tournament, rules, user=None) -> Tournament:
    """The house rules the tournament's tables play by, until the first round is seated (its
    tables take their copy then)."""
    t = _lock(tournament)
    if t.status != Status.REGISTRATION:
        raise TournamentError(ERR_NOT_REGISTRATION)
    cls = house.rules_class("tarot")
    try:
        checked = rules if isinstance(rules, cls) else cls.from_dict(rules)
    except RuleError as e:
        raise TournamentError(e.translated(gettext)) from e
    before, after = t.house_rules or {}, house.stored(checked)
    if before != after:
        t.house_rules = after
        t.save(update_fields=["house_rules"])
        log_action(t, HOUSE_RULES_SET, user=user, before=before, after=after)
    return t


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    player: Player | None = None,
    guest_name: str = "",
    licence: str = "",
    team: str = "",
    orientation: str = "",
    start_table: int | None = None,
    user=None,
) -> Entry:
    """Register a roster player, or a guest by name. A late player sits from the next round.

    ``team`` names the player's team in a free-deal team event (teams of 2 or 4): the entries
    with the same name, as ``text_key`` compares names, form one team. A full team is refused
    a fifth player.

    In duplicate, ``orientation`` and ``start_table`` give the player's seat (a free one);
    without them the start gives the player a seat left free. Nobody joins after the start."""
    t = _lock(tournament)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if t.triplette:
        raise TournamentError(ERR_TRIPLETTE_BY_TEAM)
    if t.quadrette:
        raise TournamentError(ERR_QUADRETTE_BY_TEAM)
    if t.duplicate:
        if t.status != Status.REGISTRATION:
            raise TournamentError(ERR_DUPLICATE_LATE)
        if t.entries.count() >= 4 * t.table_count:
            raise TournamentError(ERR_DUPLICATE_FULL, params={"seats": 4 * t.table_count})
        orientation, start_table = _check_seat(t, orientation, start_table)
    elif orientation or start_table is not None:
        raise TournamentError(ERR_ORIENTATION)
    if player is None:
        # a guest who came before is the same guest again, found by the name's key
        player = Player.objects.filter(name_key=name_key(guest_name)).first() or player_create(
            name=guest_name, guest=True, licence=licence, user=user
        )
    if Entry.objects.filter(tournament=t, player=player).exists():
        raise TournamentError(ERR_ALREADY_REGISTERED, params={"name": player.name})
    licence = (licence or player.licence or "").strip()[:20]
    team = " ".join((team or "").split())
    if len(team) > TEAM_NAME_MAX:
        raise TournamentError(ERR_TEAM_NAME, params={"max": TEAM_NAME_MAX})
    if team:
        same = [e.team for e in t.entries.exclude(team="") if text_key(e.team) == text_key(team)]
        if len(same) >= TEAM_MAX:
            raise TournamentError(ERR_TEAM_FULL, params={"team": team, "max": TEAM_MAX})
        team = same[0] if same else team  # the team's name as first written
    entry = Entry.objects.create(
        tournament=t,
        player=player,
        licence=licence,
        team=team,
        orientation=orientation,
        start_table=start_table,
        first_round=t.current_round + 1 if t.status == Status.RUNNING else 1,
    )
    if t.status == Status.RUNNING:
        _replan(t)
    log_action(t, ENTRY_REGISTERED, user=user, after={**_entry(entry), "guest": player.guest})
    return entry


def _check_seat(t: Tournament, orientation, start_table) -> tuple[str, int | None]:
    """A duplicate seat as given (both or neither), free in the tournament."""
    orientation = orientation or ""
    if not orientation and start_table is None:
        return "", None
    if not orientation or start_table is None:
        raise TournamentError(ERR_SEAT_HALF)
    if orientation not in Orientation.values:
        raise TournamentError(ERR_ORIENTATION)
    if isinstance(start_table, bool) or not isinstance(start_table, int):
        raise TournamentError(ERR_START_TABLE, params={"tables": t.table_count})
    if not 1 <= start_table <= t.table_count:
        raise TournamentError(ERR_START_TABLE, params={"tables": t.table_count})
    taken = (
        t.entries.filter(orientation=orientation, start_table=start_table)
        .select_related("player")
        .first()
    )
    if taken is not None:
        raise TournamentError(
            ERR_SEAT_TAKEN,
            params={"seat": f"{orientation}{start_table}", "name": taken.player.name},
        )
    return orientation, start_table


@dataclass(frozen=True)
class BulkResult:
    registered: int  # entries made
    skipped: int  # already registered
    guests: int  # guests created (among the registered)


@transaction.atomic
def entries_register_bulk(*, tournament: Tournament, lines, user=None) -> BulkResult:
    """Register every player of a pasted list (`bulk.parse` lines) in one transaction.

    Each line is matched now, under the tournament's lock (`selectors.bulk_preview`): roster
    players by their name's key or licence, those already registered skipped, the others
    created as guests. A conflicting line refuses the whole list. One history entry. The same
    list sent twice (a double tap) registers nobody the second time.
    """
    t = _lock(tournament)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if t.triplette:
        raise TournamentError(ERR_TRIPLETTE_BY_TEAM)
    if t.quadrette:
        raise TournamentError(ERR_QUADRETTE_BY_TEAM)
    if t.duplicate and t.status != Status.REGISTRATION:
        raise TournamentError(ERR_DUPLICATE_LATE)
    preview = bulk_preview(t, lines)
    if preview.conflicts:
        line, named, other = preview.conflicts[0]
        raise TournamentError(
            ERR_BULK_CONFLICT,
            code="conflict",
            params={
                "line": line.number,
                "text": line.name,
                "name": named.name,
                "other": other.name,
            },
        )
    todo = [(p, line) for p, line in preview.matched + preview.by_licence]
    if t.duplicate:
        count = len(todo) + len(preview.guests) + t.entries.count()
        if count > 4 * t.table_count:
            raise TournamentError(ERR_DUPLICATE_FULL, params={"seats": 4 * t.table_count})
    guests = []
    for line in preview.guests:
        guest = player_create(name=line.name, guest=True, licence=line.licence, user=user)
        guests.append(guest)
        todo.append((guest, line))
    first_round = t.current_round + 1 if t.status == Status.RUNNING else 1
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=t,
            player=player,
            licence=(line.licence or player.licence or "")[:20],
            first_round=first_round,
        )
        for player, line in sorted(todo, key=lambda x: x[1].number)
    )
    if entries and t.status == Status.RUNNING:
        _replan(t)
    if entries:
        log_action(
            t,
            ENTRIES_REGISTERED,
            user=user,
            after={
                "players": [_player(e.player) for e in entries],
                "guests": [g.name for g in guests],
                "skipped": [_player(p) for p, _line in preview.registered],
                "first_round": first_round,
            },
        )
    return BulkResult(registered=len(entries), skipped=len(preview.registered), guests=len(guests))


@transaction.atomic
def entry_withdraw(*, entry: Entry, from_round: int | None = None, user=None) -> Entry:
    """The player is not seated from the next round on; their scores stay.

    During registration the entry is removed. `from_round` is the round the director's page
    showed: the withdrawal is refused when the tournament moved on meanwhile (the player may
    be seated in the new round already).
    """
    t = _lock(entry.tournament)
    entry = Entry.objects.select_for_update().select_related("player").filter(pk=entry.pk).first()
    if entry is None:
        raise TournamentError(ERR_ENTRY_GONE, code="gone")
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if entry.withdrawn:
        raise TournamentError(ERR_ALREADY_WITHDRAWN, params={"name": entry.player.name})
    _check_round(t, from_round)
    before = _entry(entry)
    if (t.duplicate or t.triplette or t.quadrette) and t.status != Status.REGISTRATION:
        raise TournamentError(ERR_DUPLICATE_WITHDRAW)
    if t.status == Status.REGISTRATION:
        entry.delete()
        log_action(t, ENTRY_REMOVED, user=user, before=before)
        return entry
    entry.last_round = t.current_round
    entry.save(update_fields=["last_round"])
    _replan(t)
    log_action(t, ENTRY_WITHDRAWN, user=user, before=before, after=_entry(entry))
    return entry


# --- seating -----------------------------------------------------------------------------------


def _present(entries: list[Entry], round_number: int) -> list[int]:
    """Player pks seated in `round_number`: registered by then and not withdrawn before."""
    return sorted(
        e.player_id
        for e in entries
        if e.first_round <= round_number and (e.last_round is None or e.last_round >= round_number)
    )


def _history(t: Tournament) -> list[list[list[int]]]:
    """The rounds already seated, in the planner's shape, seats in order."""
    # One join over the seats (see round_seats: a prefetch through the games made SQLite
    # refuse from 1,000 tables, and so the 1,000-player tournament from round 5).
    seats = (
        Seat.objects.filter(game__tournament_table__tournament=t)
        .order_by("game__tournament_table__round", "game__tournament_table__number", "position")
        .values_list("game__tournament_table__round", "game_id", "player_id")
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for rnd, game_id, player_id in seats:
        rounds.setdefault(rnd, {}).setdefault(game_id, []).append(player_id)
    return [list(rounds[r].values()) for r in sorted(rounds)]


def _teams(entries: list[Entry]) -> dict[int, str]:
    """Player pk → team key, for the entries in a team (the planner keeps teammates apart)."""
    return {e.player_id: text_key(e.team) for e in entries if e.team}


def _replan(t: Tournament) -> None:
    """Plan every round still to come from the rounds already seated; store it."""
    remaining = t.rounds - t.current_round
    if remaining <= 0:
        t.plan = []
    elif t.duplicate:  # the movement seats every round (duplicate.md 1.6)
        m = duplicate.stored_movement(t)
        entries = list(t.entries.all())
        t.plan = [
            duplicate.round_plan(m, entries, r) for r in range(t.current_round + 1, t.rounds + 1)
        ]
    elif t.triplette:  # the movement seats the teams (duplicate.md 2.2)
        m = triplette.stored_movement(t)
        entries = list(t.entries.select_related("player"))
        t.plan = [
            triplette.round_plan(m, entries, r) for r in range(t.current_round + 1, t.rounds + 1)
        ]
    elif t.quadrette:  # the oppositions seat the teams (duplicate.md 2.3)
        entries = list(t.entries.select_related("player"))
        t.plan = [
            quadrette.round_plan(t, entries, r) for r in range(t.current_round + 1, t.rounds + 1)
        ]
    else:
        entries = list(t.entries.all())
        players = _present(entries, t.current_round + 1)
        try:
            t.plan = seating.plan_rounds(
                players,
                remaining,
                history=_history(t),
                allow_three=t.allow_three,
                teams=_teams(entries),
                seed=t.seed,
            )
        except seating.SeatingError as e:
            raise TournamentError(ERR_SEATING, params={"reason": e.translated(gettext)}) from e
    t.save(update_fields=["plan"])


def _seat_round(t: Tournament, round_number: int, tables: list[list[int]]) -> None:
    """The round's games and tables, inserted in bulk (a constant number of queries)."""
    players = {p.pk: p for p in Player.objects.filter(pk__in=[pk for tb in tables for pk in tb])}
    m = (
        triplette.stored_movement(t)
        if t.triplette
        else duplicate.stored_movement(t)
        if t.duplicate
        else None
    )
    options_of = triplette.table_options if t.triplette else duplicate.table_options
    if t.quadrette:  # the oppositions stand for the movement (`quadrette.schedule`)
        m, options_of = t.movement, _quadrette_options
    started = games.games_start(
        tables=[
            {
                "players": [players[pk] for pk in seated],
                "first_dealer": 0,
                "kind": "tarot",
                "name": f"{t.name} · R{round_number} T{number}",
                "dealer_sits_out": len(seated) == 5,
                "options": {
                    **(
                        options_of(t, m, round_number, number, seated)
                        if m is not None
                        else {"deals": deals_for_table(t, len(seated))}
                    ),
                    house.OPTION: t.house_rules or {},
                },
            }
            for number, seated in enumerate(tables, start=1)
        ]
    )
    Table.objects.bulk_create(
        Table(tournament=t, round=round_number, number=number, game=game)
        for number, game in enumerate(started, start=1)
    )


def _quadrette_options(t: Tournament, _m, round_number: int, number: int, seated) -> dict:
    return quadrette.table_options(t, round_number, number, seated)


def _min_players(t: Tournament) -> int:
    return 3 if t.allow_three else 4


@transaction.atomic
def tournament_start(
    *, tournament: Tournament, from_round: int | None = None, user=None
) -> Tournament:
    """Close registration, plan every round, seat round 1 (`from_round`: 0, the form's)."""
    t = _lock(tournament)
    if t.status != Status.REGISTRATION:
        raise TournamentError(
            ERR_STARTED_ALREADY if from_round is not None else ERR_NOT_REGISTRATION
        )
    _check_round(t, from_round)
    entries = list(t.entries.select_related("player").order_by("player__name"))
    if len(entries) < _min_players(t):
        raise TournamentError(
            ERR_NOT_ENOUGH, params={"min": _min_players(t), "count": len(entries)}
        )
    teams: dict[str, list[str]] = {}
    for e in entries:
        if e.team:
            teams.setdefault(text_key(e.team), []).append(e.team)
    odd = sorted(names[0] for names in teams.values() if len(names) not in (2, 4))
    if odd and not (t.triplette or t.quadrette):
        raise TournamentError(ERR_TEAM_SIZES, params={"teams": ", ".join(odd)})
    if t.duplicate:
        _start_duplicate(t, entries, user=user)
    elif t.triplette:
        _start_triplette(t, entries)
    elif t.quadrette:
        _start_quadrette(t, entries)
    _replan(t)
    t.status = Status.RUNNING
    t.current_round = 1
    _seat_round(t, 1, t.plan[0])
    t.plan = t.plan[1:]
    t.save(update_fields=["status", "current_round", "plan"])
    log_action(
        t,
        STARTED,
        user=user,
        before={"status": Status.REGISTRATION},
        after={
            "status": t.status,
            "players": [
                {
                    **_player(e.player),
                    **({"seat": f"{e.orientation}{e.start_table}"} if e.orientation else {}),
                }
                for e in entries
            ],
            **({"movement": t.movement} if t.duplicate or t.triplette or t.quadrette else {}),
            **(
                {
                    "teams": {
                        name: [
                            {**_player(e.player), "line": e.line, "badge": e.badge} for e in members
                        ]
                        for name, members in triplette.teams(entries).items()
                    },
                    "tables": t.table_count,
                    "first_colour": t.first_colour,
                }
                if t.triplette
                else {}
            ),
        },
    )
    log_action(t, ROUND_SEATED, user=user, after=round_seats(t, 1))
    return t


def _start_duplicate(t: Tournament, entries: list[Entry], *, user=None) -> None:
    """Seat every duplicate player (a free seat for those without one, in name order),
    generate the movement and store it."""
    seats = 4 * t.table_count
    if len(entries) != seats:
        raise TournamentError(
            ERR_DUPLICATE_COUNT,
            params={"tables": t.table_count, "seats": seats, "count": len(entries)},
        )
    taken = {(e.orientation, e.start_table) for e in entries if e.orientation}
    free = [
        (o, table)
        for table in range(1, t.table_count + 1)
        for o in Orientation.values
        if (o, table) not in taken
    ]
    placed = []
    for entry, (o, table) in zip([e for e in entries if not e.orientation], free, strict=True):
        entry.orientation, entry.start_table = o, table
        placed.append(entry)
    Entry.objects.bulk_update(placed, ["orientation", "start_table"])
    m = duplicate.new_movement(t)
    t.movement = duplicate.movement_data(m)
    t.save(update_fields=["movement"])


def _start_triplette(t: Tournament, entries: list[Entry]) -> None:
    """Check the teams (3 players each, as many North-South as East-West, an even number),
    give each team its starting table on its line (in name order) and each member a badge
    (by surname, `scoring.triplette.badges`), then make the movement the director chose
    (Stay or Howell, `scoring.triplette_movement`) on as many tables as North-South teams and
    store it as data (duplicate.md 2.2). A team's starting line and table are its key."""
    by_team = triplette.teams(entries)
    loose = [e.player.name for e in entries if not e.team]
    if loose:
        raise TournamentError(ERR_TRIPLETTE_LOOSE, params={"names": ", ".join(sorted(loose))})
    wrong = sorted(name for name, members in by_team.items() if len(members) != 3)
    if wrong:
        raise TournamentError(ERR_TRIPLETTE_SIZE, params={"teams": ", ".join(wrong)})
    if len(by_team) % 2:
        raise TournamentError(ERR_TRIPLETTE_ODD, params={"count": len(by_team)})
    lines = {
        line: sorted((n for n, m in by_team.items() if m[0].line == line), key=text_key)
        for line in (Line.NORTH_SOUTH, Line.EAST_WEST)
    }
    if len(lines[Line.NORTH_SOUTH]) != len(lines[Line.EAST_WEST]):
        raise TournamentError(
            ERR_TRIPLETTE_LINES,
            params={"ns": len(lines[Line.NORTH_SOUTH]), "ew": len(lines[Line.EAST_WEST])},
        )
    tables = len(lines[Line.NORTH_SOUTH])
    if tables < 2:
        raise TournamentError(ERR_TRIPLETTE_FEW, params={"count": len(by_team)})
    if tables > DUPLICATE_MAX_TABLES:
        raise TournamentError(ERR_DUPLICATE_TABLES, params={"max": DUPLICATE_MAX_TABLES})
    kind = t.triplette_movement
    most = triplette.most_rounds(kind, 2 * tables)
    if t.rounds > most:
        raise TournamentError(
            ERR_TRIPLETTE_ROUNDS, params={"rounds": t.rounds, "teams": 2 * tables, "most": most}
        )
    try:
        tm = triplette_moves.make(kind, 2 * tables, t.rounds)
    except RuleError as e:
        raise TournamentError(e.translated(gettext)) from e
    changed = []
    for names in lines.values():
        for table, name in enumerate(names, start=1):
            members = by_team[name]
            given = triplette_rules.badges([e.player.name for e in members])
            for e, badge in zip(members, given, strict=True):
                e.start_table, e.badge = table, badge
                changed.append(e)
    Entry.objects.bulk_update(changed, ["start_table", "badge"])
    if not t.first_colour:
        t.first_colour = triplette_rules.draw_first_colour(t.seed, t.colour_draws)
    t.table_count = tables
    t.movement = triplette.movement_data(tm)
    t.save(update_fields=["table_count", "movement", "first_colour"])


def _start_quadrette(t: Tournament, entries: list[Entry]) -> None:
    """Check the teams (4 players each: one attacker, South, and 3 defenders, North, East,
    West; an even number of teams, at least 2), number them in name order (each team's
    number is its defence's table), and store the oppositions of every round
    (`scoring.quadrette.oppositions`, duplicate.md 2.3)."""
    from scoring import quadrette as quadrette_rules

    by_team = quadrette.teams(entries)
    loose = [e.player.name for e in entries if not e.team]
    if loose:
        raise TournamentError(ERR_QUADRETTE_LOOSE, params={"names": ", ".join(sorted(loose))})
    seats = sorted((quadrette_rules.ATTACK, *quadrette_rules.DEFENCE))
    wrong = sorted(
        name for name, members in by_team.items() if sorted(e.orientation for e in members) != seats
    )
    if wrong:
        raise TournamentError(ERR_QUADRETTE_SIZE, params={"teams": ", ".join(wrong)})
    if len(by_team) < 2:
        raise TournamentError(ERR_QUADRETTE_FEW, params={"count": len(by_team)})
    if len(by_team) % 2:
        raise TournamentError(ERR_QUADRETTE_ODD, params={"count": len(by_team)})
    if len(by_team) > DUPLICATE_MAX_TABLES:
        raise TournamentError(ERR_DUPLICATE_TABLES, params={"max": DUPLICATE_MAX_TABLES})
    changed = []
    for number, name in enumerate(sorted(by_team, key=text_key), start=1):
        for e in by_team[name]:
            e.start_table = number
            changed.append(e)
    Entry.objects.bulk_update(changed, ["start_table"])
    t.table_count = len(by_team)
    t.movement = quadrette.schedule_data(len(by_team), t.rounds)
    t.save(update_fields=["table_count", "movement"])


def open_tables(t: Tournament, round_number: int) -> list[Table]:
    return list(
        Table.objects.filter(tournament=t, round=round_number, game__locked=False).order_by(
            "number"
        )
    )


@transaction.atomic
def tournament_next_round(
    *,
    tournament: Tournament,
    force: bool = False,
    from_round: int | None = None,
    user=None,
) -> Tournament:
    """Start the next round once every table has confirmed (or when the director forces it).

    After the last round, the tournament is finished. `from_round` is the round the
    director's form was made at: when the tournament is no longer there (a double tap, a
    second screen), nothing moves.
    """
    t = _lock(tournament)
    if t.status == Status.FINISHED:
        raise TournamentError(ERR_FINISHED)
    if t.status != Status.RUNNING:
        raise TournamentError(ERR_NOT_RUNNING)
    _check_round(t, from_round)
    tables, locked = _lock_round_games(t, t.current_round)
    still_open = [x for x in tables if not locked[x.game_id].locked]
    if still_open and not force:
        raise TournamentError(
            ERR_TABLES_OPEN, params={"tables": ", ".join(str(x.number) for x in still_open)}
        )
    forced = []
    for table in still_open:  # forced: lock what was entered so far
        game = locked[table.game_id]
        deals = game.deals.count()
        games.game_set_locked(game=game, locked=True, user=user)
        forced.append({**_table(table, game), "deals": deals, "planned": game.options.get("deals")})
    if forced:
        log_action(t, ROUND_FORCED, user=user, after={"round": t.current_round, "tables": forced})
    if t.current_round >= t.rounds:
        t.status = Status.FINISHED
        t.plan = []
        t.save(update_fields=["status", "plan"])
        log_action(
            t,
            FINISHED,
            user=user,
            before={"status": Status.RUNNING, "round": t.current_round},
            after={"status": t.status, "round": t.current_round},
        )
        return t
    t.current_round += 1
    t.save(update_fields=["current_round"])
    _replan_from(t, t.current_round)
    _seat_round(t, t.current_round, t.plan[0])
    t.plan = t.plan[1:]
    t.save(update_fields=["plan"])
    log_action(t, ROUND_SEATED, user=user, after=round_seats(t, t.current_round))
    return t


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, user=None) -> Tournament:
    """A director opens a finished tournament again (a result to correct after the end).

    It is running again at its last round, whose tables stay confirmed: the director unlocks
    the one to correct, and finishes the tournament again as before. A second tap finds it
    running and is refused; nothing changes twice.
    """
    t = _lock(tournament)
    if t.status != Status.FINISHED:
        raise TournamentError(ERR_NOT_FINISHED, code="not_finished")
    t.status = Status.RUNNING
    t.save(update_fields=["status"])
    log_action(
        t,
        REOPENED,
        user=user,
        before={"status": Status.FINISHED},
        after={"status": t.status, "round": t.current_round},
    )
    return t


def _replan_from(t: Tournament, round_number: int) -> None:
    """Plan rounds `round_number`.. from history (current_round already points at it)."""
    saved = t.current_round
    t.current_round = round_number - 1
    _replan(t)
    t.current_round = saved


@transaction.atomic
def round_redraw(
    *,
    tournament: Tournament,
    from_round: int | None = None,
    draw: int | None = None,
    user=None,
) -> Tournament:
    """Seat the current round anew (another draw) while nothing has been written in it.

    The tournament row and the round's games are locked before anything is checked: a phone
    entering the round's first deal either went first (the redraw is refused) or waits and
    finds its table gone (and is told where its players sit now). `from_round` and `draw`
    (the tournament's seed) are what the director's form showed: a second tap is refused.
    """
    t = _lock(tournament)
    if t.status != Status.RUNNING:
        raise TournamentError(ERR_NOT_RUNNING)
    if t.duplicate or t.triplette or t.quadrette:
        raise TournamentError(ERR_DUPLICATE_REDRAW)
    _check_round(t, from_round)
    if draw is not None and draw != t.seed:
        raise TournamentError(ERR_REDRAWN_ALREADY, code="redrawn")
    tables, locked = _lock_round_games(t, t.current_round)
    game_ids = list(locked)
    written = (
        any(g.locked or g.finished for g in locked.values())
        or Deal.objects.filter(game_id__in=game_ids).exists()
        or Change.objects.filter(game_id__in=game_ids).exists()  # a deal entered, then undone
    )
    if written:
        raise TournamentError(ERR_ROUND_STARTED)
    before = round_seats(t, t.current_round)
    seats = {x["game"]: [p["pk"] for p in x["players"]] for x in before["tables"]}
    RedrawnTable.objects.bulk_create(
        RedrawnTable(
            tournament=t,
            round=x.round,
            number=x.number,
            token=locked[x.game_id].token,
            players=seats.get(x.game_id, []),
        )
        for x in tables
    )
    Table.objects.filter(pk__in=[x.pk for x in tables]).delete()
    Game.objects.filter(pk__in=game_ids).delete()
    t.seed = (t.seed * 1103515245 + 12345) % (2**31)
    t.save(update_fields=["seed"])
    _replan_from(t, t.current_round)
    _seat_round(t, t.current_round, t.plan[0])
    t.plan = t.plan[1:]
    t.save(update_fields=["plan"])
    log_action(t, ROUND_REDRAWN, user=user, before=before, after=round_seats(t, t.current_round))
    return t


# --- the tables' sheets ------------------------------------------------------------------------


def _require(game: Game, what: str, *, user, deal_count: int | None = None) -> None:
    verdict = policy.check(game, what, user=user, deal_count=deal_count)
    if not verdict:
        raise TournamentError(verdict.message, code=what, params=verdict.params)


@transaction.atomic
def table_confirm(*, table: Table, user=None) -> Table:
    """The players confirm their sheet: every deal in, totals zero; then it is locked."""
    game = games.lock_game(table.game)
    _require(game, policy.CONFIRM, user=user, deal_count=game.deals.count())
    totals = game_totals_db(game)
    if sum(totals.values()) != 0:
        raise TournamentError(ERR_SHEET_NOT_ZERO)
    games.game_set_locked(game=game, locked=True, user=user)
    log_action(
        table.tournament,
        TABLE_CONFIRMED,
        user=user,
        before={**_table(table, game), "locked": False},
        after={**_table(table, game), "locked": True},
    )
    return table


@transaction.atomic
def table_unlock(*, table: Table, user=None) -> Table:
    """The director opens a confirmed sheet again for a correction."""
    t = _lock(table.tournament)
    game = games.lock_game(table.game)
    _require(game, policy.UNLOCK, user=user)
    games.game_set_locked(game=game, locked=False, user=user)
    log_action(
        t,
        TABLE_UNLOCKED,
        user=user,
        before={**_table(table, game), "locked": True},
        after={**_table(table, game), "locked": False},
    )
    return table
