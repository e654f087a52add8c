/**
 * krcloud-drift against a throttled or failing cloud: under 429s the check retries and finishes;
 * a resource that cannot be read is reported (exit 3, the report printed), never a crash.
 *
 * Two interfaces of provider/core and client/core make this complete: KRCLOUD_RETRY_BUDGET (at most n
 * transport retries per provider process) and KRCLOUD_READ_ERRORS=report (a failed read returns the
 * recorded outputs plus `__krcloudReadError`, so the preview goes on). The tool sets both; the tests
 * that need them run once the installed provider has them (probed in dist/), and without them the
 * tool still reports the resources the engine blamed, with exit 3.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TEST_TIMEOUT_MS, REPO_ROOT, resourcesOfType, staticSite } from "../harness/engine";
import { parseReport, runDrift } from "../support/drift";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

/** Whether the compiled core holds an interface (an environment variable it reads). */
function coreReads(variable: string): boolean {
  const dirs = ["client/core", "provider/core"].map((d) => path.join(REPO_ROOT, "dist", d));
  return dirs.some((d) => fs.existsSync(d) && fs.readdirSync(d).some((f) => f.endsWith(".js") && fs.readFileSync(path.join(d, f), "utf8").includes(variable)));
}
const withReadErrors = coreReads("KRCLOUD_READ_ERRORS") ? test : test.skip;
const withRetryBudget = coreReads("KRCLOUD_RETRY_BUDGET") ? test : test.skip;

/** 429 on the bucket's read; Retry-After: 0 keeps the test free of real waits (the transport takes it as the delay). */
const THROTTLE = { service: "object-storage", operation: "GetBucketMeta", action: "error" as const, status: 429, retryAfter: 0 };

let stack: Stack;
let dir: string;
let bucketUrn: string;

const engine = engineFile({ label: "drift-partial", project: "driftpartial" });

beforeAll(async () => {
  dir = engine.sandbox.copyProgram(staticSite().dir);
  stack = await engine.stack(dir, "throttled");
  await stack.up({ color: "never" });
  bucketUrn = resourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!.urn;
});

afterEach(async () => {
  for (const f of await engine.project.control.faults()) await engine.project.control.removeFault(f.id);
});

test("under 429s the check retries and finishes: exit 0, nothing reported unreadable", async () => {
  const fault = await engine.project.control.addFault({ ...THROTTLE, times: 3 });
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "throttled", "--format", "json"]);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect((await engine.project.control.faults()).find((f) => f.id === fault.id)?.fired).toBe(3);
  expect(parseReport(r.stdout).stacks[0]!.counts.unreadable).toBe(0);
});

test("a resource that cannot be read is reported with its error and the exit code is 3, not a crash", async () => {
  await engine.project.control.addFault({ service: "object-storage", operation: "GetBucketMeta", action: "error", status: 403 });
  const out = path.join(engine.sandbox.root, "partial.sarif");
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "throttled", "--format", "json", "--out", `sarif=${out}`]);
  expect(r.code).toBe(3);
  const report = parseReport(r.stdout);
  expect(report).toMatchObject({ status: "partial", exitCode: 3, stacks: [{ stack: "throttled", status: "partial" }] });
  const bucket = report.stacks[0]!.resources.find((x) => x.urn === bucketUrn)!;
  expect(bucket.status).toBe("unreadable");
  expect(bucket.error).toMatch(/403/);
  const sarif = JSON.parse(fs.readFileSync(out, "utf8"));
  expect(sarif.runs[0].results).toEqual([expect.objectContaining({ ruleId: "drift/resource-unreadable", level: "error" })]);
});

withReadErrors("(needs KRCLOUD_READ_ERRORS) with one resource unreadable, the rest is still checked and its drift reported", async () => {
  const cors = resourcesOfType(await stack.exportStack(), "krcloud:objectstorage:BucketCors")[0]!;
  await engine.project.control.patchResource("object-storage", "bucket-cors", cors.id!, {
    cors: [{ allowed_origins: ["https://drift.invalid"], allowed_methods: ["GET"] }],
  });
  await engine.project.control.addFault({ service: "object-storage", operation: "GetBucketMeta", action: "error", status: 403 });
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "throttled", "--format", "json"]);
  expect(r.code).toBe(3);
  const s = parseReport(r.stdout).stacks[0]!;
  expect(s.resources.find((x) => x.urn === bucketUrn)?.status).toBe("unreadable");
  expect(s.resources.find((x) => x.urn === cors.urn)).toMatchObject({
    status: "drifted",
    properties: expect.arrayContaining([expect.objectContaining({ path: "rules[0].allowedOrigins[0]" })]),
  });
  expect(s.resources.filter((x) => x.status === "clean").length).toBeGreaterThan(0);
});

withRetryBudget(
  "(needs KRCLOUD_RETRY_BUDGET) a cloud that throttles for ever costs at most the budget in retries, then the check ends with exit 3",
  async () => {
    const fault = await engine.project.control.addFault(THROTTLE);
    const budget = 4;
    const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "throttled", "--format", "json", "--retry-budget", String(budget)]);
    expect(r.code).toBe(3);
    const fired = (await engine.project.control.faults()).find((f) => f.id === fault.id)!.fired;
    // One bucket read, its retries within the budget.
    expect(fired).toBeLessThanOrEqual(1 + budget);
  },
);
