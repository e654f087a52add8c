/** From the engine events of each stack to the report every format renders. */
import * as fs from "node:fs";
import * as path from "node:path";
import { analyzeEvents } from "./analyze";
import { applyNoiseControl, expiredRules, type IgnoreRule } from "./ignore";
import {
  countsOf,
  exitCodeOf,
  isNewDrift,
  overallStatus,
  REPORT_VERSION,
  stackStatus,
  type DriftReport,
  type LiveSummary,
  type PolicyResult,
  type StackReport,
} from "./model";
import { declarationLine, programFile, projectFileOf, relativePosix } from "./program";
import { addFixes } from "./remediation";
import type { StackRun } from "./run";

export interface ReportContext {
  workDir: string;
  /** Paths in reports are relative to it (the repository root). */
  sourceRoot: string;
  /** `--cwd` as the fix commands should say it (relative to where the user runs them). */
  cwdForCommands?: string;
  configFile?: string;
  rules: readonly IgnoreRule[];
  baseline: ReadonlySet<string>;
  now: Date;
}

export function stackReport(run: StackRun, ctx: ReportContext): StackReport {
  const analysis = analyzeEvents(run.events, { failed: run.previewFailed, stateOrder: run.stateOrder });
  const resources = analysis.resources;
  const file = programFile(ctx.workDir);
  let text = "";
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    // No program text: locations point at line 1.
  }
  for (const r of resources) {
    const line = declarationLine(text, r.name);
    if (line !== undefined) r.line = line;
  }
  applyNoiseControl(run.stack, resources, ctx.rules, ctx.baseline, ctx.now);
  addFixes(resources, analysis.cloudInputs, { stack: run.stack, cwd: ctx.cwdForCommands, configFile: ctx.configFile });
  const unreadable = resources.some((r) => r.status === "unreadable");
  let error = run.error;
  if (run.previewFailed && unreadable) {
    error =
      `some resources could not be read and the preview stopped there (the provider does not report read errors per resource): the resources not marked unreadable were read but not compared\n${run.error ?? ""}`.trimEnd();
  }
  const report: StackReport = {
    stack: run.stack,
    // A preview that failed with no resource to blame (a program error, bad settings) checked nothing.
    status: run.error !== undefined && !(run.previewFailed && unreadable) ? "error" : stackStatus(resources, error, analysis.complete),
    durationMs: run.durationMs,
    counts: countsOf(resources),
    resources,
  };
  const project = projectFileOf(ctx.workDir)?.project.name;
  if (project) report.project = project;
  report.programFile = relativePosix(ctx.sourceRoot, file);
  if (error !== undefined) report.error = error;
  return report;
}

/** Stacks by name (then project): the same order whatever order they were matched, checked or merged in. */
export function byStackName(a: StackReport, b: StackReport): number {
  return compareText(a.stack, b.stack) || compareText(a.project ?? "", b.project ?? "");
}

/** Code point order, as `sort()` without a comparator: no locale, the same on every machine. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface ReportMeta {
  version: string;
  startedAt: number;
  finishedAt: number;
  now: Date;
  rules: readonly IgnoreRule[];
  ignoreFile?: string;
  baselineFile?: string;
  live?: LiveSummary;
  policy?: PolicyResult;
  shard?: { index: number; count: number };
}

export function buildReport(stacks: StackReport[], opts: ReportMeta): DriftReport {
  const expired = expiredRules(opts.rules, opts.now);
  const sorted = [...stacks].sort(byStackName);
  const extra = { policy: opts.policy, live: opts.live, emptyShare: opts.shard !== undefined };
  const report: DriftReport = {
    version: REPORT_VERSION,
    tool: { name: "krcloud-drift", version: opts.version },
    generatedAt: opts.now.toISOString(),
    status: overallStatus(sorted, extra),
    exitCode: exitCodeOf(sorted, expired, extra),
    drift: sorted.some((s) => s.resources.some(isNewDrift)),
    durationMs: opts.finishedAt - opts.startedAt,
    stacks: sorted,
    expiredRules: expired,
  };
  if (opts.ignoreFile) report.ignoreFile = opts.ignoreFile;
  if (opts.baselineFile) report.baselineFile = opts.baselineFile;
  if (opts.live) report.live = opts.live;
  if (opts.policy) report.policy = opts.policy;
  if (opts.shard) report.shard = opts.shard;
  return report;
}

/** The package's version, from the package.json above this file (in dist/ or in the sources). */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg)) {
      const json = JSON.parse(fs.readFileSync(pkg, "utf8")) as { name?: string; version?: string };
      if (json.name === "pulumi-krcloud") return json.version ?? "0.0.0";
    }
    if (path.dirname(dir) === dir) return "0.0.0";
  }
}

/** Applies the ignore rules and baseline again (after `--write-baseline`), with counts and status. */
export function reapplyNoiseControl(s: StackReport, rules: readonly IgnoreRule[], baseline: ReadonlySet<string>, now: Date): void {
  applyNoiseControl(s.stack, s.resources, rules, baseline, now);
  s.counts = countsOf(s.resources);
  if (s.status === "clean" || s.status === "drift") s.status = stackStatus(s.resources, undefined, true);
}
