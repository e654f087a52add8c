/**
 * krcloud-drift's live state and policy findings without an engine: the state file (managed
 * resources as refresh read them, in the state's order; secrets written as `[secret]` secrets; no
 * hidden key), the violations read from `pulumi policy analyze --json`'s events (description
 * dropped, tied to their resource, sorted), and the findings in every format: the JSON report
 * against its schema, SARIF against SARIF 2.1.0 with a rule per policy and its level.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv from "ajv";
import AjvDraft04 from "ajv-draft-04";
import { FORMATS } from "../../drift/formats";
import type { DriftReport, PolicyResult } from "../../drift/model";
import { violationsOf } from "../../drift/policy";
import { buildReport } from "../../drift/report";
import { REPORT_SCHEMA } from "../../drift/schema";
import { forStateFile, liveState, refreshedResources, stateFileText, type Subject } from "../../drift/state-out";
import { DYNAMIC, previewEvents, SECRET_ENVELOPE, urnOf } from "../support/drift/events";

const BUCKET = DYNAMIC("krcloud:objectstorage:Bucket");
const DS = DYNAMIC("krcloud:dataquery:DataSource");
const NOW = new Date("2026-11-20T10:00:00Z");

test("secrets become `[secret]` secrets a policy can see are set; hidden provider keys go; nothing else changes", () => {
  const v = forStateFile({
    __provider: "stub",
    __krcloudSeed: "x",
    name: "db",
    password: SECRET_ENVELOPE,
    user: { password: "[secret]", name: "u", __keep: 1 },
  });
  const secret = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"[secret]"' };
  expect(v).toEqual({ name: "db", password: secret, user: { password: secret, name: "u", __keep: 1 } });
});

test("the managed resources of a refresh, as it read them, in the state's order; what is gone is left out", () => {
  const stack = "prod";
  const events = previewEvents(
    [
      {
        name: "site",
        type: BUCKET,
        op: "update",
        before: { name: "s", acl: { public: "deny" } },
        after: { name: "s", acl: { public: "read-only" } },
        program: { name: "s" },
      },
      { name: "gone", type: BUCKET, op: "create", before: { name: "g" }, after: undefined, program: { name: "g" } },
      { name: "db", type: DS, op: "same", before: { name: "d", password: SECRET_ENVELOPE }, after: { name: "d", password: SECRET_ENVELOPE }, program: {} },
    ],
    stack,
  );
  const run = {
    stack,
    events,
    durationMs: 1,
    previewFailed: false,
    stateOrder: [urnOf("db", DS, stack), urnOf("site", BUCKET, stack), urnOf("gone", BUCKET, stack)],
  };
  const found = refreshedResources(run);
  expect(found.map((r) => [r.urn.split("::").pop(), r.type, r.inputs])).toEqual([
    ["db", DS, { name: "d", password: forStateFile(SECRET_ENVELOPE) }],
    ["site", BUCKET, { name: "s", acl: { public: "read-only" } }],
  ]);
  const unmanagedUrn = "urn:pulumi:prod::web::krcloud:cache:Cluster::hand";
  const state = liveState([run], {
    resources: [{ urn: unmanagedUrn, custom: true, id: "c1", type: "krcloud:cache:Cluster", inputs: {}, outputs: {} }],
    subjects: new Map([[unmanagedUrn, { name: "hand", type: "krcloud:cache:Cluster", stack: "prod", managed: false, key: "krcloud:cache:Cluster|c1" }]]),
  });
  expect([...state.subjects.values()].map((s) => [s.name, s.type, s.managed])).toEqual([
    ["db", "krcloud:dataquery:DataSource", true],
    ["site", "krcloud:objectstorage:Bucket", true],
    ["hand", "krcloud:cache:Cluster", false],
  ]);
  const file = JSON.parse(stateFileText(state, NOW, "9.9.9"));
  expect(file).toMatchObject({ version: 3, deployment: { manifest: { time: NOW.toISOString() } } });
  expect(file.deployment.resources).toHaveLength(3);
});

/** `pulumi policy analyze --json` output, as v3.259 prints it (one event per line). */
const ANALYZE = [
  JSON.stringify({
    sequence: 1,
    policyEvent: {
      resourceUrn: "urn:pulumi:prod::web::krcloud:cache:Cluster::hand",
      message: 'In production stacks every cache shard…\nCluster "hand": shards[0].replicaSubnetIds has 0 replica(s)',
      policyName: "krcloud-cache-replica-in-production",
      policyPackName: "krcloud",
      policyPackVersion: "0.1.0",
      enforcementLevel: "mandatory",
    },
  }),
  JSON.stringify({
    sequence: 0,
    policyEvent: {
      resourceUrn: `urn:pulumi:prod::web::${BUCKET}::site`,
      message: 'Buckets are encrypted…\nBucket "site": encryption is not set',
      policyName: "krcloud-bucket-without-encryption",
      policyPackName: "krcloud",
      policyPackVersion: "0.1.0",
      enforcementLevel: "advisory",
    },
  }),
  // The same unmanaged cluster, as the copy of another stack of its account: one finding.
  JSON.stringify({
    sequence: 3,
    policyEvent: {
      resourceUrn: "urn:pulumi:prod-eu::web::krcloud:cache:Cluster::hand",
      message: 'In production stacks every cache shard…\nCluster "hand": shards[0].replicaSubnetIds has 0 replica(s)',
      policyName: "krcloud-cache-replica-in-production",
      policyPackName: "krcloud",
      policyPackVersion: "0.1.0",
      enforcementLevel: "mandatory",
    },
  }),
  JSON.stringify({ sequence: 2, summaryEvent: { PolicyPacks: { krcloud: "0.1.0" }, result: "failed" } }),
  "error: one or more mandatory policy violations were found",
].join("\n");

const HAND = { name: "hand", type: "krcloud:cache:Cluster", managed: false, key: "krcloud:cache:Cluster|c1" };
const SUBJECTS = new Map<string, Subject>([
  [`urn:pulumi:prod::web::${BUCKET}::site`, { name: "site", type: "krcloud:objectstorage:Bucket", stack: "prod", managed: true, key: "site" }],
  ["urn:pulumi:prod::web::krcloud:cache:Cluster::hand", { ...HAND, stack: "prod" }],
  ["urn:pulumi:prod-eu::web::krcloud:cache:Cluster::hand", { ...HAND, stack: "prod-eu" }],
]);

test("the violations of the analyze events: the rule's own words (not its description), tied to the resource, sorted, an unmanaged resource's once", () => {
  const found = violationsOf(ANALYZE, SUBJECTS, (urn) => (urn.endsWith("::site") ? 7 : undefined));
  expect(found.sawSummary).toBe(true);
  expect(found.packs).toEqual([{ name: "krcloud", version: "0.1.0" }]);
  expect(found.violations).toEqual([
    {
      policy: "krcloud-cache-replica-in-production",
      pack: "krcloud",
      packVersion: "0.1.0",
      level: "mandatory",
      message: 'Cluster "hand": shards[0].replicaSubnetIds has 0 replica(s)',
      urn: "urn:pulumi:prod::web::krcloud:cache:Cluster::hand",
      name: "hand",
      type: "krcloud:cache:Cluster",
      stack: "prod",
      managed: false,
    },
    expect.objectContaining({
      policy: "krcloud-bucket-without-encryption",
      level: "advisory",
      name: "site",
      managed: true,
      line: 7,
      message: 'Bucket "site": encryption is not set',
    }),
  ]);
});

function reportWith(policy: PolicyResult): DriftReport {
  return buildReport([], {
    version: "9.9.9",
    startedAt: 0,
    finishedAt: 1,
    now: NOW,
    rules: [],
    policy,
    live: { managed: 1, unmanaged: 1, errors: [] },
    shard: { index: 1, count: 2 },
  });
}

test("policy findings in every format: JSON by its schema, SARIF 2.1.0 with a rule per policy at its level, exit 4", () => {
  const report = reportWith({ packs: [{ name: "krcloud", version: "0.1.0" }], violations: violationsOf(ANALYZE, SUBJECTS).violations });
  expect(report.exitCode).toBe(4);
  const validate = new Ajv({ strict: true, formats: { "date-time": true } }).compile(REPORT_SCHEMA);
  expect(validate(JSON.parse(FORMATS.json!(report))) || validate.errors).toBe(true);

  const schema = JSON.parse(
    fs.readFileSync(path.join(path.dirname(require.resolve("@microsoft/jest-sarif/package.json")), "lib", "schemas", "sarif-2.1.0-rtm.5.json"), "utf8"),
  );
  const sarifValid = new AjvDraft04({ allErrors: true, unicodeRegExp: false, formats: { uri: true, "uri-reference": true, "date-time": true } }).compile(
    schema,
  );
  const sarif = JSON.parse(FORMATS.sarif!(report));
  expect(sarifValid(sarif) || sarifValid.errors).toBe(true);
  const run = sarif.runs[0];
  expect(run.tool.driver.rules.slice(3).map((r: any) => [r.id, r.defaultConfiguration.level])).toEqual([
    ["krcloud-cache-replica-in-production", "error"],
    ["krcloud-bucket-without-encryption", "warning"],
  ]);
  expect(run.results.map((r: any) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
    ["krcloud-cache-replica-in-production", 3, "error"],
    ["krcloud-bucket-without-encryption", 4, "warning"],
  ]);

  const table = FORMATS.table!(report);
  expect(table).toMatch(/^prod\s+hand \(unmanaged\)\s+krcloud:cache:Cluster\s+mandatory\s+krcloud-cache-replica-in-production$/m);
  expect(table).toContain("Live state: 1 managed and 1 unmanaged resource(s) read.");
  expect(table).toContain("2 policy violation(s) (krcloud 0.1.0): 1 mandatory, 1 advisory.");
  expect(table).toContain("Exit 4: a mandatory policy violation.");
  expect(
    FORMATS.github!(report)
      .split("\n")
      .filter(Boolean)
      .map((l) => l.slice(0, l.indexOf(" "))),
  ).toEqual(["::error", "::warning"]);
  expect(FORMATS.junit!(report)).toMatch(/<testsuite name="policy" tests="2" failures="1"/);
  expect(FORMATS.markdown!(report)).toContain("| prod | `hand` (unmanaged) | krcloud:cache:Cluster | **mandatory** | `krcloud-cache-replica-in-production` |");
});

test("a pack that did not run to the end makes the report partial, and every format says so", () => {
  const report = reportWith({ packs: [], violations: [], error: "pulumi policy analyze … failed (exit 255):\npolicy pack not found" });
  expect([report.status, report.exitCode]).toEqual(["partial", 3]);
  expect(FORMATS.table!(report)).toContain("policy: the pack did not run to the end");
  expect(FORMATS.github!(report)).toContain("::error title=krcloud policy%3A the pack did not run to the end::");
  expect(FORMATS.junit!(report)).toContain('type="policy-error"');
  expect(JSON.parse(FORMATS.sarif!(report)).runs[0].invocations[0].toolExecutionNotifications[0].descriptor.id).toBe("policy-error");
});
