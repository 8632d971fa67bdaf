"""Issue 12: the standings, the projector (page and screen fragment) and the director's page
of a tournament at 200 and 2,000 players: time and SQL queries of the first read of a
revision (cold: nothing cached), of a read again (warm: the fragment from the cache) and of a
conditional read of the browser's copy (304), with a trivial view measured in the same run.

Times are medians of wall time (the goals) and, printed beside them, of the process's CPU
time: on a machine shared with other work the wall time also counts waits for a core.

Goals: each page at most 30 ms at 200 players and 300 ms at 2,000 (cold, that is rendered
anew; the issue's figure); a repeated read "near nothing", taken here as at most a tenth of
that (3 ms at 200 players, 30 ms at 2,000), warm and 304.

The tournaments are built with bulk inserts, not the services deal by deal (2,000 players
through `play_round` would take minutes): the players and entries in bulk, the rounds seated
by the services (`tournament_start`, `tournament_next_round`), each table's deals and score
lines (zero-sum, varied) in bulk, its sheet locked, its revision moved and its tally current
(`Game.tally`) as the deals' writes and confirming leave them.
Rounds 1-4 are played and confirmed; in round 5 half the tables have their deals, unconfirmed:
the director's page shows a round under way. On PostgreSQL the statistics are then gathered
(ANALYZE), as autovacuum does on a live server within a minute of such a load: planned
without them, a freshly bulk-loaded table gets nested loops a server in use never runs (the
director's roster query took 2.0 ms instead of 0.65, and the standings page 3-8 ms more).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.django_env import test_database  # noqa: E402

SIZES = (200, 2000)
ROUNDS, DEALS = 5, 4
PAGE_GOAL_MS = {200: 30, 2000: 300}
REPEATED_SHARE = 0.1  # a repeated read: at most a tenth of the page's goal


def _play_tables(tables, deals: int, *, lock: bool) -> None:
    from django.db.models import F

    from tarotclub.games.models import Game, Seat
    from tarotclub.kinds.tarot.models import Deal, DealLine

    games = [x.game_id for x in tables]
    seats: dict[int, list[int]] = {}
    for game, player in (
        Seat.objects.filter(game_id__in=games)
        .order_by("game", "position")
        .values_list("game_id", "player_id")
    ):
        seats.setdefault(game, []).append(player)
    new = []
    for g in games:
        players = seats[g]
        for n in range(1, deals + 1):
            dealer = players[(n - 1) % len(players)]
            taker = players[n % len(players)]
            new.append(
                Deal(
                    game_id=g,
                    number=n,
                    dealer_id=dealer,
                    taker_id=taker,
                    contract="prise",
                    bouts=1,
                    points_half=2 * (40 + (g * 7 + n * 13) % 40),
                    won=True,
                )
            )
    Deal.objects.bulk_create(new, batch_size=500)
    lines = []
    totals: dict[int, dict[str, int]] = {g: {} for g in games}
    for deal in Deal.objects.filter(game_id__in=games).values_list(
        "pk", "game_id", "taker_id", "points_half"
    ):
        pk, g, taker, half = deal
        unit = 25 + half // 4
        others = [p for p in seats[g] if p != taker]
        made = [DealLine(deal_id=pk, player_id=taker, score=unit * len(others))]
        made.extend(DealLine(deal_id=pk, player_id=p, score=-unit) for p in others)
        for line in made:
            key = str(line.player_id)
            totals[g][key] = totals[g].get(key, 0) + line.score
        lines.extend(made)
    DealLine.objects.bulk_create(lines, batch_size=1000)
    # what the services leave: the sheet's revision moved (and locked when confirmed), and the
    # game's tally current at that revision (`Game.tally`: the deals counted, each total)
    bump = deals + int(lock)  # (a bool in SQL is no number on PostgreSQL)
    Game.objects.filter(pk__in=games).update(revision=F("revision") + bump, locked=lock)
    tallied = [
        Game(pk=g, tally={"rev": revision, "count": deals, "totals": totals[g]})
        for g, revision in Game.objects.filter(pk__in=games).values_list("pk", "revision")
    ]
    Game.objects.bulk_update(tallied, ["tally"], batch_size=500)


def build(n_players: int):
    import datetime as dt

    from django.db import connection

    from tarotclub.players.models import Player
    from tarotclub.tournaments import services
    from tarotclub.tournaments.models import Entry, Table

    t = services.tournament_create(
        name=f"Cup {n_players}", date=dt.date(2026, 11, 29), rounds=ROUNDS, deals_per_round=DEALS
    )
    players = Player.objects.bulk_create(
        Player(name=f"Player {n_players}-{i:05d}", licence=f"L{i:05d}") for i in range(n_players)
    )
    Entry.objects.bulk_create(Entry(tournament=t, player=p) for p in players)
    t = services.tournament_start(tournament=t)
    for _ in range(ROUNDS - 1):
        _play_tables(
            list(Table.objects.filter(tournament=t, round=t.current_round)), DEALS, lock=True
        )
        t = services.tournament_next_round(tournament=t)
    last = list(Table.objects.filter(tournament=t, round=t.current_round).order_by("number"))
    _play_tables(last[: len(last) // 2], DEALS, lock=False)
    t.refresh_from_db()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return t


def median_ms(call, repeat: int) -> float:
    return timed(call, repeat)[0]


def timed(call, repeat: int) -> tuple[float, float]:
    """Medians of wall time and of this process's CPU time, in ms. The CPU time says what the
    wall time would be on an idle machine (SQLite runs in the process): on a loaded one the
    wall time also counts the waits for a core."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def count_queries(call) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        call()
    return len(ctx.captured_queries)


def measure_page(client, url: str, repeat: int) -> dict:
    from django.core.cache import cache

    first = client.get(url)
    assert first.status_code == 200, (url, first.status_code)
    etag = first["ETag"]

    def cold():
        cache.clear()
        response = client.get(url)
        assert response.status_code == 200

    def warm():
        response = client.get(url)
        assert response.status_code == 200

    def not_modified():
        response = client.get(url, headers={"If-None-Match": etag})
        assert response.status_code == 304

    out = {}
    for mode, call in (("cold", cold), ("warm", warm), ("304", not_modified)):
        if mode != "cold":
            warm()  # the cache holds this revision
        wall, cpu = timed(call, repeat)
        out[mode] = (wall, count_queries(call))
        out[f"{mode} cpu"] = cpu
    out["kb"] = len(first.content) / 1024
    return out


def main() -> None:
    with test_database():
        from django.contrib.auth import get_user_model
        from django.db import connection
        from django.test import Client
        from django.urls import reverse

        from bench.goals import record

        director = get_user_model().objects.create_user("bench-director", is_staff=True)
        public, directing = Client(), Client()
        directing.force_login(director)
        for c in (public, directing):
            c.get("/")  # the CSRF cookie once, as a browser has it
        trivial = median_ms(lambda: public.get("/favicon.ico"), 200)
        vendor = connection.vendor
        print(f"Tournament pages ({vendor}): {ROUNDS} rounds of {DEALS} deals, round 5 under way")
        if vendor == "postgresql":
            print("  (statistics gathered after the bulk build: ANALYZE, as autovacuum does)")
        print(f"  trivial view (/favicon.ico)  {trivial:7.2f} ms")
        print(
            f"  {'players':>7} {'page':<17} {'KB':>6} {'cold ms':>8} {'q':>3} {'warm ms':>8}"
            f" {'q':>3} {'304 ms':>7} {'q':>3}  {'cold × trivial':>14}  cpu ms cold/warm/304"
        )
        for n in SIZES:
            start = time.perf_counter()
            t = build(n)
            built = time.perf_counter() - start
            repeat = 15 if n <= 200 else 5
            pages = [
                ("standings", public, reverse("tournaments:standings", args=[t.pk])),
                ("projector", public, reverse("tournaments:projector", args=[t.pk])),
                (
                    "projector screen",
                    public,
                    reverse("tournaments:projector_screen", args=[t.pk]) + "?page=2",
                ),
                ("director", directing, reverse("tournaments:manage", args=[t.pk])),
            ]
            for name, client, url in pages:
                m = measure_page(client, url, repeat)
                (cold, qc), (warm, qw), (nm, qn) = m["cold"], m["warm"], m["304"]
                print(
                    f"  {n:>7} {name:<17} {m['kb']:>6.1f} {cold:>8.1f} {qc:>3} {warm:>8.2f}"
                    f" {qw:>3} {nm:>7.2f} {qn:>3}  {cold / trivial:>13.1f}×"
                    f"  {m['cold cpu']:.1f}/{m['warm cpu']:.2f}/{m['304 cpu']:.2f}"
                )
                goal = PAGE_GOAL_MS[n]
                kw = {"trivial_ms": trivial, "database": vendor}
                record(f"{name}, {n} players (cold)", cold, "ms", goal, **kw)
                record(f"{name}, {n} players (warm)", warm, "ms", goal * REPEATED_SHARE, **kw)
                record(f"{name}, {n} players (304)", nm, "ms", goal * REPEATED_SHARE, **kw)
            print(f"  ({n} players built in {built:.1f} s)")


if __name__ == "__main__":
    main()
