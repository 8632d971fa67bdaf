"""The PostgreSQL backend (tarotclub/core/postgresql):
- it checks a kept connection before reuse without a round trip: an idle connection nobody
  ended is reused as it is, one the server ended is replaced;
- it reads timestamps with psycopg's compiled loader, to the same values as Django's own.
Run on PostgreSQL (DATABASE_URL); on SQLite, the settings test (test_database_settings) checks
that this backend is the one PostgreSQL gets."""

from __future__ import annotations

import datetime as dt
import time
import zoneinfo

import psycopg
import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import register_tzloader
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from psycopg import pq
from psycopg.postgres import types

ON_POSTGRESQL = connection.vendor == "postgresql"


def _count_round_trips(monkeypatch) -> list[str]:
    """Every statement the raw psycopg connection sends, however it is sent."""
    sent: list[str] = []
    raw = connection.connection
    cursor = raw.cursor

    def counting_cursor(*args, **kwargs):
        made = cursor(*args, **kwargs)
        execute = made.execute

        def counted(query, *a, **k):
            sent.append(str(query))
            return execute(query, *a, **k)

        made.execute = counted
        return made

    monkeypatch.setattr(raw, "cursor", counting_cursor)
    monkeypatch.setattr(raw, "execute", lambda query, *a, **k: sent.append(str(query)))
    return sent


def _wait_readable(seconds: float = 5.0) -> None:
    import select

    deadline = time.monotonic() + seconds
    sock = connection.connection.pgconn.socket
    while time.monotonic() < deadline:
        if select.select([sock], [], [], 0.05)[0]:
            return
    raise AssertionError("the server did not end the session")


if ON_POSTGRESQL:

    @pytest.mark.django_db(transaction=True)
    def test_a_kept_connection_is_checked_without_a_round_trip(monkeypatch):
        connection.ensure_connection()
        assert connection.settings_dict["ENGINE"] == "tarotclub.core.postgresql"
        sent = _count_round_trips(monkeypatch)
        assert connection.is_usable()
        assert sent == []  # Django's own check sends SELECT 1 and waits for it

    @pytest.mark.django_db(transaction=True)
    def test_a_connection_the_server_ended_is_replaced(settings):
        connection.ensure_connection()
        pid = connection.connection.info.backend_pid
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        with psycopg.connect(**params, autocommit=True) as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])
        _wait_readable()
        assert not connection.is_usable()
        # what a request does first: the check, then a new connection that works
        connection.health_check_done = False
        connection.close_if_health_check_failed()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone()[0] != pid

    @pytest.mark.django_db(transaction=True)
    def test_after_an_error_the_check_asks_the_server(monkeypatch):
        connection.ensure_connection()
        connection.errors_occurred = True
        sent = _count_round_trips(monkeypatch)
        try:
            assert connection.is_usable()
        finally:
            connection.errors_occurred = False
        assert sent == ["SELECT 1"]

    # --- timestamps --------------------------------------------------------------------------

    _TIMESTAMPTZ = types["timestamptz"].oid
    _ZONES = ["UTC", "Europe/Paris", "Europe/Amsterdam", "America/St_Johns", "Asia/Kolkata"]

    def _read_both(cursor, values: list[str], timezone) -> tuple[list, list]:
        """`values` (timestamptz literals) read by this backend's loader for `timezone`, and
        by Django's own (`register_tzloader`) on the same connection."""
        from tarotclub.core.postgresql.base import adapters_template

        query = "SELECT v::timestamptz FROM unnest(%s::text[]) AS v"
        loader = adapters_template(True, timezone).get_loader(_TIMESTAMPTZ, pq.Format.TEXT)
        with cursor.connection.cursor() as ours, cursor.connection.cursor() as django:
            ours.adapters.register_loader("timestamptz", loader)
            register_tzloader(timezone, django)
            return tuple(
                [row[0] for row in c.execute(query, [values]).fetchall()] for c in (ours, django)
            )

    @pytest.mark.django_db
    def test_timestamps_are_read_by_the_compiled_loader_on_every_cursor():
        from tarotclub.core.postgresql.base import CompiledTzLoader

        with connection.cursor() as cursor:
            loader = cursor.cursor.adapters.get_loader(_TIMESTAMPTZ, pq.Format.TEXT)
            # Django's cursors register their own loader when the connection's does not say
            # Django's time zone: this one says it, so every cursor keeps it
            assert issubclass(loader, CompiledTzLoader)
            assert loader.timezone == connection.timezone == dt.UTC
            cursor.execute("SELECT '2026-12-04 21:05:06.123456+01'::timestamptz")
            value = cursor.fetchone()[0]
        assert value == dt.datetime(2026, 12, 4, 20, 5, 6, 123456, tzinfo=dt.UTC)
        assert value.tzinfo is dt.UTC

    @pytest.mark.django_db
    def test_a_model_reads_back_the_instant_it_saved():
        from tarotclub.players.models import Player

        paris = zoneinfo.ZoneInfo("Europe/Paris")
        saved = dt.datetime(2026, 3, 29, 1, 59, 59, 999999, tzinfo=paris)  # (DST starts at 2)
        player = Player.objects.create(name="Anne")
        Player.objects.filter(pk=player.pk).update(created_at=saved)
        read = Player.objects.get(pk=player.pk).created_at
        assert read == saved and read.utcoffset() == dt.timedelta(0)

    @pytest.mark.django_db
    @settings(
        max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(
        instants=st.lists(
            st.datetimes(
                min_value=dt.datetime(1, 1, 2),
                max_value=dt.datetime(9999, 12, 30),
                timezones=st.sampled_from([dt.UTC, *map(zoneinfo.ZoneInfo, _ZONES[1:])]),
            ),
            min_size=1,
            max_size=20,
        ),
        zone=st.sampled_from(_ZONES),
        naive=st.booleans(),
    )
    def test_timestamps_read_as_djangos_loader_reads_them(instants, zone, naive):
        """Any instant, in any session time zone (Django sets UTC; another one is what a
        connection some code changed would have), with and without USE_TZ (timezone None):
        the same values, with the same tzinfo, as Django's loader."""
        timezone = None if naive else dt.UTC
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('TimeZone', %s, true)", [zone])
            values = [x.isoformat() for x in instants]
            ours, django = _read_both(cursor, values, timezone)
        assert ours == django
        assert [x.tzinfo for x in ours] == [x.tzinfo for x in django]
        assert [x.utcoffset() for x in ours] == [x.utcoffset() for x in django]
        if zone == "UTC" and not naive:
            # Django's time zone in the session: the instants themselves (compared as
            # timestamps: Python never finds equal two zones' datetimes that fall in a DST gap)
            assert [x.timestamp() for x in ours] == [x.timestamp() for x in instants]

    # --- prepared statements -----------------------------------------------------------------

    @pytest.mark.django_db(transaction=True)
    def test_a_save_runs_prepared_statements_once_the_connection_has_run_them_five_times(
        client,
    ):
        """Parameters bound by the server and statements prepared (settings.database_config):
        after five saves the lock and the one statement that writes the deal, its score
        lines, its history entry and the revision are prepared on the connection, and later
        saves run them as they are, with no new preparation."""
        from django.urls import reverse

        from tarotclub.games.services import game_start
        from tarotclub.kinds.tarot.models import Deal
        from tarotclub.players.services import player_create

        assert connection.settings_dict["OPTIONS"]["server_side_binding"] is True
        connection.close()  # a new connection: nothing counted or prepared by earlier tests
        players = [player_create(name=n) for n in ("Anne", "Bram", "Chloé", "Dirk")]
        game = game_start(players=players, first_dealer=0)
        url = reverse("games:deal_new", args=[game.token])

        def prepared() -> dict[str, int]:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements"
                )
                return dict(cursor.fetchall())

        def save(number: int) -> None:
            data = {"taker": players[1].pk, "contract": "garde", "bouts": 2, "points": 49}
            data |= {"points_side": "attack", "chelem": "none", "number": number}
            response = client.post(url, data)
            assert response.status_code == 302, response.content[:500]

        for number in range(1, 6):
            save(number)
        assert not [s for s in prepared() if "FOR UPDATE" in s]  # run 5 times, not yet prepared
        save(6)
        after_six = prepared()
        lock = [s for s in after_six if s.startswith("SELECT") and s.endswith("FOR UPDATE")]
        write = [s for s in after_six if s.startswith("WITH new_deal AS (INSERT")]
        assert len(lock) == 1 and len(write) == 1
        assert "$1" in lock[0] and "%s" not in lock[0]  # bound by the server
        for number in range(7, 10):
            save(number)
        after_nine = prepared()
        assert after_nine[lock[0]] == after_six[lock[0]] + 3  # the same statement, run again
        assert after_nine[write[0]] == after_six[write[0]] + 3
        assert Deal.objects.filter(game=game).count() == 9

    # --- a save's round trips, and what is read after the lock ------------------------------

    def _round_trips(save) -> int:
        """How many times the connection waited for the server during `save()`: each wait
        ends with the server's ReadyForQuery (libpq's protocol trace)."""
        import tempfile

        connection.ensure_connection()
        pgconn = connection.connection.pgconn
        with tempfile.TemporaryFile("w+") as trace:
            pgconn.trace(trace.fileno())
            try:
                save()
            finally:
                pgconn.untrace()
            trace.seek(0)
            return sum("ReadyForQuery" in line for line in trace)

    @pytest.mark.django_db(transaction=True)
    def test_a_tournament_tables_save_is_six_round_trips(client):
        """A tournament table's new deal, as the README counts it: the page's read of the game,
        BEGIN, the lock, the table's state read after the lock, the one statement of the
        write (deal, score lines, history entry, revision), COMMIT."""
        from django.test.utils import CaptureQueriesContext
        from django.urls import reverse

        from tarotclub.kinds.tarot.models import Deal
        from tarotclub.tournaments import services as tournaments
        from tarotclub.tournaments.models import Table
        from tests.tournaments.helpers import make_tournament

        t, _players = make_tournament(4, rounds=1, deals=4)
        tournaments.tournament_start(tournament=t)
        game = Table.objects.get(tournament=t, round=1).game
        taker = game.seats.order_by("position")[1].player_id
        url = reverse("games:deal_new", args=[game.token])
        data = {"taker": taker, "contract": "garde", "bouts": 2, "points": 49}
        data |= {"points_side": "attack", "chelem": "none"}

        def save(number):
            assert client.post(url, {**data, "number": number}).status_code == 302

        # A new connection (its setup is not counted), and one save before: the one measured
        # runs each statement for the 2nd time, far from the 5 runs that prepare it (one
        # round trip more, once: test_a_save_runs_prepared_statements...).
        connection.close()
        client.get(url)
        save(1)
        with CaptureQueriesContext(connection) as ctx:
            trips = _round_trips(lambda: save(2))
        control = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
        statements = [q["sql"] for q in ctx.captured_queries if not q["sql"].startswith(control)]
        assert len(statements) == 4, statements
        assert trips == 6
        assert Deal.objects.filter(game=game).count() == 2

    @pytest.mark.django_db(transaction=True)
    def test_what_is_read_after_the_lock_is_what_the_phone_holding_it_left():
        """Phone 1 holds the table's lock and ends the tournament meanwhile; phone 2's lock
        waits for phone 1's commit, and the tournament's state it reads after the lock is the
        finished tournament. (Read in the lock's own statement, the state would be the
        tournament as it was when phone 2 began waiting: READ COMMITTED takes a statement's
        snapshot when it starts. `lock_game` explains.)"""
        import threading

        from django.db import transaction

        from tarotclub.games import policy
        from tarotclub.games import services as games
        from tarotclub.tournaments import services as tournaments
        from tarotclub.tournaments.models import Status, Table, Tournament
        from tests.tournaments.helpers import make_tournament
        from tests.tournaments.test_concurrency import together

        t, _players = make_tournament(4, rounds=1, deals=4)
        tournaments.tournament_start(tournament=t)
        game = Table.objects.get(tournament=t, round=1).game
        held = threading.Event()

        def phone_1():
            try:
                with transaction.atomic():
                    games.lock_game(game)
                    Tournament.objects.filter(pk=t.pk).update(status=Status.FINISHED)
                    held.set()
                    time.sleep(0.5)  # phone 2 is waiting for the lock meanwhile
            finally:
                held.set()

        def phone_2():
            held.wait(10)
            with transaction.atomic():
                started = time.monotonic()
                locked = games.lock_game(game)
                return time.monotonic() - started, policy.event_table(locked)

        _first, (waited, state) = together(phone_1, phone_2)
        assert waited > 0.2  # it did wait for phone 1's lock
        assert state.event_finished and state.round_over
