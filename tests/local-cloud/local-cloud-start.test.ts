/**
 * `make local-cloud-start` (scripts/local-cloud.sh) as `make demo` runs it: it reports success only
 * when the process it started serves the port. With the port taken (by another local cloud, which
 * answers the health check, or by anything else) it used to report success with the pid of a
 * process that had died of EADDRINUSE, and `make demo` then failed with "local-cloud.json is
 * missing". A local cloud started on another port (`make demo LOCAL_CLOUD_PORT=8795`) is the one
 * every later target uses (`make demo-destroy`, `make local-cloud-stop`), by the port in its state
 * file: they used to start one on 8790, delete the running one's pid and state files on the way,
 * and leave it (and its redis-server nodes) running with `make local-cloud-stop` saying "not
 * running". `make clean-all` stops it before it removes .state/. Each case runs the real make
 * targets with a private state directory and port.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { freePort } from "../../local-cloud/core/ports";

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, "..", "..", "..");

let stateDir: string;

beforeEach(() => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-lc-start-"));
});

afterEach(async () => {
  await make("local-cloud-stop", undefined);
  fs.rmSync(stateDir, { recursive: true, force: true });
});

/** `make <target>` with the test's state directory; `port` undefined: LOCAL_CLOUD_PORT not given. */
function make(target: string, port: number | undefined, cwd = ROOT, env: NodeJS.ProcessEnv = { KRCLOUD_STATE_DIR: stateDir }): Promise<Run> {
  const { LOCAL_CLOUD_PORT: _given, ...base } = process.env;
  return run("make", ["--no-print-directory", target], cwd, { ...base, ...env, ...(port === undefined ? {} : { LOCAL_CLOUD_PORT: String(port) }) });
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const files = () => ["local-cloud.pid", "local-cloud.json"].filter((f) => fs.existsSync(path.join(stateDir, f)));

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const portOf = (url: string): number => Number(new URL(url).port);

test("the port is served by another local cloud: start fails naming the port, leaves no pid behind", async () => {
  const other: LocalCloud = await startLocalCloud({ port: 0 });
  try {
    const port = portOf(other.url);
    // The other local cloud answers the health check the script used to rely on.
    expect((await fetch(`${other.controlUrl}/inventory`)).status).toBe(200);
    // As the user ran it: make demo stops at its local-cloud-start, naming the command to run instead.
    const r = await make("demo", port);
    expect(r.code).not.toBe(0);
    expect(r.stdout).not.toContain("local cloud running");
    expect(r.stderr).toContain(`local cloud did not start on port ${port}: krcloud-local-cloud: listen EADDRINUSE`);
    const suggested = Number(
      new RegExp(`port ${port} is in use by another process: stop it, or choose another port, e\\.g\\. make demo LOCAL_CLOUD_PORT=(\\d+)\\n`).exec(
        r.stderr,
      )?.[1],
    );
    expect(suggested).toBeGreaterThan(port);
    expect(await listening(suggested)).toBe(false);
    expect(files()).toEqual([]);
  } finally {
    await other.close();
  }
});

test("the port is held by something that is no local cloud: start fails the same way", async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const port = (server.address() as net.AddressInfo).port;
    const r = await make("local-cloud-start", port);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`local cloud did not start on port ${port}`);
    expect(r.stderr).toContain("EADDRINUSE");
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test("a free port: start reports the pid that serves it, a second start finds it running, stop ends it", async () => {
  const port = await freePort();
  const r = await make("local-cloud-start", port);
  expect(r.code).toBe(0);
  const pid = Number(fs.readFileSync(path.join(stateDir, "local-cloud.pid"), "utf8"));
  expect(r.stdout).toContain(`local cloud running on http://127.0.0.1:${port} (pid ${pid})`);
  expect(pidAlive(pid)).toBe(true);
  const state = JSON.parse(fs.readFileSync(path.join(stateDir, "local-cloud.json"), "utf8")) as { url: string; controlUrl: string };
  expect(state.url).toBe(`http://127.0.0.1:${port}`);
  expect((await fetch(`${state.controlUrl}/inventory`)).status).toBe(200);

  const again = await make("local-cloud-start", port);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`local cloud already running on http://127.0.0.1:${port} (pid ${pid})`);

  const stop = await make("local-cloud-stop", port);
  expect(stop.stdout).toContain("local cloud stopped");
  expect(pidAlive(pid)).toBe(false);
  expect(fs.existsSync(path.join(stateDir, "local-cloud.json"))).toBe(false);
});

test("a local cloud on another port: later targets use it by its state file, one on yet another port is refused, nothing deletes its files; stop ends it", async () => {
  const port = await freePort();
  const started = await make("local-cloud-start", port);
  expect(started.code).toBe(0);
  const pid = Number(fs.readFileSync(path.join(stateDir, "local-cloud.pid"), "utf8"));
  const url = `http://127.0.0.1:${port}`;

  // No port given (make demo-destroy after make demo LOCAL_CLOUD_PORT=…): the running one is used.
  const again = await make("demo-destroy", undefined);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`local cloud already running on ${url} (pid ${pid})\n`);
  expect(again.stdout).toContain("nothing to destroy");
  // Another port asked for: refused, naming the running cloud and the command; nothing changed.
  const other = await make("local-cloud-start", port + 1);
  expect(other.code).not.toBe(0);
  expect(other.stderr).toContain(
    `a local cloud is already running on ${url} (pid ${pid}), not on port ${port + 1}: run \`make local-cloud-start\` without LOCAL_CLOUD_PORT to use it, or stop it first (make local-cloud-stop)`,
  );
  // The foreground local cloud would share the files: refused too.
  const foreground = await run("bash", [path.join(ROOT, "scripts", "local-cloud.sh"), "run"], ROOT, {
    ...process.env,
    KRCLOUD_STATE_DIR: stateDir,
    LOCAL_CLOUD_PORT: "",
  });
  expect(foreground.code).not.toBe(0);
  expect(foreground.stderr).toContain(`a local cloud is already running on ${url} (pid ${pid})`);
  expect(files()).toEqual(["local-cloud.pid", "local-cloud.json"]);
  expect(pidAlive(pid)).toBe(true);
  expect((await fetch(`${url}/_control/inventory`)).status).toBe(200);

  // Without its pid file (removed by an earlier version), stop still finds it: the state file names it.
  fs.rmSync(path.join(stateDir, "local-cloud.pid"));
  const stop = await make("local-cloud-stop", undefined);
  expect(stop.stdout).toContain(`local cloud stopped (${url})`);
  expect(pidAlive(pid)).toBe(false);
  expect(files()).toEqual([]);
});

test("make clean-all stops the running local cloud, then removes the state directory", async () => {
  // A copy of the Makefile and scripts with the built package linked in: clean-all removes dist/ (the link here).
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-clean-all-"));
  try {
    fs.copyFileSync(path.join(ROOT, "Makefile"), path.join(tree, "Makefile"));
    fs.cpSync(path.join(ROOT, "scripts"), path.join(tree, "scripts"), { recursive: true });
    for (const d of ["dist", "node_modules"]) fs.symlinkSync(path.join(ROOT, d), path.join(tree, d), "dir");
    const env = { ...process.env, KRCLOUD_STATE_DIR: "", LOCAL_CLOUD_PORT: String(await freePort()) };
    const started = await run("bash", ["scripts/local-cloud.sh", "start"], tree, env);
    expect(started.code).toBe(0);
    const pid = Number(fs.readFileSync(path.join(tree, ".state", "local-cloud.pid"), "utf8"));
    fs.writeFileSync(path.join(tree, ".state", "kept-by-a-run"), "x");

    const clean = await make("clean-all", undefined, tree, { KRCLOUD_STATE_DIR: "" });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("local cloud stopped");
    expect(pidAlive(pid)).toBe(false);
    expect(fs.readdirSync(tree).sort()).toEqual(["Makefile", "node_modules", "scripts"]);
    expect(fs.existsSync(path.join(ROOT, "dist", "index.js"))).toBe(true);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
});
