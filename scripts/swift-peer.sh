#!/usr/bin/env bash
# swift-peer.sh - run a real OpenStack Swift (Debian 12 packages, 2.30.x) on
# loopback as a conformance peer for the object-storage tests.
#
#   scripts/swift-peer.sh start    install if missing, start, wait, print env
#   scripts/swift-peer.sh stop     stop everything this script started
#   scripts/swift-peer.sh status   exit 0 when proxy, backends and auth work
#   scripts/swift-peer.sh env      print KEY=value lines for the tests
#   scripts/swift-peer.sh purge    stop and delete the state directory
#
# Settings (environment):
#   KRCLOUD_SWIFT_DIR            state directory   (default /tmp/krcloud-swift)
#   KRCLOUD_SWIFT_PORT           proxy port        (default 8280)
#   KRCLOUD_SWIFT_START_TIMEOUT  seconds to wait   (default 60)
#
# No systemd/init is used: every server runs in its own session (setsid) with
# its pid in $DIR/run, logs in $DIR/log. Needs root (apt install, user = root).
set -euo pipefail

DIR="${KRCLOUD_SWIFT_DIR:-/tmp/krcloud-swift}"
PORT="${KRCLOUD_SWIFT_PORT:-8280}"
TIMEOUT="${KRCLOUD_SWIFT_START_TIMEOUT:-60}"
ETC="$DIR/etc"
RUN="$DIR/run"
LOG="$DIR/log"
SRV="$DIR/srv"
PY=/usr/bin/python3
USER_NAME="test:tester"
USER_KEY="testing"
SERVICES="memcached account container object proxy container-updater object-updater"
PACKAGES="swift swift-proxy swift-account swift-container swift-object memcached curl"

say() { echo "swift-peer: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------- install ---
is_installed() {
  local b
  for b in swift-proxy-server swift-account-server swift-container-server \
           swift-object-server swift-ring-builder memcached curl; do
    command -v "$b" >/dev/null 2>&1 || return 1
  done
  [ -x "$PY" ] || return 1
}

install_packages() {
  is_installed && return 0
  [ "$(id -u)" = 0 ] || die "packages missing and not root; install: $PACKAGES"
  say "installing $PACKAGES (apt)"
  local made_policy=0
  # keep the packages' init scripts from trying to start services
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    made_policy=1
  fi
  local rc=0
  # shellcheck disable=SC2086 # PACKAGES is a list of words
  bash "$(dirname "$0")/apt-install.sh" -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
    $PACKAGES >&2 || rc=$?
  [ "$made_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
  [ "$rc" = 0 ] || die "apt-get failed (rc=$rc)"
  is_installed || die "packages installed but binaries still missing"
}

# ------------------------------------------------------------------ ports ---
port_free() {  # true when 127.0.0.1:$1 can be bound
  "$PY" - "$1" <<'EOF'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
finally:
    s.close()
EOF
}

choose_ports() {
  # Reuse saved backend ports when they are still free (rings stay valid),
  # otherwise pick the next free ports above the proxy port.
  local saved="" p
  if [ -f "$DIR/ports.env" ]; then
    # shellcheck disable=SC1091
    . "$DIR/ports.env"
    if [ "${PROXY_PORT:-}" = "$PORT" ] &&
       port_free "$ACCOUNT_PORT" && port_free "$CONTAINER_PORT" &&
       port_free "$OBJECT_PORT" && port_free "$MEMCACHED_PORT"; then
      saved=1
    fi
  fi
  port_free "$PORT" || die "proxy port 127.0.0.1:$PORT is in use by another program (set KRCLOUD_SWIFT_PORT)"
  [ -n "$saved" ] && return 0
  local picked=() p=$((PORT + 1))
  while [ "${#picked[@]}" -lt 4 ]; do
    [ "$p" -gt 65535 ] && die "no free ports above $PORT"
    if port_free "$p"; then picked+=("$p"); fi
    p=$((p + 1))
  done
  PROXY_PORT="$PORT"
  ACCOUNT_PORT="${picked[0]}"; CONTAINER_PORT="${picked[1]}"
  OBJECT_PORT="${picked[2]}"; MEMCACHED_PORT="${picked[3]}"
  cat >"$DIR/ports.env" <<EOF
PROXY_PORT=$PROXY_PORT
ACCOUNT_PORT=$ACCOUNT_PORT
CONTAINER_PORT=$CONTAINER_PORT
OBJECT_PORT=$OBJECT_PORT
MEMCACHED_PORT=$MEMCACHED_PORT
EOF
  rm -f "$ETC"/*.ring.gz "$ETC"/*.builder  # ports changed: rebuild rings
}

# ----------------------------------------------------------------- config ---
backend_port() {  # account|container|object -> its port
  case $1 in
    account) echo "$ACCOUNT_PORT" ;;
    container) echo "$CONTAINER_PORT" ;;
    object) echo "$OBJECT_PORT" ;;
  esac
}

stock_filters() {  # [filter:<name>] sections that only name their egg (<name> with - as _)
  local f
  for f in "$@"; do printf '\n[filter:%s]\nuse = egg:swift#%s\n' "$f" "${f//-/_}"; done
}

write_configs() {
  mkdir -p "$ETC" "$RUN" "$LOG" "$SRV/d1" "$DIR/cache" "$DIR/bin"
  # Swift only reads swift.conf from a hard-coded /etc/swift/swift.conf; this
  # launcher points it at $ETC/swift.conf before any Swift module loads it,
  # then runs the packaged entry script unchanged.
  #   swift-run.py <packaged entry script> <args...>
  #   swift-run.py --updater container|object <conf>
  # The updater mode loops run_once() in one process: the packaged daemons
  # fork per partition every sweep and each fork spends ~0.7 CPU-s in
  # eventlet's monkey_patch (gc.collect), which a CI box should not pay.
  cat >"$DIR/bin/swift-run.py" <<'EOF'
import os, runpy, sys, time
import swift.common.utils as utils
for mod in ("swift.common.storage_policy", "swift.common.constraints"):
    if mod in sys.modules:
        raise SystemExit("swift-run: %s loaded before swift.conf override" % mod)
utils.SWIFT_CONF_FILE = os.environ["KRCLOUD_SWIFT_CONF_FILE"]
if sys.argv[1] != "--updater":
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")
    sys.exit(0)
kind, conf_file = sys.argv[2], sys.argv[3]
section = kind + "-updater"
utils.validate_configuration()
if kind == "container":
    from swift.container.updater import ContainerUpdater as klass
else:
    from swift.obj.updater import ObjectUpdater as klass
conf = utils.readconf(conf_file, section)
logger = utils.get_logger(conf, conf.get("log_name", section),
                          log_to_console=True, log_route=section)
os.environ["TZ"] = "UTC+0"
time.tzset()
daemon = klass(conf, logger=logger)
interval = float(conf.get("interval", 5))
logger.warning("krcloud %s loop started, interval %ss", section, interval)
while True:
    try:
        daemon.run_once()
    except Exception:
        logger.exception("%s sweep failed", section)
    time.sleep(interval)
EOF
  if [ ! -f "$ETC/swift.conf" ]; then
    local suffix
    suffix="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
    cat >"$ETC/swift.conf" <<EOF
# Swift defaults on purpose: no [swift-constraints] overrides.
[swift-hash]
swift_hash_path_suffix = $suffix
swift_hash_path_prefix = krcloud

[storage-policy:0]
name = Policy-0
default = yes
EOF
  fi

  local common="[DEFAULT]
bind_ip = 127.0.0.1
user = root
swift_dir = $ETC
devices = $SRV
mount_check = false
disable_fallocate = true
recon_cache_path = $DIR/cache
log_level = INFO
"
  local s port
  for s in account container object; do
    port=$(backend_port "$s")
    {
      printf '%slog_name = %s\n' "$common" "$s-server"
      cat <<EOF
bind_port = $port
workers = 1

[pipeline:main]
pipeline = healthcheck $s-server

[app:$s-server]
use = egg:swift#$s

[filter:healthcheck]
use = egg:swift#healthcheck
EOF
      # background daemons: push container stats to the account (account
      # listing counts/bytes) and retry deferred container updates
      case $s in
        container) printf '\n[container-updater]\ninterval = 2\nlog_level = WARNING\n' ;;
        object) printf '\n[object-updater]\ninterval = 5\nlog_level = WARNING\n' ;;
      esac
    } >"$ETC/$s-server.conf"
  done

  {
    printf '%slog_name = %s\n' "$common" "proxy-server"
    cat <<EOF
bind_port = $PROXY_PORT
workers = 1

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl ratelimit tempauth copy slo dlo versioned_writes proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
allow_account_management = true

[filter:tempauth]
use = egg:swift#tempauth
# user_<account>_<user> = <key> [group...]; storage url = /v1/AUTH_<account>
user_test_tester = testing .admin .reseller_admin
user_test_tester2 = testing2 .admin
user_test_tester3 = testing3
user_test2_tester2 = testing2 .admin
EOF
    stock_filters catch_errors gatekeeper healthcheck proxy-logging
    printf '\n[filter:cache]\nuse = egg:swift#memcache\nmemcache_servers = 127.0.0.1:%s\n' "$MEMCACHED_PORT"
    stock_filters listing_formats bulk tempurl ratelimit copy slo versioned_writes dlo
  } >"$ETC/proxy-server.conf"
}

build_rings() {
  local s port rc
  for s in account container object; do
    [ -f "$ETC/$s.ring.gz" ] && continue
    port=$(backend_port "$s")
    rm -f "$ETC/$s.builder"
    (
      cd "$ETC"
      swift-ring-builder "$s.builder" create 10 1 1 >/dev/null
      swift-ring-builder "$s.builder" add "r1z1-127.0.0.1:$port/d1" 100 >/dev/null
      rc=0; swift-ring-builder "$s.builder" rebalance >/dev/null || rc=$?
      [ "$rc" -le 1 ] || exit "$rc"   # 1 = warning, still written
    ) || die "ring build for $s failed"
    [ -f "$ETC/$s.ring.gz" ] || die "ring $s.ring.gz not written"
  done
}

check_xattr() {
  "$PY" - "$SRV/d1" <<'EOF' || die "$SRV does not support user xattrs (Swift needs them); set KRCLOUD_SWIFT_DIR to an ext4/xfs path"
import os, sys, tempfile
fd, p = tempfile.mkstemp(dir=sys.argv[1])
try:
    os.setxattr(p, "user.krcloud", b"1")
finally:
    os.close(fd); os.unlink(p)
EOF
}

# -------------------------------------------------------------- processes ---
pid_alive() {  # pidfile -> true if that process still runs and is ours
  local pid cmd
  [ -f "$1" ] || return 1
  pid="$(cat "$1" 2>/dev/null)" || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  # guard against pid reuse (and zombies, whose cmdline is empty)
  cmd="$(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline")" || return 1
  case "$1" in
    */memcached.pid) case "$cmd" in memcached*) return 0 ;; esac ;;
    *) case "$cmd" in *"$DIR/bin/swift-run.py"*) return 0 ;; esac ;;
  esac
  return 1
}

launch() {  # name, command...
  local name="$1"; shift
  # Not a process-group leader here, so setsid execs in place: $! is the
  # server's pid and also its process-group id (used by stop).
  setsid "$@" </dev/null >>"$LOG/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
}

start_servers() {
  launch memcached memcached -l 127.0.0.1 -p "$MEMCACHED_PORT" -U 0 -m 64 -u root
  local s
  for s in account container object proxy; do
    KRCLOUD_SWIFT_CONF_FILE="$ETC/swift.conf" \
      launch "$s" "$PY" "$DIR/bin/swift-run.py" "$(command -v swift-$s-server)" \
        "$ETC/$s-server.conf" --verbose
  done
  for s in container object; do
    KRCLOUD_SWIFT_CONF_FILE="$ETC/swift.conf" \
      launch "$s-updater" "$PY" "$DIR/bin/swift-run.py" --updater "$s" \
        "$ETC/$s-server.conf"
  done
}

members() {  # pgid... -> pids of our processes (leaders and workers) in them
  local d line rest pgid g cmd out=""
  for d in /proc/[0-9]*; do
    read -r line 2>/dev/null <"$d/stat" || continue
    rest="${line##*) }"                 # fields after "(comm)"
    read -r _ _ pgid _ <<<"$rest"        # state ppid pgrp
    for g in "$@"; do
      [ "$pgid" = "$g" ] || continue
      cmd="$(tr '\0' ' ' 2>/dev/null <"$d/cmdline")" || continue
      case "$cmd" in
        *"$DIR/bin/swift-run.py"*|memcached*) out="$out ${d#/proc/}" ;;
      esac
    done
  done
  echo $out
}

stop_servers() {
  local s f pgids="" pids i
  for s in $SERVICES; do
    f="$RUN/$s.pid"
    [ -f "$f" ] && pgids="$pgids $(cat "$f")"
  done
  [ -n "$pgids" ] || return 0
  # shellcheck disable=SC2086
  pids="$(members $pgids)"
  if [ -n "$pids" ]; then
    kill -TERM $pids 2>/dev/null || true
    for i in $(seq 1 50); do
      pids="$(members $pgids)"
      [ -z "$pids" ] && break
      sleep 0.2
    done
    [ -n "$pids" ] && { kill -KILL $pids 2>/dev/null || true; }
  fi
  for s in $SERVICES; do rm -f "$RUN/$s.pid"; done
  return 0
}

# ----------------------------------------------------------------- checks ---
http_code() { curl -s -o /dev/null -m 5 -w '%{http_code}' "$@" 2>/dev/null || true; }

healthy() {  # quiet check; $1=verbose to report
  local v="${1:-}" ok=0 s code port
  [ -f "$DIR/ports.env" ] || { [ -n "$v" ] && say "not configured ($DIR/ports.env missing)"; return 1; }
  # shellcheck disable=SC1091
  . "$DIR/ports.env"
  for s in $SERVICES; do
    if ! pid_alive "$RUN/$s.pid"; then
      [ -n "$v" ] && say "$s: not running"
      ok=1
    fi
  done
  for s in account container object proxy; do
    eval "port=\$$(echo "$s" | tr a-z A-Z)_PORT"
    code="$(http_code "http://127.0.0.1:$port/healthcheck")"
    if [ "$code" != 200 ]; then
      [ -n "$v" ] && say "$s (127.0.0.1:$port): healthcheck -> ${code:-none}"
      ok=1
    fi
  done
  [ "$ok" = 0 ] || return 1
  local hdrs token url
  hdrs="$(curl -s -m 5 -D - -o /dev/null -H "X-Auth-User: $USER_NAME" -H "X-Auth-Key: $USER_KEY" \
    "http://127.0.0.1:$PORT/auth/v1.0" 2>/dev/null | tr -d '\r')" || true
  token="$(printf '%s\n' "$hdrs" | sed -n 's/^[Xx]-[Aa]uth-[Tt]oken: *//p' | head -n1)"
  url="$(printf '%s\n' "$hdrs" | sed -n 's/^[Xx]-[Ss]torage-[Uu]rl: *//p' | head -n1)"
  if [ -z "$token" ] || [ -z "$url" ]; then
    [ -n "$v" ] && say "auth: no X-Auth-Token/X-Storage-Url from /auth/v1.0"
    return 1
  fi
  code="$(http_code -I -H "X-Auth-Token: $token" "$url")"
  case "$code" in
    2??) ;;
    *) [ -n "$v" ] && say "account HEAD $url -> $code"; return 1 ;;
  esac
  [ -n "$v" ] && say "healthy: proxy 127.0.0.1:$PORT (account $ACCOUNT_PORT, container $CONTAINER_PORT, object $OBJECT_PORT, memcached $MEMCACHED_PORT)"
  return 0
}

print_env() {
  cat <<EOF
KRCLOUD_SWIFT_AUTH_URL=http://127.0.0.1:$PORT/auth/v1.0
KRCLOUD_SWIFT_USER=$USER_NAME
KRCLOUD_SWIFT_KEY=$USER_KEY
KRCLOUD_SWIFT_STORAGE_URL=http://127.0.0.1:$PORT/v1/AUTH_test
EOF
}

# --------------------------------------------------------------- commands ---
cmd_start() {
  install_packages
  mkdir -p "$DIR"
  if healthy; then
    print_env
    return 0
  fi
  stop_servers
  choose_ports
  write_configs
  check_xattr
  build_rings
  start_servers
  local deadline=$((SECONDS + TIMEOUT)) s
  until healthy; do
    for s in $SERVICES; do
      pid_alive "$RUN/$s.pid" || {
        say "$s exited during start-up; last log lines ($LOG/$s.log):"
        tail -n 20 "$LOG/$s.log" >&2 || true
        stop_servers
        exit 1
      }
    done
    if [ "$SECONDS" -ge "$deadline" ]; then
      healthy verbose || true
      say "not healthy after ${TIMEOUT}s; logs in $LOG"
      stop_servers
      exit 1
    fi
    sleep 0.3
  done
  say "started (state in $DIR)"
  print_env
}

cmd_purge() {
  stop_servers
  if [ -d "$DIR" ]; then
    if [ ! -f "$DIR/bin/swift-run.py" ] && [ -n "$(ls -A "$DIR")" ]; then
      die "refusing to delete $DIR: not created by this script"
    fi
    rm -rf "$DIR"
  fi
}

case "${1:-}" in
  start) cmd_start ;;
  stop) stop_servers; say "stopped" ;;
  status) healthy verbose ;;
  env) print_env ;;
  purge) cmd_purge; say "purged $DIR" ;;
  *) echo "usage: $0 {start|stop|status|env|purge}" >&2; exit 2 ;;
esac
