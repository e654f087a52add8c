/**
 * The scale benchmarks' test bed (index.ts): the local cloud, the sandboxes of the real and the
 * no-op plugin, the programs of each door, and one step of one door run through the real CLI with
 * its processes sampled.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import {
  installNativePlugin,
  newProject,
  PACKAGE_VERSION,
  providerConfig,
  PULUMI_PYTHON_VERSION,
  pulumiBinDir,
  sharedVirtualenv,
  runPulumi,
  Sandbox,
  type CloudProject,
} from "../../tests/harness/engine";
import { TreeSampler, type Role, type Usage } from "../procs";
import { PROGRAM_TSCONFIG } from "../../drift/unmanaged/generate";
import { DOORS } from "./doors";
import type { DoorId, DoorSpec, RunResult, Step } from "./types";
import { entry } from "../../tests/harness/entries";

export interface Bed {
  cloud: LocalCloud;
  project: CloudProject;
  sandboxes: Record<"real" | "floor", Sandbox>;
  root: string;
  floorFile: string;
  preload: string;
  programs: Map<string, string>;
  /** The Python programs' virtualenv, once the Python door needed it. */
  pythonVenv?: string;
}

/** The scale programs compile as a program krcloud-drift --unmanaged generates does. */
export const TSCONFIG = JSON.stringify(PROGRAM_TSCONFIG, null, 2);

export const TS_PROGRAM = (importPath: string): string => `import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "${importPath}";

const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) new krcloud.objectstorage.Bucket(\`b\${i}\`, {});
`;

/**
 * The floor of the dynamic door: a dynamic provider that calls nothing (bench/floors/dynamic.ts,
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

/** The Python door's program: the same buckets on the pulumi_krcloud wheel. */
const PYTHON_PROGRAM = `import pulumi
import pulumi_krcloud as krcloud

count = pulumi.Config().require_int("count")
for i in range(count):
    krcloud.objectstorage.Bucket(f"b{i}")
`;

/**
 * The virtualenv every Python program of the bed runs in: \`pulumi\` from PyPI at the CLI's version
 * and the pulumi_krcloud wheel generated from this tree's schema.json, made once per wheel and shared
 * with the engine tests (sharedVirtualenv, tests/harness/engine/languages.ts).
 */
async function pythonVirtualenv(bed: Bed): Promise<string> {
  bed.pythonVenv ??= await sharedVirtualenv(`pulumi==${PULUMI_PYTHON_VERSION}\n`);
  return bed.pythonVenv;
}

function yamlProgram(n: number): string {
  const lines = [`name: bench-yaml-${n}`, "runtime: yaml", "resources:"];
  for (let i = 0; i < n; i++) lines.push(`  b${i}:`, "    type: krcloud:objectstorage:Bucket");
  return `${lines.join("\n")}\n`;
}

/** The program directory of `door` at size n (TypeScript programs take the size from config). */
export function programDir(bed: Bed, door: DoorSpec, n: number): string {
  const key = door.program === "yaml" ? `yaml-${n}` : door.program;
  const known = bed.programs.get(key);
  if (known) return known;
  const src = path.join(bed.root, "src", key);
  fs.mkdirSync(src, { recursive: true });
  if (door.program === "yaml") {
    fs.writeFileSync(path.join(src, "Pulumi.yaml"), yamlProgram(n));
  } else if (door.program === "python") {
    if (bed.pythonVenv === undefined) throw new Error("the Python door's program before its virtualenv (ensureStack makes it first)");
    fs.writeFileSync(path.join(src, "Pulumi.yaml"), `name: bench-python\nruntime:\n  name: python\n  options:\n    virtualenv: ${bed.pythonVenv}\n`);
    fs.writeFileSync(path.join(src, "__main__.py"), PYTHON_PROGRAM);
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
  if (door.program === "python") await pythonVirtualenv(bed);
  const dir = programDir(bed, door, n);
  const name = stackName(door.id, n);
  if (!created.has(`${door.home}/${dir}/${name}`)) {
    const project = door.program === "yaml" ? `bench-yaml-${n}` : `bench-${door.program}`;
    await bed.sandboxes[door.home].createStack(dir, name, providerConfig(bed.project, { [`${project}:count`]: { value: String(n) } }));
    created.add(`${door.home}/${dir}/${name}`);
  }
  return dir;
}

export interface CommandResult {
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
export async function runCommand(
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

export const CLI_ARGS: Record<Exclude<Step, "drift">, string[]> = {
  create: ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  up: ["up", "--yes", "--skip-preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

export async function runStep(
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
    KRCLOUD_BENCH_FLOOR_DYNAMIC: entry("floorDynamic"),
    ...extraEnv,
  };
  const before = bed.cloud.control.counters();
  const r =
    step === "drift"
      ? await runCommand(bed, process.execPath, [entry("drift"), "--cwd", dir, "--stack", stack], dir, env, "drift", false)
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

/**
 * The bench's local cloud, project, sandboxes (real plugin, no-op plugin) and the warm-up that
 * records the floors' outputs. `warmAll: false` (`make bench-smoke`, whose figures mean nothing)
 * leaves out the other doors' warm-up runs, which only warm caches: each door still creates and
 * destroys in the measured steps.
 */
export async function openBed(
  log: (line: string) => void,
  doors: readonly DoorId[] = Object.keys(DOORS) as DoorId[],
  o: { warmAll?: boolean } = {},
): Promise<Bed> {
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
    preload: entry("preload"),
    programs: new Map(),
  };
  await installNativePlugin(real);
  const pluginDir = path.join(floor.root, "floor-plugin");
  fs.mkdirSync(pluginDir, { recursive: true });
  fs.writeFileSync(path.join(pluginDir, "pulumi-resource-krcloud"), `#!/bin/sh\nexec node ${JSON.stringify(entry("floorPlugin"))} "$@"\n`, { mode: 0o755 });
  await runPulumi(floor, ["plugin", "install", "resource", "krcloud", PACKAGE_VERSION, "-f", pluginDir], floor.root);

  // Warm-up: one bucket through the real doors records what the floors return; then every door
  // once (module loading, plugin start, the disk cache), all destroyed (not at the smoke size).
  log(o.warmAll === false ? "warm-up: one bucket through K and Y (the floors' outputs)" : "warm-up: one bucket per door");
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
  if (o.warmAll === false) return bed;
  for (const id of ["F", "T", "TF", "YF", "P"] as DoorId[]) if (doors.includes(id)) await warm(id, ["create", "destroy"]);
  return bed;
}

export async function closeBed(bed: Bed): Promise<void> {
  await bed.cloud.close();
  bed.sandboxes.real.cleanup();
  bed.sandboxes.floor.cleanup();
}
