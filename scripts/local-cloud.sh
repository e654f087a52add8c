#!/usr/bin/env bash
# Starts/stops the local cloud in the background for `make demo`.
#   scripts/local-cloud.sh start|stop|status
# State (pid, log, persisted resources, issued credentials) lives in .state/ of the work tree
# (KRCLOUD_STATE_DIR moves it); the port is LOCAL_CLOUD_PORT (default 8790).
#
# `start` succeeds only when the process it started is the one serving: it waits until that process
# has written the state file (it does so once it listens) and fails, with the reason from its log,
# as soon as the process exits (a port already in use, by another local cloud or anything else).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${KRCLOUD_STATE_DIR:-$ROOT/.state}"
PORT="${LOCAL_CLOUD_PORT:-8790}"
PIDFILE="$STATE/local-cloud.pid"
STATE_FILE="$STATE/local-cloud.json"
LOG="$STATE/local-cloud.log"
START_TIMEOUT_S="${LOCAL_CLOUD_START_TIMEOUT_S:-60}"
mkdir -p "$STATE"

alive() { kill -0 "$1" 2>/dev/null; }
running() { [ -f "$PIDFILE" ] && alive "$(cat "$PIDFILE")"; }
healthy() { curl -fsS --max-time 5 "http://127.0.0.1:$PORT/_control/inventory" >/dev/null 2>&1; }
# The URL in the state file, which the process writes once it listens.
state_url() { [ -s "$STATE_FILE" ] && sed -n 's/^ *"url": *"\([^"]*\)".*/\1/p' "$STATE_FILE" | head -n1; }

case "${1:-}" in
  start)
    if running && [ "$(state_url)" = "http://127.0.0.1:$PORT" ] && healthy; then
      echo "local cloud already running on http://127.0.0.1:$PORT (pid $(cat "$PIDFILE"))"
      exit 0
    fi
    rm -f "$PIDFILE" "$STATE_FILE"
    nohup node "$ROOT/dist/bin/krcloud-local-cloud.js" --port "$PORT" \
      --persist "$STATE/local-cloud-data.json" --state-file "$STATE_FILE" \
      >"$LOG" 2>&1 </dev/null &
    pid=$!
    deadline=$((SECONDS + START_TIMEOUT_S))
    while :; do
      if ! alive "$pid"; then
        wait "$pid" 2>/dev/null || true
        reason=$(grep -m1 '^krcloud-local-cloud:' "$LOG" || grep -m1 -i 'error' "$LOG" || tail -n1 "$LOG" || true)
        echo "local cloud did not start on port $PORT: ${reason:-it exited (see $LOG)}" >&2
        if grep -q EADDRINUSE "$LOG"; then
          echo "port $PORT is in use by another process: stop it, or choose another port, e.g. make local-cloud-start LOCAL_CLOUD_PORT=8791" >&2
        fi
        exit 1
      fi
      [ "$(state_url)" = "http://127.0.0.1:$PORT" ] && break
      if [ "$SECONDS" -ge "$deadline" ]; then
        kill "$pid" 2>/dev/null || true
        echo "local cloud did not start on port $PORT within ${START_TIMEOUT_S}s; see $LOG" >&2
        exit 1
      fi
      sleep 0.1
    done
    echo "$pid" >"$PIDFILE"
    echo "local cloud running on http://127.0.0.1:$PORT (pid $pid); log: $LOG"
    ;;
  stop)
    if running; then
      pid=$(cat "$PIDFILE")
      kill "$pid"
      # Wait for it to close its port and stop its cache nodes, so a start right after finds them free.
      for _ in $(seq 1 300); do alive "$pid" || break; sleep 0.1; done
      echo "local cloud stopped"
    else
      echo "local cloud not running"
    fi
    # The state file describes a running local cloud only (start writes it again).
    rm -f "$PIDFILE" "$STATE_FILE"
    ;;
  status)
    running && healthy
    ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
