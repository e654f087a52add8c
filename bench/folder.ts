/**
 * A folder of files through Pulumi (`node dist/bench/folder.js [--files N] [--objects M]`; part of
 * `make bench`), against a local cloud in this process with the real Pulumi CLI and the native
 * plugin (YAML programs):
 *
 * - N files (default 10,000; sizes 1 KiB to 1 MiB, nine in ten at most 16 KiB) as one BucketFolder:
 *   `pulumi up` beside `swift upload` of python-swiftclient (a venv in ~/.cache/krcloud, made once)
 *   into another bucket of the same local cloud, through its Swift API;
 * - M BucketObjects (default 300) of the same files, one resource each: the engine's checkpoint cost
 *   grows with N², so M is small and the time per object is stated;
 * - a re-deploy with one file changed: wall time of `pulumi up`, PUTs, and the provider's time, the
 *   milliseconds the plugin spends in its check, diff and update handlers for the folder (from the
 *   request as gRPC decoded it to the answer handed back; KRCLOUD_HANDLER_TIMES, provider/plugin);
 * - `pulumi refresh` requests, and the state's bytes, of the folder and of the M objects.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { providerConfig } from "../tests/harness/engine";
import { withBed } from "./bed";
import { figuresStudy, runAlone, sumOf } from "./study";

const SWIFTCLIENT = "4.11.0";

export function run(cmd: string, args: string[], o: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { cwd: o.cwd, env: { ...process.env, ...(o.env ?? {}) }, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${path.basename(cmd)} ${args.join(" ")}: ${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/** python-swiftclient in a venv of its own, made once per version. */
export async function swiftCommand(log: (l: string) => void): Promise<string> {
  const venv = path.join(os.homedir(), ".cache", "krcloud", `swiftclient-${SWIFTCLIENT}`);
  const bin = path.join(venv, "bin", "swift");
  if (!fs.existsSync(bin)) {
    log(`bench-folder: installing python-swiftclient ${SWIFTCLIENT} into ${venv}`);
    await run("python3", ["-m", "venv", venv]);
    await run(path.join(venv, "bin", "pip"), ["install", "-q", `python-swiftclient==${SWIFTCLIENT}`]);
  }
  return bin;
}

export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}

/**
 * A YAML program of a bucket `files` (destroyed with its objects) and `resources`, lines of its
 * `resources:` map, written to `dir`/Pulumi.yaml (`dir` made); that file.
 */
export function writeBucketProgram(dir: string, name: string, resources: string[], configuration: string[] = []): string {
  const file = path.join(dir, "Pulumi.yaml");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, bucketProgram(name, resources, configuration));
  return file;
}

function bucketProgram(name: string, resources: string[], configuration: string[]): string {
  return [
    `name: ${name}`,
    "runtime: yaml",
    ...(configuration.length > 0 ? ["configuration:", ...configuration] : []),
    "resources:",
    "  files:",
    "    type: krcloud:objectstorage:Bucket",
    "    properties: { forceDestroy: true }",
    ...resources,
    "",
  ].join("\n");
}

/** A line KRCLOUD_HANDLER_TIMES makes the plugin write (provider/plugin). */
export interface HandlerCall {
  handler: string;
  type: string;
  ms: number;
  cpuMs: number;
  pid: number;
}

/**
 * `up`, timed, with `env` set meanwhile and the plugins it starts (they inherit the variable)
 * appending a line per handler call to `timesFile`; its BucketFolder calls.
 */
export async function timedWithHandlerTimes(timesFile: string, env: Record<string, string>, up: () => Promise<unknown>): Promise<[number, HandlerCall[]]> {
  const names = ["KRCLOUD_HANDLER_TIMES", ...Object.keys(env)];
  Object.assign(process.env, { KRCLOUD_HANDLER_TIMES: timesFile, ...env });
  let ms: number;
  try {
    [ms] = await timed(up);
  } finally {
    for (const n of names) delete process.env[n];
  }
  const calls = fs
    .readFileSync(timesFile, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as HandlerCall)
    .filter((c) => c.type === "krcloud:objectstorage:BucketFolder");
  return [ms, calls];
}

/** Sizes 1 KiB .. 1 MiB: nine in ten of 1..16 KiB, one in ten of 64 KiB..1 MiB. Deterministic. */
function sizeOf(i: number): number {
  return i % 10 === 9 ? 64 * 1024 * (1 + (i % 16)) : 1024 * (1 + (i % 16));
}

export function makeFiles(dir: string, n: number): number {
  let total = 0;
  for (let i = 0; i < n; i++) {
    const sub = path.join(dir, `d${i % 100}`);
    fs.mkdirSync(sub, { recursive: true });
    const size = sizeOf(i);
    const body = Buffer.alloc(size, i % 251);
    body.write(`file ${i}\n`);
    fs.writeFileSync(path.join(sub, `f${i}.bin`), body);
    total += size;
  }
  return total;
}

export async function folderBenchmarks(o: { files: number; objects: number }, log: (line: string) => void) {
  const swift = await swiftCommand(log);
  return withBed({ label: "folder", project: "benchfolder", plugin: true }, async ({ cloud, sandbox, project }) => {
    // The counters, not the request log, which keeps only the latest requests.
    const counts = () => cloud.control.counters().byOperation;
    const puts = (before: Record<string, number>) => (counts()["object-storage.PutObject"] ?? 0) - (before["object-storage.PutObject"] ?? 0);
    const requestsSince = (before: Record<string, number>) =>
      Object.entries(counts())
        .filter(([k]) => k.startsWith("object-storage."))
        .reduce((n, [k, v]) => n + v - (before[k] ?? 0), 0);

    const content = path.join(sandbox.root, "content");
    const totalBytes = makeFiles(content, o.files);
    log(`bench-folder: ${o.files} files, ${(totalBytes / 1024 / 1024).toFixed(0)} MiB`);

    // One BucketFolder.
    const folderDir = path.join(sandbox.root, "folder");
    writeBucketProgram(folderDir, "krcloud-bench-folder", [
      "  content:",
      "    type: krcloud:objectstorage:BucketFolder",
      `    properties: { bucket: "\${files.name}", path: ${JSON.stringify(content)} }`,
    ]);
    const folder = await sandbox.createStack(folderDir, "folder", providerConfig(project));
    let since = { ...counts() };
    const [folderUpMs] = await timed(() => folder.up({ color: "never" }));
    const folderPuts = puts(since);
    log(`bench-folder: BucketFolder up ${(folderUpMs / 1000).toFixed(1)} s, ${folderPuts} PUTs`);

    // swift upload of the same folder, through the local cloud's Swift API.
    const storageUrl = `${cloud.url}/object-storage/v1/${project.projectId}`;
    since = { ...counts() };
    const [swiftMs] = await timed(() =>
      run(swift, ["--os-storage-url", storageUrl, "--os-auth-token", project.token, "upload", "swift-upload", "."], { cwd: content }),
    );
    const swiftPuts = puts(since);
    if (swiftPuts < o.files) throw new Error(`swift upload sent ${swiftPuts} PUTs for ${o.files} files`);
    log(`bench-folder: swift upload ${(swiftMs / 1000).toFixed(1)} s, ${swiftPuts} PUTs`);

    // One file changed.
    fs.writeFileSync(path.join(content, "d5", "f5.bin"), "changed\n");
    since = { ...counts() };
    const [redeployMs, calls] = await timedWithHandlerTimes(path.join(sandbox.root, "handler-times.jsonl"), {}, () => folder.up({ color: "never" }));
    const redeployPuts = puts(since);
    const redeployProviderMs: Record<string, number> = {};
    const redeployProviderCalls: Record<string, number> = {};
    const redeployProviderCpuMs: Record<string, number> = {};
    for (const c of calls) {
      redeployProviderCpuMs[c.handler] = Math.round((redeployProviderCpuMs[c.handler] ?? 0) + c.cpuMs);
      redeployProviderMs[c.handler] = Math.round((redeployProviderMs[c.handler] ?? 0) + c.ms);
      redeployProviderCalls[c.handler] = (redeployProviderCalls[c.handler] ?? 0) + 1;
    }
    const redeployPluginProcesses = new Set(calls.map((c) => c.pid)).size;
    const providerTotal = sumOf(redeployProviderMs);
    const providerCpu = sumOf(redeployProviderCpuMs);
    log(
      `bench-folder: re-deploy with one file changed ${(redeployMs / 1000).toFixed(1)} s, ${redeployPuts} PUTs; provider time ${(providerTotal / 1000).toFixed(2)} s, CPU ${(providerCpu / 1000).toFixed(2)} s (${Object.entries(
        redeployProviderMs,
      )
        .map(([h, ms]) => `${h} ${redeployProviderCalls[h]}x ${ms} ms, CPU ${redeployProviderCpuMs[h]} ms`)
        .join(", ")}; ${redeployPluginProcesses} plugin process(es))`,
    );

    since = { ...counts() };
    await folder.refresh({ color: "never" });
    const folderRefreshRequests = requestsSince(since);
    const folderStateBytes = JSON.stringify((await folder.exportStack()).deployment).length;

    // M BucketObjects of the first M files.
    const objectsDir = path.join(sandbox.root, "objects");
    const lines: string[] = [];
    for (let i = 0; i < o.objects; i++) {
      const rel = `d${i % 100}/f${i}.bin`;
      lines.push(
        `  o${i}:`,
        "    type: krcloud:objectstorage:BucketObject",
        `    properties: { bucket: "\${files.name}", key: "${rel}", source: ${JSON.stringify(path.join(content, rel))} }`,
      );
    }
    writeBucketProgram(objectsDir, "krcloud-bench-objects", lines);
    const objects = await sandbox.createStack(objectsDir, "objects", providerConfig(project));
    const [objectsUpMs] = await timed(() => objects.up({ color: "never" }));
    log(`bench-folder: ${o.objects} BucketObjects up ${(objectsUpMs / 1000).toFixed(1)} s`);
    since = { ...counts() };
    await objects.refresh({ color: "never" });
    const objectsRefreshRequests = requestsSince(since);
    const objectsStateBytes = JSON.stringify((await objects.exportStack()).deployment).length;

    return {
      files: o.files,
      totalBytes,
      folderUpMs,
      folderPuts,
      swiftMs,
      objects: o.objects,
      objectsUpMs,
      redeployMs,
      redeployPuts,
      /** The plugin's time in each handler for the folder during the re-deploy, summed (ms), and the calls. */
      redeployProviderMs,
      redeployProviderCalls,
      /** The plugin process's CPU time in those handlers (ms): less sensitive than wall time to other load on the machine. */
      redeployProviderCpuMs,
      /** How many plugin processes served those calls (the preview and the update may each start one). */
      redeployPluginProcesses,
      folderRefreshRequests,
      objectsRefreshRequests,
      folderStateBytes,
      objectsStateBytes,
    };
  });
}

/** A folder of 10,000 files: one BucketFolder beside `swift upload` and beside 300 BucketObjects (`make bench-smoke`: 20 files, 3 objects). */
export const folderStudy = figuresStudy("folder", { full: { files: 10_000, objects: 300 }, smoke: { files: 20, objects: 3 } }, folderBenchmarks, (f) => {
  const perObjectMs = f.objectsUpMs / f.objects;
  const files = f.files.toLocaleString("en");
  return {
    rows: [
      {
        figure: `BucketFolder create of ${files} files (${(f.totalBytes / 1024 / 1024).toFixed(0)} MiB, 1 KiB to 1 MiB) vs swift upload (python-swiftclient) of the same folder (s)`,
        ours: `${(f.folderUpMs / 1000).toFixed(1)} s`,
        baseline: `${(f.swiftMs / 1000).toFixed(1)} s`,
        ratio: `${(f.folderUpMs / f.swiftMs).toFixed(2)}x`,
        goal: "at most 1.2x",
      },
      {
        figure: `BucketFolder create of ${files} files vs ${f.objects} BucketObjects (s; per file)`,
        ours: `${(f.folderUpMs / 1000).toFixed(1)} s; ${(f.folderUpMs / f.files).toFixed(1)} ms`,
        baseline: `${(f.objectsUpMs / 1000).toFixed(1)} s; ${perObjectMs.toFixed(1)} ms (and growing with N)`,
        ratio: `${(perObjectMs / (f.folderUpMs / f.files)).toFixed(1)}x per file`,
        goal: "-",
      },
      {
        figure: `BucketFolder re-deploy with one file changed of ${files} (provider time: the plugin in check, diff and update, wall and CPU; pulumi up wall time; PUTs)`,
        ours: `${(sumOf(f.redeployProviderMs) / 1000).toFixed(2)} s, CPU ${(sumOf(f.redeployProviderCpuMs) / 1000).toFixed(2)} s; ${(f.redeployMs / 1000).toFixed(1)} s; ${f.redeployPuts}`,
        baseline: "-",
        ratio: "-",
        goal: "under 2 s of provider time; 1 PUT",
      },
      {
        figure: `refresh requests and state bytes: BucketFolder of ${files} files vs ${f.objects} BucketObjects`,
        ours: `${f.folderRefreshRequests}; ${f.folderStateBytes.toLocaleString("en")} B`,
        baseline: `${f.objectsRefreshRequests}; ${f.objectsStateBytes.toLocaleString("en")} B`,
        ratio: `${(((f.objectsStateBytes / f.objects) * f.files) / f.folderStateBytes).toFixed(1)}x smaller state per file`,
        goal: `${Math.ceil(f.files / 1000)} listing pages`,
      },
    ],
  };
});

if (require.main === module) {
  runAlone("bench-folder", folderStudy, { print: true });
}
