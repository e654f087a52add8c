/**
 * Scale benchmarks (part of `make bench` at 200 and 1,000 resources; `make bench-scale` for 10,000):
 * N object storage buckets through each door of krcloud, each beside the no-op floor of its door,
 * with the real Pulumi CLI and the local cloud:
 *
 *   K  dynamic TS    `import * as krcloud from "pulumi-krcloud"`, N × new krcloud.objectstorage.Bucket
 *   F  its floor     the same program shape on a dynamic provider that does nothing (no network):
 *                    what any dynamic provider pays the engine, the SDK and the dynamic host
 *   T  native TS     the same program on `pulumi-krcloud/native` and the plugin pulumi-resource-krcloud
 *   TF its floor     the same program (same SDK classes) on a plugin that does nothing, installed as
 *                    krcloud 0.1.0 with the same schema on the stock @pulumi/pulumi/provider server
 *                    (tools/bench-floor-plugin.ts): what any Node.js native plugin pays
 *   Y  native YAML   N × `type: krcloud:objectstorage:Bucket` on the plugin
 *   YF its floor     the same YAML on the no-op plugin
 *
 * The floors return the inputs and outputs the real provider recorded in a warm-up run, so state
 * bytes per resource match and the difference is krcloud's own work. Steps: create (`up`), preview
 * and up with no changes, refresh, krcloud-drift, destroy; for each: wall time, CPU and peak RSS per
 * process role (tools/bench-procs.ts), the engine's events (an --event-log FIFO, stamped on
 * arrival), the local cloud's request counters, checkpoint bytes per resource. Runs are interleaved:
 * each step runs door after door, pairs (door, floor) adjacent, the order rotating by pair and
 * alternating within a pair between repetitions; ratios are paired (adjacent runs), then the median.
 *
 *   node dist/tools/bench-scale.js [--sizes 10000] [--plan-reps 1] [--cycles 1] [--doors K,F,...]
 *                                  [--skip-checkpoints-above N] [--study checkpoints] [--profile]
 *
 * Prints the tables; `make bench` writes them into docs/benchmarks.md (its scale section), `make
 * bench-scale` into the 10,000-resource section.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startLocalCloud, type LocalCloud } from "../emulator";
import {
  installNativePlugin,
  newProject,
  PACKAGE_VERSION,
  providerConfig,
  pulumiBinDir,
  REPO_ROOT,
  runPulumi,
  Sandbox,
  type CloudProject,
} from "../tests/support/engine";
import { ROLES, TreeSampler, type Role, type Usage } from "./bench-procs";
import { summarizeProfiles, type ProfileSummary } from "./bench-profile";

export type DoorId = "K" | "F" | "T" | "TF" | "Y" | "YF";
export type Step = "create" | "preview" | "up" | "refresh" | "drift" | "destroy";
export const STEPS: readonly Step[] = ["create", "preview", "up", "refresh", "drift", "destroy"];
const PLAN_STEPS: readonly Step[] = ["preview", "up", "refresh", "drift"];

interface DoorSpec {
  id: DoorId;
  label: string;
  /** Which PULUMI_HOME: the real plugin's or the no-op one's. */
  home: "real" | "floor";
  program: "dynamic" | "floor-dynamic" | "native-ts" | "yaml";
}

export const DOORS: Record<DoorId, DoorSpec> = {
  K: { id: "K", label: "dynamic TS", home: "real", program: "dynamic" },
  F: { id: "F", label: "dynamic TS floor", home: "floor", program: "floor-dynamic" },
  T: { id: "T", label: "native TS", home: "real", program: "native-ts" },
  TF: { id: "TF", label: "native TS floor", home: "floor", program: "native-ts" },
  Y: { id: "Y", label: "native YAML", home: "real", program: "yaml" },
  YF: { id: "YF", label: "native YAML floor", home: "floor", program: "yaml" },
};
/** (door, its floor), in run order. */
const PAIRS: readonly [DoorId, DoorId][] = [
  ["K", "F"],
  ["T", "TF"],
  ["Y", "YF"],
];

export interface RunResult {
  door: DoorId;
  n: number;
  step: Step;
  rep: number;
  /** Position in the whole run: pairs are adjacent runs. */
  seq: number;
  wallMs: number;
  usage: Usage;
  /** Arrival of the first resource event and of the last, ms after spawn (engine steps). */
  firstResourceMs?: number;
  lastResourceMs?: number;
  requests: number;
  byOperation: Record<string, number>;
  /** After create: the checkpoint file's bytes per resource. */
  stateBytesPerResource?: number;
  skipCheckpoints: boolean;
  env?: string;
}

export interface ScaleOptions {
  sizes: number[];
  /** Repetitions of the plan steps (preview, up, refresh, drift) per cycle. */
  planReps: number;
  /** Cycles of create, plans, destroy. */
  cycles: number;
  doors: DoorId[];
  /** Create and destroy at sizes above this run with PULUMI_SKIP_CHECKPOINTS=true (stated in the tables). */
  skipCheckpointsAbove: number;
  log: (line: string) => void;
}

interface Bed {
  cloud: LocalCloud;
  project: CloudProject;
  sandboxes: Record<"real" | "floor", Sandbox>;
  root: string;
  floorFile: string;
  preload: string;
  programs: Map<string, string>;
}

const TSCONFIG = JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "commonjs",
      moduleResolution: "node",
      esModuleInterop: true,
      skipLibCheck: true,
      types: ["node"],
    },
    files: ["index.ts"],
  },
  null,
  2,
);

const TS_PROGRAM = (importPath: string): string => `import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "${importPath}";

const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) new krcloud.objectstorage.Bucket(\`b\${i}\`, {});
`;

/**
 * The floor of the dynamic door: a dynamic provider that calls nothing (tools/bench-floor-dynamic.ts,
 * reached through a stub of two one-line functions as krcloud's is), with the output keys of krcloud's
 * Bucket registered, so the program registers as many properties.
 */
const FLOOR_DYNAMIC_PROGRAM = `import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;
// Two one-line functions, as krcloud's stub has: create, diff and read told apart by their arity.
const call = (...args: unknown[]): Promise<never> => require(process.env.KRCLOUD_BENCH_FLOOR_DYNAMIC!).call(args);
const remove = (): Promise<void> => require(process.env.KRCLOUD_BENCH_FLOOR_DYNAMIC!).remove();
const noop: pulumi.dynamic.ResourceProvider = { create: call, diff: call, read: call, delete: remove };
const keys = Object.keys((JSON.parse(fs.readFileSync(process.env.KRCLOUD_BENCH_FLOOR!, "utf8")) as { dynamic: { outputs: Props } }).dynamic.outputs);

class Bucket extends pulumi.dynamic.Resource {
  constructor(name: string) {
    const props: Props = {};
    for (const k of keys) props[k] = undefined;
    props.logicalName = name;
    super(noop, name, props, {}, "floor/objectstorage", "Bucket");
  }
}

const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) new Bucket(\`b\${i}\`);
`;

function yamlProgram(n: number): string {
  const lines = [`name: bench-yaml-${n}`, "runtime: yaml", "resources:"];
  for (let i = 0; i < n; i++) lines.push(`  b${i}:`, "    type: krcloud:objectstorage:Bucket");
  return `${lines.join("\n")}\n`;
}

/** The program directory of `door` at size n (TypeScript programs take the size from config). */
function programDir(bed: Bed, door: DoorSpec, n: number): string {
  const key = door.program === "yaml" ? `yaml-${n}` : door.program;
  const known = bed.programs.get(key);
  if (known) return known;
  const src = path.join(bed.root, "src", key);
  fs.mkdirSync(src, { recursive: true });
  if (door.program === "yaml") {
    fs.writeFileSync(path.join(src, "Pulumi.yaml"), yamlProgram(n));
  } else {
    fs.writeFileSync(path.join(src, "Pulumi.yaml"), `name: bench-${door.program}\nruntime: nodejs\n`);
    fs.writeFileSync(path.join(src, "package.json"), JSON.stringify({ name: `bench-${door.program}`, private: true, main: "index.ts" }));
    fs.writeFileSync(path.join(src, "tsconfig.json"), TSCONFIG);
    const program =
      door.program === "dynamic" ? TS_PROGRAM("pulumi-krcloud") : door.program === "native-ts" ? TS_PROGRAM("pulumi-krcloud/native") : FLOOR_DYNAMIC_PROGRAM;
    fs.writeFileSync(path.join(src, "index.ts"), program);
  }
  // Both homes run the native TS and YAML programs: one copy each, the stack names tell them apart.
  const dir = bed.sandboxes.real.copyProgram(src, key);
  bed.programs.set(key, dir);
  return dir;
}

const stackName = (door: DoorId, n: number): string => `${door.toLowerCase()}-${n}`;

async function ensureStack(bed: Bed, door: DoorSpec, n: number, created: Set<string>): Promise<string> {
  const dir = programDir(bed, door, n);
  const name = stackName(door.id, n);
  if (!created.has(`${door.home}/${dir}/${name}`)) {
    const project = door.program === "yaml" ? `bench-yaml-${n}` : `bench-${door.program}`;
    await bed.sandboxes[door.home].createStack(dir, name, providerConfig(bed.project, { [`${project}:count`]: { value: String(n) } }));
    created.add(`${door.home}/${dir}/${name}`);
  }
  return dir;
}

interface CommandResult {
  code: number;
  wallMs: number;
  usage: Usage;
  firstResourceMs?: number;
  lastResourceMs?: number;
  summary?: Record<string, number>;
  output: string;
}

/**
 * Runs `argv` (the pulumi CLI, or node for krcloud-drift) to its end: wall time from spawn to exit,
 * the process tree's usage, and for the CLI the engine's events through an --event-log FIFO read as
 * they come (PULUMI_DEBUG_COMMANDS=true makes the flag available, as the Automation API does).
 */
async function runCommand(
  bed: Bed,
  exe: string,
  argv: string[],
  cwd: string,
  env: Record<string, string>,
  rootRole: Role,
  events: boolean,
): Promise<CommandResult> {
  const tag = `${Date.now()}-${Math.random().toString(16).slice(2, 8)}`;
  const usageFile = path.join(bed.root, "usage", `${tag}.jsonl`);
  fs.mkdirSync(path.dirname(usageFile), { recursive: true });
  const fifo = path.join(bed.root, "events", `${tag}.fifo`);
  fs.mkdirSync(path.dirname(fifo), { recursive: true });
  let first: number | undefined;
  let last: number | undefined;
  let summary: Record<string, number> | undefined;
  let reader: Promise<void> = Promise.resolve();
  const t0 = performance.now();
  if (events) {
    await new Promise<void>((resolve, reject) => {
      const mk = spawn("mkfifo", [fifo]);
      mk.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`mkfifo ${fifo}: ${code}`))));
    });
    argv = [...argv, "--event-log", fifo];
    reader = new Promise<void>((resolve) => {
      const stream = fs.createReadStream(fifo, { encoding: "utf8" });
      let buf = "";
      stream.on("data", (chunk: string | Buffer) => {
        buf += String(chunk);
        for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (!line) continue;
          const e = JSON.parse(line) as {
            resourcePreEvent?: { metadata: { type: string } };
            resOutputsEvent?: { metadata: { type: string } };
            summaryEvent?: { resourceChanges?: Record<string, number> };
          };
          const meta = e.resourcePreEvent?.metadata ?? e.resOutputsEvent?.metadata;
          if (meta && meta.type !== "pulumi:pulumi:Stack" && !meta.type.startsWith("pulumi:providers:")) {
            const at = performance.now() - t0;
            first ??= at;
            last = at;
          }
          if (e.summaryEvent) summary = e.summaryEvent.resourceChanges ?? {};
        }
      });
      stream.on("end", () => resolve());
      stream.on("error", () => resolve());
    });
  }
  const child: ChildProcess = spawn(exe, argv, {
    cwd,
    env: { ...process.env, ...env, KRCLOUD_BENCH_USAGE: usageFile, NODE_OPTIONS: [env.NODE_OPTIONS, `--require ${bed.preload}`].filter(Boolean).join(" ") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const sampler = new TreeSampler(child.pid!, rootRole, usageFile);
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr!.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
  const wallMs = performance.now() - t0;
  if (events) {
    // If the CLI never opened the log (it failed first), open it for writing so the reader ends
    // (ENXIO: the reader is gone already, the log was read to its end).
    try {
      fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENXIO") throw e;
    }
    await reader;
    fs.rmSync(fifo, { force: true });
  }
  await new Promise((r) => setTimeout(r, 300)); // the preload's lines of processes killed at the end
  const usage = sampler.stop();
  fs.rmSync(usageFile, { force: true });
  return { code, wallMs, usage, firstResourceMs: first, lastResourceMs: last, summary, output };
}

function checkpointFile(sandbox: Sandbox, dir: string, stack: string): string {
  const project = /^name:\s*(\S+)/m.exec(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"))![1]!;
  return path.join(sandbox.backendDir, ".pulumi", "stacks", project, `${stack}.json`);
}

const CLI_ARGS: Record<Exclude<Step, "drift">, string[]> = {
  create: ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  up: ["up", "--yes", "--skip-preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

async function runStep(
  bed: Bed,
  door: DoorSpec,
  n: number,
  step: Step,
  rep: number,
  seq: number,
  extraEnv: Record<string, string>,
  created: Set<string>,
  extraArgs: string[] = [],
): Promise<RunResult> {
  const dir = await ensureStack(bed, door, n, created);
  const sandbox = bed.sandboxes[door.home];
  const stack = stackName(door.id, n);
  const env: Record<string, string> = {
    ...sandbox.env(),
    PULUMI_DEBUG_COMMANDS: "true",
    KRCLOUD_BENCH_FLOOR: bed.floorFile,
    KRCLOUD_BENCH_FLOOR_DYNAMIC: path.join(REPO_ROOT, "dist", "tools", "bench-floor-dynamic.js"),
    ...extraEnv,
  };
  const before = bed.cloud.control.counters();
  const r =
    step === "drift"
      ? await runCommand(
          bed,
          process.execPath,
          [path.join(REPO_ROOT, "dist", "bin", "krcloud-drift.js"), "--cwd", dir, "--stack", stack],
          dir,
          env,
          "drift",
          false,
        )
      : await runCommand(
          bed,
          path.join(pulumiBinDir(), "pulumi"),
          [...CLI_ARGS[step], "--stack", stack, "--non-interactive", "--color", "never", ...extraArgs],
          dir,
          env,
          "engine",
          true,
        );
  const after = bed.cloud.control.counters();
  if (r.code !== 0) throw new Error(`${door.id} ${step} at ${n}: exit ${r.code}\n${r.output}`);
  // A no-change step that changed something measures something else: stop.
  const changed = Object.entries(r.summary ?? {}).filter(([op, k]) => op !== "same" && k > 0);
  if ((step === "preview" || step === "up") && changed.length > 0)
    throw new Error(`${door.id} ${step} at ${n} was to change nothing: ${JSON.stringify(r.summary)}`);
  if (step === "create" && (r.summary?.create ?? 0) < n) throw new Error(`${door.id} create at ${n} created ${r.summary?.create ?? 0}`);
  const byOperation: Record<string, number> = {};
  for (const [op, k] of Object.entries(after.byOperation)) if (k - (before.byOperation[op] ?? 0) > 0) byOperation[op] = k - (before.byOperation[op] ?? 0);
  const result: RunResult = {
    door: door.id,
    n,
    step,
    rep,
    seq,
    wallMs: r.wallMs,
    usage: r.usage,
    firstResourceMs: r.firstResourceMs,
    lastResourceMs: r.lastResourceMs,
    requests: after.total - before.total,
    byOperation,
    skipCheckpoints: extraEnv.PULUMI_SKIP_CHECKPOINTS === "true",
    env:
      Object.keys(extraEnv).length > 0
        ? Object.entries(extraEnv)
            .map(([k, v]) => `${k}=${v}`)
            .join(" ")
        : undefined,
  };
  if (step === "create") result.stateBytesPerResource = fs.statSync(checkpointFile(sandbox, dir, stack)).size / n;
  return result;
}

/** The bench's local cloud, project, sandboxes (real plugin, no-op plugin) and the warm-up that records the floors' outputs. */
export async function openBed(log: (line: string) => void): Promise<Bed> {
  const cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  const project = await newProject(cloud, "scale");
  const real = new Sandbox({ label: "bench-scale-real" });
  const floor = new Sandbox({ label: "bench-scale-floor" });
  const root = real.root;
  const bed: Bed = {
    cloud,
    project,
    sandboxes: { real, floor },
    root,
    floorFile: path.join(root, "floor.json"),
    preload: path.join(REPO_ROOT, "dist", "tools", "bench-preload.js"),
    programs: new Map(),
  };
  await installNativePlugin(real);
  const pluginDir = path.join(floor.root, "floor-plugin");
  fs.mkdirSync(pluginDir, { recursive: true });
  fs.writeFileSync(
    path.join(pluginDir, "pulumi-resource-krcloud"),
    `#!/bin/sh\nexec node ${JSON.stringify(path.join(REPO_ROOT, "dist", "tools", "bench-floor-plugin.js"))} "$@"\n`,
    { mode: 0o755 },
  );
  await runPulumi(floor, ["plugin", "install", "resource", "krcloud", PACKAGE_VERSION, "-f", pluginDir], floor.root);

  // Warm-up: one bucket through the real doors records what the floors return; then every door
  // once (module loading, plugin start, the disk cache), all destroyed.
  log("warm-up: one bucket per door");
  const created = new Set<string>();
  const warm = async (id: DoorId, steps: Step[]): Promise<void> => {
    for (const s of steps) await runStep(bed, DOORS[id], 1, s, 0, 0, {}, created);
  };
  await warm("K", ["create"]);
  await warm("Y", ["create"]);
  const bucketOf = async (id: DoorId): Promise<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> }> => {
    const { stdout } = await runPulumi(real, ["stack", "export", "--stack", stackName(id, 1)], programDir(bed, DOORS[id], 1));
    const state = JSON.parse(stdout) as { deployment: { resources: { type: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }[] } };
    const r = state.deployment.resources.find((x) => x.type.endsWith("objectstorage:Bucket"));
    if (!r) throw new Error(`no bucket in the warm-up state of ${id}`);
    return { inputs: r.inputs, outputs: r.outputs };
  };
  const dyn = await bucketOf("K");
  const nat = await bucketOf("Y");
  const strip = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).filter(([k]) => k !== "__provider"));
  fs.writeFileSync(bed.floorFile, JSON.stringify({ dynamic: { outputs: strip(dyn.outputs) }, native: { inputs: nat.inputs, outputs: nat.outputs } }));
  await warm("K", ["destroy"]);
  await warm("Y", ["destroy"]);
  for (const id of ["F", "T", "TF", "YF"] as DoorId[]) await warm(id, ["create", "destroy"]);
  return bed;
}

export async function closeBed(bed: Bed): Promise<void> {
  await bed.cloud.close();
  bed.sandboxes.real.cleanup();
  bed.sandboxes.floor.cleanup();
}

/** Pair order of repetition `rep`: the pairs rotate, and within a pair the floor goes first every other time. */
function orderFor(rep: number, doors: DoorId[]): DoorId[] {
  const out: DoorId[] = [];
  for (let i = 0; i < PAIRS.length; i++) {
    const [a, b] = PAIRS[(i + rep) % PAIRS.length]!;
    out.push(...(rep % 2 === 0 ? [a, b] : [b, a]));
  }
  return out.filter((d) => doors.includes(d));
}

/** Every step at every size, interleaved; returns the runs (the bed stays open). */
export async function measureScale(bed: Bed, opts: ScaleOptions): Promise<{ results: RunResult[]; failures: string[] }> {
  const results: RunResult[] = [];
  const failures: string[] = [];
  const failed = new Set<string>();
  const created = new Set<string>();
  let seq = 0;
  for (const n of opts.sizes) {
    const skip: Record<string, string> = n > opts.skipCheckpointsAbove ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
    for (let cycle = 0; cycle < opts.cycles; cycle++) {
      const run = async (step: Step, rep: number, env: Record<string, string>): Promise<void> => {
        for (const id of orderFor(rep, opts.doors)) {
          // A door that failed at this size is not measured further there (its state is unknown).
          if (failed.has(`${id}/${n}`)) continue;
          const t = performance.now();
          let r: RunResult;
          try {
            r = await runStep(bed, DOORS[id], n, step, rep, seq++, env, created);
          } catch (e) {
            const message = (e as Error).message;
            failed.add(`${id}/${n}`);
            failures.push(`${DOORS[id].label} (${id}) at ${n}, ${step}: ${message.split("\n")[0]}; the last lines: ${lastLines(message)}`);
            opts.log(`${n} ${step} ${id} FAILED: ${message.slice(-2000)}`);
            continue;
          }
          results.push(r);
          opts.log(
            `${n} ${step.padEnd(7)} ${id.padEnd(2)} ${(r.wallMs / 1000).toFixed(1).padStart(7)} s  cpu ${(totalCpu(r) / 1000).toFixed(1)} s  provider ${(r.usage.cpuMs.provider / 1000).toFixed(1)} s  ${r.requests} requests${r.stateBytesPerResource ? `  ${r.stateBytesPerResource.toFixed(0)} B/resource` : ""}  (${((performance.now() - t) / 1000).toFixed(0)} s)`,
          );
        }
      };
      await run("create", cycle, skip);
      for (let rep = 0; rep < opts.planReps; rep++) for (const step of PLAN_STEPS) await run(step, cycle * opts.planReps + rep, {});
      await run("destroy", cycle, skip);
    }
  }
  return { results, failures };
}

function lastLines(text: string): string {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .join(" / ")
    .slice(0, 600);
}

export function totalCpu(r: RunResult): number {
  return ROLES.reduce((a, role) => a + r.usage.cpuMs[role], 0);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const runsOf = (results: RunResult[], door: DoorId, n: number, step: Step): RunResult[] =>
  results.filter((r) => r.door === door && r.n === n && r.step === step);

/** Paired ratio a/b: each run of `a` with the run of `b` nearest in the sequence (adjacent when interleaved); median [min–max]. */
function pairedRatio(
  results: RunResult[],
  a: DoorId,
  b: DoorId,
  n: number,
  step: Step,
  value: (r: RunResult) => number,
): { median: number; min: number; max: number } | undefined {
  const as = runsOf(results, a, n, step);
  const bs = runsOf(results, b, n, step);
  if (as.length === 0 || bs.length === 0) return undefined;
  const ratios = as.map((x) => {
    const y = bs.reduce((best, c) => (Math.abs(c.seq - x.seq) < Math.abs(best.seq - x.seq) ? c : best));
    return value(x) / value(y);
  });
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

const fmtRatio = (r: { median: number; min: number; max: number } | undefined): string =>
  r ? (r.min === r.max ? r.median.toFixed(2) : `${r.median.toFixed(2)} [${r.min.toFixed(2)}–${r.max.toFixed(2)}]`) : "-";
const s1 = (ms: number): string => (ms / 1000).toFixed(1);
const MB = (kb: number): string => (kb / 1024).toFixed(0);

export interface ScaleReport {
  /** The acceptance lines (goal: met/missed) first, then the tables, as markdown. */
  markdown: string;
  goals: { text: string; met: boolean }[];
}

/** The tables of `results`: ratios first (paired, wall and CPU), then times, then per-resource figures. */
export function scaleReport(results: RunResult[], opts: { sizes: number[]; doors: DoorId[] }): ScaleReport {
  const out: string[] = [];
  const goals: { text: string; met: boolean }[] = [];
  const wall = (r: RunResult): number => r.wallMs;
  const has = (d: DoorId): boolean => opts.doors.includes(d);

  // Acceptance figures.
  for (const n of opts.sizes) {
    if (has("T") && has("Y"))
      for (const step of ["preview", "up"] as Step[]) {
        const r = pairedRatio(results, "T", "Y", n, step, wall);
        if (r && n === 1000)
          goals.push({
            text: `native TS / native YAML, ${step === "up" ? "up with no changes" : "preview"} at ${n}: ${fmtRatio(r)} (goal <= 1.5)`,
            met: r.median <= 1.5,
          });
      }
    if (has("K") && has("F"))
      for (const step of ["preview", "up"] as Step[]) {
        const r = pairedRatio(results, "K", "F", n, step, wall);
        if (r)
          goals.push({
            text: `dynamic TS / its floor, ${step === "up" ? "up with no changes" : "preview"} at ${n}: ${fmtRatio(r)} (goal <= 1.1)`,
            met: r.median <= 1.1,
          });
      }
    for (const d of ["K", "T", "Y"] as DoorId[]) {
      const runs = runsOf(results, d, n, "refresh");
      if (runs.length && n === 1000) {
        const per = median(runs.map((r) => r.requests / n));
        goals.push({ text: `refresh requests per resource, ${DOORS[d].label}, at ${n}: ${per.toFixed(2)} (goal <= 1.0)`, met: per <= 1.0 });
      }
    }
  }

  out.push(
    "| N | step | K/F wall | K/F CPU | T/TF wall | T/TF CPU | Y/YF wall | Y/YF CPU | T/Y wall | T/Y CPU | K/T wall |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const n of opts.sizes)
    for (const step of STEPS) {
      const cell = (a: DoorId, b: DoorId, v: (r: RunResult) => number): string => (has(a) && has(b) ? fmtRatio(pairedRatio(results, a, b, n, step, v)) : "-");
      out.push(
        `| ${n} | ${step}${skipNote(results, n, step)} | ${cell("K", "F", wall)} | ${cell("K", "F", totalCpu)} | ${cell("T", "TF", wall)} | ${cell("T", "TF", totalCpu)} | ${cell("Y", "YF", wall)} | ${cell("Y", "YF", totalCpu)} | ${cell("T", "Y", wall)} | ${cell("T", "Y", totalCpu)} | ${cell("K", "T", wall)} |`,
      );
    }

  out.push("", "Wall time in seconds, median of the runs (engine CPU + program CPU + provider CPU, seconds, beside it):", "");
  out.push(`| N | step | ${opts.doors.map((d) => d).join(" | ")} |`, `|---|---|${opts.doors.map(() => "---").join("|")}|`);
  for (const n of opts.sizes)
    for (const step of STEPS) {
      const cells = opts.doors.map((d) => {
        const runs = runsOf(results, d, n, step);
        if (runs.length === 0) return "-";
        return `${s1(median(runs.map(wall)))} (${s1(median(runs.map((r) => r.usage.cpuMs.engine)))}+${s1(median(runs.map((r) => r.usage.cpuMs.program)))}+${s1(median(runs.map((r) => r.usage.cpuMs.provider)))})`;
      });
      out.push(`| ${n} | ${step}${skipNote(results, n, step)} | ${cells.join(" | ")} |`);
    }

  out.push(
    "",
    "Provider CPU in seconds, median of the runs, and beside it the provider's own CPU per resource in ms: the marginal cost between this size and the one before (start-up cancels out), or, for the first size, the total divided by N:",
    "",
  );
  out.push(`| N | step | ${opts.doors.join(" | ")} |`, `|---|---|${opts.doors.map(() => "---").join("|")}|`);
  const providerCpu = (d: DoorId, n: number, step: Step): number | undefined => {
    const runs = runsOf(results, d, n, step);
    return runs.length ? median(runs.map((r) => r.usage.cpuMs.provider)) : undefined;
  };
  opts.sizes.forEach((n, i) => {
    for (const step of STEPS) {
      const cells = opts.doors.map((d) => {
        const here = providerCpu(d, n, step);
        if (here === undefined) return "-";
        const prev = i > 0 ? providerCpu(d, opts.sizes[i - 1]!, step) : undefined;
        const per = prev !== undefined ? (here - prev) / (n - opts.sizes[i - 1]!) : here / n;
        return `${s1(here)} (${per.toFixed(2)})`;
      });
      out.push(`| ${n} | ${step}${skipNote(results, n, step)} | ${cells.join(" | ")} |`);
    }
  });

  out.push("", "Per resource, median of the runs: local cloud requests per step; state bytes after create (the checkpoint file):", "");
  out.push(`| N | figure | ${opts.doors.join(" | ")} |`, `|---|---|${opts.doors.map(() => "---").join("|")}|`);
  for (const n of opts.sizes) {
    const row = (label: string, f: (d: DoorId) => string): void => {
      out.push(`| ${n} | ${label} | ${opts.doors.map(f).join(" | ")} |`);
    };
    row("state bytes per resource", (d) => {
      const runs = runsOf(results, d, n, "create").filter((r) => r.stateBytesPerResource);
      return runs.length ? median(runs.map((r) => r.stateBytesPerResource!)).toFixed(0) : "-";
    });
    for (const step of STEPS) {
      row(`requests, ${step}`, (d) => {
        const runs = runsOf(results, d, n, step);
        return runs.length ? median(runs.map((r) => r.requests / n)).toFixed(2) : "-";
      });
    }
  }

  out.push("", "Peak RSS in MB, largest over the runs of each step (provider / program or language host / engine):", "");
  out.push(`| N | step | ${opts.doors.join(" | ")} |`, `|---|---|${opts.doors.map(() => "---").join("|")}|`);
  for (const n of opts.sizes)
    for (const step of STEPS) {
      const cells = opts.doors.map((d) => {
        const runs = runsOf(results, d, n, step);
        if (runs.length === 0) return "-";
        const peak = (role: Role): string => {
          const kb = Math.max(...runs.map((r) => r.usage.peakRssKb[role]));
          return kb > 0 ? MB(kb) : "-";
        };
        return step === "drift"
          ? `${peak("provider")} / ${peak("program")} / ${peak("engine")} (tool ${peak("drift")})`
          : `${peak("provider")} / ${peak("program")} / ${peak("engine")}`;
      });
      out.push(`| ${n} | ${step} | ${cells.join(" | ")} |`);
    }

  out.push(
    "",
    "Where the wall time of each engine step goes, from the engine's events (median, seconds): start (spawn to the first resource event: CLI start, plugins, the program building its resources) / resources (first to last resource event) / end (last event to exit: the final checkpoint, shutdown):",
    "",
  );
  out.push(`| N | step | ${opts.doors.join(" | ")} |`, `|---|---|${opts.doors.map(() => "---").join("|")}|`);
  for (const n of opts.sizes)
    for (const step of STEPS.filter((s) => s !== "drift")) {
      const cells = opts.doors.map((d) => {
        const runs = runsOf(results, d, n, step).filter((r) => r.firstResourceMs !== undefined);
        if (runs.length === 0) return "-";
        return `${s1(median(runs.map((r) => r.firstResourceMs!)))} / ${s1(median(runs.map((r) => r.lastResourceMs! - r.firstResourceMs!)))} / ${s1(median(runs.map((r) => r.wallMs - r.lastResourceMs!)))}`;
      });
      out.push(`| ${n} | ${step} | ${cells.join(" | ")} |`);
    }
  return { markdown: out.join("\n"), goals };
}

function skipNote(results: RunResult[], n: number, step: Step): string {
  return results.some((r) => r.n === n && r.step === step && r.skipCheckpoints) ? " (PULUMI_SKIP_CHECKPOINTS)" : "";
}

export const DOOR_LEGEND = Object.values(DOORS)
  .map((d) => `${d.id} ${d.label}`)
  .join(", ");

// ---------------------------------------------------------------------------------------------
// Study: the engine's checkpoints (make bench-scale --study checkpoints)

export interface StudyRow {
  door: DoorId;
  n: number;
  setting: string;
  createMs: number;
  destroyMs: number;
  engineCpuMs: number;
}

/** Create and destroy of `doors` at each size under each setting, interleaved setting by setting. */
/** The engine settings the study compares, by key (`--settings default,skip,...`). */
export const CHECKPOINT_SETTINGS: Record<string, [string, Record<string, string>]> = {
  default: ["default (a checkpoint per step, file backend)", {}],
  skip: ["PULUMI_SKIP_CHECKPOINTS=true", { PULUMI_SKIP_CHECKPOINTS: "true" }],
  zstd: ["PULUMI_DIY_BACKEND_ZSTD=true", { PULUMI_DIY_BACKEND_ZSTD: "true" }],
  gzip: ["PULUMI_DIY_BACKEND_GZIP=true", { PULUMI_DIY_BACKEND_GZIP: "true" }],
  parallel64: ["--parallel 64 (PULUMI_PARALLEL=64)", { PULUMI_PARALLEL: "64" }],
  parallel1: ["--parallel 1 (PULUMI_PARALLEL=1)", { PULUMI_PARALLEL: "1" }],
};

export async function checkpointStudy(bed: Bed, sizes: number[], doors: DoorId[], keys: string[], log: (l: string) => void): Promise<StudyRow[]> {
  const settings = keys.map((k) => {
    const s = CHECKPOINT_SETTINGS[k];
    if (!s) throw new Error(`unknown setting ${k}: one of ${Object.keys(CHECKPOINT_SETTINGS).join(", ")}`);
    return s;
  });
  const rows: StudyRow[] = [];
  const created = new Set<string>();
  let seq = 0;
  for (const n of sizes)
    for (const door of doors)
      for (const [setting, env] of settings) {
        const c = await runStep(bed, DOORS[door], n, "create", 0, seq++, env, created);
        const d = await runStep(bed, DOORS[door], n, "destroy", 0, seq++, env, created);
        rows.push({ door, n, setting, createMs: c.wallMs, destroyMs: d.wallMs, engineCpuMs: c.usage.cpuMs.engine + d.usage.cpuMs.engine });
        log(`${n} ${door} ${setting}: create ${s1(c.wallMs)} s, destroy ${s1(d.wallMs)} s, engine CPU ${s1(c.usage.cpuMs.engine + d.usage.cpuMs.engine)} s`);
      }
  return rows;
}

export function studyReport(rows: StudyRow[]): string {
  const out = ["| N | door | setting | create (s) | destroy (s) | engine CPU, both (s) |", "|---|---|---|---|---|---|"];
  for (const r of rows) out.push(`| ${r.n} | ${r.door} | ${r.setting} | ${s1(r.createMs)} | ${s1(r.destroyMs)} | ${s1(r.engineCpuMs)} |`);
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Study: what the TypeScript program costs (bench-scale --study program)

export interface ProgramStudyRow {
  variant: string;
  step: Step;
  wallMs: number[];
  programCpuMs: number[];
}

/**
 * The native TS door's program at size n in variants, beside native YAML: as the bench runs it
 * (ts-node, type-checked), with PULUMI_NODEJS_TRANSPILE_ONLY=true, compiled to JavaScript ahead
 * (runtime option typescript: false), and with `Error.stackTraceLimit = 1` first in the program (the
 * Node SDK takes a stack trace for every promise it makes, several per property of every
 * resource). Stacks are created with PULUMI_SKIP_CHECKPOINTS (setup, not measured); preview and up
 * with no changes are measured `reps` times, interleaved.
 */
export async function programStudy(bed: Bed, n: number, reps: number, log: (l: string) => void): Promise<ProgramStudyRow[]> {
  const js = (pre: string): string =>
    `"use strict";\n${pre}const pulumi = require("@pulumi/pulumi");\nconst krcloud = require("pulumi-krcloud/native");\nconst count = new pulumi.Config().requireNumber("count");\nfor (let i = 0; i < count; i++) new krcloud.objectstorage.Bucket("b" + i, {});\n`;
  const variants: { key: string; label: string; files: Record<string, string>; runtime: string; env?: Record<string, string> }[] = [
    {
      key: "ts",
      label: "native TS (ts-node, type-checked)",
      files: { "index.ts": TS_PROGRAM("pulumi-krcloud/native"), "tsconfig.json": TSCONFIG },
      runtime: "nodejs",
    },
    {
      key: "ts",
      label: "native TS, PULUMI_NODEJS_TRANSPILE_ONLY=true",
      files: {},
      runtime: "nodejs",
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
    },
    { key: "js", label: "native TS compiled ahead to JavaScript", files: { "index.js": js("") }, runtime: "nodejs\n  options:\n    typescript: false" },
    {
      key: "ts-limit",
      label: "native TS with Error.stackTraceLimit = 1 first",
      files: { "index.ts": `Error.stackTraceLimit = 1;\n${TS_PROGRAM("pulumi-krcloud/native")}`, "tsconfig.json": TSCONFIG },
      runtime: "nodejs",
    },
    { key: "yaml", label: "native YAML", files: {}, runtime: "yaml" },
  ];
  const dirs = new Map<string, { dir: string; stack: string }>();
  for (const v of variants) {
    if (dirs.has(v.key)) continue;
    let dir: string;
    if (v.key === "yaml") dir = programDir(bed, DOORS.Y, n);
    else {
      const src = path.join(bed.root, "src", `study-${v.key}`);
      fs.mkdirSync(src, { recursive: true });
      fs.writeFileSync(path.join(src, "Pulumi.yaml"), `name: study-${v.key}\nruntime:\n  name: ${v.runtime}\n`);
      const main = Object.keys(v.files).find((f) => f.startsWith("index.")) ?? "index.ts";
      fs.writeFileSync(path.join(src, "package.json"), JSON.stringify({ name: `study-${v.key}`, private: true, main }));
      for (const [f, text] of Object.entries(v.files)) fs.writeFileSync(path.join(src, f), text);
      dir = bed.sandboxes.real.copyProgram(src, `study-${v.key}`);
    }
    const project = /^name:\s*(\S+)/m.exec(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"))![1]!;
    const stack = `study-${v.key}-${n}`;
    await bed.sandboxes.real.createStack(dir, stack, providerConfig(bed.project, { [`${project}:count`]: { value: String(n) } }));
    dirs.set(v.key, { dir, stack });
  }
  const pulumi = path.join(pulumiBinDir(), "pulumi");
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({ ...bed.sandboxes.real.env(), PULUMI_DEBUG_COMMANDS: "true", ...extra });
  const run = async (key: string, args: string[], extra?: Record<string, string>): Promise<CommandResult> => {
    const { dir, stack } = dirs.get(key)!;
    const r = await runCommand(bed, pulumi, [...args, "--stack", stack, "--non-interactive", "--color", "never"], dir, env(extra), "engine", true);
    if (r.code !== 0) throw new Error(`${key} ${args[0]}: exit ${r.code}\n${r.output}`);
    return r;
  };
  for (const key of dirs.keys()) await run(key, ["up", "--yes", "--skip-preview"], { PULUMI_SKIP_CHECKPOINTS: "true" });
  const rows: ProgramStudyRow[] = variants.flatMap((v) =>
    (["preview", "up"] as Step[]).map((step) => ({ variant: v.label, step, wallMs: [], programCpuMs: [] })),
  );
  for (let rep = 0; rep < reps; rep++)
    for (const step of ["preview", "up"] as const)
      for (const v of rep % 2 === 0 ? variants : [...variants].reverse()) {
        const r = await run(v.key, CLI_ARGS[step], v.env);
        const row = rows.find((x) => x.variant === v.label && x.step === step)!;
        row.wallMs.push(r.wallMs);
        row.programCpuMs.push(r.usage.cpuMs.program);
        log(`${n} ${step} ${v.label}: ${s1(r.wallMs)} s, program CPU ${s1(r.usage.cpuMs.program)} s`);
      }
  for (const key of dirs.keys()) await run(key, ["destroy", "--yes", "--skip-preview"], { PULUMI_SKIP_CHECKPOINTS: "true" });
  return rows;
}

export function programStudyReport(rows: ProgramStudyRow[]): string {
  const yaml = (step: Step): number => median(rows.find((r) => r.variant === "native YAML" && r.step === step)!.wallMs);
  const out = ["| step | variant | wall (s), median | / native YAML | program CPU (s), median |", "|---|---|---|---|---|"];
  for (const r of rows)
    out.push(`| ${r.step} | ${r.variant} | ${s1(median(r.wallMs))} | ${(median(r.wallMs) / yaml(r.step)).toFixed(2)} | ${s1(median(r.programCpuMs))} |`);
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Profiles (make bench-scale --profile): where the time goes, per door and step

export interface ProfileRun {
  door: DoorId;
  n: number;
  step: Step;
  wallMs: number;
  summary: ProfileSummary;
}

export interface ProviderCalls {
  n: number;
  msPerCall: Record<string, number>;
  msPerSchemaBuild: Record<string, number>;
  requestsPerResource: Record<string, number>;
  profile: ProfileSummary;
}

/** krcloud's provider calls outside the engine (tools/bench-provider-calls.ts), CPU-profiled. */
export async function providerCalls(bed: Bed, n: number): Promise<ProviderCalls> {
  const dir = path.join(bed.root, "profiles", `provider-calls-${n}`);
  fs.mkdirSync(dir, { recursive: true });
  const config = { "krcloud:localCloudUrl": bed.project.cloud.url, "krcloud:projectId": bed.project.projectId, "krcloud:authToken": bed.project.token };
  const before = bed.cloud.control.counters();
  const child = spawn(
    process.execPath,
    [`--cpu-prof`, `--cpu-prof-dir=${dir}`, path.join(REPO_ROOT, "dist", "tools", "bench-provider-calls.js"), JSON.stringify({ n, config })],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 1)));
  const line = out.split("\n").find((l) => l.startsWith("RESULT "));
  if (code !== 0 || !line) throw new Error(`bench-provider-calls exited ${code}: ${out}`);
  const after = bed.cloud.control.counters();
  const requestsPerResource: Record<string, number> = {};
  for (const [op, k] of Object.entries(after.byOperation))
    if (k - (before.byOperation[op] ?? 0) > 0) requestsPerResource[op] = (k - (before.byOperation[op] ?? 0)) / n;
  const r = JSON.parse(line.slice(7)) as { msPerCall: Record<string, number>; msPerSchemaBuild: Record<string, number> };
  return { n, ...r, requestsPerResource, profile: await summarizeProfiles(dir, path.join(dir, "none")) };
}

/** Each step of `doors` at n once more with --cpu-prof on every Node process and the engine's --profiling. */
export async function profileRuns(bed: Bed, n: number, doors: DoorId[], log: (l: string) => void): Promise<ProfileRun[]> {
  const runs: ProfileRun[] = [];
  const created = new Set<string>();
  for (const door of doors)
    for (const step of STEPS) {
      const dir = path.join(bed.root, "profiles", `${door}-${n}-${step}`);
      fs.mkdirSync(dir, { recursive: true });
      const env = { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` };
      const engine = path.join(bed.root, "profiles", `${door}-${n}-${step}.engine`);
      const r = await runStep(bed, DOORS[door], n, step, 0, 0, env, created, step === "drift" ? [] : ["--profiling", engine]);
      const summary = await summarizeProfiles(dir, engine);
      runs.push({ door, n, step, wallMs: r.wallMs, summary });
      log(`profile ${n} ${door} ${step}: ${s1(r.wallMs)} s`);
    }
  return runs;
}

// ---------------------------------------------------------------------------------------------
// docs/benchmarks.md: each generator owns a marked section and leaves the rest (the other sections,
// the hand-written analysis) as it is.

export const BENCH_DOC = path.join(REPO_ROOT, "docs", "benchmarks.md");

/**
 * `doc` with the section `id` (the text between `<!-- begin id -->` and `<!-- end id -->`) replaced
 * by `body`, or appended when it has none. `replaceAllIfMissing`: a document without the section is
 * replaced whole (the first `make bench` after docs/benchmarks.md was written whole by it).
 */
export function withSection(doc: string, id: string, body: string, replaceAllIfMissing = false): string {
  const begin = `<!-- begin ${id} -->`;
  const end = `<!-- end ${id} -->`;
  const block = `${begin}\n${body.trimEnd()}\n${end}`;
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i >= 0 && j > i) return doc.slice(0, i) + block + doc.slice(j + end.length);
  if (replaceAllIfMissing || doc.trim() === "") return `${block}\n`;
  return `${doc.trimEnd()}\n\n${block}\n`;
}

export function writeSection(id: string, body: string, replaceAllIfMissing = false): void {
  const doc = fs.existsSync(BENCH_DOC) ? fs.readFileSync(BENCH_DOC, "utf8") : "";
  fs.writeFileSync(BENCH_DOC, withSection(doc, id, body, replaceAllIfMissing));
}

/** The scale section as `make bench` and `make bench-scale` write it: goals, failures, tables, how it ran. */
export function scaleSection(title: string, results: RunResult[], failures: string[], opts: ScaleOptions, seconds: number): string {
  const report = scaleReport(results, opts);
  const skipped = opts.sizes.filter((n) => n > opts.skipCheckpointsAbove);
  return [
    `## ${title}`,
    "",
    `${DOOR_LEGEND}. Sizes ${opts.sizes.map((n) => n.toLocaleString("en")).join(", ")}; ${opts.cycles} cycle(s) of create, ${opts.planReps} round(s) of the plan steps (preview, up, refresh, drift), destroy; interleaved door by door with each door's floor adjacent, ratios paired then the median [min–max]. ${skipped.length ? `At ${skipped.join(", ")} resources create and destroy ran with PULUMI_SKIP_CHECKPOINTS=true (one checkpoint at the end instead of two per step; see "State writes"); every other step as users run it.` : "Every step as users run it (file backend, checkpoint per step, default --parallel)."} Took ${(seconds / 60).toFixed(1)} min; load average ${os.loadavg()[0]!.toFixed(1)} at the end on ${os.cpus().length} cores.`,
    "",
    ...report.goals.map((g) => `- ${g.text}: ${g.met ? "met" : "missed"}`),
    ...failures.map((f) => `- failed: ${f}`),
    "",
    report.markdown,
  ].join("\n");
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "10000" },
      "plan-reps": { type: "string", default: "1" },
      cycles: { type: "string", default: "1" },
      doors: { type: "string", default: Object.keys(DOORS).join(",") },
      "skip-checkpoints-above": { type: "string", default: "3000" },
      study: { type: "string" },
      settings: { type: "string", default: "default,skip,zstd,gzip,parallel64" },
      profile: { type: "string" },
      out: { type: "string" },
      write: { type: "boolean", default: false },
    },
  });
  const log = (l: string): void => console.error(l);
  const sizes = values.sizes.split(",").map(Number);
  const doors = values.doors.split(",") as DoorId[];
  const started = performance.now();
  const bed = await openBed(log);
  const sections: string[] = [];
  const took = (): string =>
    `Took ${((performance.now() - started) / 60_000).toFixed(1)} min; load average ${os.loadavg()[0]!.toFixed(1)} at the end on ${os.cpus().length} cores.`;
  let section: [string, string] | undefined;
  try {
    if (values.study === "program") {
      const n = sizes[0]!;
      const rows = await programStudy(bed, n, Number(values["plan-reps"]), log);
      const body = [
        `## The TypeScript program at ${n.toLocaleString("en")} resources (generated)`,
        "",
        `\`node dist/tools/bench-scale.js --study program --sizes ${n} --plan-reps ${values["plan-reps"]} --write\`: preview and up with no changes of the native TS door's program in variants, beside native YAML, interleaved. ${took()}`,
        "",
        programStudyReport(rows),
      ].join("\n");
      sections.push(body);
      section = ["bench-program", body];
    } else if (values.study === "checkpoints") {
      const rows = await checkpointStudy(bed, sizes, doors, values.settings.split(","), log);
      const body = [
        "## State writes: create and destroy under the engine's checkpoint settings (generated)",
        "",
        `\`node dist/tools/bench-scale.js --study checkpoints --sizes ${values.sizes} --doors ${values.doors} --settings ${values.settings} --write\`: create then destroy, one run each, setting after setting. ${DOOR_LEGEND}. ${took()}`,
        "",
        studyReport(rows),
      ].join("\n");
      sections.push(body);
      section = ["bench-checkpoints", body];
    } else if (values.profile) {
      const calls = await providerCalls(bed, Number(values.profile));
      const runs = await profileRuns(bed, Number(values.profile), doors, log);
      const { profileReport, providerCallsReport } = await import("./bench-profile");
      const body = [
        `## Profiles at ${Number(values.profile).toLocaleString("en")} resources (generated)`,
        "",
        `\`node dist/tools/bench-scale.js --profile ${values.profile} --doors ${values.doors} --write\`: each step once more with \`--cpu-prof\` on every Node process and \`pulumi --profiling\` (engine, read with \`go tool pprof\`). ${DOOR_LEGEND}. ${took()}`,
        "",
        providerCallsReport(calls),
        "",
        profileReport(runs),
      ].join("\n");
      sections.push(body);
      section = [`bench-profile`, body];
    } else {
      const opts: ScaleOptions = {
        sizes,
        planReps: Number(values["plan-reps"]),
        cycles: Number(values.cycles),
        doors,
        skipCheckpointsAbove: Number(values["skip-checkpoints-above"]),
        log,
      };
      const { results, failures } = await measureScale(bed, opts);
      if (values.out) fs.writeFileSync(values.out, JSON.stringify(results));
      const body = scaleSection(
        `Scale: ${sizes.map((n) => n.toLocaleString("en")).join(", ")} resources (make bench-scale)`,
        results,
        failures,
        opts,
        (performance.now() - started) / 1000,
      );
      sections.push(body);
      section = [`bench-scale-${sizes.join("-")}`, body];
    }
  } finally {
    await closeBed(bed);
  }
  console.log(sections.join("\n\n"));
  if (values.write && section) writeSection(section[0], section[1]);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
