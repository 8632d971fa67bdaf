"""Django's database sessions, read by one plain SELECT (`core.sql`).

Every request of a signed-in member or director reads its session first. The ORM compiled
that query (this key, not expired) in several times the time the database took to answer it:
a fifth of a director's page served from the cache (issue 12). Everything else (saving,
expiring, cycling the key, the session's data and its signature) is Django's own.
"""

from __future__ import annotations

import functools

from django.contrib.sessions.backends import db
from django.db import connection
from django.utils import timezone

from . import sql


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        """As Django's: the session of this key if it has not expired, else None (and the
        key forgotten, so that the session saved next gets a new one)."""
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(_session_sql(self.model, connection.vendor), [self.session_key, now])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return sql.columns_of(self.model, "s").build(row)


@functools.cache
def _session_sql(model, vendor: str) -> str:
    columns = sql.columns_of(model, "s")
    return (
        f"SELECT {columns.sql} FROM {sql.table(model)} s"
        f" WHERE s.{sql.column(model, 'session_key')} = %s"
        f" AND s.{sql.column(model, 'expire_date')} > %s"
    )
