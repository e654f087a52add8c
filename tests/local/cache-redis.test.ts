/**
 * The cache resources over real redis-server nodes (the local cloud's `redis` engine), driven as the
 * Pulumi engine drives them, with real Redis clients on the endpoints the resources output:
 *
 * - an ioredis Cluster client doing value-checked reads and writes the whole time while a 3-shard
 *   cluster is scaled 3 -> 4 -> 2 shards and 1 -> 3 -> 2 replicas per shard (and both at once): every
 *   key stays and the client sees no error;
 * - parameter group values reach every node (CONFIG GET), and a value the server refuses is
 *   Error-Sync, retried once, then a failure quoting the server;
 * - an instance set's replica serves what the primary took, its read endpoint refuses writes, and
 *   the primary endpoint keeps taking writes after a promote and after a high-availability failover;
 * - backups hold the data: a cluster and an instance set restored from a backup name, an instance
 *   set from an RDB file in object storage;
 * - a node whose process dies fails the next wait at once; a deleted cluster's processes stop;
 * - a restarted (persisted) local cloud brings its nodes back with their data, and reports a node
 *   whose data is gone FAILED, never Running.
 *
 * These tests need `redis-server` (make test installs it: scripts/redis.sh); without it they fail
 * saying so.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { Cluster as RedisCluster, Redis } from "ioredis";
import { startLocalCloud } from "../../local-cloud";
import { processExists as alive } from "../../local-cloud/cache/redis/server";
import { CacheClient } from "../../client/cache";
import { resolveSettings } from "../../client/core";
import { BASE, clusterArgs, instanceSetArgs, SUBNETS, VERSION } from "../support/cache";
import { cacheBedForFile } from "../support/local-cloud/per-file";
import { rejection, type EngineResource, type ResourceState, type TestCloud } from "../support/local-cloud";
import { entry } from "../harness/entries";

jest.setTimeout(300_000);

let tc: TestCloud;
let pg: EngineResource;
let cluster: EngineResource;
let iset: EngineResource;
let sdk: CacheClient;
const clients: { disconnect(): void }[] = [];

cacheBedForFile({ cacheEngine: "redis", reset: true }, (bed) => ({ tc, pg, cluster, iset, sdk } = bed));
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});

const hostPort = (endpoint: unknown): { host: string; port: number } => {
  const [host, port] = String(endpoint).split(":");
  return { host: host!, port: Number(port) };
};

function standalone(endpoint: unknown): Redis {
  // A socket already closed by a stopped node would hold ioredis' disconnect timer (2 s by default).
  const r = new Redis({ ...hostPort(endpoint), maxRetriesPerRequest: 5, disconnectTimeout: 100 });
  r.on("error", () => undefined);
  clients.push(r);
  return r;
}

function clusterClient(endpoint: unknown): RedisCluster {
  // ioredis' defaults: it follows MOVED and ASK and refreshes its slot map when told to.
  const c = new RedisCluster([hostPort(endpoint)], { redisOptions: { disconnectTimeout: 100 } });
  c.on("error", () => undefined);
  clients.push(c);
  return c;
}

const placements = (shards: number, replicas: number) =>
  Array.from({ length: shards }, (_, i) => ({
    primarySubnetId: SUBNETS[i % 3]!,
    replicaSubnetIds: Array.from({ length: replicas }, (_, r) => SUBNETS[(i + r + 1) % 3]!),
  }));

/** A Cluster of `shards` shards with `replicas` replicas each. */
const sized = (shards: number, replicas: number, over: Record<string, unknown> = {}) => clusterArgs({ shards: placements(shards, replicas), ...over });

type ShardDetail = { id: string; slots: string; slotCount: number; nodes: { id: string; endpoint: string; role: string; status: string }[] };
const shardDetails = (s: ResourceState) => s.outputs.shardDetails as ShardDetail[];
const nodeEndpoints = (s: ResourceState) => shardDetails(s).flatMap((d) => d.nodes.map((n) => n.endpoint));

/** What the nodes themselves say: primaries (with their replica counts) and the slots they serve. */
async function liveTopology(endpoint: unknown): Promise<{ primaries: number; replicasPerPrimary: number[]; slots: number }> {
  const text = String(await standalone(endpoint).call("CLUSTER", "NODES"));
  const lines = text
    .trim()
    .split("\n")
    .map((l) => l.split(" "));
  const primaries = lines.filter((l) => l[2]!.includes("master"));
  const slots = primaries.flatMap((l) => l.slice(8)).reduce((n, r) => n + (r.includes("-") ? Number(r.split("-")[1]) - Number(r.split("-")[0]) + 1 : 1), 0);
  return {
    primaries: primaries.length,
    replicasPerPrimary: primaries.map((p) => lines.filter((l) => l[3] === p[0]).length),
    slots,
  };
}

/** Value-checked traffic on a cluster client until stopped: reads of the seeded keys and write-then-read of new ones. */
function traffic(client: RedisCluster, seeded: number) {
  const errors: string[] = [];
  let ops = 0;
  let running = true;
  const worker = async (w: number): Promise<void> => {
    for (let n = 0; running; n++) {
      const i = (w * 7919 + n * 104729) % seeded;
      try {
        const v = await client.get(`key:${i}`);
        if (v !== `value-${i}`) errors.push(`key:${i} read ${String(v)}`);
        await client.set(`w:${w}:${n}`, `${n}`);
        const back = await client.get(`w:${w}:${n}`);
        if (back !== `${n}`) errors.push(`w:${w}:${n} read ${String(back)}`);
        ops += 3;
      } catch (e) {
        errors.push((e as Error).message);
      }
    }
  };
  const workers = Promise.all([0, 1, 2, 3].map(worker));
  return {
    stop: async () => {
      running = false;
      await workers;
      return { errors, ops };
    },
  };
}

describe("Cluster on real Redis", () => {
  test("scaled 3 -> 4 -> 2 shards and 1 -> 3 -> 2 replicas (and both at once) under ioredis traffic: every key stays, no client error", async () => {
    let state = await cluster.up(sized(3, 1), "sessions");
    expect(shardDetails(state)).toHaveLength(3);
    expect(await liveTopology(state.outputs.primaryEndpoint)).toEqual({ primaries: 3, replicasPerPrimary: [1, 1, 1], slots: 16384 });

    const client = clusterClient(state.outputs.primaryEndpoint);
    await Promise.all(Array.from({ length: 1000 }, (_, i) => client.set(`key:${i}`, `value-${i}`)));
    const load = traffic(client, 1000);

    const steps: [number, number][] = [
      [4, 1],
      [2, 1],
      [2, 3],
      [2, 2],
      [3, 1],
    ];
    for (const [shards, replicas] of steps) {
      const next = await cluster.apply(state, sized(shards, replicas));
      expect(next.id).toBe(state.id);
      state = next;
      expect(state.outputs.shards).toEqual(placements(shards, replicas));
      // What the outputs say is what the nodes say.
      expect(shardDetails(state).map((d) => d.nodes.length)).toEqual(Array(shards).fill(1 + replicas));
      expect(shardDetails(state).reduce((n, d) => n + d.slotCount, 0)).toBe(16384);
      expect(await liveTopology(state.outputs.primaryEndpoint)).toEqual({ primaries: shards, replicasPerPrimary: Array(shards).fill(replicas), slots: 16384 });
    }

    const { errors, ops } = await load.stop();
    expect(errors).toEqual([]);
    expect(ops).toBeGreaterThan(1000);
    const values = await Promise.all(Array.from({ length: 1000 }, (_, i) => client.get(`key:${i}`)));
    expect(values.filter((v, i) => v !== `value-${i}`)).toEqual([]);
    const refreshed = (await cluster.refresh(state))!;
    expect((await cluster.plan(refreshed, sized(...steps.at(-1)!))).diff.changes).toBe(false);

    // Deleted: its processes stop.
    const endpoints = nodeEndpoints(state);
    await cluster.destroy(state);
    for (const e of endpoints) expect({ e, refused: await untilValue(() => refused(e), true) }).toEqual({ e, refused: true });
  });

  test("a shard being removed is never reported FAILED: its nodes stop before they leave the listing", async () => {
    const state = await cluster.up(sized(3, 1, { name: "leaving" }));
    // Reads the listing as fast as it answers while the update removes a shard, as a waiter would.
    const seen = new Set<string>();
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const shards = await sdk.shards.list(state.id);
        for (const s of shards) {
          const nodes = s.nodes.length > 0 ? s.nodes : await sdk.nodes.list(state.id, s.id).catch(() => []);
          for (const n of nodes) if (/fail/i.test(`${n.status} ${n.state}`)) seen.add(`${n.id} ${n.status ?? n.state}`);
        }
      }
    })();
    const next = await cluster.apply(state, sized(2, 1, { name: "leaving" })).finally(() => (polling = false));
    await poll;
    expect(next.outputs.shards).toEqual(placements(2, 1));
    expect([...seen]).toEqual([]);
  });

  test("a 1-shard cluster works with redis-cli's -c and ioredis alike (formed by hand: redis-cli --cluster create needs 3)", async () => {
    const state = await cluster.up(sized(1, 0, { name: "tiny" }));
    expect(shardDetails(state)[0]!.slots).toBe("0-16383");
    const client = clusterClient(state.outputs.primaryEndpoint);
    await client.set("hello", "world");
    expect(await client.get("hello")).toBe("world");
    const { host, port } = hostPort(state.outputs.primaryEndpoint);
    const cli = (...args: string[]) => promisify(execFile)("redis-cli", ["-c", "-h", host, "-p", String(port), ...args]).then((r) => r.stdout.trim());
    expect(await cli("set", "from-cli", "yes")).toBe("OK");
    expect(await cli("get", "hello")).toBe("world");
    expect(await client.get("from-cli")).toBe("yes");
  });

  test("a node whose process dies is FAILED, and the next update fails at once naming it", async () => {
    const state = await cluster.up(sized(2, 1));
    const replica = shardDetails(state)[0]!.nodes.find((n) => n.role === "replica")!;
    await tc.controlApi("PATCH", `/resources/cache/node/${replica.id}`, { status: "FAILED" });
    const started = Date.now();
    const err = await rejection(cluster.apply(state, sized(2, 1, { description: "after the failure" })));
    expect(err.message).toMatch(new RegExp(`FAILED: node ${replica.id}.*will not become Running by waiting`));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(err.id).toBe(state.id);
  });

  test("backup and restore: a new cluster from a backup name holds the keys", async () => {
    const source = await cluster.up(sized(2, 0, { name: "source" }));
    const client = clusterClient(source.outputs.primaryEndpoint);
    await Promise.all(Array.from({ length: 300 }, (_, i) => client.set(`k${i}`, `v${i}`)));
    await client.set("short-lived", "x", "PX", 3_600_000);
    const { body } = await tc.controlApi("PATCH", `/resources/cache/cluster/${source.id}`, { backupNow: true });
    const restored = await cluster.up(sized(2, 1, { name: "restored", restoreFromBackup: body.backup }));
    const r = clusterClient(restored.outputs.primaryEndpoint);
    const values = await Promise.all(Array.from({ length: 300 }, (_, i) => r.get(`k${i}`)));
    expect(values.filter((v, i) => v !== `v${i}`)).toEqual([]);
    // Expiry times come along.
    expect(await r.pttl("short-lived")).toBeGreaterThan(3_000_000);
  });
});

describe("ParameterGroup on real Redis", () => {
  test("values reach every node; a removed one goes back to its default there; a value the server refuses is Error-Sync, retried once, then fails quoting the server", async () => {
    const args = (parameters: Record<string, string>) => ({ name: "sessions-params", baseParameterGroupId: BASE.cluster, parameters });
    let group = await pg.up(args({ "maxmemory-policy": "allkeys-lru", timeout: "300" }));
    const c = await cluster.up(sized(2, 1, { parameterGroupId: group.id }));
    const configOnEveryNode = async (key: string) => Promise.all(nodeEndpoints(c).map(async (e) => (await standalone(e).config("GET", key))[1]));
    expect(await configOnEveryNode("maxmemory-policy")).toEqual(Array(4).fill("allkeys-lru"));
    expect(await configOnEveryNode("timeout")).toEqual(Array(4).fill("300"));

    group = await pg.apply(group, args({ timeout: "600" }));
    expect(group.outputs.syncStatus).toBe("In-Sync");
    expect(await configOnEveryNode("timeout")).toEqual(Array(4).fill("600"));
    expect(await configOnEveryNode("maxmemory-policy")).toEqual(Array(4).fill("noeviction"));

    // Debian's redis-server is built without Redis' own jemalloc and refuses active defragmentation.
    const cursor = tc.logCursor();
    const err = await rejection(pg.apply(group, args({ timeout: "600", activedefrag: "yes" })));
    expect(tc.requestsSince(cursor).filter((e) => e.operation === "RetryParameterGroupApply")).toHaveLength(1);
    expect(err.message).toMatch(/still Error-Sync after a retry of the apply/);
    expect(err.message).toMatch(/activedefrag=yes: ERR CONFIG SET failed .*Active defragmentation cannot be enabled/);
    expect((await sdk.findClusterById(c.id))?.parameterGroupSyncStatus).toBe("Error-Sync");
    expect(await configOnEveryNode("activedefrag")).toEqual(Array(4).fill("no"));
  });
});

describe("InstanceSet on real Redis", () => {
  const isetArgs = (over: Record<string, unknown> = {}) => instanceSetArgs({ replicaSubnetIds: ["sn-b", "sn-c"], ...over });
  type Instance = { id: string; role: string; endpoint: string; status: string };
  const instances = (s: ResourceState) => s.outputs.instances as Instance[];

  test("the replica serves what the primary took; the read endpoint refuses writes; after a promote the primary endpoint still takes writes", async () => {
    const state = await iset.up(isetArgs());
    const primary = standalone(state.outputs.primaryEndpoint);
    await primary.set("job:1", "queued");
    const reader = standalone(state.outputs.readEndpoint);
    expect(await untilValue(() => reader.get("job:1"), "queued")).toBe("queued");
    await expect(reader.set("job:2", "x")).rejects.toThrow(/READONLY/);
    // Standalone servers: no cluster mode anywhere (LocalStack #9317).
    for (const i of instances(state)) expect((await standalone(i.endpoint).info("cluster")).trim()).toMatch(/cluster_enabled:0/);

    const replica = instances(state).find((i) => i.role === "replica")!;
    const promoted = await iset.apply(state, isetArgs({ primaryInstanceId: replica.id }));
    expect(promoted.outputs.currentPrimaryInstanceId).toBe(replica.id);
    expect(await standalone(replica.endpoint).info("replication")).toMatch(/role:master/);
    expect(await untilValue(() => primary.set("job:3", "after-promote"), "OK")).toBe("OK");
    expect(await standalone(replica.endpoint).get("job:3")).toBe("after-promote");
    expect(await primary.get("job:1")).toBe("queued");
    for (const i of instances(promoted).filter((x) => x.id !== replica.id)) {
      expect(await untilValue(() => standalone(i.endpoint).get("job:3"), "after-promote")).toBe("after-promote");
    }
  });

  test("high availability: when the primary's process dies a replica takes over behind the same endpoint", async () => {
    const state = await iset.up(isetArgs({ highAvailability: true }));
    const primary = standalone(state.outputs.primaryEndpoint);
    await primary.set("before", "failover");
    const old = instances(state).find((i) => i.role === "primary")!;
    await untilValue(async () => (await standalone(state.outputs.readEndpoint).get("before")) ?? "", "failover");
    await tc.controlApi("PATCH", `/resources/cache/instance/${old.id}`, { status: "FAILED" });
    expect(await untilValue(() => primary.set("after", "failover").catch(() => "not yet"), "OK")).toBe("OK");
    expect(await primary.get("before")).toBe("failover");
    const now = (await iset.refresh(state))!;
    expect(instances(now).find((i) => i.id === old.id)).toMatchObject({ status: "FAILED", role: "replica" });
    expect(now.outputs.currentPrimaryInstanceId).not.toBe(old.id);
  });

  test("restored from a backup name, and from an RDB file in object storage", async () => {
    const source = await iset.up(isetArgs({ replicaSubnetIds: [] }));
    await standalone(source.outputs.primaryEndpoint).set("restored", "yes");
    const { body } = await tc.controlApi("PATCH", `/resources/cache/instance-set/${source.id}`, { backupNow: true });
    const byName = await iset.up(isetArgs({ name: "by-name", restoreFrom: { backupName: body.backup } }));
    expect(await standalone(byName.outputs.primaryEndpoint).get("restored")).toBe("yes");
    // The backup's replicas synced it too.
    const replica = instances(byName).find((i) => i.role === "replica")!;
    expect(await standalone(replica.endpoint).get("restored")).toBe("yes");

    // An RDB file a user uploaded: here the backup's own file.
    const dir = join(tc.cloud.dataDir, "cache", "backups", tc.projectId, body.backup as string);
    const rdb = join(dir, readdirSync(dir)[0]!);
    await tc.sdk.createBucket({ name: "dumps" });
    await tc.sdk.putObject("dumps", "queue/dump.rdb", readFileSync(rdb));
    const fromFile = await iset.up(isetArgs({ name: "from-file", replicaSubnetIds: [], restoreFrom: { files: ["dumps/queue/dump.rdb"] } }));
    expect(await standalone(fromFile.outputs.primaryEndpoint).get("restored")).toBe("yes");

    // A file that is not there is refused (422) before anything is created.
    const err = await rejection(iset.up(isetArgs({ name: "no-file", restoreFrom: { files: ["dumps/nothing.rdb"] } })));
    expect(err.message).toMatch(/422.*no object "dumps\/nothing.rdb"/);
  });
});

describe("a restarted local cloud", () => {
  test.each([
    ["after a crash (SIGKILL) it finds its nodes still running and takes them over: same processes, same endpoint, data kept", false],
    // The snapshot is written 25 ms after a change: a crash in between leaves the nodes' ports and
    // cluster ids out of it. Each node's directory still says which process serves it.
    ["after a crash before its state file recorded the nodes' ports, it finds them by their directories", true],
  ])("%s", async (_name, stateBehind) => {
    const dir = mkdtempSync(join(tmpdir(), "krcloud-cache-crash-"));
    const persistPath = join(dir, "state.json");
    let cli = await startCli(persistPath);
    const pids: number[] = [];
    try {
      const client = () => new CacheClient({ settings: resolveSettings({ localCloudUrl: cli.url, authToken: cli.token, projectId: cli.projectId }) });
      const { id } = await client().clusters.create({
        name: "survivor",
        version: VERSION,
        port: 6379,
        shardCount: 1,
        nodeCountPerShard: 2,
        flavorId: "redis.small",
        parameterGroupId: BASE.cluster,
        subnets: [{ id: "sn-a" }],
        subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-a" }] }],
        securityGroups: [{ id: "sg-1" }],
      });
      expect(await untilValue(async () => (await client().clusterTopology(id)).settled, true)).toBe(true);
      const endpoint = (await client().findClusterById(id))!.endpoints.primaryEndpoint;
      await clusterClient(endpoint).set("survives", "the crash");
      const nodesDir = join(`${persistPath}.data`, "cache", "nodes", id);
      for (const node of readdirSync(nodesDir)) pids.push(Number(readFileSync(join(nodesDir, node, "redis.pid"), "utf8")));
      expect(pids).toHaveLength(2);

      cli.child.kill("SIGKILL");
      await new Promise((r) => cli.child.once("exit", r));
      expect(pids.map(alive)).toEqual([true, true]);
      if (stateBehind) forgetNodePorts(persistPath);

      cli = await startCli(persistPath);
      expect(await untilValue(async () => (await client().clusterTopology(id)).settled, true)).toBe(true);
      expect((await client().findClusterById(id))!.endpoints.primaryEndpoint).toBe(endpoint);
      expect(await clusterClient(endpoint).get("survives")).toBe("the crash");
      for (const node of readdirSync(nodesDir)) expect(pids).toContain(Number(readFileSync(join(nodesDir, node, "redis.pid"), "utf8")));

      // A stop (SIGTERM) stops them.
      cli.child.kill("SIGTERM");
      await new Promise((r) => cli.child.once("exit", r));
      expect(pids.map(alive)).toEqual([false, false]);
    } finally {
      if (cli.child.exitCode === null) cli.child.kill("SIGKILL");
      for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("brings its nodes back with their data; a node whose data is gone is FAILED, never Running", async () => {
    const dir = mkdtempSync(join(tmpdir(), "krcloud-cache-restart-"));
    const persistPath = join(dir, "state.json");
    try {
      let cloud = await startLocalCloud({ port: 0, persistPath, cacheEngine: "redis" });
      const cred = cloud.control.issueCredentials({ projectId: tc.projectId });
      const client = () =>
        new CacheClient({
          settings: resolveSettings({ localCloudUrl: cloud.url, authToken: cred.kind === "token" ? cred.token : "", projectId: tc.projectId }),
        });
      const { id } = await client().clusters.create({
        name: "durable",
        version: VERSION,
        port: 6379,
        shardCount: 2,
        nodeCountPerShard: 2,
        flavorId: "redis.small",
        parameterGroupId: BASE.cluster,
        subnets: [{ id: "sn-a" }],
        subnetAssignments: [
          { primary: { id: "sn-a" }, replicas: [{ id: "sn-a" }] },
          { primary: { id: "sn-a" }, replicas: [{ id: "sn-a" }] },
        ],
        securityGroups: [{ id: "sg-1" }],
      });
      const settled = async () => untilValue(async () => (await client().clusterTopology(id)).settled, true);
      await settled();
      const endpoint = (await client().findClusterById(id))!.endpoints.primaryEndpoint;
      const writer = clusterClient(endpoint);
      await Promise.all(Array.from({ length: 100 }, (_, i) => writer.set(`k${i}`, `v${i}`)));
      writer.disconnect();
      await cloud.close();

      // The same endpoint answers after the restart, with the data.
      cloud = await startLocalCloud({ port: 0, persistPath, cacheEngine: "redis" });
      await settled();
      const again = clusterClient(endpoint);
      expect((await Promise.all(Array.from({ length: 100 }, (_, i) => again.get(`k${i}`)))).filter((v, i) => v !== `v${i}`)).toEqual([]);
      const topology = await client().clusterTopology(id);
      const lost = topology.shards[0]!.replicas[0]!;
      await cloud.close();

      // One node's directory disappears while the local cloud is down: it comes back FAILED.
      rmSync(join(`${persistPath}.data`, "cache", "nodes", id, lost.id), { recursive: true });
      cloud = await startLocalCloud({ port: 0, persistPath, cacheEngine: "redis" });
      const statusOf = async () => (await client().clusterTopology(id)).shards[0]!.replicas.find((n) => n.id === lost.id)?.status;
      expect(await untilValue(statusOf, "FAILED")).toBe("FAILED");
      await cloud.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Rewrites a persisted state as a crash right after the nodes started would have left it: no ports, no cluster ids. */
function forgetNodePorts(persistPath: string): void {
  const state = JSON.parse(readFileSync(persistPath, "utf8")) as { services: { cache: { clusters: { shards: { nodes: Record<string, unknown>[] }[] }[] } } };
  let forgotten = 0;
  for (const cluster of state.services.cache.clusters)
    for (const shard of cluster.shards)
      for (const node of shard.nodes) {
        for (const key of ["port", "busPort", "redisId"]) delete node[key];
        forgotten++;
      }
  expect(forgotten).toBe(2);
  writeFileSync(persistPath, JSON.stringify(state));
}

/** The local cloud's command line, persisting to `persistPath`; resolves when it has written its state file. */
async function startCli(persistPath: string): Promise<{ child: ChildProcess; url: string; token: string; projectId: string }> {
  const stateFile = `${persistPath}.cli.json`;
  rmSync(stateFile, { force: true });
  const child = spawn(process.execPath, [entry("localCloud"), "--port", "0", "--persist", persistPath, "--state-file", stateFile, "--cache-engine", "redis"], {
    stdio: "ignore",
  });
  const state = await untilValue(async () => (existsSync(stateFile) ? "written" : "not yet"), "written");
  if (state !== "written") throw new Error("the local cloud did not start");
  return { child, ...(JSON.parse(readFileSync(stateFile, "utf8")) as { url: string; token: string; projectId: string }) };
}

/** Whether nothing listens on the endpoint any more. */
function refused(endpoint: string): Promise<boolean> {
  const { host, port } = hostPort(endpoint);
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED"));
  });
}

/** Polls `read` (every 50 ms, up to 30 s) until it gives `want`; returns the last value read. */
async function untilValue<T>(read: () => Promise<T>, want: T): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 600; i++) {
    last = await read();
    if (last === want) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  return last as T;
}
