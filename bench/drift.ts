/**
 * krcloud-drift's benchmarks (`node dist/bench/drift.js [--resources N] [--stacks M]`; part
 * of `make bench`), against a local cloud in this process with the real Pulumi CLI:
 *
 * - a drift check of a stack of N resources (default 1,000: a bucket and its objects): wall time
 *   and the HTTP requests the local cloud counted during the check, per resource;
 * - M small stacks (default 20, five resources each) checked one after the other
 *   (`--concurrency 1`), at the machine's default (its CPUs) and all at once (`--concurrency M`).
 *
 * Prints one line per figure; the stacks are built first (their `up` times are printed too, as
 * context). Every check must exit 0 (no drift): a benchmark of a failing check measures nothing.
 */
import * as os from "node:os";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { providerConfig, runNode, type CloudProject, type Sandbox } from "../tests/harness/engine";
import { lastRequestSeq, timed } from "./measure";
import { writeNodeProgram } from "./program";
import { entry } from "../tests/harness/entries";
import { withBed } from "./bed";
import { figuresStudy, runAlone } from "./study";

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const krcloud = require("pulumi-krcloud");
const count = new pulumi.Config().requireNumber("objects");
const bucket = new krcloud.objectstorage.Bucket("bucket", { forceDestroy: true });
for (let i = 0; i < count; i++) {
  new krcloud.objectstorage.BucketObject("object-" + i, { bucket: bucket.name, key: "file-" + i + ".txt", content: "object " + i + "\\n" });
}
`;

function program(sandbox: Sandbox): string {
  return writeNodeProgram(path.join(sandbox.root, "programs", "bench-drift"), "krcloud-bench-drift", PROGRAM, { linkModules: true });
}

async function deploy(sandbox: Sandbox, dir: string, p: CloudProject, name: string, objects: number): Promise<Stack> {
  const stack = await sandbox.createStack(dir, name, providerConfig(p, { "krcloud-bench-drift:objects": { value: String(objects) } }));
  await stack.up({ color: "never", parallel: 64 });
  return stack;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function drift(sandbox: Sandbox, dir: string, args: string[]): Promise<number> {
  const r = await runNode(entry("drift"), ["--cwd", dir, "--format", "json", ...args], sandbox.env());
  if (r.code !== 0) throw new Error(`krcloud-drift ${args.join(" ")} exited ${r.code}: ${r.stderr}${r.stdout.slice(0, 2000)}`);
  return (JSON.parse(r.stdout) as { stacks: unknown[] }).stacks.length;
}

export interface DriftFigures {
  resources: number;
  /** The drift check of the big stack: wall time and the requests the local cloud counted. */
  checkMs: number;
  requests: number;
  stacks: number;
  /** The small stacks checked one after the other, at the default concurrency, all at once. */
  oneMs: number;
  defaultMs: number;
  allMs: number;
}

export async function driftBenchmarks(o: { resources: number; stacks: number }, log: (line: string) => void): Promise<DriftFigures> {
  return withBed({ label: "drift", project: "benchdrift" }, async ({ cloud, sandbox, project }) => {
    const dir = program(sandbox);

    const [upMs] = await timed(() => deploy(sandbox, dir, project, "big", o.resources - 1));
    log(`up of a ${o.resources}-resource stack (context): ${seconds(upMs)}`);
    const before = await lastRequestSeq(cloud.controlUrl);
    const [checkMs] = await timed(() => drift(sandbox, dir, ["--stack", "big"]));
    const sent = (await lastRequestSeq(cloud.controlUrl)) - before;
    log(`drift check of a ${o.resources}-resource stack: ${seconds(checkMs)}; ${sent} requests, ${(sent / o.resources).toFixed(2)} per resource`);

    const names = Array.from({ length: o.stacks }, (_, i) => `small-${String(i + 1).padStart(2, "0")}`);
    const [smallUpMs] = await timed(async () => {
      for (const n of names) await deploy(sandbox, dir, project, n, 4);
    });
    log(`up of ${o.stacks} stacks of 5 resources, one after the other (context): ${seconds(smallUpMs)}`);
    const stacks = ["--stack", "small-*"];
    const [oneMs, n1] = await timed(() => drift(sandbox, dir, [...stacks, "--concurrency", "1"]));
    const [defMs] = await timed(() => drift(sandbox, dir, stacks));
    const [allMs, nAll] = await timed(() => drift(sandbox, dir, [...stacks, "--concurrency", String(o.stacks)]));
    if (n1 !== o.stacks || nAll !== o.stacks) throw new Error(`expected ${o.stacks} stacks in the reports, got ${n1} and ${nAll}`);
    log(`drift check of ${o.stacks} stacks one after the other (--concurrency 1): ${seconds(oneMs)}`);
    log(
      `drift check of ${o.stacks} stacks at the default concurrency (${os.availableParallelism()}, the machine's CPUs): ${seconds(defMs)} (${(oneMs / defMs).toFixed(2)}x faster)`,
    );
    log(`drift check of ${o.stacks} stacks all at once (--concurrency ${o.stacks}): ${seconds(allMs)} (${(oneMs / allMs).toFixed(2)}x faster)`);
    return { resources: o.resources, checkMs, requests: sent, stacks: o.stacks, oneMs, defaultMs: defMs, allMs };
  });
}

/** A 1,000-resource stack, and 20 stacks concurrently against one after the other (`make bench-smoke`: 10 resources, 2 stacks). */
export const driftStudy = figuresStudy("drift", { full: { resources: 1000, stacks: 20 }, smoke: { resources: 10, stacks: 2 } }, driftBenchmarks, (d) => {
  return {
    rows: [
      {
        figure: `krcloud-drift of a ${d.resources.toLocaleString("en")}-resource stack, a bucket and its objects (s; requests per resource)`,
        ours: `${(d.checkMs / 1000).toFixed(1)} s; ${(d.requests / d.resources).toFixed(2)}`,
        baseline: "-",
        ratio: "-",
        goal: `<= 1 request per resource: ${d.requests <= d.resources ? "met" : "missed"}`,
      },
      {
        figure: `krcloud-drift of ${d.stacks} stacks: concurrent (default, ${os.availableParallelism()} at a time; all at once) vs one after the other (s)`,
        ours: `${(d.defaultMs / 1000).toFixed(1)}; ${(d.allMs / 1000).toFixed(1)}`,
        baseline: `${(d.oneMs / 1000).toFixed(1)}`,
        ratio: `${(d.oneMs / d.defaultMs).toFixed(2)}x faster (default)`,
        goal: "-",
      },
    ],
  };
});

if (require.main === module) {
  runAlone("bench-drift", driftStudy, { print: false });
}
