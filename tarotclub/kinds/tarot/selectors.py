"""Reads of French Tarot games: a constant number of queries whatever the number of deals."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Q, QuerySet, Sum

from tarotclub.core import sql
from tarotclub.core.text import no_break_hyphens
from tarotclub.games.models import Change, Game
from tarotclub.games.selectors import seat_players
from tarotclub.players.models import Player

from .models import Deal, DealLine
from .presenters import bonuses_text, deal_labels


def seated_for(game: Game, number, players: Sequence[Player]) -> list[Player] | None:
    """The four who play deal `number` at a table where they change from deal to deal (a
    triplette table seats 6, 4 play each board: its options' ``"active"``, one list of
    player pks in N, E, S, W order per deal); None at any other table."""
    rows = (getattr(game, "options", None) or {}).get("active") or []
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(rows):
        return None
    by_pk = {p.pk: p for p in players}
    found = [by_pk[pk] for pk in rows[number - 1] if pk in by_pk]
    return found if len(found) == len(rows[number - 1]) else None


def dealer_for(game: Game, number: int, players: Sequence[Player] | None = None) -> Player:
    """Who deals deal `number` (1-based): the deal passes to the next player in playing order.
    At a duplicate table (individual, triplette, quadrette), the one seated at the dealer's
    orientation marked on the board (its options' ``"dealers"``, the seats being in N, E, S, W
    order; at a triplette table, among the four seated on that board; North where the table's
    options predate the boards' dealers)."""
    players = list(players) if players is not None else seat_players(game)
    seated = seated_for(game, number, players)
    if seated:
        return _board_dealer(game, number, seated) or seated[0]
    marked = _board_dealer(game, number, players)
    if marked is not None:
        return marked
    return players[(game.first_dealer + number - 1) % len(players)]


def _board_dealer(game: Game, number, players: Sequence[Player]) -> Player | None:
    rows = (getattr(game, "options", None) or {}).get("dealers") or []
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(rows):
        return None
    if len(players) != 4 or rows[number - 1] not in _ORIENTATIONS:
        return None
    return players[_ORIENTATIONS.index(rows[number - 1])]


_ORIENTATIONS = ("N", "E", "S", "W")


def active_players(
    game: Game, dealer: Player, players: Sequence[Player], number: int | None = None
) -> list[Player]:
    """Who plays the deal: everybody, except the dealer at a sitting-out table of five; at a
    triplette table, the four seated on deal `number` (`seated_for`)."""
    seated = seated_for(game, number, players) if number is not None else None
    if seated is not None:
        return seated
    if game.dealer_sits_out:
        return [p for p in players if p.pk != dealer.pk]
    return list(players)


@dataclass
class SheetRow:
    deal: Deal
    number: int
    dealer: str
    taker: str
    contract: str
    result: str
    won: bool
    bonuses: str
    scores: dict[int, int]
    running: dict[int, int]


@dataclass
class Sheet:
    game: Game
    players: list[Player]
    rows: list[SheetRow]
    totals: dict[int, int]
    leaders: set[int] = field(default_factory=set)
    next_dealer: Player | None = None
    next_active: list[Player] = field(default_factory=list)
    #: who deals deal n is dealers[(n - 1) % len(dealers)] (`dealer_for`, for the phone)
    dealers: list[Player] = field(default_factory=list)

    @property
    def dealers_json(self) -> str:
        """The dealers' names in dealing order from deal 1, as the sheet's hint shows them:
        the phone names who deals next after the deals it keeps offline (offline-app.js)."""
        return json.dumps([no_break_hyphens(p.label) for p in self.dealers], ensure_ascii=False)

    @property
    def standing(self) -> list[tuple[Player, int, bool]]:
        """(player, total, leads) in seat order, for the totals on top of the sheet."""
        return [(p, self.totals.get(p.pk, 0), p.pk in self.leaders) for p in self.players]

    @property
    def zero_sum(self) -> bool:
        return sum(self.totals.values()) == 0

    #: the number of deals, when `rows` holds only some of them (`sheet_changes`)
    count: int | None = None

    @property
    def deal_count(self) -> int:
        return len(self.rows) if self.count is None else self.count


def _row(deal: Deal, names: dict[int, str], scores: dict[int, int], running: dict[int, int]):
    said = deal_labels(deal, names)
    return SheetRow(
        deal=deal,
        number=deal.number,
        dealer=said.dealer,
        taker=f"{said.taker} + {said.partner}" if said.partner else said.taker,
        contract=said.contract,
        result=said.result,
        won=deal.won,
        bonuses=bonuses_text(deal, names),
        scores=scores,
        running=dict(running),
    )


def _standing(game: Game, players: list[Player], count: int, totals: dict[int, int]) -> dict:
    """Who leads and who deals next, from the totals and the number of deals."""
    best = max(totals.values()) if count and totals else None
    leaders = {pk for pk, t in totals.items() if count and t == best}
    next_dealer = dealer_for(game, count + 1, players) if players else None
    next_active = active_players(game, next_dealer, players, count + 1) if next_dealer else []
    dealers = [dealer_for(game, n, players) for n in range(1, len(players) + 1)]
    return {
        "leaders": leaders,
        "next_dealer": next_dealer,
        "next_active": next_active,
        "dealers": dealers,
    }


def game_sheet(game: Game) -> Sheet:
    """Every deal with its scores, running totals and each player's total (the sum of the
    stored score lines), in one query (`_deals_with_lines`)."""
    players = seat_players(game)
    names = {p.pk: p.label for p in players}
    deals = _deals_with_lines(game, players)
    totals_db: dict[int, int] = {}
    running = {p.pk: 0 for p in players}
    rows = []
    for deal in deals:
        scores = {line.player_id: line.score for line in deal.lines.all()}
        for pk, score in scores.items():
            totals_db[pk] = totals_db.get(pk, 0) + score
        for pk in running:
            running[pk] += scores.get(pk, 0)
        rows.append(_row(deal, names, scores, running))
    totals = {p.pk: totals_db.get(p.pk, 0) for p in players}
    return Sheet(
        game=game,
        players=players,
        rows=rows,
        totals=totals,
        **_standing(game, players, len(rows), totals),
    )


#: A poll that would send more deals than this (or take away more) gets the whole sheet.
MAX_CHANGES = 40


@dataclass
class SheetChanges:
    """What changed on a sheet since a phone's revision: `sheet` holds only the deals written
    since (its totals and count are the game's); `replaced` are the numbers the phone shows
    and must replace, `added` the deals it gets at the end, `removed` those it must take away
    (undone). `first` is the first deal whose running totals moved (None: none before the
    new ones). `all_new`: the phone shows no deal yet (its sheet's "no deal yet" row goes)."""

    sheet: Sheet
    replaced: set[int]
    added: set[int]
    removed: list[int]
    first: int | None
    all_new: bool = False


def sheet_changes(game: Game, *, since: int, shown: int) -> SheetChanges | None:
    """The deals written after revision `since`, for a phone whose sheet shows deals 1 to
    `shown`; None when the phone should get the whole sheet (a stale tally, a sheet emptied by
    an undo, too many changes). A phone whose sheet was still empty gets the deals as new ones
    (`all_new`): at a round's start, every phone of the room polls its empty sheet.

    A constant number of queries whatever the number of deals: the seats, the deals written
    since with their lines (at most MAX_CHANGES + 1) and, only when an earlier deal was
    corrected, one sum of the game's lines for the running totals of the corrected deals.
    Every later row's running total moved too: the phone adds them up again from the scores
    it shows (site.js), rather than the server sending every later row.
    """
    tally = game.current_tally
    if tally is None or since >= game.revision or shown < 0:
        return None
    count = tally["count"]
    if count <= 0 or abs(count - shown) > MAX_CHANGES:
        return None
    players = seat_players(game)
    written, scores = _written_since(game, since, players)
    if len(written) > MAX_CHANGES:
        return None
    added = {d.number for d in written if d.number > shown}
    if added != set(range(shown + 1, count + 1)):
        return None  # the phone's picture does not fit: send it all
    replaced = {d.number for d in written if d.number <= shown}
    totals = {p.pk: int(tally["totals"].get(str(p.pk), 0)) for p in players}
    running: dict[int, dict[int, int]] = {}
    after = dict(totals)  # the running totals after the deal being walked back from
    for number in range(count, shown, -1):
        running[number] = dict(after)
        for pk, score in scores[number].items():
            after[pk] = after.get(pk, 0) - score
    if replaced:
        sums = {f"r{n}": Sum("score", filter=Q(deal__number__lte=n)) for n in replaced}
        lines = DealLine.objects.filter(deal__game=game, deal__number__lte=max(replaced))
        found = lines.values("player_id").annotate(**sums).order_by()
        for n in replaced:
            running[n] = {p.pk: 0 for p in players}
        for row in found:
            for n in replaced:
                running[n][row["player_id"]] = row[f"r{n}"] or 0
    names = {p.pk: p.label for p in players}
    rows = [_row(d, names, scores[d.number], running[d.number]) for d in written]
    sheet = Sheet(
        game=game,
        players=players,
        rows=rows,
        totals=totals,
        count=count,
        **_standing(game, players, count, totals),
    )
    removed = list(range(count + 1, shown + 1))
    first = min(replaced) if replaced else None
    return SheetChanges(sheet, replaced, added, removed, first, all_new=shown == 0)


def _written_since(game: Game, since: int, players: list[Player]):
    """The deals written after revision `since` (at most MAX_CHANGES + 1) in number order, and
    their scores (deal number → player pk → score): one plain SELECT of the deals and their
    lines (`core.sql`), which the ORM compiled in several times the time it ran. The deals'
    dealer, taker and partner are the seated players already read (no query)."""
    deal_cols = sql.columns_of(Deal, "d")
    limit = (MAX_CHANGES + 1) * len(players)
    with connection.cursor() as cursor:
        cursor.execute(_written_since_sql(connection.vendor), [game.pk, since, limit])
        found = cursor.fetchall()
    seated = {p.pk: p for p in players}
    written: list[Deal] = []
    scores: dict[int, dict[int, int]] = {}
    last = None
    for row in found:
        if row[0] != last:  # the deal's id (its first column): a new deal
            last = row[0]
            deal = _deal_of(deal_cols.build(row), game, seated)
            written.append(deal)
        player_id, score = row[deal_cols.width], row[deal_cols.width + 1]
        scores.setdefault(deal.number, {})[player_id] = score
    return written, scores


def _deal_of(deal: Deal, game: Game, seated: dict[int, Player]) -> Deal:
    """A deal read by a plain SELECT, with its game and its dealer, taker and partner set
    from the seated players already read (no query)."""
    deal.game = game
    for name in ("dealer", "taker", "partner"):
        player = seated.get(getattr(deal, f"{name}_id"))
        if player is not None:
            setattr(deal, name, player)
    return deal


@functools.cache
def _written_since_sql(vendor: str) -> str:
    d, pk = sql.columns_of(Deal, "d"), sql.quote("id")
    lines, deals = sql.table(DealLine), sql.table(Deal)
    return (
        f"SELECT {d.sql}, l.{sql.column(DealLine, 'player')}, l.{sql.column(DealLine, 'score')}"
        f" FROM {lines} l INNER JOIN {deals} d ON d.{pk} = l.{sql.column(DealLine, 'deal')}"
        f" WHERE d.{sql.column(Deal, 'game')} = %s AND d.{sql.column(Deal, 'revision')} > %s"
        # "+": the order is not taken from the (game, number) index, which SQLite would walk
        # over the whole game's deals; the (game, revision) index finds the few written since
        f" ORDER BY +d.{sql.column(Deal, 'number')}, l.{pk} LIMIT %s"
    )


def _deals_with_lines(game: Game, players: list[Player]) -> list[Deal]:
    """Every deal of the game in number order, each with its score lines in the order they
    were stored (`deal.lines.all()` reads no more), as the ORM's
    ``game.deals.select_related("dealer", "taker", "partner").prefetch_related("lines")``
    gave them: one plain SELECT (`core.sql`), which the ORM compiled (three queries) in
    several times the time they ran. The dealer, taker and partner are the seated players
    already read (no query)."""
    deal_cols, line_cols = sql.columns_of(Deal, "d"), sql.columns_of(DealLine, "l")
    with connection.cursor() as cursor:
        cursor.execute(_deals_with_lines_sql(connection.vendor), [game.pk])
        found = cursor.fetchall()
    seated = {p.pk: p for p in players}
    deals: list[Deal] = []
    deal = None
    for row in found:
        if deal is None or row[0] != deal.pk:  # the deal's id (its first column): a new deal
            deal = _deal_of(deal_cols.build(row), game, seated)
            deal._prefetched_objects_cache = {"lines": []}
            deals.append(deal)
        if row[deal_cols.width] is not None:  # a deal without lines (LEFT JOIN)
            line = line_cols.build(row, deal_cols.width)
            line.deal = deal
            deal._prefetched_objects_cache["lines"].append(line)
    return deals


@functools.cache
def _deals_with_lines_sql(vendor: str) -> str:
    d, lines = sql.columns_of(Deal, "d"), sql.columns_of(DealLine, "l")
    pk = sql.quote("id")
    return (
        f"SELECT {d.sql}, {lines.sql} FROM {sql.table(Deal)} d LEFT JOIN {sql.table(DealLine)} l"
        f" ON l.{sql.column(DealLine, 'deal')} = d.{pk} WHERE d.{sql.column(Deal, 'game')} = %s"
        f" ORDER BY d.{sql.column(Deal, 'number')}, l.{pk}"
    )


def game_totals(games: list[Game]) -> dict[int, dict[int, int]]:
    """Totals per player for several tarot games in one query: game pk → player pk → total."""
    out: dict[int, dict[int, int]] = {g.pk: {} for g in games}
    rows = (
        DealLine.objects.filter(deal__game__in=[g.pk for g in games])
        .values_list("deal__game_id", "player_id")
        .annotate(total=Sum("score"))
    )
    for game_id, player_id, total in rows:
        out[game_id][player_id] = total
    return out


def deal_history(deal: Deal) -> QuerySet[Change]:
    return Change.objects.filter(game=deal.game_id, number=deal.number).select_related("user")
