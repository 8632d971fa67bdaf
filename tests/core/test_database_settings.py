"""The database as the production server opens it (`make serve`, bench/load.py).

SQLite: WAL (readers never wait for a writer), synchronous=NORMAL, a busy timeout and
BEGIN IMMEDIATE, so that two phones saving at once queue for the write lock instead of one
failing with "database is locked"; connections kept open between requests. PostgreSQL:
connections kept open and checked before reuse. Loaded in a fresh interpreter under the
production settings, as the server loads them (nothing is timed).
"""

from __future__ import annotations

import json

from tests.core.test_settings import production_env, run

SQLITE = """
import json, threading, django
django.setup()
from django.db import connection, transaction

with connection.cursor() as c:
    found = {}
    for pragma in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys"):
        c.execute(f"PRAGMA {pragma}")
        found[pragma] = c.fetchone()[0]
    c.execute("CREATE TABLE probe (n integer)")
connection.close()

# Two writers that both read before they write, as a deal's save does (the game's row, then
# the new deal). In SQLite's default (deferred) transactions both take a read lock, then
# neither can upgrade it: one fails at once with "database is locked", whatever the timeout.
errors = []
both_read = threading.Barrier(2, timeout=1)

def writer(n):
    try:
        with transaction.atomic(), connection.cursor() as c:
            c.execute("SELECT count(*) FROM probe")
            c.fetchone()
            try:
                both_read.wait()
            except threading.BrokenBarrierError:
                pass  # the other writer is waiting for the lock: as it should
            c.execute("INSERT INTO probe VALUES (%s)", [n])
    except Exception as e:
        errors.append(repr(e))
    finally:
        connection.close()

threads = [threading.Thread(target=writer, args=(n,)) for n in (1, 2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
with connection.cursor() as c:
    c.execute("SELECT count(*) FROM probe")
    rows = c.fetchone()[0]
settings = connection.settings_dict
print(json.dumps({
    **found,
    "transaction_mode": connection.transaction_mode,
    "conn_max_age": settings["CONN_MAX_AGE"],
    "rows": rows,
    "errors": errors,
}))
"""

SETTINGS = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "d = s.DATABASES['default']; "
    "print(json.dumps({k: d.get(k) for k in "
    "('ENGINE', 'CONN_MAX_AGE', 'CONN_HEALTH_CHECKS', 'OPTIONS')}))"
)


def test_sqlite_under_production_settings_is_wal_with_a_busy_timeout_and_queued_writers(
    tmp_path,
):
    done = run(["-c", SQLITE], production_env(tmp_path, TAROTCLUB_PLAIN_HTTP="1"))
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["journal_mode"] == "wal"
    assert found["synchronous"] == 1  # NORMAL: safe in WAL, no fsync at every commit
    assert found["busy_timeout"] >= 5000  # ms a writer waits for the lock before giving up
    assert found["foreign_keys"] == 1
    assert found["transaction_mode"] == "IMMEDIATE"
    # both writers saved, one after the other; neither was refused
    assert found["errors"] == []
    assert found["rows"] == 2
    # a thread keeps its connection between requests (no connect and PRAGMAs each time)
    assert found["conn_max_age"] is None or found["conn_max_age"] > 0


def test_postgresql_connections_are_kept_and_checked_before_reuse(tmp_path):
    env = production_env(
        tmp_path, TAROTCLUB_PLAIN_HTTP="1", DATABASE_URL="postgres://club@127.0.0.1:5432/club"
    )
    done = run(["-c", SETTINGS], env)  # nothing connects: the settings only
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    # Django's backend, checking a kept connection without a round trip
    assert found["ENGINE"] == "tarotclub.core.postgresql"
    assert found["CONN_MAX_AGE"] is None or found["CONN_MAX_AGE"] > 0
    # a connection the server closed meanwhile (restart, idle timeout) is replaced, not
    # handed to a request that would fail
    assert found["CONN_HEALTH_CHECKS"] is True
    # parameters bound by the server, and a statement run 5 times on a connection prepared
    # (Django's default is neither: every statement parsed and planned again)
    assert found["OPTIONS"]["server_side_binding"] is True
    assert found["OPTIONS"]["prepare_threshold"] == 5


def test_prepared_statements_can_be_turned_off_for_a_pooler_in_transaction_mode(tmp_path):
    url = "postgres://club@127.0.0.1:6432/club"
    for flag, threshold in (("1", None), ("yes", None), ("0", 5), ("", 5)):
        env = production_env(
            tmp_path,
            TAROTCLUB_PLAIN_HTTP="1",
            DATABASE_URL=url,
            TAROTCLUB_NO_PREPARED_STATEMENTS=flag,
        )
        done = run(["-c", SETTINGS], env)
        assert done.returncode == 0, done.stderr
        options = json.loads(done.stdout)["OPTIONS"]
        assert options["prepare_threshold"] == threshold, flag
        assert options["server_side_binding"] is True  # unnamed statements: any pooler


def test_sqlite_is_given_no_postgresql_options(tmp_path):
    done = run(["-c", SETTINGS], production_env(tmp_path, TAROTCLUB_PLAIN_HTTP="1"))
    assert done.returncode == 0, done.stderr
    options = json.loads(done.stdout)["OPTIONS"]
    assert "server_side_binding" not in options and "prepare_threshold" not in options


# Writers take turns in the order they came (a lock file, woken by the kernel), not by
# SQLite's busy handler, which retries after sleeps growing to 100 ms and lets a newcomer
# take the lock before a writer that has waited long: eight writers holding the lock a few ms
# each then saw waits of a second and more for some (bench/load.py's burst, p99).
QUEUE = """
import json, threading, time, django
django.setup()
from django.db import connection, transaction

with connection.cursor() as c:
    c.execute("CREATE TABLE probe (n integer, at real)")
connection.close()
order = []
first_in = threading.Event()

def writer(n):
    try:
        if n:
            first_in.wait()
            time.sleep(0.05 * n)  # 1, 2, 3 come in this order while 0 holds the lock
        with transaction.atomic(), connection.cursor() as c:
            order.append(n)
            if not n:
                first_in.set()
                time.sleep(0.4)
            c.execute("INSERT INTO probe VALUES (%s, 0)", [n])
    finally:
        connection.close()

threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"order": order, "engine": connection.settings_dict["ENGINE"]}))
"""


def test_sqlite_writers_take_their_turn_in_the_order_they_came(tmp_path):
    done = run(["-c", QUEUE], production_env(tmp_path, TAROTCLUB_PLAIN_HTTP="1"))
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["order"] == [0, 1, 2, 3]


# The backup's and the club export's snapshot is one DEFERRED read transaction: in WAL mode it
# sees one state while phones keep writing, so it must not take the writers' turn.
SNAPSHOT = """
import json, threading, time, django
django.setup()
from django.db import connection, transaction
from tarotclub.core.backup import snapshot

with connection.cursor() as c:
    c.execute("CREATE TABLE probe (n integer)")
connection.close()
events = []
reading = threading.Event()

def reader():
    try:
        with snapshot(), connection.cursor() as c:
            c.execute("SELECT count(*) FROM probe")
            c.fetchone()
            reading.set()
            time.sleep(0.6)
            c.execute("SELECT count(*) FROM probe")
            events.append(("reader saw", c.fetchone()[0]))
        events.append(("reader done", 0))
    finally:
        connection.close()

def writer():
    try:
        reading.wait()
        with transaction.atomic(), connection.cursor() as c:
            c.execute("INSERT INTO probe VALUES (1)")
        events.append(("writer done", 0))
    finally:
        connection.close()

threads = [threading.Thread(target=reader), threading.Thread(target=writer)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps(events))
"""


def test_a_snapshot_read_does_not_hold_the_writers_back(tmp_path):
    done = run(["-c", SNAPSHOT], production_env(tmp_path, TAROTCLUB_PLAIN_HTTP="1"))
    assert done.returncode == 0, done.stderr
    events = [tuple(e) for e in json.loads(done.stdout)]
    # the writer is done while the snapshot is still open, and the snapshot kept its state
    assert events == [("writer done", 0), ("reader saw", 0), ("reader done", 0)]
