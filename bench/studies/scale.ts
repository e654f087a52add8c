/**
 * Scale: every door beside its floor at 200 and 1,000 resources (bench/scale/; `make bench-scale`
 * runs it at 10,000). KRCLOUD_BENCH_SIZES overrides the sizes (e.g. `20,200` while working on the
 * bench); `make bench-smoke` runs every door at 2 resources, of the plan steps only `up` and `drift`
 * (preview and refresh are the same CLI run with other words: 14 fewer Pulumi runs, about 2 minutes
 * of `make test`), and warms up only the two doors whose buckets the floors return (openBed's warmAll).
 */
import { measureScale } from "../scale";
import { closeBed, openBed } from "../scale/bed";
import { scaleSection } from "../scale/report";
import type { DoorId, ScaleOptions, Step } from "../scale/types";
import { sized, type Study } from "../study";

export const scaleStudy: Study = {
  name: "scale",
  async run(ctx) {
    const started = performance.now();
    const opts: ScaleOptions = {
      sizes: sized(ctx, (process.env.KRCLOUD_BENCH_SIZES ?? "200,1000").split(",").map(Number), [2]),
      planReps: sized(ctx, 2, 1),
      planSteps: sized<readonly Step[] | undefined>(ctx, undefined, ["up", "drift"]),
      cycles: 1,
      doors: ["K", "F", "T", "TF", "Y", "YF", "P"] as DoorId[],
      skipCheckpointsAbove: Infinity,
      log: ctx.log,
    };
    const bed = await openBed(opts.log, opts.doors, { warmAll: sized(ctx, true, false) });
    try {
      const { results, failures } = await measureScale(bed, opts);
      if (ctx.size === "smoke" && failures.length > 0) throw new Error(`scale: ${failures.join("; ")}`);
      const title = `Scale: ${opts.sizes.map((n) => n.toLocaleString("en")).join(" and ")} resources through each door`;
      return { rows: [], section: scaleSection(title, results, failures, opts, (performance.now() - started) / 1000) };
    } finally {
      await closeBed(bed);
    }
  },
};
