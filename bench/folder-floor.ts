/**
 * BucketFolder at the object store's floor (issue 39; `node dist/bench/folder-floor.js [--files N]
 * [--objects M]`; part of `make bench` at 10,000 files and 1,000 objects), against a local cloud in
 * this process with the real Pulumi CLI and the native plugin (YAML programs):
 *
 * - a deploy from a fresh clone of N unchanged files (another path, new file times, no hash cache):
 *   the requests by operation, the wall time of `pulumi up`, and the plugin's CPU time in check (it
 *   hashes every file once) beside one MD5 pass over the folder in this process; beside it
 *   `swift upload --skip-identical` (python-swiftclient) of the same clone into a container holding
 *   the same files, which compares file by file (a HEAD each);
 * - the move of M BucketObjects (one per file, as pulumi-synced-folder's managed mode declares them)
 *   into one BucketFolder with `adopt` in one `up`: the requests by operation (no PUT, no DELETE),
 *   its wall time, and the state's bytes before and after.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { contentTypeOf } from "../provider/objectstorage/folder/scan";
import { providerConfig } from "../tests/harness/engine";
import { makeFiles, run, swiftCommand, timed, timedWithHandlerTimes, writeBucketProgram } from "./folder";
import { withBed } from "./bed";
import { figuresStudy, runAlone, sumOf } from "./study";

function md5Pass(dir: string): number {
  const t = performance.now();
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, rel);
    if (fs.statSync(file).isFile()) createHash("md5").update(fs.readFileSync(file)).digest("hex");
  }
  return performance.now() - t;
}

export async function folderFloorBenchmarks(o: { files: number; objects: number }, log: (line: string) => void) {
  const swift = await swiftCommand(log);
  return withBed({ label: "floor", project: "benchfloor", plugin: true }, async ({ cloud, sandbox, project }) => {
    const counts = () => cloud.control.counters().byOperation;
    const requestsSince = (before: Record<string, number>): Record<string, number> => {
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(counts()))
        if (k.startsWith("object-storage.") && v - (before[k] ?? 0) > 0) out[k.slice("object-storage.".length)] = v - (before[k] ?? 0);
      return out;
    };

    const content = path.join(sandbox.root, "content");
    const totalBytes = makeFiles(content, o.files);
    log(`bench-floor: ${o.files} files, ${(totalBytes / 1024 / 1024).toFixed(0)} MiB`);

    // The first deploy, from the working copy.
    const folderDir = path.join(sandbox.root, "folder");
    writeBucketProgram(
      folderDir,
      "krcloud-bench-floor",
      ["  content:", "    type: krcloud:objectstorage:BucketFolder", '    properties: { bucket: "${files.name}", path: "${folder}" }'],
      ["  folder: { type: String }"],
    );
    const stack = await sandbox.createStack(folderDir, "floor", providerConfig(project, { folder: { value: content } }));
    await stack.up({ color: "never" });

    // The clone: the same files at another path, new inodes and times; no hash cache.
    const clone = path.join(sandbox.root, "clone");
    fs.cpSync(content, clone, { recursive: true });
    const md5PassMs = md5Pass(clone);
    await stack.setConfig("folder", { value: clone });
    const before = { ...counts() };
    const [cloneUpMs, calls] = await timedWithHandlerTimes(
      path.join(sandbox.root, "handler-times.jsonl"),
      { KRCLOUD_FOLDER_HASH_CACHE: fs.mkdtempSync(path.join(sandbox.root, "hashes-")) },
      () => stack.up({ color: "never" }),
    );
    const cloneRequests = requestsSince(before);
    const cloneCheckCpuMs = calls.filter((c) => c.handler === "check").reduce((n, c) => n + c.cpuMs, 0);
    log(
      `bench-floor: fresh clone up ${(cloneUpMs / 1000).toFixed(1)} s, requests ${JSON.stringify(cloneRequests)}, check CPU ${(cloneCheckCpuMs / 1000).toFixed(2)} s (one MD5 pass ${(md5PassMs / 1000).toFixed(2)} s)`,
    );

    // swift upload --skip-identical of the same clone, into a container that holds the same files.
    const storageUrl = `${cloud.url}/object-storage/v1/${project.projectId}`;
    const swiftArgs = (extra: string[]) => ["--os-storage-url", storageUrl, "--os-auth-token", project.token, "upload", ...extra, "swift-upload", "."];
    await run(swift, swiftArgs([]), { cwd: content });
    const swiftBefore = { ...counts() };
    const [swiftMs] = await timed(() => run(swift, swiftArgs(["--skip-identical"]), { cwd: clone }));
    const swiftRequests = requestsSince(swiftBefore);
    log(`bench-floor: swift upload --skip-identical ${(swiftMs / 1000).toFixed(1)} s, requests ${JSON.stringify(swiftRequests)}`);

    // The move: M BucketObjects of the first M files, then one BucketFolder over the same keys.
    const moved = path.join(sandbox.root, "moved");
    const rels = (fs.readdirSync(content, { recursive: true }) as string[])
      .filter((f) => fs.statSync(path.join(content, f)).isFile())
      .map((f) => f.split(path.sep).join("/"))
      .sort()
      .slice(0, o.objects);
    for (const rel of rels) {
      fs.mkdirSync(path.dirname(path.join(moved, rel)), { recursive: true });
      fs.copyFileSync(path.join(content, rel), path.join(moved, rel));
    }
    const moveDir = path.join(sandbox.root, "move");
    writeBucketProgram(
      moveDir,
      "krcloud-bench-move",
      rels.flatMap((rel, i) => [
        `  o${i}:`,
        "    type: krcloud:objectstorage:BucketObject",
        `    properties: { bucket: "\${files.name}", key: ${JSON.stringify(`site/${rel}`)}, source: ${JSON.stringify(path.join(moved, rel))}, contentType: ${JSON.stringify(contentTypeOf(rel, {}, "application/octet-stream"))} }`,
      ]),
    );
    const move = await sandbox.createStack(moveDir, "move", providerConfig(project));
    await move.up({ color: "never" });
    const stateBytesBefore = JSON.stringify((await move.exportStack()).deployment).length;
    writeBucketProgram(moveDir, "krcloud-bench-move", [
      "  site:",
      "    type: krcloud:objectstorage:BucketFolder",
      `    properties: { bucket: "\${files.name}", path: ${JSON.stringify(moved)}, prefix: site/, adopt: true }`,
    ]);
    const moveBefore = { ...counts() };
    const [moveUpMs] = await timed(() => move.up({ color: "never" }));
    const moveRequests = requestsSince(moveBefore);
    const stateBytesAfter = JSON.stringify((await move.exportStack()).deployment).length;
    log(
      `bench-floor: the move of ${o.objects} BucketObjects ${(moveUpMs / 1000).toFixed(1)} s, requests ${JSON.stringify(moveRequests)}, state ${stateBytesBefore} -> ${stateBytesAfter} B`,
    );

    return {
      files: o.files,
      totalBytes,
      /** The fresh clone's `pulumi up`: wall time, and the object storage requests by operation. */
      cloneUpMs,
      cloneRequests,
      /** The plugin's CPU time in check during that up (hashing, globbing, stats), summed over its processes. */
      cloneCheckCpuMs,
      /** One MD5 pass over the folder in this process: what hashing each file once costs here. */
      md5PassMs,
      /** `swift upload --skip-identical` of the same clone. */
      swiftMs,
      swiftRequests,
      objects: o.objects,
      /** The move: `pulumi up` wall time, requests by operation, state bytes before and after. */
      moveUpMs,
      moveRequests,
      stateBytesBefore,
      stateBytesAfter,
    };
  });
}

/** A fresh clone's no-op deploy of 10,000 files, and the move of 1,000 BucketObjects into one folder (`make bench-smoke`: 20 files, 5 objects). */
export const folderFloorStudy = figuresStudy(
  "folder-floor",
  { full: { files: 10_000, objects: 1_000 }, smoke: { files: 20, objects: 5 } },
  folderFloorBenchmarks,
  (ff) => {
    const listed = (r: Record<string, number>) =>
      Object.entries(r)
        .map(([k, v]) => `${v} ${k}`)
        .join(", ");
    return {
      rows: [
        {
          figure: `deploy from a fresh clone of ${ff.files.toLocaleString("en")} unchanged files (no hash cache, new file times) vs swift upload --skip-identical of the same clone (s; requests)`,
          ours: `${(ff.cloneUpMs / 1000).toFixed(1)} s; ${listed(ff.cloneRequests)}; check CPU ${(ff.cloneCheckCpuMs / 1000).toFixed(2)} s (one MD5 pass: ${(ff.md5PassMs / 1000).toFixed(2)} s)`,
          baseline: `${(ff.swiftMs / 1000).toFixed(1)} s; ${listed(ff.swiftRequests)}`,
          ratio: `${(sumOf(ff.swiftRequests) / Math.max(1, sumOf(ff.cloneRequests))).toFixed(0)}x fewer requests`,
          goal: `0 PUTs, at most ${Math.ceil(ff.files / 1000)} listing pages, each file hashed once`,
        },
        {
          figure: `the move of ${ff.objects.toLocaleString("en")} BucketObjects into one BucketFolder (adopt) in one up (s; requests; state bytes before and after)`,
          ours: `${(ff.moveUpMs / 1000).toFixed(1)} s; ${listed(ff.moveRequests)}; ${ff.stateBytesAfter.toLocaleString("en")} B`,
          baseline: `${ff.stateBytesBefore.toLocaleString("en")} B before`,
          ratio: `${(ff.stateBytesBefore / ff.stateBytesAfter).toFixed(1)}x smaller state`,
          goal: "0 PUTs, 0 DELETEs",
        },
      ],
    };
  },
);

if (require.main === module) {
  runAlone("bench-floor", folderFloorStudy, { print: true });
}
