"""Seasons' test builders: tournaments of the same players on given dates, casual games."""

from __future__ import annotations

import datetime as dt

from tarotclub.demo.builders import play_round
from tarotclub.games import selectors as game_selectors
from tarotclub.games.services import game_start
from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.tournaments import services as tournaments


def roster(n: int, prefix: str = "Player") -> list[Player]:
    return list(Player.objects.bulk_create(Player(name=f"{prefix} {i:03d}") for i in range(n)))


def points_cycle(shift: int):
    values = (37, 58, 44, 71, 29, 66, 51, 40)
    return lambda i: values[(i + shift) % len(values)]


def tournament(
    players,
    date: dt.date,
    *,
    rounds: int = 2,
    deals: int = 2,
    shift: int = 0,
    ranking: str = "total",
    play: int | None = None,
):
    """A tournament of `players` on `date`, with `play` rounds played (all by default)."""
    t = tournaments.tournament_create(
        name=f"Evening {date.isoformat()}", date=date, rounds=rounds, deals_per_round=deals,
        ranking=ranking, seed=1000 + shift,
    )  # fmt: skip
    for p in players:
        tournaments.entry_register(tournament=t, player=p)
    t = tournaments.tournament_start(tournament=t)
    for r in range(rounds if play is None else play):
        play_round(t, points_for=points_cycle(shift + r))
        t = tournaments.tournament_next_round(tournament=t)
    return t


def casual_game(players, *, deals: int = 2, shift: int = 0):
    game = game_start(players=players, first_dealer=0)
    for i in range(deals):
        seats = game_selectors.seat_players(game)
        dealer = tarot.dealer_for(game, i + 1, seats)
        active = tarot.active_players(game, dealer, seats)
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(
                taker=active[(i + shift) % len(active)].pk,
                contract="garde" if (i + shift) % 2 else "prise",
                bouts=1 + (i % 3),
                points=points_cycle(shift)(i),
            ),
        )
    return game


SUITS = ("hearts", "spades", "diamonds", "clubs")


def on_day(game, day: dt.date, hour: int = 20):
    """Move a game to `day` (the season counts casual games by the date they started)."""
    from django.utils import timezone

    from tarotclub.games.models import Game

    at = timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))
    Game.objects.filter(pk=game.pk).update(created_at=at)
    return game


def keys_game(players, day: dt.date, *, games):
    """A session of Keys of the Kingdom on `day`; `games` lists (winner, {loser: keys}) with
    players given as indexes into `players`."""
    from tarotclub.games.services import record_add

    game = game_start(players=players, kind="keys")
    for winner, keys in games:
        record_add(
            game=game,
            data={
                "suits": {p.pk: SUITS[i] for i, p in enumerate(players)},
                "winner": players[winner].pk,
                "keys": {players[i].pk: k for i, k in keys.items()},
            },
        )
    return on_day(game, day)


def cuckoo_match(players, day: dt.date, *, deals):
    """A Cuckoo match of one life each on `day`; `deals` lists each deal's cards by index."""
    from tarotclub.games.services import record_add

    game = game_start(players=players, kind="cuckoo", options={"lives": 1})
    for cards in deals:
        record_add(game=game, data={"cards": {players[i].pk: c for i, c in cards.items()}})
    return on_day(game, day)
