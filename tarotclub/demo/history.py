"""A long French Tarot history, built fast (for the tests and the bench of the player page).

`tarot_history(players, deals=1000)` seats the players at casual games of four and five, a
game a day, and stores the deals in bulk with the scores `scoring.fft` gives them: the same
rows the service writes, without its per-deal history, so a thousand deals take a second.
`tarot_sheet(players, deals=2000)` is one long game built the same way (the poll's tests and
bench). Each game's revision and tally are those the services would leave (`Game.tally`).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from django.db import transaction
from django.utils import timezone

from scoring import fft
from tarotclub.games.models import Game
from tarotclub.games.services import game_start
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal, DealLine

CONTRACTS = ("prise", "garde", "prise", "garde_sans", "garde", "garde_contre")


def _deal_data(i: int, seats: list, taker) -> dict:
    bouts = i % 4
    points = Fraction(36 + (i * 7) % 40)
    if bouts == 0:
        points = max(points, Fraction(4))
    return {
        "taker": taker,
        "contract": CONTRACTS[i % len(CONTRACTS)],
        "bouts": bouts,
        "points": points,
        "partner": seats[(seats.index(taker) + 2) % 5] if len(seats) == 5 else None,
        "petit_au_bout": ("attack" if bouts else None) if i % 11 == 0 else None,
        "poignees": ((taker, "simple"),) if i % 9 == 0 else (),
    }


@transaction.atomic
def tarot_history(players, *, deals: int, per_game: int = 20, start: dt.date | None = None):
    """`deals` deals for `players[0]`, in games of 4 and 5 of the first five players."""
    start = start or dt.date(2026, 1, 5)
    games = []
    made = 0
    day = 0
    while made < deals:
        size = 5 if day % 3 == 2 and len(players) >= 5 else 4
        seated = list(players[:size])
        game = game_start(players=seated, first_dealer=0)
        count = min(per_game, deals - made)
        seats = [p.pk for p in seated]
        rows, lines = [], []
        for n in range(1, count + 1):
            i = made + n
            taker = seats[i % size]
            data = _deal_data(i, seats, taker)
            result = fft.score_deal(seats=seats, **data)
            rows.append(
                Deal(
                    game=game,
                    number=n,
                    dealer_id=seats[(n - 1) % size],
                    taker_id=taker,
                    partner_id=result.partner,
                    contract=str(result.contract),
                    bouts=result.bouts,
                    points_half=int(result.points * 2),
                    petit_au_bout=str(result.petit_au_bout) if result.petit_au_bout else "",
                    poignees=[[pk, str(kind)] for pk, kind in result.poignees],
                    chelem=str(result.chelem),
                    won=result.won,
                    gap=result.gap,
                )
            )
            lines.append(result.scores)
        stored = Deal.objects.bulk_create(rows)
        DealLine.objects.bulk_create(
            DealLine(deal=deal, player_id=pk, score=score)
            for deal, scores in zip(stored, lines, strict=True)
            for pk, score in scores.items()
        )
        when = timezone.make_aware(
            dt.datetime.combine(start + dt.timedelta(days=day), dt.time(20, 0))
        )
        Game.objects.filter(pk=game.pk).update(
            created_at=when, finished_at=when, revision=count, tally=_tally(game, count)
        )
        Deal.objects.filter(game=game).update(created_at=when)
        games.append(game)
        made += count
        day += 1
    return games


def _tally(game: Game, count: int) -> dict:
    """The tally the services keep for `game` once it holds `count` deals (at revision
    `count`: one write per deal)."""
    return {**tarot.counted_tally(game, count), "rev": count}


def sheet_deal(game: Game, players, number: int) -> tarot.DealInput:
    """Deal `number` of `tarot_sheet`'s game: a prise by a different player each time."""
    dealer = tarot.dealer_for(game, number, players)
    taker = [p for p in players if p.pk != dealer.pk][number % (len(players) - 1)]
    return tarot.DealInput(taker=taker.pk, contract="prise", bouts=1, points=41 + number % 30)


@transaction.atomic
def tarot_sheet(players, *, deals: int, created_by=None) -> Game:
    """A casual game of `players` with `deals` deals, stored in bulk as the services store
    them (dealers, scores by `scoring.fft`, revisions, the tally)."""
    game = game_start(players=players, first_dealer=0, created_by=created_by)
    rows, lines = [], []
    for number in range(1, deals + 1):
        dealer = tarot.dealer_for(game, number, players)
        data = sheet_deal(game, players, number)
        result = tarot.deal_score(game, dealer, players, data)
        deal = Deal(game=game, number=number, dealer=dealer, revision=number)
        tarot._apply(deal, data, result)
        rows.append(deal)
        lines.append(tarot._scores(players, result))
    Deal.objects.bulk_create(rows, batch_size=500)
    DealLine.objects.bulk_create(
        (
            DealLine(deal=deal, player_id=pk, score=score)
            for deal, scores in zip(rows, lines, strict=True)
            for pk, score in scores.items()
        ),
        batch_size=900,
    )
    Game.objects.filter(pk=game.pk).update(revision=deals, tally=_tally(game, deals))
    return Game.objects.get(pk=game.pk)
