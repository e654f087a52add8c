/**
 * The benchmarks that need the real Pulumi CLI (part of `make bench`, see index.ts), at the sizes
 * below for `make bench` (`make bench-smoke`: 2 instance sets, 1 bucket, one example, 10 keys):
 * - Parallel convergence: `pulumi up --parallel 64` of 10, 25 and 50 cache instance sets that each
 *   settle in 5 s (a duration transition on the local cloud), against the critical path: 5 s plus
 *   the engine's time for the same program with no resources.
 * - Drift check cost: `krcloud-drift` on a 50-resource stack (8 buckets each with CORS, lifecycle
 *   and three objects, a parameter group and a 3-shard cluster): wall time and the HTTP requests the
 *   local cloud counted, per resource.
 * - State size: the whole state file of that stack and the code stored per resource, ours beside a
 *   naive dynamic provider's.
 * - User-facing times (`make demo` is timed by demo.ts): local cloud start to first answer,
 *   `pulumi up` of examples/static-site and examples/cache, the local cloud's memory per 1,000
 *   resources.
 * - Real Redis behind the local cloud (where redis-server is installed): a 3-shard cluster created,
 *   then a shard added and one removed with 1,000 keys in it, each until every node is Running.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { startLocalCloud } from "../local-cloud";
import { closeAllPools, resolveSettings } from "../client/core";
import { ObjectStorageClient } from "../client/objectstorage";
import { Cluster } from "ioredis";
import { findRedisServer } from "../local-cloud/cache/redis/server";
import { CacheClient } from "../client/cache";
import {
  applyLocalCloudSetup,
  discoverExamples,
  installNativePlugin,
  newProject,
  providerConfig,
  pulumiBinDir,
  runNode,
  Sandbox,
  stateResources,
  type CloudProject,
} from "../tests/harness/engine";
import { timed } from "./measure";
import { sized, type Row, type Study } from "./study";
import { writeNodeProgram } from "./program";
import { entry } from "../tests/harness/entries";

/** What the engine study measures at each size (`make bench`, `make bench-smoke`). */
export interface EngineSizes {
  /** Instance sets per parallel up. */
  sets: number[];
  /** Buckets of the mixed stack (each with CORS, lifecycle and three objects; a parameter group and a 3-shard cluster beside them). */
  buckets: number;
  /** The examples whose `pulumi up` is timed. */
  examples: string[];
  /** Keys in the real Redis cluster while a shard is removed. */
  redisKeys: number;
  /** Buckets (each with an object) of the local cloud's memory figure. */
  memoryBuckets: number;
}

export const engineStudy: Study = {
  name: "engine",
  async run(ctx) {
    const rows: Row[] = [];
    const notes: string[] = [];
    const full = { sets: [10, 25, 50], buckets: 8, examples: ["static-site", "cache"], redisKeys: 1000, memoryBuckets: 2500 };
    await engineBenchmarks(rows, notes, sized(ctx, full, { sets: [2], buckets: 1, examples: ["static-site"], redisKeys: 10, memoryBuckets: 50 }));
    return { rows, notes };
  },
};

const SETTLE_MS = 5000;

/** One program for every case; `shape` (stack config) says what it declares. */
const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const krcloud = require("pulumi-krcloud");
const config = new pulumi.Config();
const shape = config.require("shape");
const count = config.getNumber("count") || 0;
const buckets = config.getNumber("buckets") || 8;
const subnets = ["sn-a", "sn-b", "sn-c"];
const catalogue = pulumi.output(Promise.all([krcloud.cache.getVersions(), krcloud.cache.getFlavors()])).apply(([v, f]) => ({
  version: [...v.versions].sort((a, b) => a.localeCompare(b, "en", { numeric: true })).at(-1),
  flavorId: [...f.flavors].sort((a, b) => (a.memory || 0) - (b.memory || 0))[0].id,
}));
const defaultGroup = (clusterMode) => catalogue.version.apply(async (engineVersion) =>
  (await krcloud.cache.getParameterGroups({ parameterGroupType: "default", clusterMode, engineVersion })).parameterGroups[0].id);
if (shape === "instance-sets") {
  const group = defaultGroup("disabled");
  for (let i = 0; i < count; i++) {
    new krcloud.cache.InstanceSet("set-" + i, { version: catalogue.version, flavorId: catalogue.flavorId, parameterGroupId: group,
      subnetIds: subnets, securityGroupIds: ["sg-default"], primarySubnetId: subnets[i % 3], replicaSubnetIds: [] });
  }
} else if (shape === "mixed") {
  for (let b = 0; b < buckets; b++) {
    const bucket = new krcloud.objectstorage.Bucket("bucket-" + b, {});
    new krcloud.objectstorage.BucketCors("cors-" + b, { bucket: bucket.name, rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"] }] });
    new krcloud.objectstorage.BucketLifecycle("lifecycle-" + b, { bucket: bucket.name, rules: [{ id: "logs", prefix: "logs/", expirationDays: 30 }] });
    for (let o = 0; o < 3; o++) {
      new krcloud.objectstorage.BucketObject("object-" + b + "-" + o, { bucket: bucket.name, key: "file-" + o + ".txt", content: "object " + o + " of bucket " + b + "\\n" });
    }
  }
  const params = new krcloud.cache.ParameterGroup("params", { baseParameterGroupId: defaultGroup("enabled"), parameters: { timeout: "300" } });
  new krcloud.cache.Cluster("cluster", { version: catalogue.version, flavorId: catalogue.flavorId, parameterGroupId: params.id,
    subnetIds: subnets, securityGroupIds: ["sg-default"],
    shards: [0, 1, 2].map((i) => ({ primarySubnetId: subnets[i], replicaSubnetIds: [subnets[(i + 1) % 3]] })) });
}
`;

function requestsSince(counters: { total: number }, before: { total: number }): number {
  return counters.total - before.total;
}

export async function engineBenchmarks(rows: Row[], notes: string[], sizes: EngineSizes): Promise<void> {
  // Simulated cache nodes: these figures are the provider's and the engine's (settling is set by the
  // managed lifecycle), not 150 redis-server start-ups; the examples' and Redis figures below run real ones.
  const cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  const sandbox = new Sandbox({ label: "bench" });
  try {
    const project: CloudProject = await newProject(cloud, "bench");
    const dir = sandbox.copyProgram(writeNodeProgram(path.join(sandbox.root, "src", "bench"), "krcloud-bench", PROGRAM));
    const stackOf = async (name: string, shape: string, count = 0): Promise<Stack> => {
      const stack = await sandbox.createStack(
        dir,
        name,
        providerConfig(project, {
          "krcloud-bench:shape": { value: shape },
          "krcloud-bench:count": { value: String(count) },
          "krcloud-bench:buckets": { value: String(sizes.buckets) },
        }),
      );
      return stack;
    };

    // 1. Parallel convergence.
    const empty = await stackOf("empty", "instance-sets", 0);
    await empty.up({ color: "never" }); // warm-up: plugin start, module loading
    const [emptyMs] = await timed(() => empty.up({ color: "never", parallel: 64 }));
    const settle = (ms: number) => {
      for (const kind of ["cluster", "instance"]) cloud.control.setTransition({ service: "cache", kind, mode: "duration", ms });
    };
    for (const n of sizes.sets) {
      const stack = await stackOf(`sets-${n}`, "instance-sets", n);
      settle(SETTLE_MS);
      // Engine events, to split the wall time: when the creates started, when they returned.
      const started: number[] = [];
      const returned: number[] = [];
      const t0 = performance.now();
      const onEvent = (e: EngineEvent): void => {
        if (e.resourcePreEvent?.metadata.type.endsWith("cache:InstanceSet")) started.push(performance.now() - t0);
        if (e.resOutputsEvent?.metadata.type.endsWith("cache:InstanceSet")) returned.push(performance.now() - t0);
      };
      const [ms, up] = await timed(() => stack.up({ color: "never", parallel: 64, onEvent }));
      if (up.summary.result !== "succeeded") throw new Error(`up of ${n} instance sets: ${up.summary.result}`);
      const critical = SETTLE_MS + emptyMs;
      const s = (x: number): string => (x / 1000).toFixed(1);
      notes.push(
        `- ${n} instance sets: the creates started between ${s(Math.min(...started))} s and ${s(Math.max(...started))} s and returned between ${s(Math.min(...returned))} s and ${s(Math.max(...returned))} s (each ${s(Math.min(...returned) - Math.max(...started))} s or more after the last start: the 5 s settle plus the waiter's lag); the up ended at ${s(ms)} s.`,
      );
      rows.push({
        figure: `up --parallel 64 of ${n} resources settling in 5 s (s)`,
        ours: (ms / 1000).toFixed(1),
        baseline: `critical path ${(critical / 1000).toFixed(1)}`,
        ratio: `${(ms / critical).toFixed(2)}x the critical path`,
        goal: n === 50 ? `<= 1.5 at 50: ${ms / critical <= 1.5 ? "met" : "missed"}` : "-",
      });
      settle(0);
      await stack.destroy({ color: "never", parallel: 64 });
    }
    notes.push(
      `- Parallel convergence: the engine's default parallelism on this machine is ${defaultParallelism()} (\`pulumi up --help\`); the program with no resources (same lookups) takes ${(emptyMs / 1000).toFixed(1)} s.`,
    );

    // 2. Drift check cost and 3. state size, on the mixed stack (50 resources at the full size).
    const mixed = await stackOf("mixed", "mixed");
    const up = await mixed.up({ color: "never", parallel: 64 });
    if (up.summary.result !== "succeeded") throw new Error(`up of the mixed stack: ${up.summary.result}`);
    const deployment = await mixed.exportStack();
    const resources = stateResources(deployment).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/krcloud/"));
    const before = cloud.control.counters();
    const [driftMs, drift] = await timed(() => runNode(entry("drift"), ["--cwd", dir, "--stack", "mixed"], sandbox.env()));
    if (drift.code !== 0) throw new Error(`krcloud-drift found drift or failed (${drift.code}): ${drift.stdout}${drift.stderr}`);
    const after = cloud.control.counters();
    const requests = requestsSince(after, before);
    const byOp = Object.entries(after.byOperation)
      .map(([op, n]) => [op, n - (before.byOperation[op] ?? 0)] as const)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1]);
    // One read per resource, plus what a resource's read needs besides (an object storage read of a
    // bucket is the container HEAD plus its ACL and metadata; a cluster's is the cluster and its shards).
    rows.push({
      figure: `krcloud-drift on a ${resources.length}-resource stack (s; HTTP requests)`,
      ours: `${(driftMs / 1000).toFixed(1)} s; ${requests} requests`,
      baseline: `${resources.length} resources`,
      ratio: `${(requests / resources.length).toFixed(2)} requests per resource`,
      goal: "one read per resource + its sub-resources",
    });
    notes.push(`- Drift check requests by operation: ${byOp.map(([op, n]) => `${op} ${n}`).join(", ")}.`);

    const stateBytes = Buffer.byteLength(JSON.stringify(deployment));
    const providerBytes = resources.map((r) => Buffer.byteLength(String((r as unknown as { inputs?: { __provider?: string } }).inputs?.__provider ?? "")));
    const codeBytes = providerBytes.reduce((a, b) => a + b, 0) * 2; // in inputs and in outputs
    rows.push({
      figure: `state of a ${resources.length}-resource stack (bytes; code stored)`,
      ours: `${stateBytes}; ${codeBytes} of code (${Math.max(...providerBytes)} per copy)`,
      baseline: "naive provider: not serializable",
      ratio: `code ${((codeBytes / stateBytes) * 100).toFixed(0)}% of the state`,
      goal: "dynamic stub < 1 KB",
    });
    await mixed.destroy({ color: "never", parallel: 64 });

    // The same resources through the native plugin (a YAML program): no code in state at all.
    const nativeState = await nativeStateBytes(sandbox, project, sizes.buckets);
    rows.push({
      figure: `state of the ${resources.length}-resource stack, native plugin (bytes; code stored)`,
      ours: `${nativeState.bytes}; ${nativeState.providerBytes} of code`,
      baseline: `dynamic ${stateBytes}`,
      ratio: `${(stateBytes / nativeState.bytes).toFixed(2)}x smaller than dynamic`,
      goal: `native 0: ${nativeState.providerBytes === 0 ? "met" : "missed"}`,
    });

    // 4. User-facing times.
    const [startMs] = await timed(() => localCloudFirstAnswer());
    rows.push({ figure: "local cloud start to first answer (ms)", ours: startMs.toFixed(0), baseline: "-", ratio: "-", goal: "-" });
    // The examples as a user runs them: cache nodes are real redis-server processes where installed.
    const userCloud = await startLocalCloud({ port: 0 });
    for (const name of sizes.examples) {
      const example = discoverExamples().find((e) => e.name === name);
      if (!example) continue;
      const p = await newProject(userCloud, name);
      await applyLocalCloudSetup(p, example.dir);
      const edir = sandbox.copyProgram(example.dir, `example-${name}`);
      const stack = await sandbox.createStack(edir, name, providerConfig(p));
      const [first] = await timed(() => stack.up({ color: "never" }));
      const [second] = await timed(() => stack.up({ color: "never" }));
      rows.push({
        figure: `pulumi up of examples/${name}${name === "cache" && findRedisServer() ? ", real redis-server nodes" : ""} (s)`,
        ours: `first ${(first / 1000).toFixed(1)}, unchanged ${(second / 1000).toFixed(1)}`,
        baseline: "-",
        ratio: "-",
        goal: "-",
      });
      await stack.destroy({ color: "never" });
    }
    if (findRedisServer()) rows.push(await realRedisTimes(userCloud, await newProject(userCloud, "redis"), sizes.redisKeys));
    await userCloud.close();
    const perThousand = await localCloudMemoryPer1000(sizes.memoryBuckets);
    rows.push({ figure: "local cloud memory per 1,000 resources (MB)", ours: perThousand.toFixed(1), baseline: "-", ratio: "-", goal: "-" });
  } finally {
    await cloud.close();
    sandbox.cleanup();
  }
}

/** A YAML program declaring the mixed stack's resources, served by the native plugin: state bytes and `__provider` bytes in it. */
async function nativeStateBytes(sandbox: Sandbox, project: CloudProject, buckets: number): Promise<{ bytes: number; providerBytes: number }> {
  await installNativePlugin(sandbox);
  const settings = resolveSettings({ localCloudUrl: project.cloud.url, authToken: project.token, projectId: project.projectId }, () => undefined, {});
  const cache = new CacheClient({ settings });
  const version = (await cache.catalogue.listVersions()).sort((a, b) => a.localeCompare(b, "en", { numeric: true })).at(-1)!;
  const flavor = (await cache.catalogue.listFlavors()).sort((a, b) => (a.memory ?? 0) - (b.memory ?? 0))[0]!.id;
  const base = (await cache.parameterGroups.list({ parameterGroupType: "default", clusterMode: "enabled", engineVersion: version }))[0]!.id;
  const lines = ["name: krcloud-bench-native", "runtime: yaml", "resources:"];
  /** One YAML resource: its name, its type after `krcloud:`, then one `key: value` line per property. */
  const resource = (name: string, type: string, ...properties: string[]) =>
    lines.push(`  ${name}:`, `    type: krcloud:${type}`, ...(properties.length ? ["    properties:", ...properties.map((p) => `      ${p}`)] : []));
  for (let b = 0; b < buckets; b++) {
    resource(`bucket${b}`, "objectstorage:Bucket");
    resource(
      `cors${b}`,
      "objectstorage:BucketCors",
      `bucket: \${bucket${b}.name}`,
      'rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: [GET] }]',
    );
    resource(`lifecycle${b}`, "objectstorage:BucketLifecycle", `bucket: \${bucket${b}.name}`, "rules: [{ id: logs, prefix: logs/, expirationDays: 30 }]");
    for (let o = 0; o < 3; o++) {
      resource(`object${b}x${o}`, "objectstorage:BucketObject", `bucket: \${bucket${b}.name}`, `key: file-${o}.txt`, `content: "object ${o} of bucket ${b}"`);
    }
  }
  resource("params", "cache:ParameterGroup", `baseParameterGroupId: ${base}`, 'parameters: { timeout: "300" }');
  resource(
    "cluster",
    "cache:Cluster",
    `version: "${version}"`,
    `flavorId: ${flavor}`,
    "parameterGroupId: ${params.id}",
    "subnetIds: [sn-a, sn-b, sn-c]",
    "securityGroupIds: [sg-default]",
  );
  lines.push("      shards:", ...[0, 1, 2].map((i) => `        - { primarySubnetId: sn-${"abc"[i]}, replicaSubnetIds: [sn-${"abc"[(i + 1) % 3]}] }`));
  const src = path.join(sandbox.root, "src", "bench-native");
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, "Pulumi.yaml"), `${lines.join("\n")}\n`);
  const stack = await sandbox.createStack(sandbox.copyProgram(src), "native", providerConfig(project));
  const up = await stack.up({ color: "never", parallel: 64 });
  if (up.summary.result !== "succeeded") throw new Error(`up of the native mixed stack: ${up.summary.result}`);
  const deployment = await stack.exportStack();
  const text = JSON.stringify(deployment);
  const providerBytes = stateResources(deployment).reduce(
    (n, r) => n + Buffer.byteLength(String((r as unknown as { inputs?: { __provider?: string } }).inputs?.__provider ?? "")),
    0,
  );
  await stack.destroy({ color: "never", parallel: 64 });
  return { bytes: Buffer.byteLength(text), providerBytes };
}

/**
 * The data plane's own waits on real redis-server nodes: a 3-shard cluster (one replica each)
 * created, a fourth shard added (slots move to it) and one removed (drained first) with 1,000 keys
 * in it, each timed from the request until the cluster and every node are Running.
 */
async function realRedisTimes(cloud: { url: string }, project: CloudProject, keys: number): Promise<Row> {
  const c = new CacheClient({
    settings: resolveSettings({ localCloudUrl: cloud.url, authToken: project.token, projectId: project.projectId }, () => undefined, {}),
  });
  const settled = async (id: string): Promise<void> => {
    for (;;) {
      const [record, topology] = await Promise.all([c.findClusterById(id), c.clusterTopology(id)]);
      if (record?.status === "Running" && topology.settled) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const placement = { primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] };
  const [created, { id }] = await timed(async () => {
    const r = await c.clusters.create({
      name: "bench-redis",
      version: "7.0.15",
      port: 6379,
      shardCount: 3,
      nodeCountPerShard: 2,
      flavorId: "redis.small",
      parameterGroupId: "default.redis7.0.cluster",
      subnets: [{ id: "sn-a" }, { id: "sn-b" }],
      subnetAssignments: [placement, placement, placement],
      securityGroups: [{ id: "sg-1" }],
    });
    await settled(r.id);
    return r;
  });
  const [host, port] = (await c.findClusterById(id))!.endpoints.primaryEndpoint!.split(":");
  const client = new Cluster([{ host: host!, port: Number(port) }], { redisOptions: { disconnectTimeout: 100 } });
  await Promise.all(Array.from({ length: keys }, (_, i) => client.set(`key:${i}`, `value-${i}`)));
  client.disconnect();
  const [added, shard] = await timed(async () => {
    const r = await c.shards.add(id, { nodeCount: 2, subnetAssignment: placement });
    await settled(id);
    return r;
  });
  const [removed] = await timed(async () => {
    await c.shards.delete(id, shard.id);
    await settled(id);
  });
  await c.clusters.delete(id);
  return {
    figure: `real Redis: 3-shard cluster created; shard added; shard removed, ${keys.toLocaleString("en")} keys (s)`,
    ours: `${(created / 1000).toFixed(1)}; ${(added / 1000).toFixed(1)}; ${(removed / 1000).toFixed(1)}`,
    baseline: "-",
    ratio: "-",
    goal: "-",
  };
}

/** The engine's default `--parallel`, as the CLI itself states it. */
function defaultParallelism(): string {
  const help = execFileSync(path.join(pulumiBinDir(), "pulumi"), ["up", "--help"], { encoding: "utf8" });
  return /--parallel int32 .*\(default (\d+)\)/.exec(help)?.[1] ?? "unknown";
}

/** Spawns `krcloud-local-cloud --port 0` and times until its first answer to GET /_control/... */
function localCloudFirstAnswer(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry("localCloud"), "--port", "0"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /control API: (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(out);
      if (!m) return;
      child.stdout.removeAllListeners("data");
      fetch(`${m[1]}/transitions`)
        .then((r) => r.text())
        .then(
          () => {
            child.kill("SIGTERM");
            resolve();
          },
          (e: unknown) => {
            child.kill("SIGTERM");
            reject(e instanceof Error ? e : new Error(String(e)));
          },
        );
    });
    child.on("error", reject);
  });
}

/** The local cloud's memory growth (heap and external, after a collection) for `buckets` buckets with one object each, per 1,000 resources. */
export async function localCloudMemoryPer1000(buckets: number): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const cloud = await startLocalCloud({ port: 0 });
  try {
    const cred = cloud.control.issueCredentials({});
    if (cred.kind !== "token") throw new Error("expected a token");
    const settings = resolveSettings({ localCloudUrl: cloud.url, authToken: cred.token, projectId: cred.projectId }, () => undefined, {});
    const client = new ObjectStorageClient({ settings });
    gc?.();
    const used = (): number => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external;
    };
    const before = used();
    for (let i = 0; i < buckets; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const name = `mem-${String(i + j).padStart(4, "0")}`;
          await client.createBucket({ name });
          await client.putObject(name, "hello.txt", "hello");
        }),
      );
    }
    gc?.();
    await closeAllPools();
    gc?.();
    return (used() - before) / ((2 * buckets) / 1000) / 2 ** 20; // a bucket and its object: 2 resources each
  } finally {
    await cloud.close();
  }
}
