#!/usr/bin/env bash
# with-peers.sh - runs a command (the test suites) with the real servers it needs beside it, and
# stops what it started when the command ends, fails or is interrupted (Ctrl-C, kill):
#
#   scripts/with-peers.sh [swift] [sql] -- <command>...
#
# - swift: the Swift peer (scripts/swift-peer.sh); sql: PostgreSQL and MariaDB (scripts/sql-peers.sh).
#   A peer already running before (another run's, or one started by hand) is used and left running;
#   only the ones this run started are stopped.
# - Every process the command leaves behind (a local cloud a test started, its redis-server nodes) is
#   stopped too: they carry this run's KRCLOUD_RUN_ID in their environment, which nothing else has.
# - The command's temporary files go in a folder of this run (its TMPDIR), removed at the end: a test
#   that forgets a temporary folder leaves nothing on the machine.
#
# By hand: `bash scripts/swift-peer.sh stop`, `bash scripts/sql-peers.sh stop`, `make local-cloud-stop`.
set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
say() { echo "with-peers: $*" >&2; }

peers=()
while (($# > 0)) && [[ $1 != -- ]]; do
  case $1 in
    swift | sql) peers+=("$1") ;;
    *) say "usage: $0 [swift] [sql] -- <command>..."; exit 2 ;;
  esac
  shift
done
[[ ${1:-} == -- ]] && shift
(($# > 0)) || { say "usage: $0 [swift] [sql] -- <command>..."; exit 2; }

# Given to the command only: the peers this run starts are stopped by their own scripts, in order.
run_id="with-peers-$$-$RANDOM$RANDOM"
started=() # "swift", "sql pg", "sql mariadb": what to stop
child=
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/krcloud-run.XXXXXX")

# Stops, in this order: the command (if still running), what it left running, the peers we started.
cleanup() {
  local rc=$? pid pids=()
  trap '' INT TERM
  [[ -n $child ]] && kill -TERM "$child" 2>/dev/null && wait "$child" 2>/dev/null || true
  # Passes until one finds nothing new: a process caught inside exec() shows an empty environment for
  # a moment, and one may start another while it is stopped. (kill -0: one may have ended since.)
  local -A told=()
  local pass
  for pass in 1 2 3 4 5 6 7 8; do
    pids=()
    for pid in $(grep -lsz "^KRCLOUD_RUN_ID=$run_id\$" /proc/[0-9]*/environ | cut -d/ -f3); do
      [[ $pid != "$$" && -z ${told[$pid]:-} ]] && kill -0 "$pid" 2>/dev/null && pids+=("$pid")
    done
    if ((${#pids[@]} == 0)); then
      ((pass > 1)) && break
    else
      say "stopping ${#pids[@]} processes this run left running: $(ps -o comm= -p "$(IFS=,; echo "${pids[*]}")" | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')"
      kill -TERM "${pids[@]}" 2>/dev/null || true
      for pid in "${pids[@]}"; do told[$pid]=1; done
    fi
    sleep 0.1
  done
  if [[ -d $run_tmp ]]; then
    say "removing this run's temporary files ($(du -sm "$run_tmp" 2>/dev/null | cut -f1) MiB)"
    rm -rf "$run_tmp" 2>/dev/null || rm -rf "$run_tmp" 2>/dev/null || say "could not remove all of $run_tmp"
  fi
  for what in "${started[@]}"; do
    say "stopping $what (started by this run)"
    case $what in
      swift) bash "$SCRIPTS/swift-peer.sh" stop || true ;;
      "sql "*) bash "$SCRIPTS/sql-peers.sh" stop "${what#sql }" || true ;;
    esac
  done
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for p in "${peers[@]}"; do
  case $p in
    swift)
      if bash "$SCRIPTS/swift-peer.sh" status >/dev/null 2>&1; then
        say "the Swift peer is running already: used, and left running"
      else
        started+=(swift)
        bash "$SCRIPTS/swift-peer.sh" start >/dev/null
      fi
      eval "$(bash "$SCRIPTS/swift-peer.sh" env)"
      export KRCLOUD_SWIFT_AUTH_URL KRCLOUD_SWIFT_USER KRCLOUD_SWIFT_KEY
      ;;
    sql)
      running=$(bash "$SCRIPTS/sql-peers.sh" running)
      for s in pg mariadb; do
        if [[ " $running " == *" $s "* ]]; then say "$s is running already (sql-peers): used, and left running"; else started+=("sql $s"); fi
      done
      bash "$SCRIPTS/sql-peers.sh" start >/dev/null
      eval "$(bash "$SCRIPTS/sql-peers.sh" env)"
      export KRCLOUD_PG_URL KRCLOUD_MARIADB_URL
      ;;
  esac
done

# The command runs in the background so that a TERM to this script reaches it (bash defers its traps
# while a foreground command runs); as a background job it ignores Ctrl-C's INT, and cleanup stops it.
KRCLOUD_RUN_ID=$run_id TMPDIR=$run_tmp "$@" &
child=$!
wait "$child" && rc=0 || rc=$?
child=
exit "$rc"
