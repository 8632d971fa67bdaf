#!/usr/bin/env bash
# Start a throw-away PostgreSQL on a local port for the DATABASE_URL test run; prints the URL.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PGBIN" ]; then
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
DATA=$(mktemp -d /tmp/tarotclub-pg.XXXXXX)
chown postgres "$DATA"
su postgres -s /bin/sh -c "$PGBIN/initdb -D $DATA/db -A trust -U postgres >/dev/null"
# The socket and its lock file live in this run's own folder (not in /tmp, where a lock file
# left by another server would stop this one), and so does the dynamic shared memory (not in
# /dev/shm, which a container may keep small).
# autovacuum off: the tests fill their tables inside transactions it cannot see, so its ANALYZE
# of a table still empty left the planner sure of "0 rows", and a 1,000-player tournament's
# joins became nested loops of minutes (seen with the tests in two processes). Never analyzed,
# the planner sizes each table by its pages instead.
OPTS="-k $DATA -c listen_addresses=127.0.0.1 -c fsync=off -c autovacuum=off -c dynamic_shared_memory_type=mmap"
PORT=${PGPORT_TEST:-55432}
started=
for attempt in 1 2 3; do
  # A port another server already holds (say, one left by an earlier run) is skipped.
  while (echo > /dev/tcp/127.0.0.1/$PORT) 2>/dev/null; do PORT=$((PORT + 1)); done
  if su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $DATA/db -o '-p $PORT $OPTS' -l $DATA/log.$attempt -t 180 -w start >/dev/null"; then
    started=1
    break
  fi
  # Say why, for the next reader of the CI log, then try the next port.
  echo "PostgreSQL did not start on port $PORT (attempt $attempt); its log:" >&2
  cat "$DATA/log.$attempt" >&2 || true
  su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $DATA/db -m immediate stop" >/dev/null 2>&1 || true
  PORT=$((PORT + 1))
  sleep 2
done
[ -n "$started" ] || { echo "PostgreSQL did not start; see the logs above" >&2; exit 1; }
"$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres tarotclub
# Who started it can stop it: `pg_ctl -D <this folder> stop` (.ci/run does, on exit).
if [ -n "${PG_DATA_OUT:-}" ]; then echo "$PGBIN/pg_ctl -D $DATA/db" > "$PG_DATA_OUT"; fi
echo "postgres://postgres@127.0.0.1:$PORT/tarotclub"
