"""The demo club's team match: the rulebook's worked quarter and two more, the last quarter
entered by one team only (so every state of the pages shows)."""

from __future__ import annotations

import datetime as dt

from tarotclub.reports.duplicate_samples import team_match_example

from . import services


def demo_team_match(user, players, long_names):
    """Team A of long names, team B of the roster; quarters 1–3 entered by both, 4 by A."""
    sample = team_match_example(quarters=4)
    a, b = list(long_names[:4]), list(players[:5])
    match = services.match_create(
        name="Derby Lille – Gent",
        date=dt.date(2026, 11, 21),
        boards=16,
        a_name="Les Oudlers de la Deûle",
        b_name="De Troeven van Gent",
        a_players=a,
        b_players=b,
        b_bonus="1.5",
        user=user,
    )
    for q in sample.quarters:
        attackers = {"A": a[q.number - 1], "B": b[q.number - 1]}
        for team in ("A", "B") if q.number < 4 else ("A",):
            placing = "A" if q.number % 2 else "B"
            services.quarter_record(
                match=match,
                number=q.number,
                team=team,
                attacker=attackers[team],
                closed=q.closed if team == placing else None,
                results=[
                    (x.a_contract, x.a_score) if team == "A" else (x.b_contract, x.b_score)
                    for x in q.boards
                ],
                user=user,
            )
    return match
