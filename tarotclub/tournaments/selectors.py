"""Reads of a tournament. The standings take a fixed number of queries, whatever the size."""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction

from django.db import connection
from django.db.models import F, Q, Sum
from django.urls import reverse
from django.utils.translation import gettext as _

from tarotclub.core import sql
from tarotclub.core.models import LogEntry
from tarotclub.core.text import text_key
from tarotclub.games.models import Game, Seat
from tarotclub.games.policy import EventSql, EventTable, Gone
from tarotclub.games.presenters import figure
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.players.models import Player

from .history import ENTRY_REMOVED
from .models import (
    SEAT_NAMES,
    TRIPLETTE_SEAT_NAMES,
    Badge,
    Entry,
    Ranking,
    RedrawnTable,
    Status,
    Table,
    Tournament,
)


@dataclass
class StandingRow:
    player: Player
    licence: str
    rounds: dict[int, int | None]
    total: int
    played: int
    tops: int  # rounds with the highest total at one's table
    best: int | None  # best single-round total
    withdrawn: bool
    rank: int = 0
    tied: bool = False
    average: Fraction | None = None
    team: str = ""

    @property
    def average_display(self) -> str:
        return "" if self.average is None else figure(self.average, 1)


@dataclass
class TeamRow:
    """A free-deal team (duplicate.md 2.1): its score is the sum of its members' scores."""

    name: str
    members: list[StandingRow]
    total: int
    rank: int = 0
    tied: bool = False

    @property
    def total_display(self) -> str:
        return figure(self.total)


@dataclass
class Standings:
    tournament: Tournament
    rows: list[StandingRow]
    round_numbers: list[int] = field(default_factory=list)
    teams: list[TeamRow] = field(default_factory=list)  # empty unless the event has teams


def standings(tournament: Tournament) -> Standings:
    """Ranked by total (or average per round played), then rounds topped at one's table,
    then best round, then name. Equal on everything but the name → the same rank."""
    return standings_of([tournament])[tournament.pk]


def standings_of(tournaments) -> dict[int, Standings]:
    """`standings` of several tournaments (tournament pk → Standings) in three queries.

    Plain SELECTs (`core.sql`): the ORM compiled them and made their rows in about as much
    time as SQLite ran them (issue 12: the standings, projector and PDF of 200 players).

    A player's score in a round is their total at that round's table: the table's game keeps
    it in its tally (`Game.tally`, kept by every write of a deal) while the tally is current,
    and only the tables whose tally is not (a game written before tallies were kept, or by a
    write that does not keep one) have their deal lines summed. Reading 250 tallies instead of
    summing 3,600 lines (the bench's 200 players, round 5 under way): their scores in 2.6 ms
    instead of 6.6 on SQLite."""
    tournaments = list(tournaments)
    if not tournaments:
        return {}
    pks = [t.pk for t in tournaments]
    entry_sql, lines_sql, seats_sql = _standings_sql(connection.vendor, len(pks))
    player = sql.columns_of(Player, "p")
    # the players with their entry's fields: one model a row, not two
    entries: dict[int, list[Player]] = defaultdict(list)
    per_round: dict[int, dict[tuple[int, int], int]] = defaultdict(dict)
    seats: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    with connection.cursor() as cursor:
        cursor.execute(entry_sql, pks)
        for row in cursor.fetchall():
            p = player.build(row)
            (p.entry_tournament, p.entry_licence, p.entry_last, p.entry_team) = row[player.width :]
            entries[p.entry_tournament].append(p)
        cursor.execute(lines_sql, pks + pks)
        for t_pk, player_pk, rnd, total in cursor.fetchall():
            # (a player at two games of one round, were it ever so: their sum, as before)
            scores = per_round[t_pk]
            scores[player_pk, rnd] = scores.get((player_pk, rnd), 0) + total
        cursor.execute(seats_sql, pks)
        for t_pk, player_pk, rnd, game in cursor.fetchall():
            seats[t_pk].append((player_pk, rnd, game))
    return {t.pk: _ranked(t, entries[t.pk], per_round[t.pk], seats[t.pk]) for t in tournaments}


@functools.lru_cache(maxsize=64)
def _standings_sql(vendor: str, count: int) -> tuple[str, str, str]:
    """The three SELECTs of `standings_of` for `count` tournaments: the entries' players, each
    player's score by round (from the current tallies of the round's games, and the sum of the
    deal lines of the games whose tally is not current), and who sat at which game. The
    scores' SELECT takes the tournaments' numbers twice."""
    marks = ", ".join(["%s"] * count)
    player = sql.columns_of(Player, "p")
    entry, table = sql.table(Entry), sql.table(Table)
    e_tournament, x_tournament = sql.column(Entry, "tournament"), sql.column(Table, "tournament")
    x_round, x_game = sql.column(Table, "round"), sql.column(Table, "game")
    entries = (
        f"SELECT {player.sql}, e.{e_tournament}, e.{sql.column(Entry, 'licence')},"
        f" e.{sql.column(Entry, 'last_round')}, e.{sql.column(Entry, 'team')}"
        f" FROM {entry} e INNER JOIN {sql.table(Player)} p"
        f" ON p.{sql.quote(Player._meta.pk.column)} = e.{sql.column(Entry, 'player')}"
        f" WHERE e.{e_tournament} IN ({marks}) ORDER BY e.{sql.quote(Entry._meta.pk.column)}"
    )
    tally, revision = sql.column(Game, "tally"), sql.column(Game, "revision")
    with_game = (
        f" FROM {table} x INNER JOIN {sql.table(Game)} g"
        f" ON g.{sql.quote(Game._meta.pk.column)} = x.{x_game}"
    )
    # `Game.current_tally` in SQL: the tally's "rev" is the game's revision
    if vendor == "postgresql":
        current = f"COALESCE(g.{tally} -> 'rev' = to_jsonb(g.{revision}), FALSE)"
        totals = (
            f"SELECT x.{x_tournament}, j.key::integer, x.{x_round}, j.value::integer{with_game}"
            f" CROSS JOIN LATERAL jsonb_each_text(g.{tally} -> 'totals') j"
        )
    else:  # SQLite's JSON functions
        current = f"COALESCE(json_extract(g.{tally}, '$.rev') = g.{revision}, 0)"
        totals = (
            f"SELECT x.{x_tournament}, CAST(j.key AS INTEGER), x.{x_round}, j.value{with_game},"
            f" json_each(g.{tally}, '$.totals') j"
        )
    lines = (
        f"{totals} WHERE x.{x_tournament} IN ({marks}) AND {current}"
        f" UNION ALL"
        f" SELECT x.{x_tournament}, l.{sql.column(DealLine, 'player')}, x.{x_round},"
        f" SUM(l.{sql.column(DealLine, 'score')}){with_game}"
        f" INNER JOIN {sql.table(Deal)} d ON d.{sql.column(Deal, 'game')} = x.{x_game}"
        f" INNER JOIN {sql.table(DealLine)} l"
        f" ON l.{sql.column(DealLine, 'deal')} = d.{sql.quote(Deal._meta.pk.column)}"
        f" WHERE x.{x_tournament} IN ({marks}) AND NOT {current}"
        f" GROUP BY x.{x_tournament}, l.{sql.column(DealLine, 'player')}, x.{x_round}"
    )
    seats = (
        f"SELECT x.{x_tournament}, s.{sql.column(Seat, 'player')}, x.{x_round},"
        f" s.{sql.column(Seat, 'game')} FROM {sql.table(Seat)} s"
        f" INNER JOIN {table} x ON x.{x_game} = s.{sql.column(Seat, 'game')}"
        f" WHERE x.{x_tournament} IN ({marks})"
    )
    return entries, lines, seats


def _ranked(tournament: Tournament, entries, per_round, seats) -> Standings:
    at_table: dict[int, list[int]] = defaultdict(list)  # game → players
    played: dict[int, set[int]] = defaultdict(set)  # player → rounds seated
    round_of_game: dict[int, int] = {}
    for player, rnd, game in seats:
        at_table[game].append(player)
        played[player].add(rnd)
        round_of_game[game] = rnd
    tops: dict[int, int] = defaultdict(int)
    for game, players in at_table.items():
        rnd = round_of_game[game]
        scores = {p: per_round.get((p, rnd), 0) for p in players}
        if any(scores.values()):
            best = max(scores.values())
            for p, s in scores.items():
                if s == best:
                    tops[p] += 1
    round_numbers = list(range(1, tournament.current_round + 1))
    rows = []
    for player in entries:
        pk = player.pk
        seated = played.get(pk, ())
        rounds = {r: (per_round.get((pk, r), 0) if r in seated else None) for r in round_numbers}
        played_scores = [v for v in rounds.values() if v is not None]
        total = sum(played_scores)
        rows.append(
            StandingRow(
                player=player,
                licence=player.entry_licence,
                rounds=rounds,
                total=total,
                played=len(played_scores),
                tops=tops[pk],
                best=max(played_scores) if played_scores else None,
                withdrawn=player.entry_last is not None,
                average=Fraction(total, len(played_scores)) if played_scores else None,
                team=player.entry_team,
            )
        )
    by_average = tournament.ranking == Ranking.AVERAGE

    def key(row: StandingRow):
        primary = (
            (row.average if row.average is not None else Fraction(-(10**9)))
            if by_average
            else row.total
        )
        best = row.best if row.best is not None else -(10**9)
        return (-primary, -row.tops, -best)

    keys = {id(row): key(row) for row in rows}  # (each row's key made once)
    rows.sort(key=lambda r: (keys[id(r)], r.player.name.lower()))
    previous = None
    for i, row in enumerate(rows, start=1):
        k = keys[id(row)]
        if previous is not None and k == previous[0]:
            row.rank = previous[1].rank
            row.tied = previous[1].tied = True
        else:
            row.rank = i
        previous = (k, row)
    return Standings(
        tournament=tournament, rows=rows, round_numbers=round_numbers, teams=_team_rows(rows)
    )


def _team_rows(rows: list[StandingRow]) -> list[TeamRow]:
    """The teams ranked by total, highest first (duplicate.md 2.1); equal totals share a rank.
    Members are listed in the individual ranking's order; a withdrawn member's rounds count."""
    teams: dict[str, TeamRow] = {}
    for row in rows:
        if row.team:
            team = teams.setdefault(text_key(row.team), TeamRow(row.team, [], 0))
            team.members.append(row)
            team.total += row.total
    ranked = sorted(teams.values(), key=lambda t: (-t.total, text_key(t.name)))
    for i, team in enumerate(ranked):
        if i and team.total == ranked[i - 1].total:
            team.rank = ranked[i - 1].rank
            team.tied = ranked[i - 1].tied = True
        else:
            team.rank = i + 1
    return ranked


def tournament_with_key(pk: int) -> tuple[Tournament, str] | None:
    """The tournament and the key of everything its public and director pages show, in one
    query (issue 12: the pages' cached fragments and ETags are keyed on it).

    The key moves with every write that can change what these pages show, and takes no lock:
    - a deal saved, corrected or undone at one of its tables, a sheet confirmed or unlocked:
      the games' services bump that game's `revision` (the key holds their sum over the
      tournament's tables; revisions only grow, so the sum does too);
    - a table added or removed (a round seated, redrawn): the number of its tables;
    - every other write (a registration, a withdrawal, the ranking, a round seated, forced or
      redrawn, a reopening, a player renamed or created): it leaves a history entry
      (`core.models.log_action`), and the key holds the newest entry's number. That is the
      whole site's newest entry: such writes are rare next to the deals (which log in
      `games.Change`), so a page is rendered again a little more often than needed, never
      later than needed.
    - the tournament's creation time tells a tournament from another one that got its number
      back (a database restored or rebuilt while a cache outlived it).
    No write takes the tournament's row for this: fifty tables saving at once only each
    bump their own game's row.

    One plain SELECT (`core.sql`): every 304 and every read from the cache asks for it, and
    the ORM compiled its three subqueries in several times the time SQLite ran them.
    """
    low, high = connection.ops.integer_field_range(Tournament._meta.pk.get_internal_type())
    if not low <= pk <= high:  # (the ORM's lookup finds nothing there either)
        return None
    with connection.cursor() as cursor:
        cursor.execute(_with_key_sql(connection.vendor), [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    columns = sql.columns_of(Tournament, "t")
    t = columns.build(row)
    key_history, key_tables, key_games = row[columns.width :]
    key = f"{t.pk}.{t.created_at.timestamp():.6f}.{key_history}.{key_tables}.{key_games}"
    return t, key


@functools.cache
def _with_key_sql(vendor: str) -> str:
    t = sql.columns_of(Tournament, "t")
    tables, games = sql.table(Table), sql.table(Game)

    def pk(model) -> str:
        return sql.quote(model._meta.pk.column)

    of_tournament = f"x.{sql.column(Table, 'tournament')} = t.{pk(Tournament)}"
    return (
        f"SELECT {t.sql},"
        f" COALESCE((SELECT MAX({pk(LogEntry)}) FROM {sql.table(LogEntry)}), 0),"
        f" (SELECT COUNT(*) FROM {tables} x WHERE {of_tournament}),"
        f" COALESCE((SELECT SUM(g.{sql.column(Game, 'revision')}) FROM {tables} x"
        f" INNER JOIN {games} g ON g.{pk(Game)} = x.{sql.column(Table, 'game')}"
        f" WHERE {of_tournament}), 0)"
        f" FROM {sql.table(Tournament)} t WHERE t.{pk(Tournament)} = %s"
    )


def round_progress(tournament: Tournament, round_number: int) -> dict:
    """How far a round is: its tables, those confirmed, deals entered and planned. One query
    (the projector's line), without loading any seat or player; a plain SELECT (`core.sql`),
    which the projector's every screen asks for."""
    game = sql.fields_of(Game, "g", "locked", "options")
    with connection.cursor() as cursor:
        cursor.execute(_round_progress_sql(connection.vendor), [tournament.pk, round_number])
        rows = cursor.fetchall()
    progress = {"tables": 0, "confirmed": 0, "done": 0, "planned": 0}
    for row in rows:
        locked, options = game.values(row)
        progress["tables"] += 1
        progress["confirmed"] += bool(locked)
        progress["done"] += row[game.width]
        progress["planned"] += (options or {}).get("deals") or 0
    return progress


@functools.cache
def _round_progress_sql(vendor: str) -> str:
    game = sql.fields_of(Game, "g", "locked", "options")
    x_game = sql.column(Table, "game")
    return (
        f"SELECT {game.sql}, (SELECT COUNT(*) FROM {sql.table(Deal)} d"
        f" WHERE d.{sql.column(Deal, 'game')} = x.{x_game})"
        f" FROM {sql.table(Table)} x INNER JOIN {sql.table(Game)} g"
        f" ON g.{sql.quote(Game._meta.pk.column)} = x.{x_game}"
        f" WHERE x.{sql.column(Table, 'tournament')} = %s AND x.{sql.column(Table, 'round')} = %s"
    )


@dataclass(frozen=True)
class SeatedPlayer:
    """A player at a table of the director's page: what it shows of them."""

    pk: int
    name: str
    guest: bool


@dataclass(frozen=True)
class RoundTable:
    pk: int
    number: int


@dataclass(frozen=True)
class RoundGame:
    pk: int
    token: str
    locked: bool


def round_tables(tournament: Tournament, round_number: int) -> list[dict]:
    """Each table of a round with its players by seat and its progress. Two queries of plain
    values (no model built per table, seat or player: 2,000 players are 500 tables), written
    in SQL (`core.sql`): the ORM took longer to compile them than SQLite to run them."""
    tables_sql, seats_sql = _round_tables_sql(connection.vendor)
    game = sql.fields_of(Game, "g", "token", "locked", "options")
    player = sql.fields_of(Player, "p", "name", "guest")
    seats: dict[int, list[tuple[int, SeatedPlayer]]] = defaultdict(list)
    with connection.cursor() as cursor:
        cursor.execute(tables_sql, [tournament.pk, round_number])
        tables = cursor.fetchall()
        cursor.execute(seats_sql, [tournament.pk, round_number])
        for row in cursor.fetchall():
            name, guest = player.values(row, 3)
            seats[row[0]].append((row[1], SeatedPlayer(pk=row[2], name=name, guest=guest)))
    out = []
    for row in tables:
        pk, number, game_pk, done = row[0], row[1], row[2], row[3]
        token, locked, options = game.values(row, 4)
        planned = (options or {}).get("deals") or 0
        names = TRIPLETTE_SEAT_NAMES if (options or {}).get("triplette") else SEAT_NAMES
        if locked:
            state = "confirmed"
        elif done == 0:
            state = "not_started"
        else:
            state = "in_progress"
        out.append(
            {
                "table": RoundTable(pk=pk, number=number),
                "game": RoundGame(pk=game_pk, token=token, locked=locked),
                "seats": [(names[pos], p) for pos, p in sorted(seats[game_pk])],
                "done": done,
                "planned": planned,
                "state": state,
            }
        )
    return out


@functools.cache
def _round_tables_sql(vendor: str) -> tuple[str, str]:
    """`round_tables`' SELECTs: a round's tables in number order with their game and its
    number of deals; the players seated at them."""
    game = sql.fields_of(Game, "g", "token", "locked", "options")
    player = sql.fields_of(Player, "p", "name", "guest")
    table = sql.table(Table)
    x_game, s_game = sql.column(Table, "game"), sql.column(Seat, "game")
    of_round = f"x.{sql.column(Table, 'tournament')} = %s AND x.{sql.column(Table, 'round')} = %s"
    tables = (
        f"SELECT x.{sql.quote(Table._meta.pk.column)}, x.{sql.column(Table, 'number')},"
        f" x.{x_game}, (SELECT COUNT(*) FROM {sql.table(Deal)} d"
        f" WHERE d.{sql.column(Deal, 'game')} = x.{x_game}), {game.sql}"
        f" FROM {table} x INNER JOIN {sql.table(Game)} g"
        f" ON g.{sql.quote(Game._meta.pk.column)} = x.{x_game}"
        f" WHERE {of_round} ORDER BY x.{sql.column(Table, 'number')}"
    )
    seats = (
        f"SELECT s.{s_game}, s.{sql.column(Seat, 'position')}, s.{sql.column(Seat, 'player')},"
        f" {player.sql} FROM {sql.table(Seat)} s INNER JOIN {table} x ON x.{x_game} = s.{s_game}"
        f" INNER JOIN {sql.table(Player)} p"
        f" ON p.{sql.quote(Player._meta.pk.column)} = s.{sql.column(Seat, 'player')}"
        f" WHERE {of_round}"
    )
    return tables, seats


@dataclass(frozen=True)
class RegisteredEntry:
    """A registered player on the director's page: what its list shows of the entry."""

    pk: int
    player: SeatedPlayer
    licence: str
    orientation: str
    start_table: int | None
    replaces_id: int | None
    first_round: int
    last_round: int | None

    @property
    def withdrawn(self) -> bool:
        return self.last_round is not None


_ENTRY_FIELDS = (
    "id",
    "licence",
    "orientation",
    "start_table",
    "replaces",
    "first_round",
    "last_round",
)


def director_entries(tournament: Tournament) -> list[RegisteredEntry]:
    """The tournament's entries by player name, for the director's list (`tables.entries_html`):
    one plain SELECT (`core.sql`), no model built (2,000 entries at a federation final)."""
    entry = sql.fields_of(Entry, "e", *_ENTRY_FIELDS)
    player = sql.fields_of(Player, "p", "id", "name", "guest")
    with connection.cursor() as cursor:
        cursor.execute(_director_entries_sql(connection.vendor), [tournament.pk])
        rows = cursor.fetchall()
    out = []
    for row in rows:
        pk, licence, orientation, start_table, replaces, first, last = entry.values(row)
        player_pk, name, guest = player.values(row, entry.width)
        out.append(
            RegisteredEntry(
                pk=pk,
                player=SeatedPlayer(pk=player_pk, name=name, guest=guest),
                licence=licence,
                orientation=orientation,
                start_table=start_table,
                replaces_id=replaces,
                first_round=first,
                last_round=last,
            )
        )
    return out


@functools.cache
def _director_entries_sql(vendor: str) -> str:
    entry = sql.fields_of(Entry, "e", *_ENTRY_FIELDS)
    player = sql.fields_of(Player, "p", "id", "name", "guest")
    return (
        f"SELECT {entry.sql}, {player.sql} FROM {sql.table(Entry)} e"
        f" INNER JOIN {sql.table(Player)} p"
        f" ON p.{sql.quote(Player._meta.pk.column)} = e.{sql.column(Entry, 'player')}"
        f" WHERE e.{sql.column(Entry, 'tournament')} = %s ORDER BY p.{sql.column(Player, 'name')}"
    )


def table_totals(game: Game) -> list[tuple[Player, int]]:
    """A table's players in seat order with their totals (summed in the database)."""
    seats = Seat.objects.filter(game=game).select_related("player").order_by("position")
    totals = dict(
        DealLine.objects.filter(deal__game=game)
        .values_list("player_id")
        .annotate(total=Sum("score"))
        .values_list("player_id", "total")
    )
    return [(s.player, totals.get(s.player_id, 0)) for s in seats]


def roster_to_register(tournament: Tournament) -> list[Player]:
    """The registration form's choice: the active roster (`players.selectors.roster`: active
    members, not guests) without the players already registered in this tournament, by name.
    A plain SELECT (`core.sql`; the director's page makes the form at every change of the
    tournament, and the ORM took longer to compile the query than to run it)."""
    player = sql.columns_of(Player, "p")
    with connection.cursor() as cursor:
        cursor.execute(_roster_to_register_sql(connection.vendor), [True, False, tournament.pk])
        return [player.build(row) for row in cursor.fetchall()]


@functools.cache
def _roster_to_register_sql(vendor: str) -> str:
    player = sql.columns_of(Player, "p")
    pk = sql.quote(Player._meta.pk.column)
    # `players.selectors.roster()`'s filter (tests/tournaments/test_plain_reads.py compares)
    return (
        f"SELECT {player.sql} FROM {sql.table(Player)} p"
        f" WHERE p.{sql.column(Player, 'active')} = %s AND p.{sql.column(Player, 'guest')} = %s"
        f" AND NOT EXISTS (SELECT 1 FROM {sql.table(Entry)} e"
        f" WHERE e.{sql.column(Entry, 'player')} = p.{pk}"
        f" AND e.{sql.column(Entry, 'tournament')} = %s)"
        f" ORDER BY p.{sql.column(Player, 'name_key')}, p.{pk}"
    )


@dataclass
class BulkPreview:
    """What registering a pasted list would do (`bulk.parse` lines), read now."""

    matched: list[tuple[Player, object]] = field(default_factory=list)  # by name
    by_licence: list[tuple[Player, object]] = field(default_factory=list)  # name unknown
    registered: list[tuple[Player, object]] = field(default_factory=list)  # skipped
    guests: list = field(default_factory=list)  # lines of new guests to create
    conflicts: list[tuple[object, Player, Player]] = field(default_factory=list)

    @property
    def to_register(self) -> int:
        return len(self.matched) + len(self.by_licence) + len(self.guests)


def bulk_preview(tournament: Tournament, lines) -> BulkPreview:
    """Match each line against the whole roster (guests too) by its name's key, else by its
    licence; a name of one player with the licence of another is a conflict. Two queries."""
    keys = {line.key for line in lines} | {line.whole_key for line in lines if line.whole_key}
    licences = {line.licence.upper() for line in lines if line.licence}
    found = Player.objects.filter(Q(name_key__in=keys) | Q(licence__in=licences))
    by_key = {p.name_key: p for p in found}
    by_licence: dict[str, Player] = {}
    for p in sorted(found, key=lambda p: p.pk):
        if p.licence:
            by_licence.setdefault(p.licence.upper(), p)
    # a licence typed in another case: look again without case (few lines, one query)
    missing = [x for x in licences if x not in by_licence]
    if missing:
        for p in Player.objects.filter(
            Q(*[Q(licence__iexact=x) for x in missing], _connector=Q.OR)
        ).order_by("pk"):
            by_licence.setdefault(p.licence.upper(), p)
    registered = set(
        Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True)
    )
    preview = BulkPreview()
    seen: dict[int, Player] = {}
    for line in lines:
        if line.whole_key and line.whole_key in by_key:  # "Player 0042" is a name
            player = by_key[line.whole_key]
            line = replace(line, name=player.name, licence="", key=player.name_key, whole_key="")
        named = by_key.get(line.key)
        licensed = by_licence.get(line.licence.upper()) if line.licence else None
        if named and licensed and named.pk != licensed.pk:
            preview.conflicts.append((line, named, licensed))
            continue
        player = named or licensed
        if player is not None and player.pk in seen:  # two lines for one player
            preview.conflicts.append((line, player, seen[player.pk]))
            continue
        if player is not None:
            seen[player.pk] = player
        if player is None:
            preview.guests.append(line)
        elif player.pk in registered:
            preview.registered.append((player, line))
        elif named:
            preview.matched.append((player, line))
        else:
            preview.by_licence.append((player, line))
    return preview


def find_seat(tournament: Tournament, query: str) -> list[dict]:
    """'Where do I sit?': players of the current round whose name or nickname holds `query`.

    Table and seat only: this page is public, and a table's share link is not (it reaches the
    players through the QR code on the table's printed sheet).
    """
    needle = text_key((query or "")[:40])
    if len(needle) < 2 or not tournament.current_round:
        return []
    seats = (
        Seat.objects.filter(
            game__tournament_table__tournament=tournament,
            game__tournament_table__round=tournament.current_round,
        )
        .select_related("player")
        .filter(Q(player__name_key__contains=needle) | Q(player__nickname_key__contains=needle))
        .annotate(table_number=F("game__tournament_table__number"))
        .order_by("player__name_key")[:20]
    )
    names = TRIPLETTE_SEAT_NAMES if tournament.triplette else SEAT_NAMES
    return [{"player": s.player, "table": s.table_number, "seat": names[s.position]} for s in seats]


def entry_was_removed(tournament: Tournament, entry_pk: int) -> bool:
    """Was this entry removed during registration (its history says so)?"""
    return (
        LogEntry.objects.for_object(tournament)
        .filter(action=ENTRY_REMOVED, before__entry=entry_pk)
        .exists()
    )


# --- what the games app asks about a tournament table (registered in apps.py) --------------------


def table_state(game: Game) -> EventTable | None:
    """Is this game a tournament table, and is its round (or the tournament) over? Read now.

    Asked under the game's lock on every save, in the statement that takes the lock
    (`TABLE_STATE_SQL`); else one plain SELECT, which the ORM took ten times longer to compile
    (Table's default ordering joins on the tournament's own) than to run.
    """
    with connection.cursor() as cursor:
        cursor.execute(_table_state_sql(connection.vendor), [game.pk])
        row = cursor.fetchone()
    return _table_state(row)


def _table_state(row) -> EventTable | None:
    if row is None or row[0] is None:  # (a LEFT JOIN that found no table: a casual game)
        return None
    round_number, status, current = row
    finished = status == Status.FINISHED
    return EventTable(round_over=finished or current > round_number, event_finished=finished)


def _col(meta, name: str) -> str:
    return connection.ops.quote_name(meta.get_field(name).column)


def _table_state_joins(game: str, alias: str) -> tuple[str, str]:
    """`table_state` as LEFT JOINs onto the game's row `game`: (joins, columns). A game is the
    table of at most one tournament round (Table.game is one-to-one)."""
    qn = connection.ops.quote_name
    table, tournament = Table._meta, Tournament._meta
    t, u = f"{alias}t", f"{alias}u"
    joins = (
        f"LEFT JOIN {qn(table.db_table)} {t} ON {t}.{_col(table, 'game')} = {game}."
        f"{qn(Game._meta.pk.column)} "
        f"LEFT JOIN {qn(tournament.db_table)} {u} "
        f"ON {u}.{qn(tournament.pk.column)} = {t}.{_col(table, 'tournament')}"
    )
    columns = (
        f"{t}.{_col(table, 'round')}, {u}.{_col(tournament, 'status')}, "
        f"{u}.{_col(tournament, 'current_round')}"
    )
    return joins, columns


TABLE_STATE_SQL = EventSql(joins=_table_state_joins, width=3, parse=_table_state)


@functools.cache
def _table_state_sql(vendor: str) -> str:
    table, tournament = Table._meta, Tournament._meta
    qn = connection.ops.quote_name
    return (
        f"SELECT t.{_col(table, 'round')}, u.{_col(tournament, 'status')}, "
        f"u.{_col(tournament, 'current_round')} "
        f"FROM {qn(table.db_table)} t JOIN {qn(tournament.db_table)} u "
        f"ON u.{qn(tournament.pk.column)} = t.{_col(table, 'tournament')} "
        f"WHERE t.{_col(table, 'game')} = %s"
    )


def redrawn_table_notice(token: str) -> Gone | None:
    """The link of a table the director redrew away: where each of its players sits now."""
    redrawn = (
        RedrawnTable.objects.filter(token=token)
        .select_related("tournament")
        .order_by("-pk")
        .first()
    )
    if redrawn is None:
        return None
    t = redrawn.tournament
    names = dict(Player.objects.filter(pk__in=redrawn.players).values_list("pk", "name"))
    seats = {
        s.player_id: s
        for s in Seat.objects.filter(
            game__tournament_table__tournament=t,
            game__tournament_table__round=redrawn.round,
            player_id__in=redrawn.players,
        ).annotate(table_number=F("game__tournament_table__number"))
    }
    lines = []
    for pk in redrawn.players:
        seat = seats.get(pk)
        if seat is None:
            line = _("%(name)s: not seated in this round") % {"name": names.get(pk, "?")}
        else:
            line = _("%(name)s: table %(table)s, %(seat)s") % {
                "name": names.get(pk, "?"),
                "table": seat.table_number,
                "seat": SEAT_NAMES[seat.position],
            }
        lines.append(line)
    return Gone(
        title=_("This table was redrawn"),
        message=_(
            "The director redrew round %(round)s: this sheet of table %(table)s no longer "
            "counts, and nothing can be entered here. Your table is now:"
        )
        % {"round": redrawn.round, "table": redrawn.number},
        lines=lines,
        link=(_("Where do I sit?"), reverse("tournaments:where", args=[t.pk])),
    )


# --- which rounds can be printed ---------------------------------------------------------------

SEATED = "seated"
PLANNED = "planned"


def round_state(t: Tournament, round_number: int) -> str | None:
    """SEATED (its tables exist), PLANNED (only in `t.plan`), or None (nothing to print)."""
    if not 1 <= round_number <= t.rounds:
        return None
    if round_number <= t.current_round:
        return SEATED
    if 0 <= round_number - t.current_round - 1 < len(t.plan or []):
        return PLANNED
    return None


def printable_rounds(t: Tournament) -> list[dict]:
    """Every round with something to print, for the director's "Print" section."""
    rounds = []
    for n in range(1, t.rounds + 1):
        state = round_state(t, n)
        if state:
            rounds.append({"number": n, "seated": state == SEATED, "current": n == t.current_round})
    return rounds


# --- position cards: each player's table and seat for every round ------------------------------


def player_positions(t: Tournament, players=None) -> dict[int, dict[int, tuple[int, int]]]:
    """Player pk → round → (table number, seat position), for every round: the seated rounds
    from their tables, the rounds still to come from the plan. One query (`players`: only
    these pks)."""
    positions: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    seats = Seat.objects.filter(game__tournament_table__tournament=t)
    if players is not None:
        seats = seats.filter(player__in=players)
    for pk, rnd, number, position in seats.values_list(
        "player_id", "game__tournament_table__round", "game__tournament_table__number", "position"
    ):
        positions[pk][rnd] = (number, position)
    wanted = None if players is None else set(players)
    for offset, tables in enumerate(t.plan or []):
        for number, seated in enumerate(tables, start=1):
            for position, pk in enumerate(seated):
                if wanted is None or pk in wanted:
                    positions[pk][t.current_round + 1 + offset] = (number, position)
    return positions


@dataclass
class CardRound:
    round: int
    table: int | None  # None: not seated nor planned (withdrawn, or not registered yet)
    seat: str
    current: bool
    seated: bool  # the round's tables exist (else: the plan, which may still change)


@dataclass
class PositionCard:
    """A player's position card: their table and seat (orientation) for every round."""

    name: str
    licence: str
    team: str
    rounds: list[CardRound]
    colour: str = ""  # a triplette member's badge (Blue, White, Red)


def _card(
    t: Tournament, name: str, licence: str, team: str, rounds: dict, badge: str = ""
) -> PositionCard:
    lines = []
    for n in range(1, t.rounds + 1):
        table, position = rounds.get(n, (None, None))
        lines.append(
            CardRound(
                round=n,
                table=table,
                seat=str((TRIPLETTE_SEAT_NAMES if t.triplette else SEAT_NAMES)[position])
                if position is not None
                else "",
                current=n == t.current_round,
                seated=n <= t.current_round,
            )
        )
    colour = str(Badge(badge).label) if badge in Badge.values else ""
    return PositionCard(name=name, licence=licence, team=team, rounds=lines, colour=colour)


def position_cards(t: Tournament) -> list[PositionCard]:
    """Every registered player's card, in alphabetical order. Two queries."""
    positions = player_positions(t)
    entries = Entry.objects.filter(tournament=t).values_list(
        "player_id", "player__name", "licence", "player__licence", "team", "badge"
    )
    cards = [
        _card(t, name, licence or own, team, positions.get(pk, {}), badge)
        for pk, name, licence, own, team, badge in entries
    ]
    cards.sort(key=lambda c: (text_key(c.name), c.name))
    return cards


def position_card(t: Tournament, player_pk: int) -> PositionCard | None:
    """One player's card (None: not in this tournament). Two queries."""
    entry = (
        Entry.objects.filter(tournament=t, player_id=player_pk)
        .values_list("player__name", "licence", "player__licence", "team")
        .first()
    )
    if entry is None:
        return None
    name, licence, own, team = entry
    positions = player_positions(t, [player_pk])
    return _card(t, name, licence or own, team, positions.get(player_pk, {}))


def kept_entries(tournament: Tournament) -> list:
    """The entries phones sent to this tournament's tables after their sheets closed (a
    sheet confirmed while a phone was offline), not settled yet; each with its `game` and
    the game's `tournament_table`. One plain SELECT (`core.sql`): usually it finds nothing,
    and the ORM took longer to compile it than SQLite to run it."""
    from tarotclub.games.models import RefusedEntry

    entry, game, table = (
        sql.columns_of(RefusedEntry, "r"),
        sql.columns_of(Game, "g"),
        sql.columns_of(Table, "x"),
    )
    with connection.cursor() as cursor:
        cursor.execute(_kept_entries_sql(connection.vendor), [tournament.pk, ""])
        rows = cursor.fetchall()
    out = []
    for row in rows:
        kept = entry.build(row)
        kept.game = game.build(row, entry.width)
        kept.game.tournament_table = table.build(row, entry.width + game.width)
        out.append(kept)
    return out


@functools.cache
def _kept_entries_sql(vendor: str) -> str:
    from tarotclub.games.models import RefusedEntry

    entry, game, table = (
        sql.columns_of(RefusedEntry, "r"),
        sql.columns_of(Game, "g"),
        sql.columns_of(Table, "x"),
    )
    game_pk = sql.quote(Game._meta.pk.column)
    return (
        f"SELECT {entry.sql}, {game.sql}, {table.sql} FROM {sql.table(RefusedEntry)} r"
        f" INNER JOIN {sql.table(Game)} g ON g.{game_pk} = r.{sql.column(RefusedEntry, 'game')}"
        f" INNER JOIN {sql.table(Table)} x ON x.{sql.column(Table, 'game')} = g.{game_pk}"
        f" WHERE x.{sql.column(Table, 'tournament')} = %s"
        f" AND r.{sql.column(RefusedEntry, 'outcome')} = %s"
        f" ORDER BY x.{sql.column(Table, 'round')}, x.{sql.column(Table, 'number')},"
        f" r.{sql.quote(RefusedEntry._meta.pk.column)}"
    )
