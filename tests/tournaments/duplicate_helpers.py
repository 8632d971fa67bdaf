"""Build and play duplicate tournaments in tests: boards entered with the deal service."""

from __future__ import annotations

import datetime as dt
import itertools

from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

_names = itertools.count()


def make_duplicate(tables: int, *, rounds: int | None = None, boards: int = 4, seats=None):
    """A duplicate tournament of `tables` tables with 4 × tables players registered.

    `seats` (optional): [(orientation, start table)] for the players in order."""
    t = services.tournament_create(
        name="Duplicate cup",
        date=dt.date(2026, 11, 29),
        rounds=rounds or tables,
        deals_per_round=boards,
        format="duplicate",
        tables=tables,
    )
    players = Player.objects.bulk_create(
        Player(name=f"Dup {next(_names):04d}") for _ in range(4 * tables)
    )
    for i, p in enumerate(players):
        o, table = seats[i] if seats else ("", None)
        services.entry_register(tournament=t, player=p, orientation=o, start_table=table)
    return t, players


def deal_for_score(score: int) -> dict:
    """A garde deal (1 bout, no bonus) whose board score (U) is `score` (even, |score| ≥ 50)."""
    gap = abs(score) // 2 - 25
    assert gap >= 0 and score % 2 == 0, score
    return {"contract": "garde", "bouts": 1, "points": 51 + gap if score > 0 else 51 - gap}


def enter_board(table: Table, number: int, score: int, *, user=None):
    """Enter deal `number` of a duplicate table (the next one) with board score `score`."""
    game = table.game
    taker = game.options["imposed"][number - 1][0]
    return tarot.deal_add(
        game=game,
        data=tarot.DealInput(taker=taker, **deal_for_score(score)),
        expected_number=number,
        user=user,
    )


def play_duplicate_round(t, score_of=lambda board, rnd, table: 50, *, confirm=True):
    """Enter every board of the current round with `score_of(board, round, table)`."""
    t.refresh_from_db()
    for table in Table.objects.filter(tournament=t, round=t.current_round).select_related("game"):
        for i, board in enumerate(table.game.options["boards"], start=1):
            enter_board(table, i, score_of(board, table.round, table.number))
        if confirm:
            services.table_confirm(table=table)
