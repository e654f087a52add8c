/**
 * Fleets: a check split over N runners (`--shard K/N`) and the shards' reports combined into one
 * (`krcloud-drift merge`).
 *
 * A stack's shard depends on its name and N only: the first 8 bytes of the name's SHA-256, modulo
 * N. Every runner computes the same split with no coordination and no list to share, and a stack
 * added to the fleet never moves another one: what shard K checked yesterday it checks today (a
 * change of N moves stacks, as it must). Shards are not equal in size; with hundreds of stacks they
 * are close.
 *
 * The merged report is the report an unsharded run writes (times aside): stacks sorted by name,
 * policy violations sorted, the exit code and status computed again from all of them.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { exitCodeOf, isNewDrift, overallStatus, REPORT_VERSION, type DriftReport, type LiveSummary, type PolicyResult, type PolicyViolation } from "./model";
import { byStackName, compareText } from "./report";

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** `K/N` (1 <= K <= N): `3/4`. A zero-based `0/4` is refused, saying the shards count from 1. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new Error(`--shard takes K/N, the shard's number from 1 and the number of shards (got "${text}")`);
  const [index, count] = [Number(m[1]), Number(m[2])];
  if (count < 1 || index < 1 || index > count) throw new Error(`--shard ${text}: K must be 1 to N (the shards are numbered from 1)`);
  return { index, count };
}

/** The shard (1-based) a stack, or an unmatched stack pattern, belongs to. */
export function shardOf(name: string, count: number): number {
  const h = createHash("sha256").update(name).digest();
  return Number(h.readBigUInt64BE(0) % BigInt(count)) + 1;
}

export function inShard(name: string, shard: Shard | undefined): boolean {
  return shard === undefined || shardOf(name, shard.count) === shard.index;
}

/** Policy violations in the order every report lists them: stack, URN, policy, message. */
export function sortViolations(v: readonly PolicyViolation[]): PolicyViolation[] {
  return [...v].sort(
    (a, b) => compareText(a.stack, b.stack) || compareText(a.urn, b.urn) || compareText(a.policy, b.policy) || compareText(a.message, b.message),
  );
}

export class MergeError extends Error {}

/** Reads and checks one shard's JSON report. */
export function readReport(file: string): DriftReport {
  let report: DriftReport;
  try {
    report = JSON.parse(fs.readFileSync(file, "utf8")) as DriftReport;
  } catch (e) {
    throw new MergeError(`${file}: not a krcloud-drift JSON report (${(e as Error).message})`);
  }
  if (report?.tool?.name !== "krcloud-drift" || report.version !== REPORT_VERSION) {
    throw new MergeError(`${file}: not a krcloud-drift JSON report of version ${REPORT_VERSION} (--format json or --out json=FILE writes one)`);
  }
  return report;
}

/**
 * One report of the shards' reports. Shard reports (each with `shard`) must be all N shards of one
 * split, each once: a missing or repeated shard is refused, naming it, rather than merged into a
 * report that looks complete. Reports without `shard` (separate runs) are combined as they are.
 */
export function mergeReports(reports: readonly { file: string; report: DriftReport }[]): DriftReport {
  if (reports.length === 0) throw new MergeError("merge needs at least one JSON report");
  checkShards(reports);
  const first = reports[0]!.report;
  const stacks = reports.flatMap((r) => r.report.stacks).sort(byStackName);
  const seen = new Set<string>();
  for (const s of stacks) {
    const key = `${s.project ?? ""}/${s.stack}`;
    if (seen.has(key)) throw new MergeError(`stack ${s.stack}${s.project ? ` of project ${s.project}` : ""} is in more than one report`);
    seen.add(key);
  }
  const expiredRules = uniqueBy(
    reports.flatMap((r) => r.report.expiredRules),
    (e) => e.rule,
  );
  const policy = mergePolicy(reports.map((r) => r.report.policy));
  const live = mergeLive(reports.map((r) => r.report.live));
  const latest = reports.map((r) => r.report.generatedAt).sort(compareText)[reports.length - 1]!;
  const merged: DriftReport = {
    version: REPORT_VERSION,
    tool: first.tool,
    generatedAt: latest,
    status: overallStatus(stacks, { policy, live }),
    exitCode: exitCodeOf(stacks, expiredRules, { policy, live }),
    drift: stacks.some((s) => s.resources.some(isNewDrift)),
    // The fleet's wall time: the slowest shard (they run side by side).
    durationMs: Math.max(...reports.map((r) => r.report.durationMs)),
    stacks,
    expiredRules,
  };
  if (first.ignoreFile) merged.ignoreFile = first.ignoreFile;
  if (first.baselineFile) merged.baselineFile = first.baselineFile;
  if (live) merged.live = live;
  if (policy) merged.policy = policy;
  return merged;
}

function mergeLive(parts: readonly (LiveSummary | undefined)[]): LiveSummary | undefined {
  const present = parts.filter((p): p is LiveSummary => p !== undefined);
  if (present.length === 0) return undefined;
  return {
    managed: present.reduce((n, p) => n + p.managed, 0),
    unmanaged: present.reduce((n, p) => n + p.unmanaged, 0),
    errors: present.flatMap((p) => p.errors).sort((a, b) => compareText(a.service, b.service) || compareText(a.error, b.error)),
  };
}

function checkShards(reports: readonly { file: string; report: DriftReport }[]): void {
  const sharded = reports.filter((r) => r.report.shard !== undefined);
  if (sharded.length === 0) return;
  if (sharded.length !== reports.length) {
    throw new MergeError(`${reports.find((r) => !r.report.shard)!.file} is not a shard's report, the others are: merge the shards of one run`);
  }
  const count = sharded[0]!.report.shard!.count;
  const other = sharded.find((r) => r.report.shard!.count !== count);
  if (other) throw new MergeError(`${other.file} is shard ${other.report.shard!.index}/${other.report.shard!.count}, the others are of ${count} shards`);
  const byIndex = new Map<number, string>();
  for (const r of sharded) {
    const at = byIndex.get(r.report.shard!.index);
    if (at) throw new MergeError(`shard ${r.report.shard!.index}/${count} is given twice: ${at} and ${r.file}`);
    byIndex.set(r.report.shard!.index, r.file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new MergeError(
      `shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} missing: a merged report would leave their stacks out`,
    );
  }
}

function mergePolicy(results: readonly (PolicyResult | undefined)[]): PolicyResult | undefined {
  const present = results.filter((r): r is PolicyResult => r !== undefined);
  if (present.length === 0) return undefined;
  const out: PolicyResult = {
    packs: uniqueBy(
      present.flatMap((r) => r.packs),
      (p) => `${p.name}@${p.version}`,
    ).sort((a, b) => compareText(a.name, b.name) || compareText(a.version, b.version)),
    violations: sortViolations(present.flatMap((r) => r.violations)),
  };
  const errors = present.flatMap((r) => (r.error === undefined ? [] : [r.error]));
  if (errors.length > 0) out.error = [...new Set(errors)].join("\n");
  return out;
}

function uniqueBy<T>(items: readonly T[], key: (t: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const i of items) if (!seen.has(key(i))) seen.set(key(i), i);
  return [...seen.values()];
}
