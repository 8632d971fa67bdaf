"""Build and play triplette tournaments in tests: teams registered, boards entered."""

from __future__ import annotations

import datetime as dt
import itertools

from tarotclub.players.models import Player
from tarotclub.tournaments import services, triplette_services
from tarotclub.tournaments.models import Table

from .duplicate_helpers import enter_board

_names = itertools.count()
SURNAMES = ["Dupont", "Martin", "Roux", "Bernard", "Petit", "Moreau", "Faure", "Girard"]


def make_triplette(teams: int = 4, *, rounds: int = 2, boards: int = 4, seed: int = 11):
    """A triplette tournament with `teams` teams of 3 registered, lines alternating."""
    t = services.tournament_create(
        name="Triplettes",
        date=dt.date(2026, 12, 2),
        rounds=rounds,
        deals_per_round=boards,
        format="triplette",
        seed=seed,
    )
    out = []
    for i in range(teams):
        players = Player.objects.bulk_create(
            Player(name=f"P{next(_names):04d} {SURNAMES[(i * 3 + k) % len(SURNAMES)]}")
            for k in range(3)
        )
        triplette_services.triplette_register(
            tournament=t, team=f"Team {i + 1}", members=players, line="NS" if i % 2 == 0 else "EW"
        )
        out.append(players)
    return t, out


def play_triplette_round(t, score_of=lambda board, rnd, table: 50, *, confirm=True):
    t.refresh_from_db()
    for table in Table.objects.filter(tournament=t, round=t.current_round).select_related("game"):
        for i, board in enumerate(table.game.options["boards"], start=1):
            enter_board(table, i, score_of(board, table.round, table.number))
        if confirm:
            services.table_confirm(table=table)
