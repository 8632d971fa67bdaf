"""Django's PostgreSQL backend, whose check of a kept connection costs no round trip and whose
dates and times are read by psycopg's compiled loader.

Reading a timestamp (`timestamptz`): Django's backend registers its own loader, which derives
from psycopg's pure-Python one (psycopg's compiled loader cannot be derived from), so every
value is parsed in Python: about 11 µs a value on the 2-core bench machine, against about
1 µs through the loader here. A list of 200 players (their `created_at`) took 2.2 ms more
than the same list without it, on pages whose goal is 30 ms (issue 12). The loader here hands
each value to psycopg's compiled loader, then does what Django's does with the result
(`replace(tzinfo=...)`, when that changes anything): the values are the same
(tests/core/test_postgresql_backend.py). Upstream: psycopg issue #1273, Django ticket #36960.

A server thread keeps its connection from one request to the next (CONN_MAX_AGE) and checks it
before reuse (CONN_HEALTH_CHECKS): Django's check sends `SELECT 1` and waits for the answer, a
round trip at the start of every request, as much as the one query of a poll that finds
nothing new. Here an idle connection is judged by its socket instead: a server that ended the
session (a restart, `idle_session_timeout`, `pg_terminate_backend`) sent its last message and
closed the socket, which is then readable; an idle connection nobody ended has nothing to
read. Whenever the socket has something to read, or the connection saw an error, or psycopg
knows it broken, Django's own check decides, with its `SELECT 1`. A connection lost without
a word (a cable pulled between two machines) fails its request as with Django's check, which
then waited for the network's timeout.
"""

from __future__ import annotations

import functools
import select

import psycopg
from django.conf import settings
from django.db.backends.postgresql import base
from django.db.backends.postgresql.psycopg_any import BaseTzLoader, get_adapters_template
from psycopg import adapt, pq
from psycopg.postgres import types

_TIMESTAMPTZ = types["timestamptz"].oid
#: psycopg's own timestamptz loader: the compiled one when psycopg[binary] (or [c]) is there.
_COMPILED = psycopg.adapters.get_loader(_TIMESTAMPTZ, pq.Format.TEXT)


class CompiledTzLoader(BaseTzLoader):
    """Django's timestamptz loader (its class, hence its `timezone`, which Django's cursors
    check), parsing with psycopg's compiled loader instead of the pure-Python one."""

    def __init__(self, oid, context=None):
        super().__init__(oid, context)
        self._parse = _COMPILED(oid, context).load

    def load(self, data):
        value = self._parse(data)
        # (Django's loader always replaces; a replace costs more than the parse, and changes
        # nothing when the connection's time zone is Django's, UTC: Django sets it so)
        if value.tzinfo is self.timezone:
            return value
        return value.replace(tzinfo=self.timezone)


@functools.lru_cache
def adapters_template(use_tz: bool, timezone) -> adapt.AdaptersMap:
    """Django's adapters for new connections, with the compiled timestamptz loader."""
    context = adapt.AdaptersMap(get_adapters_template(use_tz, timezone))
    loader = type("SpecificCompiledTzLoader", (CompiledTzLoader,), {"timezone": timezone})
    context.register_loader("timestamptz", loader)
    return context


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        params = super().get_connection_params()
        params["context"] = adapters_template(settings.USE_TZ, self.timezone)
        return params

    def is_usable(self):
        connection = self.connection
        if connection is None or connection.closed or self.errors_occurred:
            return super().is_usable()
        try:
            pgconn = connection.pgconn
            idle = pgconn.transaction_status == pq.TransactionStatus.IDLE
            if pgconn.status != pq.ConnStatus.OK or not idle:
                return super().is_usable()
            readable, _, _ = select.select([pgconn.socket], [], [], 0)
        except (OSError, ValueError, AttributeError):
            return super().is_usable()
        return True if not readable else super().is_usable()
