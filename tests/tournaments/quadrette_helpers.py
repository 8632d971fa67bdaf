"""Build and play quadrette tournaments in tests: teams registered, boards entered."""

from __future__ import annotations

import datetime as dt
import itertools

from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.tournaments import quadrette_services, services
from tarotclub.tournaments.models import Table

from .duplicate_helpers import deal_for_score

_names = itertools.count()


def make_quadrette(teams: int = 4, *, rounds: int = 2, boards: int = 4, names=None):
    """A quadrette tournament with `teams` teams of 4 registered ("Team 1", …, or `names`);
    each team's first player attacks."""
    t = services.tournament_create(
        name="Quadrettes",
        date=dt.date(2026, 12, 2),
        rounds=rounds,
        deals_per_round=boards,
        format="quadrette",
    )
    out = []
    for i in range(teams):
        players = Player.objects.bulk_create(
            Player(name=f"Q{next(_names):04d} Player") for _k in range(4)
        )
        quadrette_services.quadrette_register(
            tournament=t,
            team=names[i] if names else f"Team {i + 1}",
            attacker=players[0],
            defenders=players[1:],
        )
        out.append(players)
    return t, out


def garde_for(score: int) -> dict:
    """A garde deal whose board score (U) is `score` (even, |score| ≥ 50): 3 bouts when the
    attack needs more points than 1 bout allows (+116 is 69 points with 3 bouts)."""
    gap = abs(score) // 2 - 25
    if score > 0 and 51 + gap > 82:
        return {"contract": "garde", "bouts": 3, "points": 36 + gap}
    return deal_for_score(score)


def enter_board(table: Table, number: int, score: int, *, user=None):
    """Enter deal `number` of a quadrette table with board score `score` (the attacker takes)."""
    game = table.game
    return tarot.deal_add(
        game=game,
        data=tarot.DealInput(taker=game.options["imposed"][number - 1][0], **garde_for(score)),
        expected_number=number,
        user=user,
    )


def play_quadrette_round(t, score_of=lambda rnd, table, board: 50, *, confirm=True):
    """Enter every board of the current round with `score_of(round, table, board)`."""
    t.refresh_from_db()
    for table in Table.objects.filter(tournament=t, round=t.current_round).select_related("game"):
        for i, board in enumerate(table.game.options["boards"], start=1):
            enter_board(table, i, score_of(table.round, table.number, board))
        if confirm:
            services.table_confirm(table=table)
