/**
 * What every cache resource must do, for InstanceSet, ParameterGroup and Shard (the Cluster's are
 * in cache-resources.test.ts; adopt for Cluster, InstanceSet and ParameterGroup in cache-adopt):
 * replace, disappears, bad input rejected in check with no request sent, a waiter timeout on a stuck
 * status that leaves the resource in state for the next up to finish, a terminal FAILED failing at
 * once, and for Shard adoption of an existing shard. Simulated nodes: the statuses are held and
 * released through the control API.
 */
import { startLocalCloud } from "../../local-cloud";
import { CacheClient } from "../../client/cache";
import { resolveSettings } from "../../client/core";
import { BASE, clusterArgs, instanceSetArgs, VERSION, type CacheTestBed } from "../support/cache";
import { cacheBedForFile, expectGoneWhenDeleted } from "../support/local-cloud/per-file";
import { rejection, type EngineResource, type ResourceState, type TestCloud } from "../support/local-cloud";

let tc: TestCloud;
let pg: EngineResource;
let cluster: EngineResource;
let iset: EngineResource;
let shard: EngineResource;
let sdk: CacheClient;
let transitions: CacheTestBed["transitions"];

cacheBedForFile({ cacheEngine: "simulated", reset: true }, (bed) => ({ tc, pg, cluster, iset, shard, sdk, transitions } = bed));

const hold = (kind: string) => transitions(kind, "duration", 3_600_000);
const setStatus = (kind: string, id: string, status: string) => tc.controlApi("PATCH", `/resources/cache/${kind}/${id}`, { status });
const mutating = (cursor: number) =>
  tc
    .requestsSince(cursor)
    .map((e) => e.operation)
    .filter((o) => !/^(Get|List)/.test(o));

/** What the engine keeps after a create that failed once the cloud had accepted it. */
function recorded(err: Error & Record<string, unknown>): ResourceState {
  expect(typeof err.id).toBe("string");
  expect((err.properties as Record<string, unknown>).__krcloudIncomplete).toBeDefined();
  return { id: err.id as string, inputs: {}, outputs: err.properties as Record<string, unknown> };
}

/** Polls `find` (between event-loop turns, no timer) until it returns something: the id of what a pending create made. */
async function appearing<T>(find: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const found = await find();
    if (found !== undefined) return found;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error("nothing appeared");
}

describe("InstanceSet", () => {
  const args = instanceSetArgs;

  test("update in place keeps the id; a new engine version, name or primary subnet replaces (deleting first under the same name)", async () => {
    const state = await iset.up(args());
    const next = await iset.apply(state, args({ description: "queue", backupSchedule: { hour: 4, retentionDays: 3 } }));
    expect(next.id).toBe(state.id);
    expect(next.outputs).toMatchObject({ description: "queue", backupSchedule: { hour: 4, retentionDays: 3 } });
    for (const [over, key] of [
      [{ version: "7.2.4" }, "version"],
      [{ name: "other-queue" }, "name"],
      [{ primarySubnetId: "sn-c" }, "primarySubnetId"],
    ] as const) {
      // A new name cannot collide with the old: the replacement is created first.
      expect((await iset.plan(next, args({ description: "queue", backupSchedule: { hour: 4, retentionDays: 3 }, ...over }))).diff).toMatchObject({
        replaces: [key],
        deleteBeforeReplace: key !== "name",
      });
    }
  });

  test("disappears: deleted behind Pulumi's back, read says gone and delete succeeds", async () => {
    const state = await iset.up(args());
    await expectGoneWhenDeleted(tc, iset, state, `/resources/cache/instance-set/${state.id}`, "refresh");
  });

  test("bad input: name, description, backup hour and retention are rejected in check with their rules, no request sent", async () => {
    const before = tc.totalRequests();
    const { failures } = await iset.check({}, args({ name: "Bad--Name", description: "a\nb", backupSchedule: { hour: 24, retentionDays: 36 } }));
    const reasons = failures.map((f) => f.reason).join("\n");
    expect(reasons).toMatch(/name: /);
    expect(reasons).toMatch(/description: /);
    expect(reasons).toMatch(/backupSchedule.hour: must be from 0 to 23/);
    expect(reasons).toMatch(/backupSchedule.retentionDays: /);
    expect(tc.totalRequests()).toBe(before);
  });

  test("waiter timeout: instances stuck PROVISIONING fail the create naming the set, it stays in state, and the next up finishes it", async () => {
    await hold("instance");
    const err = await rejection(iset.up(args({ timeouts: { create: "1s" } })));
    expect(err.message).toMatch(/cache instance set "jobs-queue" \(iset-[0-9a-f]+\)/);
    expect(err.message).toMatch(/PROVISIONING|0\/2 instances running/);
    const state = recorded(err);
    for (const i of (await sdk.instanceSetTopology(state.id)).replicas.concat((await sdk.instanceSetTopology(state.id)).primary ?? []))
      await setStatus("instance", i.id, "Running");
    const { diff } = await iset.plan(state, args({ timeouts: { create: "1s" } }));
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const cursor = tc.logCursor();
    const resumed = await iset.apply(state, args({ timeouts: { create: "1s" } }));
    expect(resumed.id).toBe(state.id);
    expect(resumed.outputs).toMatchObject({ status: "Running" });
    expect(resumed.outputs.__krcloudIncomplete).toBeUndefined();
    expect(mutating(cursor)).not.toContain("CreateInstanceSet");
  });

  test("a FAILED instance fails the wait at once", async () => {
    await hold("instance");
    const pending = rejection(iset.up(args({ timeouts: { create: "10m" } })));
    const id = await appearing(async () => (await sdk.clusters.list()).find((c) => c.name === "jobs-queue")?.id);
    const instance = await appearing(async () => (await sdk.instanceSetTopology(id)).replicas[0]?.id);
    await setStatus("instance", instance, "FAILED");
    const started = Date.now();
    const err = await pending;
    expect(err.message).toMatch(/FAILED: instance .*will not become Running by waiting/);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(err.id).toBe(id);
  });
});

describe("ParameterGroup", () => {
  const args = (over: Record<string, unknown> = {}) => ({
    name: "sessions-params",
    baseParameterGroupId: BASE.cluster,
    parameters: { timeout: "300" },
    ...over,
  });

  test("update in place keeps the id; a new name or base group replaces (deleting first under the same name)", async () => {
    const state = await pg.up(args());
    const next = await pg.apply(state, args({ description: "tuned", parameters: { timeout: "600" } }));
    expect(next.id).toBe(state.id);
    expect(next.outputs).toMatchObject({ description: "tuned", parameters: { timeout: "600" } });
    expect((await pg.plan(next, args({ name: "renamed-params" }))).diff).toMatchObject({ replaces: ["name"], deleteBeforeReplace: false });
    expect((await pg.plan(next, args({ baseParameterGroupId: "default.redis7.2.cluster" }))).diff.deleteBeforeReplace).toBe(true);
    expect((await pg.plan(next, args({ baseParameterGroupId: "default.redis7.2.cluster" }))).diff.replaces).toEqual(["baseParameterGroupId"]);
  });

  test("disappears: deleted behind Pulumi's back, read says gone and delete succeeds", async () => {
    const state = await pg.up(args());
    await expectGoneWhenDeleted(tc, pg, state, `/resources/cache/parameter-group/${state.id}`, "refresh");
  });

  test("bad input: the name, a non-string value and the apply mode are rejected in check, no request sent", async () => {
    const before = tc.totalRequests();
    const { failures } = await pg.check({}, args({ name: "9params", parameters: { timeout: 300 }, applyMode: "fast" }));
    expect(failures.map((f) => f.property).sort()).toEqual(["applyMode", "name", "parameters"]);
    expect(failures.map((f) => f.reason)).toContainEqual(expect.stringMatching(/^parameters\.timeout: /));
    expect(tc.totalRequests()).toBe(before);
  });

  test("waiter timeout: a sync stuck Applying fails the update naming the group, keeps it in state, and the next up finishes it", async () => {
    const group = await pg.up(args());
    const c = await cluster.up(clusterArgs({ parameterGroupId: group.id }));
    await hold("sync");
    const err = await rejection(pg.apply(group, args({ parameters: { timeout: "900" }, timeouts: { update: "1s" } })));
    expect(err.message).toMatch(/cache parameter group "sessions-params"/);
    expect(err.message).toMatch(/Applying/);
    expect(err.id).toBe(group.id);
    // In state: what was there before, so the next up sends the change again and waits for it.
    const kept = { id: group.id, inputs: group.inputs, outputs: err.properties as Record<string, unknown> };
    await tc.controlApi("PATCH", `/resources/cache/cluster/${c.id}`, { parameterGroupSyncStatus: "In-Sync" });
    const { diff } = await pg.plan(kept, args({ parameters: { timeout: "900" }, timeouts: { update: "1s" } }));
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const resumed = await pg.apply(kept, args({ parameters: { timeout: "900" }, timeouts: { update: "1s" } }));
    expect(resumed.outputs).toMatchObject({ parameters: { timeout: "900" }, syncStatus: "In-Sync", clusterIds: [c.id] });
  });
});

describe("Shard", () => {
  let clusterState: ResourceState;
  const args = (over: Record<string, unknown> = {}) => ({ clusterId: clusterState.id, primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"], ...over });
  beforeEach(async () => {
    clusterState = await cluster.up(clusterArgs({ shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }] }));
  });

  test("disappears: deleted behind Pulumi's back, read says gone and delete succeeds", async () => {
    const state = await shard.up(args());
    const [clusterId, shardId] = state.id.split("/") as [string, string];
    await sdk.shards.delete(clusterId, shardId);
    expect(await shard.refresh(state)).toBeUndefined();
    await expect(shard.destroy(state)).resolves.toBeUndefined();
  });

  test("bad input: more than 5 replicas and an empty cluster id are rejected in check, no request sent", async () => {
    const before = tc.totalRequests();
    const { failures } = await shard.check({}, args({ clusterId: "", replicaSubnetIds: ["a", "b", "c", "d", "e", "f"] }));
    expect(failures.map((f) => f.reason)).toEqual(["clusterId: must not be empty", "replicaSubnetIds: at most 5 replicas"]);
    expect(tc.totalRequests()).toBe(before);
  });

  test("waiter timeout: nodes stuck PROVISIONING fail the create naming the shard, it stays in state, and the next up finishes it", async () => {
    await hold("node");
    const err = await rejection(shard.up(args({ timeouts: { create: "1s" } })));
    expect(err.message).toMatch(new RegExp(`cache cluster "${clusterState.id}" adding shard`));
    const state = recorded(err);
    expect(state.id).toMatch(new RegExp(`^${clusterState.id}/${clusterState.id}-shard-0002$`));
    for (const s of (await sdk.clusterTopology(clusterState.id)).shards) for (const n of [s.primary!, ...s.replicas]) await setStatus("node", n.id, "Running");
    expect((await shard.plan(state, args({ timeouts: { create: "1s" } }))).diff).toMatchObject({ changes: true, replaces: [] });
    const cursor = tc.logCursor();
    const resumed = await shard.apply(state, args({ timeouts: { create: "1s" } }));
    expect(resumed.outputs).toMatchObject({ replicaSubnetIds: ["sn-c"], status: "Running" });
    expect(mutating(cursor)).not.toContain("AddShard");
  });

  test("a FAILED node fails the wait at once", async () => {
    await hold("node");
    const pending = rejection(shard.up(args({ timeouts: { create: "10m" } })));
    const node = await appearing(async () => (await sdk.clusterTopology(clusterState.id)).shards[1]?.replicas[0]?.id);
    await setStatus("node", node, "FAILED");
    const started = Date.now();
    const err = await pending;
    expect(err.message).toMatch(new RegExp(`FAILED: node ${node}.*will not become Running by waiting`));
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test("adopt: a shard added outside Pulumi is taken over (same shard, no AddShard), its replicas reconciled; a different primary subnet is refused", async () => {
    const { id: shardId } = await sdk.shards.add(clusterState.id, { nodeCount: 1, subnetAssignment: { primary: { id: "sn-b" }, replicas: [] } });
    const refused = await rejection(shard.up(args({ primarySubnetId: "sn-c", adoptShardId: shardId })));
    expect(refused.message).toMatch(/primarySubnetId is "sn-b" there but "sn-c" in the program/);

    const cursor = tc.logCursor();
    const adopted = await shard.up(args({ adoptShardId: shardId }));
    expect(adopted.id).toBe(`${clusterState.id}/${shardId}`);
    expect(mutating(cursor)).toEqual(["AddReplica"]);
    expect(adopted.outputs).toMatchObject({ shardId, replicaSubnetIds: ["sn-c"] });
    expect((await shard.plan((await shard.refresh(adopted))!, args({ adoptShardId: shardId }))).diff.changes).toBe(false);
  });
});

test("without redis-server the local cloud still serves the cache, on simulated nodes", async () => {
  const saved = process.env.KRCLOUD_REDIS_SERVER;
  process.env.KRCLOUD_REDIS_SERVER = "/nonexistent/redis-server";
  const cloud = await startLocalCloud({ port: 0 });
  try {
    const cred = cloud.control.issueCredentials({ projectId: tc.projectId });
    const client = new CacheClient({
      settings: resolveSettings({ localCloudUrl: cloud.url, authToken: cred.kind === "token" ? cred.token : "", projectId: tc.projectId }),
    });
    const { id } = await client.clusters.create({
      name: "plain",
      version: VERSION,
      port: 6379,
      shardCount: 1,
      nodeCountPerShard: 1,
      flavorId: "redis.small",
      parameterGroupId: BASE.cluster,
      subnets: [{ id: "sn-a" }],
      subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [] }],
      securityGroups: [{ id: "sg-1" }],
    });
    expect(await client.findClusterById(id)).toMatchObject({ status: "Running", endpoints: { primaryEndpoint: "plain.cache.local:6379" } });
    expect((await client.clusterTopology(id)).settled).toBe(true);
  } finally {
    await cloud.close();
    if (saved === undefined) delete process.env.KRCLOUD_REDIS_SERVER;
    else process.env.KRCLOUD_REDIS_SERVER = saved;
  }
});
