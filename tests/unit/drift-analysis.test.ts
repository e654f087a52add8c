/**
 * How krcloud-drift reads the engine's events of `pulumi preview --refresh` (drift/analyze.ts), on
 * events shaped as the CLI sends them (tests/support/drift/events.ts): what changed in the cloud
 * against what the program changed, secrets, deletions, read errors, providers, exit codes.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { analyzeEvents } from "../../drift/analyze";
import { EXIT, exitCodeOf, type StackReport } from "../../drift/model";
import { errorSummary } from "../../drift/run";
import { leafDiffs, pathParts, valueAt } from "../../drift/values";
import { DYNAMIC, previewEvents, SECRET_ENVELOPE, urnOf } from "../support/drift/events";

const BUCKET = DYNAMIC("krcloud:objectstorage:Bucket");
const site = { name: "site-1", acl: { public: "read-only" }, metadata: { purpose: "web" }, __provider: "stub" };

test("a property changed in the cloud is drift, with the path and both values; one changed in the program is pending", () => {
  const { resources } = analyzeEvents(
    previewEvents([
      {
        name: "site",
        type: BUCKET,
        op: "update",
        before: site,
        after: { ...site, acl: { public: "deny" } },
        program: { ...site, metadata: { purpose: "blog" } },
      },
    ]),
  );
  expect(resources).toHaveLength(1);
  const [r] = resources;
  expect(r).toMatchObject({ name: "site", type: "krcloud:objectstorage:Bucket", status: "drifted", disposition: "new", operation: "update" });
  expect(r!.properties.map(({ path, cloud, program, origin }) => ({ path, cloud, program, origin }))).toEqual([
    { path: "acl.public", cloud: "deny", program: "read-only", origin: "cloud" },
    { path: "metadata.purpose", cloud: "web", program: "blog", origin: "program" },
  ]);
  expect(r!.properties.every((p) => /^[0-9a-f]{32}$/.test(p.fingerprint))).toBe(true);
});

test("only a program change: the resource is pending, not drifted", () => {
  const { resources } = analyzeEvents(
    previewEvents([{ name: "site", type: BUCKET, op: "update", before: site, after: site, program: { ...site, acl: { public: "deny" } } }]),
  );
  expect(resources[0]).toMatchObject({ status: "pending", properties: [{ path: "acl.public", origin: "program" }] });
});

test("providers and the stack are never reported: config moved to the environment is not drift, and no envelope is printed", () => {
  const events = previewEvents([{ name: "site", type: BUCKET, op: "same", before: site, after: site, program: site }]);
  const { resources } = analyzeEvents(events);
  expect(resources.map((r) => [r.type, r.status])).toEqual([["krcloud:objectstorage:Bucket", "clean"]]);
  expect(JSON.stringify(resources)).not.toContain("4dabf18193072939515e22adb298388d");
});

test("secrets: shown as [secret], never compared; a secret is listed only when nothing else explains the step or the provider names it", () => {
  const withSecret = { ...site, metadata: { owner: SECRET_ENVELOPE } };
  const both = analyzeEvents(
    previewEvents([{ name: "site", type: BUCKET, op: "update", before: withSecret, after: { ...withSecret, acl: { public: "deny" } }, program: withSecret }]),
  ).resources[0]!;
  expect(both.properties.map((p) => p.path)).toEqual(["acl.public"]);

  const secretOnly = analyzeEvents(previewEvents([{ name: "site", type: BUCKET, op: "update", before: withSecret, after: withSecret, program: withSecret }]))
    .resources[0]!;
  expect(secretOnly).toMatchObject({
    status: "drifted",
    properties: [{ path: "metadata.owner", secret: true, cloud: "[secret]", program: "[secret]", origin: "unknown" }],
  });

  // The native plugin names the changed keys, in the refresh (cloud) and in the step.
  const named = analyzeEvents(
    previewEvents([
      {
        name: "site",
        type: "krcloud:objectstorage:Bucket",
        op: "update",
        before: withSecret,
        after: { ...withSecret, acl: { public: "deny" } },
        program: withSecret,
        extra: { diffs: ["acl", "metadata"] },
        refreshExtra: { diffs: ["acl", "metadata"] },
      },
    ]),
  ).resources[0]!;
  expect(named.properties.map((p) => [p.path, p.origin])).toEqual([
    ["acl.public", "cloud"],
    ["metadata.owner", "cloud"],
  ]);
  expect(JSON.stringify([both, secretOnly, named])).not.toContain("ciphertext");
});

test("deleted outside Pulumi, not created yet, no longer declared", () => {
  const { resources } = analyzeEvents(
    previewEvents([
      { name: "gone", type: BUCKET, op: "create", before: site, after: undefined, program: site },
      { name: "orphan", type: BUCKET, op: "delete", before: site, after: site, program: undefined },
    ]).concat(
      previewEvents([{ name: "brand-new", type: BUCKET, op: "create", before: site, program: site }]).filter(
        (e) => e.resourcePreEvent?.metadata.op === "create",
      ),
    ),
  );
  expect(resources.map((r) => [r.name, r.status, r.disposition])).toEqual([
    ["gone", "deleted", "new"],
    ["orphan", "pending", undefined],
    ["brand-new", "pending", undefined],
  ]);
  expect(resources[0]!.fingerprint).toMatch(/^[0-9a-f]{32}$/);
});

test("replacement steps collapse into one row; the replacement's new auto-name is not reported", () => {
  const ds = DYNAMIC("krcloud:dataquery:DataSource");
  const before = { name: "shop_1a2b3c4", description: "orders", password: SECRET_ENVELOPE };
  const events = previewEvents([
    { name: "shop", type: ds, op: "replace", before, after: { ...before, description: "changed" }, program: before, extra: { keys: ["description"] } },
  ]);
  const replace = events.find((e) => e.resourcePreEvent?.metadata.op === "replace")!;
  const m = replace.resourcePreEvent!.metadata;
  // As the engine sends them when the provider deletes first: the delete step has no new state,
  // and the replacement was checked anew, so it carries a new auto-name.
  m.new = { ...m.new!, inputs: { ...m.new!.inputs, name: "shop_9f8e7d6" } };
  const del: EngineEvent = { ...replace, resourcePreEvent: { metadata: { ...m, op: "delete-replaced", new: undefined } } };
  const create: EngineEvent = { ...replace, resourcePreEvent: { metadata: { ...m, op: "create-replacement" } } };
  const i = events.indexOf(replace);
  events.splice(i, 1, del, replace, create);
  const { resources } = analyzeEvents(events);
  expect(resources).toHaveLength(1);
  expect(resources[0]).toMatchObject({ operation: "replace", status: "drifted" });
  expect(resources[0]!.properties.map(({ path, cloud, program }) => ({ path, cloud, program }))).toEqual([
    { path: "description", cloud: "changed", program: "orders" },
  ]);
});

test("a read that failed (KRCLOUD_READ_ERRORS=report) makes the resource unreadable; the rest is still analysed", () => {
  const { resources, complete } = analyzeEvents(
    previewEvents([
      {
        name: "site",
        type: BUCKET,
        op: "same",
        before: site,
        after: site,
        afterOutputs: { ...site, __krcloudReadError: "reading bucket: 429 SlowDown" },
        program: site,
      },
      { name: "other", type: BUCKET, op: "update", before: site, after: { ...site, acl: { public: "deny" } }, program: site },
    ]),
  );
  expect(complete).toBe(true);
  expect(resources.map((r) => [r.name, r.status, r.error])).toEqual([
    ["site", "unreadable", "reading bucket: 429 SlowDown"],
    ["other", "drifted", undefined],
  ]);
});

test("without that setting a failed read stops the preview: the resources the engine blamed are unreadable, the analysis incomplete", () => {
  const events = previewEvents([{ name: "site", type: BUCKET, op: "same", before: site, after: site, program: site }]);
  events.push({
    sequence: 999,
    timestamp: 0,
    diagnosticEvent: { urn: urnOf("site", BUCKET), message: 'error: reading bucket "site-1": 403 Forbidden\n', color: "never", severity: "error" },
  });
  const { resources, complete } = analyzeEvents(events, { failed: true });
  expect(complete).toBe(false);
  expect(resources[0]).toMatchObject({ status: "unreadable", error: 'reading bucket "site-1": 403 Forbidden' });
});

test("KMS resources and queries keep nothing in the cloud to compare: unverifiable", () => {
  const ct = DYNAMIC("krcloud:kms:Ciphertext");
  const q = DYNAMIC("krcloud:dataquery:Query");
  const inputs = { keyId: "k", plaintext: SECRET_ENVELOPE };
  const { resources } = analyzeEvents(
    previewEvents([
      { name: "sealed", type: ct, op: "same", before: inputs, after: inputs, program: inputs },
      { name: "report", type: q, op: "same", before: { query: "select 1" }, after: { query: "select 1" }, program: { query: "select 1" } },
    ]),
  );
  expect(resources.map((r) => [r.name, r.status])).toEqual([
    ["sealed", "unverifiable"],
    ["report", "unverifiable"],
  ]);
  expect(resources[0]!.note).toMatch(/makes no call/);
});

function stackOf(status: StackReport["status"]): StackReport {
  return { stack: status, status, durationMs: 0, resources: [], counts: {} as StackReport["counts"] };
}

test("exit codes: 0 clean, 2 drift, 3 partial (over drift), 1 when nothing could be checked or a rule expired", () => {
  expect(exitCodeOf([stackOf("clean")], [])).toBe(EXIT.clean);
  expect(exitCodeOf([stackOf("clean"), stackOf("drift")], [])).toBe(EXIT.drift);
  expect(exitCodeOf([stackOf("drift"), stackOf("partial")], [])).toBe(EXIT.partial);
  expect(exitCodeOf([stackOf("clean"), stackOf("error")], [])).toBe(EXIT.partial);
  expect(exitCodeOf([stackOf("error")], [])).toBe(EXIT.error);
  expect(exitCodeOf([stackOf("clean")], [{ rule: "#1", expires: "2020-01-01", reason: "x" }])).toBe(EXIT.error);
  expect([EXIT.clean, EXIT.error, EXIT.drift, EXIT.partial]).toEqual([0, 1, 2, 3]);
});

test("errorSummary keeps the Diagnostics section of an Automation API error", () => {
  const msg = [
    "code: 255",
    " stdout: Previewing update (dev):",
    "Diagnostics:",
    "  pulumi:pulumi:Stack (p-dev):",
    "    error: 401 Unauthorized",
    "",
    "Resources:",
    " stderr: Command failed with exit code 255",
  ].join("\n");
  expect(errorSummary(new Error(msg))).toBe("pulumi:pulumi:Stack (p-dev):\n  error: 401 Unauthorized");
  expect(errorSummary(new Error("code: -2\nerror: no stack named 'x' found\nerror: no stack named 'x' found"))).toBe("error: no stack named 'x' found");
});

test("resources are listed in the state's order, whatever order the refresh's concurrent reads finished in; the StackIdentity is never listed", () => {
  const names = ["alpha", "bravo", "charlie", "delta"];
  const stateOrder = names.map((n) => urnOf(n, BUCKET));
  const identity = DYNAMIC("krcloud:index:StackIdentity");
  const runs = [
    ["delta", "alpha", "charlie", "bravo"],
    ["bravo", "delta", "alpha", "charlie"],
  ].map((order) =>
    analyzeEvents(
      previewEvents([
        { name: "krcloud-stack", type: identity, op: "same", before: { key: "k" }, after: { key: "k" }, program: { key: "k" } },
        ...order.map((name) => ({ name, type: BUCKET, op: "same" as const, before: site, after: site, program: site })),
      ]),
      { stateOrder: [urnOf("krcloud-stack", identity), ...stateOrder] },
    ).resources.map((r) => r.name),
  );
  expect(runs[0]).toEqual(names);
  expect(runs[1]).toEqual(names);
});

test("a map key holding dots (a file name in a BucketFolder's manifest) is quoted in the path, and the path finds the value again", () => {
  const before = { manifest: { "site/a.txt": { hash: "1", size: 1 }, plain: { hash: "p" } } };
  const after = { manifest: { "site/a.txt": { hash: "2", size: 1 }, plain: { hash: "q" } } };
  const diffs = leafDiffs(before, after);
  expect(diffs.map((d) => d.path)).toEqual(["manifest.plain.hash", 'manifest["site/a.txt"].hash']);
  expect(diffs.map((d) => [valueAt(before, d.path), valueAt(after, d.path)])).toEqual([
    ["p", "q"],
    ["1", "2"],
  ]);
  expect(pathParts("rules[0].allowedOrigins[1]")).toEqual(["rules", 0, "allowedOrigins", 1]);
});

test("a BucketFolder's drift is reported per key from its outputs: an object the folder did not upload, with no step, is drift naming the key", () => {
  const FOLDER = "krcloud:objectstorage:BucketFolder";
  const folder = { bucket: "b", prefix: "site/", manifestDigest: "sha256:1", manifest: { "site/a.txt": "aa 1 text/plain" }, extraObjects: {} };
  const extra = { ...folder, extraObjects: { "site/x.txt": "xx 5 text/plain" } };
  const [r] = analyzeEvents(previewEvents([{ name: "content", type: FOLDER, op: "same", before: folder, after: extra, program: folder }])).resources;
  expect(r).toMatchObject({ status: "drifted" });
  expect(r!.properties.map(({ path, cloud, program, origin }) => ({ path, cloud, program, origin }))).toEqual([
    { path: 'extraObjects["site/x.txt"]', cloud: "xx 5 text/plain", program: undefined, origin: "cloud" },
  ]);
  // Other types' outputs are not read this way: the same change on a Bucket is no drift.
  expect(analyzeEvents(previewEvents([{ name: "site", type: BUCKET, op: "same", before: folder, after: extra, program: folder }])).resources[0]!.status).toBe(
    "clean",
  );
});
