/**
 * Issue 38, item 2: every install step waits for the package manager's lock with a visible message
 * instead of failing (an unattended upgrade on a new cloud VM holds it for minutes). Every apt-get
 * of the install steps goes through scripts/apt-install.sh; here a helper holds dpkg's lock with
 * fcntl, as apt and dpkg do, for 30 seconds while it installs a package. The helper and the install
 * run in a mount namespace of their own over a copy of /var/lib/dpkg, so the machine's own lock is
 * never held (other work on the machine goes on). The package is one the machine has (redis-tools,
 * which `make test` installs): apt-get takes the lock all the same, and installs nothing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../harness/engine";

jest.setTimeout(180_000);

const HOLD_SECONDS = 30;
const SCRIPTS = path.join(REPO_ROOT, "scripts");

/** Why this machine cannot run the test, or undefined. */
function unsupported(): string | undefined {
  if (process.getuid?.() !== 0) return "needs root (apt-get, unshare)";
  if (spawnSync("unshare", ["-m", "--propagation", "private", "true"]).status !== 0) return "unshare -m is not permitted here";
  if (spawnSync("dpkg-query", ["-W", "redis-tools"]).status !== 0) return "redis-tools is not installed (make redis)";
  return undefined;
}

const HOLDER = `import fcntl, os, sys, time
fd = os.open("/var/lib/dpkg/lock-frontend", os.O_RDWR | os.O_CREAT, 0o640)
fcntl.lockf(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(${HOLD_SECONDS})`;

const reason = unsupported();
(reason ? test.skip : test)(`an install step waits ${HOLD_SECONDS} s for a held dpkg lock, saying who holds it, then installs`, () => {
  const script = `set -euo pipefail
copy=$(mktemp -d); trap 'umount /var/lib/dpkg 2>/dev/null || true; rm -rf "$copy"' EXIT
cp -a /var/lib/dpkg "$copy/dpkg"; mount --bind "$copy/dpkg" /var/lib/dpkg
python3 -c "$HOLDER" > "$copy/held" & holder=$!
until [[ -s $copy/held ]]; do sleep 0.1; done
echo "holder $holder" >&2
start=$SECONDS
bash "$SCRIPTS/apt-install.sh" redis-tools
echo "installed after $((SECONDS - start))s" >&2
wait $holder`;
  const r = spawnSync("unshare", ["-m", "--propagation", "private", "bash", "-c", script], {
    env: { ...process.env, HOLDER, SCRIPTS },
    encoding: "utf8",
  });
  expect([r.status, r.stderr]).toEqual([0, expect.stringContaining("apt-install: installing redis-tools")]);
  const holder = /holder (\d+)/.exec(r.stderr)![1];
  expect(r.stderr).toMatch(new RegExp(`waiting for the package manager: /var/lib/dpkg/lock-frontend is held by pid ${holder} \\(\\S*python3`));
  const waited = Number(/installed after (\d+)s/.exec(r.stderr)![1]);
  expect(waited).toBeGreaterThanOrEqual(HOLD_SECONDS - 1);
});

test("no install step calls apt-get but through scripts/apt-install.sh", () => {
  const offenders = fs
    .readdirSync(SCRIPTS)
    .filter((f) => f.endsWith(".sh") && f !== "apt-install.sh")
    .filter((f) => /^[^#]*\bapt-get\s+(install|update)\b/m.test(fs.readFileSync(path.join(SCRIPTS, f), "utf8")));
  expect(offenders).toEqual([]);
  // The helper itself is what the other test runs; it is a plain script.
  execFileSync("bash", ["-n", path.join(SCRIPTS, "apt-install.sh")]);
});
