/**
 * Password-like inputs given as KMS ciphertexts (`passwordCiphertext`, `user.passwordCiphertext`,
 * Hadoop's `adminPasswordCiphertext`): the provider decrypts them only for the create request, so
 * the plaintext is in no state, not even encrypted. KMS is the local cloud's (real AES-GCM); the
 * data query service is a scripted server here, to see exactly what the create request carried.
 */
import { CacheClient } from "../../client/cache";
import { KmsClient } from "../../client/kms";
import { smallCluster } from "../resources/hadoop/cluster";
import { clusterArgs as cacheClusterArgs } from "../support/cache";
import { EngineResource, rejection, startTestCloud, type TestCloud } from "../support/local-cloud";
import { startScriptedServer, type ScriptedServer } from "../support/servers/scripted";

const PLAIN = "Pa55-Distinctive-7Q";
let tc: TestCloud;
let dq: ScriptedServer;
let kms: KmsClient;
let ciphertext: string;

beforeAll(async () => {
  tc = await startTestCloud({ service: "cache", cacheEngine: "simulated" });
  dq = await startScriptedServer();
  kms = new KmsClient({ settings: tc.settings });
});
afterAll(async () => {
  await dq?.close();
  await tc?.close();
});
beforeEach(async () => {
  tc.reset();
  dq.reset();
  expect((await tc.controlApi("PATCH", "/resources/kms/key/sym-1", { projectId: tc.projectId, type: "symmetric" })).status).toBe(200);
  ciphertext = (await kms.encrypt("sym-1", { input: PLAIN, aad: "db=sales" })).ciphertext;
});

/** A data query service that accepts one data source and lists it. */
function dataQueryService(): void {
  const created: Record<string, unknown>[] = [];
  dq.route = (r) => {
    if (r.method === "POST" && r.url === "/v1/data-query/data-source") {
      created.push(JSON.parse(r.body) as Record<string, unknown>);
      return { status: 200, body: "{}" };
    }
    if (r.method === "GET" && r.url === "/v1/data-query/data-source") {
      return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(created.map(({ password: _p, ...d }) => d)) };
    }
    return { status: 404, body: "{}" };
  };
}

async function dataSource(): Promise<EngineResource> {
  const r = new EngineResource("krcloud:dataquery:DataSource");
  await r.configure({ ...tc.config, "krcloud:dataqueryEndpoint": dq.origin });
  return r;
}

/** A cluster without a user and without a name (auto-named). */
const clusterArgs = (): Record<string, unknown> => {
  const { name: _n, ...args } = cacheClusterArgs();
  return args;
};

const forms = (s: string) => [s, Buffer.from(s).toString("base64"), encodeURIComponent(s)];

test("DataSource: the create request carries the decrypted password; the state only the KMS ciphertext", async () => {
  dataQueryService();
  const state = await (
    await dataSource()
  ).up({
    name: "sales",
    type: "MYSQL",
    instanceId: "db-1",
    username: "reader",
    passwordCiphertext: { keyId: "sym-1", ciphertext, aad: "db=sales" },
  });
  const create = dq.seen.find((s) => s.method === "POST")!;
  expect(JSON.parse(create.body).password).toBe(Buffer.from(PLAIN).toString("base64"));
  const recorded = JSON.stringify(state);
  for (const f of forms(PLAIN)) expect(recorded).not.toContain(f);
  expect(state.outputs.passwordCiphertext).toEqual({ keyId: "sym-1", ciphertext, aad: "db=sales" });
  expect(state.outputs.password).toBeUndefined();
});

test("a ciphertext KMS cannot decrypt fails the create before any request to the service, naming the input and the key", async () => {
  dataQueryService();
  const err = await rejection(
    (await dataSource()).up({
      name: "sales",
      type: "MYSQL",
      instanceId: "db-1",
      username: "reader",
      passwordCiphertext: { keyId: "sym-1", ciphertext, aad: "db=other" },
    }),
  );
  expect(err.message).toMatch(/decrypting the password of data source "sales" with KMS key "sym-1": .*400/);
  expect(dq.seen).toEqual([]);
});

test("check: exactly one of the value and its ciphertext, named by path", async () => {
  const ds = await dataSource();
  const base = { name: "sales", type: "MYSQL", instanceId: "db-1", username: "reader" };
  const both = await ds.check({}, { ...base, password: PLAIN, passwordCiphertext: { keyId: "sym-1", ciphertext } });
  expect(both.failures).toEqual([{ property: "passwordCiphertext", reason: "passwordCiphertext: give either password or passwordCiphertext, not both" }]);
  const neither = await ds.check({}, base);
  expect(neither.failures.map((f) => f.property)).toEqual(["password"]);
  const cluster = await tc.resource("krcloud:cache:Cluster");
  const user = await cluster.check({}, { ...clusterArgs(), user: { name: "app" } });
  expect(user.failures).toEqual([{ property: "user", reason: "user.password: is required (or passwordCiphertext, the same as a KMS ciphertext)" }]);
});

test("cache Cluster: a user whose password is a KMS ciphertext is created; the state has only the ciphertext, and a refresh shows no diff", async () => {
  const cluster = await tc.resource("krcloud:cache:Cluster");
  const ok = await cluster.check({}, { ...clusterArgs(), user: { name: "app", passwordCiphertext: { keyId: "sym-1", ciphertext, aad: "db=sales" } } });
  expect(ok.failures).toEqual([]);
  const state = await cluster.create(ok.inputs);
  // The service shows the user's name, never its password (the DataSource test above sees the wire).
  expect(state.outputs.status).toBe("Running");
  expect((await new CacheClient({ settings: tc.settings }).clusters.get(state.id)).userName).toBe("app");
  const recorded = JSON.stringify(state);
  for (const f of forms(PLAIN)) expect(recorded).not.toContain(f);
  expect(state.outputs.user).toEqual({ name: "app", passwordCiphertext: { keyId: "sym-1", ciphertext, aad: "db=sales" } });
  // Refresh and plan: no diff (the password cannot be read back; the ciphertext stays the program's).
  const refreshed = (await cluster.refresh(state))!;
  expect(
    (await cluster.plan(refreshed, { ...clusterArgs(), user: { name: "app", passwordCiphertext: { keyId: "sym-1", ciphertext, aad: "db=sales" } } })).diff
      .changes,
  ).toBe(false);
});

test("Hadoop Cluster: the admin and metastore passwords given as KMS ciphertexts are decrypted for the create request only", async () => {
  const adminCt = (await kms.encrypt("sym-1", { input: `${PLAIN}-admin` })).ciphertext;
  let body: Record<string, any> | undefined;
  dq.route = (r) => {
    if (r.method === "POST" && r.url === "/v2/hadoop-service/clusters") {
      body = JSON.parse(r.body) as Record<string, any>;
      return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "hc-1", name: body.name, status: "Initializing" }) };
    }
    if (r.method === "GET" && r.url.startsWith("/v2/hadoop-service/clusters/hc-1/vms"))
      return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ content: [], last: true }) };
    if (r.method === "GET" && r.url.startsWith("/v2/hadoop-service/clusters/hc-1"))
      return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "hc-1", name: body?.name, status: "Running" }) };
    return { status: 404, body: "{}" };
  };
  const hadoop = new EngineResource("krcloud:hadoop:Cluster");
  await hadoop.configure({ ...tc.config, "krcloud:hadoopEndpoint": dq.origin });
  const state = await hadoop.up({
    ...smallCluster,
    adminPasswordCiphertext: { keyId: "sym-1", ciphertext: adminCt },
    metastore: { mysql: { objectId: "db-1", dbName: "hive", userId: "hive", passwordCiphertext: { keyId: "sym-1", ciphertext, aad: "db=sales" } } },
  });
  expect(Buffer.from(body!.adminInfo.userPw as string, "base64").toString()).toBe(`${PLAIN}-admin`);
  expect(Buffer.from(body!.hiveMetastoreInfo.mySqlInfo.userPw as string, "base64").toString()).toBe(PLAIN);
  const recorded = JSON.stringify(state);
  for (const f of [...forms(PLAIN), ...forms(`${PLAIN}-admin`)]) expect(recorded).not.toContain(f);
});
