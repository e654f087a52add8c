/** The scale benchmarks' tables (index.ts) and the sections of docs/benchmarks.md they own. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../tests/harness/engine";
import { ROLES, type Role } from "../procs";
import { DOORS, PLAN_STEPS, STEPS } from "./doors";
import type { DoorId, RunResult, ScaleOptions, Step } from "./types";

export function totalCpu(r: RunResult): number {
  return ROLES.reduce((a, role) => a + r.usage.cpuMs[role], 0);
}

export function median(xs: number[]): number {
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
export const s1 = (ms: number): string => (ms / 1000).toFixed(1);
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

  if (has("P")) out.push("", ...pythonTable(results, opts));

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

/** The CPU of the language runtime in a run: the program's process and the language host that starts it. */
const runtimeCpu = (r: RunResult): number => r.usage.cpuMs.program + r.usage.cpuMs.host;

/** Native Python beside native YAML and native TS: paired wall ratios, and the language runtime's share of the step's CPU. */
function pythonTable(results: RunResult[], opts: { sizes: number[]; doors: DoorId[] }): string[] {
  const doors = (["T", "Y", "P"] as DoorId[]).filter((d) => opts.doors.includes(d));
  const out = [
    "Native Python (P) beside native YAML (Y) and native TS (T): wall time paired as above, and the language runtime's share of the step's CPU, median of the runs: the program's process and its language host (`pulumi-language-python` and the Python process it starts; `pulumi-language-nodejs` and Node; the YAML host evaluates the program itself) over the CPU of every process of the step (engine, plugin, hosts), with the runtime's CPU seconds beside it:",
    "",
    `| N | step | P/Y wall | P/T wall | ${doors.map((d) => `runtime share ${d}`).join(" | ")} |`,
    `|---|---|---|---|${doors.map(() => "---").join("|")}|`,
  ];
  for (const n of opts.sizes)
    for (const step of STEPS) {
      if (runsOf(results, "P", n, step).length === 0) continue;
      const ratio = (b: DoorId): string => (opts.doors.includes(b) ? fmtRatio(pairedRatio(results, "P", b, n, step, (r) => r.wallMs)) : "-");
      const share = (d: DoorId): string => {
        const runs = runsOf(results, d, n, step);
        if (runs.length === 0) return "-";
        return `${(100 * median(runs.map((r) => runtimeCpu(r) / totalCpu(r)))).toFixed(0)} % (${s1(median(runs.map(runtimeCpu)))} s)`;
      };
      out.push(`| ${n} | ${step} | ${ratio("Y")} | ${ratio("T")} | ${doors.map(share).join(" | ")} |`);
    }
  return out;
}

function skipNote(results: RunResult[], n: number, step: Step): string {
  return results.some((r) => r.n === n && r.step === step && r.skipCheckpoints) ? " (PULUMI_SKIP_CHECKPOINTS)" : "";
}

export const DOOR_LEGEND = Object.values(DOORS)
  .map((d) => `${d.id} ${d.label}`)
  .join(", ");

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
    `${DOOR_LEGEND}. Sizes ${opts.sizes.map((n) => n.toLocaleString("en")).join(", ")}; ${opts.cycles} cycle(s) of create, ${opts.planReps} round(s) of the plan steps (${(opts.planSteps ?? PLAN_STEPS).join(", ")}), destroy; interleaved door by door with each door's floor adjacent, ratios paired then the median [min–max]. ${skipped.length ? `At ${skipped.join(", ")} resources create and destroy ran with PULUMI_SKIP_CHECKPOINTS=true (one checkpoint at the end instead of two per step; see "State writes"); every other step as users run it.` : "Every step as users run it (file backend, checkpoint per step, default --parallel)."} Took ${(seconds / 60).toFixed(1)} min; load average ${os.loadavg()[0]!.toFixed(1)} at the end on ${os.cpus().length} cores.`,
    "",
    ...report.goals.map((g) => `- ${g.text}: ${g.met ? "met" : "missed"}`),
    ...failures.map((f) => `- failed: ${f}`),
    "",
    report.markdown,
  ].join("\n");
}
