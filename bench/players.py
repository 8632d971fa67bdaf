"""Time and SQL queries of a player's page (issue 13: 1,000 deals at most 100 ms)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.django_env import test_database  # noqa: E402

LIMIT_MS = 100


def build(deals: int, tag: str):
    from tarotclub.demo.history import tarot_history
    from tarotclub.players.services import player_create

    players = [
        player_create(name=f"{name} {tag}") for name in ("Anne", "Bram", "Chloé", "Dirk", "Eva")
    ]
    tarot_history(players, deals=deals)
    return players[0]


def best(call, repeat: int = 7) -> float:
    fastest = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def main() -> None:
    with test_database():
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from bench import goals

        user = get_user_model().objects.create_user("bench-member", password="pw-bench-1")
        client = Client()
        client.force_login(user)
        print("A player's page (games, tournaments, French Tarot statistics, two charts)")
        print(f"{'deals':>7} {'build s':>8} {'page ms':>8} {'queries':>8}")
        measured = []
        for deals in (10, 1000):
            start = time.perf_counter()
            player = build(deals, str(deals))
            built = time.perf_counter() - start
            url = f"/players/{player.pk}/"
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            queries = len(ctx.captured_queries)  # before the next request resets the log
            seconds = best(lambda url=url: client.get(url))
            print(f"{deals:>7} {built:>8.1f} {seconds * 1000:>8.1f} {queries:>8}")
            measured.append(seconds)
        trivial = best(lambda: client.get("/favicon.ico"))
        goals.record(
            "player page (1,000 deals)",
            measured[-1] * 1000,
            "ms",
            LIMIT_MS,
            trivial_ms=trivial * 1000,
        )


if __name__ == "__main__":
    main()
