/**
 * The krcloud-drift tool plugin's launcher (tools/pack-plugin.ts `driftToolLauncher`), run as Pulumi
 * runs it: from `$PULUMI_HOME/plugins/tool-krcloud-drift-v<version>/`, beside the resource plugin it
 * hands the work to (here a stand-in that records its arguments and exits with a chosen status).
 * The arguments a user gives reach krcloud-drift untouched, whatever options it gains; the flags the
 * Pulumi CLI puts in front of any plugin's own do not; the exit status is krcloud-drift's.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { driftToolLauncher } from "../../tools/pack-plugin";

const VERSION = "9.8.7";
let plugins: string;
let launcher: string;

beforeAll(() => {
  plugins = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-drift-tool-"));
  const tool = path.join(plugins, `tool-krcloud-drift-v${VERSION}`);
  fs.mkdirSync(tool);
  launcher = path.join(tool, "pulumi-tool-krcloud-drift");
  fs.writeFileSync(launcher, driftToolLauncher(VERSION), { mode: 0o755 });
});

afterAll(() => fs.rmSync(plugins, { recursive: true, force: true }));

/** A stand-in resource plugin: prints its arguments as JSON, exits with $STAND_IN_EXIT. */
function installResourcePlugin(version: string): void {
  const dir = path.join(plugins, `resource-krcloud-v${version}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "pulumi-resource-krcloud"),
    `#!/bin/sh\n${JSON.stringify(process.execPath)} -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' -- "$@"\nexit "\${STAND_IN_EXIT:-0}"\n`,
    { mode: 0o755 },
  );
}

function run(args: string[], exit = 0): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(launcher, args, { env: { ...process.env, STAND_IN_EXIT: String(exit) } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr });
    });
  });
}

test("without the resource plugin of its version beside it, it names the install command and fails", async () => {
  installResourcePlugin("1.0.0");
  const r = await run(["--stack", "dev"]);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain(`the krcloud resource plugin v${VERSION} it runs is not installed`);
  expect(r.stderr).toContain(`pulumi plugin install resource krcloud ${VERSION}`);
});

test("the user's arguments reach `pulumi-resource-krcloud drift` untouched, options it does not know yet included", async () => {
  installResourcePlugin(VERSION);
  const args = ["--stack", "prod-*", "--format", "json", "--out", "sarif=a b.sarif", "--some-future-flag", "--", "-v=2", "with space", "'quoted'", "$HOME"];
  const r = await run(args);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.parse(r.stdout)).toEqual(["drift", ...args]);
});

test("the flags the Pulumi CLI puts in front of a plugin's arguments (--logflow, --tracing) are dropped", async () => {
  const r = await run(["--logtostderr", "-v=9", "--tracing", "file:/tmp/trace", "--stack", "dev"]);
  expect(JSON.parse(r.stdout)).toEqual(["drift", "--stack", "dev"]);
});

test("krcloud-drift's exit status is the launcher's: 2 for drift, 3 for a partial check", async () => {
  expect((await run(["--stack", "dev"], 2)).code).toBe(2);
  expect((await run(["--stack", "dev"], 3)).code).toBe(3);
});
