"""Seat the players of a club tournament so that they meet as rarely as possible.

Pure Python, no Django, no I/O. A round is a list of tables, a table a list of player keys in
seat order (North, East, South, West, then Fifth at a table of 5). Player keys are any hashable
values; when they can be compared (all ``str`` or all ``int``) they are sorted first, so the
schedule depends only on the set of players, the history and the seed, not on the order the
players come in.

The schedule is fair first: nobody sits at a table of 5 or 3 more often than the fair share,
``ceil(odd seats / players)``, where *odd seats* counts, for the players present, the seats at
tables of 5 or 3 in the history and in the planned rounds. This is a hard constraint (issue 14:
17 players over 5 rounds used to seat one of them at the table of 5 every round); only when the
history makes it impossible (a late arrival at a field with tables of 5 only, say) does the plan
go beyond it, and then as little as can be (the *excess*: seats beyond the share, summed over
the players). Within it, the schedule has the fewest repeats it can find: for each pair of
players, meetings beyond the first over history + plan (a pair that meets three times counts
two). It then turns each table so that every player's seats (North first of all) stay balanced.

All remaining rounds are planned at once by simulated annealing over swaps of two players sitting
at different tables of the same round (a "social golfer problem"), keeping the best fair
schedule. It starts from a greedy schedule that is fair by construction, and from the affine
plane of order 4 for 16 players (5 rounds without a single repeat). On small fields a tabu
search then polishes the best schedule: with tables of 5 it matches or beats the figures of
issue 14 (13 players over 4 rounds: 19 repeats; 17 over 5: 15; see ``bench/seating.py``).
The effort is counted in iterations, never in seconds, so the same inputs and seed give the
same schedule on any machine.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence

from scoring import RuleError, _

SEAT_NAMES = (_("North"), _("East"), _("South"), _("West"), _("Fifth"))

#: Iterations (tried swaps) the search may spend: under a second on one small laptop core. The
#: search stops sooner when it reaches a proven optimum (e.g. no repeat at all).
DEFAULT_BUDGET = 300_000

ERR_TOO_FEW_PLAYERS = _("A tournament needs at least 3 players, not %(count)s.")
ERR_DUPLICATE_PLAYER = _("Player %(player)s is listed twice.")
ERR_ROUNDS = _("The number of rounds must be a whole number, 0 or more, not %(rounds)s.")
ERR_HISTORY_TWICE = _("Player %(player)s sits twice in round %(round)s of the rounds played.")
ERR_SIZES_TOTAL = _("The tables seat %(seats)s players, but there are %(count)s.")
# (size > tables >= 1, so "players" is plural; the tables are counted without a noun)
ERR_TEAM_TOO_LARGE = _(
    "Team %(team)s has %(size)s players, more than the tables (%(tables)s): teammates "
    "cannot all sit at different tables."
)
ERR_TEAMMATES = _("The planner could not seat the teammates at different tables.")

Round = list[list[Hashable]]
_Past = list[list[tuple[int, list[int]]]]  # per round, per table: (size, present indices or -1)

# Multiplication in GF(4) = {0, 1, a, a + 1} coded 0..3 (addition is XOR), with a * a = a + 1.
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


class SeatingError(RuleError):
    """Seating input that cannot be planned (too few players, a player listed twice, ...).

    A ``ValueError`` with ``template`` and ``params`` like every ``RuleError``.
    """


# --------------------------------------------------------------------------- table sizes


def table_sizes(n: int, *, allow_three: bool = False) -> list[int]:
    """The sizes of the tables for ``n`` players, largest first.

    With ``q, r = divmod(n, 4)``:

    - ``r == 0``: ``q`` tables of 4.
    - otherwise, without ``allow_three``: ``r`` tables of 5 and the rest of 4 when ``q >= r``
      (always true from 12 players on); below that one table of 3 (``r == 3``: 3, 7, 11 players)
      or two (``r == 2``: 6 players), the rest of 4.
    - with ``allow_three``, tables of 3 replace the tables of 5: one table of 3 when ``r == 3``,
      two when ``r == 2``, three when ``r == 1`` (from 9 players on; 5 players make one table
      of 5), the rest of 4.

    Examples: 5 → [5], 6 → [3, 3], 7 → [4, 3], 9 → [5, 4], 10 → [5, 5], 11 → [4, 4, 3],
    13 → [5, 4, 4], 13 with tables of 3 → [4, 3, 3, 3].
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 3:
        raise SeatingError(ERR_TOO_FEW_PLAYERS, count=n)
    q, r = divmod(n, 4)
    if r == 0:
        return [4] * q
    threes = {3: 1, 2: 2, 1: 3}[r]
    if allow_three and 3 * threes <= n:
        return [4] * ((n - 3 * threes) // 4) + [3] * threes
    if q >= r:
        return [5] * r + [4] * (q - r)
    # Fewer than 12 players and no room for enough tables of 5: r is 3 or 2 here.
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


# --------------------------------------------------------------------------- counting helpers


def pair_counts(rounds: Iterable[Iterable[Iterable[Hashable]]]) -> Counter[frozenset]:
    """How many times each pair of players shared a table, keyed by ``frozenset({a, b})``."""
    counts: Counter[frozenset] = Counter()
    for round_ in rounds:
        for table in round_:
            seated = list(table)
            for i, a in enumerate(seated):
                for b in seated[i + 1 :]:
                    counts[frozenset((a, b))] += 1
    return counts


def count_repeats(rounds: Iterable[Iterable[Iterable[Hashable]]]) -> int:
    """Meetings beyond the first, summed over all pairs (a pair that meets 3 times counts 2)."""
    return sum(c - 1 for c in pair_counts(rounds).values() if c > 1)


def lower_bound(n: int, rounds: int, table_sizes: Sequence[int]) -> int:
    """A number of repeats that no schedule of ``rounds`` rounds for ``n`` players can avoid.

    The larger of two proven bounds:

    - pair counting: the rounds hold ``rounds * sum(C(s, 2))`` meetings but there are only
      ``C(n, 2)`` pairs, so the surplus must be repeats (the per-player version, each player
      meeting ``sum(s - 1)`` others out of ``n - 1``, is never stronger);
    - pigeonhole: each round after the first repeats at least the pairs that must share a table
      in both it and the first round: a table of ``s`` players drawn from ``g`` tables of the first
      round holds at least the pairs of the most even split of ``s`` into ``g`` parts.

    0 means counting does not rule out a perfect schedule; it does not promise one exists (it is
    still a true lower bound, so the function never needs to answer "unknown").
    """
    sizes = list(table_sizes)
    if sum(sizes) != n:
        raise SeatingError(ERR_SIZES_TOTAL, seats=sum(sizes), count=n)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise SeatingError(ERR_ROUNDS, rounds=rounds)
    counting = rounds * sum(math.comb(s, 2) for s in sizes) - math.comb(n, 2)
    g = len(sizes)
    forced = 0
    for s in sizes:
        q, rem = divmod(s, g)
        forced += rem * math.comb(q + 1, 2) + (g - rem) * math.comb(q, 2)
    return max(0, counting, max(0, rounds - 1) * forced)


# --------------------------------------------------------------------------- planning


def plan_rounds(
    players: Iterable[Hashable],
    rounds: int,
    *,
    history: Iterable[Iterable[Iterable[Hashable]]] = (),
    allow_three: bool = False,
    teams: Mapping[Hashable, Hashable] | None = None,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
) -> list[Round]:
    """The next ``rounds`` rounds for ``players``: one list of tables per round.

    ``teams`` maps players to their team (free-deal teams of 2 or 4, duplicate.md 2.1):
    teammates never sit at the same table, a hard constraint before the fair share and the
    repeats. Players it does not map play alone. A team larger than the number of tables is
    refused (``ERR_TEAM_TOO_LARGE``).

    ``history`` holds the rounds already played in the same shape; it may name players who have
    withdrawn (their meetings no longer matter) and lack players who arrived late. Tables come
    largest first, as :func:`table_sizes` gives them; each table lists its players in seat order.
    The same arguments give the same schedule in any process (``random.Random(seed)``, no set
    or hash order); ``budget`` caps the work of the search (see :data:`DEFAULT_BUDGET`).
    """
    keys = _check_players(players)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise SeatingError(ERR_ROUNDS, rounds=rounds)
    n = len(keys)
    sizes = table_sizes(n, allow_three=allow_three)
    index = {key: i for i, key in enumerate(keys)}
    past = _past_rounds(history, index)
    if rounds == 0:
        return []
    mates = _teammates(keys, teams or {}, len(sizes))
    rng = random.Random(seed)
    search = _Search(n, rounds, sizes, past, rng, mates)
    search.run(max(0, budget), lower_bound(n, rounds, sizes))
    if search.best_score[0]:
        raise SeatingError(ERR_TEAMMATES)
    seats = _seat_counts(n, past)
    plan: list[Round] = []
    for round_ in search.best:
        plan.append([[keys[p] for p in _turn_table(table, seats, rng)] for table in round_])
    return plan


def _check_players(players: Iterable[Hashable]) -> list[Hashable]:
    keys = list(players)
    seen: set = set()
    for key in keys:
        if key in seen:
            raise SeatingError(ERR_DUPLICATE_PLAYER, player=key)
        seen.add(key)
    if len(keys) < 3:
        raise SeatingError(ERR_TOO_FEW_PLAYERS, count=len(keys))
    try:
        return sorted(keys)
    except TypeError:  # keys of mixed types: keep the caller's order
        return keys


def _teammates(
    keys: list[Hashable], teams: Mapping[Hashable, Hashable], tables: int
) -> list[list[int]]:
    """For each player's index, the indices of their teammates present (a team of one has none).

    Teams are grouped in the players' order, never by hashing, so the plan stays reproducible.
    """
    groups: dict[Hashable, list[int]] = {}
    for i, key in enumerate(keys):
        if key in teams:
            groups.setdefault(teams[key], []).append(i)
    mates: list[list[int]] = [[] for _ in keys]
    for team, members in groups.items():
        if len(members) > tables:
            raise SeatingError(ERR_TEAM_TOO_LARGE, team=team, size=len(members), tables=tables)
        for i in members:
            mates[i] = [j for j in members if j != i]
    return mates


def _past_rounds(
    history: Iterable[Iterable[Iterable[Hashable]]], index: dict[Hashable, int]
) -> _Past:
    """History as (table size, present players' indices in seat order) per table per round."""
    past = []
    for number, round_ in enumerate(history, start=1):
        seen: set = set()
        tables = []
        for table in round_:
            seated = list(table)
            for key in seated:
                if key in seen:
                    raise SeatingError(ERR_HISTORY_TWICE, player=key, round=number)
                seen.add(key)
            tables.append((len(seated), [index.get(k, -1) for k in seated]))
        past.append(tables)
    return past


def _repeats(cnt: list[int] | bytearray) -> int:
    """Meetings beyond the first in a symmetric ``n * n`` meeting count: the sum of
    ``max(0, c - 1)`` over the pairs, counted with C-level list methods (a quadratic
    generator took a second at 2,000 players)."""
    return (sum(cnt) - (len(cnt) - cnt.count(0))) // 2


def _seat_counts(n: int, past: _Past) -> list[list[int]]:
    seats = [[0] * len(SEAT_NAMES) for _ in range(n)]
    for round_ in past:
        for _size, seated in round_:
            for seat, p in enumerate(seated[: len(SEAT_NAMES)]):
                if p >= 0:
                    seats[p][seat] += 1
    return seats


def _turn_table(table: list[int], seats: list[list[int]], rng: random.Random) -> list[int]:
    """Seat order for a table giving each player the seats they have had least (counts updated)."""
    members = sorted(table)
    rng.shuffle(members)
    best, best_cost = members, None
    for order in itertools.permutations(members):
        cost = sum(seats[p][seat] for seat, p in enumerate(order))
        if best_cost is None or cost < best_cost:
            best, best_cost = list(order), cost
    for seat, p in enumerate(best):
        seats[p][seat] += 1
    return best


def _affine_start(rng: random.Random) -> list[list[list[int]]]:
    """Five rounds for 16 players at 4 tables, from the affine plane over GF(4): its 5 parallel
    classes of 4 lines seat the 16 players so that nobody meets twice.

    (It once also seated a 17th to 19th player on the lines through one point, at the table of
    5 every round: 4 repeats for 17 players, but unfair, which issue 14 rules out.)
    """
    point = list(range(16))
    rng.shuffle(point)  # point[4 * x + y] is the player at (x, y)
    lines = [[[4 * c + y for y in range(4)] for c in range(4)]]  # x = c
    for m in range(4):  # y = m * x + c
        lines.append([[4 * x + (_GF4_MUL[m][x] ^ c) for x in range(4)] for c in range(4)])
    return [[[point[i] for i in line] for line in parallel] for parallel in lines]


class _Search:
    """Simulated annealing over swaps of two players at different tables of one round.

    Objective, compared lexicographically: (teammates together, odd-table excess, added
    repeats). "Teammates together" counts the pairs of teammates at one table, summed over the
    rounds; "added repeats" are the repeats among present players minus those already in the
    history (a constant). Moves are drawn mostly among players who sit with someone they meet
    more than once.
    """

    # Tuned on 13 to 40 players over 5 rounds and on replanning after arrivals and withdrawals.
    T_HOT = 0.8  # starting temperature; each annealing run cools to a tenth of it
    P_CONFLICT = 0.8  # chance to move a player in conflict rather than any player
    W_EXCESS = 2.0  # weight of a seat beyond the fair share against a repeat while annealing
    W_TEAM = 8.0  # weight of two teammates at one table against a repeat while annealing
    CYCLES = 4  # annealing runs sharing the budget, each reheating the best schedule so far
    TABU_WORK = 7  # the tabu polish may weigh this many swaps per iteration of the budget, ...
    TABU_MIN_STEPS = 50  # ... if that makes this many steps at least (small fields only)
    TABU_TENURE = (3, 10)  # a moved player stays put for this many steps (drawn in the range)

    def __init__(
        self,
        n: int,
        rounds: int,
        sizes: list[int],
        past: _Past,
        rng: random.Random,
        mates: list[list[int]] | None = None,
    ) -> None:
        self.n, self.rounds, self.sizes, self.rng = n, rounds, sizes, rng
        # mate[p * n + q]: 1 when p and q are teammates (allocated only when there are teams)
        self.has_teams = any(mates or ())
        self.mate = bytearray(n * n if self.has_teams else 0)
        for p, others in enumerate(mates if self.has_teams else ()):
            for q in others:
                self.mate[p * n + q] = 1
        self.viol = 0
        self.odd_table = [s != 4 for s in sizes]
        # Meetings of each pair: a byte each while no pair can meet 256 times (once a round at
        # most), 4 MB instead of 32 MB at 2,000 players, copied twice.
        self.hist_cnt = bytearray(n * n) if len(past) + rounds < 256 else [0] * (n * n)
        self.hist_odd = [0] * n
        for round_ in past:
            for size, seated in round_:
                present = [p for p in seated if p >= 0]
                for i, p in enumerate(present):
                    if size != 4:
                        self.hist_odd[p] += 1
                    for q in present[i + 1 :]:
                        self.hist_cnt[p * n + q] += 1
                        self.hist_cnt[q * n + p] += 1
        odd_seats = sum(self.hist_odd) + rounds * sum(s for s in sizes if s != 4)
        self.cap = -(-odd_seats // n)
        self.exc_floor = sum(max(0, o - self.cap) for o in self.hist_odd)
        self.fresh = not any(self.hist_cnt)
        self.hist_rep = _repeats(self.hist_cnt)
        self.best: list[list[list[int]]] = []
        self.best_score = (math.inf, math.inf, math.inf)

    # ----------------------------------------------------------------- state

    def _start(self, prefix: list[list[list[int]]]) -> list[list[list[int]]]:
        """``prefix`` completed round by round: the players with the fewest odd seats take the
        tables of 5 or 3, then each player sits where they have met the fewest players."""
        n, sizes, rng, mate = self.n, self.sizes, self.rng, self.mate
        plan = [[list(t) for t in round_] for round_ in prefix[: self.rounds]]
        cnt = self.hist_cnt[:]
        odd = self.hist_odd[:]
        for round_ in plan:
            for table in round_:
                for i, p in enumerate(table):
                    if len(table) != 4:
                        odd[p] += 1
                    for q in table[i + 1 :]:
                        cnt[p * n + q] += 1
                        cnt[q * n + p] += 1
        while len(plan) < self.rounds:
            order = list(range(n))
            rng.shuffle(order)
            order.sort(key=odd.__getitem__)  # fewest odd seats first: they take the odd tables
            tables: list[list[int]] = [[] for _ in sizes]
            odd_ids = [t for t, s in enumerate(sizes) if s != 4]
            even_ids = [t for t, s in enumerate(sizes) if s == 4]
            n_odd = sum(sizes[t] for t in odd_ids)
            if mate:
                order = self._odd_first(order, n_odd, len(odd_ids))
            for group, ids in ((order[:n_odd], odd_ids), (order[n_odd:], even_ids)):
                open_ids = list(ids)  # the tables not full yet, in order
                for p in group:
                    # The first open table where p meets the fewest players already met; one
                    # where p has met nobody cannot be beaten, so the scan stops there (this
                    # keeps the greedy linear in the field instead of quadratic).
                    best_t, best_cost, row = -1, math.inf, p * n
                    for t in open_ids:
                        cost = sum(1 for q in tables[t] if cnt[row + q])
                        if mate:
                            cost += n * sum(mate[row + q] for q in tables[t])
                        if cost < best_cost:
                            best_t, best_cost = t, cost
                            if not cost:
                                break
                    if len(tables[best_t]) + 1 == sizes[best_t]:
                        open_ids.remove(best_t)
                    for q in tables[best_t]:
                        cnt[p * n + q] += 1
                        cnt[q * n + p] += 1
                    tables[best_t].append(p)
                    if sizes[best_t] != 4:
                        odd[p] += 1
            plan.append(tables)
        return plan

    def _odd_first(self, order: list[int], n_odd: int, odd_tables: int) -> list[int]:
        """``order`` with its first ``n_odd`` players (those who take the odd tables) holding
        no more teammates than there are odd tables: a player whose team has its quota there
        gives their place to the next one."""
        n, mate = self.n, self.mate
        chosen: list[int] = []
        later: list[int] = []
        for p in order:
            if len(chosen) < n_odd and sum(mate[p * n + q] for q in chosen) < odd_tables:
                chosen.append(p)
            else:
                later.append(p)
        return chosen + later

    def _load(self, plan: list[list[list[int]]]) -> None:
        """Set the working state to ``plan`` and compute every derived count."""
        n, rounds = self.n, self.rounds
        self.members = [[list(t) for t in round_] for round_ in plan]
        self.where = [[0] * n for _ in range(rounds)]
        cnt = self.cnt = self.hist_cnt[:]
        odd = self.odd = self.hist_odd[:]
        for r, round_ in enumerate(self.members):
            for t, table in enumerate(round_):
                for i, p in enumerate(table):
                    self.where[r][p] = t
                    if self.odd_table[t]:
                        odd[p] += 1
                    for q in table[i + 1 :]:
                        cnt[p * n + q] += 1
                        cnt[q * n + p] += 1
        # conf[r * n + p]: p's table-mates in round r met more than once. ``conflicts`` lists
        # keys with conf > 0, and maybe some stale ones, dropped lazily when drawn.
        conf = self.conf = [0] * (rounds * n)
        listed = self.listed = [False] * (rounds * n)
        self.conflicts = []
        for r, round_ in enumerate(self.members):
            for table in round_:
                for i, p in enumerate(table):
                    for q in table[i + 1 :]:
                        if cnt[p * n + q] >= 2:
                            conf[r * n + p] += 1
                            conf[r * n + q] += 1
        for key, c in enumerate(conf):
            if c:
                listed[key] = True
                self.conflicts.append(key)
        self.rep = _repeats(cnt) - self.hist_rep
        self.exc = sum(max(0, o - self.cap) for o in odd)
        mate = self.mate
        self.viol = 0
        if mate:
            for round_ in self.members:
                for table in round_:
                    for i, p in enumerate(table):
                        self.viol += sum(mate[p * n + q] for q in table[i + 1 :])

    def _draw_conflict(self) -> int:
        """A random key ``r * n + p`` of a player in conflict, or -1 when there is none."""
        conflicts, conf, randrange = self.conflicts, self.conf, self.rng.randrange
        while conflicts:
            i = randrange(len(conflicts))
            key = conflicts[i]
            if conf[key]:
                return key
            last = conflicts.pop()
            if last != key:
                conflicts[i] = last
            self.listed[key] = False
        return -1

    def _other_round(self, r: int, p: int, q: int) -> int:
        for r2, where in enumerate(self.where):
            if r2 != r and where[p] == where[q]:
                return r2
        return -1

    def _leave(self, r: int, p: int) -> None:
        n, cnt, conf = self.n, self.cnt, self.conf
        t = self.where[r][p]
        table = self.members[r][t]
        table.remove(p)
        row, key, saved = p * n, r * n + p, 0
        for x in table:
            c = cnt[row + x]
            if c >= 2:
                saved += 1
                conf[key] -= 1
                conf[r * n + x] -= 1
                if c == 2:
                    r2 = self._other_round(r, p, x)
                    if r2 >= 0:
                        conf[r2 * n + p] -= 1
                        conf[r2 * n + x] -= 1
            cnt[row + x] = cnt[x * n + p] = c - 1
        self.rep -= saved
        if self.has_teams:
            mate = self.mate
            self.viol -= sum(mate[row + x] for x in table)
        if self.odd_table[t]:
            if self.odd[p] > self.cap:
                self.exc -= 1
            self.odd[p] -= 1

    def _join(self, r: int, p: int, t: int) -> None:
        n, cnt, conf, listed, conflicts = self.n, self.cnt, self.conf, self.listed, self.conflicts
        table = self.members[r][t]
        row, added = p * n, 0
        for x in table:
            c = cnt[row + x]
            if c >= 1:
                added += 1
                keys = [r * n + p, r * n + x]
                if c == 1:
                    r2 = self._other_round(r, p, x)
                    if r2 >= 0:
                        keys += (r2 * n + p, r2 * n + x)
                for key in keys:
                    conf[key] += 1
                    if not listed[key]:
                        listed[key] = True
                        conflicts.append(key)
            cnt[row + x] = cnt[x * n + p] = c + 1
        self.rep += added
        if self.has_teams:
            mate = self.mate
            self.viol += sum(mate[row + x] for x in table)
        table.append(p)
        self.where[r][p] = t
        if self.odd_table[t]:
            if self.odd[p] >= self.cap:
                self.exc += 1
            self.odd[p] += 1

    def _swap(self, r: int, a: int, b: int) -> None:
        ta, tb = self.where[r][a], self.where[r][b]
        self._leave(r, a)
        self._leave(r, b)
        self._join(r, a, tb)
        self._join(r, b, ta)

    # ----------------------------------------------------------------- search

    def _record(self) -> bool:
        score = (self.viol, self.exc, self.rep)
        if score < self.best_score:
            self.best_score = score
            self.best = [[sorted(t) for t in round_] for round_ in self.members]
            return True
        return False

    def run(self, budget: int, rep_floor: int) -> None:
        """Search for about ``budget`` iterations in all, stopping early at a proven optimum.

        ``CYCLES`` annealing runs share the budget. The first starts from the greedy schedule,
        fair by construction (the affine plane for 16 players); each later one reheats the best
        schedule so far. Only schedules as fair as the start (which is as fair as can be) are
        recorded, so the fair share is a hard constraint on the result while the annealing may
        cross unfair schedules (at a cost, ``W_EXCESS``). On small fields a tabu search then
        polishes the best schedule, never leaving the fair ones (see :meth:`_tabu`).
        """
        n, sizes = self.n, self.sizes
        # Counting again, with the history: meetings among present players beyond C(n, 2).
        meetings = sum(self.hist_cnt) // 2 + self.rounds * sum(math.comb(s, 2) for s in sizes)
        rep_floor = max(rep_floor, meetings - math.comb(n, 2) - self.hist_rep)
        goal = (0, self.exc_floor, rep_floor)
        start: list[list[list[int]]] = []
        if self.fresh and n == 16 and sizes == [4, 4, 4, 4]:
            start = _affine_start(self.rng)
        self._load(self._start(start))
        self._record()
        if len(sizes) < 2:
            return  # one table: nothing to swap
        for cycle in range(self.CYCLES):
            if self.best_score <= goal:
                return
            if cycle:
                self._load(self.best)
            self._anneal(budget // self.CYCLES, goal)
        if self.best_score > goal:
            self._load(self.best)
            self._tabu(budget * self.TABU_WORK, goal)

    def _anneal(self, budget: int, goal: tuple[int, int, int]) -> None:
        """Simulated annealing from the current state, cooling from ``T_HOT`` to a tenth of it,
        on the cost repeats + ``W_EXCESS`` * excess. Unfair schedules may be crossed on the way
        but are never recorded: the best is the fewest repeats at the least excess.
        """
        if budget <= 0:
            return
        n, rng, rounds, cap = self.n, self.rng, self.rounds, self.cap
        cnt, conf, odd, odd_table = self.cnt, self.conf, self.odd, self.odd_table
        members, wheres = self.members, self.where
        random_, randrange, exp = rng.random, rng.randrange, math.exp
        w_excess, w_team, mate = self.W_EXCESS, self.W_TEAM, self.mate
        cooling = 0.1 ** (1 / budget)
        temp = self.T_HOT
        for _step in range(budget):
            temp *= cooling
            key = self._draw_conflict() if random_() < self.P_CONFLICT else -1
            if key >= 0:
                r, a = divmod(key, n)
            else:
                r, a = randrange(rounds), randrange(n)
            b = randrange(n)
            where = wheres[r]
            ta, tb = where[a], where[b]
            if ta == tb:
                continue
            row_a, row_b = a * n, b * n
            d = -conf[r * n + a] - conf[r * n + b]
            for x in members[r][ta]:
                if x != a and cnt[row_b + x]:
                    d += 1
            for y in members[r][tb]:
                if y != b and cnt[row_a + y]:
                    d += 1
            de = 0
            if odd_table[ta] != odd_table[tb]:
                if odd_table[ta]:
                    de = (odd[b] >= cap) - (odd[a] > cap)
                else:
                    de = (odd[a] >= cap) - (odd[b] > cap)
            dv = 0
            if mate:
                for x in members[r][ta]:
                    if x != a:
                        dv += mate[row_b + x] - mate[row_a + x]
                for y in members[r][tb]:
                    if y != b:
                        dv += mate[row_a + y] - mate[row_b + y]
            f = d + w_excess * de + w_team * dv
            if f <= 0 or random_() < exp(-f / temp):
                self._swap(r, a, b)
                if (d < 0 or de < 0 or dv < 0) and self._record() and self.best_score <= goal:
                    return

    def _tabu(self, work: int, goal: tuple[int, int, int]) -> None:
        """Tabu search from the current state: each step makes the best swap of the whole
        schedule (the fewest repeats, ties drawn at random), even one that adds repeats, except
        swaps of a player moved in the last few steps (``TABU_TENURE``) unless they beat the
        best schedule; swaps that would add excess or seat teammates together are never made.
        A step weighs every swap, so it only runs when ``work`` (swaps weighed in all) pays for
        ``TABU_MIN_STEPS`` steps.

        Annealing settles in a good basin fast; on small fields with a table of 5 (13 players
        over 4 rounds, 17 to 19 over 5) this finds the deeper schedules it misses.
        """
        n, rng, rounds, cap = self.n, self.rng, self.rounds, self.cap
        cnt, conf, odd, odd_table = self.cnt, self.conf, self.odd, self.odd_table
        members, wheres, mate = self.members, self.where, self.mate
        if self.viol:
            return  # it keeps teammates apart, it does not part them
        per_step = rounds * (math.comb(n, 2) - sum(math.comb(s, 2) for s in self.sizes))
        if per_step <= 0 or work < self.TABU_MIN_STEPS * per_step:
            return
        low, high = self.TABU_TENURE
        free_at = [0] * (rounds * n)  # the step from which r * n + p may move again
        best_rep = self.best_score[2]
        for step in range(work // per_step):
            move, move_d, ties = None, math.inf, 0
            for r in range(rounds):
                where, tables, base = wheres[r], members[r], r * n
                # met[p * width + t]: how many at table t player p has met already. A swap of a
                # (table ta) and b (table tb) adds the pairs of b with ta's others and of a with
                # tb's others: met[b][ta] + met[a][tb], less a and b themselves when they met.
                width = len(tables)
                met = [0] * (n * width)
                for p in range(n):
                    row_p, at = p * n, p * width
                    for x in range(n):
                        if cnt[row_p + x] and x != p:
                            met[at + where[x]] += 1
                for a in range(n):
                    ta, row_a, conf_a = where[a], a * n, conf[base + a]
                    a_odd = odd_table[ta]
                    a_tabu = free_at[base + a] > step
                    met_a = a * width
                    for b in range(a + 1, n):
                        tb = where[b]
                        if ta == tb:
                            continue
                        if a_odd != odd_table[tb] and (odd[b] if a_odd else odd[a]) >= cap:
                            continue  # the one joining the odd table has had their share
                        row_b = b * n
                        if mate and (
                            any(mate[row_b + x] for x in tables[ta] if x != a)
                            or any(mate[row_a + y] for y in tables[tb] if y != b)
                        ):
                            continue  # a teammate at the table: never
                        d = met[b * width + ta] + met[met_a + tb] - conf_a - conf[base + b]
                        if cnt[row_a + b]:
                            d -= 2  # (cnt is symmetric: a and b counted in each other's table)
                        if d > move_d:
                            continue
                        if (a_tabu or free_at[base + b] > step) and self.rep + d >= best_rep:
                            continue
                        if d < move_d:
                            move, move_d, ties = (r, a, b), d, 1
                        else:
                            ties += 1
                            if rng.randrange(ties) == 0:
                                move = (r, a, b)
            if move is None:
                return
            r, a, b = move
            self._swap(r, a, b)
            free_at[r * n + a] = free_at[r * n + b] = step + rng.randint(low, high)
            if self.rep < best_rep:
                self._record()
                best_rep = self.best_score[2]
                if self.best_score <= goal:
                    return


__all__ = [
    "DEFAULT_BUDGET",
    "SEAT_NAMES",
    "SeatingError",
    "count_repeats",
    "lower_bound",
    "pair_counts",
    "plan_rounds",
    "table_sizes",
]
