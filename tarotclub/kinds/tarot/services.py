"""Writes of French Tarot deals. Each function is one transaction: validate, compute the score
with `scoring.fft`, store the deal and its score lines, keep the history.

Refusals raise `games.services.GameError`; a deal changed by another phone since it was
opened raises `games.services.StaleError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Sum
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import RuleError, fft
from tarotclub.core import sql
from tarotclub.games import house, policy
from tarotclub.games.models import ChangeAction, Game
from tarotclub.games.selectors import seat_players
from tarotclub.games.services import (
    GameError,
    PreparedInsert,
    StaleError,
    Together,
    change_entry,
    insert_row,
    lock_game,
    log_change,
    require,
    update_row,
    update_statement,
    writes_together,
)
from tarotclub.players.models import Player

from .models import Deal, DealLine
from .selectors import active_players, dealer_for

ERR_TABLE_SIZE = _("A table has 3, 4 or 5 players.")
ERR_TABLE_SIZE_SITTING_OUT = _("A table where the dealer sits out has 5 players.")
ERR_FINISHED = policy.ERR_FINISHED
ERR_LOCKED = policy.ERR_LOCKED
ERR_NOT_AT_TABLE = _("A player named in this deal does not play at this table.")
ERR_DEALER_PLAYS = _("The dealer sits out this deal and cannot take, be called or show a poignée.")
ERR_NO_DEAL = policy.ERR_NO_DEAL
ERR_ALL_DEALS_IN = policy.ERR_ALL_DEALS_IN
ERR_NOT_LAST = _("Only the last deal can be undone; deal %(number)s was entered since.")
ERR_DEAL_TAKEN = _(
    "Deal %(number)s was just entered from another phone. Check the sheet before entering "
    "the next one."
)
ERR_NO_SUCH_DEAL = _("This deal does not exist (any more).")
ERR_IMPOSED_TAKER = _("On this board the taker is imposed: %(name)s takes.")
ERR_IMPOSED_CONTRACT = _("On this board the contract is imposed: %(contract)s.")
ERR_NOT_TAROT = _("This is not a French Tarot game.")
ERR_STALE = _(
    "Somebody else changed this deal since you opened it. Here is the newer version; "
    "check it and enter your change again if it is still needed."
)


#: The deal screen's field a rules error is about, so the message shows next to it.
RULE_FIELDS = {
    fft.ERR_UNKNOWN_TAKER: "taker",
    fft.ERR_PARTNER_TABLE_SIZE: "partner",
    fft.ERR_UNKNOWN_PARTNER: "partner",
    fft.ERR_CONTRACT: "contract",
    fft.ERR_BOUTS: "bouts",
    fft.ERR_POINTS_NOT_A_NUMBER: "points",
    fft.ERR_POINTS_HALVES: "points",
    fft.ERR_POINTS_RANGE: "points",
    fft.ERR_POINTS_TOO_FEW_FOR_BOUTS: "points",
    fft.ERR_POINTS_TOO_MANY_FOR_BOUTS: "points",
    fft.ERR_SIDE: "petit_au_bout",
    fft.ERR_PETIT_AU_BOUT_ATTACK_NO_BOUT: "petit_au_bout",
    fft.ERR_PETIT_AU_BOUT_DEFENCE_ALL_BOUTS: "petit_au_bout",
    fft.ERR_PETIT_AU_BOUT_AGAINST_ATTACK_SLAM: "petit_au_bout",
    fft.ERR_PETIT_AU_BOUT_AGAINST_DEFENCE_SLAM: "petit_au_bout",
    fft.ERR_CHELEM: "chelem",
    fft.ERR_CHELEM_ATTACK_LOST: "chelem",
    fft.ERR_CHELEM_DEFENCE_WON: "chelem",
    fft.ERR_SLAM_ATTACK_CARDS: "chelem",
    fft.ERR_SLAM_GARDE_CONTRE_POINTS: "chelem",
    fft.ERR_SLAM_DEFENCE_CARDS: "chelem",
    fft.ERR_SLAM_DEFENCE_GARDE_SANS_POINTS: "chelem",
}
#: Misère errors name a player: the message shows on the misère panel.
MISERE_ERRORS = frozenset(
    {
        fft.ERR_MISERE_SHAPE,
        fft.ERR_MISERE_KIND,
        fft.ERR_MISERE_OFF,
        fft.ERR_UNKNOWN_MISERE_PLAYER,
        fft.ERR_DUPLICATE_MISERE,
        fft.ERR_MISERE_ATOUT_POIGNEE,
    }
)


@dataclass(frozen=True)
class DealInput:
    """A deal as a form collects it, with player primary keys."""

    taker: int
    contract: str
    bouts: int
    points: Fraction
    partner: int | None = None
    petit_au_bout: str | None = None
    poignees: Sequence[tuple[int, str]] = field(default_factory=tuple)
    chelem: str = "none"
    #: House rules: the misères declared, (player pk, "tete" | "atout").
    miseres: Sequence[tuple[int, str]] = field(default_factory=tuple)


def imposed(game: Game, number: int) -> tuple[int, str] | None:
    """(taker pk, contract) imposed on deal `number`, or None.

    A duplicate tournament's table says in its game's options which board each deal is and
    who takes it under which contract (``"boards"``, ``"imposed": [[pk, contract], ...]``,
    duplicate.md 1.4): the taker and the contract are not chosen at the table."""
    rows = (game.options or {}).get("imposed") or []
    if isinstance(number, int) and 1 <= number <= len(rows):
        taker, contract = rows[number - 1]
        return int(taker), str(contract)
    return None


def board_of(game: Game, number: int) -> int | None:
    """The duplicate board deal `number` of the game is (None: not a duplicate table)."""
    boards = (game.options or {}).get("boards") or []
    return boards[number - 1] if isinstance(number, int) and 1 <= number <= len(boards) else None


def deal_score(
    game: Game,
    dealer: Player,
    players: Sequence[Player],
    data: DealInput,
    *,
    number: int | None = None,
):
    """Score a deal with `scoring.fft`; RuleError and foreign players become GameError.

    With `number`, what the game imposes on that deal (`imposed`) is checked too."""
    active = active_players(game, dealer, players, number)
    by_pk = {p.pk: p for p in players}
    rule = imposed(game, number) if number is not None else None
    if rule is not None:
        taker, contract = rule
        if data.taker != taker:
            name = by_pk[taker].name if taker in by_pk else "?"
            message = ERR_IMPOSED_TAKER % {"name": name}
            raise GameError({"taker": [ValidationError(message, code="imposed")]})
        if data.contract != contract:
            label = fft.CONTRACT_LABELS.get(contract, contract)
            message = ERR_IMPOSED_CONTRACT % {"contract": gettext(label)}
            raise GameError({"contract": [ValidationError(message, code="imposed")]})
    named = [data.taker, *([data.partner] if data.partner is not None else [])]
    named += [pk for pk, _kind in data.poignees]
    named += [pk for pk, _kind in data.miseres]
    for pk in named:
        if pk not in by_pk:
            raise GameError(ERR_NOT_AT_TABLE)
        if game.dealer_sits_out and pk == dealer.pk:
            raise GameError(ERR_DEALER_PLAYS)
    try:
        return fft.score_deal(
            seats=[p.pk for p in active],
            taker=data.taker,
            contract=data.contract,
            bouts=data.bouts,
            points=data.points,
            partner=data.partner,
            petit_au_bout=data.petit_au_bout or None,
            poignees=tuple(data.poignees),
            chelem=data.chelem,
            miseres=tuple(data.miseres),
            rules=house.of_game(game),
        )
    except RuleError as e:
        message = e.translated(gettext)
        if e.template in MISERE_ERRORS and "player" in e.params:
            names = {p.pk: getattr(p, "label", None) or p.short_name for p in players}
            params = dict(e.params)
            params["player"] = names.get(params["player"], params["player"])
            message = gettext(e.template) % params
        field_name = RULE_FIELDS.get(e.template)
        if field_name:
            raise GameError({field_name: [ValidationError(message, code="rule")]}) from e
        raise GameError(message, code="rule") from e


def deal_snapshot(deal: Deal, scores: dict[int, int] | None = None) -> dict:
    """What a deal was, for the change history (JSON); `scores` (player pk → score) when the
    caller has them at hand, else read from its lines."""
    if scores is None:
        scores = {line.player_id: line.score for line in deal.lines.all()}
    return {
        "number": deal.number,
        "dealer": deal.dealer_id,
        "taker": deal.taker_id,
        "partner": deal.partner_id,
        "contract": deal.contract,
        "bouts": deal.bouts,
        "points_half": deal.points_half,
        "petit_au_bout": deal.petit_au_bout,
        "poignees": deal.poignees,
        "chelem": deal.chelem,
        "miseres": deal.miseres,
        "version": deal.version,
        "scores": {str(pk): score for pk, score in scores.items()},
    }


def _assert_tarot(game: Game) -> None:
    if game.kind != "tarot":
        raise GameError(ERR_NOT_TAROT)


def _apply(deal: Deal, data: DealInput, result) -> None:
    deal.taker_id = data.taker
    deal.partner_id = result.partner
    deal.contract = str(result.contract)
    deal.bouts = result.bouts
    deal.points_half = int(result.points * 2)
    deal.petit_au_bout = str(result.petit_au_bout) if result.petit_au_bout else ""
    deal.poignees = [[pk, str(kind)] for pk, kind in result.poignees]
    deal.chelem = str(result.chelem)
    deal.miseres = [[pk, str(kind)] for pk, kind in result.miseres]
    deal.won = result.won
    deal.gap = result.gap


def _scores(players: Sequence[Player], result) -> dict[int, int]:
    return {p.pk: result.scores.get(p.pk, 0) for p in players}


#: what a correction changes in a deal (`_apply`, the version, the time)
CORRECTED_FIELDS = [
    "taker",
    "partner",
    "contract",
    "bouts",
    "points_half",
    "petit_au_bout",
    "poignees",
    "chelem",
    "miseres",
    "won",
    "gap",
    "version",
    "revision",
    "updated_at",
]


def _deal_with_lines(game: Game, *, pk: int | None, number: int | None):
    """(the deal of `game` with this pk, or else this number, or None; its score lines).

    One plain SELECT (`core.sql`), read under the game's lock: every write to a deal and its
    lines holds that lock, so the rows need no lock of their own. (The ORM's `select_related`
    compiled it in several times the time it ran.)
    """
    deals, lines = sql.columns_of(Deal, "d"), sql.columns_of(DealLine, "l")
    key = sql.quote(Deal._meta.pk.column) if pk is not None else sql.column(Deal, "number")
    deal_pk = sql.quote(Deal._meta.pk.column)
    query = (
        f"SELECT {deals.sql}, {lines.sql} FROM {sql.table(Deal)} d "
        f"LEFT JOIN {sql.table(DealLine)} l ON l.{sql.column(DealLine, 'deal')} = d.{deal_pk} "
        f"WHERE d.{sql.column(Deal, 'game')} = %s AND d.{key} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [game.pk, pk if pk is not None else number])
        rows = cursor.fetchall()
    if not rows:
        return None, []
    current = deals.build(rows[0])
    found = [lines.build(row, deals.width) for row in rows if row[deals.width] is not None]
    for line in found:
        line.deal = current
    return current, found


def _update_scores_statement(lines: list[DealLine]) -> tuple[str, list]:
    """The lines' new scores in one plain UPDATE (the ORM's `bulk_update` compiled its CASE in
    ten times the time it ran)."""
    pk, score = sql.quote(DealLine._meta.pk.column), sql.column(DealLine, "score")
    cases = " ".join("WHEN %s THEN %s" for _ in lines)
    marks = ", ".join("%s" for _ in lines)
    query = (
        f"UPDATE {sql.table(DealLine)} SET {score} = CASE {pk} {cases} END WHERE {pk} IN ({marks})"
    )
    params = [v for line in lines for v in (line.pk, line.score)] + [line.pk for line in lines]
    return query, params


def _update_scores(lines: list[DealLine]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(*_update_scores_statement(lines))


def _new_lines_statement(deal: str, scores: dict[int, int]) -> tuple[str, list]:
    """A new deal's score lines as one INSERT of a statement where the part named `deal`
    (`Together`) inserts the deal and returns its primary key."""
    columns = ", ".join(sql.column(DealLine, name) for name in ("deal", "player", "score"))
    rows = ", ".join("(%s, %s)" for _ in scores)
    params = [v for pk, score in scores.items() for v in (pk, score)]
    return (
        f"INSERT INTO {sql.table(DealLine)} ({columns}) SELECT (SELECT {deal}.pk FROM {deal}), "
        f"v.player, v.score FROM (VALUES {rows}) AS v(player, score)"
    ), params


def _write_lines(deal: Deal, scores: dict[int, int], lines: list[DealLine] | None = None) -> None:
    """Store the deal's score lines: insert them for a new deal (`lines` None); for a
    correction, update the stored `lines` in one query."""
    if lines is not None and {line.player_id for line in lines} == set(scores):
        for line in lines:
            line.score = scores[line.player_id]
        _update_scores(lines)
        return
    if lines is not None:
        DealLine.objects.filter(deal=deal).delete()
    if not scores:
        return
    # one plain multi-row INSERT (the ORM's `bulk_create` cost a fifth of a whole save)
    columns = ", ".join(sql.column(DealLine, name) for name in ("deal", "player", "score"))
    rows = ", ".join("(%s, %s, %s)" for _ in scores)
    query = f"INSERT INTO {sql.table(DealLine)} ({columns}) VALUES {rows}"
    params = [v for pk, score in scores.items() for v in (deal.pk, pk, score)]
    with connection.cursor() as cursor:
        cursor.execute(query, params)


def _locked_table(
    game: Game, played, *, counting: bool = False, locked: Game | None = None
) -> tuple[Game, list, int | None]:
    """The game under its row lock, its players, and (`counting`) its number of deals, counted
    under the lock in the same statement (else None).

    `played` is the game as the page read it: its players are the table's (seats never change
    once a game is started), so they are not read again.
    """
    if locked is None:
        locked = lock_game(game, count_of=Deal if counting else None)
    else:
        counting = True  # taken by the caller with the count
    players = seat_players(locked) if played is None else played.players
    return locked, players, locked.entry_count if counting else None


def game_totals_db(game: Game) -> dict[int, int]:
    """Each player's total, summed in the database."""
    rows = (
        DealLine.objects.filter(deal__game=game)
        .values_list("player_id")
        .annotate(total=Sum("score"))
        .values_list("player_id", "total")
    )
    return dict(rows)


def counted_tally(game: Game, count: int | None = None) -> dict:
    """`Game.tally`'s count and totals, counted and summed from the stored deals now
    (`count` when the caller knows it)."""
    totals = {str(pk): total for pk, total in game_totals_db(game).items()}
    return {"count": game.deals.count() if count is None else count, "totals": totals}


def _tally(game: Game, *, count: int | None = None, step: int = 0, plus=None, minus=None) -> dict:
    """The locked game's `Game.tally` after a write of a deal: the current one (when stale,
    counted and summed now, before the write stores its lines) with `step` entries more and
    the scores `plus` added and `minus` taken away. `count` is the number of deals before the
    write when the caller knows it."""
    base = game.current_tally
    if base is None:
        base = counted_tally(game, count)
    totals = dict(base["totals"])
    for scores, sign in ((plus or {}, 1), (minus or {}, -1)):
        for pk, score in scores.items():
            totals[str(pk)] = totals.get(str(pk), 0) + sign * score
    before = base["count"] if count is None else count
    return {"count": before + step, "totals": totals}


# --- deals -------------------------------------------------------------------------------------


def deal_add(
    *,
    game: Game,
    data: DealInput,
    user=None,
    expected_number: int | None = None,
    played=None,
    client_id=None,
) -> Deal:
    """Enter the next deal of a French Tarot game.

    `expected_number` is the deal the person was entering: when another phone entered that
    deal meanwhile, the entry is refused rather than recorded twice. `played` is the game as
    the page read it (`Tarot.load_for_write`); it spares reading the seats again. The deals
    are counted under the game's lock, in the statement that takes it.

    `client_id` is the id the phone made for this entry (a UUID): a deal already saved with
    it is returned as it is, marked ``sent_before``, and nothing is written (a retry after the
    network dropped, a double tap; even once the sheet is confirmed, since it was saved).

    With `played` and `expected_number`, the deal is scored and its rows made before the lock
    (`_NewDeal`): every save of the room waits for that lock on SQLite, so it is held for the
    checks and the SQL only. Under the lock the deal is checked to be the one it was made
    for; else it is made again there.
    """
    ready = None
    if played is not None and expected_number is not None:
        try:
            ready = _NewDeal.make(
                played.game, played.players, data, expected_number, client_id, user
            )
        except Exception:  # made again under the lock, after the checks that come first
            ready = None
    try:
        return _deal_add(
            game=game,
            data=data,
            user=user,
            expected_number=expected_number,
            played=played,
            client_id=client_id,
            ready=ready,
        )
    except IntegrityError:
        # two sends of one entry at the same moment, that the lock's snapshot did not tell
        # apart (PostgreSQL reads the subquery before it waits for the lock): the unique id
        # kept the second one out; it answers with the first
        sent = Deal.objects.filter(game=game, client_id=client_id).first() if client_id else None
        if sent is None:
            raise
        sent.sent_before = True
        return sent


#: what a new deal is made from, besides its number, its players and what was entered: the
#: game's fields that `dealer_for` and `deal_score` read
_MADE_FROM = ("kind", "options", "dealer_sits_out", "first_dealer")


@dataclass
class _NewDeal:
    """A new deal made ready to store: scored, its rows and its history entry built, or the
    refusal its scoring raised (raised under the lock, after the checks that come first)."""

    game: Game
    players: Sequence[Player]
    number: int
    deal: Deal | None = None
    scores: dict[int, int] = field(default_factory=dict)
    row: PreparedInsert | None = None
    entry: PreparedInsert | None = None
    refused: GameError | None = None

    @classmethod
    def make(cls, game, players, data, number, client_id, user) -> _NewDeal:
        made = cls(game, players, number)
        dealer = dealer_for(game, number, players)
        try:
            result = deal_score(game, dealer, players, data, number=number)
        except GameError as e:
            made.refused = e
            return made
        deal = Deal(game=game, number=number, dealer=dealer, client_id=client_id)
        _apply(deal, data, result)
        made.deal, made.scores = deal, _scores(players, result)
        made.row = PreparedInsert(deal, later=("revision",))
        made.entry = change_entry(
            game,
            ChangeAction.RECORDED,
            number=number,
            after=deal_snapshot(deal, made.scores),
            user=user,
        )
        return made

    def fits(self, locked: Game, players: Sequence[Player], number: int) -> bool:
        """Whether this is the deal `number` of the locked game, as it is now."""
        return (
            number == self.number
            and players is self.players
            and all(getattr(locked, name) == getattr(self.game, name) for name in _MADE_FROM)
        )


@transaction.atomic
def _deal_add(*, game, data, user, expected_number, played, client_id, ready=None) -> Deal:
    locked = lock_game(game, count_of=Deal, client_of=Deal, client_id=client_id)
    if locked.sent_before is not None:
        sent = Deal.objects.get(pk=locked.sent_before)
        sent.sent_before = True
        return sent
    game, players, count = _locked_table(game, played, locked=locked)
    _assert_tarot(game)
    require(game, policy.DEAL, user=user, deal_count=count)
    number = count + 1
    if expected_number is not None and expected_number != number:
        raise GameError(ERR_DEAL_TAKEN, params={"number": expected_number}, code="taken")
    if ready is None or not ready.fits(game, players, number):
        ready = _NewDeal.make(game, players, data, number, client_id, user)
    if ready.refused is not None:
        raise ready.refused
    deal, scores = ready.deal, ready.scores
    deal.game = game
    deal.revision = game.revision + 1
    tally = _tally(game, count=count, step=1, plus=scores)
    along = None
    if writes_together() and scores:
        # the deal, its lines, its history entry and the revision: one statement
        along = Together()
        along.add("new_deal", *ready.row.statement())
        lines, params = _new_lines_statement("new_deal", scores)
        along.add("new_lines", lines, params, returning=False)
    else:
        insert_row(deal, ready.row)
        _write_lines(deal, scores)
    log_change(game, ChangeAction.RECORDED, tally=tally, along=along, entry=ready.entry)
    if along is not None:
        deal.pk = along.pk("new_deal")
        deal._state.adding, deal._state.db = False, connection.alias
    deal.sent_before = False
    return deal


@transaction.atomic
def deal_correct(
    *,
    deal: Deal | None = None,
    data: DealInput,
    expected_version: int,
    user=None,
    played=None,
    number: int | None = None,
) -> Deal:
    """Correct a deal (`deal`, or deal `number` of `played`); refused when another phone
    changed it since `expected_version`."""
    game, players, _count = _locked_table(deal.game if deal is not None else played.game, played)
    _assert_tarot(game)
    require(game, policy.CORRECT, user=user)
    current, lines = _deal_with_lines(game, pk=deal.pk if deal is not None else None, number=number)
    if current is None:
        raise GameError(ERR_NO_SUCH_DEAL, code="no_such_deal")
    if current.version != expected_version:
        raise StaleError(current, ERR_STALE)
    dealer = next((p for p in players if p.pk == current.dealer_id), None) or current.dealer
    result = deal_score(game, dealer, players, data, number=current.number)
    old_scores = {line.player_id: line.score for line in lines}
    before = deal_snapshot(current, old_scores)
    _apply(current, data, result)
    current.version += 1
    current.revision = game.revision + 1
    scores = _scores(players, result)
    tally = _tally(game, plus=scores, minus=old_scores)
    along = None
    if writes_together() and lines and {line.player_id for line in lines} == set(scores):
        # the deal, its lines, its history entry and the revision: one statement
        along = Together()
        along.add("corrected_deal", *update_statement(current, CORRECTED_FIELDS))
        for line in lines:
            line.score = scores[line.player_id]
        along.add("corrected_lines", *_update_scores_statement(lines), returning=False)
    else:
        update_row(current, CORRECTED_FIELDS)
        _write_lines(current, scores, lines)
    log_change(
        game,
        ChangeAction.CORRECTED,
        number=current.number,
        before=before,
        after=deal_snapshot(current, scores),
        user=user,
        tally=tally,
        along=along,
    )
    return current


@transaction.atomic
def deal_undo_last(*, game: Game, number: int, user=None) -> None:
    """Remove the last deal; `number` is the deal the person confirmed removing."""
    game = lock_game(game)
    _assert_tarot(game)
    require(game, policy.UNDO, user=user)
    last = game.deals.order_by("-number").first()
    if last.number != number:
        raise GameError(ERR_NOT_LAST, params={"number": last.number})
    before = deal_snapshot(last)
    removed = {int(pk): score for pk, score in before["scores"].items()}
    tally = _tally(game, count=last.number, step=-1, minus=removed)
    log_change(game, ChangeAction.UNDONE, number=last.number, before=before, user=user, tally=tally)
    last.delete()
