#!/usr/bin/env bash
# redis.sh - makes sure Debian's redis-server (and redis-cli) are installed: the cache local cloud
# runs a real redis-server per node where one is on PATH (docs/local-cloud.md, Cache).
#
#   scripts/redis.sh          install redis-server and redis-tools with apt when missing, print the version
#
# Needs root for apt-get (scripts/apt-install.sh, which waits while another process holds the
# package manager's lock). The package's own service is not used: the local cloud starts its servers
# itself, on 127.0.0.1, and stops them with it.
set -euo pipefail

say() { echo "redis: $*" >&2; }

if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
  [[ $(id -u) == 0 ]] || { say "ERROR: installing redis-server needs root"; exit 1; }
  say "installing redis-server redis-tools"
  bash "$(dirname "$0")/apt-install.sh" redis-server redis-tools
fi
say "$(redis-server --version | cut -d' ' -f1-3)"
