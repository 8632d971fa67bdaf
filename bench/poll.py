"""A score sheet's poll after a change, at 2 and 2,000 deals: time, bytes and SQL queries, as
a ratio to a trivial view measured in the same run (issue 12: a change sends only what
changed, at a cost independent of the number of deals; "nothing changed" stays one query).

The goal is the issue's: the cost of a poll after a change does not grow with the deals on
the sheet, so the figure recorded is the time at 2,000 deals over the time at 2 (at most
1.25: the same, within the run's noise), beside the same number of queries; the times
themselves are printed with their ratio to the trivial view. The bytes are the answer on the
wire (gzip, as a phone asks for it), against the 30 KB of a page's first load. The 2,000-deal
sheet is built with bulk inserts (scores from `scoring`, as the services store them), then
changed through the services. The two sizes' polls are timed in turn, sample by sample, so
that this machine's ups and downs during the run fall on both alike.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.django_env import test_database  # noqa: E402
from bench.load import sheet_actions  # noqa: E402

REPEAT = 20
GOAL_GROWTH = 1.25  # poll at 2,000 deals over the poll at 2 deals
GOAL_KB = 30
SIZES = (2, 2000)


def median_ms(call, repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def queries(call) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        call()
    return len(ctx.captured_queries)


def main() -> None:
    with test_database():
        from django.db import connection
        from django.test import Client
        from django.urls import reverse

        from bench.goals import record
        from tarotclub.demo.history import sheet_deal, tarot_sheet
        from tarotclub.games.models import Game
        from tarotclub.kinds.tarot import services as tarot
        from tarotclub.players.services import player_create

        client = Client()
        trivial = median_ms(lambda: client.get("/favicon.ico"), 200)
        db = connection.vendor
        print(f"A sheet's poll after a change ({db}), median of {REPEAT}")
        print(f"  trivial view (/favicon.ico)  {trivial:7.2f} ms")
        print(
            f"  {'deals':>5} {'poll':<16} {'ms':>7} {'× trivial':>9} {'queries':>7}"
            f" {'bytes':>8} {'on wire':>8}   goal"
        )
        players = [player_create(name=n) for n in ("Anne", "Bram", "Chloé", "Dirk")]
        games = {size: tarot_sheet(players, deals=size) for size in SIZES}
        urls = {size: reverse("games:poll", args=[games[size].token]) for size in SIZES}
        # the actions below the sheet a phone shows (its state's `a`), sent with its polls
        actions = {}
        for size in SIZES:
            sheet = client.get(reverse("games:sheet", args=[games[size].token]))
            actions[size] = sheet_actions(sheet.content)

        def answer(url, params, gzip=False):
            extra = {"HTTP_ACCEPT_ENCODING": "gzip"} if gzip else {}
            return lambda: client.get(url, params, **extra)

        def measure(params_of) -> dict[int, tuple]:
            """Each size's poll with `params_of(size)`, timed in turn: the machine's ups and
            downs during the run fall on both sizes alike (their ratio is the goal)."""
            calls = {size: answer(urls[size], params_of(size)) for size in SIZES}
            times: dict[int, list[float]] = {size: [] for size in SIZES}
            for _ in range(REPEAT):
                for size in SIZES:
                    start = time.perf_counter()
                    calls[size]()
                    times[size].append(time.perf_counter() - start)
            return {
                size: (
                    statistics.median(times[size]) * 1000,
                    queries(calls[size]),
                    len(calls[size]().content),
                    len(answer(urls[size], params_of(size), gzip=True)().content),
                )
                for size in SIZES
            }

        rows = {size: [] for size in SIZES}
        revs = {size: games[size].revision for size in SIZES}

        def state(size: int, shown: int) -> dict:
            return {"rev": revs[size], "n": shown, "a": actions[size]}

        for size, row in measure(lambda size: state(size, size)).items():
            rows[size].append(("nothing changed", row))
        for size in SIZES:
            tarot.deal_add(game=games[size], data=sheet_deal(games[size], players, size + 1))
        for size, row in measure(lambda size: state(size, size)).items():
            rows[size].append(("after a new deal", row))
        for size in SIZES:
            game = Game.objects.get(pk=games[size].pk)
            revs[size] = game.revision
            first = game.deals.get(number=1)
            data = tarot.DealInput(taker=first.taker_id, contract="garde", bouts=2, points=60)
            tarot.deal_correct(deal=first, data=data, expected_version=first.version)
        for size, row in measure(lambda size: state(size, size + 1)).items():
            rows[size].append(("after a correction", row))
        seen: dict[tuple[int, str], tuple[float, int]] = {}
        for size in SIZES:
            for what, (ms, count_q, plain, wire) in rows[size]:
                goal = "1 query, 204" if what == "nothing changed" else "the same at any size"
                seen[size, what] = (ms, count_q)
                print(
                    f"  {size:>5} {what:<18} {ms:7.2f} {ms / trivial:8.1f}× {count_q:>7}"
                    f" {plain:>8} {wire:>8}   {goal}"
                )
                if what == "nothing changed":
                    record(
                        f"poll, nothing changed ({size} deals)",
                        count_q,
                        "queries",
                        1,
                        database=db,
                    )
                    continue
                record(
                    f"poll {what} ({size} deals), on the wire",
                    round(wire / 1024, 1),
                    "KB",
                    GOAL_KB,
                    database=db,
                )
        small, big = SIZES
        for what in ("after a new deal", "after a correction"):
            (ms_small, q_small), (ms_big, q_big) = seen[small, what], seen[big, what]
            record(
                f"poll {what}: {big:,} deals over {small} (time)",
                round(ms_big / ms_small, 2),
                "×",
                GOAL_GROWTH,
                database=db,
            )
            record(
                f"poll {what}: queries at {big:,} deals (at {small}: {q_small})",
                q_big,
                "queries",
                q_small,
                database=db,
            )


if __name__ == "__main__":
    main()
