"""The goals of issue 12 ("Fast for a full club evening"), each bench recording its figure.

A bench calls `record(...)` for every goal it measures; `bench/run.py` prints them all at the
end as one table: the figure, the goal, how the figure compares with the goal, and the figure
as a ratio to a trivial view measured in the same run (when the bench measured one). Nothing
is asserted: `make bench` prints, CI never times anything.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Goal:
    name: str  # what is measured, e.g. "save a deal (new, 200 deals)"
    value: float  # the figure
    unit: str  # "ms", "s", "KB", "MiB", "queries", ...
    limit: float | None  # the goal: value must be at most this; None: printed, no goal
    database: str = ""  # "sqlite", "postgresql" or "" when no database is involved
    trivial_ms: float | None = None  # the trivial view's time in the same run, for ratios

    @property
    def met(self) -> bool | None:
        return None if self.limit is None else self.value <= self.limit

    @property
    def ratio(self) -> float | None:
        if self.trivial_ms and self.unit == "ms":
            return self.value / self.trivial_ms
        return None


GOALS: list[Goal] = []


def record(
    name: str,
    value: float,
    unit: str,
    limit: float | None,
    *,
    trivial_ms: float | None = None,
    database: str | None = None,
) -> Goal:
    """Keep one measured goal for the summary (`limit` None: a figure the issue sets no goal
    for there, printed beside the ones it does). `database` defaults to the current connection's
    vendor when Django is set up, else ""."""
    if database is None:
        try:
            from django.db import connection

            database = connection.vendor
        except Exception:  # Django not set up: a goal without a database (e.g. seating)
            database = ""
    goal = Goal(name, value, unit, limit, database=database, trivial_ms=trivial_ms)
    GOALS.append(goal)
    return goal


def summary() -> str:
    lines = [
        f"{'goal':<52} {'db':<10} {'figure':>10} {'goal':>10} {'× trivial':>9}  met",
    ]
    for g in GOALS:
        ratio = f"{g.ratio:8.1f}×" if g.ratio is not None else " " * 9
        limit = f"≤{g.limit:>6g} {g.unit:<2}" if g.limit is not None else f"{'none':>10}"
        met = {True: "yes", False: "NO", None: "-"}[g.met]
        lines.append(
            f"{g.name:<52} {g.database:<10} {g.value:>7.1f} {g.unit:<2} {limit} {ratio}  {met}"
        )
    return "\n".join(lines)


def dump(path: str) -> None:
    """Write the goals recorded so far to `path` (JSON), for a parent `bench/run.py`."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump([asdict(g) for g in GOALS], f)


def load(path: str) -> None:
    """Add the goals a child `bench/run.py` wrote with `dump`."""
    with open(path, encoding="utf-8") as f:
        GOALS.extend(Goal(**g) for g in json.load(f))
