/**
 * One drift check, as cli.ts parsed it: the stacks of this run (all, or this shard's), each checked
 * by a refresh-preview; then, when asked, what the cloud holds now as a state file and the policy
 * pack run on it; the report in every format asked for, and the exit code.
 *
 * With a request budget, the run serves a pacer (pacer.ts) for every process it starts and for its
 * own requests, and stops it when it ends.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PACER_ENV } from "../client/core";
import { inShard, type Shard } from "./fleet";
import { FORMATS } from "./formats";
import { baselineOf, type IgnoreRule } from "./ignore";
import type { Io, Outputs } from "./io";
import type { DriftReport, LiveSummary, PolicyResult, StackReport } from "./model";
import { RequestPacer, shareOf, WINDOW_MS } from "./pacer";
import { analyzeStateFile } from "./policy";
import { projectFileOf, sourceRootOf } from "./program";
import { buildReport, compareText, packageVersion, reapplyNoiseControl, stackReport } from "./report";
import { checkStack, mapLimit, resolveStacks, type RunOptions, type StackRun } from "./run";
import { liveState, stateFileText, unmanagedResources, type Account } from "./state-out";
import { accountKey, factsOf } from "./unmanaged/cli";

export interface CheckOptions {
  patterns: string[];
  runOpts: RunOptions;
  concurrency: number;
  outputs: Outputs;
  rules: IgnoreRule[];
  ignoreFile?: string;
  baseline: Set<string>;
  baselineFile?: string;
  writeBaseline: boolean;
  sourceRoot?: string;
  /** `--cwd` and `--config-file` as the user gave them, for the fix commands. */
  cwdArg?: string;
  configFileArg?: string;
  shard?: Shard;
  stateOut?: string;
  /** A policy pack directory (checked). */
  policy?: string;
  policyConfig?: string;
  /** Requests per second to the account, for all shards together. */
  requestBudget?: number;
}

export async function runCheck(o: CheckOptions, io: Io): Promise<number> {
  const pacer = o.requestBudget === undefined ? undefined : new RequestPacer(shareOf(o.requestBudget, o.shard?.count ?? 1));
  const before = process.env[PACER_ENV];
  if (pacer) {
    const url = await pacer.start();
    o.runOpts.env[PACER_ENV] = url;
    // The run's own requests (listing what no stack manages) take their turn too.
    process.env[PACER_ENV] = url;
  }
  try {
    return await check(o, io);
  } finally {
    if (pacer) {
      if (before === undefined) delete process.env[PACER_ENV];
      else process.env[PACER_ENV] = before;
      await pacer.close();
      const s = pacer.schedule;
      io.stderr(
        `krcloud-drift: request budget: ${s.granted} request(s) paced at ${s.perWindow} per ${WINDOW_MS / 1000} s, ${s.waited} waited (longest ${(s.maxWaitMs / 1000).toFixed(1)} s)\n`,
      );
    }
  }
}

async function check(o: CheckOptions, io: Io): Promise<number> {
  const startedAt = Date.now();
  const { stacks, unmatched } = await resolveStacks(o.patterns, o.runOpts);
  const mine = stacks.filter((s) => inShard(s, o.shard));
  const runs = await mapLimit(mine, o.concurrency, (s) => checkStack(s, o.runOpts));
  for (const p of unmatched.filter((u) => inShard(u, o.shard))) {
    runs.push({ stack: p, events: [], durationMs: 0, previewFailed: false, error: `no stack of the project matches "${p}"` });
  }

  const now = io.now();
  const workDir = o.runOpts.workDir;
  const ctx = {
    workDir,
    sourceRoot: path.resolve(o.sourceRoot ?? sourceRootOf(workDir)),
    cwdForCommands: o.cwdArg,
    configFile: o.configFileArg,
    rules: o.rules,
    baseline: o.baseline,
    now,
  };
  const stackReports = runs.map((r) => stackReport(r, ctx));
  let live: LiveSummary | undefined;
  let policy: PolicyResult | undefined;
  if (o.stateOut !== undefined || o.policy !== undefined) ({ live, policy } = await liveChecks(o, stacks, runs, stackReports, now, io));

  const meta = {
    version: packageVersion(),
    startedAt,
    finishedAt: Date.now(),
    now,
    rules: o.rules,
    ignoreFile: o.ignoreFile,
    baselineFile: o.baselineFile,
    live,
    policy,
    shard: o.shard,
  };
  let report: DriftReport = buildReport(stackReports, meta);
  if (o.writeBaseline) {
    const written = baselineOf(report.stacks, now);
    fs.writeFileSync(o.baselineFile!, `${JSON.stringify(written, null, 2)}\n`);
    const known = new Set(written.fingerprints.map((f) => f.fingerprint));
    for (const s of stackReports) reapplyNoiseControl(s, o.rules, known, now);
    report = buildReport(stackReports, meta);
    io.stderr(`krcloud-drift: wrote ${written.fingerprints.length} fingerprint(s) of today's drift to ${o.baselineFile}\n`);
  }
  writeOutputs(report, o.outputs, io);
  return report.exitCode;
}

export function writeOutputs(report: DriftReport, outputs: Outputs, io: Io): void {
  for (const e of report.expiredRules) {
    io.stderr(`krcloud-drift: ignore rule ${e.rule} expired on ${e.expires} (reason: ${e.reason}): remove it or extend its expires date\n`);
  }
  for (const o of outputs.files) {
    fs.mkdirSync(path.dirname(path.resolve(o.file)), { recursive: true });
    fs.writeFileSync(o.file, FORMATS[o.format]!(report));
  }
  io.stdout(outputs.stdout.map((f) => FORMATS[f]!(report)).join("\n"));
}

/**
 * The live state (this run's stacks as refresh read them, and what no stack manages in the accounts
 * this run lists), written to `--state-out` and judged by `--policy`. Every stack of the fleet is
 * read (its state and config, no cloud request) to know what is managed anywhere and which stacks
 * share each account; the shard of an account's first stack by name lists it, so that an unmanaged
 * resource is found once in the fleet however it is split.
 */
async function liveChecks(
  o: CheckOptions,
  allStacks: readonly string[],
  runs: readonly StackRun[],
  reports: readonly StackReport[],
  now: Date,
  io: Io,
): Promise<{ live: LiveSummary; policy?: PolicyResult }> {
  const project = { workDir: o.runOpts.workDir, configFile: o.runOpts.configFile, runOpts: o.runOpts };
  const read = new Map(runs.flatMap((r) => (r.tracked ? [[r.stack, { tracked: r.tracked }] as const] : [])));
  const facts = await mapLimit(allStacks, 4, (s) => factsOf(s, project, read.get(s)));
  const tracked = new Set(facts.flatMap((f) => f.tracked));
  const accounts = new Map<string, Account>();
  const projectName = projectFileOf(o.runOpts.workDir)?.project.name ?? "project";
  for (const f of [...facts].sort((a, b) => compareText(a.stack, b.stack))) {
    if (!f.settings) continue;
    const key = accountKey(f.settings);
    const account = accounts.get(key) ?? { settings: f.settings, stacks: [], project: projectName };
    account.stacks.push(f.stack);
    accounts.set(key, account);
  }
  // An account is listed by the shard of its first stack by name: once in the fleet however it is split.
  const owned = [...accounts.values()].filter((a) => inShard(a.stacks[0]!, o.shard));
  const unmanaged = await unmanagedResources(owned, tracked);
  const state = liveState(runs, unmanaged);
  const live: LiveSummary = {
    managed: state.resources.length - unmanaged.resources.length,
    // Written once per stack of its account; counted once.
    unmanaged: new Set([...unmanaged.subjects.values()].map((x) => x.key)).size,
    errors: [...unmanaged.errors, ...facts.flatMap((f) => (f.error ? [{ service: "pulumi", error: f.error }] : []))],
  };
  const file = o.stateOut ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-drift-state-")), "state.json");
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, stateFileText(state, now, packageVersion()));
  if (o.stateOut !== undefined) io.stderr(`krcloud-drift: wrote ${live.managed} managed and ${live.unmanaged} unmanaged resource(s) to ${o.stateOut}\n`);
  if (o.policy === undefined) return { live };
  try {
    const lines = new Map<string, number>();
    for (const s of reports) for (const r of s.resources) if (r.line !== undefined) lines.set(`${s.stack}|${r.urn}`, r.line);
    const policy = await analyzeStateFile(path.resolve(file), o.policy, {
      config: o.policyConfig,
      env: { ...process.env, ...o.runOpts.env },
      subjects: state.subjects,
      lineOf: (urn, s) => lines.get(`${s.stack}|${urn}`),
    });
    return { live, policy };
  } finally {
    if (o.stateOut === undefined) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}
