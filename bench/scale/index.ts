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
 *                    (bench/floors/plugin.ts): what any Node.js native plugin pays
 *   Y  native YAML   N × `type: krcloud:objectstorage:Bucket` on the plugin
 *   YF its floor     the same YAML on the no-op plugin
 *   P  native Python N × pulumi_krcloud.objectstorage.Bucket (the wheel `make sdks` builds, `pulumi`
 *                    from PyPI in a virtualenv) on the plugin, through pulumi-language-python
 *
 * The floors return the inputs and outputs the real provider recorded in a warm-up run, so state
 * bytes per resource match and the difference is krcloud's own work. Steps: create (`up`), preview
 * and up with no changes, refresh, krcloud-drift, destroy; for each: wall time, CPU and peak RSS per
 * process role (bench/procs.ts), the engine's events (an --event-log FIFO, stamped on
 * arrival), the local cloud's request counters, checkpoint bytes per resource. Runs are interleaved:
 * each step runs door after door, pairs (door, floor) adjacent, the order rotating by pair and
 * alternating within a pair between repetitions; ratios are paired (adjacent runs), then the median.
 *
 *   node dist/bench/scale/index.js [--sizes 10000] [--plan-reps 1] [--plan-steps preview,up,...] [--cycles 1] [--doors K,F,...]
 *                                  [--skip-checkpoints-above N] [--study checkpoints] [--profile]
 *
 * Prints the tables; `make bench` writes them into docs/benchmarks.md (its scale section), `make
 * bench-scale` into the 10,000-resource section.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import { parseArgs } from "node:util";
import { DOORS, PAIRS, PLAN_STEPS } from "./doors";
import type { DoorId, RunResult, ScaleOptions, Step } from "./types";
import { totalCpu } from "./report";
import { closeBed, openBed, runStep, type Bed } from "./bed";
import { DOOR_LEGEND, scaleSection, writeSection } from "./report";
import { checkpointStudy, programStudy, programStudyReport, profileRuns, providerCalls, studyReport } from "./studies";

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
      for (let rep = 0; rep < opts.planReps; rep++) for (const step of opts.planSteps ?? PLAN_STEPS) await run(step, cycle * opts.planReps + rep, {});
      await run("destroy", cycle, skip);
    }
  }
  return { results, failures };
}

// ---------------------------------------------------------------------------------------------

/** Pair order of repetition `rep`: the pairs rotate, and within a pair the floor goes first every other time. */
function orderFor(rep: number, doors: DoorId[]): DoorId[] {
  const out: DoorId[] = [];
  for (let i = 0; i < PAIRS.length; i++) {
    const pair = PAIRS[(i + rep) % PAIRS.length]!;
    out.push(...(rep % 2 === 0 ? pair : [...pair].reverse()));
  }
  return out.filter((d) => doors.includes(d));
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "10000" },
      "plan-reps": { type: "string", default: "1" },
      "plan-steps": { type: "string", default: PLAN_STEPS.join(",") },
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
  const bed = await openBed(log, doors);
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
        `\`node dist/bench/scale/index.js --study program --sizes ${n} --plan-reps ${values["plan-reps"]} --write\`: preview and up with no changes of the native TS door's program in variants, beside native YAML, interleaved. ${took()}`,
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
        `\`node dist/bench/scale/index.js --study checkpoints --sizes ${values.sizes} --doors ${values.doors} --settings ${values.settings} --write\`: create then destroy, one run each, setting after setting. ${DOOR_LEGEND}. ${took()}`,
        "",
        studyReport(rows),
      ].join("\n");
      sections.push(body);
      section = ["bench-checkpoints", body];
    } else if (values.profile) {
      const calls = await providerCalls(bed, Number(values.profile));
      const runs = await profileRuns(bed, Number(values.profile), doors, log);
      const { profileReport, providerCallsReport } = await import("./profile");
      const body = [
        `## Profiles at ${Number(values.profile).toLocaleString("en")} resources (generated)`,
        "",
        `\`node dist/bench/scale/index.js --profile ${values.profile} --doors ${values.doors} --write\`: each step once more with \`--cpu-prof\` on every Node process and \`pulumi --profiling\` (engine, read with \`go tool pprof\`). ${DOOR_LEGEND}. ${took()}`,
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
        planSteps: values["plan-steps"].split(",") as Step[],
        log,
      };
      const { results, failures } = await measureScale(bed, opts);
      if (values.out) fs.writeFileSync(values.out, JSON.stringify(results));
      // `make bench-scale` runs every door and step; another selection says how it ran, in a section of its own.
      const selection = values.doors !== Object.keys(DOORS).join(",") || values["plan-steps"] !== PLAN_STEPS.join(",");
      const body = scaleSection(
        `Scale: ${sizes.map((n) => n.toLocaleString("en")).join(", ")} resources (${selection ? `\`node dist/bench/scale/index.js ${process.argv.slice(2).join(" ")}\`` : "make bench-scale"})`,
        results,
        failures,
        opts,
        (performance.now() - started) / 1000,
      );
      sections.push(body);
      section = [`bench-scale-${sizes.join("-")}${selection ? `-${doors.join("").toLowerCase()}` : ""}`, body];
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
