/**
 * bin/krcloud-drift, run as a user (or the CI workflow in examples/ci) runs it: a child process with
 * the Pulumi environment variables, against stacks of the static-site example. Exit codes, every
 * format from one run, the proof that a check writes nothing, the printed revert command, stacks by
 * glob checked concurrently, the ignore file and the baseline.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import Ajv from "ajv";
import { XMLParser } from "fast-xml-parser";
import { REPORT_SCHEMA } from "../../drift/schema";
import { ENGINE_TEST_TIMEOUT_MS, REPO_ROOT, resourcesOfType, staticSite } from "../harness/engine";
import { recipeFor } from "../resources";
import { backendDigest, driftedPaths, mutatingRequests, parseReport, resourceNamed, runDrift } from "../support/drift";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let stack: Stack;
let dir: string;
/** The JSON report of the drifted stack. */
let drifted: ReturnType<typeof parseReport>;

const drift = (...args: string[]) => runDrift(engine.sandbox, args);

const engine = engineFile({ label: "drift-cli", project: "driftcli" });

beforeAll(async () => {
  dir = engine.sandbox.copyProgram(staticSite().dir);
  stack = await engine.stack(dir, "watched");
  await stack.up({ color: "never" });
});

test("exits 0 and says so on a clean stack", async () => {
  const r = await drift("--cwd", dir, "--stack", "watched");
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(r.stdout).toMatch(/^watched\s+-\s+-\s+-\s+no drift$/m);
  expect(r.stdout).toMatch(/^1 stack\(s\) checked in [\d.]+ s \(watched [\d.]+ s\): 0 with drift, 0 partial, 0 failed\.$/m);
  expect(r.stdout).toContain("Exit 0: no drift.");
});

test("drift exits 2 with every format from one run, and the check wrote nothing anywhere", async () => {
  const deployment = await stack.exportStack();
  const bucket = resourcesOfType(deployment, "krcloud:objectstorage:Bucket")[0]!;
  const cors = resourcesOfType(deployment, "krcloud:objectstorage:BucketCors")[0]!;
  await recipeFor(bucket.type)!.drift(engine.project.control, bucket);
  await recipeFor(cors.type)!.drift(engine.project.control, cors);

  const digest = backendDigest(engine.sandbox.backendDir);
  const mutating = await mutatingRequests(engine.cloud.controlUrl);
  const out = (f: string) => path.join(engine.sandbox.root, "out", `drift.${f}`);
  const r = await drift("--cwd", dir, "--stack", "watched", ...["json", "sarif", "junit", "github", "markdown"].flatMap((f) => ["--out", `${f}=${out(f)}`]));
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: "" });
  expect(backendDigest(engine.sandbox.backendDir)).toEqual(digest);
  expect(await mutatingRequests(engine.cloud.controlUrl)).toEqual(mutating);

  // table (stdout)
  const bucketName = bucket.urn.split("::").pop()!;
  expect(r.stdout).toMatch(new RegExp(`^watched\\s+${bucketName}\\s+krcloud:objectstorage:Bucket\\s+drifted\\s+acl\\.public`, "m"));
  expect(r.stdout).toContain('  acl.public: cloud "deny", program "read-only"');
  expect(r.stdout).toContain(`  revert: pulumi up --stack watched --refresh --run-program --target '${bucket.urn}' --cwd ${dir}`);

  // JSON, valid against the shipped schema; only the two drifted resources drifted
  const report = JSON.parse(fs.readFileSync(out("json"), "utf8"));
  drifted = report;
  const validate = new Ajv({ strict: true, formats: { "date-time": true } }).compile(REPORT_SCHEMA);
  expect(validate(report) || validate.errors).toBe(true);
  expect(report).toMatchObject({ version: 1, exitCode: 2, drift: true, stacks: [{ stack: "watched", status: "drift" }] });
  const s = report.stacks[0];
  expect(s.resources.filter((x: { status: string }) => x.status === "drifted").map((x: { urn: string }) => x.urn)).toEqual([bucket.urn, cors.urn]);
  expect(driftedPaths(resourceNamed(s, bucketName))).toEqual(expect.arrayContaining([["acl.public", "deny", "read-only"]]));

  // SARIF: one result per drifted property, at the program file relative to the source root
  const sarif = JSON.parse(fs.readFileSync(out("sarif"), "utf8"));
  const uris = new Set(sarif.runs[0].results.map((x: any) => x.locations[0].physicalLocation.artifactLocation.uri));
  // No git repository above the sandbox: paths are relative to where the tool ran (the repository root here).
  expect([...uris]).toEqual([path.relative(REPO_ROOT, path.join(dir, "index.ts"))]);
  expect(sarif.runs[0].results.length).toBe(s.resources.flatMap((x: any) => x.properties.filter((p: any) => p.origin !== "program")).length);

  // JUnit: a test case per resource of the stack
  const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (n) => n === "testcase" }).parse(
    fs.readFileSync(out("junit"), "utf8"),
  );
  expect(junit.testsuites.testsuite).toMatchObject({ name: "watched", tests: String(s.counts.resources), failures: "2" });

  // GitHub annotations and the Markdown summary
  const github = fs.readFileSync(out("github"), "utf8").trim().split("\n");
  expect(github.every((l) => l.startsWith("::warning file="))).toBe(true);
  expect(fs.readFileSync(out("markdown"), "utf8")).toContain("## krcloud drift check: drift found");
});

test("the printed revert command puts the program's values back for that resource only", async () => {
  const bucket = drifted.stacks[0]!.resources.find((x) => x.type === "krcloud:objectstorage:Bucket" && x.status === "drifted")!;
  await promisify(execFile)("bash", ["-c", `${bucket.fix!.revert} --yes --non-interactive --skip-preview`], {
    env: { ...process.env, ...engine.sandbox.env() },
  });
  const after = parseReport((await drift("--cwd", dir, "--stack", "watched", "--format", "json")).stdout);
  expect(after.stacks[0]!.resources.filter((x) => x.status === "drifted").map((x) => x.type)).toEqual(["krcloud:objectstorage:BucketCors"]);
});

test("stacks by glob, checked concurrently, each with its time; an unknown stack next to them makes it partial (3), alone an error (1)", async () => {
  await engine.stack(dir, "watched-new");
  const baseline = path.join(engine.sandbox.root, "baseline.json");
  const r = await drift(
    "--cwd",
    dir,
    "--stack",
    "watch*",
    "--stack",
    "no-such-stack",
    "--concurrency",
    "2",
    "--format",
    "json",
    "--baseline",
    baseline,
    "--write-baseline",
  );
  expect(r.code).toBe(3);
  expect(r.stderr).toContain(`wrote 3 fingerprint(s) of today's drift to ${baseline}`);
  const report = parseReport(r.stdout);
  // By name, whatever order they were matched and checked in.
  expect(report.stacks.map((x) => [x.stack, x.status])).toEqual([
    ["no-such-stack", "error"],
    ["watched", "clean"],
    ["watched-new", "clean"],
  ]);
  expect(report.stacks[1]!.durationMs).toBeGreaterThan(0);
  expect(report.stacks[2]!.durationMs).toBeGreaterThan(0);
  // The stack never deployed: everything is a pending creation, not drift.
  expect(new Set(report.stacks[2]!.resources.map((x) => x.status))).toEqual(new Set(["pending"]));
  const written = JSON.parse(fs.readFileSync(baseline, "utf8")).fingerprints as { stack: string; urn: string; path: string }[];
  expect(written.map((f) => [f.stack, f.urn.split("::")[2], f.path])).toEqual([
    ["watched", "pulumi-nodejs:dynamic/krcloud/objectstorage:BucketCors", "rules[0].allowedMethods[0]"],
    ["watched", "pulumi-nodejs:dynamic/krcloud/objectstorage:BucketCors", "rules[0].allowedOrigins[0]"],
    ["watched", "pulumi-nodejs:dynamic/krcloud/objectstorage:BucketCors", "rules[0].maxAgeSeconds"],
  ]);
  // Written, today's drift is known: watched is clean (the exit code is the unknown stack's).
  expect(report.stacks[1]!.resources.find((x) => x.status === "drifted")).toMatchObject({ disposition: "baseline" });

  const alone = await drift("--cwd", dir, "--stack", "no-such-stack");
  expect(alone.code).toBe(1);
  expect(alone.stdout).toMatch(/no-such-stack: error/);
});

test("the ignore file next to Pulumi.yaml and the baseline apply together; an expired rule fails the check naming it", async () => {
  const baseline = path.join(engine.sandbox.root, "baseline.json");
  fs.writeFileSync(
    path.join(dir, ".krcloud-driftignore"),
    [
      "rules:",
      "  - type: krcloud:objectstorage:BucketCors",
      "    property: rules[*].allowedOrigins",
      "    reason: the CDN team adds origins by hand",
      "  - id: old-exception",
      "    stack: watched",
      "    reason: migration window",
      "    expires: 2020-01-31",
    ].join("\n"),
  );
  try {
    const r = await drift("--cwd", dir, "--stack", "watched", "--baseline", baseline, "--format", "json");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ignore rule old-exception (stack watched) expired on 2020-01-31 (reason: migration window)");
    const report = parseReport(r.stdout);
    expect(report.expiredRules).toEqual([{ rule: "old-exception (stack watched)", expires: "2020-01-31", reason: "migration window" }]);
    const cors = report.stacks[0]!.resources.find((x) => x.status === "drifted")!;
    expect(cors.properties.map((p) => [p.path, p.disposition, p.ignoredBy?.reason])).toEqual([
      ["rules[0].allowedMethods[0]", "baseline", undefined],
      ["rules[0].allowedOrigins[0]", "ignored", "the CDN team adds origins by hand"],
      ["rules[0].maxAgeSeconds", "baseline", undefined],
    ]);
    expect(cors.disposition).toBe("baseline");
  } finally {
    fs.rmSync(path.join(dir, ".krcloud-driftignore"));
  }
});
