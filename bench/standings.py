"""Time and SQL queries of a finished 200-player tournament's standings page."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.django_env import test_database  # noqa: E402


def build(n_players: int, rounds: int = 5, deals: int = 4):
    from tarotclub.demo.builders import make_tournament, play_round
    from tarotclub.tournaments import services

    t, _ = make_tournament(n_players, rounds=rounds, deals=deals)
    t = services.tournament_start(tournament=t)
    for _ in range(rounds):
        play_round(t)
        t = services.tournament_next_round(tournament=t)
    return t


def measure(t, repeat: int = 5) -> tuple[float, int, int]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    url = f"/tournaments/{t.pk}/"
    best = float("inf")
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = client.get(url)
            best = min(best, time.perf_counter() - start)
        assert response.status_code == 200
    return best, len(ctx.captured_queries), len(response.content)


def main() -> None:
    with test_database():
        print("Standings page of a finished tournament (5 rounds of 4 deals)")
        print(f"{'players':>8} {'deals':>7} {'build s':>8} {'page ms':>8} {'queries':>8}")
        for n in (16, 200):
            start = time.perf_counter()
            t = build(n)
            built = time.perf_counter() - start
            from tarotclub.kinds.tarot.models import Deal

            deals = Deal.objects.filter(game__tournament_table__tournament=t).count()
            seconds, queries, _size = measure(t)
            print(f"{n:>8} {deals:>7} {built:>8.1f} {seconds * 1000:>8.1f} {queries:>8}")


if __name__ == "__main__":
    main()
