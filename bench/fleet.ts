/**
 * The fleet check's benchmark (`node dist/bench/fleet.js [--stacks M] [--resources N] [--shards 1,2,4]
 * [--budget R]`; part of `make bench`): a planted fleet (tests/harness/engine/fleet.ts) of M stacks
 * and about N resources in all (default 12 and 1,000), with 20 policy violations and 10 drifts,
 * checked with `--policy krcloud --request-budget R` as 1, 2 and 4 shards run side by side (as CI
 * runners would; here they share the machine), then merged, while the local cloud answers 5% of
 * reads with 429 and Retry-After.
 *
 * Per shard count: the fleet's wall time (the slowest shard, then the merge), the requests the local
 * cloud counted and the busiest second of its request log against the budget. Every merged report
 * must find exactly what was planted, and every one must equal the unsharded one (times aside):
 * a benchmark of a wrong check measures nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { DriftReport } from "../drift/model";
import { startLocalCloud } from "../local-cloud";
import {
  busiestSecond,
  busiestWindow,
  deployFleet,
  fleetFindings,
  fleetPlan,
  newProject,
  plantFleet,
  requestsSince,
  runNode,
  Sandbox,
} from "../tests/harness/engine";
import { entry } from "../tests/harness/entries";
import { timed } from "./measure";
import { sized, type Study } from "./study";

export interface FleetFigures {
  stacks: number;
  resources: number;
  budget: number;
  violations: number;
  drifts: number;
  /** Per shard count: the fleet's wall time, the requests sent, the busiest second of the log. */
  runs: { shards: number; wallMs: number; requests: number; busiest: number }[];
}

const DRIFT = entry("drift");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The stacks of the fleet: a third production, the rest dev and staging. */
function stackNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${["prod", "dev", "staging"][i % 3]}-${String(Math.floor(i / 3) + 1).padStart(2, "0")}`);
}

export async function fleetBenchmarks(
  o: { stacks: number; resources: number; shards: number[]; budget: number; violations?: number; drifts?: number },
  log: (line: string) => void,
): Promise<FleetFigures> {
  const violations = o.violations ?? 20;
  const drifts = o.drifts ?? 10;
  const cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated", requestLogCapacity: 200_000 });
  const sandbox = new Sandbox({ label: "bench-fleet" });
  try {
    const project = await newProject(cloud, "benchfleet");
    const suffix = project.projectId.slice(-8);
    const objects = Math.max(1, Math.round(o.resources / o.stacks) - 1);
    const { plan, expected } = fleetPlan(stackNames(o.stacks), objects, violations, drifts, suffix);
    const [upMs, deployed] = await timed(() => deployFleet(sandbox, project, plan, suffix, 4));
    log(`up of ${o.stacks} stacks of ${objects + 1} resources (context): ${seconds(upMs)}`);
    await plantFleet(project, plan, deployed.stacks);
    for (const method of ["GET", "HEAD"]) await project.control.addFault({ method, probability: 0.05, action: "error", status: 429, retryAfter: 1 });

    const runs: FleetFigures["runs"] = [];
    let whole: string | undefined;
    for (const n of o.shards) {
      const out = fs.mkdtempSync(path.join(sandbox.root, `shards-${n}-`));
      const { lastSeq } = await requestsSince(project, Number.MAX_SAFE_INTEGER);
      const [wallMs, merged] = await timed(async () => {
        const codes = await Promise.all(
          Array.from({ length: n }, (_, i) =>
            runNode(
              DRIFT,
              [
                "--stack",
                "*",
                "--shard",
                `${i + 1}/${n}`,
                "--policy",
                "krcloud",
                "--request-budget",
                String(o.budget),
                "--out",
                `json=${path.join(out, `shard-${i + 1}.json`)}`,
              ],
              sandbox.env(),
              deployed.dir,
            ),
          ),
        );
        const failed = codes.findIndex((c) => c.code === 1);
        if (failed >= 0) throw new Error(`shard ${failed + 1}/${n} failed: ${codes[failed]!.stderr}`);
        const m = await runNode(
          DRIFT,
          ["merge", ...codes.map((_, i) => path.join(out, `shard-${i + 1}.json`)), "--format", "json"],
          sandbox.env(),
          deployed.dir,
        );
        return JSON.parse(m.stdout) as DriftReport;
      });
      const { requests } = await requestsSince(project, lastSeq);
      const found = fleetFindings(merged);
      if (JSON.stringify(found) !== JSON.stringify(expected))
        throw new Error(`${n} shard(s) found ${JSON.stringify(found)}, planted ${JSON.stringify(expected)}`);
      const text = JSON.stringify(merged, (k, v: unknown) => (k === "generatedAt" || k === "durationMs" ? "T" : v));
      whole ??= text;
      if (text !== whole) throw new Error(`the merged report of ${n} shards differs from the first run's`);
      const busiest = busiestSecond(requests);
      if (busiest > o.budget) {
        const window = busiestWindow(requests).map((r) => `${r.time} ${r.service}.${r.operation} ${r.status}`);
        throw new Error(`${n} shard(s): ${busiest} requests in one second, over the budget of ${o.budget}:\n${window.join("\n")}`);
      }
      runs.push({ shards: n, wallMs, requests: requests.length, busiest });
      log(
        `fleet check of ${o.stacks} stacks as ${n} shard(s): ${seconds(wallMs)}; ${requests.length} requests, at most ${busiest} in a second (budget ${o.budget})`,
      );
    }
    const resources = JSON.parse(whole!) as DriftReport;
    return {
      stacks: o.stacks,
      resources: resources.stacks.reduce((a, s) => a + s.counts.resources, 0),
      budget: o.budget,
      violations,
      drifts,
      runs,
    };
  } finally {
    await cloud.close();
    sandbox.cleanup();
  }
}

export const fleetStudy: Study = {
  name: "fleet",
  async run(ctx) {
    const full = { stacks: 12, resources: 1000, shards: [1, 2, 4], budget: 40, violations: 20, drifts: 10 };
    const smoke = { stacks: 2, resources: 6, shards: [1, 2], budget: 10, violations: 2, drifts: 1 };
    const fl = await fleetBenchmarks(sized(ctx, full, smoke), ctx.log);
    const [one, ...more] = fl.runs;
    return {
      rows: [
        {
          figure: `fleet check (--policy, --request-budget ${fl.budget}) of ${fl.stacks} stacks, ${fl.resources.toLocaleString("en")} resources, ${fl.violations} violations and ${fl.drifts} drifts planted, 5% of reads 429: ${more.map((r) => r.shards).join(" and ")} shards vs 1 (s; busiest second)`,
          ours: more.map((r) => `${(r.wallMs / 1000).toFixed(1)} s; ${r.busiest}`).join(", "),
          baseline: `${(one!.wallMs / 1000).toFixed(1)} s; ${one!.busiest}`,
          ratio: more.map((r) => `${(one!.wallMs / r.wallMs).toFixed(2)}x`).join(", "),
          goal: `every planted item, no other; merged = unsharded; busiest second <= ${fl.budget}: met`,
        },
      ],
    };
  },
};

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      stacks: { type: "string" },
      resources: { type: "string" },
      shards: { type: "string" },
      budget: { type: "string" },
      violations: { type: "string" },
      drifts: { type: "string" },
    },
  });
  fleetBenchmarks(
    {
      stacks: Number(values.stacks ?? 12),
      resources: Number(values.resources ?? 1000),
      shards: (values.shards ?? "1,2,4").split(",").map(Number),
      budget: Number(values.budget ?? 40),
      violations: Number(values.violations ?? 20),
      drifts: Number(values.drifts ?? 10),
    },
    (l) => process.stdout.write(`${l}\n`),
  ).then(
    () => undefined,
    (e: unknown) => {
      process.stderr.write(`bench-fleet: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
