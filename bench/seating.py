"""Time the tournament seating planner: ``python bench/seating.py`` from the repository root.

For each field size, plans 5 rounds from scratch and prints the table sizes, the repeated pairs
of the schedule (meetings beyond the first), the proven lower bound on them (``lower_bound``
always has one: 0 when counting does not rule out a perfect schedule), the most seats a player
got at tables of 5 against the fair cap, and the time ``plan_rounds`` took.
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

FIELDS = (16, 20, 24, 32, 48, 200, 17, 25, 2000)  # the brief's fields, two with a table of 5,
# and issue 12's federation final
GOAL_PLAYERS, GOAL_S = 2000, 2.0  # issue 12: seating 2,000 players (5 rounds) in at most 2 s
ROUNDS = 5
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
        f"{'players':>7}  {'tables':<12}  {'repeats':>7}  {'lower bound':>11}  "
        f"{'at 5 (cap)':>10}  {'time':>8}"
    )
    print(f"plan_rounds: {ROUNDS} rounds from scratch, seed {SEED}")
    print(header)
    print("-" * len(header))
    for n in FIELDS:
        sizes = table_sizes(n)
        start = time.perf_counter()
        plan = plan_rounds([f"player {i}" for i in range(n)], ROUNDS, seed=SEED)
        elapsed = time.perf_counter() - start
        odd = Counter(p for round_ in plan for table in round_ if len(table) != 4 for p in table)
        cap = -(-sum(odd.values()) // n)
        fives = f"{max(odd.values(), default=0)} ({cap})"
        print(
            f"{n:>7}  {describe_sizes(sizes):<12}  {count_repeats(plan):>7}  "
            f"{lower_bound(n, ROUNDS, sizes):>11}  {fives:>10}  {elapsed:>7.3f}s"
        )
        if n == GOAL_PLAYERS:
            goals.record(f"seat {n} players, {ROUNDS} rounds", elapsed, "s", GOAL_S, database="")


if __name__ == "__main__":
    main()
