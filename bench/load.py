"""Fifty phones in a burst and a club evening, against the real server (issue 12).

Starts the production server as `make serve` runs it (bin/serve.py's environment and granian
command line) on 127.0.0.1 and a free port, with a throw-away var/ folder: its own SQLite
file, or, when DATABASE_URL is set, a throw-away database created on that server (dropped at
the end). Seeds a tournament of 200 players: 50 tables of 4. Then, with a phone per player
(its own cookies, through the table's share link; the CSRF token from the deal page):

1. burst: at each table one phone posts its next deal as soon as the last is saved (the
   deal page read once for its CSRF token, then the POSTs back to back, the redirect not
   followed: the time between two saves is the server's alone); every phone of the room has
   its sheet open and polls it every 4 s (200 phones), and reads the changes the polls bring;
2. club evening: a deal per table every 30 s, as a phone enters it (the deal page, the POST,
   the sheet it is sent back to), 200 phones polling every 4 s. Compressed (said in the
   output): the deals come EVERY_DEAL / COMPRESS apart (3× the room's rate of saves, for
   enough saves in a short run); the polls keep their real 4 s.

Prints p50/p95/p99 of saves, polls and pages, the errors, and checks in the database at the
end that every deal the phones saved is there exactly once (numbers 1..n at every table).
Records the goals (bench/goals.py). Bounded: at most BURST_DEALS deals per table and
BURST_SECONDS for the burst, EVENING_SECONDS for the evening, one client process, loopback
only; the server is stopped at the end, also after a failure or Ctrl-C.

The client is the standard library only (asyncio streams, no HTTP library): the phones are
separate devices in a room, while here one process plays all 250 on the same cores as the
server, so each phone's work is kept small (its CPU time per request is printed beside the
server's). Each phone keeps its connection open as a browser does (HTTP/1.1 keep-alive; the
server keeps an idle one longer than a sheet's poll interval, bin/serve.py), and its sheet
polls with what a real sheet sends (its revision and the number of entries it shows), so a
poll after a change gets only that change. Before the burst, every kind of request is also
sent one at a time at each table, for the server's CPU time per request of each kind: the
figure to compare between two versions of the code on a machine busy with other work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
TABLES = 50
SEATS = 4
DEALS_PER_ROUND = 24  # the most a tournament round allows
BURST_DEALS = 20  # at most, per table (the evening plays the rest)
BURST_SECONDS = 12
EVENING_SECONDS = 16
EVERY_DEAL = 30.0  # s between two deals of a table in a club evening
COMPRESS = 3  # the evening's deals come 3× as often as in the room
POLL_EVERY = 4.0  # s, the sheet's hx-trigger
REQUEST_TIMEOUT = 20.0
STARTUP = 60.0

GOAL_BURST_P95 = 300
GOAL_BURST_P99 = 600
GOAL_EVENING_P95 = 50

DEAL = {
    "contract": "garde",
    "bouts": "2",
    "points": "49",
    "points_side": "attack",
    "chelem": "none",
}


def _serve():
    """bin/serve.py as a module: the server's environment and command line, not a copy."""
    spec = importlib.util.spec_from_file_location("tarotclub_serve", ROOT / "bin" / "serve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# --- the database: seeded and counted by a child process under the server's settings --------


def _child(env: dict, mode: str):
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), f"--{mode}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"bench/load.py --{mode} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def seed() -> list[dict]:
    """A 200-player tournament, round 1 seated: every table's token, a taker, its revision."""
    import django

    django.setup()
    from tarotclub.demo.builders import make_tournament
    from tarotclub.games import selectors
    from tarotclub.tournaments import services
    from tarotclub.tournaments.models import Table

    t, _ = make_tournament(TABLES * SEATS, rounds=1, deals=DEALS_PER_ROUND)
    services.tournament_start(tournament=t)
    tables = []
    for table in Table.objects.filter(tournament=t, round=1).select_related("game"):
        game = table.game
        players = selectors.seat_players(game)
        tables.append(
            {
                "token": game.token,
                "taker": players[1].pk,
                "seats": len(players),
                "revision": game.revision,
            }
        )
    return tables


def count() -> dict[str, list[int]]:
    """Every game's deal numbers, as stored."""
    import django

    django.setup()
    from tarotclub.games.models import Game

    numbers: dict[str, list[int]] = {}
    for token, number in Game.objects.values_list("token", "deals__number"):
        numbers.setdefault(token, [])
        if number is not None:
            numbers[token].append(number)
    return numbers


@contextlib.contextmanager
def throwaway_database(env: dict):
    """PostgreSQL (DATABASE_URL): a database of its own on that server, dropped at the end.
    SQLite: the var/ folder's file (the folder is thrown away)."""
    url = env.get("DATABASE_URL")
    if not url:
        yield "sqlite"
        return
    import psycopg

    parts = urllib.parse.urlsplit(url)
    name = f"tarotclub_load_{os.getpid()}"
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name}")
        c.execute(f"CREATE DATABASE {name}")
    env["DATABASE_URL"] = urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
    try:
        yield "postgresql"
    finally:
        with psycopg.connect(admin, autocommit=True) as c:
            c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


# --- the server ------------------------------------------------------------------------------


class Server:
    """The server as `make serve` starts it, in its own process group; stopped by `stop()`."""

    def __init__(self, serve, env: dict, port: int, log: Path, **sizes):
        self.log = open(log, "w")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            serve.server_command(HOST, port, **sizes),
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # the server and its workers: one group, stopped together
        )
        self.port = port

    def wait(self) -> None:
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server ended early ({self.proc.returncode})")
            try:
                with socket.create_connection((HOST, self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the server did not listen within {STARTUP:.0f} s")

    def stop(self) -> None:
        """SIGTERM to the server's own group, then SIGKILL if it lingers: bounded."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)
        self.log.close()


def group_cpu(pgid: int) -> float:
    """CPU seconds (user + system) used so far by the processes of a group (Linux /proc; 0
    elsewhere): the server's own share of the machine during a phase."""
    total = 0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


class Phase:
    """A phase's wall time, the server's CPU time and the client's, for the report; each also
    per request answered (CPU time, unlike wall time, is not stretched by other work on the
    machine: the figure to compare between two runs)."""

    def __init__(self, server: Server, stats: Stats):
        self.server = server
        self.stats = stats

    def __enter__(self):
        self.wall = time.monotonic()
        self.cpu = group_cpu(self.server.proc.pid)
        self.client = time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.monotonic() - self.wall
        self.cpu = group_cpu(self.server.proc.pid) - self.cpu
        self.client = time.process_time() - self.client

    def __str__(self) -> str:
        requests = max(1, sum(len(v) for v in self.stats.times.values()))
        return (
            f"  {self.wall:.1f} s; the server used {self.cpu:.1f} s of CPU"
            f" ({self.cpu / self.wall:.2f} cores of {os.cpu_count()}), the phones"
            f" {self.client:.1f} s; load average {os.getloadavg()[0]:.1f}\n"
            f"  CPU per request: server {self.cpu / requests * 1000:.2f} ms, phones"
            f" {self.client / requests * 1000:.2f} ms ({requests} requests)"
        )


# --- the phones ------------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.times: dict[str, list[float]] = {}
        self.errors: list[str] = []

    def add(self, what: str, ms: float) -> None:
        self.times.setdefault(what, []).append(ms)

    def error(self, what: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(what)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


class Phone:
    """One phone: its cookies and its connection, kept open from one request to the next.

    As a phone's browser does (HTTP/1.1 keep-alive): the connection is reused while the server
    keeps it (bin/serve.py's KEEPALIVE, longer than a sheet's poll interval); one the server
    closed meanwhile is noticed on the next request, which is sent again once on a new
    connection, as browsers do when a reused connection closes before any byte of the answer
    (a deal sent twice that way is refused by its entry number, so never saved twice).

    The phones are separate devices in the room; here one process plays them all, on the same
    cores as the server, so a phone's work is kept small: asyncio streams, the answer read by
    its Content-Length, no HTTP library.
    """

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self.connections = 0  # opened, for the report

    def _raw(self, method: str, path: str, form, headers) -> bytes:
        body = urllib.parse.urlencode(form).encode() if form is not None else b""
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {HOST}:{self.port}",
            "Accept-Language: fr",
            "User-Agent: tarotclub-bench-load",
        ]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if form is not None:
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
                f"Origin: http://{HOST}:{self.port}",
            ]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    async def request(self, method: str, path: str, *, form=None, headers=None):
        raw = self._raw(method, path, form, headers)
        start = time.perf_counter()
        reused = self.connection is not None
        try:
            try:
                answer = await self._exchange(raw)
            except (asyncio.IncompleteReadError, ConnectionError) as e:
                nothing = not isinstance(e, asyncio.IncompleteReadError) or not e.partial
                self.close()
                if not (reused and nothing):
                    raise
                answer = await self._exchange(raw)  # the server had closed the kept connection
        except BaseException:  # a timeout, an error: the connection's state is unknown
            self.close()
            raise
        ms = (time.perf_counter() - start) * 1000
        return (*answer, ms)

    async def _exchange(self, raw: bytes):
        if self.connection is None:
            self.connection = await asyncio.open_connection(HOST, self.port)
            self.connections += 1
        reader, writer = self.connection
        writer.write(raw)
        head = await reader.readuntil(b"\r\n\r\n")
        head_lines = head[:-4].decode("latin-1").split("\r\n")
        status = int(head_lines[0].split()[1])
        found: dict[str, str] = {}
        for line in head_lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                self._cookie(value)
            else:
                found[name] = value
        if status in {204, 304} or status < 200:
            content = b""
        elif "content-length" in found:
            content = await reader.readexactly(int(found["content-length"]))
        elif found.get("transfer-encoding", "").lower() == "chunked":
            content = await self._chunks(reader)
        else:  # the answer ends with the connection
            content = await reader.read()
            found["connection"] = "close"
        if found.get("connection", "").lower() == "close":
            self.close()
        return status, found, content

    @staticmethod
    async def _chunks(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        await reader.readuntil(b"\r\n")  # the (empty) trailer
        return b"".join(parts)

    def close(self) -> None:
        if self.connection is not None:
            self.connection[1].close()
            self.connection = None

    def _cookie(self, header: str) -> None:
        pair, *attributes = header.split(";")
        name, _, value = pair.strip().partition("=")
        gone = any(a.strip().lower() in {"max-age=0"} for a in attributes) or value in {"", '""'}
        if gone:
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value


FORM_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
NUMBER = re.compile(rb'name="number" value="(\d+)"')
REVISION = re.compile(rb'data-revision="(\d+)"|[?&]rev=(\d+)|name="rev" value="(\d+)"')
SHOWN = re.compile(rb'name="n" value="(\d+)"')
ACTIONS = re.compile(rb'name="a" value="([a-z]*)"')


def _revision(content: bytes) -> int | None:
    m = REVISION.search(content)
    return int(m.group(1) or m.group(2) or m.group(3)) if m else None


def _shown(content: bytes) -> int | None:
    """The number of entries a sheet shows (its state's hidden `n`), sent back with its poll."""
    m = SHOWN.search(content)
    return int(m.group(1)) if m else None


def sheet_actions(content: bytes) -> str | None:
    """The actions below a sheet it shows (its state's hidden `a`), sent back with its poll."""
    m = ACTIONS.search(content)
    return m.group(1).decode() if m else None


async def timed(stats: Stats, what: str, call, expect: set[int]):
    try:
        status, headers, content, ms = await asyncio.wait_for(call, REQUEST_TIMEOUT)
    except (
        OSError,
        TimeoutError,
        ValueError,
        IndexError,
        EOFError,
        asyncio.LimitOverrunError,
    ) as e:
        stats.error(f"{what}: {type(e).__name__} {e}")
        return None
    if status not in expect:
        stats.error(f"{what}: HTTP {status}")
        return None
    stats.add(what, ms)
    return status, headers, content


class Table:
    def __init__(self, info: dict, port: int):
        self.token = info["token"]
        self.taker = info["taker"]
        self.revision = info["revision"]
        self.shown = 0  # the entries a sheet opened now shows (a new round: none)
        # and its actions below the sheet: none on a round's new sheet for a phone without an
        # account (no undo yet, a tournament's table is never finished by hand)
        self.actions = ""
        self.saved = 0  # deals the phones saw saved (302)
        self.scorer = Phone(port)
        self.sheet = f"/t/{self.token}/"
        self.deal = f"/t/{self.token}/deal/"
        self.poll = f"/t/{self.token}/live/"

    def poll_url(self, revision, shown, actions: str) -> str:
        """The sheet's poll with its state, as htmx sends it (hx-include)."""
        return f"{self.poll}?rev={revision}&n={shown}&a={actions}"

    async def open_form(self, stats: Stats, phase: str) -> dict | None:
        """The deal page: its CSRF token (and the cookie), the number of the next deal."""
        got = await timed(stats, f"{phase} deal page", self.scorer.request("GET", self.deal), {200})
        if got is None:
            return None
        token, number = FORM_TOKEN.search(got[2]), NUMBER.search(got[2])
        if not token or not number:
            stats.error(f"{phase} deal page: no form")
            return None
        return {
            "csrfmiddlewaretoken": token.group(1).decode(),
            "number": number.group(1).decode(),
            "taker": self.taker,
            **DEAL,
        }

    async def post(self, stats: Stats, phase: str, form: dict):
        got = await timed(
            stats, f"{phase} save", self.scorer.request("POST", self.deal, form=form), {302}
        )
        if got is not None:
            self.saved += 1
        return got

    async def save_next(self, stats: Stats, phase: str) -> bool:
        """A phone's next deal: the deal page, the POST, then the sheet it is sent back to."""
        form = await self.open_form(stats, phase)
        got = await self.post(stats, phase, form) if form else None
        if got is None:
            return False
        location = urllib.parse.urlsplit(got[1].get("location", self.sheet)).path
        await timed(stats, f"{phase} sheet", self.scorer.request("GET", location), {200})
        return True


async def pause(stop: asyncio.Event, seconds: float) -> None:
    """Sleep, but no longer than until the phase ends."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), max(0.0, seconds))


async def poller(table: Table, stats: Stats, phase: str, stop: asyncio.Event, every: float):
    """A phone with the sheet open: GET live/?rev=R&n=N&a=A every `every` s, as htmx's
    hx-trigger sends the sheet's state (its revision, the entries and actions it shows)."""
    phone = Phone(table.scorer.port)
    revision, shown, actions = table.revision, table.shown, table.actions
    headers = {"HX-Request": "true", "HX-Target": "sheet"}
    await pause(stop, random.uniform(0, every))
    while not stop.is_set():
        began = time.monotonic()
        got = await timed(
            stats,
            f"{phase} poll",
            phone.request("GET", table.poll_url(revision, shown, actions), headers=headers),
            {200, 204},
        )
        if got is not None and got[0] == 200:
            revision, shown = _revision(got[2]) or revision, _shown(got[2]) or shown
            found = sheet_actions(got[2])
            actions = actions if found is None else found
            if (revision or 0) > (table.revision or 0):  # the next phase's start
                table.revision, table.shown, table.actions = revision, shown, actions
        await pause(stop, every - (time.monotonic() - began))
    phone.close()


def pollers(tables: list[Table], stats: Stats, phase: str, stop: asyncio.Event, polls: bool):
    return [
        asyncio.create_task(poller(t, stats, phase, stop, POLL_EVERY))
        for t in tables
        for _ in range(SEATS if polls else 0)
    ]


async def burst(tables: list[Table], stats: Stats, *, polls: bool = True) -> float:
    start = time.monotonic()
    deadline = start + BURST_SECONDS
    stop = asyncio.Event()

    async def scorer(table: Table) -> None:
        form, before = None, table.saved
        while table.saved - before < BURST_DEALS and time.monotonic() < deadline:
            if form is None:
                form = await table.open_form(stats, "burst")
                if form is None:
                    await asyncio.sleep(0.5)
                    continue
            if await table.post(stats, "burst", form):
                form = {**form, "number": str(int(form["number"]) + 1)}
            else:  # as a phone whose save failed: reads the page again, tries again
                form = None
                await asyncio.sleep(0.5)

    polling = pollers(tables, stats, "burst", stop, polls)
    await asyncio.gather(*(scorer(t) for t in tables))
    elapsed = time.monotonic() - start
    stop.set()
    await asyncio.gather(*polling)
    for table in tables:  # this event loop's connections end with it
        table.scorer.close()
    return elapsed


async def evening(tables: list[Table], stats: Stats, *, polls: bool = True) -> None:
    stop = asyncio.Event()
    interval = EVERY_DEAL / COMPRESS

    async def scorer(table: Table) -> None:
        await pause(stop, random.uniform(0, interval))
        while not stop.is_set() and table.saved < DEALS_PER_ROUND:
            began = time.monotonic()
            await table.save_next(stats, "evening")
            await pause(stop, interval - (time.monotonic() - began))

    # the phones poll on from the revision they last saw (a stale one: the whole sheet once)
    polling = pollers(tables, stats, "evening", stop, polls)
    scoring = [asyncio.create_task(scorer(t)) for t in tables]
    await asyncio.sleep(EVENING_SECONDS)
    stop.set()  # what is in flight finishes (at most REQUEST_TIMEOUT), nothing new starts
    await asyncio.gather(*scoring, *polling)
    for table in tables:
        table.scorer.close()


CPU_ROUNDS = 2  # deals per table measured one at a time, before the burst
HTMX = {"HX-Request": "true", "HX-Target": "sheet"}  # what a sheet's poll sends


async def cpu_per_request(tables: list[Table], server: Server, stats: Stats) -> dict[str, tuple]:
    """Each kind of request, one at a time at every table (nothing else running): the server's
    CPU time per request (its processes' user + system time, the server's own work included) and
    the phones'. Unlike the latencies under load these barely move with other work on the
    machine: the figures to compare between two versions of the code."""
    costs: dict[str, list[float]] = {}

    async def measure(what: str, calls) -> list:
        server_cpu, client_cpu = group_cpu(server.proc.pid), time.process_time()
        results = [
            await timed(stats, f"one at a time: {what}", call(), {200, 204, 302}) for call in calls
        ]
        client_cpu = time.process_time() - client_cpu
        server_cpu = group_cpu(server.proc.pid) - server_cpu
        spent = costs.setdefault(what, [0.0, 0.0, 0])
        spent[0] += server_cpu
        spent[1] += client_cpu
        spent[2] += len(calls)
        return results

    for _ in range(CPU_ROUNDS):
        pages = await measure(
            "deal page", [lambda t=t: t.scorer.request("GET", t.deal) for t in tables]
        )
        forms = []
        for t, got in zip(tables, pages, strict=True):
            token, number = (
                (FORM_TOKEN.search(got[2]), NUMBER.search(got[2])) if got else (None, None)
            )
            if not token or not number:
                raise RuntimeError(f"{t.token}: the deal page has no form")
            forms.append(
                {
                    "csrfmiddlewaretoken": token.group(1).decode(),
                    "number": number.group(1).decode(),
                    "taker": t.taker,
                    **DEAL,
                }
            )
        before = [(t.revision, t.shown, t.actions) for t in tables]
        saved = await measure(
            "save",
            [
                lambda t=t, f=f: t.scorer.request("POST", t.deal, form=f)
                for t, f in zip(tables, forms, strict=True)
            ],
        )
        for t, got in zip(tables, saved, strict=True):
            if got is None or got[0] != 302:
                raise RuntimeError(f"{t.token}: the deal was not saved")
            t.saved += 1
        await measure(
            "sheet after a save", [lambda t=t: t.scorer.request("GET", t.sheet) for t in tables]
        )
        phones = [Phone(t.scorer.port) for t in tables]
        changes = await measure(
            "poll, a deal new",
            [
                lambda t=t, p=p, b=b: p.request("GET", t.poll_url(*b), headers=HTMX)
                for t, p, b in zip(tables, phones, before, strict=True)
            ],
        )
        for t, got in zip(tables, changes, strict=True):
            t.revision, t.shown = _revision(got[2]) or t.revision, _shown(got[2]) or t.shown
            found = sheet_actions(got[2])
            t.actions = t.actions if found is None else found
        await measure(
            "poll, nothing new",
            [
                lambda t=t, p=p: p.request(
                    "GET", t.poll_url(t.revision, t.shown, t.actions), headers=HTMX
                )
                for t, p in zip(tables, phones, strict=True)
            ],
        )
        for p in phones:
            p.close()
    for t in tables:
        t.scorer.close()
    return {what: (s / n * 1000, c / n * 1000, n) for what, (s, c, n) in costs.items()}


def report_cpu(costs: dict[str, tuple]) -> None:
    print(f"  {'request':<22} {'count':>6} {'server CPU ms':>14} {'phone CPU ms':>13}")
    for what, (server_ms, client_ms, n) in costs.items():
        print(f"  {what:<22} {n:>6} {server_ms:14.2f} {client_ms:13.2f}")


async def trivial_ms(port: int, stats: Stats, repeat: int = 50) -> float:
    phone = Phone(port)
    times = []
    for _ in range(repeat):
        # /favicon.ico: a redirect to the icon, no database, no template (as bench/save.py)
        got = await timed(stats, "trivial", phone.request("GET", "/favicon.ico"), {302})
        if got:
            times.append(stats.times["trivial"][-1])
    phone.close()
    return statistics.median(times) if times else float("nan")


# --- the run ---------------------------------------------------------------------------------


def report(stats: Stats, trivial: float) -> None:
    print(f"  {'request':<22} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for what, values in stats.times.items():
        print(
            f"  {what:<22} {len(values):>6} {percentile(values, 50):8.1f}"
            f" {percentile(values, 95):8.1f} {percentile(values, 99):8.1f} {max(values):8.1f}"
        )
    print(f"  trivial view (/favicon.ico, one phone alone): {trivial:.2f} ms")
    if stats.errors:
        print(f"  errors: {len(stats.errors)}, first: {stats.errors[:5]}")


def check_once(tables: list[Table], stored: dict[str, list[int]]) -> list[str]:
    """Every table has exactly the deals its phone saw saved, numbered 1..n, none twice."""
    wrong = []
    for t in tables:
        numbers = sorted(stored.get(t.token, []))
        if numbers != list(range(1, t.saved + 1)):
            wrong.append(f"{t.token}: phones saved {t.saved}, stored {numbers}")
    return wrong


def run(*, workers: int | None = None, threads: int | None = None, polls: bool = True) -> None:
    from bench import goals

    serve = _serve()
    sizes = {"workers": workers or serve.WORKERS, "threads": threads or serve.THREADS}
    var = Path(tempfile.mkdtemp(prefix="tarotclub-load-"))
    server = None
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop cleanly
    try:
        env = serve.server_env(var, ["127.0.0.1", "localhost"])
        with throwaway_database(env) as database:
            began = time.monotonic()
            # what bin/serve.py prepares (`make bench` has compiled the translations): the
            # static files collected meanwhile the database is migrated and seeded
            static = subprocess.Popen(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=env,
            )
            try:
                serve.manage(env, "migrate", "--noinput", "-v", "0")
                tables_info = _child(env, "seed")
                if static.wait(timeout=300):
                    raise RuntimeError("collectstatic failed")
            finally:
                if static.poll() is None:
                    static.kill()
                    static.wait()
            port = free_port()
            server = Server(serve, env, port, var / "server.log", **sizes)
            server.wait()
            print(
                f"Production server (granian {sizes['workers']} processes × {sizes['threads']}"
                f" threads, {database}) on {HOST}:{port}; {len(tables_info)} tables of"
                f" {SEATS}, ready in {time.monotonic() - began:.1f} s"
            )
            tables = [Table(info, port) for info in tables_info]

            burst_stats = Stats()
            trivial = asyncio.run(trivial_ms(port, burst_stats))
            burst_stats.times.pop("trivial", None)
            costs = asyncio.run(cpu_per_request(tables, server, Stats()))
            print("\n0. CPU time per request, one request at a time at each table")
            report_cpu(costs)
            with Phase(server, burst_stats) as phase:
                elapsed = asyncio.run(burst(tables, burst_stats, polls=polls))
            saves = len(burst_stats.times.get("burst save", []))
            print(
                f"\n1. Fifty phones in a burst: {saves} deals in {elapsed:.1f} s"
                f" ({saves / elapsed:.0f}/s), "
                + (f"every sheet polling every {POLL_EVERY:g} s" if polls else "no sheet polling")
            )
            report(burst_stats, trivial)
            print(phase)

            evening_stats = Stats()
            with Phase(server, evening_stats) as phase:
                asyncio.run(evening(tables, evening_stats, polls=polls))
            print(
                f"\n2. Club evening: a deal per table every {EVERY_DEAL / COMPRESS:g} s"
                f" (the room's {EVERY_DEAL:g} s compressed {COMPRESS}×), "
                + (
                    f"{len(tables) * SEATS} phones polling every {POLL_EVERY:g} s"
                    if polls
                    else "no sheet polling"
                )
                + f", for {EVENING_SECONDS} s"
            )
            report(evening_stats, trivial)
            print(phase)

            server.stop()
            stored = _child(env, "count")
            wrong = check_once(tables, stored)
            total = sum(t.saved for t in tables)
            print(
                f"\nEvery deal exactly once: {total} saved by the phones,"
                f" {sum(len(v) for v in stored.values())} stored,"
                f" {len(wrong)} tables wrong" + (f": {wrong[:3]}" if wrong else "")
            )
    finally:
        if server is not None:
            server.stop()
        signal.signal(signal.SIGTERM, previous)
        shutil.rmtree(var, ignore_errors=True)

    def p(stats, what, q):
        return percentile(stats.times.get(what, []), q)

    if not polls:
        print("(--no-polls: a diagnosis, not the goals' room: no goal recorded)")
        return

    record = goals.record
    record(
        "load: burst, save p95",
        p(burst_stats, "burst save", 95),
        "ms",
        GOAL_BURST_P95,
        trivial_ms=trivial,
        database=database,
    )
    record(
        "load: burst, save p99",
        p(burst_stats, "burst save", 99),
        "ms",
        GOAL_BURST_P99,
        trivial_ms=trivial,
        database=database,
    )
    record("load: burst, errors", len(burst_stats.errors), "", 0, database=database)
    record(
        "load: evening, save p95",
        p(evening_stats, "evening save", 95),
        "ms",
        GOAL_EVENING_P95,
        trivial_ms=trivial,
        database=database,
    )
    record("load: evening, errors", len(evening_stats.errors), "", 0, database=database)
    record("load: tables not saved exactly once", len(wrong), "", 0, database=database)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--no-polls", action="store_true", help="the saves alone (diagnosis)")
    args = parser.parse_args(argv if argv is not None else [])
    if args.seed:
        print(json.dumps(seed()))
    elif args.count:
        print(json.dumps(count()))
    else:
        run(workers=args.workers, threads=args.threads, polls=not args.no_polls)


if __name__ == "__main__":
    main(sys.argv[1:])
    if "--seed" not in sys.argv and "--count" not in sys.argv:
        from bench import goals

        print(goals.summary())
