"""Writes to games. Each function is one transaction: validate, compute with `scoring`, store.

Errors a person can cause raise `GameError` (a ValidationError whose message is translated);
a deal changed by another phone since it was loaded raises `StaleDealError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import RuleError, fft
from tarotclub.players.models import Player
from tarotclub.players.selectors import short_labels

from . import policy
from .models import Change, ChangeAction, Deal, DealLine, Game, GameKind, Seat

ERR_TABLE_SIZE = _("A table has 3, 4 or 5 players.")
ERR_KIND_SIZE = _("%(game)s is played by %(low)s to %(high)s players.")
ERR_KIND = _("Choose one of the games.")
ERR_TABLE_SIZE_SITTING_OUT = _("A table where the dealer sits out has 5 players.")
ERR_DUPLICATE_PLAYER = _("Each player can sit only once at the table.")
ERR_UNKNOWN_PLAYER = _("That player is not on the club's roster.")
ERR_FIRST_DEALER = _("The first dealer must be one of the players.")
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
ERR_NOT_TAROT = policy.ERR_NOT_TAROT
ERR_GONE = _("This game no longer exists.")
ERR_STALE = _(
    "Somebody else changed this deal since you opened it. Here is the newer version; "
    "check it and enter your change again if it is still needed."
)


#: How many players each game takes (French Tarot: 3, 4 or 5).
TABLE_SIZES = {
    GameKind.TAROT: (3, 5),
    GameKind.FOOLS_FAITH: (3, 5),
    GameKind.DEATHS_POT: (2, 6),
    GameKind.KEYS: (2, 4),
    GameKind.CUCKOO: (3, 12),
}


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


class GameError(ValidationError):
    """A refused write, with a message in the user's language."""


class StaleDealError(GameError):
    def __init__(self, deal: Deal):
        super().__init__(ERR_STALE, code="stale")
        self.deal = deal


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


# --- reading helpers used by services and selectors -------------------------------------------


def seat_players(game: Game) -> list[Player]:
    """The players in playing order (uses the prefetch cache when there is one).

    Each player gets a `label`: a short name that is unique at this table.
    """
    players = [s.player for s in sorted(game.seats.all(), key=lambda s: s.position)]
    labels = short_labels(players)
    for p in players:
        p.label = labels[p.pk]
    return players


def dealer_for(game: Game, number: int, players: Sequence[Player] | None = None) -> Player:
    """Who deals deal `number` (1-based): the deal passes to the next player in playing order."""
    players = list(players) if players is not None else seat_players(game)
    return players[(game.first_dealer + number - 1) % len(players)]


def active_players(game: Game, dealer: Player, players: Sequence[Player]) -> list[Player]:
    """Who plays the deal: everybody, except the dealer at a sitting-out table of five."""
    if game.dealer_sits_out:
        return [p for p in players if p.pk != dealer.pk]
    return list(players)


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


def deal_snapshot(deal: Deal) -> dict:
    """What a deal was, for the change history (JSON)."""
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
        "scores": {str(line.player_id): line.score for line in deal.lines.all()},
    }


def require(game: Game, action: str, *, user=None, deal_count: int | None = None) -> None:
    """Refuse the write unless the policy allows it (call it on the locked game)."""
    verdict = policy.check(game, action, user=user, deal_count=deal_count)
    if not verdict:
        raise GameError(verdict.message, code=action, params=verdict.params)


def lock_game(game: Game) -> Game:
    """Re-read the game under a row lock so concurrent phones write one after the other.

    The game may have gone meanwhile (a tournament round redrawn before its first deal): that
    is a refusal with a message, not a crash.
    """
    locked = Game.objects.select_for_update().filter(pk=game.pk).first()
    if locked is None:
        raise GameError(ERR_GONE, code="gone")
    return locked


def bump_revision(game: Game) -> None:
    """Tell the phones that follow this game that something changed."""
    Game.objects.filter(pk=game.pk).update(revision=F("revision") + 1)


def acting_user(user):
    """The account behind a write, or None for a phone on the share link."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


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


def _write_lines(deal: Deal, players: Sequence[Player], result) -> None:
    DealLine.objects.filter(deal=deal).delete()
    DealLine.objects.bulk_create(
        DealLine(deal=deal, player=p, score=result.scores.get(p.pk, 0)) for p in players
    )


def game_totals_db(game: Game) -> dict[int, int]:
    """Each player's total, summed in the database."""
    rows = (
        DealLine.objects.filter(deal__game=game)
        .values_list("player_id")
        .annotate(total=Sum("score"))
        .values_list("player_id", "total")
    )
    return dict(rows)


# --- games -------------------------------------------------------------------------------------


@transaction.atomic
def game_start(
    *,
    players: Sequence[Player],
    first_dealer: int = 0,
    created_by=None,
    kind: str = GameKind.TAROT,
    name: str = "",
    dealer_sits_out: bool = False,
    options: dict | None = None,
) -> Game:
    """Seat the players in playing order; `first_dealer` is an index into `players`."""
    players = list(players)
    pks = [p.pk for p in players]
    if kind not in TABLE_SIZES:
        raise GameError(ERR_KIND)
    low, high = TABLE_SIZES[kind]
    if kind == GameKind.TAROT:
        if dealer_sits_out and len(players) != 5:
            raise GameError(ERR_TABLE_SIZE_SITTING_OUT)
        if not low <= len(players) <= high:
            raise GameError(ERR_TABLE_SIZE)
    elif not low <= len(players) <= high:
        raise GameError(
            ERR_KIND_SIZE, params={"game": GameKind(kind).label, "low": low, "high": high}
        )
    if len(set(pks)) != len(pks):
        raise GameError(ERR_DUPLICATE_PLAYER)
    if None in pks or Player.objects.filter(pk__in=pks).count() != len(pks):
        raise GameError(ERR_UNKNOWN_PLAYER)
    if not 0 <= first_dealer < max(len(players), 1):
        raise GameError(ERR_FIRST_DEALER)
    game = Game.objects.create(
        kind=kind,
        name=name.strip()[:100],
        created_by=acting_user(created_by),
        first_dealer=first_dealer,
        dealer_sits_out=dealer_sits_out,
        options=options or {},
    )
    Seat.objects.bulk_create(Seat(game=game, player=p, position=i) for i, p in enumerate(players))
    return game


@transaction.atomic
def game_finish(*, game: Game, user=None) -> Game:
    """Finish a casual game (a tournament table ends with its round, never through here)."""
    game = lock_game(game)
    require(game, policy.FINISH, user=user)
    game.finished_at = timezone.now()
    game.revision += 1
    game.save(update_fields=["finished_at", "revision"])
    Change.objects.create(game=game, action=ChangeAction.FINISHED, user=acting_user(user))
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
        game.revision += 1
        game.save(update_fields=["locked", "revision"])
        action = ChangeAction.LOCKED if locked else ChangeAction.UNLOCKED
        Change.objects.create(game=game, action=action, user=acting_user(user))
    return game


# --- deals -------------------------------------------------------------------------------------


@transaction.atomic
def deal_record(
    *,
    game: Game,
    data: DealInput,
    user=None,
    expected_number: int | None = None,
) -> Deal:
    """Enter the next deal of a French Tarot game.

    `expected_number` is the deal the person was entering: when another phone entered that
    deal meanwhile, the entry is refused rather than recorded twice.
    """
    game = lock_game(game)
    count = game.deals.count()
    require(game, policy.DEAL, user=user, deal_count=count)
    players = seat_players(game)
    number = count + 1
    if expected_number is not None and expected_number != number:
        raise GameError(ERR_DEAL_TAKEN, params={"number": expected_number})
    dealer = dealer_for(game, number, players)
    result = deal_score(game, dealer, players, data)
    deal = Deal(game=game, number=number, dealer=dealer)
    _apply(deal, data, result)
    deal.save()
    _write_lines(deal, players, result)
    Change.objects.create(
        game=game,
        number=number,
        action=ChangeAction.RECORDED,
        after=deal_snapshot(deal),
        user=acting_user(user),
    )
    bump_revision(game)
    return deal


@transaction.atomic
def deal_correct(*, deal: Deal, data: DealInput, expected_version: int, user=None) -> Deal:
    """Correct a deal; refused when another phone changed it since `expected_version`."""
    game = lock_game(deal.game)
    require(game, policy.CORRECT, user=user)
    try:
        current = Deal.objects.select_for_update().get(pk=deal.pk, game=game)
    except Deal.DoesNotExist:
        raise GameError(ERR_NO_SUCH_DEAL) from None
    if current.version != expected_version:
        raise StaleDealError(current)
    players = seat_players(game)
    result = deal_score(game, current.dealer, players, data)
    before = deal_snapshot(current)
    _apply(current, data, result)
    current.version += 1
    current.save()
    _write_lines(current, players, result)
    Change.objects.create(
        game=game,
        number=current.number,
        action=ChangeAction.CORRECTED,
        before=before,
        after=deal_snapshot(current),
        user=acting_user(user),
    )
    bump_revision(game)
    return current


@transaction.atomic
def deal_undo_last(*, game: Game, number: int, user=None) -> None:
    """Remove the last deal; `number` is the deal the person confirmed removing."""
    game = lock_game(game)
    require(game, policy.UNDO, user=user)
    last = game.deals.order_by("-number").first()
    if last.number != number:
        raise GameError(ERR_NOT_LAST, params={"number": last.number})
    Change.objects.create(
        game=game,
        number=last.number,
        action=ChangeAction.UNDONE,
        before=deal_snapshot(last),
        user=acting_user(user),
    )
    last.delete()
    bump_revision(game)
