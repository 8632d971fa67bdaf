"""Duplicate movements: who sits where, and which boards each table plays, round by round.

From `../shared/rules/duplicate.md` section 1.6 (the rulebook gives no movement table, only
its rules). An individual duplicate session has T tables of four, one player per orientation
(North, East, South, West) at each. Players change tables but keep their orientation. The
boards come in T *sets* (the boards one table plays in one round); every round each table
plays one set, and the sets move too.

A player is named by their orientation and the table they start at, ``("E", 3)``. A movement
is stored as data, by how far things moved since round 1:

- ``shifts[r][o]``: in round r (0-based) the player of orientation o who started at table i
  sits at table ``((i - 1 + shifts[r][o]) mod T) + 1``;
- ``sets[r]``: in round r table t plays set ``((t - 1 + sets[r]) mod T) + 1``.

North never moves (a movement where everybody moved c tables is the same one with the tables
renamed, so this loses nothing), and round 1 is everybody at their starting table playing the
set of that number.

The rules (1.6), hard and soft:

(a) no player plays a set twice (hard): a player's set moves by ``shifts[r][o] + sets[r]``,
    which must differ from round to round for each orientation;
(b) a player keeps their orientation: true by construction;
(c) no two players meet twice "where possible" (soft): players of orientations o and p meet
    again when ``shifts[r][o] - shifts[r][p]`` repeats a value of an earlier round (and then all
    T such pairs meet again at once);
(d) every player attacks and defends: each board's taker is marked N, E, S, W in turn, so a set
    of 4 boards (or any multiple of 4) gives every player 1 board in 4 as taker (p. 17).

`default_movement` is the spec's arithmetic movement (sets move down one table a round, the
player of orientation number v moves v tables): with T divisible by neither 2 nor 3 it meets
everything for T rounds, elsewhere it breaks (c) or even (a). `movement` searches for the
movement with the fewest repeated meetings that holds (a), for any T and any rounds up to T:
it looks for one with no repeat by backtracking from the arithmetic one, and when none is found
within a fixed number of steps it lowers the repeats by a seeded local search (`_improve`), so
its result is the same on every machine. Pure Python: no Django, no I/O.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from . import RuleError, _

ORIENTATIONS = ("N", "E", "S", "W")
#: The orientation pairs whose meetings rule (c) counts, as indices into ORIENTATIONS.
PAIRS = tuple(combinations(range(4), 2))
#: Search steps (values tried) allowed for each number of repeats, before allowing one more.
STEPS = 30_000

ERR_TABLES = _("A duplicate session needs at least one table (here %(tables)s).")
ERR_ROUNDS = _(
    "A duplicate session of %(tables)s tables has from 1 to %(tables)s rounds: a player would "
    "meet a set of boards again (here %(rounds)s rounds)."
)
ERR_PER_SET = _("Each table plays at least one board a round (here %(per_set)s).")

Player = tuple[str, int]  # (orientation, starting table)


@dataclass(frozen=True)
class Seating:
    """One table in one round: the set it plays, who sits where, and where each goes next."""

    table: int
    round: int
    board_set: int
    seats: dict[str, Player]  # orientation -> player
    next_table: dict[str, int | None]  # orientation -> table in the next round (None: the end)


@dataclass(frozen=True)
class Movement:
    """A movement as data (see the module): how far players and sets moved since round 1."""

    tables: int
    shifts: tuple[tuple[int, int, int, int], ...]
    sets: tuple[int, ...]

    @property
    def rounds(self) -> int:
        return len(self.sets)

    def _round(self, round: int) -> int:
        if not 1 <= round <= self.rounds:
            raise ValueError(f"round {round} of {self.rounds}")
        return round - 1

    def table_of(self, player: Player, round: int) -> int:
        """The table where `player` sits in `round` (1-based)."""
        orientation, start = player
        shift = self.shifts[self._round(round)][ORIENTATIONS.index(orientation)]
        return (start - 1 + shift) % self.tables + 1

    def set_at(self, table: int, round: int) -> int:
        """The set of boards `table` plays in `round`."""
        return (table - 1 + self.sets[self._round(round)]) % self.tables + 1

    def set_of(self, player: Player, round: int) -> int:
        return self.set_at(self.table_of(player, round), round)

    def players(self) -> list[Player]:
        return [(o, t) for t in range(1, self.tables + 1) for o in ORIENTATIONS]

    def seating(self, round: int) -> list[Seating]:
        """Every table of `round`, in table order: the guide cards of that round."""
        seats: dict[int, dict[str, Player]] = {t: {} for t in range(1, self.tables + 1)}
        for player in self.players():
            seats[self.table_of(player, round)][player[0]] = player
        out = []
        for table in range(1, self.tables + 1):
            at = seats[table]
            following = {
                o: self.table_of(at[o], round + 1) if round < self.rounds else None
                for o in ORIENTATIONS
            }
            out.append(Seating(table, round, self.set_at(table, round), at, following))
        return out

    def meetings(self) -> Counter[frozenset[Player]]:
        """How many rounds each pair of players sat at the same table (counted seat by seat)."""
        met: Counter[frozenset[Player]] = Counter()
        for round in range(1, self.rounds + 1):
            for seating in self.seating(round):
                for a, b in combinations(seating.seats.values(), 2):
                    met[frozenset((a, b))] += 1
        return met

    def repeats(self) -> int:
        """Meetings beyond the first, over all pairs of players (0: nobody meets twice)."""
        return sum(count - 1 for count in self.meetings().values() if count > 1)

    def problems(self) -> list[str]:
        """Hard rules the movement breaks, as sentences (empty: it can be played)."""
        out = []
        for player in self.players():
            sets = [self.set_of(player, r) for r in range(1, self.rounds + 1)]
            if len(set(sets)) < len(sets):
                out.append(f"{player[0]}{player[1]} plays a set twice")
        for round in range(1, self.rounds + 1):
            played = [s.board_set for s in self.seating(round)]
            if sorted(played) != list(range(1, self.tables + 1)):
                out.append(f"round {round} does not play every set once")
            if any(len(s.seats) != 4 for s in self.seating(round)):
                out.append(f"round {round} does not seat four at every table")
        return out


def _check(tables: int, rounds: int) -> None:
    if isinstance(tables, bool) or not isinstance(tables, int) or tables < 1:
        raise RuleError(ERR_TABLES, tables=tables)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= tables:
        raise RuleError(ERR_ROUNDS, tables=tables, rounds=rounds)


def default_movement(tables: int, rounds: int) -> Movement:
    """The spec's arithmetic movement (1.6): sets move down one table a round, the player of
    orientation number v (N 0, E 1, S 2, W 3) moves v tables up. Right for T rounds when T is
    divisible by neither 2 nor 3; elsewhere see `Movement.problems` and `Movement.repeats`."""
    _check(tables, rounds)
    shifts = tuple(tuple((v * r) % tables for v in range(4)) for r in range(rounds))
    return Movement(tables, shifts, tuple(r % tables for r in range(rounds)))


def movement(tables: int, rounds: int) -> Movement:
    """The movement with the fewest repeated meetings found that holds rule (a) (module doc).

    The arithmetic movement when it has no repeats; otherwise a deterministic search."""
    _check(tables, rounds)
    plain = default_movement(tables, rounds)
    if not plain.problems() and plain.repeats() == 0:
        return plain
    found = _search(tables, rounds, 0)
    if found is not None:
        return found
    return _improve(plain)


def _improve(start: Movement, *, steps: int = 40_000) -> Movement:
    """A movement holding rule (a) with as few repeated meetings as a local search finds.

    It works on each line's *set shift* ``y[o][r] = shifts[r][o] + sets[r]`` (North's is the
    sets' own): rule (a) says each line's y differs from round to round, and two lines o, p
    meet again when ``y[o][r] - y[p][r]`` repeats (the sets' shift cancels out). The search
    keeps every line's y different from round to round, so rule (a) always holds, and swaps two
    rounds' values of one line (or takes a value no round of that line has), keeping a change
    that adds no repeat. Seeded by the size of the session, so every run gives the same."""
    T, R = start.tables, start.rounds
    y = [[(start.shifts[r][o] + start.sets[r]) % T for r in range(R)] for o in range(4)]
    for line in y:
        if len(set(line)) < R:  # rule (a) broken there: start that line from 0, 1, 2 ...
            line[:] = range(R)
    pair_count = [Counter((y[a][r] - y[b][r]) % T for r in range(R)) for a, b in PAIRS]

    def repeats() -> int:
        return sum(sum(c - 1 for c in k.values()) for k in pair_count)

    def touch(o: int, r: int, sign: int) -> int:
        """Take round r of line o out of (-1) or into (+1) the pair counts; the repeats it
        removes (-) or adds (+)."""
        change = 0
        for i, (a, b) in enumerate(PAIRS):
            if o in (a, b):
                key = (y[a][r] - y[b][r]) % T
                if sign < 0:
                    pair_count[i][key] -= 1
                    change -= 1 if pair_count[i][key] >= 1 else 0
                else:
                    change += 1 if pair_count[i][key] >= 1 else 0
                    pair_count[i][key] += 1
        return change

    rng = random.Random(T * 1009 + R)
    current = best = repeats()
    best_y = [list(line) for line in y]
    for step in range(steps):
        if best == 0 or R < 3 and T <= R:
            break
        o = rng.randrange(4)
        r1 = rng.randrange(1, R)
        line = y[o]
        unused = T - R
        if unused and rng.random() < unused / (T - 1):
            r2 = None
            value = rng.randrange(T)
            if value in line:
                continue
        else:
            r2 = rng.randrange(1, R)
            if r2 == r1:
                continue
        rounds = (r1,) if r2 is None else (r1, r2)
        delta = sum(touch(o, r, -1) for r in rounds)
        old = [line[r] for r in rounds]
        if r2 is None:
            line[r1] = value
        else:
            line[r1], line[r2] = line[r2], line[r1]
        delta += sum(touch(o, r, +1) for r in rounds)
        if delta <= 0 or (delta == 1 and rng.random() < 0.02 * (1 - step / steps)):
            current += delta
            if current < best:
                best, best_y = current, [list(x) for x in y]
            continue
        for r in rounds:
            touch(o, r, -1)
        for r, v in zip(rounds, old, strict=True):
            line[r] = v
        for r in rounds:
            touch(o, r, +1)
    # back to shifts and sets: North's y is the sets' shift, a line's shift is y - sets
    sets = tuple(best_y[0][r] for r in range(R))
    shifts = tuple(tuple((best_y[o][r] - sets[r]) % T for o in range(4)) for r in range(R))
    return Movement(T, shifts, sets)


def _search(tables: int, rounds: int, allowed: int) -> Movement | None:
    """A movement with at most `allowed` repeated orientation-pair offsets, or None when none
    was found within STEPS values tried (or none exists)."""
    T = tables
    # offsets already used, per orientation pair (c, soft) and per orientation (a, hard)
    pair_used = [Counter({0: 1}) for _ in PAIRS]
    set_used = [{0} for _ in ORIENTATIONS]
    rows: list[tuple[int, ...]] = [(0, 0, 0, 0, 0)]  # N, E, S, W shifts, then the sets' shift
    steps = 0
    repeats = 0

    def candidates(r: int, var: int) -> Iterator[int]:
        # the arithmetic movement's value first (sets 1 a round, orientation v: v tables)
        start = (r * (var if var < 4 else 1)) % T
        return ((start + d) % T for d in range(T))

    def place(r: int, values: list[int]) -> bool:
        nonlocal steps, repeats
        var = len(values)
        if var == 5:
            rows.append(tuple(values))
            if r + 1 == rounds or place(r + 1, [0]):
                return True
            rows.pop()
            return False
        if var < 4:  # a player's shift: the values adding the fewest repeats first
            scored = []
            for value in candidates(r, var):
                added = [
                    (i, (values[a] - value) % T)
                    for i, (a, b) in enumerate(PAIRS)
                    if b == var and a < var
                ]
                extra = sum(1 for i, d in added if pair_used[i][d])
                if repeats + extra <= allowed:
                    scored.append((extra, len(scored), value, added))
            tries = [(value, (extra, added)) for extra, _, value, added in sorted(scored)]
        else:
            tries = [(value, None) for value in candidates(r, var)]
        for value, extra_added in tries:
            steps += 1
            if steps > STEPS:
                return False
            if extra_added is not None:  # a player's shift: the pairs with those before it
                extra, added = extra_added
                for i, d in added:
                    pair_used[i][d] += 1
                repeats += extra
                if place(r, [*values, value]):
                    return True
                repeats -= extra
                for i, d in added:
                    pair_used[i][d] -= 1
            else:  # the sets' shift: no player may meet a set again (hard)
                sums = [(values[o] + value) % T for o in range(4)]
                if any(s in set_used[o] for o, s in enumerate(sums)):
                    continue
                for o, s in enumerate(sums):
                    set_used[o].add(s)
                if place(r, [*values, value]):
                    return True
                for o, s in enumerate(sums):
                    set_used[o].discard(s)
        return False

    if rounds == 1 or place(1, [0]):
        shifts = tuple(tuple(row[:4]) for row in rows)
        return Movement(tables, shifts, tuple(row[4] for row in rows))
    return None


def boards_of_set(board_set: int, per_set: int) -> range:
    """The board numbers of one set: set 1 holds boards 1 … per_set, set 2 the next ones."""
    if isinstance(per_set, bool) or not isinstance(per_set, int) or per_set < 1:
        raise RuleError(ERR_PER_SET, per_set=per_set)
    return range((board_set - 1) * per_set + 1, board_set * per_set + 1)


def taker_of(board: int) -> str:
    """The orientation marked as taker on a board: N, E, S, W in turn (1.6, p. 17)."""
    return ORIENTATIONS[(board - 1) % 4]


#: The player to each orientation's right (play goes anticlockwise): N → W, W → S, S → E, E → N
#: (duplicate.md, Vocabulary). The player to the dealer's right leads (p. 7, p. 14).
RIGHT_OF = {"N": "W", "W": "S", "S": "E", "E": "N"}
#: Where the leader sits as the taker sees it: the taker himself, then the three defence places
#: of the geometry table (left of the taker "front", facing "middle", right of him "back").
LEAD_PLACES = ("taker", "front", "middle", "back")

ERR_ORIENTATION = _("An orientation is North, East, South or West (here %(orientation)s).")


def _orientation(o: str) -> str:
    if not isinstance(o, str) or o not in ORIENTATIONS:
        raise RuleError(ERR_ORIENTATION, orientation=o)
    return o


def right_of(orientation: str) -> str:
    """The player to the right of `orientation`."""
    return RIGHT_OF[_orientation(orientation)]


def leader_of(dealer: str) -> str:
    """Who leads the first trick when `dealer` deals: the player to his right."""
    return right_of(dealer)


def lead_place(taker: str, leader: str) -> str:
    """Where the leader sits for the taker: "taker" (he leads), "front" (to his left),
    "middle" (facing him) or "back" (to his right), as in the geometry table."""
    step = (ORIENTATIONS.index(_orientation(leader)) - ORIENTATIONS.index(_orientation(taker))) % 4
    return LEAD_PLACES[step]


def dealer_of(board: int) -> str:
    """The dealer marked on a board by default (p. 14 marks one on every board; the rulebook
    says nothing of which): N for boards 1-4, E for 5-8, S for 9-12, W for 13-16, then again.

    Why: the takers go N, E, S, W board by board (`taker_of`), so within every four boards the
    leader (the dealer's right) is once each of the taker himself and his three defence places,
    and each orientation's own boards as taker (one in four) lead from the four places in turn.
    With a fixed dealer per taker the same place would lead every time. The director may mark
    another dealer on a board before it is played (`tournaments.services.board_set_dealer`)."""
    if isinstance(board, bool) or not isinstance(board, int) or board < 1:
        raise ValueError(f"board {board!r}")
    return ORIENTATIONS[((board - 1) // 4) % 4]


def attacks(movement: Movement, player: Player, per_set: int) -> list[int]:
    """The boards `player` takes in the session."""
    orientation = player[0]
    return [
        board
        for round in range(1, movement.rounds + 1)
        for board in boards_of_set(movement.set_of(player, round), per_set)
        if taker_of(board) == orientation
    ]


__all__ = [
    "LEAD_PLACES",
    "ORIENTATIONS",
    "RIGHT_OF",
    "Movement",
    "Seating",
    "attacks",
    "boards_of_set",
    "dealer_of",
    "default_movement",
    "lead_place",
    "leader_of",
    "movement",
    "right_of",
    "taker_of",
]
