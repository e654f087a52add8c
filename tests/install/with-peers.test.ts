/**
 * Issue 38, item 9: `make test` stops what it started when it ends or is interrupted, and never what
 * it did not start. make test runs the suites through scripts/with-peers.sh; here it runs beside
 * stand-ins for swift-peer.sh and sql-peers.sh that record what they are asked (PostgreSQL "runs
 * already"), and a command that leaves processes behind, one of them in a session of its own.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../harness/engine";

jest.setTimeout(60_000);

let tmp: string;
const calls = (): string[] => fs.readFileSync(path.join(tmp, "calls"), "utf8").trim().split("\n");
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Waits (a bounded number of polls) until none of the pids runs. */
async function gone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 50));
  return !pids.some(alive);
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-with-peers-"));
  fs.copyFileSync(path.join(REPO_ROOT, "scripts", "with-peers.sh"), path.join(tmp, "with-peers.sh"));
  const record = `echo "$(basename "$0" .sh) $*" >> "${tmp}/calls"`;
  fs.writeFileSync(
    path.join(tmp, "swift-peer.sh"),
    // Its start leaves a server running (a sleep), which its stop ends.
    `${record}\ncase $1 in status) exit 1 ;; start) sleep 300 >/dev/null 2>&1 & echo $! > "${tmp}/peer.pid" ;; stop) kill "$(cat "${tmp}/peer.pid")" ;; env) echo KRCLOUD_SWIFT_AUTH_URL=http://127.0.0.1:1/auth/v1.0 ;; esac\n`,
  );
  fs.writeFileSync(path.join(tmp, "sql-peers.sh"), `${record}\ncase $1 in running) echo pg ;; env) echo KRCLOUD_PG_URL=postgresql://x ;; esac\n`);
  fs.writeFileSync(path.join(tmp, "calls"), "");
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The command: prints the pids it leaves running (one in its own session), then ends with `end`. */
const LEAVER = (end: string) => `sleep 300 & echo $!; setsid sleep 300 & echo $!; echo "url=$KRCLOUD_PG_URL"; ${end}`;

test("when the command ends it stops the peers it started, not the one that ran before, and what the command left", async () => {
  const r = spawnSync("bash", [path.join(tmp, "with-peers.sh"), "swift", "sql", "--", "bash", "-c", LEAVER("exit 3")], { encoding: "utf8", timeout: 45_000 });
  expect(r.status).toBe(3); // the command's status
  expect(r.stdout).toContain("url=postgresql://x");
  const pids = r.stdout
    .split("\n")
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
  expect(pids).toHaveLength(2);
  expect(await gone(pids)).toBe(true);
  expect(calls().filter((c) => / (start|stop)/.test(c))).toEqual(["swift-peer start", "sql-peers start", "swift-peer stop", "sql-peers stop mariadb"]);
  expect(r.stderr).toContain("pg is running already (sql-peers): used, and left running");
  // The peer's own server is its script's to stop, not one of what the command left.
  expect(r.stderr).toMatch(/stopping 2 processes this run left running: sleep x2\n/);
  expect(await gone([Number(fs.readFileSync(path.join(tmp, "peer.pid"), "utf8"))])).toBe(true);
});

test("the command's temporary files go in a folder of the run, removed when it ends", () => {
  const r = spawnSync(
    "bash",
    [path.join(tmp, "with-peers.sh"), "--", "bash", "-c", `echo "tmp=$TMPDIR"; mkdir "$TMPDIR/forgotten"; echo x > "$TMPDIR/forgotten/file"`],
    { encoding: "utf8", timeout: 45_000, env: { ...process.env, TMPDIR: tmp } },
  );
  expect(r.status).toBe(0);
  const runTmp = /^tmp=(.*)$/m.exec(r.stdout)?.[1];
  expect(runTmp).toMatch(new RegExp(`^${tmp}/krcloud-run\\.`));
  expect(fs.existsSync(runTmp!)).toBe(false);
  expect(r.stderr).toMatch(/removing this run's temporary files \(\d+ MiB\)/);
});

test.each([
  ["TERM to the script (kill)", "SIGTERM", false],
  ["INT to its process group (Ctrl-C)", "SIGINT", true],
] as const)("interrupted by %s, it stops the command, what it left and the peers it started", async (_name, signal, group) => {
  const child = spawn("bash", [path.join(tmp, "with-peers.sh"), "swift", "--", "bash", "-c", LEAVER("sleep 300")], { detached: true });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  for (let i = 0; i < 200 && !out.includes("url="); i++) await new Promise((r) => setTimeout(r, 50));
  const pids = out
    .split("\n")
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
  expect(pids).toHaveLength(2);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  process.kill(group ? -child.pid! : child.pid!, signal);
  expect(await exited).toBe(signal === "SIGINT" ? 130 : 143);
  expect(await gone(pids)).toBe(true);
  expect(calls().filter((c) => / (start|stop)/.test(c))).toEqual(["swift-peer start", "swift-peer stop"]);
});
