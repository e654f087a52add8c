/**
 * krcloud-drift's arguments: what is refused before any Pulumi command runs (exit 1, naming the
 * problem). The runs themselves are engine-tested (tests/engine/drift-*.test.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../drift/cli";
import type { Io } from "../../drift/io";

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-drift-cli-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: yaml\n");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function drift(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: Io = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), now: () => new Date("2026-11-20T00:00:00Z"), env: {} };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

test("a --config-file that does not exist is refused at once, by name (not a misleading 'no endpoint' later)", async () => {
  const r = await drift("--cwd", dir, "--stack", "dev", "--config-file", path.join(dir, ".state", "Pulumi.dev.yaml"));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`--config-file ${path.join(dir, ".state", "Pulumi.dev.yaml")}: no such file`);
  expect(r.stdout).toBe("");
});

test.each([
  [["--stack", "dev", "--format", "pdf"], /unknown format "pdf": one of table, json, sarif, junit, github, markdown, html/],
  [["--stack", "dev", "--out", "sarif"], /--out takes FORMAT=FILE \(got "sarif"\)/],
  [["--stack", "dev", "--write-baseline"], /--write-baseline needs --baseline FILE/],
  [["--stack", "dev", "--concurrency", "0"], /--concurrency must be a whole number of at least 1/],
  [["--stack", "dev", "--bogus"], /Unknown option '--bogus'/],
  [[], /at least one --stack is required/],
  [["--stack", "dev", "--ignore-file", "/no/such/ignore"], /cannot read the ignore file \/no\/such\/ignore/],
  [["--stack", "dev", "--baseline", "/no/such/baseline.json"], /cannot read the baseline \/no\/such\/baseline.json/],
  [["--stack", "dev", "--shard", "0/3"], /--shard 0\/3: K must be 1 to N \(the shards are numbered from 1\)/],
  [["--stack", "dev", "--shard", "3"], /--shard takes K\/N/],
  [
    ["--stack", "dev", "--shard", "1/4", "--request-budget", "3"],
    /--request-budget 3 is less than 1 request per second for each of the 4 shards: raise it to 4 or more/,
  ],
  [["--stack", "dev", "--request-budget", "fast"], /--request-budget takes requests per second, a positive number \(got "fast"\)/],
  [
    ["--stack", "dev", "--policy", "/no/such/pack"],
    /--policy \/no\/such\/pack: \/no\/such\/pack is not a policy pack \(no PulumiPolicy.yaml\); `--policy krcloud` runs pulumi-krcloud\/policy/,
  ],
  [["--stack", "dev", "--policy-config", "/no/such.json"], /--policy-config goes with --policy/],
  [["--stack", "dev", "--shard", "1/2", "--baseline", "b.json", "--write-baseline"], /--write-baseline records one run's drift: run it without --shard/],
  [["--stack", "dev", "--unmanaged", "--shard", "1/2"], /--shard goes with a drift check, not --unmanaged/],
])("refused: %j", async (args, message) => {
  const r = await drift("--cwd", dir, ...args);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(message);
});

test("a directory that is not a Pulumi project is refused", async () => {
  const r = await drift("--cwd", os.tmpdir(), "--stack", "dev");
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("is not a Pulumi project (no Pulumi.yaml)");
});

test("an ignore file with a rule without a reason is refused, naming the file and the rule", async () => {
  const file = path.join(dir, ".krcloud-driftignore");
  fs.writeFileSync(file, "rules:\n  - type: krcloud:cache:*\n");
  try {
    const r = await drift("--cwd", dir, "--stack", "dev");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}: .rules[0].reason:`);
  } finally {
    fs.rmSync(file);
  }
});

test("--help prints the usage with the exit codes", async () => {
  const r = await drift("--help");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("Exit status: 0 no drift, 1 error, 2 drift, 3 partial");
});

test("merge refuses what it cannot merge, before writing anything", async () => {
  const none = await drift("merge");
  expect([none.code, none.stdout]).toEqual([1, ""]);
  expect(none.stderr).toContain("merge needs the shards' JSON reports");
  const bad = path.join(dir, "not-a-report.json");
  fs.writeFileSync(bad, "[]");
  const r = await drift("merge", bad, "--format", "table");
  expect([r.code, r.stdout]).toEqual([1, ""]);
  expect(r.stderr).toBe(`krcloud-drift: ${bad}: not a krcloud-drift JSON report of version 1 (--format json or --out json=FILE writes one)\n`);
});
