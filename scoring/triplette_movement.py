"""Triplette movements (`../shared/rules/duplicate.md` 1.6, 2.2, p. 20–21): which two teams
meet at each table in each round, on which line each sits, and which set of boards they play.

The rulebook names the movements of triplettes (Howell, Emmanuel 16) but describes none; it
gives the rules every movement keeps (1.6): deals and players do not meet twice (a team never
plays a board twice: hard; two teams meet again only when the field is too small: soft), and a
board is graded among plays "in the same conditions". A table holds one North-South and one
East-West team (Inferred, 2.2). Teams are numbered 1…n, tables 1…T with n = 2T; a *set* is
the boards one table plays in one round (`scoring.movement.boards_of_set`).

**Stay** (the site's movement so far; the bridge players' Mitchell). North-South teams 1…T keep
table i for the whole session; East-West teams T+1…2T move. Stored as two offsets a round:
in round r the East-West team that started at table j sits at table ``j + a_r`` and table t
plays set ``t + b_r`` (mod T, from 1). The rules become: ``b_r`` all different (no North-South
team plays a set twice), ``a_r + b_r`` all different (nor an East-West team), and ``a_r`` all
different (no two teams meet twice). For an odd T, ``a_r = b_r = r`` keeps all three for T
rounds (East-West teams and sets both move up one table a round: each team meets every team
of the other line once). For an even T no such movement exists
(``a_r`` and ``a_r + b_r`` cannot both be all different modulo an even number over T rounds),
and `stay_movement` takes (Inferred, our construction) ``a_r = r`` and ``b_r = r`` for
r < T/2, ``b_r = r + 1`` above, for rounds r = 0…T−2 (the sums a + b are then 0, 2, …, T − 2
and 1, 3, …, T − 3: all different, and no meeting repeats), and for a T-th round ``a = T/2 − 1,
b = T/2``, where every pair of that round meets a second time: the fewest possible. Teams of
the same line never meet.

**Howell** (p. 21: "each triplette meets every other triplette; it may get a different line at
each round, from a card the director hands out"). **Inferred** construction, the round-robin
"circle": n = 2T teams, M = n − 1 rounds and M sets. Team n sits at table 1 every round; in
round r (0-based) it meets team ``r + 1``, and table k + 1 (k = 1…T−1) holds teams
``(r + k) mod M + 1`` and ``(r − k) mod M + 1``: every two teams meet exactly once over the M
rounds. Table k + 1 plays set ``(r + s_k) mod M + 1`` where the *starter* s_0…s_{T−1} (all
different) makes the values ``s_0`` and ``s_k ± k`` (k ≥ 1) all different modulo M: then the
sets of one round are all different (one copy of each board is enough), every team plays M
different sets (it meets set ``x − d + s_|d|`` when its distance to r is d), and every set is
played T times, once in each of T rounds: every board is graded on the same scale. A starter is
found by a short deterministic search (tested up to 32 teams, found in well under a second);
none exists for T = 2, 3, 5 (4, 6 and 10 teams: checked by exhaustive search), and
`howell_movement` refuses those sizes, and any size where the search gives up (`STEPS`; it
does at 42 teams, 41 rounds: no club plays that). Fewer rounds than M: the
first rounds, every pair meeting at most once. Lines: at table k + 1 the team ``r + k`` sits
North-South when k is odd, the team ``r − k`` when k is even, and team n sits North-South in
the odd rounds (1-based: the even ones): over the M rounds each team sits (M ± 1) / 2 rounds on
each line (checked for every size up to 60 teams). Its card (`TripletteMovement.card`) says its
table and line for each round.

**Emmanuel 16** (p. 21: finals, "the 3 players of one triplette attack at the same time against
3 other triplettes") is not implemented: it would need three tables where one team attacks at
all three while three other teams defend, and the rulebook says neither how the defending
teams split their players nor how the boards and teams rotate; we found no sound reading.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from . import RuleError, _

STAY = "stay"
HOWELL = "howell"
KINDS = (STAY, HOWELL)
#: Search steps for a Howell starter.
STEPS = 200_000

ERR_TEAMS = _("A triplette movement needs an even number of teams, at least 4 (here %(teams)s).")
ERR_ROUNDS = _(
    "This movement of %(teams)s teams has from 1 to %(most)s rounds: a team would play a set "
    "of boards again (here %(rounds)s rounds)."
)
ERR_HOWELL = _(
    "There is no Howell movement for %(teams)s teams in which no team plays a set of boards "
    "twice: choose the Stay movement."
)


@dataclass(frozen=True)
class Meeting:
    """One table in one round: the set it plays and its two teams."""

    table: int
    board_set: int
    ns: int  # the North-South team's number
    ew: int  # the East-West team's number


@dataclass(frozen=True)
class CardLine:
    """A line of a team's movement card: where it sits in one round."""

    round: int
    table: int
    line: str  # "NS" or "EW"
    board_set: int
    opponent: int


@dataclass(frozen=True)
class TripletteMovement:
    kind: str
    teams: int
    sets: int
    rounds: tuple[tuple[Meeting, ...], ...]  # by round, each by table

    @property
    def tables(self) -> int:
        return self.teams // 2

    def card(self, team: int) -> list[CardLine]:
        """The team's card: its table, line, set and opponent in each round."""
        out = []
        for r, meetings in enumerate(self.rounds, start=1):
            for m in meetings:
                if team in (m.ns, m.ew):
                    line, other = ("NS", m.ew) if team == m.ns else ("EW", m.ns)
                    out.append(CardLine(r, m.table, line, m.board_set, other))
        return out

    def meetings(self) -> Counter[frozenset[int]]:
        """How often each two teams meet."""
        return Counter(frozenset((m.ns, m.ew)) for ms in self.rounds for m in ms)

    def repeats(self) -> int:
        return sum(n - 1 for n in self.meetings().values())

    def plays(self) -> Counter[int]:
        """How often each set is played."""
        return Counter(m.board_set for ms in self.rounds for m in ms)

    def problems(self) -> list[str]:
        """What breaks the hard rules: a team twice in a round, a set twice at once or twice
        for one team, a table of one team. Empty for every movement made here."""
        out = []
        seen: dict[int, set[int]] = {}
        for r, meetings in enumerate(self.rounds, start=1):
            teams = [t for m in meetings for t in (m.ns, m.ew)]
            if len(teams) != len(set(teams)):
                out.append(f"round {r}: a team sits twice")
            sets = [m.board_set for m in meetings]
            if len(sets) != len(set(sets)):
                out.append(f"round {r}: a set is played at two tables")
            for m in meetings:
                if m.ns == m.ew:
                    out.append(f"round {r}: team {m.ns} meets itself")
                for t in (m.ns, m.ew):
                    if m.board_set in seen.setdefault(t, set()):
                        out.append(f"round {r}: team {t} plays set {m.board_set} again")
                    seen[t].add(m.board_set)
        return out


def _check(teams: int) -> int:
    if not isinstance(teams, int) or teams < 4 or teams % 2:
        raise RuleError(ERR_TEAMS, teams=teams)
    return teams // 2


def _stay_offsets(tables: int, rounds: int) -> list[tuple[int, int]]:
    """(a_r, b_r) for each round: b and a + b all different (hard), a repeated as little as
    can be (see the module)."""
    if tables % 2:
        return [(r, r) for r in range(rounds)]
    half = tables // 2
    offsets = [(r, r if r < half else r + 1) for r in range(tables - 1)]
    offsets.append((half - 1, half))  # the T-th round: one meeting of every pair again
    return offsets[:rounds]


def stay_movement(teams: int, rounds: int) -> TripletteMovement:
    """North-South teams 1…T keep their table, East-West teams T+1…2T move (up to T rounds)."""
    tables = _check(teams)
    if not isinstance(rounds, int) or not 1 <= rounds <= tables:
        raise RuleError(ERR_ROUNDS, teams=teams, most=tables, rounds=rounds)
    plan = []
    for a, b in _stay_offsets(tables, rounds):
        plan.append(
            tuple(
                Meeting(
                    table=t,
                    board_set=(t - 1 + b) % tables + 1,
                    ns=t,
                    ew=tables + (t - 1 - a) % tables + 1,
                )
                for t in range(1, tables + 1)
            )
        )
    return TripletteMovement(STAY, teams, tables, tuple(plan))


def howell_starter(tables: int) -> tuple[int, ...] | None:
    """s_0…s_{T−1}, all different, with s_0 and s_k ± k all different modulo 2T − 1 (see the
    module); None when there is none (or none found within `STEPS`)."""
    m = 2 * tables - 1
    starter: list[int] = []
    used_s: set[int] = set()
    used_v: set[int] = set()
    steps = [0]

    def place(k: int) -> bool:
        if k == tables:
            return True
        for s in range(m):
            steps[0] += 1
            if steps[0] > STEPS:
                return False
            if s in used_s:
                continue
            values = {s} if k == 0 else {(s - k) % m, (s + k) % m}
            if (k and len(values) < 2) or values & used_v:
                continue
            starter.append(s)
            used_s.add(s)
            used_v.update(values)
            if place(k + 1):
                return True
            starter.pop()
            used_s.discard(s)
            used_v.difference_update(values)
        return False

    return tuple(starter) if place(0) else None


def howell_movement(teams: int, rounds: int | None = None) -> TripletteMovement:
    """Every team meets every other once over teams − 1 rounds (or the first `rounds`)."""
    tables = _check(teams)
    m = teams - 1
    rounds = m if rounds is None else rounds
    if not isinstance(rounds, int) or not 1 <= rounds <= m:
        raise RuleError(ERR_ROUNDS, teams=teams, most=m, rounds=rounds)
    starter = howell_starter(tables)
    if starter is None:
        raise RuleError(ERR_HOWELL, teams=teams)
    plan = []
    for r in range(rounds):
        pairs = [(teams, r % m + 1)] + [
            ((r + k) % m + 1, (r - k) % m + 1) for k in range(1, tables)
        ]
        meetings = []
        for k, (x, y) in enumerate(pairs):
            # the first of the pair sits North-South at the odd tables' distances (k), and
            # team n in the odd rounds: each team sits (M ± 1) / 2 rounds on each line
            first = r % 2 == 1 if k == 0 else k % 2 == 1
            ns, ew = (x, y) if first else (y, x)
            meetings.append(Meeting(k + 1, (r + starter[k]) % m + 1, ns, ew))
        plan.append(tuple(meetings))
    return TripletteMovement(HOWELL, teams, m, tuple(plan))


def make(kind: str, teams: int, rounds: int) -> TripletteMovement:
    """The movement of `kind` ("stay" or "howell")."""
    if kind == HOWELL:
        return howell_movement(teams, rounds)
    return stay_movement(teams, rounds)


__all__ = [
    "HOWELL",
    "KINDS",
    "STAY",
    "CardLine",
    "Meeting",
    "TripletteMovement",
    "howell_movement",
    "howell_starter",
    "make",
    "stay_movement",
]
