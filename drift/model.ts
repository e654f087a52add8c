/**
 * The drift report: what one run of krcloud-drift found, in the shape every output format renders
 * and the JSON format prints as is (its JSON Schema is report.schema.json, version REPORT_VERSION;
 * docs/drift.md documents it). A change that removes or renames a field bumps the version.
 */

/** Exit codes, Terraform's `-detailed-exitcode` convention plus "partial" and "policy". */
export const EXIT = Object.freeze({
  /** Every resource of every stack was read and matches its program (or the difference is ignored or in the baseline). */
  clean: 0,
  /** Bad arguments or settings, an expired ignore rule, or no stack could be checked at all. */
  error: 1,
  /** Drift that is neither ignored nor in the baseline. */
  drift: 2,
  /** Some resources or stacks could not be read; the rest is reported (drift found there included). */
  partial: 3,
  /** A mandatory policy violation (`--policy`), managed or unmanaged: a guardrail is broken now. */
  policy: 4,
});

export const REPORT_VERSION = 1;

/** Where a difference comes from. */
export type Origin =
  /** The cloud changed behind Pulumi's back (refresh found it): drift. */
  | "cloud"
  /** The program changed since the last `up` while the cloud still matches the state: a pending change, not drift. */
  | "program"
  /** A secret differs and nothing tells which side moved (its values are never compared here): counted as drift. */
  | "unknown";

/** What is done with a finding: it fails the check, or an ignore rule or the baseline accepts it. */
export type Disposition = "new" | "ignored" | "baseline";

export interface IgnoredBy {
  /** `#2` or the rule's `id`. */
  rule: string;
  reason: string;
}

export interface PropertyFinding {
  /** `acl.public`, `rules[0].allowedOrigins[0]`. */
  path: string;
  /** The value in the cloud as refresh read it (absent: not set there; `[secret]`: not shown). */
  cloud?: unknown;
  /** The value the program declares (absent: not declared). */
  program?: unknown;
  /** A secret on either side: shown as `[secret]`, its values never compared here. */
  secret?: boolean;
  origin: Origin;
  disposition: Disposition;
  ignoredBy?: IgnoredBy;
  /** Identifies this difference (resource URN, path and both values) for the baseline. */
  fingerprint: string;
}

export type ResourceStatus =
  /** Read, and it matches the program. */
  | "clean"
  /** Read, and some property differs from the program because the cloud changed. */
  | "drifted"
  /** Refresh found it gone: deleted outside Pulumi. */
  | "deleted"
  /** The read failed (after its retries); the rest of the stack is still reported. */
  | "unreadable"
  /** The program changed (or declares it anew, or no longer declares it) but the cloud is as the state says: not drift. */
  | "pending"
  /** The type keeps no server state the program declares (KMS ciphertexts and data keys, data queries): nothing to compare. */
  | "unverifiable";

export interface Fix {
  /** The command that puts the program's values back in the cloud. */
  revert: string;
  /** What to change in the program to keep the cloud's values instead. */
  accept: string;
  /** The cloud's values of the drifted input properties (top level), secrets as `[secret]`. */
  acceptValues?: Record<string, unknown>;
}

export interface ResourceResult {
  urn: string;
  /** The logical name. */
  name: string;
  /** `krcloud:objectstorage:Bucket` (the dynamic provider's engine type is mapped to its token). */
  type: string;
  status: ResourceStatus;
  /** For drifted and deleted resources (and pending ones): whether it fails the check. */
  disposition?: Disposition;
  /** The step the next `up` would take: update, replace, create, delete. */
  operation?: string;
  properties: PropertyFinding[];
  /** Why there is no property list, or what the status means here. */
  note?: string;
  /** The read's error (unreadable). */
  error?: string;
  ignoredBy?: IgnoredBy;
  /** For deleted resources (one fingerprint for the resource). */
  fingerprint?: string;
  fix?: Fix;
  /** The line of the program file that declares the resource, when found. */
  line?: number;
}

export type StackStatus = "clean" | "drift" | "partial" | "error";

export interface StackCounts {
  resources: number;
  clean: number;
  drifted: number;
  deleted: number;
  unreadable: number;
  pending: number;
  unverifiable: number;
  ignored: number;
  baseline: number;
}

export interface StackReport {
  /** As given or matched (`prod`, `org/project/prod`). */
  stack: string;
  /** The Pulumi project name. */
  project?: string;
  /** The program file resources are reported against, relative to the source root (SARIF, annotations). */
  programFile?: string;
  status: StackStatus;
  durationMs: number;
  counts: StackCounts;
  /** Every resource of the stack (clean ones included), in the engine's order. */
  resources: ResourceResult[];
  /** Why the stack could not be checked, or what made it partial. */
  error?: string;
}

export interface ExpiredRule {
  rule: string;
  expires: string;
  reason: string;
}

/** A policy pack's rule broken by a resource the cloud holds now (`--policy`). */
export interface PolicyViolation {
  /** The rule's id: `krcloud-bucket-public-without-allow-list`. */
  policy: string;
  /** The pack's name and version: `krcloud`, `0.1.0`. */
  pack: string;
  packVersion: string;
  /** `mandatory` fails the check (exit 4); `advisory` is reported only. */
  level: "mandatory" | "advisory";
  /** What is wrong with which property, and the fix (the rule's own words). */
  message: string;
  urn: string;
  /** The logical name (for an unmanaged resource: the name `--unmanaged` would import it as). */
  name: string;
  /** The type token, `krcloud:objectstorage:Bucket`. */
  type: string;
  /** The stack the URN names: the resource's stack, or for an unmanaged one the first stack (by name) whose account holds it. */
  stack: string;
  /** False: no stack manages it (made outside Pulumi). */
  managed: boolean;
  /** The line of the program file that declares the resource (managed resources, when found). */
  line?: number;
}

export interface PolicyResult {
  /** The packs that ran, as `pulumi policy analyze` names them. */
  packs: { name: string; version: string }[];
  /** Sorted by stack, URN, policy and message. */
  violations: PolicyViolation[];
  /** Why the policy run failed (the report is then partial). */
  error?: string;
}

/** The live state a run read for `--state-out` and `--policy`. */
export interface LiveSummary {
  /** Managed resources the refresh read (those gone from the cloud left out). */
  managed: number;
  /** Resources no checked stack manages, found in the accounts the stacks reach and read. */
  unmanaged: number;
  /** Services that could not be listed, resources that could not be read: the live state is partial. */
  errors: { service: string; error: string }[];
}

export interface DriftReport {
  version: typeof REPORT_VERSION;
  tool: { name: "krcloud-drift"; version: string };
  generatedAt: string;
  status: StackStatus;
  exitCode: number;
  /** True when some new drift was found (the exit code may still be 3 or 1). */
  drift: boolean;
  durationMs: number;
  stacks: StackReport[];
  /** Ignore rules past their `expires` date: they no longer apply and fail the check (exit 1). */
  expiredRules: ExpiredRule[];
  ignoreFile?: string;
  baselineFile?: string;
  /** What the cloud holds, as `--state-out` and `--policy` read it: managed and unmanaged resources. */
  live?: LiveSummary;
  /** The policy pack's findings on what the cloud holds (`--policy`). */
  policy?: PolicyResult;
  /** This run checked shard `index` of `count` (`--shard K/N`); `krcloud-drift merge` combines the shards and drops it. */
  shard?: { index: number; count: number };
}

export function emptyCounts(): StackCounts {
  return { resources: 0, clean: 0, drifted: 0, deleted: 0, unreadable: 0, pending: 0, unverifiable: 0, ignored: 0, baseline: 0 };
}

/** The resource fails the check: drift or a deletion that is neither ignored nor known. */
export function isNewDrift(r: ResourceResult): boolean {
  return (r.status === "drifted" || r.status === "deleted") && r.disposition === "new";
}

export function countsOf(resources: readonly ResourceResult[]): StackCounts {
  const c = emptyCounts();
  for (const r of resources) {
    c.resources++;
    c[r.status]++;
    if ((r.status === "drifted" || r.status === "deleted") && r.disposition === "ignored") c.ignored++;
    if ((r.status === "drifted" || r.status === "deleted") && r.disposition === "baseline") c.baseline++;
  }
  return c;
}

/** A stack's status from its resources (or its error). */
export function stackStatus(resources: readonly ResourceResult[], error: string | undefined, complete: boolean): StackStatus {
  if (error !== undefined && resources.length === 0) return "error";
  if (!complete || error !== undefined || resources.some((r) => r.status === "unreadable")) return "partial";
  return resources.some(isNewDrift) ? "drift" : "clean";
}

/**
 * The run's exit code. Precedence: an expired ignore rule or no stack checked at all (1), then a
 * mandatory policy violation (4: a guardrail broken now is certain whatever else could not be
 * read), then some resource or stack unread or a policy run that failed (3, drift found elsewhere
 * included), then new drift (2), else 0. A shard with no stack of its own is no error: it checked
 * its share, which was empty.
 */
export function exitCodeOf(
  stacks: readonly StackReport[],
  expiredRules: readonly ExpiredRule[],
  extra: { policy?: PolicyResult; live?: LiveSummary; emptyShare?: boolean } = {},
): number {
  if (expiredRules.length > 0) return EXIT.error;
  if (stacks.length === 0 ? !extra.emptyShare : stacks.every((s) => s.status === "error")) return EXIT.error;
  if (extra.policy?.violations.some((v) => v.level === "mandatory")) return EXIT.policy;
  if (livePartial(extra) || stacks.some((s) => s.status === "partial" || s.status === "error")) return EXIT.partial;
  if (stacks.some((s) => s.status === "drift")) return EXIT.drift;
  return EXIT.clean;
}

/** The policy run failed, or some of the live state could not be read. */
export function livePartial(extra: { policy?: PolicyResult; live?: LiveSummary }): boolean {
  return extra.policy?.error !== undefined || (extra.live?.errors.length ?? 0) > 0;
}

export function overallStatus(stacks: readonly StackReport[], extra: { policy?: PolicyResult; live?: LiveSummary; emptyShare?: boolean } = {}): StackStatus {
  if (stacks.length === 0) return extra.emptyShare ? (livePartial(extra) ? "partial" : "clean") : "error";
  if (stacks.every((s) => s.status === "error")) return "error";
  if (livePartial(extra)) return "partial";
  if (stacks.some((s) => s.status === "partial" || s.status === "error")) return "partial";
  return stacks.some((s) => s.status === "drift") ? "drift" : "clean";
}
