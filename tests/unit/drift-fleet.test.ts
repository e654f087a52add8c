/**
 * krcloud-drift's fleets without an engine: `--shard K/N` (every stack in exactly one shard, by
 * name, the same split on every runner, no stack moved when others are added), `merge` (the shards'
 * reports give the unsharded run's report byte for byte, times aside, in every format; a missing,
 * repeated or foreign shard is refused), the exit code with policy findings, and the stable order
 * of stacks and violations. The engine tier runs a planted fleet: tests/engine/drift-fleet.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inShard, MergeError, mergeReports, parseShard, readReport, shardOf, sortViolations } from "../../drift/fleet";
import { FORMATS } from "../../drift/formats";
import { EXIT, exitCodeOf, type DriftReport, type PolicyResult, type PolicyViolation, type StackReport } from "../../drift/model";
import { buildReport, stackReport } from "../../drift/report";
import type { StackRun } from "../../drift/run";
import { DYNAMIC, previewEvents } from "../support/drift/events";
import { treeForFile } from "../support/files";

const BUCKET = DYNAMIC("krcloud:objectstorage:Bucket");
const NOW = new Date("2026-11-20T10:00:00Z");
const STACKS = ["prod-a", "prod-b", "dev", "staging", "prod-c", "qa", "edge-1", "edge-2"];

let workDir: string;
treeForFile(
  "krcloud-drift-fleet-",
  { "Pulumi.yaml": "name: web\nruntime: nodejs\n", "index.ts": 'new krcloud.objectstorage.Bucket("site", {});\n' },
  (d) => (workDir = d),
);

/** A stack's run: its bucket drifted when the name says so, clean otherwise. */
function run(stack: string): StackRun {
  const drifted = stack.startsWith("prod");
  const site = { name: `site-${stack}`, acl: { public: "deny" } };
  const events = previewEvents(
    [
      {
        name: "site",
        type: BUCKET,
        op: drifted ? "update" : "same",
        before: site,
        after: drifted ? { ...site, acl: { public: "read-only" } } : site,
        program: site,
      },
    ],
    stack,
  );
  return { stack, events, durationMs: 1000 + stack.length, previewFailed: false };
}

function violation(stack: string, name: string, level: "mandatory" | "advisory"): PolicyViolation {
  return {
    policy: level === "mandatory" ? "krcloud-bucket-public-without-allow-list" : "krcloud-bucket-without-encryption",
    pack: "krcloud",
    packVersion: "0.1.0",
    level,
    message: `Bucket "${name}": …`,
    urn: `urn:pulumi:${stack}::web::${BUCKET}::${name}`,
    name,
    type: "krcloud:objectstorage:Bucket",
    stack,
    managed: true,
  };
}

function reportOf(stacks: string[], shard?: { index: number; count: number }, startedAt = 0): DriftReport {
  const ctx = { workDir, sourceRoot: workDir, rules: [], baseline: new Set<string>(), now: NOW };
  const reports = stacks.filter((s) => inShard(s, shard)).map((s) => stackReport(run(s), ctx));
  const policy: PolicyResult = {
    packs: [{ name: "krcloud", version: "0.1.0" }],
    violations: sortViolations(stacks.filter((s) => inShard(s, shard) && s.startsWith("prod")).flatMap((s) => [violation(s, "site", "advisory")])),
  };
  return buildReport(reports, { version: "9.9.9", startedAt, finishedAt: startedAt + 5000, now: NOW, rules: [], policy, shard });
}

/** A format's text with its times blanked. */
const timeless = (text: string) =>
  text
    .replace(/\d+\.\d s/g, "T s")
    .replace(/"(durationMs|time)": ?"?[\d.]+"?/g, '"$1": T')
    .replace(/time="[\d.]+"/g, 'time="T"');

test("--shard K/N: K from 1 to N, anything else refused with what it takes", () => {
  expect(parseShard("3/4")).toEqual({ index: 3, count: 4 });
  expect(parseShard("1/1")).toEqual({ index: 1, count: 1 });
  expect(() => parseShard("0/4")).toThrow(/K must be 1 to N \(the shards are numbered from 1\)/);
  expect(() => parseShard("5/4")).toThrow(/K must be 1 to N/);
  expect(() => parseShard("2")).toThrow(/--shard takes K\/N/);
  expect(() => parseShard("a/b")).toThrow(/--shard takes K\/N/);
});

test("every stack is in exactly one shard; the split depends on the name alone, so adding stacks moves none", () => {
  const names = Array.from({ length: 600 }, (_, i) => `team-${i}/prod`);
  for (const n of names) expect([1, 2, 3, 4].filter((k) => inShard(n, { index: k, count: 4 }))).toHaveLength(1);
  const before = new Map(names.slice(0, 300).map((n) => [n, shardOf(n, 4)]));
  // The fleet grows (and is listed in another order): the first 300 keep their shard.
  const grown = [...names].reverse();
  for (const n of grown) if (before.has(n)) expect(shardOf(n, 4)).toBe(before.get(n));
  // Balanced enough: each shard within 20% of an even share.
  const sizes = [1, 2, 3, 4].map((k) => names.filter((n) => shardOf(n, 4) === k).length);
  for (const s of sizes) expect(Math.abs(s - 150)).toBeLessThan(30);
});

test.each([3, 4])("merge of %i shards is the unsharded report, byte for byte with times aside, in every format", (n) => {
  const whole = reportOf(STACKS);
  const shards = Array.from({ length: n }, (_, i) => reportOf(STACKS, { index: i + 1, count: n }, 10 * i));
  // Every stack was checked by one shard.
  expect(shards.flatMap((s) => s.stacks.map((x) => x.stack)).sort()).toEqual([...STACKS].sort());
  const merged = mergeReports(shards.map((report, i) => ({ file: `shard-${i + 1}.json`, report })));
  expect(merged.shard).toBeUndefined();
  for (const [name, format] of Object.entries(FORMATS)) expect([name, timeless(format(merged))]).toEqual([name, timeless(format(whole))]);
  expect(merged.stacks.map((s) => s.stack)).toEqual([...STACKS].sort());
  expect(merged.exitCode).toBe(EXIT.drift);
});

test("merge reads the reports the shards wrote, and refuses a missing, repeated or foreign shard by name", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-drift-merge-"));
  try {
    const files = [1, 2, 3].map((k) => {
      const f = path.join(dir, `shard-${k}.json`);
      fs.writeFileSync(f, FORMATS.json!(reportOf(STACKS, { index: k, count: 3 })));
      return f;
    });
    const read = (fs_: string[]) => fs_.map((file) => ({ file, report: readReport(file) }));
    expect(mergeReports(read(files)).stacks).toHaveLength(STACKS.length);
    expect(() => mergeReports(read(files.slice(0, 2)))).toThrow(new MergeError("shard 3/3 missing: a merged report would leave their stacks out"));
    expect(() => mergeReports(read([files[0]!, files[0]!, files[1]!]))).toThrow(/shard 1\/3 is given twice/);
    const other = path.join(dir, "other.json");
    fs.writeFileSync(other, FORMATS.json!(reportOf(STACKS, { index: 1, count: 2 })));
    expect(() => mergeReports(read([...files, other]))).toThrow(/other\.json is shard 1\/2, the others are of 3 shards/);
    fs.writeFileSync(other, "{}");
    expect(() => readReport(other)).toThrow(/not a krcloud-drift JSON report of version 1/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a shard with no stack of its own checked its (empty) share: exit 0, and the merge still sees every stack", () => {
  const [lonely] = ["prod-a"];
  const empty = [1, 2, 3, 4, 5, 6].map((k) => ({ index: k, count: 6 })).find((s) => !inShard(lonely, s))!;
  const r = reportOf([lonely], empty);
  expect([r.stacks.length, r.exitCode, r.status]).toEqual([0, EXIT.clean, "clean"]);
  expect(reportOf([], undefined).exitCode).toBe(EXIT.error);
});

test("exit codes: an expired rule or nothing checked (1), then a mandatory violation (4), then partial (3), then drift (2)", () => {
  const stack = (status: StackReport["status"]) => ({ status }) as StackReport;
  const policy = (levels: ("mandatory" | "advisory")[]): PolicyResult => ({ packs: [], violations: levels.map((l) => violation("prod", "site", l)) });
  expect(exitCodeOf([stack("partial"), stack("drift")], [], { policy: policy(["mandatory"]) })).toBe(EXIT.policy);
  expect(exitCodeOf([stack("clean")], [{ rule: "#1", expires: "2020-01-01", reason: "r" }], { policy: policy(["mandatory"]) })).toBe(EXIT.error);
  expect(exitCodeOf([stack("drift")], [], { policy: policy(["advisory"]) })).toBe(EXIT.drift);
  expect(exitCodeOf([stack("clean")], [], { policy: { packs: [], violations: [], error: "pack failed" } })).toBe(EXIT.partial);
  expect(exitCodeOf([stack("clean")], [], { live: { managed: 1, unmanaged: 0, errors: [{ service: "cache", error: "503" }] } })).toBe(EXIT.partial);
  expect(exitCodeOf([stack("clean")], [], { policy: policy(["advisory"]) })).toBe(EXIT.clean);
});

test("a stable order: stacks by name whatever order they were checked in; violations by stack, URN, policy", () => {
  const a = reportOf(STACKS);
  const b = reportOf([...STACKS].reverse());
  expect(FORMATS.json!(b)).toBe(FORMATS.json!(a));
  const v = [violation("b", "x", "advisory"), violation("a", "y", "mandatory"), violation("a", "y", "advisory"), violation("a", "x", "advisory")];
  expect(sortViolations(v).map((x) => `${x.stack}/${x.name}/${x.policy}`)).toEqual([
    "a/x/krcloud-bucket-without-encryption",
    "a/y/krcloud-bucket-public-without-allow-list",
    "a/y/krcloud-bucket-without-encryption",
    "b/x/krcloud-bucket-without-encryption",
  ]);
});
