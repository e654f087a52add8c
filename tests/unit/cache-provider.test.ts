/**
 * The cache resources' pure parts, without a cloud: check (every rule named with its property path),
 * diff (what replaces, what updates in place), the topology arithmetic of updates, the parameter
 * changes sent, the settled state the waiters look for, and the timeouts input.
 */
import { flattenClusterTopology, type CacheClusterRecord, type CacheShard } from "../../client/cache";
import { parseDuration, timeoutFor } from "../../provider/core";
import { provider } from "../../provider/runtime";
import { parameterChanges } from "../../provider/cache/parameter-group";
import { alignTo, missing, placementsReplace, surplus } from "../../provider/cache/topology";
import { clusterState, FAILED, SETTLED } from "../../provider/cache/waiters";
import { CACHE_TIMEOUTS } from "../../provider/cache/waiters";
import { configuredProvider } from "../support/servers/configured";

configuredProvider();

const P = "stub";
const cluster = provider("krcloud:cache:Cluster");
const instanceSet = provider("krcloud:cache:InstanceSet");
const parameterGroup = provider("krcloud:cache:ParameterGroup");

const CLUSTER = {
  name: "sessions",
  version: "7.0.15",
  flavorId: "redis.small",
  parameterGroupId: "pg-1",
  subnetIds: ["sn-a", "sn-b", "sn-c"],
  securityGroupIds: ["sg-1"],
  shards: [
    { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] },
    { primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] },
  ],
};

describe("check", () => {
  test("a valid cluster gets its defaults: port 6379, no TLS, keep automatic backups", async () => {
    const r = await cluster.check({}, { ...CLUSTER, __provider: P });
    expect(r.failures).toBeUndefined();
    expect(r.inputs).toMatchObject({ port: 6379, tlsEnabled: false, keepAutomaticBackups: true });
  });

  test("bad cluster input: every rule named with its property path", async () => {
    const r = await cluster.check(
      {},
      {
        ...CLUSTER,
        name: "Sessions--1",
        port: 80,
        description: "line\nbreak",
        shards: [
          { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b", "sn-c"] },
          { primarySubnetId: "sn-z", replicaSubnetIds: ["sn-c"] },
        ],
        backupSchedule: { cron: "0 25 * * *", retentionDays: 0 },
        timeouts: { create: "soon" },
        __provider: P,
      },
    );
    // Each failure names its top-level input (the engine prints that input's value) and the full path in the reason.
    const pathOf = (reason: string): string => reason.slice(0, reason.indexOf(": "));
    for (const f of r.failures ?? []) expect(f.property).toBe(/^[^.[]+/.exec(pathOf(f.reason))?.[0]);
    const byProperty = Object.fromEntries((r.failures ?? []).map((f) => [pathOf(f.reason), f.reason]));
    // Every failure at once, the cross-field rules included: one preview shows all there is to fix.
    expect(Object.keys(byProperty).sort()).toEqual(
      [
        "backupSchedule.cron",
        "backupSchedule.retentionDays",
        "description",
        "name",
        "port",
        "shards[1].primarySubnetId",
        "shards[1].replicaSubnetIds",
        "timeouts.create",
      ].sort(),
    );
    expect(byProperty.port).toBe("port: must be from 2000 to 50000");
    expect(byProperty["timeouts.create"]).toBe('timeouts.create: must be a duration such as "45m", "1h30m" or "90s"');
    expect(byProperty["backupSchedule.cron"]).toBe('backupSchedule.cron: invalid hour field "25"');
    expect(byProperty["shards[1].primarySubnetId"]).toBe('shards[1].primarySubnetId: subnet "sn-z" is not in subnetIds');
    expect(byProperty["shards[1].replicaSubnetIds"]).toBe(
      "shards[1].replicaSubnetIds: every shard must have the same number of replicas (the service sets one node count per shard)",
    );
  });

  test("shards: 1 to 12, at most 5 replicas each", async () => {
    const none = await cluster.check({}, { ...CLUSTER, shards: [], __provider: P });
    expect(none.failures).toEqual([{ property: "shards", reason: "shards: at least 1 shard" }]);
    const many = await cluster.check({}, { ...CLUSTER, shards: Array.from({ length: 13 }, () => ({ primarySubnetId: "sn-a" })), __provider: P });
    expect(many.failures).toEqual([{ property: "shards", reason: "shards: at most 12 shards per cluster (a limit of the cache service)" }]);
  });

  test("instance set: HA needs a replica, an explicit primary needs HA off, restore needs exactly one source", async () => {
    const base = {
      name: "cache-01",
      version: "7.0.15",
      flavorId: "f",
      parameterGroupId: "pg",
      subnetIds: ["sn-a"],
      securityGroupIds: ["sg"],
      primarySubnetId: "sn-a",
      __provider: P,
    };
    const ha = await instanceSet.check({}, { ...base, highAvailability: true });
    expect(ha.failures).toEqual([{ property: "highAvailability", reason: "highAvailability: needs at least one replica (replicaSubnetIds)" }]);
    const both = await instanceSet.check({}, { ...base, replicaSubnetIds: ["sn-a"], highAvailability: true, primaryInstanceId: "i-1", restoreFrom: {} });
    expect((both.failures ?? []).map((f) => f.property).sort()).toEqual(["primaryInstanceId", "restoreFrom"]);
    const name = await instanceSet.check({}, { ...base, name: "9lives" });
    expect(name.failures?.[0]?.property).toBe("name");
    const backup = await instanceSet.check({}, { ...base, backupSchedule: { hour: 24, retentionDays: 36 } });
    expect((backup.failures ?? []).map((f) => f.reason)).toEqual([
      "backupSchedule.hour: must be from 0 to 23",
      "backupSchedule.retentionDays: must be from 1 to 35 days",
    ]);
  });

  test("parameter group: parameters are a map of strings, applyMode one of two", async () => {
    const r = await parameterGroup.check(
      {},
      { name: "pg-custom", baseParameterGroupId: "default.redis7", parameters: { maxmemory: 5 }, applyMode: "all", __provider: P },
    );
    expect((r.failures ?? []).map((f) => f.property).sort()).toEqual(["applyMode", "parameters"]);
    expect((r.failures ?? []).map((f) => f.reason)).toContainEqual(expect.stringMatching(/^parameters\.maxmemory: /));
  });
});

describe("diff", () => {
  const olds = { ...CLUSTER, port: 6379, tlsEnabled: false, keepAutomaticBackups: true, status: "Running", shardDetails: [], managedShardIds: ["s1", "s2"] };
  const plan = async (news: Record<string, unknown>) => {
    const { inputs } = await cluster.check(olds, { ...CLUSTER, ...news, __provider: P });
    return cluster.diff("c-1", olds, inputs);
  };

  test("adding or removing shards and replicas, and settings, are updates in place", async () => {
    expect(await plan({ shards: [...CLUSTER.shards, { primarySubnetId: "sn-c", replicaSubnetIds: ["sn-a"] }] })).toMatchObject({ changes: true, replaces: [] });
    expect(await plan({ shards: [CLUSTER.shards[0]] })).toMatchObject({ changes: true, replaces: [] });
    expect(await plan({ shards: CLUSTER.shards.map((s) => ({ ...s, replicaSubnetIds: [...s.replicaSubnetIds, "sn-a"] })) })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await plan({ description: "now described", parameterGroupId: "pg-2", securityGroupIds: ["sg-2"] })).toMatchObject({ changes: true, replaces: [] });
    expect(await plan({ keepAutomaticBackups: false, timeouts: { update: "2h" } })).toMatchObject({ changes: true, replaces: [] });
  });

  test("moving an existing shard's primary, or changing name, version, port, flavor, TLS, subnets, replaces (deleting first)", async () => {
    expect(await plan({ shards: [{ primarySubnetId: "sn-c", replicaSubnetIds: ["sn-b"] }, CLUSTER.shards[1]] })).toMatchObject({
      replaces: ["shards"],
      deleteBeforeReplace: true,
    });
    for (const [k, v] of Object.entries({
      name: "sessions2",
      version: "7.2.4",
      port: 6380,
      flavorId: "redis.large",
      tlsEnabled: true,
      subnetIds: ["sn-a", "sn-b", "sn-c", "sn-d"],
    })) {
      expect((await plan({ [k]: v })).replaces).toEqual([k]);
    }
  });

  test("no change when the inputs match", async () => {
    expect(await plan({})).toMatchObject({ changes: false, replaces: [] });
  });

  test("state written before an input existed (no `adopt` in it) shows no change for its default, but does for another value", async () => {
    expect("adopt" in olds).toBe(false);
    expect(await plan({ adopt: false })).toMatchObject({ changes: false });
    expect(await plan({ adopt: true })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("update arithmetic", () => {
  test("surplus and missing are multiset differences; alignTo keeps the declared order of the same subnets", () => {
    expect(missing(["a", "b", "b"], ["b"])).toEqual(["a", "b"]);
    expect(surplus(["a"], ["a", "c", "a"])).toEqual(["c", "a"]);
    expect(alignTo(["b", "a"], ["a", "b"])).toEqual(["b", "a"]);
    expect(alignTo(["b", "a"], ["a", "c"])).toEqual(["a", "c"]);
  });

  test("placementsReplace: only an existing shard's primary subnet", () => {
    const a = [{ primarySubnetId: "x", replicaSubnetIds: [] }];
    expect(placementsReplace(a, [...a, { primarySubnetId: "y", replicaSubnetIds: [] }])).toBe(false);
    expect(placementsReplace(a, [{ primarySubnetId: "y", replicaSubnetIds: [] }])).toBe(true);
  });

  test("parameterChanges: new and changed values, and removed ones back to their default", () => {
    const catalogue = [
      { parameterKey: "maxmemory-policy", defaultParameterValue: "noeviction", valueKind: "enum" as const },
      { parameterKey: "timeout", defaultParameterValue: "0", valueKind: "number" as const },
    ];
    expect(parameterChanges({ "maxmemory-policy": "allkeys-lru", timeout: "300" }, { timeout: "600" }, catalogue)).toEqual({
      timeout: "600",
      "maxmemory-policy": "noeviction",
    });
    expect(parameterChanges({ timeout: "300" }, { timeout: "300" }, catalogue)).toEqual({});
  });
});

describe("settled", () => {
  const record = (status: string): CacheClusterRecord => ({
    id: "c",
    status,
    state: status.toLowerCase(),
    endpoints: {},
    authEnabled: false,
    subnets: [],
    subnetAssignments: [],
    securityGroups: [],
    backupSchedule: null,
    raw: {},
  });
  const shard = (id: string, ...states: string[]): CacheShard => ({
    id,
    slots: [],
    state: "running",
    nodes: states.map((st, i) => ({ id: `${id}-n${i}`, role: i === 0 ? "primary" : "replica", status: st, state: st.toLowerCase(), raw: {} })),
    raw: {},
  });

  test("Running only when the record is not busy and every shard and node runs; FAILED is terminal", () => {
    const running = flattenClusterTopology([shard("s1", "Running", "Running"), shard("s2", "Running", "Running")]);
    expect(clusterState({ record: record("Running"), topology: running })).toBe(SETTLED);
    expect(clusterState({ record: record("Modifying"), topology: running })).toBe("Modifying (2/2 shards, 4/4 nodes running)");
    const syncing = flattenClusterTopology([shard("s1", "Running", "Provisioning"), shard("s2", "Running", "Running")]);
    // The record says Running while a new replica is still syncing (tf-aws #50096): not settled.
    expect(clusterState({ record: record("Running"), topology: syncing })).toBe("Running (1/2 shards, 3/4 nodes running)");
    expect(clusterState({ record: record("Modifying"), topology: flattenClusterTopology([shard("s1", "Running", "FAILED")]) })).toBe(`${FAILED}: node s1-n1`);
  });
});

test("timeouts: the engine's limit first, then the input, then the default; durations like 1h30m", () => {
  expect(parseDuration("1h30m")).toBe(5_400_000);
  expect(parseDuration("90s")).toBe(90_000);
  expect(parseDuration("45")).toBeUndefined();
  expect(parseDuration("")).toBeUndefined();
  expect(timeoutFor({}, undefined, "create", CACHE_TIMEOUTS)).toBe(60 * 60_000);
  expect(timeoutFor({}, { create: "5m" }, "create", CACHE_TIMEOUTS)).toBe(300_000);
  expect(timeoutFor({}, { create: "5m" }, "delete", CACHE_TIMEOUTS)).toBe(45 * 60_000);
  // The engine's deadline (native plugin, customTimeouts): what is left of it.
  const deadline = { at: Date.now() + 2000, signal: new AbortController().signal, description: "the create timeout of 2s (customTimeouts)" };
  const left = timeoutFor({ deadline }, { create: "5m" }, "create", CACHE_TIMEOUTS);
  // What is left of it, plus a second so the deadline (whose error names customTimeouts) ends the wait first.
  expect(left).toBeGreaterThan(2000);
  expect(left).toBeLessThanOrEqual(3000);
});
