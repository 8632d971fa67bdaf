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
PORT=${PGPORT_TEST:-55432}
# A port another server already holds (say, one left by an earlier run) is skipped.
while (echo > /dev/tcp/127.0.0.1/$PORT) 2>/dev/null; do PORT=$((PORT + 1)); done
su postgres -s /bin/sh -c "$PGBIN/initdb -D $DATA -A trust -U postgres >/dev/null"
# autovacuum off: the tests fill their tables inside transactions it cannot see, so its ANALYZE
# of a table still empty left the planner sure of "0 rows", and a 1,000-player tournament's
# joins became nested loops of minutes (seen with the tests in two processes). Never analyzed,
# the planner sizes each table by its pages instead.
su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $DATA -o '-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c autovacuum=off' -l $DATA/log -w start >/dev/null"
"$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres tarotclub
# Who started it can stop it: `pg_ctl -D <this folder> stop` (.ci/run does, on exit).
if [ -n "${PG_DATA_OUT:-}" ]; then echo "$PGBIN/pg_ctl -D $DATA" > "$PG_DATA_OUT"; fi
echo "postgres://postgres@127.0.0.1:$PORT/tarotclub"
