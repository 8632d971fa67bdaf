"""Django's SQLite backend, with writers that take turns in the order they came.

With `transaction_mode: IMMEDIATE` every `transaction.atomic()` takes SQLite's write lock at
its BEGIN; a writer that finds it taken waits in SQLite's busy handler, which retries after
sleeps growing to 100 ms and lets whoever asks at the right moment in first. With eight
server threads saving at once (two processes of four, `make serve`), a few waited over a
second for a lock held a few milliseconds at a time (bench/load.py's burst; p99).

Here each atomic block first takes an exclusive lock on a lock file next to the database
(`flock`, which the kernel hands to the waiters as it is released, whatever the process or
thread), then begins as before; the lock is let go at COMMIT or ROLLBACK, or when the
connection closes (and by the kernel when a process dies). SQLite's own lock and busy
timeout stay underneath for any write outside an atomic block. An in-memory database (or a
system without flock) is left as Django has it.
"""

from __future__ import annotations

import contextlib
import os

from django.db.backends.sqlite3 import base, creation

try:
    import fcntl
except ImportError:  # pragma: no cover (Windows: SQLite's busy handler alone)
    fcntl = None


def lock_path(name) -> str:
    return f"{name}-writers.lock"


class DatabaseCreation(creation.DatabaseCreation):
    def _destroy_test_db(self, test_database_name, verbosity):
        super()._destroy_test_db(test_database_name, verbosity)
        if test_database_name and not self.is_in_memory_db(test_database_name):
            with contextlib.suppress(FileNotFoundError):
                os.remove(lock_path(test_database_name))  # the test database's lock file


class DatabaseWrapper(base.DatabaseWrapper):
    creation_class = DatabaseCreation
    _turn_fd: int | None = None
    _has_turn = False

    def _lock_path(self) -> str | None:
        # (a DEFERRED transaction only reads: the backup's and the export's snapshot, which
        # must not hold the writers back while it reads the whole club)
        if fcntl is None or self.transaction_mode in (None, "DEFERRED") or self.is_in_memory_db():
            return None
        return lock_path(self.settings_dict["NAME"])

    def _take_turn(self) -> None:
        path = self._lock_path()
        if path is None or self._has_turn:
            return
        if self._turn_fd is None:
            self._turn_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._turn_fd, fcntl.LOCK_EX)  # the GIL is let go while waiting
        self._has_turn = True

    def _end_turn(self) -> None:
        if self._has_turn:
            self._has_turn = False
            fcntl.flock(self._turn_fd, fcntl.LOCK_UN)

    def _start_transaction_under_autocommit(self):
        self._take_turn()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._end_turn()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._end_turn()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._end_turn()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._end_turn()
            if self._turn_fd is not None:
                os.close(self._turn_fd)
                self._turn_fd = None
