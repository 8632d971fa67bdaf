"""Time the tournament seating planner: ``python bench/seating.py`` from the repository root.

For each field (13 players over 4 rounds, 16 to 32 over 5, 27 over 6, and larger fields over 5),
plans the rounds from scratch and prints the table sizes, the repeated pairs of the schedule
(meetings beyond the first), the proven lower bound on them (``lower_bound``, whose docstring
explains the counting: 0 when counting does not rule out a perfect schedule), the annealer
figure of issue 14 where it gave one, the most seats a player got at tables of 5 against the
fair share (a hard constraint: never above it), and the CPU time ``plan_rounds`` took (goal:
2 s on one core).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import goals  # noqa: E402
from tarotclub.tournaments.seating import (  # noqa: E402
    count_repeats,
    lower_bound,
    plan_rounds,
    table_sizes,
)

# (players, rounds): issue 14's fields, then larger ones and issue 12's federation final.
FIELDS = ((13, 4), *((n, 5) for n in range(16, 33)), (27, 6), (48, 5), (200, 5), (2000, 5))
GOAL_PLAYERS, GOAL_S = 2000, 2.0  # issue 12: seating 2,000 players (5 rounds) in at most 2 s
FAIR_GOAL_S = 2.0  # issue 14: each small field in under 2 s on one core
#: Repeats a plain annealer holding the fair share reached (issue 14): the figures to match.
ISSUE_14 = {(13, 4): 19, (17, 5): 15, (18, 5): 25, (19, 5): 24, (22, 5): 7, (23, 5): 2, (27, 6): 12}
SEED = 0


def describe_sizes(sizes: list[int]) -> str:
    """``[5, 4, 4]`` → ``"5 + 2×4"``."""
    counts = Counter(sizes)
    return " + ".join(
        f"{size}" if counts[size] == 1 else f"{counts[size]}×{size}"
        for size in sorted(counts, reverse=True)
    )


def main() -> None:
    header = (
        f"{'players':>7}  {'rounds':>6}  {'tables':<12}  {'repeats':>7}  {'lower bound':>11}  "
        f"{'issue 14':>8}  {'at 5 (fair)':>11}  {'CPU time':>8}"
    )
    print(f"plan_rounds from scratch, seed {SEED}")
    print(header)
    print("-" * len(header))
    for n, rounds in FIELDS:
        sizes = table_sizes(n)
        start = time.process_time()
        plan = plan_rounds([f"player {i}" for i in range(n)], rounds, seed=SEED)
        elapsed = time.process_time() - start
        odd = Counter(p for round_ in plan for table in round_ if len(table) != 4 for p in table)
        fair = -(-sum(odd.values()) // n)
        fives = f"{max(odd.values(), default=0)} ({fair})"
        issue = ISSUE_14.get((n, rounds), "")
        print(
            f"{n:>7}  {rounds:>6}  {describe_sizes(sizes):<12}  {count_repeats(plan):>7}  "
            f"{lower_bound(n, rounds, sizes):>11}  {issue:>8}  {fives:>11}  {elapsed:>7.3f}s"
        )
        if n == GOAL_PLAYERS:
            goals.record(f"seat {n} players, {rounds} rounds", elapsed, "s", GOAL_S, database="")
        elif (n, rounds) in ISSUE_14:
            name = f"seat {n} players, {rounds} rounds, fairly"
            goals.record(name, elapsed, "s", FAIR_GOAL_S, database="")


if __name__ == "__main__":
    main()
