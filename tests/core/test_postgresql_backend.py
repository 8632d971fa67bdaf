"""The PostgreSQL backend checks a kept connection before reuse without a round trip
(tarotclub/core/postgresql): an idle connection nobody ended is reused as it is, one the
server ended is replaced. Run on PostgreSQL (DATABASE_URL); on SQLite, the settings test
(test_database_settings) checks that this backend is the one PostgreSQL gets."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection

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
