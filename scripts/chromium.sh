#!/usr/bin/env bash
# chromium.sh - makes sure Debian's chromium is installed: the browser tests (tests/browser) drive
# it headless through playwright-core to check the local cloud's console and the drift report's page.
#
#   scripts/chromium.sh          install chromium with apt when missing, print its version
#
# Needs root for apt-get (scripts/apt-install.sh, which waits while another process holds the
# package manager's lock, saying which process it waits for).
set -euo pipefail

say() { echo "chromium: $*" >&2; }

if ! command -v chromium >/dev/null 2>&1; then
  [[ $(id -u) == 0 ]] || { say "ERROR: installing chromium needs root"; exit 1; }
  say "installing chromium"
  bash "$(dirname "$0")/apt-install.sh" chromium
fi
say "$(chromium --version 2>/dev/null | head -n1)"
