/**
 * Drift behind Pulumi's back, for every resource the specs describe: the control API
 * (`PATCH`/`DELETE /_control/resources/{service}/{kind}/{id}`) changes or deletes it, and the
 * public API (what a refresh reads) then shows the change or answers 404. Control calls are no
 * service requests: the mutating counter stays as it was. The PATCH bodies here are the ones
 * docs/local-cloud.md lists for a drift suite.
 */
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { hadoopCreateBody } from "../support/local-cloud/bodies";

const PROJECT = "driftproj";
let cloud: LocalCloud;
let token: Record<string, string>;
let key: Record<string, string>;

interface Reply {
  status: number;
  json: any;
  headers: Record<string, string | string[] | undefined>;
}

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  const res = await request(url, {
    method: method as "GET",
    headers: body === undefined ? headers : { ...headers, "Content-Type": typeof body === "string" ? "application/xml" : "application/json" },
    body: body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // XML and plain text stay text.
  }
  return { status: res.statusCode, json, headers: res.headers };
}

const ctl = (method: string, path: string, body?: unknown) => call(method, `${cloud.controlUrl}/resources/${path}`, {}, body);
const os = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(method, `${cloud.endpoints["object-storage"]!}${path}`, { ...token, ...headers }, body);
const cache = (method: string, path: string, body?: unknown) => call(method, `${cloud.endpoints.cache!}/v1${path}`, token, body);
const kms = (path: string, body: unknown) => call("POST", `${cloud.endpoints.kms!}/api/v1/keys${path}`, token, body);
const dq = (method: string, path: string, body?: unknown) => call(method, `${cloud.endpoints["data-query"]!}/v1/data-query${path}`, key, body);
const hadoop = (method: string, path: string, body?: unknown) => call(method, `${cloud.endpoints.hadoop!}/v2/hadoop-service/clusters${path}`, key, body);

/** Runs `drift` through the control API and checks that it sent no service request. */
async function behindTheBack(drift: () => Promise<void>): Promise<void> {
  const before = cloud.control.counters().mutating;
  await drift();
  expect(cloud.control.counters().mutating).toEqual(before);
}

const LIFECYCLE =
  "<LifecycleConfiguration><Rule><ID>drift</ID><Prefix>drift/</Prefix><Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule></LifecycleConfiguration>";
const subnets = [{ id: "sn-a" }, { id: "sn-b" }];
const common = { version: "7.0.15", port: 6379, flavorId: "redis.small", subnets, securityGroups: [{ id: "sg-1" }], description: "as declared" };

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  const t = cloud.control.issueCredentials({ projectId: PROJECT });
  const k = cloud.control.issueCredentials({ projectId: PROJECT, kind: "access-key" });
  token = { "X-Auth-Token": t.kind === "token" ? t.token : "" };
  key = k.kind === "access-key" ? { "Credential-ID": k.credentialId, "Credential-Secret": k.credentialSecret } : {};
});
afterAll(async () => {
  await cloud.close();
});

describe("object storage", () => {
  beforeAll(async () => {
    expect((await os("PUT", "/v1_ext/bucket", { name: "drift-bucket", type: "STANDARD" })).status).toBe(200);
    expect((await os("PUT", "/v1_ext/bucket/drift-bucket/cors", { cors: [{ allowed_origins: ["https://a.example"], allowed_methods: ["GET"] }] })).status).toBe(
      200,
    );
    expect((await os("PUT", `/v1/${PROJECT}/drift-bucket/index.html`, "<h1>site</h1>", { "Content-Type": "text/html" })).status).toBe(201);
  });

  test("bucket: ACL and metadata change; delete removes it with its objects", async () => {
    await behindTheBack(async () => {
      expect((await ctl("PATCH", "object-storage/bucket/drift-bucket", { acl: { public: "read-only" }, metadata: { team: "drift" } })).status).toBe(200);
    });
    const got = await os("GET", "/v1_ext/bucket/drift-bucket");
    expect(got.json.acl).toMatchObject({ public: "read-only" });
    expect(got.headers["x-container-meta-team"]).toBe("drift");
  });

  test("CORS and lifecycle: replaced, then deleted", async () => {
    await behindTheBack(async () => {
      expect(
        (await ctl("PATCH", "object-storage/bucket-cors/drift-bucket", { cors: [{ allowed_origins: ["https://drift.example"], allowed_methods: ["PUT"] }] }))
          .status,
      ).toBe(200);
      expect((await ctl("PATCH", "object-storage/bucket-lifecycle/drift-bucket", { lifecycle: LIFECYCLE })).status).toBe(200);
    });
    expect((await os("GET", "/v1_ext/bucket/drift-bucket/cors")).json).toEqual({
      cors: [expect.objectContaining({ allowed_origins: ["https://drift.example"] })],
    });
    expect((await os("GET", "/v1_ext/bucket/drift-bucket/lifecycle")).json).toContain("<Prefix>drift/</Prefix>");
    await behindTheBack(async () => {
      expect((await ctl("DELETE", "object-storage/bucket-cors/drift-bucket")).status).toBe(204);
      expect((await ctl("DELETE", "object-storage/bucket-lifecycle/drift-bucket")).status).toBe(204);
    });
    expect((await os("GET", "/v1_ext/bucket/drift-bucket/cors")).json).toEqual({ cors: [] });
    expect((await os("GET", "/v1_ext/bucket/drift-bucket/lifecycle")).status).toBe(404);
  });

  test("object: content and metadata change (the ETag with them); delete removes it", async () => {
    await behindTheBack(async () => {
      expect((await ctl("PATCH", `object-storage/object/drift-bucket/index.html`, { content: "defaced", metadata: { drifted: "yes" } })).status).toBe(200);
    });
    const got = await os("GET", `/v1/${PROJECT}/drift-bucket/index.html`);
    expect(got.json).toBe("defaced");
    expect(got.headers["x-object-meta-drifted"]).toBe("yes");
    await behindTheBack(async () => {
      expect((await ctl("DELETE", "object-storage/object/drift-bucket/index.html")).status).toBe(204);
    });
    expect((await os("GET", `/v1/${PROJECT}/drift-bucket/index.html`)).status).toBe(404);
    expect((await ctl("DELETE", "object-storage/bucket/drift-bucket")).status).toBe(204);
    expect((await os("GET", "/v1_ext/bucket/drift-bucket")).status).toBe(404);
  });
});

describe("cache", () => {
  let group: string;
  let clusterId: string;
  let setId: string;

  beforeAll(async () => {
    group = (await cache("POST", "/parameter-groups", { parameterGroupId: "default.redis7.0.cluster", name: "drift-params", description: "declared" })).json
      .objectId;
    const cluster = await cache("POST", "/clusters", {
      ...common,
      name: "drift-cluster",
      parameterGroupId: "default.redis7.0.cluster",
      shardCount: 3,
      nodeCountPerShard: 2,
      subnetAssignments: [0, 1, 2].map(() => ({ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] })),
    });
    expect(cluster.status).toBe(201);
    clusterId = cluster.json.objectId;
    const set = await cache("POST", "/instance-sets", {
      ...common,
      instanceSetName: "drift-set",
      projectId: PROJECT,
      parameterGroupId: "default.redis7.0.standalone",
      replicas: 3,
      recoveryEnabled: true,
      subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }, { id: "sn-b" }] }],
    });
    expect(set.status).toBe(201);
    setId = set.json.objectId;
  });

  test("parameter group: description and a parameter value change; a refused patch changes nothing; delete removes it", async () => {
    const before = (await cache("GET", `/parameter-groups/${group}`)).json;
    for (const bad of [
      { values: { timeout: "soon" } },
      { values: { nosuch: "1" } },
      { description: "x", values: { maxmemory_policy: "never" } },
      { rename: "x" },
    ]) {
      expect({ bad, status: (await ctl("PATCH", `cache/parameter-group/${group}`, bad)).status }).toEqual({ bad, status: 400 });
    }
    expect((await cache("GET", `/parameter-groups/${group}`)).json).toEqual(before);
    await behindTheBack(async () => {
      expect((await ctl("PATCH", `cache/parameter-group/${group}`, { description: "drifted", values: { timeout: "1" } })).status).toBe(200);
    });
    const got = (await cache("GET", `/parameter-groups/${group}`)).json;
    expect(got.description).toBe("drifted");
    expect(got.parameters.find((p: { parameterKey: string }) => p.parameterKey === "timeout").parameterValue).toBe("1");
  });

  test("cluster: description, backup schedule and parameter group change; a shard and a replica are removed", async () => {
    expect((await ctl("PATCH", `cache/cluster/${clusterId}`, { parameterGroupId: "default.redis7.0.standalone", description: "not applied" })).status).toBe(
      400,
    );
    expect((await cache("GET", `/clusters/${clusterId}`)).json.description).toBe("as declared");
    await behindTheBack(async () => {
      const patched = await ctl("PATCH", `cache/cluster/${clusterId}`, {
        description: "drifted",
        backupSchedule: { cron: "0 4 * * *", retentionLimit: 3 },
        parameterGroupId: group,
      });
      expect(patched.status).toBe(200);
    });
    expect((await cache("GET", `/clusters/${clusterId}`)).json).toMatchObject({
      description: "drifted",
      backupSchedule: { cron: "0 4 * * *", retentionLimit: 3 },
      parameterGroupId: group,
      shardCount: 3,
      totalNodeCount: 6,
    });
    const shards = (await cache("GET", `/clusters/${clusterId}/shards`)).json.shards as { id: string; nodes: { id: string; role: string }[] }[];
    await behindTheBack(async () => {
      expect((await ctl("DELETE", `cache/shard/${clusterId}/${shards[2]!.id}`)).status).toBe(204);
      const replica = shards[0]!.nodes.find((n) => n.role === "replica")!;
      expect((await ctl("DELETE", `cache/node/${replica.id}`)).status).toBe(204);
    });
    expect((await cache("GET", `/clusters/${clusterId}`)).json).toMatchObject({ shardCount: 2, totalNodeCount: 3 });
    expect((await cache("GET", `/clusters/${clusterId}/shards/${shards[0]!.id}`)).json.nodes).toHaveLength(1);
    // A primary and the last shard stay, as the API's rules say.
    expect((await ctl("DELETE", `cache/node/${shards[0]!.nodes.find((n) => n.role === "primary")!.id}`)).status).toBe(400);
    expect((await ctl("PATCH", `cache/cluster/${clusterId}`, { backupSchedule: null })).status).toBe(200);
    expect((await cache("GET", `/clusters/${clusterId}`)).json.backupSchedule).toBeNull();
  });

  test("instance set: description, backup schedule and high availability change; a replica is removed; delete removes it", async () => {
    await behindTheBack(async () => {
      expect(
        (await ctl("PATCH", `cache/instance-set/${setId}`, { description: "drifted", backupSchedule: { cron: "* 5 * * *" }, recoveryEnabled: false })).status,
      ).toBe(200);
    });
    expect((await cache("GET", `/clusters/${setId}`)).json).toMatchObject({
      description: "drifted",
      backupSchedule: { cron: "* 5 * * *" },
      recoveryEnabled: false,
    });
    const instances = (await cache("GET", `/instance-sets/${setId}/instances`)).json.data as { objectId: string; role: string }[];
    await behindTheBack(async () => {
      expect((await ctl("DELETE", `cache/instance/${instances.find((i) => i.role === "replica")!.objectId}`)).status).toBe(204);
    });
    expect((await cache("GET", `/instance-sets/${setId}/instances`)).json.size).toBe(2);
    await behindTheBack(async () => {
      expect((await ctl("DELETE", `cache/instance-set/${setId}`)).status).toBe(204);
      expect((await ctl("DELETE", `cache/parameter-group/${group}`)).status).toBe(204);
    });
    expect((await cache("GET", `/clusters/${setId}`)).status).toBe(404);
    expect((await cache("GET", `/parameter-groups/${group}`)).status).toBe(404);
  });
});

describe("key management", () => {
  test("a key's version is deactivated (encrypt refused, decrypt still works), then the key is deleted", async () => {
    expect((await ctl("PATCH", "kms/key/drift-key", { projectId: PROJECT, type: "symmetric" })).status).toBe(200);
    const sealed = (await kms("/drift-key/encrypt", { input: "hello" })).json.data.ciphertext as string;
    await behindTheBack(async () => {
      expect((await ctl("PATCH", "kms/key/drift-key", { state: "Deactivated" })).status).toBe(200);
    });
    expect((await kms("/drift-key/encrypt", { input: "hello" })).json.code).toBe("KeyNotActive");
    expect((await kms("/drift-key/decrypt", { ciphertext: sealed })).json.data.plaintext).toBe("hello");
    await behindTheBack(async () => {
      expect((await ctl("DELETE", "kms/key/drift-key")).status).toBe(204);
    });
    expect((await kms("/drift-key/decrypt", { ciphertext: sealed })).status).toBe(404);
  });
});

describe("data query", () => {
  test("a data source's description changes, a query leaves the list, a data source is deleted", async () => {
    expect(
      (await ctl("PATCH", "data-query/instance/drift-db", { projectId: PROJECT, engine: "mysql", databases: { shop: "CREATE TABLE t(x INTEGER)" } })).status,
    ).toBe(200);
    expect((await os("PUT", "/v1_ext/bucket", { name: "drift-results", type: "STANDARD" })).status).toBe(200);
    const source = { name: "drift_ds", type: "MYSQL", scope: "PRIVATE", instanceId: "drift-db", username: "u", password: "cHc=", description: "declared" };
    expect((await dq("POST", "/data-source", source)).status).toBe(200);
    const queryId = (await dq("POST", "/query", { query: "select 1", resultConfig: { bucketName: "drift-results" } })).json.queryInfo.queryId as string;
    expect((await dq("GET", `/query/${queryId}`)).json.queryInfo.state).toBe("FINISHED");

    await behindTheBack(async () => {
      expect((await ctl("PATCH", "data-query/data-source/drift_ds", { description: "drifted" })).status).toBe(200);
      expect((await ctl("DELETE", `data-query/query/${queryId}`)).status).toBe(204);
    });
    expect((await dq("GET", "/data-source")).json).toEqual([expect.objectContaining({ name: "drift_ds", description: "drifted" })]);
    expect((await dq("GET", "/query")).json.content).toEqual([]);
    expect((await dq("GET", `/query/${queryId}`)).status).toBe(404);
    await behindTheBack(async () => {
      expect((await ctl("DELETE", "data-query/data-source/drift_ds")).status).toBe(204);
    });
    expect((await dq("GET", "/data-source")).json).toEqual([]);
  });
});

describe("Hadoop", () => {
  test("a cluster's worker count changes, it turns Terminated, then it is deleted", async () => {
    const made = await hadoop("POST", "", hadoopCreateBody({ name: "drift-etl" }));
    expect({ status: made.status, message: made.json.message }).toEqual({ status: 200, message: undefined });
    const id = made.json.id as string;
    await behindTheBack(async () => {
      expect((await ctl("PATCH", `hadoop/cluster/${id}`, { workerCnt: 5 })).status).toBe(200);
    });
    expect((await hadoop("GET", `/${id}`)).json).toMatchObject({ workerCnt: 5, status: "Running" });
    await behindTheBack(async () => {
      expect((await ctl("PATCH", `hadoop/cluster/${id}`, { status: "Terminated" })).status).toBe(200);
    });
    expect((await hadoop("GET", `/${id}`)).json.status).toBe("Terminated");
    await behindTheBack(async () => {
      expect((await ctl("DELETE", `hadoop/cluster/${id}`)).status).toBe(204);
    });
    expect((await hadoop("GET", `/${id}`)).status).toBe(404);
  });
});
