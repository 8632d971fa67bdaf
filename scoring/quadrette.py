"""Quadrettes (duplicate in teams of 4, `../shared/rules/duplicate.md` 2.3 and 2.5): the
movement of oppositions and the teams' final match points.

A quadrette has one attacker for the whole session and three defenders. Team i's defence
keeps table i for the session, seated North, East and West; only the attackers move (p. 22).
Each round pairs the teams two by two (an *opposition*): when A meets B, A's attacker sits
South at B's table and B's attacker South at A's table, and both tables play the same boards
(open question 17). Round r's boards are ``boards_of_set(r, per_round)``: every opposition of
a round plays them, so all teams play the same boards (p. 22–23).

The pairing is the round robin's circle method (Berger tables), so no two teams meet twice
while that is possible (rounds ≤ teams − 1); after that the cycle starts again. Team 1 meets
team 2, then 3, then 4 … An odd number of teams is refused (no bye: a team sitting out a round
would have fewer boards, and its match points, a sum, would not compare with the others').

Score on a board: diff = (A's attacker's score at B's table) − (B's attacker's score at A's
table); A gets `match_points(diff)`, B its opposite; a team's final result is the sum of its
boards' rounded match points (`scoring.duplicate.quadrette_result`). Pure Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from . import RuleError, _
from .duplicate import match_points, shared_places
from .movement import ORIENTATIONS, boards_of_set

TEAM_SIZE = 4
#: The attacker sits South at every table; the defence keeps North, East and West (2.3).
ATTACK = "S"
DEFENCE = ("N", "E", "W")
#: The seats of a quadrette table in the game's order (N, E, S, W).
SEATS = ("N", "E", "S", "W")

ERR_TEAMS = _(
    "Quadrettes play in oppositions of two teams: the number of teams must be even and at "
    "least 2 (here %(count)s)."
)
ERR_ROUNDS = _("A quadrette session has at least one round (here %(rounds)s).")


@dataclass(frozen=True)
class QuadretteTable:
    """One table in one round: the host team's defence (N, E, W) against the visiting
    team's attacker (South), on the round's boards."""

    round: int
    table: int  # the host team's number
    host: int
    visitor: int
    boards: tuple[int, ...]


def _check(teams: int, rounds: int) -> None:
    if isinstance(teams, bool) or not isinstance(teams, int) or teams < 2 or teams % 2:
        raise RuleError(ERR_TEAMS, count=teams)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise RuleError(ERR_ROUNDS, rounds=rounds)


def oppositions(teams: int, rounds: int) -> list[list[tuple[int, int]]]:
    """Each round's oppositions, teams numbered 1 … `teams`: pairs (a, b), a < b, sorted.

    Circle method: with k = teams − 1 (odd), team 1 meets the team whose number − 1 ≡ r
    (mod k), and two other teams x, y (numbers − 1 taken mod k) meet when x + y ≡ 2r."""
    _check(teams, rounds)
    k = teams - 1
    out = []
    for r in range(1, rounds + 1):
        step = (r - 1) % k + 1  # the cycle starts again after k rounds
        pairs = []
        rest = list(range(2, teams + 1))
        first = next(n for n in rest if (n - 1) % k == step % k)
        pairs.append((1, first))
        left = [n for n in rest if n != first]
        while left:
            x = left.pop(0)
            y = next(n for n in left if ((x - 1) + (n - 1)) % k == (2 * step) % k)
            left.remove(y)
            pairs.append((min(x, y), max(x, y)))
        out.append(sorted(pairs))
    return out


def opponent(pairs: list[tuple[int, int]], team: int) -> int | None:
    """Whom `team` meets in a round of `oppositions` (None if not in it)."""
    for a, b in pairs:
        if team == a:
            return b
        if team == b:
            return a
    return None


def round_tables(pairs: list[tuple[int, int]], round: int, per_round: int) -> list[QuadretteTable]:
    """A round's tables in table order: table i hosts team i's defence and the attacker of
    the team i meets; both tables of an opposition play the round's boards."""
    boards = tuple(boards_of_set(round, per_round))
    tables = []
    for a, b in pairs:
        tables.append(QuadretteTable(round, a, a, b, boards))
        tables.append(QuadretteTable(round, b, b, a, boards))
    return sorted(tables, key=lambda t: t.table)


@dataclass(frozen=True)
class QuadretteBoard:
    """One board of one opposition, from `team`'s side: its attacker's score at the
    opponent's table (`own`), the opponent's attacker's at `team`'s table (`theirs`)."""

    round: int
    board: int
    team: int
    opponent: int
    own: int
    theirs: int

    @property
    def diff(self) -> int:
        return self.own - self.theirs

    @property
    def pm(self) -> Decimal:
        return match_points(self.diff)


def boards_played(
    schedule: list[list[tuple[int, int]]],
    per_round: int,
    scores: Mapping[tuple[int, int, int], int],
) -> tuple[list[QuadretteBoard], list[tuple[int, int, int]]]:
    """Every board of every opposition, both sides, from `scores` {(round, table, board):
    board score}; a board counts once both tables of its opposition have played it (open
    question 17). Also the (round, table, board) still missing, in order."""
    found, missing = [], []
    for r, pairs in enumerate(schedule, start=1):
        for a, b in pairs:
            for board in boards_of_set(r, per_round):
                at_a, at_b = scores.get((r, a, board)), scores.get((r, b, board))
                if at_a is None:
                    missing.append((r, a, board))
                if at_b is None:
                    missing.append((r, b, board))
                if at_a is not None and at_b is not None:
                    # A's attacker plays at B's table, B's attacker at A's table
                    found.append(QuadretteBoard(r, board, a, b, at_b, at_a))
                    found.append(QuadretteBoard(r, board, b, a, at_a, at_b))
    missing.sort()
    return found, missing


def totals(teams: int, played: list[QuadretteBoard]) -> dict[int, Decimal]:
    """Each team's final result: the sum of its boards' rounded match points (2.3, 2.5)."""
    out = {n: Decimal("0.000") for n in range(1, teams + 1)}
    for p in played:
        out[p.team] += p.pm
    return out


def ranking(result: Mapping[int, Decimal]) -> list[tuple[int, int]]:
    """(place, team) by final match points, highest first; equal totals share the place."""
    order = sorted(result, key=lambda n: (-result[n], n))
    places = shared_places(order, result)
    return [(places[n], n) for n in order]


__all__ = [
    "ATTACK",
    "DEFENCE",
    "SEATS",
    "TEAM_SIZE",
    "QuadretteBoard",
    "QuadretteTable",
    "boards_played",
    "opponent",
    "oppositions",
    "ranking",
    "round_tables",
    "totals",
    "turned_dealer",
]


def turned_dealer(dealer: str, taker: str) -> str:
    """Where the board's dealer sits once the hands are turned so that its taker's hand is
    South (duplicate.md 2.3; open question 18: "turn the dealer with the hands, so that the
    same hand leads as the board intends"). The four hands turn together, so every seat keeps
    its place relative to the taker's: the same hand leads from the same place."""
    turn = ORIENTATIONS.index("S") - ORIENTATIONS.index(taker)
    return ORIENTATIONS[(ORIENTATIONS.index(dealer) + turn) % 4]
