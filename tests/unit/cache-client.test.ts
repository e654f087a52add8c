/**
 * CacheClient against a scripted loopback server: for every operation of spec 02 the method, path,
 * query, headers and body on the wire and the declared idempotency. How the spec's answers are read
 * is in cache-client-answers.test.ts, the client's helpers in cache-client-helpers.test.ts. No
 * sleeps: the fake clock makes transport retries instant.
 */
import type { RequestSpec } from "../../client/core";
import type { CacheClient } from "../../client/cache";
import { cacheClient, clusterInput, ok, setInput, TOKEN, wire } from "../support/cache/wire";
import * as fx from "../support/cache/answers";
import { jsonReply as json, useScriptedServer, type Reply } from "../support/servers/scripted";

const srv = useScriptedServer();
const client = () => cacheClient(srv);

// The create bodies: a cluster's is its input as given, an instance set's adds the settings' project.
// Copies taken before any call, so that a client changing its input could not make them match.
const clusterWire = structuredClone(clusterInput);
const setWire = { ...structuredClone(setInput), projectId: "p-1" };

interface Case {
  name: string;
  call: (c: CacheClient) => Promise<unknown>;
  reply: Reply;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  idempotent: boolean;
  result?: unknown;
}

const cases: Case[] = [
  {
    name: "list versions",
    call: (c) => c.catalogue.listVersions(),
    reply: json(200, fx.versions),
    method: "GET",
    path: "/v1/redis/versions",
    idempotent: true,
    result: ["6.2.14", "7.0.15"],
  },
  { name: "list flavors", call: (c) => c.catalogue.listFlavors(), reply: json(200, fx.flavors), method: "GET", path: "/v1/redis/flavors", idempotent: true },
  {
    name: "list clusters",
    call: (c) => c.clusters.list(),
    reply: json(200, { clusters: [fx.clusterRecord] }),
    method: "GET",
    path: "/v1/clusters",
    idempotent: true,
  },
  {
    name: "list clusters by parameter group",
    call: (c) => c.clusters.list({ parameterGroup: "web params" }),
    reply: json(200, { clusters: [] }),
    method: "GET",
    path: "/v1/clusters",
    query: { parameterGroup: "web params" },
    idempotent: true,
    result: [],
  },
  {
    name: "get cluster",
    call: (c) => c.clusters.get("c-100"),
    reply: json(200, fx.clusterRecord),
    method: "GET",
    path: "/v1/clusters/c-100",
    idempotent: true,
  },
  {
    name: "create cluster",
    call: (c) => c.clusters.create(clusterInput),
    reply: ok("c-100", 201),
    method: "POST",
    path: "/v1/clusters",
    body: clusterWire,
    idempotent: false,
    result: { id: "c-100" },
  },
  {
    name: "restore cluster (both spellings of the backup field)",
    call: (c) => c.clusters.restore(clusterInput, "bk-1"),
    reply: ok("c-101", 201),
    method: "POST",
    path: "/v1/clusters",
    idempotent: false,
    result: { id: "c-101" },
  },
  {
    name: "update cluster",
    call: (c) =>
      c.clusters.update("c-100", {
        description: "d",
        parameterGroupId: "pg-2",
        securityGroups: [{ id: "sg-2" }],
        backupSchedule: { cron: "* 4 * * *", retentionLimit: 3 },
      }),
    reply: ok("c-100"),
    method: "PATCH",
    path: "/v1/clusters/c-100",
    body: { description: "d", parameterGroupId: "pg-2", securityGroups: [{ id: "sg-2" }], backupSchedule: { cron: "* 4 * * *", retentionLimit: 3 } },
    idempotent: true,
  },
  {
    name: "update cluster: backups off",
    call: (c) => c.clusters.update("c-100", { backupSchedule: null }),
    reply: ok("c-100"),
    method: "PATCH",
    path: "/v1/clusters/c-100",
    body: { backupSchedule: { cron: "" } },
    idempotent: true,
  },
  {
    name: "delete cluster keeping backups",
    call: (c) => c.clusters.delete("c-100", { keepAutomaticBackups: true }),
    reply: ok("c-100"),
    method: "DELETE",
    path: "/v1/clusters/c-100",
    query: { keepAutomaticBackups: "true" },
    idempotent: true,
    result: { id: "c-100" },
  },
  {
    name: "delete cluster dropping backups",
    call: (c) => c.clusters.delete("c-100", { keepAutomaticBackups: false }),
    reply: ok("c-100"),
    method: "DELETE",
    path: "/v1/clusters/c-100",
    query: { keepAutomaticBackups: "false" },
    idempotent: true,
  },
  {
    name: "delete cluster without the flag",
    call: (c) => c.clusters.delete("c-100"),
    reply: ok("c-100"),
    method: "DELETE",
    path: "/v1/clusters/c-100",
    query: {},
    idempotent: true,
  },
  {
    name: "retry parameter group apply",
    call: (c) => c.clusters.retryParameterGroupApply("c-100"),
    reply: ok("c-100"),
    method: "POST",
    path: "/v1/clusters/c-100/parameter-group/apply",
    body: undefined,
    idempotent: false,
  },
  {
    name: "add shard",
    call: (c) => c.shards.add("c-100", { nodeCount: 2, subnetAssignment: { primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] } }),
    reply: ok("s-0003", 201),
    method: "POST",
    path: "/v1/clusters/c-100/shards",
    body: { nodeCount: 2, subnetAssignment: { primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] } },
    idempotent: false,
    result: { id: "s-0003" },
  },
  { name: "list shards", call: (c) => c.shards.list("c-100"), reply: json(200, fx.shards), method: "GET", path: "/v1/clusters/c-100/shards", idempotent: true },
  {
    name: "get shard",
    call: (c) => c.shards.get("c-100", "s-0001"),
    reply: json(200, fx.shards.shards[1]),
    method: "GET",
    path: "/v1/clusters/c-100/shards/s-0001",
    idempotent: true,
  },
  {
    name: "delete shard",
    call: (c) => c.shards.delete("c-100", "s-0002"),
    reply: ok("c-100"),
    method: "DELETE",
    path: "/v1/clusters/c-100/shards/s-0002",
    idempotent: true,
  },
  {
    name: "add replica node",
    call: (c) => c.nodes.addReplica("c-100", "s-0001", { subnet: { id: "sn-b" } }),
    reply: ok("n-12", 201),
    method: "POST",
    path: "/v1/clusters/c-100/shards/s-0001/nodes",
    body: { subnet: { id: "sn-b" } },
    idempotent: false,
    result: { id: "n-12" },
  },
  {
    name: "list nodes",
    call: (c) => c.nodes.list("c-100", "s-0001"),
    reply: json(200, { nodes: fx.shards.shards[1]!.nodes }),
    method: "GET",
    path: "/v1/clusters/c-100/shards/s-0001/nodes",
    idempotent: true,
  },
  {
    name: "get node",
    call: (c) => c.nodes.get("c-100", "s-0001", "n-11"),
    reply: json(200, fx.node("n-11", "replica")),
    method: "GET",
    path: "/v1/clusters/c-100/shards/s-0001/nodes/n-11",
    idempotent: true,
  },
  {
    name: "delete node",
    call: (c) => c.nodes.delete("c-100", "s-0001", "n-11"),
    reply: ok("n-11"),
    method: "DELETE",
    path: "/v1/clusters/c-100/shards/s-0001/nodes/n-11",
    idempotent: true,
  },
  {
    name: "create instance set (variant 1: new)",
    call: (c) => c.instanceSets.create(setInput),
    reply: ok("is-200", 201),
    method: "POST",
    path: "/v1/instance-sets",
    body: setWire,
    idempotent: false,
    result: { id: "is-200" },
  },
  {
    name: "create instance set (variant 2: from a backup name)",
    call: (c) => c.instanceSets.restoreFromBackup(setInput, "bk-7"),
    reply: ok("is-201", 201),
    method: "POST",
    path: "/v1/instance-sets",
    body: { ...setWire, restoreSource: { backupName: "bk-7" } },
    idempotent: false,
  },
  {
    name: "create instance set (variant 3: from backup files)",
    call: (c) => c.instanceSets.restoreFromFiles({ ...setInput, projectId: "p-9" }, ["bucket/backups/dump.rdb"]),
    reply: ok("is-202", 201),
    method: "POST",
    path: "/v1/instance-sets",
    body: { ...setWire, projectId: "p-9", restoreSource: { files: ["bucket/backups/dump.rdb"] } },
    idempotent: false,
  },
  {
    name: "update instance set",
    call: (c) => c.instanceSets.update("is-200", { description: "x", backupSchedule: null }),
    reply: ok("is-200"),
    method: "PATCH",
    path: "/v1/instance-sets/is-200",
    body: { description: "x", backupSchedule: { cron: "" } },
    idempotent: true,
  },
  {
    name: "delete instance set",
    call: (c) => c.instanceSets.delete("is-200", { keepAutomaticBackups: false }),
    reply: ok("is-200"),
    method: "DELETE",
    path: "/v1/instance-sets/is-200",
    query: { keepAutomaticBackups: "false" },
    idempotent: true,
  },
  {
    name: "list instances",
    call: (c) => c.instanceSets.listInstances("is-200"),
    reply: json(200, fx.instances),
    method: "GET",
    path: "/v1/instance-sets/is-200/instances",
    idempotent: true,
  },
  {
    name: "delete instance",
    call: (c) => c.instanceSets.deleteInstance("is-200", "i-3"),
    reply: ok("i-3"),
    method: "DELETE",
    path: "/v1/instance-sets/is-200/instances/i-3",
    idempotent: true,
  },
  {
    name: "promote replica",
    call: (c) => c.instanceSets.promote("is-200", "i-2"),
    reply: ok("is-200"),
    method: "PATCH",
    path: "/v1/instance-sets/is-200/primary",
    body: { primaryId: "i-2" },
    idempotent: false,
  },
  {
    name: "add replica instance",
    call: (c) => c.instanceSets.addReplica("is-200", { subnet: { id: "sn-a" } }),
    reply: ok("is-200"),
    method: "PATCH",
    path: "/v1/instance-sets/is-200/replicas",
    body: { subnet: { id: "sn-a" } },
    idempotent: false,
  },
  {
    name: "set high availability",
    call: (c) => c.instanceSets.setHighAvailability("is-200", false),
    reply: ok("is-200"),
    method: "PATCH",
    path: "/v1/instance-sets/is-200/recovery",
    body: { enabled: false },
    idempotent: true,
  },
  {
    name: "create parameter group",
    call: (c) => c.parameterGroups.create({ parameterGroupId: "pg-1", name: "web-params", description: "tuned" }),
    reply: ok("pg-9", 201),
    method: "POST",
    path: "/v1/parameter-groups",
    body: { parameterGroupId: "pg-1", name: "web-params", description: "tuned" },
    idempotent: false,
    result: { id: "pg-9" },
  },
  {
    name: "list parameter groups",
    call: (c) => c.parameterGroups.list(),
    reply: json(200, { parameterGroups: [fx.parameterGroupSummary] }),
    method: "GET",
    path: "/v1/parameter-groups",
    query: {},
    idempotent: true,
  },
  {
    name: "list parameter groups with filters",
    call: (c) => c.parameterGroups.list({ engineVersion: "7.0", parameterGroupType: "custom", clusterMode: "enabled" }),
    reply: json(200, { parameterGroups: [] }),
    method: "GET",
    path: "/v1/parameter-groups",
    query: { engineVersion: "7.0", parameterGroupType: "custom", clusterMode: "enabled" },
    idempotent: true,
  },
  {
    name: "get parameter group",
    call: (c) => c.parameterGroups.get("web-params"),
    reply: json(200, fx.parameterGroupDetail),
    method: "GET",
    path: "/v1/parameter-groups/web-params",
    idempotent: true,
  },
  {
    name: "modify parameter group",
    call: (c) => c.parameterGroups.modify("pg-9", { description: "d", parameters: { timeout: "300", hz: "20" }, applyMode: "sequential" }),
    reply: ok("pg-9"),
    method: "PATCH",
    path: "/v1/parameter-groups/pg-9",
    body: {
      description: "d",
      parameters: [
        { parameterKey: "timeout", parameterValue: "300" },
        { parameterKey: "hz", parameterValue: "20" },
      ],
      applyMode: "sequential",
    },
    idempotent: true,
  },
  {
    name: "roll back parameter group",
    call: (c) => c.parameterGroups.rollback("pg-9", "parallel"),
    reply: ok("pg-9"),
    method: "POST",
    path: "/v1/parameter-groups/pg-9/rollback",
    body: { applyMode: "parallel" },
    idempotent: false,
  },
  {
    name: "reset parameter group",
    call: (c) => c.parameterGroups.reset("pg-9", "sequential"),
    reply: ok("pg-9"),
    method: "POST",
    path: "/v1/parameter-groups/pg-9/reset",
    body: { applyMode: "sequential" },
    idempotent: true,
  },
  {
    name: "delete parameter group",
    call: (c) => c.parameterGroups.delete("pg-9"),
    reply: ok("pg-9"),
    method: "DELETE",
    path: "/v1/parameter-groups/pg-9",
    idempotent: true,
  },
  {
    name: "parameter group events",
    call: (c) => c.parameterGroups.events("pg-9"),
    reply: json(200, fx.events),
    method: "GET",
    path: "/v1/parameter-groups/pg-9/events",
    idempotent: true,
  },
];

describe.each(cases)("$name", (k) => {
  test(`${k.method} ${k.path}, idempotent: ${k.idempotent}`, async () => {
    srv.route = () => k.reply;
    const c = client();
    const specs: RequestSpec[] = [];
    const original = c.transport.request.bind(c.transport);
    c.transport.request = (spec: RequestSpec) => {
      specs.push(spec);
      return original(spec);
    };
    const result = await k.call(c);
    expect(srv.seen).toHaveLength(1);
    const w = wire(srv.seen[0]!);
    expect(w.method).toBe(k.method);
    expect(w.path).toBe(`/cache${k.path}`);
    if (k.query !== undefined) expect(w.query).toEqual(k.query);
    if ("body" in k) expect(w.body).toEqual(k.body);
    expect(srv.seen[0]!.headers["x-auth-token"]).toBe(TOKEN);
    expect(srv.seen[0]!.headers.accept).toBe("application/json");
    expect(srv.seen[0]!.headers["content-type"]).toBe(w.body === undefined ? undefined : "application/json");
    expect(specs).toHaveLength(1);
    expect(specs[0]!.idempotent).toBe(k.idempotent);
    if (k.result !== undefined) expect(result).toEqual(k.result);
  });
});

test("every operation declares idempotent, and the table covers every operation of the client", () => {
  const c = client();
  const methods = (o: object) => Object.getOwnPropertyNames(Object.getPrototypeOf(o)).filter((m) => m !== "constructor");
  const all = [c.catalogue, c.clusters, c.shards, c.nodes, c.instanceSets, c.parameterGroups].flatMap(methods);
  // find = get + 404 handling; restore* = create with restoreSource: exercised through those.
  const derived = new Set(["find", "restore", "restoreFromBackup", "restoreFromFiles"]);
  const names = cases.map((k) => k.call.toString());
  for (const m of all.filter((m) => !derived.has(m))) expect(names.some((n) => n.includes(`.${m}(`))).toBe(true);
});
