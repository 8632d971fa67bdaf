"""Ratings: rating a whole season again, and bringing it up to date after one correction.

Issue 13: a season of 5,000 games rated again in at most 5 s. The season is bulk-inserted
(40 players, 5,000 finished four-player games of 4 deals each, zero-sum made-up scores: the
ratings read only the totals), then rated from scratch (`ratings_recompute`), then one game in
the middle of the season is changed and the ratings brought up to date (everything from that
game on is rated again), and the leaderboard page is timed.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import goals  # noqa: E402
from bench.django_env import test_database  # noqa: E402

GAMES = 5_000
PLAYERS = 40
DEALS = 4
GOAL_S = 5.0


def build(rnd: random.Random):
    import datetime as dt

    from django.utils import timezone

    from tarotclub.games.models import Game, Seat
    from tarotclub.kinds.tarot.models import Deal, DealLine
    from tarotclub.players.models import Player

    club = Player.objects.bulk_create(
        Player(name=f"Player {i:03}", name_key=f"player {i:03}") for i in range(PLAYERS)
    )
    start = timezone.now() - dt.timedelta(days=365)
    made = Game.objects.bulk_create(
        Game(kind="tarot", finished_at=start, revision=DEALS + 1) for _ in range(GAMES)
    )
    for i, game in enumerate(made):  # a game every ~1.75 hours over the year
        game.created_at = start + dt.timedelta(minutes=105 * i)
    Game.objects.bulk_update(made, ["created_at"], batch_size=500)
    seats, deals, tables = [], [], []
    for game in made:
        table = rnd.sample(club, 4)
        tables.append(table)
        seats += [Seat(game=game, player=p, position=i) for i, p in enumerate(table)]
        for n in range(1, DEALS + 1):
            deals.append(
                Deal(
                    game=game,
                    number=n,
                    dealer=table[(n - 1) % 4],
                    taker=table[n % 4],
                    contract="garde",
                    bouts=2,
                    points_half=100,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=1000)
    Deal.objects.bulk_create(deals, batch_size=1000)
    lines = []
    for d, table in zip(deals, (t for t in tables for _ in range(DEALS)), strict=True):
        score = rnd.randrange(-40, 41) * 10
        taker = d.taker_id
        for p in table:
            lines.append(DealLine(deal=d, player=p, score=3 * score if p.pk == taker else -score))
    DealLine.objects.bulk_create(lines, batch_size=2000)
    return made


def main() -> None:
    with test_database():
        from django.test import Client

        from tarotclub.games.models import Game
        from tarotclub.kinds.tarot.models import DealLine
        from tarotclub.ratings import selectors, services
        from tarotclub.ratings.models import RatingEvent

        rnd = random.Random(13)
        t0 = time.perf_counter()
        made = build(rnd)
        built = time.perf_counter() - t0
        print(f"A season of {GAMES:,} games ({PLAYERS} players, {DEALS} deals a game)")
        print(f"  built (bulk inserts)                 {built:7.2f} s")

        t0 = time.perf_counter()
        done = services.ratings_refresh(full=True)
        full = time.perf_counter() - t0
        assert done.games == GAMES and RatingEvent.objects.count() == 4 * GAMES
        print(f"  rated from scratch                   {full:7.2f} s  goal ≤ {GOAL_S:g} s")
        goals.record(f"ratings: a season of {GAMES:,} games rated again", full, "s", GOAL_S)

        # a correction in the middle of the season: half of it is rated again
        middle = made[GAMES // 2]
        line = DealLine.objects.filter(deal__game=middle).order_by("pk").first()
        DealLine.objects.filter(pk=line.pk).update(score=line.score + 10)
        Game.objects.filter(pk=middle.pk).update(revision=middle.revision + 1)
        t0 = time.perf_counter()
        done = services.ratings_refresh()
        half = time.perf_counter() - t0
        print(
            f"  after a correction in the middle     {half:7.2f} s"
            f"  ({done.games:,} games rated again)"
        )
        t0 = time.perf_counter()
        assert services.ratings_refresh().games == 0
        idle = time.perf_counter() - t0
        print(f"  nothing changed (the staleness check) {idle * 1000:6.1f} ms")
        assert selectors.stale_from() is None

        from django.contrib.auth import get_user_model

        user = get_user_model().objects.create_user("bench", password="bench-pw-1")
        client = Client()
        client.force_login(user)
        trivial = min(_timed(lambda: client.get("/favicon.ico")) for _ in range(100))
        page = min(_timed(lambda: client.get("/ratings/")) for _ in range(10))
        print(
            f"  leaderboard page ({PLAYERS} players)       {page * 1000:6.1f} ms"
            f"  ({page / trivial:.0f}× a trivial view, {trivial * 1000:.2f} ms)"
        )


def _timed(call) -> float:
    start = time.perf_counter()
    response = call()
    assert response.status_code in (200, 302), response.status_code
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
