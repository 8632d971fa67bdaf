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
from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import RuleError, fft
from tarotclub.games import policy
from tarotclub.games.models import ChangeAction, Game
from tarotclub.games.selectors import seat_players
from tarotclub.games.services import GameError, StaleError, lock_game, log_change, require
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
}


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


def deal_score(game: Game, dealer: Player, players: Sequence[Player], data: DealInput):
    """Score a deal with `scoring.fft`; RuleError and foreign players become GameError."""
    active = active_players(game, dealer, players)
    by_pk = {p.pk: p for p in players}
    named = [data.taker, *([data.partner] if data.partner is not None else [])]
    named += [pk for pk, _kind in data.poignees]
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
        )
    except RuleError as e:
        message = e.translated(gettext)
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
    deal.won = result.won
    deal.gap = result.gap


def _scores(players: Sequence[Player], result) -> dict[int, int]:
    return {p.pk: result.scores.get(p.pk, 0) for p in players}


def _write_lines(deal: Deal, scores: dict[int, int], lines: list[DealLine] | None = None) -> None:
    """Store the deal's score lines: insert them for a new deal (`lines` None); for a
    correction, update the stored `lines` in one query."""
    if lines is not None and {line.player_id for line in lines} == set(scores):
        for line in lines:
            line.score = scores[line.player_id]
        DealLine.objects.bulk_update(lines, ["score"])
        return
    if lines is not None:
        DealLine.objects.filter(deal=deal).delete()
    DealLine.objects.bulk_create(
        DealLine(deal=deal, player_id=pk, score=score) for pk, score in scores.items()
    )


def _locked_table(game: Game, played) -> tuple[Game, list[Player], int | None]:
    """The game under its row lock, its players, and its deal count when the page's read is
    still current (None: count again).

    `played` is the game as the page read it (seats and, for a new deal, the count): when its
    revision is the locked one, no phone wrote since, so nothing is read twice.
    """
    locked = lock_game(game)
    if played is None:
        return locked, seat_players(locked), None
    players = played.players
    if locked.revision != played.game.revision:
        return locked, players, None
    return locked, players, played.known_count


def game_totals_db(game: Game) -> dict[int, int]:
    """Each player's total, summed in the database."""
    rows = (
        DealLine.objects.filter(deal__game=game)
        .values_list("player_id")
        .annotate(total=Sum("score"))
        .values_list("player_id", "total")
    )
    return dict(rows)


def _tally(game: Game, *, count: int | None = None, step: int = 0, plus=None, minus=None) -> dict:
    """The locked game's `Game.tally` after a write of a deal: the current one (when stale,
    counted and summed now, before the write stores its lines) with `step` entries more and
    the scores `plus` added and `minus` taken away. `count` is the number of deals before the
    write when the caller knows it."""
    base = game.current_tally
    if base is None:
        totals = {str(pk): total for pk, total in game_totals_db(game).items()}
        base = {"count": game.deals.count() if count is None else count, "totals": totals}
    totals = dict(base["totals"])
    for scores, sign in ((plus or {}, 1), (minus or {}, -1)):
        for pk, score in scores.items():
            totals[str(pk)] = totals.get(str(pk), 0) + sign * score
    before = base["count"] if count is None else count
    return {"count": before + step, "totals": totals}


# --- deals -------------------------------------------------------------------------------------


@transaction.atomic
def deal_add(
    *,
    game: Game,
    data: DealInput,
    user=None,
    expected_number: int | None = None,
    played=None,
) -> Deal:
    """Enter the next deal of a French Tarot game.

    `expected_number` is the deal the person was entering: when another phone entered that
    deal meanwhile, the entry is refused rather than recorded twice. `played` is the game as
    the page read it (`Tarot.load_for_write`); it spares reading the seats and the count again.
    """
    game, players, count = _locked_table(game, played)
    _assert_tarot(game)
    if count is None:
        count = game.deals.count()
    require(game, policy.DEAL, user=user, deal_count=count)
    number = count + 1
    if expected_number is not None and expected_number != number:
        raise GameError(ERR_DEAL_TAKEN, params={"number": expected_number})
    dealer = dealer_for(game, number, players)
    result = deal_score(game, dealer, players, data)
    deal = Deal(game=game, number=number, dealer=dealer, revision=game.revision + 1)
    _apply(deal, data, result)
    scores = _scores(players, result)
    tally = _tally(game, count=count, step=1, plus=scores)
    deal.save(force_insert=True)
    _write_lines(deal, scores)
    log_change(
        game,
        ChangeAction.RECORDED,
        number=number,
        after=deal_snapshot(deal, scores),
        user=user,
        tally=tally,
    )
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
    # the deal and its lines, locked, in one query (every write to them holds the game's lock)
    found = DealLine.objects.select_for_update().select_related("deal").filter(deal__game=game)
    found = found.filter(deal=deal.pk) if deal is not None else found.filter(deal__number=number)
    lines = list(found)
    if lines:
        current = lines[0].deal
    else:  # a deal without lines (never written so): read it alone
        current = Deal.objects.select_for_update().filter(game=game)
        if deal is not None:
            current = current.filter(pk=deal.pk).first()
        else:
            current = current.filter(number=number).first()
    if current is None:
        raise GameError(ERR_NO_SUCH_DEAL, code="no_such_deal")
    if current.version != expected_version:
        raise StaleError(current, ERR_STALE)
    dealer = next((p for p in players if p.pk == current.dealer_id), None) or current.dealer
    result = deal_score(game, dealer, players, data)
    old_scores = {line.player_id: line.score for line in lines}
    before = deal_snapshot(current, old_scores)
    _apply(current, data, result)
    current.version += 1
    current.revision = game.revision + 1
    scores = _scores(players, result)
    tally = _tally(game, plus=scores, minus=old_scores)
    current.save()
    _write_lines(current, scores, lines)
    log_change(
        game,
        ChangeAction.CORRECTED,
        number=current.number,
        before=before,
        after=deal_snapshot(current, scores),
        user=user,
        tally=tally,
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
