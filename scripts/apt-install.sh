#!/usr/bin/env bash
# apt-install.sh - installs Debian packages for an install step (scripts/redis.sh, sql-peers.sh,
# swift-peer.sh), waiting for the package manager when another process holds its lock (an
# unattended upgrade on a new cloud VM, another apt-get), with a message saying which process it
# waits for, every 10 seconds, instead of failing or sitting silent.
#
#   scripts/apt-install.sh [apt-get install options] <package>...
#
# `apt-get update` runs first only when a package has no install candidate (a new machine's empty
# package lists). KRCLOUD_APT_WAIT is how long to wait for the lock, in seconds (default 600).
# Needs root. Progress and apt's errors go to stderr.
set -euo pipefail

WAIT=${KRCLOUD_APT_WAIT:-600}
LOCKS=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock)

say() { echo "apt-install: $*" >&2; }
(($# > 0)) || { say "usage: $0 [apt-get install options] <package>..."; exit 2; }
[[ $(id -u) == 0 ]] || { say "ERROR: installing $* needs root (apt-get)"; exit 1; }
export DEBIAN_FRONTEND=noninteractive

# Prints "<lock file> <pid> (<command>)" for a lock of apt/dpkg that a process holds, or nothing.
# apt and dpkg lock with fcntl, which /proc/locks lists by the file's inode.
holder() {
  local f ino pid
  for f in "${LOCKS[@]}"; do
    [[ -e $f ]] || continue
    ino=$(stat -c %i "$f")
    pid=$(awk -v ino="$ino" '{ n = split($6, d, ":"); if (d[n] == ino && $2 == "POSIX") { print $5; exit } }' /proc/locks)
    if [[ -n $pid ]]; then
      printf '%s %s (%s)\n' "$f" "$pid" "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-80 || echo '?')"
      return 0
    fi
  done
}

wait_for_lock() {
  local start=$SECONDS h last=-10
  while h=$(holder) && [[ -n $h ]]; do
    if ((SECONDS - start >= WAIT)); then
      say "ERROR: the package manager is still busy after ${WAIT}s (${h}); run this again when it is done"
      exit 1
    fi
    if ((SECONDS - last >= 10)); then
      say "waiting for the package manager: ${h%% *} is held by pid ${h#* } ($((SECONDS - start))s of at most ${WAIT}s)"
      last=$SECONDS
    fi
    sleep 1
  done
}

packages=()
skip=0
for a in "$@"; do
  if ((skip)); then skip=0; elif [[ $a == -o ]]; then skip=1; elif [[ $a != -* ]]; then packages+=("$a"); fi
done
# apt itself waits too (DPkg::Lock::Timeout) for a lock taken between our check and its start.
apt=(apt-get -q -o "DPkg::Lock::Timeout=$WAIT")
if apt-cache policy "${packages[@]}" 2>/dev/null | grep -q 'Candidate: (none)' ||
  [[ $(apt-cache policy "${packages[@]}" 2>/dev/null | grep -c 'Candidate:') -lt ${#packages[@]} ]]; then
  wait_for_lock
  say "apt-get update (package lists)"
  "${apt[@]}" update -qq </dev/null >&2
fi
wait_for_lock
say "installing ${packages[*]}"
"${apt[@]}" install -y -qq --no-install-recommends "$@" </dev/null >&2
