/**
 * Reads the profiles of one profiled step (index.ts --profile): the V8 CPU profiles that
 * `--cpu-prof` wrote for every Node process (program, provider, krcloud-drift) and the engine's Go
 * CPU profile (`pulumi --profiling`), and says where the CPU went: per process, time by category
 * (TypeScript compiler, source maps of stack traces, Pulumi SDK, gRPC, zod, HTTP, krcloud's code,
 * garbage collection), the inclusive time of named functions, the top functions by self time;
 * for the engine, the cumulative share of checkpointing and its parts (`go tool pprof`).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { DoorId, ProcessProfile, ProfileRun, ProfileSummary, ProviderCalls, Step } from "./types";

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Categories by the script a function belongs to, first match wins. */
const CATEGORIES: [string, (url: string, fn: string) => boolean][] = [
  ["garbage collection", (_u, f) => f === "(garbage collector)"],
  ["idle", (_u, f) => f === "(idle)"],
  ["V8/native (program)", (_u, f) => f === "(program)"],
  ["TypeScript compiler", (u) => u.includes("/typescript/lib/")],
  ["ts-node, source maps", (u) => /ts-node|source-map/.test(u)],
  ["gRPC, protobuf", (u) => /@grpc\/|google-protobuf|\/proto\/|protobufjs/.test(u)],
  ["Pulumi SDK", (u) => u.includes("/@pulumi/pulumi/")],
  ["zod", (u) => u.includes("/zod/")],
  ["undici (HTTP)", (u) => u.includes("/undici/")],
  ["krcloud native SDK", (u) => u.includes("/dist/sdk/nodejs/")],
  ["krcloud provider, SDK", (u) => /\/dist\/(provider|sdk|bin|index\.js)/.test(u)],
  ["Node.js", (u) => u.startsWith("node:") || u === ""],
];

/** Functions whose inclusive time is reported (the outermost call counts, not recursion). */
export const NAMED_FUNCTIONS = [
  "debuggablePromise",
  "prepareStackTrace",
  "transferProperties",
  "serializeProperties",
  "deserializeProperties",
  "registerResource",
  "inputsFromOutputs",
  "parseKnown",
  "bucketInputs",
  "bucketOutputs",
  "compile",
];

function roleOfProfile(p: CpuProfile): ProcessProfile["role"] {
  const urls = p.nodes.map((n) => n.callFrame.url).join("\n");
  if (/krcloud-drift\.js/.test(urls)) return "drift";
  if (/@pulumi\/pulumi\/cmd\/run/.test(urls)) return "program";
  if (/dynamic-provider|pulumi-resource-krcloud\.js|bench\/floors\/plugin\.js/.test(urls)) return "provider";
  return "other";
}

export function summarizeCpuProfile(p: CpuProfile): ProcessProfile {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const categories: Record<string, number> = {};
  const selfByName = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const { url, functionName } = n.callFrame;
    const cat = CATEGORIES.find(([, t]) => t(url, functionName))?.[0] ?? "other";
    categories[cat] = (categories[cat] ?? 0) + ms;
    totalMs += ms;
    const key = `${functionName || "(anonymous)"} ${url ? path.basename(url) : ""}:${n.callFrame.lineNumber + 1}`;
    selfByName.set(key, (selfByName.get(key) ?? 0) + ms);
  }
  // Inclusive time of the named functions, outermost call only.
  const inclusive = new Map<number, number>();
  const total = (id: number): number => {
    const known = inclusive.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id)!;
    const t = (self.get(id) ?? 0) + (n.children ?? []).reduce((a, c) => a + total(c), 0);
    inclusive.set(id, t);
    return t;
  };
  const functions: Record<string, number> = {};
  const root = p.nodes[0]!;
  const walk = (id: number, active: Set<string>): void => {
    const n = byId.get(id)!;
    const name = n.callFrame.functionName;
    let next = active;
    if (NAMED_FUNCTIONS.includes(name) && !active.has(name)) {
      functions[name] = (functions[name] ?? 0) + total(id);
      next = new Set(active).add(name);
    }
    for (const c of n.children ?? []) walk(c, next);
  };
  walk(root.id, new Set());
  const top = [...selfByName.entries()]
    .filter(([k]) => !/^\((idle|program|garbage collector|root)\)/.test(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, ms]) => ({ name, ms }));
  return { role: roleOfProfile(p), totalMs, categories, functions, top };
}

/** The engine's Go profile: cumulative seconds of the parts that matter here, by `go tool pprof -top -cum`. */
function engineProfile(prefix: string): ProfileSummary["engine"] {
  const dir = path.dirname(prefix);
  const file = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.startsWith(path.basename(prefix)) && f.endsWith(".cpu")) : undefined;
  if (!file) return undefined;
  const go = ["/usr/local/go/bin/go", "go"].find((g) => {
    try {
      execFileSync(g, ["version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  });
  if (!go) return undefined;
  const text = execFileSync(go, ["tool", "pprof", "-top", "-cum", "-nodecount=2000", path.join(dir, file)], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const totalS = Number(/Total samples = ([\d.]+)(ms|s)/.exec(text)?.[1] ?? 0) / (/Total samples = [\d.]+ms/.test(text) ? 1000 : 1);
  const parts: Record<string, number> = {};
  const want: [string, RegExp][] = [
    ["checkpoint (SnapshotManager.saveSnapshot)", /backend\.\(\*SnapshotManager\)\.saveSnapshot$/],
    ["  file backend write (diyBackend.saveStack)", /diy\.\(\*diyBackend\)\.saveStack$/],
    ["  JSON encoding", /^encoding\/json\.Marshal$/],
    ["  MD5 of the written file", /^crypto\/md5\.block$/],
    ["  state serialization (SnapshotManager.Deployment)", /backend\.\(\*SnapshotManager\)\.Deployment$/],
    ["  integrity check (VerifyIntegrity)", /snapshot\.VerifyIntegrity$/],
    ["garbage collection (gcBgMarkWorker)", /^runtime\.gcBgMarkWorker$/],
    ["step execution (deploy.(*stepExecutor).executeChain)", /deploy\.\(\*stepExecutor\)\.executeChain$/],
    ["gRPC to plugins (resource/plugin.(*provider)", /plugin\.\(\*provider\)\.(Check|Diff|Create|Read|Delete)$/],
  ];
  for (const line of text.split("\n")) {
    const m = /^\s*[\d.]+(?:ms|s)?\s+[\d.]+%\s+[\d.]+%\s+([\d.]+)(ms|s)\s+[\d.]+%\s+(.+)$/.exec(line);
    if (!m) continue;
    const cum = Number(m[1]) / (m[2] === "ms" ? 1000 : 1);
    const name = m[3]!.trim();
    for (const [label, re] of want) if (re.test(name)) parts[label] = (parts[label] ?? 0) + cum;
  }
  return { totalS, parts };
}

export async function summarizeProfiles(dir: string, enginePrefix: string): Promise<ProfileSummary> {
  const processes = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => summarizeCpuProfile(JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as CpuProfile));
  return { processes, engine: engineProfile(enginePrefix) };
}

const s = (ms: number): string => (ms / 1000).toFixed(2);

export function profileReport(runs: ProfileRun[]): string {
  const out: string[] = [];
  const cats = CATEGORIES.map(([c]) => c).concat("other");
  out.push("CPU seconds by category, per process (one profiled run per step):", "");
  out.push(`| door | step | process | total | ${cats.join(" | ")} |`, `|---|---|---|---|${cats.map(() => "---").join("|")}|`);
  for (const r of runs)
    for (const p of r.summary.processes.filter((x) => x.role !== "other"))
      out.push(`| ${r.door} | ${r.step} | ${p.role} | ${s(p.totalMs)} | ${cats.map((c) => (p.categories[c] ? s(p.categories[c]) : "")).join(" | ")} |`);
  out.push("", "Inclusive CPU seconds of named functions (outermost call):", "");
  out.push(`| door | step | process | ${NAMED_FUNCTIONS.join(" | ")} |`, `|---|---|---|${NAMED_FUNCTIONS.map(() => "---").join("|")}|`);
  for (const r of runs)
    for (const p of r.summary.processes.filter((x) => x.role === "program" || x.role === "provider"))
      out.push(`| ${r.door} | ${r.step} | ${p.role} | ${NAMED_FUNCTIONS.map((f) => (p.functions[f] ? s(p.functions[f]) : "")).join(" | ")} |`);
  out.push("", "Top functions by self time (ms):", "");
  for (const r of runs)
    for (const p of r.summary.processes.filter((x) => x.role === "program" || x.role === "provider"))
      out.push(`- ${r.door} ${r.step} ${p.role}: ${p.top.map((t) => `${t.name} ${t.ms.toFixed(0)}`).join("; ")}`);
  const engineRuns = runs.filter((r) => r.summary.engine);
  if (engineRuns.length) {
    const parts = [...new Set(engineRuns.flatMap((r) => Object.keys(r.summary.engine!.parts)))];
    out.push("", "Engine CPU (pulumi --profiling): total seconds sampled and the cumulative seconds of its parts:", "");
    out.push(`| door | step | wall (s) | engine total | ${parts.map((p) => p.trim()).join(" | ")} |`, `|---|---|---|---|${parts.map(() => "---").join("|")}|`);
    for (const r of engineRuns)
      out.push(
        `| ${r.door} | ${r.step} | ${s(r.wallMs)} | ${r.summary.engine!.totalS.toFixed(2)} | ${parts.map((p) => (r.summary.engine!.parts[p] ?? 0).toFixed(2)).join(" | ")} |`,
      );
  }
  return out.join("\n");
}

/** The provider calls outside the engine: CPU per call, schema builds, requests, and the profile's breakdown. */
export function providerCallsReport(c: ProviderCalls): string {
  const p = c.profile.processes[0];
  const out = [
    `krcloud's Bucket provider outside the engine (bench/provider-calls.ts, ${c.n.toLocaleString("en")} buckets through the stub's entry point, in a process of its own against the local cloud):`,
    "",
    "| figure | ms per call |",
    "|---|---|",
    ...Object.entries(c.msPerCall).map(([k, v]) => `| CPU of ${k} | ${v.toFixed(3)} |`),
    ...Object.entries(c.msPerSchemaBuild).map(([k, v]) => `| CPU to build the ${k} (zod) once | ${v.toFixed(3)} |`),
    "",
    `Requests per bucket over check, create, diff, read and delete: ${Object.entries(c.requestsPerResource)
      .map(([op, k]) => `${op} ${k.toFixed(2)}`)
      .join(", ")}.`,
  ];
  if (p) {
    const cats = Object.entries(p.categories).sort((a, b) => b[1] - a[1]);
    out.push(
      "",
      `Its CPU profile (${s(p.totalMs)} s sampled): ${cats.map(([k, v]) => `${k} ${s(v)}`).join(", ")}. Inclusive: ${Object.entries(p.functions)
        .map(([k, v]) => `${k} ${s(v)}`)
        .join(", ")}. Top self time: ${p.top.map((t) => `${t.name} ${t.ms.toFixed(0)} ms`).join("; ")}.`,
    );
  }
  return out.join("\n");
}

export type { DoorId, Step };
