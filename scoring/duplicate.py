"""Duplicate tarot: grading a board, a player's percentages, the rankings, match points.

From the federation's 2012 rulebook as `../shared/rules/duplicate.md` gives it (sections 1.7,
1.8, 1.9, 2.3, 2.4, 2.5). Exact: grades and percentages are Fractions (show grades to 1
decimal and percentages to 2); match points are Decimals rounded to 3 decimals like the
rulebook's grid. Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction

from . import RuleError, _
from ._common import is_int
from .movement import boards_of_set, taker_of

TOP = Fraction(100)

ERR_PLAYS = _("A board is graded once at least two tables have played it (here %(count)s).")
ERR_SCORE = _("A board score must be a whole number of points.")
ERR_TEAM = _("The team format is individual or triplette, not %(team)s.")
ERR_NO_GRADES = _("A player with no graded board has no percentage.")
ERR_GRADE = _("A grade is a number from 0 to 100.")
ERR_DIFF = _("A score difference must be a whole number of points.")
ERR_OVERALL = _("An overall percentage is a number from 0 to 100.")
ERR_SUBSTITUTE = _(
    "A substitute takes over a seat of the movement from a round after the first one."
)

#: Weights of the attack and defence means in the overall percentage (p. 18, p. 21).
WEIGHTS = {
    "individual": (Fraction(1, 4), Fraction(3, 4)),
    "triplette": (Fraction(1, 2), Fraction(1, 2)),
}


def _check_scores(scores: Sequence[int]) -> list[int]:
    scores = list(scores)
    if len(scores) < 2:
        raise RuleError(ERR_PLAYS, count=len(scores))
    if not all(is_int(s) for s in scores):
        raise RuleError(ERR_SCORE)
    return scores


def grade_board(scores: Sequence[int]) -> list[Fraction]:
    """The attack grade of each play of one board, in the order given (1.7).

    `scores` are the signed board scores of every play "in the same conditions", higher is
    better for the attack. The n plays are graded in equal steps from 100 (top) to 0; a tied
    group shares the mean of the grades of the places it holds. In one line:
    grade = 100 × (plays beaten + ½ × other plays tied) / (n − 1).
    Each defender at that table gets `defence_grade(grade)`.
    """
    scores = _check_scores(scores)
    n = len(scores)
    out = []
    for s in scores:
        beaten = sum(1 for other in scores if other < s)
        tied = sum(1 for other in scores if other == s) - 1
        out.append(TOP * (2 * beaten + tied) / (2 * (n - 1)))
    return out


def defence_grade(attack_grade: Fraction) -> Fraction:
    """Each defender's grade at the table: the complement of the attack's (1.7 step 5)."""
    grade = Fraction(attack_grade)
    if not 0 <= grade <= TOP:
        raise RuleError(ERR_GRADE)
    return TOP - grade


def _mean(grades: Sequence[Fraction]) -> Fraction:
    return sum((Fraction(g) for g in grades), Fraction(0)) / len(grades)


def overall_percentage(
    attack_grades: Iterable[Fraction],
    defence_grades: Iterable[Fraction],
    *,
    team: str = "individual",
) -> Fraction:
    """¼ × attack % + ¾ × defence % ("individual"), ½ + ½ ("triplette") (1.8).

    Attack % and defence % are the means of the grades on the boards played in that role. A
    side with no grades (a player who never took, or who only took) gives its weight to the
    other side: the overall percentage is then the other side's mean. We chose this because
    the rulebook is silent, and it keeps the figure a percentage (0..100) comparable with
    everybody else's, where counting a missing side as 0 would punish a player for the cards
    dealt. With no grade at all there is no percentage (RuleError).
    """
    if team not in WEIGHTS:
        raise RuleError(ERR_TEAM, team=team)
    attack, defence = list(attack_grades), list(defence_grades)
    for g in attack + defence:
        if not 0 <= Fraction(g) <= TOP:
            raise RuleError(ERR_GRADE)
    if not attack and not defence:
        raise RuleError(ERR_NO_GRADES)
    if not attack:
        return _mean(defence)
    if not defence:
        return _mean(attack)
    wa, wd = WEIGHTS[team]
    return wa * _mean(attack) + wd * _mean(defence)


def _order(overall: Mapping[Hashable, Fraction]) -> list[Hashable]:
    for value in overall.values():
        if not 0 <= Fraction(value) <= TOP:
            raise RuleError(ERR_OVERALL)
    return sorted(overall, key=lambda p: (-Fraction(overall[p]), p))


def general_ranking(overall: Mapping[Hashable, Fraction]) -> list[Hashable]:
    """Every player by overall %, highest first; ties by player key (1.9)."""
    return _order(overall)


def shared_places(order: Sequence[Hashable], value: Mapping[Hashable, object]) -> dict:
    """The place of each key of `order` (best first): equal values share the better place
    (1, 2, 2, 4), as the general ranking's ties do (duplicate.md open question 5)."""
    places: dict = {}
    previous = None
    for i, key in enumerate(order, start=1):
        if previous is None or value[key] != value[previous]:
            place = i
        places[key] = place
        previous = key
    return places


def alternating_ranking(lines: Mapping[Hashable, Mapping[Hashable, Fraction]]) -> list[Hashable]:
    """The alternating ranking (1.9) from `{orientation: {player: overall %}}`.

    Each line (orientation) ranks its players by overall %; then the line winners take the
    first places in order of overall %, the line seconds the next ones, and so on. Ties are
    broken by overall %, then by player key. Lines of unequal length (a player missing) simply
    have no one at their last places. Works for the 4 orientations of an individual event and
    the 2 lines (N-S, E-W) of triplettes.
    """
    ranked = {line: _order(players) for line, players in lines.items()}
    overall = {p: Fraction(v) for players in lines.values() for p, v in players.items()}
    depth = max((len(r) for r in ranked.values()), default=0)
    out: list[Hashable] = []
    for k in range(depth):
        tier = [r[k] for r in ranked.values() if k < len(r)]
        out += sorted(tier, key=lambda p: (-overall[p], p))
    return out


_SQRT = Context(prec=40)
_MILLI = Decimal("0.001")


def match_points(diff: int) -> Decimal:
    """√|diff| rounded to 3 decimals, with the sign of diff (2.3, 2.5): what one team gets on
    one board of a quadrette opposition (the other team gets the opposite)."""
    if not is_int(diff):
        raise RuleError(ERR_DIFF)
    root = Decimal(abs(diff)).sqrt(_SQRT).quantize(_MILLI, rounding=ROUND_HALF_UP)
    return root if diff >= 0 else -root


def quadrette_result(diffs: Iterable[int]) -> Decimal:
    """A quadrette's final result: the sum of its boards' rounded match points (2.3, 2.5)."""
    return sum((match_points(d) for d in diffs), Decimal("0.000"))


def team_match_points(diff: int) -> tuple[Decimal, Decimal]:
    """A team match board (2.4): the team with the higher score gets √|diff| (3 decimals),
    the other nothing; equal scores give nothing to either. (A's, B's) for diff = A − B."""
    pm = match_points(diff)
    zero = Decimal("0.000")
    return (pm, zero) if pm > 0 else (zero, -pm)


@dataclass(frozen=True)
class Play:
    """One play of a board: a line of its grading sheet (1.10)."""

    board: int
    round: int
    table: int
    score: int  # the signed board score written on the slip
    attack: Fraction  # the taker's grade
    defence: Fraction  # each defender's grade
    taker: Hashable
    defenders: tuple[Hashable, ...]


@dataclass(frozen=True)
class Record:
    """A player's record (feuille de route, 1.10): the boards taken and defended, graded."""

    player: Hashable
    took: tuple[Play, ...]
    defended: tuple[Play, ...]
    attack: Fraction | None  # mean of the grades as taker (None: never took a graded board)
    defence: Fraction | None
    overall: Fraction | None  # None: no graded board yet


@dataclass(frozen=True)
class Session:
    """A graded individual session: each board's sheet, each player's record, the rankings."""

    boards: dict[int, tuple[Play, ...]]  # board -> its plays in round order
    records: dict[Hashable, Record]
    general: list[Hashable]
    alternating: list[Hashable]


def player_in(seat: tuple, round: int, substitutes: Mapping[tuple, int] | None) -> tuple:
    """Who plays `seat` (a movement player, ``("N", 3)``) in `round`: the seat's own player,
    or from the round a substitute took it over, the substitute ``("N", 3, from_round)``
    (same orientation, same movement seat: the line rankings place him with his line)."""
    start = (substitutes or {}).get(seat)
    if start is not None and round >= start:
        return (*seat, start)
    return seat


def grade_session(
    movement,
    per_set: int,
    scores: Mapping[tuple[int, int], int],
    *,
    substitutes: Mapping[tuple, int] | None = None,
) -> Session:
    """Grade an individual session played on `movement` (`scoring.movement`) with `per_set`
    boards a set, from the board scores entered so far, `{(board, round): score}`.

    Who took and who defended each play comes from the movement and the taker's orientation
    marked on the board. A board played by one table only is graded 50 / 50 (duplicate.md open
    question 3); one not played yet is left out. Players are the movement's
    `(orientation, starting table)`; a player with no graded board has no percentage and is not
    ranked yet.

    `substitutes`, {seat: from round}: a player who withdrew during the session is replaced
    from that round on (`player_in`). The boards already played stay with him; the substitute
    gets a record of his own, from the boards he played, and both are ranked. The boards'
    grades do not change (they compare tables, not people).
    """
    for seat, start in (substitutes or {}).items():
        if seat not in movement.players() or not is_int(start):
            raise RuleError(ERR_SUBSTITUTE)
        if not 2 <= start <= movement.rounds:
            raise RuleError(ERR_SUBSTITUTE)
    plays: dict[int, list[tuple[int, int, int, Hashable, tuple]]] = {}
    for round in range(1, movement.rounds + 1):
        for seating in movement.seating(round):
            for board in boards_of_set(seating.board_set, per_set):
                if (board, round) not in scores:
                    continue
                score = scores[(board, round)]
                if not is_int(score):
                    raise RuleError(ERR_SCORE)
                orientation = taker_of(board)
                taker = player_in(seating.seats[orientation], round, substitutes)
                defenders = tuple(
                    player_in(p, round, substitutes)
                    for o, p in seating.seats.items()
                    if o != orientation
                )
                plays.setdefault(board, []).append((round, seating.table, score, taker, defenders))
    boards: dict[int, tuple[Play, ...]] = {}
    took: dict[Hashable, list[Play]] = {}
    defended: dict[Hashable, list[Play]] = {}
    for board in sorted(plays):
        lines = plays[board]
        grades = grade_board([line[2] for line in lines]) if len(lines) >= 2 else [TOP / 2]
        sheet = []
        for (round, table, score, taker, defenders), grade in zip(lines, grades, strict=True):
            play = Play(board, round, table, score, grade, TOP - grade, taker, defenders)
            sheet.append(play)
            took.setdefault(taker, []).append(play)
            for d in defenders:
                defended.setdefault(d, []).append(play)
        boards[board] = tuple(sheet)
    records = {}
    lines_of: dict[str, dict[Hashable, Fraction]] = {}
    people = list(movement.players())
    people += [(*seat, start) for seat, start in (substitutes or {}).items()]
    for player in people:
        mine, theirs = took.get(player, []), defended.get(player, [])
        attack = _mean([p.attack for p in mine]) if mine else None
        defence = _mean([p.defence for p in theirs]) if theirs else None
        overall = (
            overall_percentage([p.attack for p in mine], [p.defence for p in theirs])
            if mine or theirs
            else None
        )
        records[player] = Record(player, tuple(mine), tuple(theirs), attack, defence, overall)
        if overall is not None:
            lines_of.setdefault(player[0], {})[player] = overall
    ranked = {p: r.overall for p, r in records.items() if r.overall is not None}
    return Session(boards, records, general_ranking(ranked), alternating_ranking(lines_of))


__all__ = [
    "WEIGHTS",
    "Play",
    "Record",
    "Session",
    "grade_session",
    "player_in",
    "alternating_ranking",
    "defence_grade",
    "general_ranking",
    "grade_board",
    "match_points",
    "overall_percentage",
    "quadrette_result",
    "team_match_points",
]
