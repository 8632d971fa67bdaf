"""Django's PostgreSQL backend, whose check of a kept connection costs no round trip.

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

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
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
