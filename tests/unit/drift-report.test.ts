/**
 * krcloud-drift's reports from one run (drift/report.ts and drift/formats): the JSON report against
 * its shipped JSON Schema, SARIF against the official SARIF 2.1.0 schema (as published by OASIS,
 * shipped by @microsoft/jest-sarif), JUnit XML (a test case per resource), GitHub annotations and the
 * Markdown summary; the ignore file and the baseline; the fixes. No engine runs here: the events
 * are shaped as the CLI sends them (tests/support/drift/events.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Ajv from "ajv";
import AjvDraft04 from "ajv-draft-04";
import { XMLParser } from "fast-xml-parser";
import { FORMATS } from "../../drift/formats";
import { escapeData, escapeProperty } from "../../drift/formats/github";
import { ancestors, baselineOf, parseIgnoreFile, type IgnoreRule } from "../../drift/ignore";
import type { DriftReport } from "../../drift/model";
import { declarationLine } from "../../drift/program";
import { buildReport, stackReport } from "../../drift/report";
import type { StackRun } from "../../drift/run";
import { REPORT_SCHEMA } from "../../drift/schema";
import { DYNAMIC, previewEvents, SECRET_ENVELOPE } from "../support/drift/events";
import { tsProgram, writeFiles } from "../harness/programs";

const SARIF_SCHEMA = JSON.parse(
  fs.readFileSync(path.join(path.dirname(require.resolve("@microsoft/jest-sarif/package.json")), "lib", "schemas", "sarif-2.1.0-rtm.5.json"), "utf8"),
);
const FORMAT_CHECKS = {
  uri: (s: string) => URL.canParse(s),
  "uri-reference": (s: string) => URL.canParse(s, "file:///"),
  "date-time": (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/.test(s),
};

const BUCKET = DYNAMIC("krcloud:objectstorage:Bucket");
const CORS = DYNAMIC("krcloud:objectstorage:BucketCors");
const site = { name: "site-1", acl: { public: "read-only" }, metadata: { purpose: "web", owner: SECRET_ENVELOPE } };
const cors = { bucket: "site-1", rules: [{ allowedOrigins: ["https://ok.example"] }] };
const NOW = new Date("2026-11-20T10:00:00Z");

let root: string;
let workDir: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-drift-report-"));
  fs.mkdirSync(path.join(root, ".git"));
  workDir = path.join(root, "infra");
  fs.mkdirSync(workDir);
  writeFiles(
    workDir,
    tsProgram("web", [
      'const site = new krcloud.objectstorage.Bucket("site", { acl: { public: "read-only" } });',
      'new krcloud.objectstorage.BucketCors("site-cors", { bucket: site.name, rules: [] });',
      'new krcloud.objectstorage.Bucket("logs", {});',
    ]),
  );
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** One stack: site's ACL drifted, its CORS origin drifted, logs deleted outside Pulumi, a clean bucket. */
function run(stack = "prod", driftedOrigin = "https://evil.example"): StackRun {
  const events = previewEvents(
    [
      { name: "site", type: BUCKET, op: "update", before: site, after: { ...site, acl: { public: "deny" } }, program: site },
      { name: "site-cors", type: CORS, op: "update", before: cors, after: { ...cors, rules: [{ allowedOrigins: [driftedOrigin] }] }, program: cors },
      { name: "logs", type: BUCKET, op: "create", before: { name: "logs-1" }, after: undefined, program: { name: "logs-1" } },
      { name: "quiet", type: BUCKET, op: "same", before: { name: "q" }, after: { name: "q" }, program: { name: "q" } },
    ],
    stack,
  );
  return { stack, events, durationMs: 1234, previewFailed: false };
}

function reportOf(runs: StackRun[], opts: { rules?: IgnoreRule[]; baseline?: Set<string>; baselineFile?: string } = {}): DriftReport {
  const ctx = { workDir, sourceRoot: root, cwdForCommands: "infra", rules: opts.rules ?? [], baseline: opts.baseline ?? new Set<string>(), now: NOW };
  const stacks = runs.map((r) => stackReport(r, ctx));
  return buildReport(stacks, { version: "9.9.9", startedAt: 0, finishedAt: 2000, now: NOW, rules: opts.rules ?? [], baselineFile: opts.baselineFile });
}

test("the JSON report follows its shipped JSON Schema; every resource is listed with its status", () => {
  const report = reportOf([run()]);
  const ajv = new Ajv({ strict: true, allErrors: true, formats: FORMAT_CHECKS });
  const validate = ajv.compile(REPORT_SCHEMA);
  const json = JSON.parse(FORMATS.json!(report));
  expect(validate.errors ?? validate(json)).toBe(true);
  expect(json).toMatchObject({
    version: 1,
    status: "drift",
    exitCode: 2,
    drift: true,
    stacks: [{ stack: "prod", project: "web", programFile: "infra/index.ts" }],
  });
  expect(json.stacks[0].resources.map((r: { name: string; status: string }) => [r.name, r.status])).toEqual([
    ["site", "drifted"],
    ["site-cors", "drifted"],
    ["logs", "deleted"],
    ["quiet", "clean"],
  ]);
  expect(json.stacks[0].counts).toMatchObject({ resources: 4, clean: 1, drifted: 2, deleted: 1 });
  // A report that breaks the schema is caught (the test can fail).
  expect(validate({ ...json, exitCode: 7 })).toBe(false);
});

test("each drifted resource says both ways out: the targeted up that reverts, the values that accept", () => {
  const [s] = reportOf([run()]).stacks;
  const siteRow = s!.resources.find((r) => r.name === "site")!;
  expect(siteRow.fix?.revert).toBe(`pulumi up --stack prod --refresh --run-program --target '${siteRow.urn}' --cwd infra`);
  expect(siteRow.fix?.acceptValues).toEqual({ acl: { public: "deny" } });
  expect(siteRow.fix?.accept).toBe(`in the program, set site's acl: {"public":"deny"}`);
  expect(siteRow.line).toBe(3);
  const logs = s!.resources.find((r) => r.name === "logs")!;
  expect(logs.fix?.accept).toContain(`pulumi refresh --stack prod --run-program --yes --target '${logs.urn}'`);
});

test("SARIF is valid SARIF 2.1.0, one result per drifted property at the declaring line, with stable rule ids and fingerprints", () => {
  // The schema's language-code pattern is not valid in Unicode mode.
  const ajv = new AjvDraft04({ allErrors: true, formats: FORMAT_CHECKS, unicodeRegExp: false });
  const validate = ajv.compile(SARIF_SCHEMA);
  const sarif = JSON.parse(FORMATS.sarif!(reportOf([run()])));
  expect(validate(sarif) || validate.errors).toBe(true);
  const results = sarif.runs[0].results as {
    ruleId: string;
    level: string;
    message: { text: string };
    locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
    partialFingerprints: Record<string, string>;
  }[];
  expect(results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.artifactLocation.uri, r.locations[0]!.physicalLocation.region.startLine])).toEqual([
    ["drift/property-changed", "infra/index.ts", 3],
    ["drift/property-changed", "infra/index.ts", 4],
    ["drift/resource-deleted", "infra/index.ts", 5],
  ]);
  expect(results[0]!.message.text).toContain('acl.public is "deny" in the cloud, "read-only" in the program');
  // Another value of the same property is the same alert (identity), but a different drift (fingerprint).
  const again = JSON.parse(FORMATS.sarif!(reportOf([run("prod", "https://other.example")])));
  expect(again.runs[0].results[1].partialFingerprints).toEqual(results[1]!.partialFingerprints);
  expect(again.runs[0].results[1].fingerprints).not.toEqual(sarif.runs[0].results[1].fingerprints);
  // A malformed log is caught by the schema (the test can fail).
  expect(validate({ ...sarif, version: "2.0.0" })).toBe(false);
});

test("JUnit: a test case per resource, failed when drifted, skipped when ignored", () => {
  const rules = parseIgnoreFile("rules:\n  - type: krcloud:objectstorage:BucketCors\n    reason: the CDN team edits CORS\n", "test");
  const xml = FORMATS.junit!(reportOf([run()], { rules }));
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (n) => n === "testcase" || n === "testsuite" }).parse(xml);
  const suite = doc.testsuites.testsuite[0];
  expect(suite).toMatchObject({ name: "prod", tests: "4", failures: "2", skipped: "1", errors: "0" });
  const byName = Object.fromEntries(suite.testcase.map((c: Record<string, unknown>) => [c.name, c]));
  expect(byName.site.failure).toMatchObject({ type: "drift", message: "drifted: acl.public" });
  expect(byName["site-cors"].skipped.message).toContain("ignored by rule #1: the CDN team edits CORS");
  expect(byName.logs.failure.type).toBe("deleted");
  expect(byName.quiet.failure ?? byName.quiet.skipped).toBeUndefined();
});

test("GitHub annotations: a warning per new drift at the program's line, escaped as the toolkit does", () => {
  const out = FORMATS.github!(reportOf([run()]));
  const lines = out.trim().split("\n");
  expect(lines).toHaveLength(3);
  expect(lines[0]).toMatch(/^::warning file=infra\/index.ts,line=3,title=krcloud drift%3A site acl.public::site \(krcloud%3A|::warning/);
  expect(lines[0]!.startsWith("::warning file=infra/index.ts,line=3,title=krcloud drift%3A site acl.public::")).toBe(true);
  expect(lines[0]).toContain("%0ARevert: pulumi up --stack prod --refresh --run-program --target");
  expect(escapeData("50%\r\nok")).toBe("50%25%0D%0Aok");
  expect(escapeProperty("a:b,c")).toBe("a%3Ab%2Cc");
});

test("Markdown summary: the stacks with counts and time, the findings table, the fixes", () => {
  const md = FORMATS.markdown!(reportOf([run()]));
  expect(md).toContain("## krcloud drift check: drift found");
  expect(md).toContain("| prod | drift | 4 | 2 | 1 | 0 | 0 | 0 | 0 | 1.2 s |");
  expect(md).toContain('| `site` | krcloud:objectstorage:Bucket | `acl.public` | `"deny"` | `"read-only"` | **new** |');
  expect(md).toContain("<details><summary>Fix site (drifted)</summary>");
});

test("the table names each drifted property with both values, and the time each stack took", () => {
  const text = FORMATS.table!(reportOf([run("prod"), run("staging")]));
  expect(text).toMatch(/^prod\s+site\s+krcloud:objectstorage:Bucket\s+drifted\s+acl\.public$/m);
  expect(text).toContain('  acl.public: cloud "deny", program "read-only"');
  expect(text).toContain("2 stack(s) checked in 2.0 s (prod 1.2 s, staging 1.2 s): 2 with drift, 0 partial, 0 failed.");
  expect(text).not.toContain("4dabf18193072939515e22adb298388d");
});

describe("ignore file", () => {
  test("rules by stack, URN or type glob and property path; ignored drift stays in the report with its reason", () => {
    const rules = parseIgnoreFile(
      [
        "rules:",
        "  - id: acl-by-hand",
        "    stack: prod*",
        "    type: krcloud:objectstorage:*",
        "    property: acl.*",
        "    reason: ops opens the site by hand during incidents",
        "    expires: 2026-12-31",
        "  - urn: '*::logs'",
        "    reason: logs are recreated nightly",
      ].join("\n"),
      ".krcloud-driftignore",
    );
    const report = reportOf([run()], { rules });
    const byName = Object.fromEntries(report.stacks[0]!.resources.map((r) => [r.name, r]));
    expect(byName.site).toMatchObject({
      status: "drifted",
      disposition: "ignored",
      ignoredBy: { rule: "acl-by-hand", reason: "ops opens the site by hand during incidents" },
    });
    expect(byName.logs).toMatchObject({ status: "deleted", disposition: "ignored", ignoredBy: { rule: "#2" } });
    expect(byName["site-cors"]!.disposition).toBe("new");
    expect(report.exitCode).toBe(2);
    expect(FORMATS.table!(report)).toContain("(ignored by rule acl-by-hand: ops opens the site by hand during incidents)");
  });

  test("a property rule covers the paths below it", () => {
    expect(ancestors("rules[0].allowedOrigins[1]")).toEqual(["rules[0].allowedOrigins[1]", "rules[0].allowedOrigins", "rules[0]", "rules"]);
    const rules = parseIgnoreFile("rules:\n  - property: rules\n    reason: CORS is tuned by hand\n", "f");
    const cors = reportOf([run()], { rules }).stacks[0]!.resources.find((r) => r.name === "site-cors")!;
    expect(cors).toMatchObject({ disposition: "ignored", properties: [{ path: "rules[0].allowedOrigins[0]", disposition: "ignored" }] });
    const none = parseIgnoreFile("rules:\n  - property: rule\n    reason: a prefix that is no path\n", "f");
    expect(reportOf([run()], { rules: none }).stacks[0]!.resources.find((r) => r.name === "site-cors")!.disposition).toBe("new");
  });

  test("an expired rule no longer applies and fails the check naming the rule", () => {
    const rules = parseIgnoreFile("rules:\n  - type: '*'\n    reason: temporary\n    expires: 2026-11-19\n", "f");
    const report = reportOf([run()], { rules });
    expect(report.exitCode).toBe(1);
    expect(report.expiredRules).toEqual([{ rule: "#1 (type *)", expires: "2026-11-19", reason: "temporary" }]);
    expect(report.stacks[0]!.resources.find((r) => r.name === "site")!.disposition).toBe("new");
    // On its last day it still applies.
    const lastDay = parseIgnoreFile("rules:\n  - type: '*'\n    reason: temporary\n    expires: 2026-11-20\n", "f");
    expect(reportOf([run()], { rules: lastDay }).exitCode).toBe(0);
  });

  test("a bad file is refused with every problem named", () => {
    expect(() => parseIgnoreFile("rules:\n  - type: x\n  - reason: y\n    expires: soon\n", "f.yaml")).toThrow(
      /f\.yaml: \.rules\[0\]\.reason: .*; \.rules\[1\]\.expires: must be a date, YYYY-MM-DD; \.rules\[1\]: a rule needs at least one of stack, urn, type or property/,
    );
    expect(() => parseIgnoreFile("rules: [", "f.yaml")).toThrow(/f\.yaml: not valid YAML/);
    expect(() => parseIgnoreFile("rules:\n  - type: x\n    reason: y\n    color: red\n", "f.yaml")).toThrow(/Unrecognized key/);
  });
});

test("baseline: today's drift recorded; only drift not in it fails, and a new value of known drift is new", () => {
  const first = reportOf([run()]);
  const baseline = baselineOf(first.stacks, NOW);
  expect(baseline.fingerprints.map((f) => f.path).sort()).toEqual(["(deleted)", "acl.public", "rules[0].allowedOrigins[0]"]);
  const known = new Set(baseline.fingerprints.map((f) => f.fingerprint));
  const same = reportOf([run()], { baseline: known, baselineFile: "b.json" });
  expect(same.exitCode).toBe(0);
  expect(same.stacks[0]!.resources.filter((r) => r.disposition === "baseline").map((r) => r.name)).toEqual(["site", "site-cors", "logs"]);
  const sarif = JSON.parse(FORMATS.sarif!(same));
  expect(sarif.runs[0].results.map((r: { baselineState: string; level: string }) => [r.baselineState, r.level])).toEqual([
    ["unchanged", "note"],
    ["unchanged", "note"],
    ["unchanged", "note"],
  ]);
  const moved = reportOf([run("prod", "https://other.example")], { baseline: known });
  expect(moved.exitCode).toBe(2);
  expect(moved.stacks[0]!.resources.filter((r) => r.disposition === "new").map((r) => r.name)).toEqual(["site-cors"]);
});

test("locations point at the line that declares the resource, not at a comment that names it", () => {
  const ts = ['/** A bucket (logical name "site"). */', 'const SITE = "site-files";', 'const b = new krcloud.objectstorage.Bucket("site", {});'].join("\n");
  expect(declarationLine(ts, "site")).toBe(3);
  expect(declarationLine('bucket, err := objectstorage.NewBucket(ctx, "site", nil)', "site")).toBe(1);
  expect(declarationLine("resources:\n  # site: the web site\n  site:\n    type: krcloud:objectstorage:Bucket\n", "site")).toBe(3);
  expect(declarationLine("const name = `site-${i}`;\n", "site")).toBeUndefined();
});
