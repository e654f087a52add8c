/**
 * `make bench`: figures measured in one run on this machine, each beside a conventional baseline
 * run in the same process, compared as ratios (these machines are noisy). Prints one table, ratios
 * first, and writes docs/benchmarks.md; asserts nothing. `make bench-smoke` (`--smoke`, part of
 * `make test`) runs every study at a tiny size and writes nothing: it proves each still runs.
 *
 * One file per study (bench/study.ts says what a study is), in the order they run:
 * - Transport: small requests through the keep-alive pool vs a new connection each (studies/transport.ts).
 * - Bulk paths: listing and emptying a 1,500-object bucket with the client vs the naive client (one
 *   request at a time, a new connection each, no paging help; studies/bulk.ts).
 * - Settle detection: our waiter against a conventional one on the local cloud's virtual clock (studies/settle.ts).
 * - State size: bytes of code stored per resource by a naive dynamic provider (one that closes over
 *   a client the obvious way) vs ours (the stub that requires the installed package; studies/state-size.ts).
 * - A 3 GiB sparse file uploaded by BucketObject: time and the provider process's peak memory (studies/large-upload.ts).
 * - The figures that need the real Pulumi CLI: parallel convergence, the drift check's cost, state
 *   size, user-facing times, real Redis (engine.ts).
 * - `make demo`, the real target, first and then with nothing to do (demo.ts; goal < 15 s).
 * - krcloud-drift of a 1,000-resource stack (time, requests per resource) and of 20 stacks
 *   concurrently against one after the other (drift.ts).
 * - Fewer reads: requests per resource of a refresh and of a drift check (its reads and its share of
 *   the unmanaged discovery) of 1,000 resources of every type, with reads answered from list pages
 *   off and on (studies/reads.ts, planted by studies/reads-plant.ts).
 * - A planted fleet of 12 stacks and 1,000 resources checked with --policy and a request budget as
 *   1, 2 and 4 shards, merged (wall time, the busiest second against the budget; fleet.ts).
 * - `pulumi do krcloud:objectstorage:Bucket list --all` of 1,000 buckets (the plugin's List) beside
 *   `krcloud-drift --unmanaged` on the same project (time, requests; list.ts).
 * - A folder of 10,000 files: one BucketFolder beside `swift upload` and BucketObjects (folder.ts).
 * - BucketFolder at the object store's floor (folder-floor.ts): a fresh clone's no-op deploy of
 *   10,000 files beside `swift upload --skip-identical`, and the move of 1,000 BucketObjects into one
 *   folder (requests, state bytes before and after).
 * - Credentials: a 1,000-resource preview with only an access key beside the same with a static
 *   token, and the requests renewal adds (credentials.ts).
 * - A cache cluster of 100,000 keys replaced keeping its data (a new name, the same name) beside a
 *   plain replacement, and its backup's size (cache-replacement.ts; KRCLOUD_BENCH_CACHE_KEYS overrides).
 * - Scale: 200 and 1,000 buckets through each door (dynamic TS, native TS, native YAML, native
 *   Python) beside each door's no-op floor (Python has none), every step from create to destroy
 *   (studies/scale.ts; KRCLOUD_BENCH_SIZES overrides the sizes, e.g. `20,200` while working on the bench).
 *
 * `KRCLOUD_BENCH_ONLY=<name>[,<name>...]` runs only the studies named (`reads`, `drift`, ...) and
 * writes nothing, at either size: for working on one study without the others' minutes.
 *
 * docs/benchmarks.md: this run's part is the section between `<!-- begin make-bench -->` and
 * `<!-- end make-bench -->`; what follows it (the analysis, the sections of `make bench-scale`) stays.
 */
import * as os from "node:os";
import { cacheReplacementStudy } from "./cache-replacement";
import { credentialsStudy } from "./credentials";
import { demoStudy } from "./demo";
import { driftStudy } from "./drift";
import { engineStudy } from "./engine";
import { fleetStudy } from "./fleet";
import { folderStudy } from "./folder";
import { folderFloorStudy } from "./folder-floor";
import { listStudy } from "./list";
import { writeSection } from "./scale/report";
import { bulkStudy } from "./studies/bulk";
import { largeUploadStudy } from "./studies/large-upload";
import { readsStudy } from "./studies/reads";
import { scaleStudy } from "./studies/scale";
import { settleStudy } from "./studies/settle";
import { stateSizeStudy } from "./studies/state-size";
import { transportStudy } from "./studies/transport";
import type { Row, Size, Study } from "./study";

/** Every study, in the order it runs. */
export const STUDIES: readonly Study[] = [
  transportStudy,
  bulkStudy,
  settleStudy,
  stateSizeStudy,
  largeUploadStudy,
  engineStudy,
  demoStudy,
  driftStudy,
  readsStudy,
  fleetStudy,
  listStudy,
  folderStudy,
  folderFloorStudy,
  credentialsStudy,
  cacheReplacementStudy,
  scaleStudy,
];

async function main(): Promise<void> {
  const size: Size = process.argv.includes("--smoke") ? "smoke" : "full";
  const started = performance.now();
  const rows: Row[] = [];
  const notes: string[] = [];
  const sections: string[] = [];
  const log = (line: string) => console.error(line);
  const only = selected(process.env.KRCLOUD_BENCH_ONLY);
  for (const study of only ?? STUDIES) {
    const t = performance.now();
    log(`bench: ${study.name} (${size})`);
    const r = await study.run({ size, log });
    rows.push(...r.rows);
    notes.push(...(r.notes ?? []));
    if (r.section !== undefined) sections.push(r.section);
    log(`bench: ${study.name} took ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const table = [
    // Ratios first: the machine is noisy, the ratio of two figures measured together is what holds.
    "| ratio | figure | ours | baseline | goal |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.ratio} | ${r.figure} | ${r.ours} | ${r.baseline} | ${r.goal} |`),
  ].join("\n");
  console.log(table);
  for (const s of sections) console.log(s);
  const minutes = (performance.now() - started) / 60_000;
  if (only !== undefined) {
    log(`bench: ${only.map((s) => s.name).join(", ")} ran in ${minutes.toFixed(1)} min (KRCLOUD_BENCH_ONLY; docs/benchmarks.md untouched)`);
    return;
  }
  if (size === "smoke") {
    log(`bench-smoke: ${STUDIES.length} studies ran in ${minutes.toFixed(1)} min (figures at the smoke size mean nothing; docs/benchmarks.md untouched)`);
    return;
  }
  const scale = sections.join("\n\n");
  const doc = `# Benchmarks

Written by \`make bench\` (bench/index.ts) from one run; every figure beside its baseline measured in
the same run, ratios first. Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version};
${new Date().toISOString().slice(0, 10)}; the whole run took ${minutes.toFixed(0)} min.

${table}

${notes.join("\n")}

Baselines: a new connection per request (transport and the naive bulk client, which also lists and
deletes one request at a time); a naive dynamic provider that closes over the client (state size).

Settle detection runs on the local cloud's virtual clock (each waiter sleep advances it), so the
120 s case takes milliseconds of wall time; the cluster's status is computed from that clock. The two
settle goals cannot both hold for every settle time S with a status API that gives no ETA: a lag
of at most max(1 s, S/10) for any S needs a poll every second for 10 s and then every 10 % of the
time waited, about 36 polls by 120 s; 15 polls by 120 s leave gaps of up to 40 % of S. The waiter
keeps the lag goal for every S (a pause is never more than a tenth of the time waited, nor over
15 s) and pays for it in status calls before 150 s; after that it polls every 15 s, like a
conventional waiter every 10 s.

Parallel convergence, the drift check, state size and the example times run the real Pulumi CLI
(bench/engine.ts) against an in-process local cloud with simulated cache nodes: the instance
sets settle through a 5-second duration transition on its clock (real time here, since the engine
cannot advance it); the examples and the real Redis row run on real redis-server nodes;
the critical path is those 5 s plus an \`up\` of the same program declaring nothing (same lookups).
The notes split each parallel up by the engine's events: how far apart the creates started (the
provider host serialising them would spread them), when they returned (the settle plus the
waiter's lag), and how long the engine took after the last one (writing the state of every step
to the file backend, stack outputs, plugin shutdown), which is the engine's and grows with the
number of resources.
The drift check's requests are the local cloud's counters around one \`krcloud-drift\` run, which
also runs the program (its lookups are counted). Code stored per resource is the serialized
\`__provider\`, kept twice per dynamic resource (inputs and outputs); the native plugin stores none.
Memory of the local cloud is its heap and external memory after a collection, per 1,000 resources
(buckets and objects; object bodies live on disk).

${scale}
`;
  writeSection("make-bench", doc, true);
}

/** The studies `KRCLOUD_BENCH_ONLY` names, in their order; undefined when it is unset or empty. */
export function selected(only: string | undefined): Study[] | undefined {
  const names = (only ?? "")
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  if (names.length === 0) return undefined;
  const unknown = names.filter((n) => !STUDIES.some((s) => s.name === n));
  if (unknown.length > 0) throw new Error(`KRCLOUD_BENCH_ONLY: no study ${unknown.join(", ")} (there are: ${STUDIES.map((s) => s.name).join(", ")})`);
  return STUDIES.filter((s) => names.includes(s.name));
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
