"""Reads of French Tarot games: a constant number of queries whatever the number of deals."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import QuerySet, Sum

from tarotclub.games.models import Change, Game
from tarotclub.games.selectors import seat_players
from tarotclub.players.models import Player

from .models import Deal, DealLine
from .presenters import bonuses_text, deal_labels


def dealer_for(game: Game, number: int, players: Sequence[Player] | None = None) -> Player:
    """Who deals deal `number` (1-based): the deal passes to the next player in playing order."""
    players = list(players) if players is not None else seat_players(game)
    return players[(game.first_dealer + number - 1) % len(players)]


def active_players(game: Game, dealer: Player, players: Sequence[Player]) -> list[Player]:
    """Who plays the deal: everybody, except the dealer at a sitting-out table of five."""
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

    @property
    def standing(self) -> list[tuple[Player, int, bool]]:
        """(player, total, leads) in seat order, for the totals on top of the sheet."""
        return [(p, self.totals.get(p.pk, 0), p.pk in self.leaders) for p in self.players]

    @property
    def zero_sum(self) -> bool:
        return sum(self.totals.values()) == 0

    @property
    def deal_count(self) -> int:
        return len(self.rows)


def game_sheet(game: Game) -> Sheet:
    """Every deal with its scores, running totals and the totals summed in the database."""
    players = seat_players(game)
    names = {p.pk: p.label for p in players}
    deals = list(game.deals.select_related("dealer", "taker", "partner").prefetch_related("lines"))
    totals_db = dict(
        DealLine.objects.filter(deal__game=game)
        .values_list("player_id")
        .annotate(total=Sum("score"))
        .values_list("player_id", "total")
    )
    running = {p.pk: 0 for p in players}
    rows = []
    for deal in deals:
        scores = {line.player_id: line.score for line in deal.lines.all()}
        for pk in running:
            running[pk] += scores.get(pk, 0)
        said = deal_labels(deal, names)
        rows.append(
            SheetRow(
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
        )
    totals = {p.pk: totals_db.get(p.pk, 0) for p in players}
    best = max(totals.values()) if rows else None
    leaders = {pk for pk, t in totals.items() if rows and t == best}
    next_dealer = dealer_for(game, len(rows) + 1, players) if players else None
    next_active = active_players(game, next_dealer, players) if next_dealer else []
    return Sheet(
        game=game,
        players=players,
        rows=rows,
        totals=totals,
        leaders=leaders,
        next_dealer=next_dealer,
        next_active=next_active,
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
