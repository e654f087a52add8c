#!/usr/bin/env bash
# Starts/stops the local cloud in the background for `make demo`, or runs it in the foreground.
#   scripts/local-cloud.sh start|stop|status|run
# State (pid, log, persisted resources, issued credentials) lives in .state/ of the work tree
# (KRCLOUD_STATE_DIR moves it).
#
# The port: a running local cloud's own, from its state file (.state/local-cloud.json), whatever
# LOCAL_CLOUD_PORT says; so `make demo LOCAL_CLOUD_PORT=8795` then `make demo-destroy` meet the same
# cloud. A new one listens on LOCAL_CLOUD_PORT (default 8790). Asking for another port than the
# running cloud's fails, naming both, and changes nothing: nothing here deletes a running cloud's
# files (only a stopped one's, which describe nothing any more).
#
# `start` succeeds only when the process it started is the one serving: it waits until that process
# has written the state file (it does so once it listens) and fails, with the reason from its log,
# as soon as the process exits (a port already in use, by another local cloud or anything else).
#
# Messages name the command the user ran (KRCLOUD_COMMAND, which the Makefile sets to `make <goals>`).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="${KRCLOUD_STATE_DIR:-$ROOT/.state}"
ASKED_PORT="${LOCAL_CLOUD_PORT:-}"
DEFAULT_PORT=8790
COMMAND="${KRCLOUD_COMMAND:-scripts/local-cloud.sh ${1:-}}"
PIDFILE="$STATE/local-cloud.pid"
STATE_FILE="$STATE/local-cloud.json"
LOG="$STATE/local-cloud.log"
START_TIMEOUT_S="${LOCAL_CLOUD_START_TIMEOUT_S:-60}"
mkdir -p "$STATE"

alive() { kill -0 "$1" 2>/dev/null; }
# A pid is the local cloud's when that process runs krcloud-local-cloud (not a reused pid).
is_local_cloud() { alive "$1" && ps -o args= -p "$1" 2>/dev/null | grep -q 'krcloud-local-cloud'; }
# A value of the state file (written whole by the local cloud once it listens).
state_value() { [ -s "$STATE_FILE" ] && sed -n "s/^ *\"$1\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$STATE_FILE" | head -n1; }
state_url() { state_value url; }
# The running local cloud's pid: from the pid file, or from the state file (which names it).
running_pid() {
  local pid
  for pid in "$(cat "$PIDFILE" 2>/dev/null || true)" "$(state_value pid || true)"; do
    if [ -n "$pid" ] && is_local_cloud "$pid"; then
      echo "$pid"
      return 0
    fi
  done
  return 1
}
healthy() { curl -fsS --max-time 5 "$1/_control/inventory" >/dev/null 2>&1; }
port_of() { local url=$1; echo "${url##*:}"; }
# The first port after $1 that nothing listens on, for the message about a taken port.
free_port_after() {
  local p=$(($1 + 1))
  while [ "$p" -lt $(($1 + 100)) ]; do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
    p=$((p + 1))
  done
  echo $(($1 + 1))
}

# Fails unless no local cloud runs; removes what a stopped one left.
refuse_if_running() {
  local pid url
  if pid=$(running_pid); then
    url=$(state_url || true)
    if [ -z "$url" ]; then
      echo "a local cloud is running (pid $pid) but $STATE_FILE is missing: stop it with make local-cloud-stop" >&2
      exit 1
    fi
    if [ -n "$ASKED_PORT" ] && [ "$ASKED_PORT" != "$(port_of "$url")" ]; then
      echo "a local cloud is already running on $url (pid $pid), not on port $ASKED_PORT: run \`$COMMAND\` without LOCAL_CLOUD_PORT to use it, or stop it first (make local-cloud-stop)" >&2
      exit 1
    fi
    return 1
  fi
  rm -f "$PIDFILE" "$STATE_FILE"
}

case "${1:-}" in
  start)
    if ! refuse_if_running; then
      pid=$(running_pid)
      url=$(state_url)
      if ! healthy "$url"; then
        echo "the local cloud on $url (pid $pid) does not answer; see $LOG, then make local-cloud-stop and start it again" >&2
        exit 1
      fi
      echo "local cloud already running on $url (pid $pid)"
      exit 0
    fi
    PORT="${ASKED_PORT:-$DEFAULT_PORT}"
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
          echo "port $PORT is in use by another process: stop it, or choose another port, e.g. $COMMAND LOCAL_CLOUD_PORT=$(free_port_after "$PORT")" >&2
        fi
        rm -f "$STATE_FILE"
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
  run)
    # In the foreground (make local-cloud), with the same state files: never beside a running one.
    if ! refuse_if_running; then
      echo "a local cloud is already running on $(state_url) (pid $(running_pid)): use it, or stop it first (make local-cloud-stop)" >&2
      exit 1
    fi
    exec node "$ROOT/dist/bin/krcloud-local-cloud.js" --port "${ASKED_PORT:-$DEFAULT_PORT}" \
      --persist "$STATE/local-cloud-data.json" --state-file "$STATE_FILE"
    ;;
  stop)
    if pid=$(running_pid); then
      url=$(state_url || true)
      kill "$pid"
      # Wait for it to close its port and stop its cache nodes, so a start right after finds them free.
      for _ in $(seq 1 300); do alive "$pid" || break; sleep 0.1; done
      if alive "$pid"; then
        echo "the local cloud (pid $pid) has not stopped within 30 s; its files are kept" >&2
        exit 1
      fi
      echo "local cloud stopped${url:+ ($url)}"
    else
      echo "local cloud not running"
    fi
    # The state file describes a running local cloud only (start writes it again).
    rm -f "$PIDFILE" "$STATE_FILE"
    ;;
  status)
    pid=$(running_pid) && healthy "$(state_url)"
    ;;
  *) echo "usage: $0 start|stop|status|run" >&2; exit 2 ;;
esac
