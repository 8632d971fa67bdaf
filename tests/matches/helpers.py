"""A team match made through the services from the reports' sample (`duplicate_samples`),
whose first quarter is duplicate.md 2.4's worked quarter."""

from __future__ import annotations

import datetime as dt

from tarotclub.matches import services
from tarotclub.players.services import player_create
from tarotclub.reports.duplicate_samples import team_match_example

DATE = dt.date(2026, 12, 5)


def make_match(*, quarters: int = 4, user=None, boards: int = 16):
    """The sample match in the database, its first `quarters` quarters entered by both teams
    (16 boards: 4 a quarter, like the sample). Returns (match, sample, players by name)."""
    sample = team_match_example(quarters=4)
    people = {n: player_create(name=n) for n in sample.a_players + sample.b_players}
    match = services.match_create(
        name="Lille – Gent",
        date=DATE,
        boards=boards,
        a_name=sample.a_name,
        b_name=sample.b_name,
        a_players=[people[n] for n in sample.a_players],
        b_players=[people[n] for n in sample.b_players],
        user=user,
    )
    for q in sample.quarters[:quarters]:
        enter(match, q, "A", people, user=user)
        enter(match, q, "B", people, user=user)
    return match, sample, people


def enter(match, q, team, people, *, user=None):
    """One team's entry of the sample's quarter `q`."""
    placing = "A" if q.number % 2 else "B"
    return services.quarter_record(
        match=match,
        number=q.number,
        team=team,
        attacker=people[q.a_attacker if team == "A" else q.b_attacker],
        closed=q.closed if team == placing else None,
        results=[
            (b.a_contract, b.a_score) if team == "A" else (b.b_contract, b.b_score)
            for b in q.boards
        ],
        user=user,
    )
