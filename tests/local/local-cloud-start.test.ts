/**
 * `make local-cloud-start` (scripts/local-cloud.sh) as `make demo` runs it: it reports success only
 * when the process it started serves the port. With the port taken (by another local cloud, which
 * answers the health check, or by anything else) it used to report success with the pid of a
 * process that had died of EADDRINUSE, and `make demo` then failed with "local-cloud.json is
 * missing". Each case runs the real make target with a private state directory and port.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startLocalCloud, type LocalCloud } from "../../emulator";
import { freePort } from "../../emulator/core/ports";

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, "..", "..", "..");

let stateDir: string;

beforeEach(() => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-lc-start-"));
});

afterEach(async () => {
  await make("local-cloud-stop", 0);
  fs.rmSync(stateDir, { recursive: true, force: true });
});

function make(target: string, port: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "make",
      ["--no-print-directory", target],
      { cwd: ROOT, env: { ...process.env, KRCLOUD_STATE_DIR: stateDir, LOCAL_CLOUD_PORT: String(port) } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

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
    const r = await make("local-cloud-start", port);
    expect(r.code).not.toBe(0);
    expect(r.stdout).not.toContain("local cloud running");
    expect(r.stderr).toContain(`local cloud did not start on port ${port}: krcloud-local-cloud: listen EADDRINUSE`);
    expect(r.stderr).toContain(`port ${port} is in use by another process`);
    expect(fs.existsSync(path.join(stateDir, "local-cloud.pid"))).toBe(false);
    expect(fs.existsSync(path.join(stateDir, "local-cloud.json"))).toBe(false);
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
