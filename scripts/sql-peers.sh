#!/usr/bin/env bash
# sql-peers.sh - run real PostgreSQL 15 and MariaDB 10.11 (Debian 12 packages) on
# loopback for the data query tests' real-server mode.
#
#   scripts/sql-peers.sh start    install if missing, init throwaway data dirs, start, print env
#   scripts/sql-peers.sh stop     stop both servers this script started (stop pg|mariadb: one)
#   scripts/sql-peers.sh running  print which of them run: pg, mariadb
#   scripts/sql-peers.sh env      print the KEY=value lines the tests read
#   scripts/sql-peers.sh purge    stop and delete the state directory
#
# Settings (environment):
#   KRCLOUD_SQL_DIR        state directory (default /tmp/krcloud-sql)
#   KRCLOUD_PG_PORT        PostgreSQL port (default 55432)
#   KRCLOUD_MARIADB_PORT   MariaDB port    (default 53306)
#
# Needs root for apt-get. initdb refuses root, so PostgreSQL runs as the `postgres`
# user (created by the Debian package); MariaDB runs as root with --user=root.
# Both bind 127.0.0.1 only. No systemd: pids are in $DIR/run, logs in $DIR/log.
set -euo pipefail

DIR="${KRCLOUD_SQL_DIR:-/tmp/krcloud-sql}"
PG_PORT="${KRCLOUD_PG_PORT:-55432}"
MY_PORT="${KRCLOUD_MARIADB_PORT:-53306}"
PG_BIN=/usr/lib/postgresql/15/bin
PG_PASSWORD=krcloud-pg
MY_PASSWORD=krcloud-my

say() { echo "sql-peers: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

install() {
  local missing=()
  [[ -x $PG_BIN/initdb && -x /usr/bin/psql ]] || missing+=(postgresql-15 postgresql-client-15)
  command -v mariadbd >/dev/null 2>&1 || [[ -x /usr/sbin/mariadbd ]] || missing+=(mariadb-server)
  command -v mariadb >/dev/null 2>&1 || missing+=(mariadb-client)
  ((${#missing[@]} == 0)) && return 0
  [[ $(id -u) == 0 ]] || die "installing ${missing[*]} needs root"
  say "installing ${missing[*]}"
  bash "$(dirname "$0")/apt-install.sh" "${missing[@]}"
}

wait_for() {
  local what=$1; shift
  for _ in $(seq 1 100); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  die "$what did not become ready (logs in $DIR/log)"
}

start_pg() {
  local data=$DIR/pg
  if [[ -f $DIR/run/pg.pid ]] && kill -0 "$(cat "$DIR/run/pg.pid")" 2>/dev/null; then return 0; fi
  rm -rf "$data"
  mkdir -p "$data" "$DIR/run" "$DIR/log"
  chown postgres:postgres "$data" "$DIR/log"
  printf '%s\n' "$PG_PASSWORD" >"$DIR/run/pgpass"
  chown postgres:postgres "$DIR/run/pgpass"
  su postgres -s /bin/sh -c "$PG_BIN/initdb -D '$data' -U postgres --auth=scram-sha-256 --pwfile='$DIR/run/pgpass' -E UTF8 >'$DIR/log/initdb.log' 2>&1"
  rm -f "$DIR/run/pgpass"
  su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D '$data' -l '$DIR/log/postgres.log' -o \"-c listen_addresses=127.0.0.1 -p $PG_PORT -k '$data'\" start >/dev/null"
  head -1 "$data/postmaster.pid" >"$DIR/run/pg.pid"
  PGPASSWORD=$PG_PASSWORD wait_for postgresql psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -Atc 'select 1'
}

start_mariadb() {
  local data=$DIR/mariadb
  if [[ -f $DIR/run/mariadb.pid ]] && kill -0 "$(cat "$DIR/run/mariadb.pid")" 2>/dev/null; then return 0; fi
  rm -rf "$data"
  mkdir -p "$data" "$DIR/run" "$DIR/log"
  mariadb-install-db --no-defaults --user=root --datadir="$data" --auth-root-authentication-method=normal >"$DIR/log/install-db.log" 2>&1
  setsid mariadbd --no-defaults --user=root --datadir="$data" --bind-address=127.0.0.1 --port="$MY_PORT" \
    --socket="$DIR/run/mariadb.sock" --pid-file="$DIR/run/mariadb.pid" --skip-log-bin \
    --innodb-buffer-pool-size=16M --performance-schema=OFF >"$DIR/log/mariadb.log" 2>&1 </dev/null &
  wait_for mariadb mariadb --no-defaults -S "$DIR/run/mariadb.sock" -u root -e 'select 1'
  mariadb --no-defaults -S "$DIR/run/mariadb.sock" -u root -e \
    "CREATE USER IF NOT EXISTS 'krcloud'@'127.0.0.1' IDENTIFIED BY '$MY_PASSWORD'; GRANT ALL ON *.* TO 'krcloud'@'127.0.0.1'; FLUSH PRIVILEGES;"
}

print_env() {
  echo "KRCLOUD_PG_URL=postgresql://postgres:$PG_PASSWORD@127.0.0.1:$PG_PORT/postgres"
  echo "KRCLOUD_MARIADB_URL=mysql://krcloud:$MY_PASSWORD@127.0.0.1:$MY_PORT/mysql"
}

# Prints which of the two run (from this state directory): "pg", "mariadb", both or nothing.
running() {
  local s out=()
  for s in pg mariadb; do
    [[ -f $DIR/run/$s.pid ]] && kill -0 "$(cat "$DIR/run/$s.pid")" 2>/dev/null && out+=("$s")
  done
  echo "${out[*]}"
}

stop() { # [pg|mariadb]: one of them, or both
  local which=${1:-both}
  if [[ $which != mariadb && -f $DIR/run/pg.pid ]]; then
    su postgres -s /bin/sh -c "$PG_BIN/pg_ctl -D '$DIR/pg' -m fast stop >/dev/null 2>&1" || true
    rm -f "$DIR/run/pg.pid"
  fi
  if [[ $which != pg && -f $DIR/run/mariadb.pid ]]; then
    local pid
    pid=$(cat "$DIR/run/mariadb.pid")
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$DIR/run/mariadb.pid"
  fi
}

case "${1:-start}" in
  start)
    install
    start_pg
    start_mariadb
    say "PostgreSQL on 127.0.0.1:$PG_PORT, MariaDB on 127.0.0.1:$MY_PORT (stop: $0 stop)"
    print_env
    ;;
  stop) stop "${2:-both}" ;;
  running) running ;;
  env) print_env ;;
  purge)
    stop
    rm -rf "$DIR"
    ;;
  *) die "usage: $0 start|stop [pg|mariadb]|running|env|purge" ;;
esac
