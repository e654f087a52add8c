/**
 * Running the checks: one refresh-preview per stack through the Automation API (the `pulumi` on
 * PATH, settings from the environment as for the CLI), several stacks at a time.
 *
 * A preview never writes state: it reads every resource (refresh) and plans against the program in
 * memory. The refresh runs the program too (`--run-program`), so the providers read with the
 * configuration the stack has now, not the one the last `up` recorded in state: a corrected or
 * rotated credential works at once. The provider processes it starts get two settings from the environment: a budget of
 * transport retries (KRCLOUD_RETRY_BUDGET), so a throttled cloud cannot hold the check for ever,
 * and KRCLOUD_READ_ERRORS=report, so a read that fails is reported on that resource instead of
 * stopping the preview.
 */
import * as os from "node:os";
import { LocalWorkspace, type EngineEvent, type LocalWorkspaceOptions } from "@pulumi/pulumi/automation";
import { READ_ERRORS_ENV } from "../provider/core/resource";
import { displayType } from "./analyze";
import { trackedKey } from "./unmanaged/discover";
import { globToRegExp, isGlob } from "./values";

export { READ_ERRORS_ENV };
export const RETRY_BUDGET_ENV = "KRCLOUD_RETRY_BUDGET";
/** Transport retries per provider process: enough for throttling now and then, not for an outage. */
export const DEFAULT_RETRY_BUDGET = 50;

export function defaultConcurrency(): number {
  return Math.max(1, os.availableParallelism());
}

export interface StackRun {
  stack: string;
  events: EngineEvent[];
  durationMs: number;
  /** The stack could not be selected or the preview failed; `events` hold what happened until then. */
  error?: string;
  /** The preview ran and failed (the events may still name the resources that failed). */
  previewFailed: boolean;
  /**
   * The URNs of the stack's state, in its order (read before the preview, which writes nothing):
   * reports list resources in this order, never in the order refresh events happen to arrive.
   */
  stateOrder?: string[];
  /** What the stack's state tracks (`<type token>|<id>`), read with `stateOrder`. */
  tracked?: string[];
}

export interface RunOptions {
  workDir: string;
  configFile?: string;
  /** Extra environment for the pulumi processes (and the providers they start). */
  env: Record<string, string>;
  clock?: () => number;
}

function workspaceOptions(opts: RunOptions): LocalWorkspaceOptions {
  return { workDir: opts.workDir, envVars: opts.env };
}

/** One stack's refresh-preview: every engine event, and how long it took. */
export async function checkStack(stackName: string, opts: RunOptions): Promise<StackRun> {
  const now = opts.clock ?? Date.now;
  const started = now();
  const events: EngineEvent[] = [];
  const done = (extra: Partial<StackRun> = {}): StackRun => ({ stack: stackName, events, durationMs: now() - started, previewFailed: false, ...extra });
  let stack;
  try {
    stack = await LocalWorkspace.selectStack({ stackName, workDir: opts.workDir }, workspaceOptions(opts));
  } catch (e) {
    return done({ error: `selecting stack "${stackName}": ${errorSummary(e)}` });
  }
  // The state's order of resources, and what it tracks; a stack that cannot be exported still gets its check.
  const state = await stack.exportStack().then(
    (d) => (d.deployment as { resources?: { urn?: unknown; type?: unknown; id?: unknown }[] } | undefined)?.resources ?? [],
    () => undefined,
  );
  const stateOrder = state?.flatMap((r) => (typeof r.urn === "string" ? [r.urn] : []));
  const tracked = state?.flatMap((r) => (typeof r.type === "string" && typeof r.id === "string" && r.id ? [trackedKey(displayType(r.type), r.id)] : []));
  try {
    await stack.preview({ refresh: true, runProgram: true, color: "never", configFile: opts.configFile, onEvent: (e) => events.push(e) });
  } catch (e) {
    return done({ error: `the refresh-preview of stack "${stackName}" failed:\n${errorSummary(e)}`, previewFailed: true, stateOrder, tracked });
  }
  return done({ stateOrder, tracked });
}

/** The stacks named or matched by `patterns` (names, or globs over the project's stacks). */
export async function resolveStacks(patterns: readonly string[], opts: RunOptions): Promise<{ stacks: string[]; unmatched: string[] }> {
  const stacks: string[] = [];
  const unmatched: string[] = [];
  let known: string[] | undefined;
  for (const p of patterns) {
    if (!isGlob(p)) {
      if (!stacks.includes(p)) stacks.push(p);
      continue;
    }
    known ??= (await (await LocalWorkspace.create(workspaceOptions(opts))).listStacks()).map((s) => s.name);
    const re = globToRegExp(p);
    const hits = known.filter((n) => re.test(n) || re.test(n.split("/").pop() ?? n));
    if (hits.length === 0) unmatched.push(p);
    for (const h of hits) if (!stacks.includes(h)) stacks.push(h);
  }
  return { stacks, unmatched };
}

/** `fn` over `items`, at most `limit` at a time; results in the order of `items`. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * The useful part of an Automation API error, whose message repeats the command, its exit code and
 * its whole output: the Diagnostics section when there is one, else the `error:` lines.
 */
export function errorSummary(e: unknown): string {
  const lines = ((e as Error)?.message ?? String(e)).split("\n").map((l) => l.trimEnd());
  const diag = lines.findIndex((l) => /^\s*Diagnostics:\s*$/.test(l));
  if (diag >= 0) {
    const end = lines.findIndex((l, i) => i > diag && /^\s*(Resources:|Duration:|err\?:)/.test(l));
    return dedent(lines.slice(diag + 1, end < 0 ? undefined : end).filter((l) => l.trim() !== ""))
      .slice(0, 20)
      .join("\n");
  }
  const errors = [...new Set(lines.filter((l) => /^\s*error:/.test(l)).map((l) => l.trim()))];
  if (errors.length > 0) return errors.join("\n");
  return lines
    .filter((l) => l.trim() !== "")
    .slice(0, 10)
    .join("\n");
}

function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.map((l) => /^\s*/.exec(l)![0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
}
