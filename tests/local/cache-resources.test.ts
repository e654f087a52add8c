/**
 * The cache resources (krcloud:cache:ParameterGroup, krcloud:cache:Cluster, krcloud:cache:Shard,
 * krcloud:cache:InstanceSet) driven as the Pulumi engine drives them, against the local cloud over
 * loopback HTTP: basic, update in place (same id), replace, disappears, bad input (no request),
 * waiter timeout with a stuck status (and the next up resuming it), FAILED failing fast, the order
 * of a topology update, parameter groups' catalogue checks, managed keys and In-Sync waits.
 */
import { getFlavors, getParameterGroups, getVersions } from "../../provider/cache/functions";
import { UNKNOWN } from "../../provider/core/unknown";
import { CacheClient } from "../../client/cache";
import { BASE, clusterArgs, instanceSetArgs, VERSION, type CacheTestBed } from "../support/cache";
import { cacheBedForFile, expectGoneWhenDeleted } from "../support/local-cloud/per-file";
import { rejection, type EngineResource, type TestCloud } from "../support/local-cloud";

let tc: TestCloud;
let pg: EngineResource;
let cluster: EngineResource;
let iset: EngineResource;
let sdk: CacheClient;
let transitions: CacheTestBed["transitions"];

// The provider's logic, against the simulated data plane (exact even slots, named endpoints, no
// process start-up per create); real Redis behind the same resources: cache-redis.test.ts.
cacheBedForFile({ cacheEngine: "simulated", reset: true }, (bed) => ({ tc, pg, cluster, iset, sdk, transitions } = bed));

describe("Cluster", () => {
  test("basic: created and Running; shards, slots and nodes read from the live topology; a refresh shows no diff", async () => {
    const state = await cluster.up(clusterArgs(), "sessions");
    expect(state.id).toMatch(/^cluster-/);
    expect(state.outputs).toMatchObject({
      name: "sessions",
      status: "Running",
      parameterGroupSyncStatus: "In-Sync",
      shards: clusterArgs().shards,
      managedShardIds: [expect.stringMatching(/shard-0001$/), expect.stringMatching(/shard-0002$/)],
    });
    expect((state.outputs.shardDetails as { slots: string }[]).map((s) => s.slots)).toEqual(["0-8191", "8192-16383"]);
    expect(state.outputs.primaryEndpoint).toMatch(/:6379$/);
    const refreshed = (await cluster.refresh(state))!;
    expect((await cluster.plan(refreshed, clusterArgs())).diff.changes).toBe(false);
  });

  test("a refresh's concurrent reads share one ListClusters call for the records (each cluster's shards still read); a read alone after a change is its own GET and sees it", async () => {
    const states = [];
    for (const name of ["alpha", "beta", "gamma"]) states.push(await cluster.up({ ...clusterArgs(), name }, name));
    let before = tc.counts();
    const refreshed = await Promise.all(states.map((s) => cluster.refresh(s)));
    expect(refreshed.map((r) => r?.outputs.name)).toEqual(["alpha", "beta", "gamma"]);
    const counts = tc.countsSince(before);
    expect(counts.ListClusters).toBe(1);
    expect(counts.GetCluster).toBeUndefined();
    expect(counts.ListShards).toBe(3);

    expect((await tc.controlApi("DELETE", `/resources/cache/cluster/${states[1]!.id}`)).status).toBe(204);
    before = tc.counts();
    expect(await cluster.refresh(states[1]!)).toBeUndefined();
    // A read alone is its own GetCluster (list-reads.ts), which finds it gone.
    expect(tc.countsSince(before)).toEqual({ GetCluster: 1 });
  });

  test("update in place, same id, in the fixed order: shards added, replicas added, settings, replicas removed, shards removed", async () => {
    const state = await cluster.up(clusterArgs());
    // A third shard; a second replica in shard 1; shard 2's replica leaves sn-c for sn-a and sn-b.
    const grown = [
      { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b", "sn-c"] },
      { primarySubnetId: "sn-b", replicaSubnetIds: ["sn-a", "sn-b"] },
      { primarySubnetId: "sn-c", replicaSubnetIds: ["sn-a", "sn-b"] },
    ];
    const cursor = tc.logCursor();
    const next = await cluster.apply(state, clusterArgs({ description: "grown", shards: grown }));
    expect(next.id).toBe(state.id);
    const mutating = tc
      .requestsSince(cursor)
      .map((e) => e.operation)
      .filter((o) => !/^(Get|List)/.test(o));
    // The shards step is recorded in the cluster's description before the shard is added and
    // cleared after (a killed `up` leaves the record, and the next one knows the shard is its own).
    expect(mutating).toEqual(["UpdateCluster", "AddShard", "UpdateCluster", "AddReplica", "AddReplica", "AddReplica", "UpdateCluster", "DeleteNode"]);
    expect(next.outputs.shards).toEqual(grown);
    expect(next.outputs.shards).toHaveLength(3);
    expect((next.outputs.shardDetails as { slots: string }[]).map((s) => s.slots)).toEqual(["0-5460", "5461-10921", "10922-16383"]);
    expect(next.outputs.description).toBe("grown");

    // Shrink back to one shard: the highest ids go, never the last one.
    const cursor2 = tc.logCursor();
    const small = await cluster.apply(next, clusterArgs({ description: "grown", shards: [grown[0]] }));
    const deleted = tc
      .requestsSince(cursor2)
      .filter((e) => e.operation === "DeleteShard")
      .map((e) => e.path.split("/").pop());
    expect(deleted).toEqual([expect.stringMatching(/shard-0003$/), expect.stringMatching(/shard-0002$/)]);
    expect(small.outputs.managedShardIds).toEqual([expect.stringMatching(/shard-0001$/)]);
    expect((await cluster.plan((await cluster.refresh(small))!, clusterArgs({ description: "grown", shards: [grown[0]] }))).diff.changes).toBe(false);
  });

  test("replace: a new engine version or moving an existing shard's primary replaces, deleting first", async () => {
    const state = await cluster.up(clusterArgs());
    expect((await cluster.plan(state, clusterArgs({ version: "7.2.4" }))).diff).toMatchObject({ replaces: ["version"], deleteBeforeReplace: true });
    expect(
      (await cluster.plan(state, clusterArgs({ shards: [{ primarySubnetId: "sn-c", replicaSubnetIds: ["sn-b"] }, clusterArgs().shards[1]] }))).diff.replaces,
    ).toEqual(["shards"]);
  });

  test("disappears: deleted behind Pulumi's back, read says gone and delete succeeds", async () => {
    const state = await cluster.up(clusterArgs());
    await expectGoneWhenDeleted(tc, cluster, state, `/resources/cache/cluster/${state.id}`, "refresh");
  });

  test("bad input is rejected in check with the property path, and no request is sent", async () => {
    const before = tc.totalRequests();
    const { failures } = await cluster.check({}, { ...clusterArgs(), port: 80, shards: [{ primarySubnetId: "sn-x" }] });
    expect(failures.map((f) => f.reason)).toEqual(["port: must be from 2000 to 50000", 'shards[0].primarySubnetId: subnet "sn-x" is not in subnetIds']);
    expect(tc.totalRequests()).toBe(before);
  });

  test("waiter timeout: a cluster stuck Creating fails naming it, stays in state, and the next up resumes it", async () => {
    await transitions("cluster", "duration", 3_600_000);
    const err = await rejection(cluster.up(clusterArgs({ timeouts: { create: "1s" } })));
    expect(err.message).toMatch(/cache cluster "sessions" \(cluster-[0-9a-f]+\)/);
    expect(err.message).toMatch(/Creating/);
    expect(err.id).toMatch(/^cluster-/);
    expect(err.properties.__krcloudIncomplete).toBeDefined();
    const recorded = { id: err.id as string, inputs: {}, outputs: err.properties as Record<string, unknown> };

    // Settles later: the next up sees a change (the marker) and waits it out in update.
    await tc.controlApi("PATCH", `/resources/cache/cluster/${err.id}`, { status: "Running" });
    const { diff } = await cluster.plan(recorded, clusterArgs({ timeouts: { create: "1s" } }));
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const resumed = await cluster.apply(recorded, clusterArgs({ timeouts: { create: "1s" } }));
    expect(resumed.outputs.status).toBe("Running");
    expect(resumed.outputs.__krcloudIncomplete).toBeUndefined();
    await transitions("cluster", "immediate");
  });

  test("a FAILED node fails the wait at once, long before the timeout", async () => {
    await transitions("node", "duration", 3_600_000);
    const pending = rejection(cluster.up(clusterArgs({ timeouts: { create: "10m" } })));
    // Wait for the create request to land, then fail one node.
    let node: string | undefined;
    for (let i = 0; i < 200 && !node; i++) {
      await new Promise((r) => setImmediate(r));
      const c = (await sdk.clusters.list())[0];
      if (c) node = (await sdk.clusterTopology(c.id)).shards[0]?.replicas[0]?.id;
    }
    await tc.controlApi("PATCH", `/resources/cache/node/${node}`, { status: "FAILED" });
    const started = Date.now();
    const err = await pending;
    expect(err.message).toMatch(new RegExp(`FAILED: node ${node}.*will not become Running by waiting`));
    expect(Date.now() - started).toBeLessThan(30_000);
    await transitions("node", "immediate");
  });
});

describe("ParameterGroup", () => {
  test("basic: created from a default group; only the parameters set are managed; refresh shows no diff", async () => {
    const state = await pg.up({
      name: "sessions-params",
      baseParameterGroupId: BASE.cluster,
      parameters: { "maxmemory-policy": "allkeys-lru", timeout: "300" },
    });
    expect(state.outputs).toMatchObject({
      parameters: { "maxmemory-policy": "allkeys-lru", timeout: "300" },
      syncStatus: "In-Sync",
      clusterIds: [],
      engineVersion: VERSION,
    });
    const refreshed = (await pg.refresh(state))!;
    expect(Object.keys(refreshed.outputs.parameters as object).sort()).toEqual(["maxmemory-policy", "timeout"]);
    expect(
      (
        await pg.plan(refreshed, {
          name: "sessions-params",
          baseParameterGroupId: BASE.cluster,
          parameters: { "maxmemory-policy": "allkeys-lru", timeout: "300" },
        })
      ).diff.changes,
    ).toBe(false);
  });

  test("every bad value fails check (the preview), each with its rule, reading only the base group; a create the preview could not check is refused whole", async () => {
    const args = {
      name: "bad-params",
      baseParameterGroupId: BASE.cluster,
      parameters: { timeout: "-5", "maxmemory-policy": "lru", databases: "8", "no-such": "1" },
    };
    const cursor = tc.logCursor();
    const { inputs, failures } = await pg.check({}, args, "bad-params");
    expect(failures.map((f) => f.reason.split(":")[0]).sort()).toEqual([
      "parameters.databases",
      "parameters.maxmemory-policy",
      "parameters.no-such",
      "parameters.timeout",
    ]);
    for (const f of failures) expect(f.reason).toContain(`checked against the catalogue of base group "${BASE.cluster}", read from the cloud`);
    // At most one read: the base group is read once per process, maybe by an earlier test.
    const reads = tc.requestsSince(cursor).map((e) => `${e.method} ${e.operation}`);
    expect(reads.length).toBeLessThanOrEqual(1);
    expect(reads.every((r) => r === "GET GetParameterGroup")).toBe(true);

    // A base group unknown at preview skips that check: create still checks every value first.
    const unchecked = await pg.check({}, { ...args, baseParameterGroupId: UNKNOWN }, "bad-params");
    expect(unchecked.failures).toEqual([]);
    const err = await rejection(pg.create({ ...unchecked.inputs, baseParameterGroupId: BASE.cluster }));
    expect(err.message).toMatch(/4 parameters rejected by the base group's catalogue, nothing was changed/);
    for (const k of ["timeout", "maxmemory-policy", "databases", "no-such"]) expect(err.message).toContain(k);
    expect(tc.requestsSince(cursor).every((e) => e.method === "GET")).toBe(true);
    expect(inputs.name).toBe("bad-params");
  });

  test("a removed parameter goes back to its default; a change reaches the clusters using the group and waits until In-Sync; drift shows", async () => {
    const group = await pg.up({ name: "shared-params", baseParameterGroupId: BASE.cluster, parameters: { timeout: "300", "tcp-keepalive": "60" } });
    const c = await cluster.up(clusterArgs({ parameterGroupId: group.id }));
    const next = await pg.apply(group, { name: "shared-params", baseParameterGroupId: BASE.cluster, parameters: { timeout: "600" } });
    expect(next.outputs.parameters).toEqual({ timeout: "600" });
    const live = await sdk.parameterGroups.get(group.id);
    expect(live.parameters.find((p) => p.parameterKey === "tcp-keepalive")?.parameterValue).toBe("300");
    expect(next.outputs).toMatchObject({ syncStatus: "In-Sync", clusterIds: [c.id] });
    expect((next.outputs.recentEvents as { eventName: string }[]).map((e) => e.eventName)).toContain("Update Parameter");

    await sdk.parameterGroups.modify(group.id, { parameters: { timeout: "42" }, applyMode: "parallel" });
    const refreshed = (await pg.refresh(next))!;
    expect(refreshed.outputs.parameters).toEqual({ timeout: "42" });
    expect((await pg.plan(refreshed, { name: "shared-params", baseParameterGroupId: BASE.cluster, parameters: { timeout: "600" } })).diff).toMatchObject({
      changes: true,
      replaces: [],
    });

    // In use: delete fails naming the cluster.
    const err = await rejection(pg.destroy(next));
    expect(err.message).toMatch(new RegExp(`used by "sessions" \\(${c.id}\\)`));
  });

  test("Error-Sync gets one retry-apply, then fails with the group's recent events", async () => {
    const group = await pg.up({ name: "sync-params", baseParameterGroupId: BASE.cluster, parameters: { timeout: "300" } });
    const c = await cluster.up(clusterArgs({ parameterGroupId: group.id }));
    await tc.controlApi("PATCH", `/resources/cache/cluster/${c.id}`, { stickySyncError: true });
    const cursor = tc.logCursor();
    const err = await rejection(pg.apply(group, { name: "sync-params", baseParameterGroupId: BASE.cluster, parameters: { timeout: "900" } }));
    expect(tc.requestsSince(cursor).filter((e) => e.operation === "RetryParameterGroupApply")).toHaveLength(1);
    expect(err.message).toMatch(/still Error-Sync after a retry of the apply; recent events: .*Apply Parameter/);
    expect(err.id).toBe(group.id);
  });
});

describe("InstanceSet", () => {
  const isetArgs = (over: Record<string, unknown> = {}) => instanceSetArgs({ replicaSubnetIds: ["sn-b", "sn-c"], highAvailability: true, ...over });

  test("basic, then HA off and every replica removed in one update: HA goes off first", async () => {
    const state = await iset.up(isetArgs());
    expect(state.outputs).toMatchObject({ status: "Running", highAvailability: true, replicaSubnetIds: ["sn-b", "sn-c"] });
    expect((await iset.plan((await iset.refresh(state))!, isetArgs())).diff.changes).toBe(false);

    const cursor = tc.logCursor();
    const next = await iset.apply(state, isetArgs({ highAvailability: false, replicaSubnetIds: [] }));
    const ops = tc
      .requestsSince(cursor)
      .map((e) => e.operation)
      .filter((o) => !/^(Get|List)/.test(o));
    expect(ops).toEqual(["SetHighAvailability", "DeleteInstance", "DeleteInstance"]);
    expect(next.outputs).toMatchObject({ highAvailability: false, replicaSubnetIds: [] });
    expect(next.id).toBe(state.id);
  });

  test("replicas added before HA goes on; an explicit primary is promoted with HA off, and a promote is no change of placement", async () => {
    const state = await iset.up(isetArgs({ highAvailability: false, replicaSubnetIds: [] }));
    const cursor = tc.logCursor();
    const ha = await iset.apply(state, isetArgs({ highAvailability: true, replicaSubnetIds: ["sn-b"] }));
    const ops = tc
      .requestsSince(cursor)
      .map((e) => e.operation)
      .filter((o) => !/^(Get|List)/.test(o));
    expect(ops).toEqual(["AddReplicaInstance", "SetHighAvailability"]);

    const off = await iset.apply(ha, isetArgs({ highAvailability: false, replicaSubnetIds: ["sn-b"] }));
    const replica = (off.outputs.instances as { id: string; role: string }[]).find((i) => i.role === "replica")!;
    const promoted = await iset.apply(off, isetArgs({ highAvailability: false, replicaSubnetIds: ["sn-b"], primaryInstanceId: replica.id }));
    expect(promoted.outputs).toMatchObject({ currentPrimaryInstanceId: replica.id, primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] });
    expect(
      (await iset.plan((await iset.refresh(promoted))!, isetArgs({ highAvailability: false, replicaSubnetIds: ["sn-b"], primaryInstanceId: replica.id }))).diff
        .changes,
    ).toBe(false);
  });

  test("check: HA needs a replica; no request sent", async () => {
    const before = tc.totalRequests();
    const { failures } = await iset.check({}, isetArgs({ replicaSubnetIds: [] }));
    expect(failures).toEqual([{ property: "highAvailability", reason: "highAvailability: needs at least one replica (replicaSubnetIds)" }]);
    expect(tc.totalRequests()).toBe(before);
  });
});

test("lookups: versions, flavors, default parameter groups by mode and version", async () => {
  expect((await getVersions()).versions).toContain(VERSION);
  expect((await getFlavors()).flavors.map((f) => f.id)).toContain("redis.small");
  const defaults = await getParameterGroups({ parameterGroupType: "default", clusterMode: "enabled", engineVersion: VERSION });
  expect(defaults.parameterGroups.map((g) => g.id)).toEqual([BASE.cluster]);
});

describe("Shard", () => {
  test("a Shard resource adds a shard the Cluster leaves alone; replicas in place; replace; delete drains it", async () => {
    const shard = await tc.resource("krcloud:cache:Shard");
    const c = await cluster.up(clusterArgs({ shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }] }));
    const s = await shard.up({ clusterId: c.id, primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] });
    expect(s.id).toMatch(new RegExp(`^${c.id}/${c.id}-shard-0002$`));
    expect(s.outputs).toMatchObject({ slots: "8192-16383", slotCount: 8192, replicaSubnetIds: ["sn-c"] });

    // The Cluster sees the extra shard, does not manage it, and plans nothing for it.
    const refreshed = (await cluster.refresh(c))!;
    expect(refreshed.outputs.managedShardIds).toEqual([expect.stringMatching(/shard-0001$/)]);
    expect((refreshed.outputs.shardDetails as { managed: boolean }[]).map((x) => x.managed)).toEqual([true, false]);
    expect((await cluster.plan(refreshed, clusterArgs({ shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }] }))).diff.changes).toBe(false);

    // Replicas change in place; a new primary subnet replaces; read works from the id alone.
    const more = await shard.apply(s, { clusterId: c.id, primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c", "sn-a"] });
    expect(more.outputs.replicaSubnetIds).toEqual(["sn-c", "sn-a"]);
    expect((await shard.plan(more, { clusterId: c.id, primarySubnetId: "sn-a", replicaSubnetIds: ["sn-c", "sn-a"] })).diff.replaces).toEqual([
      "primarySubnetId",
    ]);
    expect((await shard.read(more.id, {})).props).toMatchObject({ clusterId: c.id, primarySubnetId: "sn-b" });

    await shard.destroy(more);
    expect((await sdk.clusterTopology(c.id)).shardCount).toBe(1);
    expect(await shard.refresh(more)).toBeUndefined();
  });
});
