"""A federation final from start to finish: 2,000 players, 5 rounds (issue 12, "Size").

Registration in pastes of 250 names (the director's bulk form, players already on the roster),
the start (every round planned, round 1 seated: 500 tables), then for each round one deal at
every table through the tarot service, every table confirmed, and the next round (history
read, the rounds to come planned again, the new round seated); after the 5th round the
tournament is finished. Prints the time of each step; records as goals that no step failed
and the planner's time at the slowest step (issue 12: seating 2,000 players in at most 2 s).
On SQLite by default, on the database DATABASE_URL names when it is set (bench/django_env.py
makes a throw-away database there).

One deal a table keeps the run short; the deals are not what this measures (bench/save.py
times a deal saved from a phone). ``python bench/size.py [players]`` runs another size.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import goals  # noqa: E402
from bench.django_env import test_database  # noqa: E402

PLAYERS = 2000
ROUNDS = 5
DEALS = 1
PASTE = 250  # lines in one paste (tournaments.bulk.MAX_LINES)
GOAL_SEATING_S = 2.0  # issue 12: seating 2,000 players takes at most 2 s (the planner)


class Steps:
    """Each step timed and printed; the first one that fails stops the run (and is counted)."""

    def __init__(self) -> None:
        self.times: list[tuple[str, float]] = []
        self.failed = 0

    def time(self, label: str, call):
        if self.failed:
            return None
        start = time.perf_counter()
        try:
            result = call()
        except Exception as e:  # the goal is that none fails: say which, and stop
            self.failed += 1
            print(f"  {label:<44} FAILED: {type(e).__name__}: {e}"[:300], flush=True)
            return None
        elapsed = time.perf_counter() - start
        self.times.append((label, elapsed))
        print(f"  {label:<44} {elapsed:7.2f} s", flush=True)
        return result


def main(n_players: int = PLAYERS) -> None:
    with test_database():
        from django.db import connection

        from tarotclub.tournaments import seating

        # The planner's own time in each director's step (services call seating.plan_rounds).
        planner: list[float] = []
        plan_rounds = seating.plan_rounds

        def timed_plan_rounds(*args, **kwargs):
            start = time.perf_counter()
            try:
                return plan_rounds(*args, **kwargs)
            finally:
                planner.append(time.perf_counter() - start)

        seating.plan_rounds = timed_plan_rounds
        try:
            run(n_players, connection.vendor, planner)
        finally:
            seating.plan_rounds = plan_rounds


def run(n_players: int, vendor: str, planner: list[float]) -> None:
    import datetime as dt

    from tarotclub.demo.builders import play_table
    from tarotclub.games.models import Seat
    from tarotclub.kinds.tarot.models import Deal
    from tarotclub.players.models import Player
    from tarotclub.tournaments import bulk, services
    from tarotclub.tournaments.models import Status, Table

    print(f"A tournament of {n_players} players, {ROUNDS} rounds, {DEALS} deal a table ({vendor})")
    steps = Steps()
    t = services.tournament_create(
        name="Final", date=dt.date(2026, 12, 1), rounds=ROUNDS, deals_per_round=DEALS
    )
    players = steps.time(
        f"roster: {n_players} players (bulk insert)",
        lambda: Player.objects.bulk_create(
            Player(name=f"Player {i:05d}", licence=f"L{i:06d}") for i in range(n_players)
        ),
    )

    def register():
        for i in range(0, n_players, PASTE):
            paste = "\n".join(f"{p.name};{p.licence}" for p in players[i : i + PASTE])
            lines, errors = bulk.parse(paste)
            assert not errors, errors[:3]
            services.entries_register_bulk(tournament=t, lines=lines)

    steps.time(f"register ({-(-n_players // PASTE)} pastes of {PASTE})", register)
    t = steps.time("start: plan, seat round 1", lambda: services.tournament_start(tournament=t))
    director = [steps.times[-1][1]] if t else []
    for rnd in range(1, ROUNDS + 1):
        if steps.failed:
            break
        tables = list(Table.objects.filter(tournament=t, round=rnd).select_related("game"))

        def play(tables=tables):
            for table in tables:
                play_table(table)

        steps.time(f"round {rnd}: a deal at {len(tables)} tables, confirmed", play)
        label = "finish" if rnd == ROUNDS else f"next round: plan, seat round {rnd + 1}"
        t = steps.time(label, lambda t=t: services.tournament_next_round(tournament=t)) or t
        if not steps.failed:
            director.append(steps.times[-1][1])
    if not steps.failed:
        assert t.status == Status.FINISHED, t.status
        seats = Seat.objects.filter(game__tournament_table__tournament=t).count()
        deals = Deal.objects.filter(game__tournament_table__tournament=t).count()
        assert seats == n_players * ROUNDS, seats
        assert deals == DEALS * Table.objects.filter(tournament=t).count(), deals
        total = sum(s for _, s in steps.times[1:])  # without the roster's bulk insert
        print(f"  {'total (registration to finished)':<44} {total:7.2f} s")
        print(f"  {seats} seats, {deals} deals; slowest director's step {max(director):.2f} s")
    print(f"  planner (plan_rounds) at each step: {', '.join(f'{x:.2f}' for x in planner)} s")
    goals.record(
        f"{n_players} players, {ROUNDS} rounds: steps failed", steps.failed, "", 0, database=vendor
    )
    if planner:
        goals.record(
            f"seating {n_players} players in the tournament",
            max(planner),
            "s",
            GOAL_SEATING_S,
            database=vendor,
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else PLAYERS)
