/** The scale benchmarks' studies (index.ts --study checkpoints|program) and profiles (--profile). */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { providerConfig, pulumiBinDir } from "../../tests/harness/engine";
import { summarizeProfiles } from "./profile";
import { DOORS, STEPS } from "./doors";
import type { DoorId, ProfileRun, ProviderCalls, Step } from "./types";
import { CLI_ARGS, programDir, runCommand, runStep, TS_PROGRAM, TSCONFIG, type Bed, type CommandResult } from "./bed";
import { median, s1 } from "./report";
import { entry } from "../../tests/harness/entries";

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

/** krcloud's provider calls outside the engine (bench/provider-calls.ts), CPU-profiled. */
export async function providerCalls(bed: Bed, n: number): Promise<ProviderCalls> {
  const dir = path.join(bed.root, "profiles", `provider-calls-${n}`);
  fs.mkdirSync(dir, { recursive: true });
  const config = { "krcloud:localCloudUrl": bed.project.cloud.url, "krcloud:projectId": bed.project.projectId, "krcloud:authToken": bed.project.token };
  const before = bed.cloud.control.counters();
  const child = spawn(process.execPath, [`--cpu-prof`, `--cpu-prof-dir=${dir}`, entry("providerCalls"), JSON.stringify({ n, config })], {
    stdio: ["ignore", "pipe", "inherit"],
  });
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
