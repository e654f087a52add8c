#!/usr/bin/env bash
# Starts/stops the local cloud in the background for `make demo`.
#   scripts/local-cloud.sh start|stop|status
# State (pid, log, persisted resources, issued credentials) lives in .state/ of the work tree.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${KRCLOUD_STATE_DIR:-$ROOT/.state}"
PORT="${LOCAL_CLOUD_PORT:-8790}"
PIDFILE="$STATE/local-cloud.pid"
mkdir -p "$STATE"

running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }
healthy() { curl -fsS "http://127.0.0.1:$PORT/_control/inventory" >/dev/null 2>&1; }

case "${1:-}" in
  start)
    if running && healthy; then echo "local cloud already running on http://127.0.0.1:$PORT (pid $(cat "$PIDFILE"))"; exit 0; fi
    nohup node "$ROOT/dist/bin/krcloud-local-cloud.js" --port "$PORT" \
      --persist "$STATE/local-cloud-data.json" --state-file "$STATE/local-cloud.json" \
      >"$STATE/local-cloud.log" 2>&1 </dev/null &
    echo $! >"$PIDFILE"
    for _ in $(seq 1 100); do healthy && [ -s "$STATE/local-cloud.json" ] && break; sleep 0.1; done
    healthy || { echo "local cloud did not start; see $STATE/local-cloud.log" >&2; exit 1; }
    echo "local cloud running on http://127.0.0.1:$PORT (pid $(cat "$PIDFILE")); log: $STATE/local-cloud.log"
    ;;
  stop)
    if running; then kill "$(cat "$PIDFILE")"; echo "local cloud stopped"; else echo "local cloud not running"; fi
    rm -f "$PIDFILE"
    ;;
  status)
    running && healthy
    ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
