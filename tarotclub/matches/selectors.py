"""Reads of team matches, in a fixed number of queries whatever the match's size.

`match_sheet` turns a match into `reports.duplicate.TeamMatch`, the pure data the results
page, the PDF sheet and the exports are all made from (3 queries: the members with their
players, the quarters, the results).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tarotclub.reports import duplicate as docs

from .models import QUARTERS, Member, Quarter, Result, TeamMatch, placing_team


def match_list():
    return TeamMatch.objects.all()


@dataclass
class QuarterState:
    """What is entered of a quarter: who entered, who attacks, which room, who placed."""

    number: int
    boards: range
    placed_by: str
    a_attacker: str = ""
    b_attacker: str = ""
    closed: str = ""
    entered: set = field(default_factory=set)
    attacker_pks: dict = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.entered == {"A", "B"}


@dataclass
class Sheet:
    """A match as the pages read it: the teams, each quarter's state, and the pure
    `TeamMatch` of the quarters both teams have entered."""

    match: TeamMatch
    teams: dict[str, list]  # "A"/"B": the players, the captain first
    quarters: list[QuarterState]
    data: docs.TeamMatch
    results: dict = field(default_factory=dict)  # (quarter, team) -> [Result] in board order

    @property
    def complete(self) -> bool:
        return all(q.complete for q in self.quarters)


def match_sheet(match: TeamMatch) -> Sheet:
    teams: dict[str, list] = {"A": [], "B": []}
    names = {}
    for m in Member.objects.filter(match=match).select_related("player").order_by("order"):
        teams[m.team].append(m.player)
        names[m.player_id] = m.player.name
    stored = {q.number: q for q in Quarter.objects.filter(match=match)}
    by_quarter = defaultdict(list)
    for r in Result.objects.filter(quarter__match=match).order_by("board"):
        by_quarter[(r.quarter_id, r.team)].append(r)
    states, pure, results = [], [], {}
    for number in QUARTERS:
        state = QuarterState(number, match.quarter_boards(number), placing_team(number))
        q = stored.get(number)
        if q is not None:
            state.a_attacker = names.get(q.a_attacker_id, "")
            state.b_attacker = names.get(q.b_attacker_id, "")
            state.closed = q.closed
            state.attacker_pks = {"A": q.a_attacker_id, "B": q.b_attacker_id}
            state.entered = {t for t in "AB" if by_quarter.get((q.pk, t))}
            for t in "AB":
                results[(number, t)] = by_quarter.get((q.pk, t), [])
        states.append(state)
        if state.complete:
            a, b = results[(number, "A")], results[(number, "B")]
            boards = tuple(
                docs.MatchBoard(ra.board, ra.contract, ra.score, rb.contract, rb.score)
                for ra, rb in zip(a, b, strict=True)
            )
            pure.append(
                docs.Quarter(number, state.a_attacker, state.b_attacker, state.closed, boards)
            )
    data = docs.TeamMatch(
        a_name=match.a_name,
        b_name=match.b_name,
        a_players=tuple(p.name for p in teams["A"]),
        b_players=tuple(p.name for p in teams["B"]),
        quarters=tuple(pure),
        a_bonus=match.a_bonus,
        b_bonus=match.b_bonus,
    )
    return Sheet(match, teams, states, data, results)
