/**
 * A small fleet's shard reports, as `krcloud-drift --shard K/2 --policy krcloud --out json=…` writes
 * them (built by the report's own code from refresh-preview events): four stacks split by
 * `shardOf`, a drifted bucket in the prod stacks, a deleted one in staging, a cache cluster in each,
 * and the pack's findings (mandatory and advisory, managed and unmanaged). Names and messages carry
 * markup (MARKUP), which every format must show as text. Merged by `mergeReports` or
 * `krcloud-drift merge` in the tests of the HTML report (unit and browser).
 */
import { shardOf } from "../../../drift/fleet";
import type { DriftReport, PolicyViolation } from "../../../drift/model";
import { buildReport, stackReport } from "../../../drift/report";
import { DYNAMIC, previewEvents, type ResourceEvents } from "./events";

export const FLEET_STACKS = ["dev", "prod-a", "prod-b", "staging"];
export const MARKUP = `<img src=x onerror="window.planted=1">`;
const BUCKET = DYNAMIC("krcloud:objectstorage:Bucket");
const CLUSTER = DYNAMIC("krcloud:cache:Cluster");
const NOW = new Date("2026-11-20T10:00:00Z");

function events(stack: string): ResourceEvents[] {
  const site = { name: `site-${stack}`, acl: { public: "deny" } };
  const cache = { name: `cache-${stack}`, description: "sessions", tlsEnabled: true };
  const bucket: ResourceEvents = stack.startsWith("prod")
    ? { name: "site", type: BUCKET, op: "update", before: site, after: { ...site, acl: { public: "read-only" } }, program: site }
    : stack === "staging"
      ? { name: "site", type: BUCKET, op: "create", before: site, after: undefined, program: site }
      : { name: "site", type: BUCKET, op: "same", before: site, after: site, program: site };
  return [bucket, { name: "cache", type: CLUSTER, op: "same", before: cache, after: cache, program: cache }];
}

function violation(stack: string, name: string, policy: string, level: PolicyViolation["level"], message: string, managed = true): PolicyViolation {
  const token = policy.includes("bucket") ? "krcloud:objectstorage:Bucket" : "krcloud:cache:Cluster";
  return {
    policy,
    pack: "krcloud",
    packVersion: "0.1.0",
    level,
    message,
    urn: `urn:pulumi:${stack}::web::${managed ? DYNAMIC(token) : token}::${name}`,
    name,
    type: token,
    stack,
    managed,
    ...(managed ? { line: 3 } : {}),
  };
}

/** The pack's findings per stack. */
export const FLEET_VIOLATIONS: readonly PolicyViolation[] = [
  ...["prod-a", "prod-b"].map((stack) =>
    violation(
      stack,
      "site",
      "krcloud-bucket-public-without-allow-list",
      "mandatory",
      `Bucket "site": acl.public is "read-only" and acl.publicReadAllowIpList is empty, so anyone on the internet can read its objects. Fix: set acl.publicReadAllowIpList to the addresses that may read.`,
    ),
  ),
  violation(
    "dev",
    "cache",
    "krcloud-cache-without-monitoring",
    "advisory",
    `Cluster "cache": monitoring is not true. Fix: set monitoring: true (this replaces the cluster).`,
  ),
  violation(
    "staging",
    `made-by-hand${MARKUP}`,
    "krcloud-bucket-without-encryption",
    "advisory",
    `Bucket "made-by-hand${MARKUP}": encryption is not set. Fix: set encryption: {type: "managed"}.`,
    false,
  ),
];

/** Shard `index` of 2: its stacks, their violations, its live-state summary. */
export function fleetShard(index: number): DriftReport {
  const ctx = { workDir: "/nowhere", sourceRoot: "/nowhere", cwdForCommands: "infra", rules: [], baseline: new Set<string>(), now: NOW };
  const stacks = FLEET_STACKS.filter((s) => shardOf(s, 2) === index);
  return buildReport(
    stacks.map((stack) => stackReport({ stack, events: previewEvents(events(stack), stack), durationMs: 900, previewFailed: false }, ctx)),
    {
      version: "9.9.9",
      startedAt: 0,
      finishedAt: 1000,
      now: NOW,
      rules: [],
      shard: { index, count: 2 },
      live: { managed: stacks.length * 2, unmanaged: stacks.includes("staging") ? 1 : 0, errors: [] },
      policy: { packs: [{ name: "krcloud", version: "0.1.0" }], violations: FLEET_VIOLATIONS.filter((v) => stacks.includes(v.stack)) },
    },
  );
}
