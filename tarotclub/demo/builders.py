"""Build tournaments quickly: for the tests, the bench and the demo club (its data only)."""

from __future__ import annotations

import datetime as dt
import itertools

from tarotclub.games import selectors as game_selectors
from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

_names = itertools.count()


def make_tournament(n_players: int, *, rounds: int = 5, deals: int = 4, **kwargs):
    t = services.tournament_create(
        name="Test cup", date=dt.date(2026, 11, 29), rounds=rounds, deals_per_round=deals, **kwargs
    )
    players = Player.objects.bulk_create(
        Player(name=f"Player {next(_names):04d}", licence=f"L{i:05d}") for i in range(n_players)
    )
    for p in players:
        services.entry_register(tournament=t, player=p)
    return t, players


def play_table(table: Table, *, points_for=lambda i: 51 + 3 * i, confirm: bool = True) -> None:
    """Enter every planned deal of a table (the first player who is not dealing takes)."""
    game = table.game
    planned = game.options["deals"]
    for i in range(game.deals.count(), planned):
        players = game_selectors.seat_players(game)
        dealer = tarot.dealer_for(game, i + 1, players)
        active = tarot.active_players(game, dealer, players)
        taker = active[i % len(active)]
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=taker.pk, contract="prise", bouts=1, points=points_for(i)),
        )
    if confirm:
        services.table_confirm(table=table)


def play_round(t, **kwargs) -> None:
    for table in Table.objects.filter(tournament=t, round=t.current_round):
        play_table(table, **kwargs)
