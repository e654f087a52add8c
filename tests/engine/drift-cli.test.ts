/**
 * bin/krcloud-drift, run as a user (or the CI workflow in examples/ci) runs it: a child process
 * with the Pulumi environment variables, against a stack of the first example program.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../emulator";
import {
  staticSite,
  ENGINE_TEST_TIMEOUT_MS,
  logicalName,
  newProject,
  providerConfig,
  recipeFor,
  REPO_ROOT,
  resourcesOfType,
  runNode,
  Sandbox,
  startCloud,
  type CloudProject,
} from "../support/engine";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const DRIFT = path.join(REPO_ROOT, "dist", "bin", "krcloud-drift.js");

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let stack: Stack;
let dir: string;

function drift(...args: string[]) {
  return runNode(DRIFT, args, sandbox.env());
}

beforeAll(async () => {
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "drift-cli" });
  project = await newProject(cloud, "driftcli");
  dir = sandbox.copyProgram(staticSite().dir);
  stack = await sandbox.createStack(dir, "watched", providerConfig(project));
  await stack.up({ color: "never" });
});

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

test("exits 0 and says so on a clean stack", async () => {
  const r = await drift("--cwd", dir, "--stack", "watched");
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(r.stdout).toMatch(/watched\s+-\s+-\s+-\s+no drift/);
  expect(r.stdout).toContain("1 stack(s) checked: 0 with drift, 0 failed.");
});

test("exits 1 after drift, naming the resource and the property, in the table and in --json", async () => {
  const deployment = await stack.exportStack();
  const bucket = resourcesOfType(deployment, "krcloud:objectstorage:Bucket")[0]!;
  const cors = resourcesOfType(deployment, "krcloud:objectstorage:BucketCors")[0]!;
  expect(bucket).toBeDefined();
  expect(cors).toBeDefined();
  await recipeFor(bucket.type)!.drift(project.control, bucket);
  await recipeFor(cors.type)!.drift(project.control, cors);

  const reportFile = path.join(sandbox.root, "drift-report.json");
  const table = await drift("--cwd", dir, "--stack", "watched", "--report", reportFile);
  expect(table.code).toBe(1);
  const bucketRow = table.stdout.split("\n").find((l) => l.startsWith("watched") && l.includes(` ${logicalName(bucket.urn)} `));
  expect(bucketRow).toMatch(/krcloud:objectstorage:Bucket\s+update\s+.*acl\.public/);
  const corsRow = table.stdout.split("\n").find((l) => l.startsWith("watched") && l.includes(` ${logicalName(cors.urn)} `));
  expect(corsRow).toMatch(/krcloud:objectstorage:BucketCors\s+update\s+.*rules\[0\]\.allowedOrigins\[0\]/);
  expect(table.stdout).toContain('acl.public: cloud "deny", program "read-only"');

  const json = await drift("--cwd", dir, "--stack", "watched", "--json");
  expect(json.code).toBe(1);
  const report = JSON.parse(json.stdout);
  expect(report).toMatchObject({ drift: true, exitCode: 1, stacks: [{ stack: "watched", status: "drift" }] });
  const rows = report.stacks[0].resources as { urn: string; operation: string; properties: { path: string; cloud?: unknown; program?: unknown }[] }[];
  expect(rows.find((r) => r.urn === bucket.urn)).toMatchObject({
    operation: "update",
    properties: expect.arrayContaining([{ path: "acl.public", cloud: "deny", program: "read-only" }]),
  });
  expect(rows.find((r) => r.urn === cors.urn)?.properties.map((p) => p.path)).toContain("rules[0].allowedOrigins[0]");
  // Objects, lifecycle and other untouched resources are not reported.
  expect(rows.map((r) => r.urn).sort()).toEqual([bucket.urn, cors.urn].sort());
  // --report wrote the same report next to the table.
  expect(JSON.parse(fs.readFileSync(reportFile, "utf8"))).toEqual(report);

  // The check changed nothing: the drift is still there for `up --refresh` to repair.
  const up = await stack.up({ refresh: true, color: "never" });
  expect(up.summary.resourceChanges?.update).toBe(2);
  expect((await drift("--cwd", dir, "--stack", "watched")).code).toBe(0);
});

test("exits 2 for a missing stack, and for bad arguments", async () => {
  const missing = await drift("--cwd", dir, "--stack", "watched", "--stack", "no-such-stack");
  expect(missing.code).toBe(2);
  expect(missing.stdout).toMatch(/no-such-stack: error/);
  expect(missing.stdout).toMatch(/watched\s+-\s+-\s+-\s+no drift/);

  const json = await drift("--cwd", dir, "--stack", "no-such-stack", "--json");
  expect(json.code).toBe(2);
  expect(JSON.parse(json.stdout)).toMatchObject({ exitCode: 2, stacks: [{ stack: "no-such-stack", status: "error" }] });

  expect((await drift("--cwd", dir)).code).toBe(2);
  expect((await drift("--stack", "watched", "--bogus")).code).toBe(2);
  expect((await drift("--cwd", path.join(dir, "site"), "--stack", "watched")).code).toBe(2);
});
