"""Saving a deal from a table's share link: time and SQL queries, as a ratio to a trivial view
measured in the same run (issue 12: at most 8 queries whatever the table's size; at most 8× a
trivial view on SQLite, aim for 5×; on PostgreSQL the ratio is printed, without a goal). A new
deal and a correction, at a casual table and at a tournament table, each at 2 deals and at a
full sheet (200 deals casual; 20 of a tournament round's 24 at most); also the poll that finds
nothing new.

The requests go through the whole middleware stack with Django's test client, posted as a
phone's browser posts the deal form (urlencoded, with the page's hidden entry number). The
trivial view (/favicon.ico, a redirect) is timed interleaved with the measured requests, so a
machine busy with other work slows both alike: the ratio is the figure to judge. Under heavy
load the longer request is preempted more often, so the ratio of CPU times is printed too.
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import cycle
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.django_env import test_database  # noqa: E402

REPEAT = 40
GOAL_QUERIES = 8
GOAL_RATIO = 8
#: the database the issue sets GOAL_RATIO on
RATIO_GOAL_ON = "sqlite"
#: how a phone's browser sends the deal form (no file field: never multipart)
FORM = "application/x-www-form-urlencoded"
#: tournament tables measured in turn (a round has at most 24 deals a table)
TOURNAMENT_TABLES = 12


def queries(call) -> int:
    """Statements of one request, without BEGIN, COMMIT and SAVEPOINTs."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        call()
    control = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
    return sum(1 for q in ctx.captured_queries if not q["sql"].startswith(control))


def timed(call, trivial, repeat: int = REPEAT) -> tuple[float, float, float]:
    """(median ms of `call`, median ms of `trivial`, ratio of their median CPU times), the two
    timed in turn. On a machine busy with other work a request of a few ms is preempted more
    often than one of a fraction of a ms: the CPU time ratio shows what the code costs."""
    times, base, cpu, cpu_base = [], [], [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        trivial()
        base.append(time.perf_counter() - start)
        cpu_base.append(time.process_time() - start_cpu)
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    ratio = statistics.median(cpu) / max(statistics.median(cpu_base), 1e-9)
    return statistics.median(times) * 1000, statistics.median(base) * 1000, ratio


def fill(game, count: int) -> None:
    from tarotclub.games import selectors
    from tarotclub.kinds.tarot import services as tarot

    players = selectors.seat_players(game)
    for i in range(game.deals.count(), count):
        dealer = tarot.dealer_for(game, i + 1, players)
        taker = [p for p in players if p.pk != dealer.pk][i % (len(players) - 1)]
        tarot.deal_add(
            game=game, data=tarot.DealInput(taker=taker.pk, contract="prise", bouts=1, points=56)
        )


def tables():
    """(label, games measured in turn, deals already on each sheet)."""
    from tarotclub.demo.builders import make_tournament
    from tarotclub.games.services import game_start
    from tarotclub.players.services import player_create
    from tarotclub.tournaments import services
    from tarotclub.tournaments.models import Table

    players = [player_create(name=n) for n in ("Anne", "Bram", "Chloé", "Dirk")]
    for size in (2, 200):
        game = game_start(players=players, first_dealer=0)
        fill(game, size)
        yield "casual", [game], size
    t, _ = make_tournament(4 * TOURNAMENT_TABLES, rounds=1, deals=24)
    services.tournament_start(tournament=t)
    games = [table.game for table in Table.objects.filter(tournament=t, round=1)]
    for size in (2, 20):  # each table gets REPEAT / TOURNAMENT_TABLES + 1 saves more: <= 24
        for game in games:
            fill(game, size)
        yield "tournament", games, size


def main() -> None:
    from bench.goals import record

    with test_database():
        from django.db import connection
        from django.test import Client

        client = Client()
        for _ in range(50):  # warm up
            client.get("/favicon.ico")
        print(
            f"Saving a deal from the share link ({connection.vendor}), median of {REPEAT}, "
            "the trivial view (/favicon.ico) timed in turn"
        )
        print(
            f"  {'table':<10} {'deals':>5} {'request':<11} {'ms':>7} {'trivial':>7}"
            f" {'× trivial':>9} {'× (CPU)':>8} {'queries':>7}   goal"
        )
        # The time goal is the "at most 8× a trivial view on SQLite". On PostgreSQL,
        # where each of a save's round trips counts, its goals are the queries (here) and the
        # fifty phones' p95 and p99 (bench.load): the ratio is printed there without a goal.
        ratio_goal = GOAL_RATIO if connection.vendor == RATIO_GOAL_ON else None
        for label, games, size in tables():
            for what, ms, trivial, cpu_ratio, count, goal in measure(client, games):
                ratio = ms / trivial
                aim = f"≤ {goal} queries"
                if goal > 1:
                    aim += f", ≤ {ratio_goal}×" if ratio_goal else " (no × goal here)"
                print(
                    f"  {label:<10} {size:>5} {what:<11} {ms:7.2f} {trivial:7.2f}"
                    f" {ratio:8.1f}× {cpu_ratio:7.1f}× {count:>7}   {aim}"
                )
                if goal > 1:
                    name = f"save: {what}, {label} table, {size} deals"
                    limit = trivial * ratio_goal if ratio_goal else None
                    record(name, ms, "ms", limit, trivial_ms=trivial)
                    record(f"{name} (CPU time, × trivial)", cpu_ratio, "×", ratio_goal)
                    record(f"{name} (queries)", count, "queries", goal)


def measure(client, games):
    from django.urls import reverse

    from tarotclub.games import selectors
    from tarotclub.games.models import Game
    from tarotclub.kinds.tarot.models import Deal

    def trivial():
        client.get("/favicon.ico")

    state = {}
    for game in games:
        taker = selectors.seat_players(game)[1].pk
        state[game.pk] = {
            "post": {"taker": taker, "contract": "garde", "bouts": "2", "points": "49"}
            | {"points_side": "attack", "chelem": "none"},
            "new": reverse("games:deal_new", args=[game.token]),
            "edit": reverse("games:deal_edit", args=[game.token, 1]),
            "number": Deal.objects.filter(game=game).count() + 1,
            "version": Deal.objects.get(game=game, number=1).version,
        }
    turn_new, turn_edit = cycle(games), cycle(games)

    def new():
        s = state[next(turn_new).pk]
        response = client.post(s["new"], urlencode({**s["post"], "number": s["number"]}), FORM)
        client.cookies.pop("messages", None)  # nobody reads them: do not let them pile up
        assert response.status_code == 302, response.status_code
        s["number"] += 1

    def correct():
        s = state[next(turn_edit).pk]
        response = client.post(s["edit"], urlencode({**s["post"], "version": s["version"]}), FORM)
        client.cookies.pop("messages", None)
        assert response.status_code == 302, response.status_code
        s["version"] += 1

    game = games[0]
    poll_url = reverse("games:poll", args=[game.token])

    def poll():
        rev = Game.objects.filter(pk=game.pk).values_list("revision", flat=True)[0]
        return lambda: client.get(f"{poll_url}?rev={rev}")

    rows = []
    for what, call, goal in (
        ("new deal", new, GOAL_QUERIES),
        ("correction", correct, GOAL_QUERIES),
    ):
        ms, base, cpu_ratio = timed(call, trivial)
        rows.append((what, ms, base, cpu_ratio, queries(call), goal))
    ms, base, cpu_ratio = timed(poll(), trivial)
    rows.append(("poll, same", ms, base, cpu_ratio, queries(poll()), 1))
    return rows


if __name__ == "__main__":
    main()
