"""Saving a deal from a table's share link: time and SQL queries, as a ratio to a trivial view
measured in the same run (issue 12: at most 8 queries whatever the table's size; at most 8× a
trivial view on SQLite, aim for 5×). Also a correction and the poll that finds nothing new.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.django_env import test_database  # noqa: E402

REPEAT = 20
GOAL_QUERIES = 8
GOAL_RATIO = 8


def median_ms(call, repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def queries(call) -> int:
    """Statements of one request, without BEGIN, COMMIT and SAVEPOINTs."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        call()
    control = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
    return sum(1 for q in ctx.captured_queries if not q["sql"].startswith(control))


def fill(game, count: int) -> None:
    from tarotclub.games import selectors
    from tarotclub.kinds.tarot import services as tarot

    players = selectors.seat_players(game)
    for i in range(count):
        dealer = tarot.dealer_for(game, i + 1, players)
        taker = [p for p in players if p.pk != dealer.pk][i % (len(players) - 1)]
        tarot.deal_add(
            game=game, data=tarot.DealInput(taker=taker.pk, contract="prise", bouts=1, points=56)
        )


def tables():
    """(label, game, deals already on the sheet) for a casual table and a tournament one."""
    from tarotclub.demo.builders import make_tournament
    from tarotclub.games.services import game_start
    from tarotclub.players.services import player_create
    from tarotclub.tournaments import services
    from tarotclub.tournaments.models import Table

    players = [player_create(name=n) for n in ("Anne", "Bram", "Chloé", "Dirk")]
    for size in (2, 200):
        game = game_start(players=players, first_dealer=0)
        fill(game, size)
        yield "casual", game, size
    t, _ = make_tournament(4, rounds=1, deals=24)  # saves: 2 + 20 + 1
    services.tournament_start(tournament=t)
    game = Table.objects.get(tournament=t, round=1).game
    fill(game, 2)
    yield "tournament", game, 2  # 24 deals at most: room for the measured saves


def main() -> None:
    with test_database():
        from django.db import connection
        from django.test import Client

        client = Client()
        trivial = median_ms(lambda: client.get("/favicon.ico"), 200)
        print(f"Saving a deal from the share link ({connection.vendor}), median of {REPEAT}")
        print(f"  trivial view (/favicon.ico)  {trivial:7.2f} ms")
        print(
            f"  {'table':<10} {'deals':>5} {'request':<11} {'ms':>7} {'× trivial':>9}"
            f" {'queries':>7}   goal"
        )
        for label, game, size in tables():
            measure_table(client, label, game, size, trivial)


def measure_table(client, label: str, game, size: int, trivial: float) -> None:
    from django.urls import reverse

    from tarotclub.games import selectors
    from tarotclub.games.models import Game

    token = game.token
    taker = selectors.seat_players(game)[1].pk
    post = {"taker": taker, "contract": "garde", "bouts": "2", "points": "49"}
    post.update({"points_side": "attack", "chelem": "none"})
    new_url = reverse("games:deal_new", args=[token])
    edit_url = reverse("games:deal_edit", args=[token, 1])
    poll_url = reverse("games:poll", args=[token])

    def new():
        response = client.post(new_url, post)
        client.cookies.pop("messages", None)  # nobody reads them: do not let them pile up
        assert response.status_code == 302, response.status_code

    version = {"now": Game.objects.get(pk=game.pk).deals.get(number=1).version}

    def correct():
        response = client.post(edit_url, {**post, "version": version["now"]})
        client.cookies.pop("messages", None)
        assert response.status_code == 302, response.status_code
        version["now"] += 1

    def poll():
        rev = Game.objects.filter(pk=game.pk).values_list("revision", flat=True)[0]
        return lambda: client.get(f"{poll_url}?rev={rev}")

    rows = [
        ("new deal", median_ms(new), queries(new), GOAL_QUERIES),
        ("correction", median_ms(correct), queries(correct), GOAL_QUERIES),
        ("poll, same", median_ms(poll()), queries(poll()), 1),
    ]
    for what, ms, count, goal in rows:
        ratio = ms / trivial
        aim = f"≤ {goal} queries" + (f", ≤ {GOAL_RATIO}×" if goal > 1 else "")
        print(f"  {label:<10} {size:>5} {what:<11} {ms:7.2f} {ratio:8.1f}× {count:>7}   {aim}")


if __name__ == "__main__":
    main()
