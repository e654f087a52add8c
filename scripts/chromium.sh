#!/usr/bin/env bash
# chromium.sh - makes sure Debian's chromium is installed: the browser tests (tests/browser) drive
# it headless through playwright-core to check the local cloud's console and the drift report's page.
#
#   scripts/chromium.sh          install chromium with apt when missing, print its version
#
# Needs root for apt-get. apt waits for the dpkg lock another install holds (up to 10 minutes),
# saying so first, rather than failing at once.
set -euo pipefail

say() { echo "chromium: $*" >&2; }

if ! command -v chromium >/dev/null 2>&1; then
  [[ $(id -u) == 0 ]] || { say "ERROR: installing chromium needs root"; exit 1; }
  say "installing chromium (waits for the dpkg lock if another install holds it)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq </dev/null
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium </dev/null >/dev/null
fi
say "$(chromium --version 2>/dev/null | head -n1)"
