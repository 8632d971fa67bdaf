"""Writes to games, whatever their kind. Each function is one transaction.

Errors a person can cause raise `GameError` (a `core.errors.Refused` whose message is
translated); an entry changed by another phone since it was loaded raises `StaleError`.
Every write leaves a `Change` and bumps the game's revision through `log_change`.

French Tarot's deals are written by `tarotclub.kinds.tarot.services`; the records of the
replayed kinds by the `record_*` functions here.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import RuleError
from tarotclub.core import sql
from tarotclub.core.errors import Refused
from tarotclub.core.history import field
from tarotclub.core.models import acting_user, action, log_action
from tarotclub.players.models import Player

from . import house, kinds, policy
from .models import Change, ChangeAction, ClubRules, Game, Record, RefusedEntry, Seat
from .replayed import Played, named_message, to_json

ERR_KIND = _("Choose one of the games.")
ERR_KIND_SIZE = _("%(game)s is played by %(low)s to %(high)s players.")
ERR_DUPLICATE_PLAYER = _("Each player can sit only once at the table.")
ERR_UNKNOWN_PLAYER = _("That player is not on the club's roster.")
ERR_FIRST_DEALER = _("The first dealer must be one of the players.")
ERR_FINISHED = policy.ERR_FINISHED
ERR_LOCKED = policy.ERR_LOCKED
ERR_GONE = _("This game no longer exists.")
ERR_ALREADY_FINISHED = _("This game is already finished.")
ERR_OVER = _("This game is over: no entry can be added or changed.")
ERR_NO_RECORD = _("There is nothing to undo.")
ERR_NOT_LAST = _("Only the last entry can be undone; entry %(number)s was made since.")
ERR_ENTRY_TAKEN = _(
    "Entry %(number)s was just made from another phone. Check the sheet before entering "
    "the next one."
)
ERR_NO_SUCH_RECORD = _("This entry does not exist (any more).")
ERR_FINISHED_CORRECT = _(
    "This game is over, so its entries can no longer change. "
    "To fix the last one, undo it and enter it again."
)
ERR_STOPPED = _("This game was stopped: its entries can no longer change.")
ERR_LATER_RECORD = _("With this change, entry %(number)s no longer fits: %(message)s")
ERR_STALE = _(
    "Somebody else changed this entry since you opened it. Here is the newer version; "
    "check it and enter your change again if it is still needed."
)


class GameError(Refused):
    """A refused write to a game, with a message in the user's language."""


class StaleError(GameError):
    """The entry changed since the person opened it; `entry` is the newer version."""

    def __init__(self, entry, message=ERR_STALE):
        super().__init__(message, code="stale")
        self.entry = entry

    @property
    def record(self):
        return self.entry

    @property
    def deal(self):
        return self.entry


class RuleRefused(GameError):
    """The rules refuse a record."""

    def __init__(self, message, params=None):
        super().__init__(message, code="rule", params=params)


# --- the helpers every write uses ----------------------------------------------------------


def lock_game(
    game: Game,
    *,
    count_of: type[models.Model] | None = None,
    client_of: type[models.Model] | None = None,
    client_id=None,
) -> Game:
    """Re-read the game under a row lock so concurrent phones write one after the other.

    With `count_of` (a model with a `game` foreign key: a kind's entries), the locked game also
    carries `entry_count`, the number of its rows as the lock found them. With `client_of` and
    `client_id` (a phone's id for an entry, see `entry_sent_before`), it carries `sent_before`:
    the primary key of the entry of `client_of` already saved with that id, or None.

    The game may have gone meanwhile (a tournament round redrawn before its first deal): that
    is a refusal with a message, not a crash.

    One plain SELECT (the ORM's compiling of it cost more than running it). What else it reads
    depends on how the database locks:

    - SQLite: the write transaction (BEGIN IMMEDIATE) is the lock, taken before the first
      read, so every read of the transaction sees the last commit. The statement also counts
      the entries and reads the state of the event the game is a table of (every event
      lookup's `policy.EventSql`) and looks for the phone's id, so the policy's check under the
      lock reads nothing more and a save with an id costs no extra query.
    - PostgreSQL: SELECT ... FOR UPDATE. A statement that waited for the lock sees the locked
      row as the phone that held it left it, but every other table as it was when the
      statement began (READ COMMITTED: a snapshot per statement): a COUNT or a join in it
      would miss the deal that phone just saved (two phones then both saving deal 1: a
      duplicate key, a 500). So the count is the locked row's own tally (kept by every write,
      `Game.tally`), or a COUNT run after the lock when the tally is not current; the event's
      state is read after the lock too (`policy.event_table`), and so is the phone's id (one
      query more for a save that carries one).
    """
    if not connection.in_atomic_block:
        raise TransactionManagementError("lock_game() runs inside a transaction.")
    in_one = not connection.features.has_select_for_update
    events = policy.event_sql() if in_one else None
    looking = client_of is not None and client_id is not None
    params = [game.pk]
    if looking and in_one:
        field = client_of._meta.get_field("client_id")
        params.insert(0, field.get_db_prep_value(client_id, connection))
    with connection.cursor() as cursor:
        cursor.execute(
            _lock_sql(
                connection.vendor,
                count_of if in_one else None,
                client_of if looking and in_one else None,
                tuple(events or ()),
            ),
            params,
        )
        row = cursor.fetchone()
    if row is None:
        raise GameError(ERR_GONE, code="gone")
    columns = sql.columns_of(Game, "g")
    locked = columns.build(row)
    at = columns.width
    if count_of is not None and in_one:
        locked.entry_count = row[at]
        at += 1
    elif count_of is not None:
        tally = locked.current_tally
        locked.entry_count = (
            tally["count"]
            if tally is not None
            else count_of._default_manager.filter(game_id=locked.pk).count()
        )
    if looking and in_one:
        locked.sent_before = row[at]
        at += 1
    elif looking:
        locked.sent_before = (
            client_of._default_manager.filter(game_id=locked.pk, client_id=client_id)
            .values_list("pk", flat=True)
            .first()
        )
    else:
        locked.sent_before = None
    if events is not None:
        found, at = policy.read_events(events, row, at)
        setattr(locked, policy.EVENT_READ, found)
    return locked


@functools.cache
def _lock_sql(
    vendor: str,
    count_of: type[models.Model] | None,
    client_of: type[models.Model] | None = None,
    events: tuple = (),
) -> str:
    pk = sql.quote(Game._meta.pk.column)
    extra, joins = "", ""
    if count_of is not None:
        entries = f"{sql.table(count_of)} e WHERE e.{sql.column(count_of, 'game')} = g.{pk}"
        extra += f", (SELECT COUNT(*) FROM {entries})"
    if client_of is not None:
        extra += (
            f", (SELECT c.{sql.quote(client_of._meta.pk.column)} FROM {sql.table(client_of)} c "
            f"WHERE c.{sql.column(client_of, 'client_id')} = %s "
            f"AND c.{sql.column(client_of, 'game')} = g.{pk})"
        )
    join, columns = policy.event_joins(events, "g")
    if columns:  # (none asked for, or no event lookup registered: nothing to join)
        joins += f" {join}"
        extra += f", {columns}"
    lock = (
        f" {connection.ops.for_update_sql()}" if connection.features.has_select_for_update else ""
    )
    columns = sql.columns_of(Game, "g").sql
    return f"SELECT {columns}{extra} FROM {sql.table(Game)} g{joins} WHERE g.{pk} = %s{lock}"


def require(game: Game, action: str, *, user=None, deal_count=None, played=None) -> None:
    """Refuse the write unless the policy allows it (call it on the locked game)."""
    verdict = policy.check(game, action, user=user, deal_count=deal_count, played=played)
    if not verdict:
        raise GameError(verdict.message, code=action, params=verdict.params)


def log_change(
    game: Game,
    action: str,
    *,
    number=None,
    before=None,
    after=None,
    user=None,
    tally=None,
    along: Together | None = None,
    entry: PreparedInsert | None = None,
) -> Change:
    """Keep one write in the game's history and tell the phones that follow it.

    `game` is the game as locked for the write. `tally` is its new `Game.tally` (count and
    totals) when the write changed them; else a current tally is carried to the new revision.
    `along`: the write's own statements, run with the history entry and the revision in one
    statement (PostgreSQL, see `Together`); without it they are two statements. `entry`: the
    history entry made before the lock (`change_entry`; the arguments that describe the
    entry are then not given again).
    """
    if entry is None:
        entry = change_entry(game, action, number=number, before=before, after=after, user=user)
    change = entry.obj
    if tally is None and game.current_tally is not None:
        tally = game.tally
    tally = None if tally is None else {**tally, "rev": game.revision + 1}
    if along is None:
        insert_row(change, entry)
        bump_revision(game, tally=tally)
        return change
    along.add("change", *entry.statement())
    along.add("revision", *bump_statement(game, tally=tally), returning=False)
    along.run()
    _inserted(change, along.pk("change"))
    _bumped(game, tally)
    return change


def change_entry(game: Game, action: str, *, number=None, before=None, after=None, user=None):
    """A history entry of `game`, made ready to insert (`log_change`'s `entry`)."""
    change = Change(
        game=game,
        number=number,
        action=action,
        before=before,
        after=after,
        user=acting_user(user),
    )
    return PreparedInsert(change)


WRITES_TOGETHER = "postgresql"


def writes_together() -> bool:
    """Whether a save's writes go to the database as one statement (`Together`)."""
    return connection.vendor == WRITES_TOGETHER


class Together:
    """Several writes as one statement: PostgreSQL's data-modifying WITH, one round trip for a
    save's deal, score lines, history entry and revision instead of one each. The statements
    run on the same snapshot, all or none (one statement), and a part may read the rows an
    earlier part returned (`SELECT n.id FROM new_deal n`). Foreign keys are checked at the end
    of the statement (Django makes them deferrable). Only where `writes_together()`."""

    def __init__(self):
        self.parts: list[tuple[str, str, list, bool]] = []
        self.pks: dict[str, object] = {}

    def add(self, name: str, statement: str, params: Sequence, *, returning: bool = True):
        """A part named `name` (the WITH's name other parts may read); `returning`: its
        statement returns the primary key of the one row it writes (`pk(name)`)."""
        self.parts.append((name, statement, list(params), returning))

    def run(self) -> None:
        named = [name for name, _s, _p, returning in self.parts if returning]
        query = (
            "WITH "
            + ", ".join(f"{name} AS ({statement})" for name, statement, _p, _r in self.parts)
            + " SELECT "
            + ", ".join(f"(SELECT {name}.pk FROM {name})" for name in named)
        )
        params = [p for _n, _s, part, _r in self.parts for p in part]
        with connection.cursor() as cursor:
            cursor.execute(query, params)
            row = cursor.fetchone()
        self.pks = dict(zip(named, row, strict=True))

    def pk(self, name: str):
        return self.pks[name]


class PreparedInsert:
    """The INSERT that stores `obj` as `obj.save(force_insert=True)` does (defaults,
    auto_now_add, JSON, the database's own forms of each value), and (where the database can)
    returns its primary key as `pk`. `obj` gets its values (auto_now_add), not its pk.

    Made before a write takes its lock, so that the lock is held for the SQL and not for this
    work (a new deal's save, `kinds.tarot.services`): `statement()` then takes again the
    values of the fields `later` (what is read under the lock, such as the game's revision)
    and of the times (auto_now, auto_now_add: the moment of the write, under its lock)."""

    def __init__(self, obj: models.Model, *, later: Sequence[str] = ()):
        meta = obj._meta
        pk = meta.pk
        self.obj = obj
        self.fields = [f for f in meta.concrete_fields if not (f is pk and obj.pk is None)]
        self.values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in self.fields]
        self._later = [
            (i, f)
            for i, f in enumerate(self.fields)
            if f.name in later or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        self._sql = _insert_sql(meta.model, tuple(f.name for f in self.fields), connection.vendor)

    def statement(self) -> tuple[str, list]:
        """The statement and its values, those of the fields `later` and the times taken now."""
        for i, f in self._later:
            self.values[i] = f.get_db_prep_save(f.pre_save(self.obj, True), connection)
        return self._sql, self.values


@functools.cache
def _insert_sql(model: type[models.Model], names: tuple[str, ...], vendor: str) -> str:
    meta = model._meta
    qn = connection.ops.quote_name
    columns = [meta.get_field(name).column for name in names]
    statement = (
        f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(c) for c in columns)}) "
        f"VALUES ({', '.join('%s' for _ in columns)})"
    )
    if connection.features.can_return_columns_from_insert:
        statement += f" RETURNING {qn(meta.pk.column)} AS pk"
    return statement


def insert_statement(obj: models.Model) -> tuple[str, list]:
    """`PreparedInsert`'s statement and values for `obj`, made now."""
    prepared = PreparedInsert(obj)
    return prepared._sql, prepared.values


def update_statement(obj: models.Model, fields: Sequence[str]) -> tuple[str, list]:
    """The UPDATE of `obj.save(update_fields=fields)` (auto_now included), without its signals."""
    meta = obj._meta
    qn = connection.ops.quote_name
    chosen = [meta.get_field(name) for name in fields]
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in chosen]
    sets = ", ".join(f"{qn(f.column)} = %s" for f in chosen)
    statement = (
        f"UPDATE {qn(meta.db_table)} SET {sets} WHERE {qn(meta.pk.column)} = %s"
        f" RETURNING {qn(meta.pk.column)} AS pk"
    )
    return statement, [*values, meta.pk.get_db_prep_save(obj.pk, connection)]


def update_row(obj: models.Model, fields: Sequence[str]) -> None:
    """Store `fields` of `obj` as `obj.save(update_fields=fields)` does (auto_now included), in
    one plain UPDATE (`update_statement`): compiling the ORM's update cost a correction on
    SQLite about a twentieth of its time. Sends no signals (nothing listens to them). Like
    `save`, raises DatabaseError when no row was updated."""
    with connection.cursor() as cursor:
        cursor.execute(*update_statement(obj, fields))
        if cursor.fetchone() is None:
            raise DatabaseError("Save with update_fields did not affect any rows.")


def _inserted(obj: models.Model, pk) -> models.Model:
    if obj.pk is None:
        obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias
    return obj


def insert_row(obj: models.Model, prepared: PreparedInsert | None = None) -> models.Model:
    """Insert `obj` as `obj.save(force_insert=True)` stores it (`insert_statement`, or the
    `prepared` one of `obj`), in one plain INSERT that returns its primary key.

    For the rows every save writes (a deal, a history entry): the ORM's insert compiled in
    several times the time the statement ran. Sends no signals (nothing listens to these).
    """
    statement, values = prepared.statement() if prepared is not None else insert_statement(obj)
    with connection.cursor() as cursor:
        cursor.execute(statement, values)
        if connection.features.can_return_columns_from_insert:
            pk = cursor.fetchone()[0]
        else:
            pk = connection.ops.last_insert_id(cursor, obj._meta.db_table, obj._meta.pk.column)
    return _inserted(obj, pk)


def bump_statement(game: Game, *, tally: dict | None = None) -> tuple[str, list]:
    """The UPDATE of `bump_revision`, and its parameters."""
    if tally is None:
        return _bump_sql(connection.vendor, False), [game.pk]
    value = Game._meta.get_field("tally").get_db_prep_save(tally, connection)
    return _bump_sql(connection.vendor, True), [value, game.pk]


def bump_revision(game: Game, *, tally: dict | None = None) -> None:
    """Tell the phones that follow the game that something changed: revision + 1, and the
    game's new `tally` when given. `game` stays what the database holds.

    One plain UPDATE: it runs on every save, and the ORM's compiling of
    `.update(revision=F("revision") + 1)` cost ten times the statement itself.
    """
    with connection.cursor() as cursor:
        cursor.execute(*bump_statement(game, tally=tally))
    _bumped(game, tally)


def _bumped(game: Game, tally: dict | None) -> None:
    game.revision += 1
    if tally is not None:
        game.tally = tally


@functools.cache
def _bump_sql(vendor: str, with_tally: bool) -> str:
    qn = connection.ops.quote_name
    column = qn(Game._meta.get_field("revision").column)
    tally = f", {qn(Game._meta.get_field('tally').column)} = %s" if with_tally else ""
    return (
        f"UPDATE {qn(Game._meta.db_table)} SET {column} = {column} + 1{tally} "
        f"WHERE {qn(Game._meta.pk.column)} = %s"
    )


# --- games -----------------------------------------------------------------------------------


@transaction.atomic
def game_start(
    *,
    players: Sequence[Player],
    first_dealer: int = 0,
    created_by=None,
    kind: str = "tarot",
    name: str = "",
    dealer_sits_out: bool = False,
    options: dict | None = None,
) -> Game:
    """Seat the players in playing order; `first_dealer` is an index into `players`.
    One table of `games_start`: the same checks and statements. The game takes its own copy
    of the club's house rules for its kind (`house`), unless `options` already holds them (a
    tournament's table takes the tournament's)."""
    table = {
        "players": players,
        "first_dealer": first_dealer,
        "kind": kind,
        "name": name,
        "dealer_sits_out": dealer_sits_out,
        "options": options,
    }
    return games_start(tables=[table], created_by=created_by)[0]


@transaction.atomic
def games_start(*, tables: Sequence[dict], created_by=None) -> list[Game]:
    """Start many games at once (a tournament round): each item of `tables` holds
    `game_start`'s arguments but `created_by`; the same checks, all or none started.

    A constant number of queries whatever the number of tables (the games and their seats
    inserted in bulk): a 500-table round is seated in a few statements.
    """
    missing = {
        t.get("kind", "tarot") for t in tables if house.OPTION not in (t.get("options") or {})
    }
    defaults = house.club_defaults_all() if missing & set(_kinds_with_rules()) else {}
    tables = [
        {**t, "options": _with_house_rules(t.get("kind", "tarot"), t.get("options"), defaults)}
        for t in tables
    ]
    new = [(_new_game(created_by=created_by, **table), list(table["players"])) for table in tables]
    pks = {p.pk for _, players in new for p in players}
    if Player.objects.filter(pk__in=pks).count() != len(pks):
        raise GameError(ERR_UNKNOWN_PLAYER)
    games = Game.objects.bulk_create(game for game, _ in new)
    Seat.objects.bulk_create(
        Seat(game=game, player=p, position=i)
        for game, (_, players) in zip(games, new, strict=True)
        for i, p in enumerate(players)
    )
    return games


def _kinds_with_rules() -> list[str]:
    return [k.identifier for k in kinds.all_kinds() if house.rules_class(k.identifier)]


def _with_house_rules(kind: str, options: dict | None, defaults: dict | None = None) -> dict:
    """`options` with the game's copy of the house rules (the club's defaults for `kind`,
    read when not in `defaults`), unless it holds them already."""
    options = dict(options or {})
    if house.OPTION in options or house.rules_class(kind) is None:
        return options
    rules = (defaults or {}).get(kind) if defaults is not None else None
    if rules is None:
        rules = house.club_defaults(kind)
    copy = house.stored(rules)
    if copy:
        options[house.OPTION] = copy
    return options


def _new_game(
    *,
    players: Sequence[Player],
    first_dealer: int = 0,
    created_by=None,
    kind: str = "tarot",
    name: str = "",
    dealer_sits_out: bool = False,
    options: dict | None = None,
) -> Game:
    """The game `game_start` makes, checked but not saved (its players' existence is the
    caller's check: one query for many games)."""
    players = list(players)
    pks = [p.pk for p in players]
    game_kind = kinds.get(kind)
    if game_kind is None:
        raise GameError(ERR_KIND)
    game_kind.check_table(players=players, dealer_sits_out=dealer_sits_out, options=options)
    if len(set(pks)) != len(pks):
        raise GameError(ERR_DUPLICATE_PLAYER)
    if None in pks:
        raise GameError(ERR_UNKNOWN_PLAYER)
    if not 0 <= first_dealer < max(len(players), 1):
        raise GameError(ERR_FIRST_DEALER)
    return Game(
        kind=kind,
        name=name.strip()[:100],
        created_by=acting_user(created_by),
        first_dealer=first_dealer,
        dealer_sits_out=dealer_sits_out,
        options=options or {},
    )


# --- house rules ----------------------------------------------------------------------------

CLUB_RULES_SET = action("club.house_rules", _("house rules of the club changed"))
GAME_RULES_SET = action("game.house_rules", _("house rules of the game changed"))
ERR_RULES_KIND = _("This game has no house rules to choose.")
ERR_RULES_STARTED = _(
    "The house rules are chosen before the first entry: this game has %(count)s already."
)
ERR_RULES_NOT_YOURS = _("Only the game's creator or a director can change its house rules.")
ERR_RULES_TABLE = _(
    "A tournament table plays by the tournament's house rules: the director sets them on the "
    "tournament."
)
ERR_RULES_DIRECTOR = _("Only a director can change the club's house rules.")


def _check_rules(kind: str, rules: Any):
    """`rules` (the kind's `Rules`, or stored data) checked; GameError when refused."""
    cls = house.rules_class(kind)
    if cls is None:
        raise GameError(ERR_RULES_KIND)
    if isinstance(rules, cls):
        return rules
    try:
        return cls.from_dict(rules)
    except RuleError as e:
        raise GameError(named_message(e, {}), code="rules") from e


@transaction.atomic
def club_rules_set(*, kind: str, rules: Any, user) -> ClubRules:
    """Set the club's house rules for `kind` (new games and tournaments copy them; games
    already started keep their own)."""
    if not policy.is_director(user):
        raise GameError(ERR_RULES_DIRECTOR)
    checked = _check_rules(kind, rules)
    row, _created = ClubRules.objects.select_for_update().get_or_create(kind=kind)
    before = row.rules or {}
    after = house.stored(checked)
    if before != after:
        row.rules = after
        row.save(update_fields=["rules", "updated_at"])
        log_action(row, CLUB_RULES_SET, user=user, before=before, after=after)
    return row


def may_set_house_rules(game: Game, *, user, entries: int) -> policy.Verdict:
    """May `user` change this game's house rules now? Its creator or a director, before the
    first entry, on a game that is not a tournament's table (that follows the tournament)."""
    if house.rules_class(game.kind) is None:
        return policy.Verdict(False, ERR_RULES_KIND)
    if game.archived or game.finished:
        return policy.Verdict(False, policy.ERR_ARCHIVED if game.archived else ERR_OVER)
    creator = user is not None and user.is_authenticated and game.created_by_id == user.pk
    if not (creator or policy.is_director(user)):
        return policy.Verdict(False, ERR_RULES_NOT_YOURS)
    if policy.event_table(game) is not None:
        return policy.Verdict(False, ERR_RULES_TABLE)
    if entries:
        return policy.Verdict(False, ERR_RULES_STARTED, {"count": entries})
    return policy.ALLOWED


@transaction.atomic
def game_set_house_rules(*, game: Game, rules: Any, user) -> Game:
    """Change the house rules one game is played by, before its first entry."""
    game = lock_game(game)
    kind = kinds.get(game.kind)
    verdict = may_set_house_rules(game, user=user, entries=kind.count_entries(game))
    if not verdict:
        raise GameError(verdict.message, code="rules", params=verdict.params)
    checked = _check_rules(game.kind, rules)
    before = (game.options or {}).get(house.OPTION) or {}
    after = house.stored(checked)
    if before == after:
        return game
    options = {k: v for k, v in (game.options or {}).items() if k != house.OPTION}
    if after:
        options[house.OPTION] = after
    game.options = options
    game.save(update_fields=["options"])
    log_action(game, GAME_RULES_SET, user=user, before=before, after=after)
    bump_revision(game)
    return game


@transaction.atomic
def game_finish(*, game: Game, user=None) -> Game:
    """Finish a casual game by hand (some kinds have no end of their own; a tournament table
    ends with its round, never through here)."""
    game = lock_game(game)
    if game.finished:
        raise GameError(ERR_ALREADY_FINISHED)
    require(game, policy.FINISH, user=user)
    game.finished_at = timezone.now()
    game.save(update_fields=["finished_at"])
    log_change(game, ChangeAction.FINISHED, user=user)
    return game


@transaction.atomic
def game_set_locked(*, game: Game, locked: bool, user=None) -> Game:
    """Confirm (lock) a table's sheet, or unlock it for corrections.

    The tournament's services decide whether it may happen (`policy.CONFIRM`, `policy.UNLOCK`,
    or the director closing a round), then call this.
    """
    game = lock_game(game)
    if game.locked != locked:
        game.locked = locked
        game.save(update_fields=["locked"])
        log_change(game, ChangeAction.LOCKED if locked else ChangeAction.UNLOCKED, user=user)
    return game


def _set_archived(*, game: Game, archived: bool, user) -> Game:
    game = lock_game(game)
    verdict = policy.may_archive(game, user=user)
    if not verdict:
        raise GameError(verdict.message, code="archive")
    if game.archived == archived:  # a double tap, or another phone was quicker: nothing to do
        return game
    game.archived_at = timezone.now() if archived else None
    game.save(update_fields=["archived_at"])
    log_change(game, ChangeAction.ARCHIVED if archived else ChangeAction.RESTORED, user=user)
    return game


@transaction.atomic
def game_archive(*, game: Game, user) -> Game:
    """Put away a game started by mistake: out of the lists and standings, history kept.
    Its creator or a director may; archiving an archived game changes nothing."""
    return _set_archived(game=game, archived=True, user=user)


@transaction.atomic
def game_restore(*, game: Game, user) -> Game:
    """Bring an archived game back into the lists and standings."""
    return _set_archived(game=game, archived=False, user=user)


# --- records of the replayed games ---------------------------------------------------------


def record_snapshot(record: Record) -> dict:
    return {"number": record.number, "data": record.data, "version": record.version}


def replay_with(played: Played, number: int, new: Any):
    """The state after every record, with record `number` being `new` (JSON).

    Only `new` and the records after it are stepped: the stored ones before it were replayed
    when the game was loaded. A broken rule is refused naming the players.
    """
    if played.error:
        raise GameError(played.error)
    kind = played.kind
    try:
        state = kind.step(played.state_before(number), new)
    except RuleError as e:
        raise RuleRefused(named_message(e, played.names, kind.rule_values)) from e
    for later in played.entries[number:]:
        try:
            state = kind.step(state, later.data)
        except RuleError as e:
            raise RuleRefused(
                ERR_LATER_RECORD,
                params={
                    "number": later.number,
                    "message": named_message(e, played.names, kind.rule_values),
                },
            ) from e
    return state


def _played(game: Game | None, played: Played | None) -> Played:
    """The game as read for this request, or read now (a caller without a page)."""
    if played is not None:
        return played
    return kinds.get(game.kind).load(game)


def _locked(played: Played, *, client_id=None) -> Played:
    """The game under its row lock; read again only when another phone wrote meanwhile.
    With `client_id`, the locked game says which record was saved with it (`lock_game`)."""
    game = lock_game(played.game, client_of=Record, client_id=client_id)
    if game.revision != played.game.revision:
        reread = played.kind.load(game)
        reread.game.sent_before = game.sent_before
        return reread
    played.game = game
    return played


def _finish_if_over(game: Game, state, user) -> None:
    if getattr(state, "finished", False) and not game.finished:
        game.finished_at = timezone.now()
        game.save(update_fields=["finished_at"])
        log_change(game, ChangeAction.FINISHED, user=user)


def record_add(
    *,
    game: Game | None = None,
    played: Played | None = None,
    data,
    user=None,
    expected_number: int | None = None,
    client_id=None,
) -> Record:
    """Enter the next record; finishes the game when the rules say it is over.

    `played` is the game as the page read it (else `game` is read now). `expected_number` is
    the entry the person was making: when another phone made that entry meanwhile, this one is
    refused rather than recorded twice. `client_id` is the phone's id for the entry (a UUID):
    a record already saved with it is returned, marked ``sent_before``, and nothing is written.
    """
    try:
        return _record_add(
            game=game,
            played=played,
            data=data,
            user=user,
            expected_number=expected_number,
            client_id=client_id,
        )
    except IntegrityError:
        # two sends of one entry at once: the unique id kept the second out (see `deal_add`)
        target = played.game if played is not None else game
        sent = (
            Record.objects.filter(game=target, client_id=client_id).first() if client_id else None
        )
        if sent is None:
            raise
        sent.sent_before = True
        return sent


@transaction.atomic
def _record_add(*, game, played, data, user, expected_number, client_id) -> Record:
    played = _locked(_played(game, played), client_id=client_id)
    game = played.game
    if getattr(game, "sent_before", None) is not None:
        sent = Record.objects.get(pk=game.sent_before)
        sent.sent_before = True
        return sent
    require(game, policy.DEAL, user=user, played=played)
    number = played.next_number
    if expected_number is not None and expected_number != number:
        raise GameError(ERR_ENTRY_TAKEN, params={"number": expected_number}, code="taken")
    new = to_json(data)
    state = replay_with(played, number, new)
    record = Record.objects.create(game=game, number=number, data=new, client_id=client_id)
    log_change(game, ChangeAction.RECORDED, number=number, after=record_snapshot(record), user=user)
    _finish_if_over(game, state, user)
    record.sent_before = False
    return record


@transaction.atomic
def record_correct(
    *,
    record: Record | None = None,
    played: Played | None = None,
    number: int | None = None,
    data,
    expected_version: int,
    user=None,
) -> Record:
    """Correct record `number` (or `record`); refused when another phone changed it since
    `expected_version`."""
    if record is not None:
        number = record.number
    played = _locked(_played(record.game if record is not None else None, played))
    game = played.game
    require(game, policy.CORRECT, user=user, played=played)
    current = Record.objects.select_for_update().filter(game=game, number=number).first()
    if current is None:
        raise GameError(ERR_NO_SUCH_RECORD)
    if current.version != expected_version:
        raise StaleError(current)
    new = to_json(data)
    state = replay_with(played, number, new)
    before = record_snapshot(current)
    current.data = new
    current.version += 1
    current.save(update_fields=["data", "version", "updated_at"])
    log_change(
        game,
        ChangeAction.CORRECTED,
        number=number,
        before=before,
        after=record_snapshot(current),
        user=user,
    )
    _finish_if_over(game, state, user)
    return current


@transaction.atomic
def record_undo_last(
    *, game: Game | None = None, played: Played | None = None, number: int, user=None
) -> bool:
    """Remove the last record; `number` is the one the person confirmed removing.

    A game the rules had ended is reopened (the kind undoes what its end brought; the change
    history keeps it). A game stopped by hand stays closed. Returns whether it was reopened.
    """
    played = _locked(_played(game, played))
    game = played.game
    require(game, policy.UNDO, user=user, played=played)
    reopened = game.finished
    last = played.entries[-1]
    if last.number != number:
        raise GameError(ERR_NOT_LAST, params={"number": last.number})
    before = record_snapshot(last)
    if reopened:
        before["reopened"] = True
        played.kind.on_reopen(game, before)
        game.finished_at = None
        game.save(update_fields=["finished_at"])
    log_change(game, ChangeAction.UNDONE, number=last.number, before=before, user=user)
    last.delete()
    return reopened


# --- entries a sheet refused (sent from a phone's queue) ---------------------------------------

REFUSED_KEPT = action("entry.refused_kept", _("entry sent after the sheet closed, kept"))
REFUSED_ACCEPTED = action("entry.refused_accepted", _("kept entry added"))
REFUSED_DISCARDED = action("entry.refused_discarded", _("kept entry discarded"))
KEPT_NUMBER = field("entry_number", _("entered as number"))
ADDED_NUMBER = field("added_number", _("added as number"))
KEPT_REASON = field("refusal", _("why the sheet refused it"))
ERR_REFUSED_SETTLED = _("This kept entry was already added or discarded.")
ERR_REFUSED_WHO = _("Only the game's creator or a director can add or discard a kept entry.")


def _entry_data(data) -> dict[str, str | list[str]]:
    """A posted form's fields as JSON (no CSRF token, no id): what a kept entry stores."""
    kept: dict[str, str | list[str]] = {}
    for name in data:
        if name in ("csrfmiddlewaretoken", "client_id"):
            continue
        values = [str(v)[:200] for v in data.getlist(name)] if hasattr(data, "getlist") else None
        if values is None:
            kept[name] = str(data[name])[:200]
        else:
            kept[name] = values[0] if len(values) == 1 else values
    return kept


@transaction.atomic
def refused_entry_keep(
    *, game: Game, client_id, number: int, data, reason: str, text: str = "", user=None
) -> RefusedEntry:
    """Keep an entry a phone sent once its sheet no longer took entries; the same id twice is
    kept once (a retry of the send)."""
    game = lock_game(game)
    found = RefusedEntry.objects.filter(game=game, client_id=client_id).first()
    if found is not None:
        return found
    entry = RefusedEntry.objects.create(
        game=game,
        client_id=client_id,
        number=number,
        data=_entry_data(data),
        text=str(text)[:300],
        reason=str(reason)[:300],
    )
    log_action(
        entry, REFUSED_KEPT, user=user, after={KEPT_NUMBER: number, KEPT_REASON: entry.reason}
    )
    return entry


def _settle(entry: RefusedEntry, *, user, outcome: str) -> RefusedEntry:
    """Lock the game, re-read the kept entry and refuse one already settled."""
    if not policy.may_settle(entry.game, user=user):
        raise GameError(ERR_REFUSED_WHO)
    lock_game(entry.game)
    current = RefusedEntry.objects.get(pk=entry.pk)
    if current.outcome:
        raise GameError(ERR_REFUSED_SETTLED)
    current.outcome = outcome
    current.settled_at = timezone.now()
    current.settled_by = acting_user(user)
    current.save(update_fields=["outcome", "settled_at", "settled_by"])
    return current


@transaction.atomic
def refused_entry_accept(*, entry: RefusedEntry, user):
    """Add a kept entry as the game's next entry (the rules and the policy as for any entry:
    a director may write to a confirmed sheet); returns the new entry."""
    current = _settle(entry, user=user, outcome=RefusedEntry.Outcome.ACCEPTED)
    kind = kinds.get(current.game.kind)
    played = kind.load(current.game)
    number = played.next_number
    data = dict(current.data)
    data["number"] = str(number)
    form = kind.entry_form(played, number, data=data)
    if not form.is_valid():
        raise GameError(
            " ".join(str(m) for messages in form.errors.values() for m in messages), code="rule"
        )
    added = kind.add(
        played=played, form=form, user=user, expected_number=number, client_id=current.client_id
    )
    log_action(current, REFUSED_ACCEPTED, user=user, after={ADDED_NUMBER: added.number})
    return added


@transaction.atomic
def refused_entry_discard(*, entry: RefusedEntry, user) -> RefusedEntry:
    """Put a kept entry aside for good (kept, marked discarded, with who did it)."""
    current = _settle(entry, user=user, outcome=RefusedEntry.Outcome.DISCARDED)
    log_action(current, REFUSED_DISCARDED, user=user, before={KEPT_NUMBER: current.number})
    return current
