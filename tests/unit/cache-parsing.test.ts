/** Reading the spec's answers (02 §2, §4) and the live-topology flatteners, without a server. */
import {
  flattenClusterList,
  flattenClusterRecord,
  flattenClusterTopology,
  flattenFlavors,
  flattenInstanceList,
  flattenInstanceSetTopology,
  flattenParameterGroup,
  flattenParameterGroupEvents,
  flattenParameterGroupList,
  flattenShard,
  flattenShardList,
  flattenVersions,
  isResponseFormatError,
  normalizeRole,
  normalizeStatus,
  parseCacheErrorBody,
  parseSlots,
  HASH_SLOTS,
} from "../../client/cache";
import * as fx from "../support/cache/answers";

const A = "reading";

describe("cluster / instance set record (2.1)", () => {
  test("the cluster sample: ids, endpoints, schedule, normalised status and sync status, unknown fields kept", () => {
    const r = flattenClusterRecord({ ...fx.clusterRecord, futureField: { x: 1 } }, A);
    expect(r).toMatchObject({
      id: "c-100",
      name: "web",
      port: 6379,
      clusterEnabled: true,
      shardCount: 2,
      endpoints: { primaryEndpoint: "10.0.0.10:6379" },
      authEnabled: false,
      subnets: [{ id: "sn-a" }, { id: "sn-b" }],
      subnetAssignments: fx.clusterRecord.subnetAssignments,
      backupSchedule: { cron: "* 3 * * *", retentionLimit: 7 },
      status: "Creating",
      state: "creating",
      parameterGroupSyncStatus: "In-Sync",
      parameterGroupSyncState: "in-sync",
    });
    expect(r.userName).toBeUndefined();
    expect(r.endpoints.readEndpoint).toBeUndefined();
    expect(r.raw.futureField).toEqual({ x: 1 });
  });

  test("the instance set sample: read endpoint, a user name, backups off (null), Error-Sync", () => {
    const r = flattenClusterRecord(fx.instanceSetRecord, A);
    expect(r).toMatchObject({
      id: "is-200",
      clusterEnabled: false,
      shardCount: 0,
      userName: "app",
      authEnabled: true,
      backupSchedule: null,
      state: "modifying",
      parameterGroupSyncState: "error-sync",
    });
    expect(r.endpoints.readEndpoint).toBe("10.0.1.11");
  });

  test("an empty cron or a missing schedule reads as backups off", () => {
    expect(flattenClusterRecord({ objectId: "c", backupSchedule: { cron: "", retentionLimit: 3 } }, A).backupSchedule).toBeNull();
    expect(flattenClusterRecord({ objectId: "c" }, A).backupSchedule).toBeNull();
  });

  test("tolerance: numeric strings, boolean strings, numeric ids, bare id strings, a field of the wrong type dropped", () => {
    const r = flattenClusterRecord(
      {
        objectId: 7,
        port: "6379",
        clusterEnabled: "false",
        memory: "lots",
        subnets: ["sn-a", { id: "sn-b" }, { nope: 1 }],
        backupSchedule: { cron: "* 1 * * *", retentionLimit: "5" },
      },
      A,
    );
    expect(r).toMatchObject({
      id: "7",
      port: 6379,
      clusterEnabled: false,
      subnets: [{ id: "sn-a" }, { id: "sn-b" }],
      backupSchedule: { cron: "* 1 * * *", retentionLimit: 5 },
    });
    expect(r.memory).toBeUndefined();
    expect(r.raw.memory).toBe("lots");
  });

  test("a record without an id, or wrapped in {cluster}, or not an object", () => {
    expect(flattenClusterRecord({ cluster: fx.clusterRecord }, A).id).toBe("c-100");
    expect(isResponseFormatError(catchErr(() => flattenClusterRecord({ name: "x" }, A)))).toBe(true);
    expect(isResponseFormatError(catchErr(() => flattenClusterRecord("nope", A)))).toBe(true);
  });

  test("cluster list: {clusters}, a bare array, an empty answer; a non-list is an error", () => {
    expect(flattenClusterList({ clusters: [fx.clusterRecord, fx.instanceSetRecord] }, A).map((c) => c.id)).toEqual(["c-100", "is-200"]);
    expect(flattenClusterList([fx.clusterRecord], A)).toHaveLength(1);
    expect(flattenClusterList(undefined, A)).toEqual([]);
    expect(flattenClusterList({ clusters: null }, A)).toEqual([]);
    expect(isResponseFormatError(catchErr(() => flattenClusterList({ clusters: "x" }, A)))).toBe(true);
  });
});

describe("shards, nodes, instances (2.2)", () => {
  test("a shard with slots and nodes; roles and statuses normalised", () => {
    const s = flattenShard(fx.shards.shards[0], A);
    expect(s).toMatchObject({ id: "s-0002", slotsText: "8192-16383", slots: [{ start: 8192, end: 16383 }], state: "modifying" });
    expect(s.nodes.map((n) => [n.id, n.role, n.state, n.subnetId])).toEqual([
      ["n-21", "replica", "modifying", "sn-a"],
      ["n-20", "primary", "running", "sn-a"],
    ]);
    expect(flattenShardList(fx.shards, A)).toHaveLength(2);
  });

  test("instances: {size, data} with PROVISIONING and FAILED upper case; `instances` key and bare arrays too", () => {
    const l = flattenInstanceList(fx.instances, A);
    expect(l.size).toBe(3);
    expect(l.instances.map((i) => [i.id, i.role, i.state, i.subnetId, i.port])).toEqual([
      ["i-1", "primary", "running", "sn-a", 6379],
      ["i-2", "replica", "provisioning", "sn-a", 6379],
      ["i-3", "replica", "failed", "sn-a", 6379],
    ]);
    expect(flattenInstanceList({ instances: fx.instances.data }, A).size).toBe(3);
    expect(flattenInstanceList(fx.instances.data, A).instances).toHaveLength(3);
  });
});

describe("statuses (§3: the spec writes Running, PROVISIONING, Failed and FAILED, In-Sync)", () => {
  test.each([
    ["Running", "running"],
    ["RUNNING", "running"],
    ["PROVISIONING", "provisioning"],
    ["Failed", "failed"],
    ["FAILED", "failed"],
    ["In-Sync", "in-sync"],
    ["IN_SYNC", "in-sync"],
    ["InSync", "in-sync"],
    ["Error-Sync", "error-sync"],
    ["ERROR_SYNC", "error-sync"],
    ["Suspended", "suspended"],
    [" in sync ", "in-sync"],
    ["", undefined],
    [undefined, undefined],
  ])("%p -> %p", (input, out) => {
    expect(normalizeStatus(input)).toBe(out);
  });

  test("roles: primary/replica, master/slave and casing", () => {
    expect([
      normalizeRole("PRIMARY"),
      normalizeRole("master"),
      normalizeRole("Replica"),
      normalizeRole("slave"),
      normalizeRole("arbiter"),
      normalizeRole(undefined),
    ]).toEqual(["primary", "primary", "replica", "replica", "arbiter", undefined]);
  });
});

describe("slots", () => {
  test.each([
    ["0-5460", [{ start: 0, end: 5460 }]],
    ["0~5460", [{ start: 0, end: 5460 }]],
    [
      "0-100,200-300",
      [
        { start: 0, end: 100 },
        { start: 200, end: 300 },
      ],
    ],
    ["[0-100] [101-200] 7", [{ start: 0, end: 200 }]],
    [
      ["200-300", [0, 10]],
      [
        { start: 0, end: 10 },
        { start: 200, end: 300 },
      ],
    ],
    [[{ start: 5, end: 9 }], [{ start: 5, end: 9 }]],
    ["garbage, 9-3, 12", [{ start: 12, end: 12 }]],
    [undefined, []],
  ])("%p", (input, out) => {
    expect(parseSlots(input)).toEqual(out);
  });
});

describe("cluster topology", () => {
  test("shards ordered by id, primary and replicas split, unsettled nodes listed, slot coverage", () => {
    const t = flattenClusterTopology(flattenShardList(fx.shards, A));
    expect(t.shards.map((s) => s.id)).toEqual(["s-0001", "s-0002"]);
    expect(t.shards[1]).toMatchObject({ primary: { id: "n-20" }, slotCount: 8192, settled: false, nodeStates: { "n-20": "running", "n-21": "modifying" } });
    expect(t.shards[1]!.replicas.map((n) => n.id)).toEqual(["n-21"]);
    expect(t).toMatchObject({
      shardCount: 2,
      nodeCount: 4,
      replicasPerShard: 1,
      slotsCovered: HASH_SLOTS,
      settled: false,
      unsettledNodes: [{ shardId: "s-0002", nodeId: "n-21", state: "modifying" }],
    });
  });

  test("settled when every shard and node is running; replicasPerShard undefined when shards differ", () => {
    const running = fx.shards.shards.map((s) => ({ ...s, status: "RUNNING", nodes: s.nodes.map((n) => ({ ...n, status: "Running" })) }));
    running[0]!.nodes.push(fx.node("n-22", "replica"));
    const t = flattenClusterTopology(flattenShardList({ shards: running }, A));
    expect(t.settled).toBe(true);
    expect(t.replicasPerShard).toBeUndefined();
    expect(t.unsettledNodes).toEqual([]);
  });

  test("a shard mid-failover (no primary, two replicas) and an empty topology", () => {
    const t = flattenClusterTopology([flattenShard({ id: "s", nodes: [fx.node("a", "replica"), fx.node("b", "replica")] }, A)]);
    expect(t.shards[0]!.primary).toBeUndefined();
    expect(t.slotsCovered).toBe(0);
    expect(flattenClusterTopology([])).toMatchObject({ shardCount: 0, settled: false });
  });

  test("instance set topology: primary, replicas, failed ones, settled", () => {
    const t = flattenInstanceSetTopology(flattenInstanceList(fx.instances, A).instances);
    expect(t.primary?.id).toBe("i-1");
    expect(t.replicas.map((i) => i.id)).toEqual(["i-2", "i-3"]);
    expect(t.failed.map((i) => i.id)).toEqual(["i-3"]);
    expect(t.settled).toBe(false);
    expect(t.instanceStates).toEqual({ "i-1": "running", "i-2": "provisioning", "i-3": "failed" });
  });
});

describe("lookups and parameter groups (2.3, 4.1, 4.4)", () => {
  test("versions: array of strings; {versions}; objects", () => {
    expect(flattenVersions(fx.versions, A)).toEqual(fx.versions);
    expect(flattenVersions({ versions: [{ version: "7.0.15" }, "6.2"] }, A)).toEqual(["7.0.15", "6.2"]);
  });

  test("flavors: vcpus, or the record's spelling vcpu", () => {
    expect(flattenFlavors(fx.flavors, A)).toEqual([{ id: "fl-m2", name: "m2a.large", vcpus: 2, memory: 4, raw: fx.flavors.flavors[0] }]);
    expect(flattenFlavors({ flavors: [{ id: "f", vcpu: 8 }] }, A)[0]!.vcpus).toBe(8);
  });

  test("summary list and detail; NUMBER and INTEGER are both numbers; an empty defaultParameterGroupId reads as none", () => {
    const list = flattenParameterGroupList(
      { parameterGroups: [fx.parameterGroupSummary, { ...fx.parameterGroupSummary, id: "pg-1", isDefault: true, defaultParameterGroupId: "" }] },
      A,
    );
    expect(list.map((g) => [g.id, g.isDefault, g.defaultParameterGroupId])).toEqual([
      ["pg-9", false, "pg-1"],
      ["pg-1", true, undefined],
    ]);
    const g = flattenParameterGroup(fx.parameterGroupDetail, A);
    expect(g).toMatchObject({ id: "pg-9", rollbackAvailable: true, clusterSize: 1 });
    expect(g.parameters.map((p) => [p.parameterKey, p.dataType, p.valueKind, p.editable])).toEqual([
      ["maxmemory-policy", "ENUM", "enum", true],
      ["timeout", "INTEGER", "number", true],
      ["hz", "NUMBER", "number", true],
      ["notify-keyspace-events", "STRING", "string", true],
      ["databases", "INTEGER", "number", false],
    ]);
    expect(g.raw).not.toHaveProperty("parameters");
  });

  test("parameter values sent as numbers are read as strings; unknown data types are kept", () => {
    const g = flattenParameterGroup({ id: "pg", parameters: [{ parameterKey: "hz", parameterValue: 10, dataType: "boolean" }] }, A);
    expect(g.parameters[0]).toMatchObject({ parameterValue: "10", dataType: "BOOLEAN", valueKind: "unknown" });
  });

  test("events", () => {
    expect(flattenParameterGroupEvents(fx.events, A).map((e) => e.eventName)).toEqual(["Apply Parameter", "Update Parameter"]);
  });
});

describe("error bodies (§7 not shown)", () => {
  test.each([
    ['{"errorCode":"E1","errorMessage":"m","requestId":"r"}', { code: "E1", message: "m", requestId: "r" }],
    ['{"itemNotFound":{"code":404,"message":"gone"}}', { code: "itemNotFound", message: "gone" }],
    ['{"title":"Bad","detail":"why","status":400}', { code: "Bad", message: "why" }],
    ['{"detail":"why"}', { message: "why" }],
    ['{"error":"invalid_token"}', { message: "invalid_token" }],
    ["not json", undefined],
    ["[1,2]", undefined],
    ["{}", undefined],
  ])("%s", (text, out) => {
    const r = parseCacheErrorBody(text);
    if (out === undefined) expect(r).toBeUndefined();
    else expect(r).toMatchObject(out);
  });
});

function catchErr(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a failure");
}
