/**
 * CacheClient against a scripted loopback server: for every operation of seed 02 the method, path,
 * query, headers and body on the wire, the declared idempotency, and how the seed's answers are
 * read. No sleeps: the fake clock makes transport retries instant.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { closeAllPools, isConflict, isNotFound, resolveSettings, type Clock, type RequestSpec } from "../../sdk/core";
import {
  CacheClient,
  isInvalidArgument,
  isResponseFormatError,
  PARAMETER_GROUP_CREATE,
  type CreateClusterInput,
  type CreateInstanceSetInput,
} from "../../sdk/cache";
import * as sdk from "../../sdk";
import { rejection } from "../support/assertions";
import * as fx from "../support/cache-fixtures";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; headers?: Record<string, string>; body?: string };

let server: http.Server;
let base: string;
let seen: Seen[];
let route: (r: Seen) => Reply;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      seen.push(r);
      let reply: Reply;
      try {
        reply = route(r);
      } catch (e) {
        reply = { status: 599, body: `test route failed: ${(e as Error).message}` };
      }
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? "");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cache`;
});
afterAll(async () => {
  await closeAllPools();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen = [];
  route = () => ({ status: 500 });
});

const TOKEN = "tok-SECRET-cache-1";
const clock: Clock = { now: () => 0, random: () => 0, sleep: async () => undefined };
const client = () =>
  new CacheClient({
    settings: resolveSettings({ projectId: "p-1", authToken: TOKEN, endpoints: { cache: base }, retry: { maxAttempts: 2 } }, () => undefined, {}),
    clock,
  });
const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
const ok = (id: string, status = 200) => json(status, { objectId: id });
const wire = (s: Seen) => {
  const u = new URL(s.url, "http://x");
  return { method: s.method, path: u.pathname, query: Object.fromEntries(u.searchParams), body: s.body === "" ? undefined : JSON.parse(s.body) };
};

const clusterInput: CreateClusterInput = {
  name: "web",
  description: "session cache",
  version: "7.0.15",
  port: 6379,
  shardCount: 2,
  nodeCountPerShard: 2,
  flavorId: "fl-m2",
  parameterGroupId: "pg-1",
  subnets: [{ id: "sn-a" }, { id: "sn-b" }],
  subnetAssignments: [
    { primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] },
    { primary: { id: "sn-b" }, replicas: [{ id: "sn-a" }] },
  ],
  securityGroups: [{ id: "sg-1" }],
  backupSchedule: { cron: "* 3 * * *", retentionLimit: 7 },
};

const setInput: CreateInstanceSetInput = {
  instanceSetName: "sessions",
  replicas: 2,
  flavorId: "fl-m2",
  recoveryEnabled: true,
  subnets: [{ id: "sn-a" }],
  subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-a" }] }],
  securityGroups: [{ id: "sg-1" }],
  parameterGroupId: "pg-2",
  port: 6379,
  version: "7.0.15",
};

const setWire = {
  instanceSetName: "sessions",
  replicas: 2,
  flavorId: "fl-m2",
  recoveryEnabled: true,
  subnets: [{ id: "sn-a" }],
  subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-a" }] }],
  securityGroups: [{ id: "sg-1" }],
  parameterGroupId: "pg-2",
  port: 6379,
  projectId: "p-1",
  version: "7.0.15",
};

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
    body: {
      name: "web",
      description: "session cache",
      version: "7.0.15",
      port: 6379,
      shardCount: 2,
      nodeCountPerShard: 2,
      flavorId: "fl-m2",
      parameterGroupId: "pg-1",
      subnets: [{ id: "sn-a" }, { id: "sn-b" }],
      subnetAssignments: clusterInput.subnetAssignments,
      securityGroups: [{ id: "sg-1" }],
      backupSchedule: { cron: "* 3 * * *", retentionLimit: 7 },
    },
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
    route = () => k.reply;
    const c = client();
    const specs: RequestSpec[] = [];
    const original = c.transport.request.bind(c.transport);
    c.transport.request = (spec: RequestSpec) => {
      specs.push(spec);
      return original(spec);
    };
    const result = await k.call(c);
    expect(seen).toHaveLength(1);
    const w = wire(seen[0]!);
    expect(w.method).toBe(k.method);
    expect(w.path).toBe(`/cache${k.path}`);
    if (k.query !== undefined) expect(w.query).toEqual(k.query);
    if ("body" in k) expect(w.body).toEqual(k.body);
    expect(seen[0]!.headers["x-auth-token"]).toBe(TOKEN);
    expect(seen[0]!.headers.accept).toBe("application/json");
    expect(seen[0]!.headers["content-type"]).toBe(w.body === undefined ? undefined : "application/json");
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

// ---------------------------------------------------------------------------------------------
// Readings of the seed's contradictions (docs/api-assumptions.md, Cache)

test("§4.2 restore: backupName (sample) and backupNames (field table) both carry the backup", async () => {
  route = () => ok("c-101", 201);
  await client().clusters.restore(clusterInput, "bk-1");
  expect(wire(seen[0]!).body.restoreSource).toEqual({ backupName: "bk-1", backupNames: "bk-1" });
});

test.each([200, 201])("§4 creates accept %i (201 in the text, 200 in the status tables)", async (status) => {
  route = () => ok("x-1", status);
  const c = client();
  expect(await c.clusters.create(clusterInput)).toEqual({ id: "x-1" });
  expect(await c.instanceSets.create(setInput)).toEqual({ id: "x-1" });
  expect(await c.parameterGroups.create({ parameterGroupId: "pg-1", name: "n" })).toEqual({ id: "x-1" });
  expect(await c.shards.add("c", { nodeCount: 1, subnetAssignment: { primary: { id: "a" }, replicas: [] } })).toEqual({ id: "x-1" });
  expect(await c.nodes.addReplica("c", "s", { subnet: { id: "a" } })).toEqual({ id: "x-1" });
});

test("§4.4 parameter group create: the chosen method and path live in one constant", () => {
  expect(PARAMETER_GROUP_CREATE).toEqual({ method: "POST", path: "/v1/parameter-groups" });
});

test("a create whose answer has no objectId is a format error (nothing to track); other answers fall back to the addressed id", async () => {
  route = () => json(201, { something: "else" });
  expect(isResponseFormatError(await rejection(client().clusters.create(clusterInput)))).toBe(true);
  route = () => ({ status: 200 });
  expect(await client().clusters.delete("c-7")).toEqual({ id: "c-7" });
  route = () => json(200, { id: 42 });
  expect(await client().clusters.update("c-7", { description: "x" })).toEqual({ id: "42" });
});

test("a non-JSON success body is a format error naming the action", async () => {
  route = () => ({ status: 200, body: "<html>gateway</html>" });
  const err = await rejection(client().clusters.get("c-1"));
  expect(isResponseFormatError(err)).toBe(true);
  expect(err.message).toMatch(/^reading cache cluster "c-1": the answer is not JSON/);
});

// ---------------------------------------------------------------------------------------------
// Errors (§7: body format not shown)

test("a {code, message, requestId} error body maps to apiCode, apiMessage, requestId and isNotFound", async () => {
  route = () => json(404, { code: "ClusterNotFound", message: "cluster c-9 does not exist", requestId: "req-1" });
  const err = await rejection(client().clusters.get("c-9"));
  expect(isNotFound(err)).toBe(true);
  expect(err).toMatchObject({
    status: 404,
    apiCode: "ClusterNotFound",
    apiMessage: "cluster c-9 does not exist",
    requestId: "req-1",
    service: "cache",
    operation: "GetCluster",
  });
  expect(err.message).toMatch(/^reading cache cluster "c-9": 404 ClusterNotFound: cluster c-9 does not exist/);
});

test.each([
  ["OpenStack envelope", { conflictingRequest: { code: 409, message: "name web already exists" } }, "conflictingRequest", "name web already exists"],
  [
    "errorCode/errorMessage",
    { errorCode: "DUPLICATE_NAME", errorMessage: "name web already exists", request_id: "r-2" },
    "DUPLICATE_NAME",
    "name web already exists",
  ],
  ["RFC 7807", { title: "Conflict", detail: "name web already exists", status: 409 }, "Conflict", "name web already exists"],
])("a %s error body is read into apiCode and apiMessage, keeping isConflict", async (_n, body, code, message) => {
  route = () => json(409, body);
  const err = await rejection(client().clusters.create(clusterInput));
  expect(isConflict(err)).toBe(true);
  expect(err.apiCode).toBe(code);
  expect(err.apiMessage).toBe(message);
  expect(err.message).toMatch(/^creating cache cluster "web": 409/);
  expect(err.earlierAttemptMayHaveApplied).toBe(false);
});

test("the request id from the body's request_id is kept when no header carries one", async () => {
  route = () => json(400, { errorCode: "BAD", errorMessage: "bad", request_id: "r-9" });
  expect((await rejection(client().clusters.get("c"))).requestId).toBe("r-9");
});

test("a plain text error body becomes the apiMessage", async () => {
  route = () => ({ status: 403, body: "forbidden for this project" });
  const err = await rejection(client().parameterGroups.list());
  expect(err).toMatchObject({ status: 403, apiMessage: "forbidden for this project" });
});

test("neither the token nor the database password appears in error messages or fields", async () => {
  route = (r) => json(422, { errorCode: "INVALID_PASSWORD", errorMessage: `token ${TOKEN} body ${r.body}` });
  const err = await rejection(client().clusters.create({ ...clusterInput, user: { name: "app", password: "hash-PASSWORD-123" } }));
  expect(err.status).toBe(422);
  for (const text of [err.message, err.apiMessage, err.stack]) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("hash-PASSWORD-123");
  }
  expect(JSON.parse(seen[0]!.body).user).toEqual({ name: "app", password: "hash-PASSWORD-123" });
});

test("GETs are retried after a 503; creates are not (they are declared not idempotent)", async () => {
  let n = 0;
  route = () => (++n === 1 ? json(503, { message: "busy" }) : json(200, fx.clusterRecord));
  expect((await client().clusters.get("c-100")).id).toBe("c-100");
  expect(seen).toHaveLength(2);
  seen = [];
  route = () => json(503, { message: "busy" });
  expect((await rejection(client().clusters.create(clusterInput))).status).toBe(503);
  expect(seen).toHaveLength(1);
});

// ---------------------------------------------------------------------------------------------
// Helpers

test("findClusterById returns undefined on 404 and the record otherwise; other errors propagate", async () => {
  const c = client();
  route = () => json(404, { message: "no such cluster" });
  expect(await c.findClusterById("gone")).toBeUndefined();
  expect(await sdk.cache.findClusterById(c, "gone")).toBeUndefined();
  route = () => json(200, fx.clusterRecord);
  expect((await c.findClusterById("c-100"))?.name).toBe("web");
  route = () => json(401, { message: "expired" });
  expect((await rejection(c.findClusterById("c-100"))).status).toBe(401);
});

test("empty ids are refused before sending (they would address the collection)", async () => {
  const c = client();
  expect(isInvalidArgument(await rejection(c.clusters.get("")))).toBe(true);
  expect(isInvalidArgument(await rejection(c.shards.delete("c-1", " ")))).toBe(true);
  expect(isInvalidArgument(await rejection(c.clusters.update("c-1", { parameterGroupId: "" })))).toBe(true);
  expect(isInvalidArgument(await rejection(c.parameterGroups.modify("pg", { parameters: { timeout: "1" } })))).toBe(true);
  expect(seen).toHaveLength(0);
});

test("ids are percent-encoded as one path segment", async () => {
  route = () => json(200, fx.parameterGroupDetail);
  await client().parameterGroups.get("my group/1");
  expect(seen[0]!.url).toBe("/cache/v1/parameter-groups/my%20group%2F1");
});

test("an instance set without a project ID in input or settings is refused before sending", async () => {
  const c = new CacheClient({ settings: resolveSettings({ authToken: TOKEN, endpoints: { cache: base } }, () => undefined, {}), clock });
  expect(isInvalidArgument(await rejection(c.instanceSets.create(setInput)))).toBe(true);
  expect(seen).toHaveLength(0);
});

test("clusterTopology lists shards (numeric id order) and fetches nodes only for shards listed without them", async () => {
  route = (r) => {
    if (r.url.endsWith("/shards")) return json(200, { shards: [{ id: "s-1", slots: "0-16383", status: "Running" }, fx.shards.shards[0]] });
    return json(200, { nodes: [fx.node("n-1", "primary"), fx.node("n-2", "replica")] });
  };
  const t = await client().clusterTopology("c-100");
  expect(seen.map((s) => new URL(s.url, "http://x").pathname)).toEqual(["/cache/v1/clusters/c-100/shards", "/cache/v1/clusters/c-100/shards/s-1/nodes"]);
  expect(t.shards.map((s) => [s.id, s.primary?.id, s.replicas.map((n) => n.id)])).toEqual([
    ["s-1", "n-1", ["n-2"]],
    ["s-0002", "n-20", ["n-21"]],
  ]);
  expect(t.settled).toBe(false);
});

test("instanceSetTopology reads {size, data}", async () => {
  route = () => json(200, fx.instances);
  const t = await client().instanceSetTopology("is-200");
  expect(t.primary?.id).toBe("i-1");
  expect(t.failed.map((i) => i.id)).toEqual(["i-3"]);
});

test("the SDK exports the cache namespace and CacheClient", () => {
  expect(sdk.CacheClient).toBe(CacheClient);
  expect(typeof sdk.cache.validateParameterValues).toBe("function");
});
