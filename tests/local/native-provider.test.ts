/**
 * The native provider plugin's gRPC server (provider/plugin), driven over real gRPC as the engine
 * drives it, against the in-process local cloud: configuration with secrets, auto-naming from the
 * engine's name and seed, detailed diffs, reads from the id alone (import), secrets kept secret,
 * state written by the dynamic classes, operation timeouts, lookups and the schema.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import { listen, packageRoot } from "../../provider/plugin/server";
import { SECRET_SIG, SIG_KEY } from "../../provider/plugin/properties";
import { allLookups } from "../../provider/registry";
import { startTestCloud, TOKENS, type TestCloud } from "../support/local-cloud";

type Props = Record<string, unknown>;

let tc: TestCloud;
let server: grpc.Server;
let client: provrpc.ResourceProviderClient;

const secret = (value: unknown): Props => ({ [SIG_KEY]: SECRET_SIG, value });
const isSecret = (v: unknown): boolean => v !== null && typeof v === "object" && (v as Props)[SIG_KEY] === SECRET_SIG;
const struct = (p: Props): structproto.Struct => structproto.Struct.fromJavaScript(p as Record<string, structproto.JavaScriptValue>);
const urn = (token: string, name: string): string => `urn:pulumi:test::native::${token}::${name}`;

/** One unary call as a promise. */
function rpc<Req, Res>(method: string, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    (client as unknown as Record<string, (r: Req, cb: (e: grpc.ServiceError | null, r: Res) => void) => void>)[method]!(req, (e, r) =>
      e ? reject(e) : resolve(r),
    );
  });
}

/** A request for the resource `name` of type `token`: its URN, type and name set. */
function addressed<R extends { setUrn(v: string): unknown; setType(v: string): unknown; setName(v: string): unknown }>(req: R, token: string, name: string): R {
  req.setUrn(urn(token, name));
  req.setType(token);
  req.setName(name);
  return req;
}

async function check(token: string, name: string, news: Props, olds: Props = {}, stack?: string): Promise<provproto.CheckResponse> {
  const req = new provproto.CheckRequest();
  req.setUrn(stack ? urn(token, name).replace(/^urn:pulumi:[^:]+::/, `urn:pulumi:${stack}::`) : urn(token, name));
  req.setName(name);
  req.setType(token);
  req.setOlds(struct(olds));
  req.setNews(struct(news));
  // The engine's random seed differs on every deployment; names do not depend on it.
  req.setRandomseed(Buffer.from(String(Math.random())));
  return rpc("check", req);
}

async function checked(token: string, name: string, news: Props, olds: Props = {}): Promise<Props> {
  const r = await check(token, name, news, olds);
  expect(r.getFailuresList().map((f) => f.getReason())).toEqual([]);
  return r.getInputs()!.toJavaScript();
}

async function create(token: string, name: string, inputs: Props, timeout = 0): Promise<{ id: string; outs: Props }> {
  const req = addressed(new provproto.CreateRequest(), token, name);
  req.setProperties(struct(inputs));
  req.setTimeout(timeout);
  const r = await rpc<provproto.CreateRequest, provproto.CreateResponse>("create", req);
  return { id: r.getId(), outs: r.getProperties()!.toJavaScript() };
}

async function read(token: string, name: string, id: string, props?: Props, timeout = 0): Promise<{ id: string; props: Props; inputs: Props }> {
  const req = addressed(new provproto.ReadRequest(), token, name);
  req.setTimeout(timeout);
  req.setId(id);
  if (props) req.setProperties(struct(props));
  const r = await rpc<provproto.ReadRequest, provproto.ReadResponse>("read", req);
  return { id: r.getId(), props: r.getProperties()?.toJavaScript() ?? {}, inputs: r.getInputs()?.toJavaScript() ?? {} };
}

async function diff(token: string, name: string, id: string, olds: Props, news: Props): Promise<provproto.DiffResponse> {
  const req = addressed(new provproto.DiffRequest(), token, name);
  req.setId(id);
  req.setOlds(struct(olds));
  req.setNews(struct(news));
  return rpc("diff", req);
}

async function remove(token: string, name: string, id: string, props: Props): Promise<void> {
  const req = addressed(new provproto.DeleteRequest(), token, name);
  req.setId(id);
  req.setProperties(struct(props));
  await rpc("delete", req);
}

async function invoke(tok: string, args: Props): Promise<Props> {
  const req = new provproto.InvokeRequest();
  req.setTok(tok);
  req.setArgs(struct(args));
  const r = await rpc<provproto.InvokeRequest, provproto.InvokeResponse>("invoke", req);
  return r.getReturn()!.toJavaScript();
}

function detailed(d: provproto.DiffResponse): Record<string, string> {
  const kinds = Object.fromEntries(Object.entries(provproto.PropertyDiff.Kind).map(([k, v]) => [v, k]));
  const out: Record<string, string> = {};
  d.getDetaileddiffMap().forEach((v, k) => (out[k] = kinds[v.getKind()]!));
  return out;
}

beforeAll(async () => {
  tc = await startTestCloud();
  const l = await listen();
  server = l.server;
  client = new provrpc.ResourceProviderClient(`127.0.0.1:${l.port}`, grpc.credentials.createInsecure());
  const req = new provproto.ConfigureRequest();
  // As the engine sends stack config: plain values, the token as a secret.
  req.setArgs(
    struct({
      localCloudUrl: tc.config["krcloud:localCloudUrl"],
      projectId: tc.projectId,
      authToken: secret(tc.config["krcloud:authToken"]),
      credentialId: tc.config["krcloud:credentialId"],
      credentialSecret: secret(tc.config["krcloud:credentialSecret"]),
      version: "0.1.0",
    }),
  );
  const res = await rpc<provproto.ConfigureRequest, provproto.ConfigureResponse>("configure", req);
  expect(res.getAcceptsecrets()).toBe(true);
});

afterAll(async () => {
  client?.close();
  server?.forceShutdown();
  await tc?.close();
});

beforeEach(() => tc.reset());

test("plugin info and schema come from package.json and schema.json", async () => {
  const info = await rpc<emptyproto.Empty, plugproto.PluginInfo>("getPluginInfo", new emptyproto.Empty());
  expect(info.getVersion()).toBe(JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")).version);
  const res = await rpc<provproto.GetSchemaRequest, provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest());
  const schema = JSON.parse(res.getSchema());
  expect(schema.name).toBe("krcloud");
  expect(Object.keys(schema.resources)).toEqual(expect.arrayContaining(Object.values(TOKENS)));
});

test("check auto-names from the engine's URN: the same resource gets the same name on every run (preview, up, the up after a crash), another stack another", async () => {
  const a = await checked(TOKENS.bucket, "Site-Assets", {});
  const again = await checked(TOKENS.bucket, "Site-Assets", {});
  const other = (await check(TOKENS.bucket, "Site-Assets", {}, {}, "other-stack")).getInputs()!.toJavaScript() as Props;
  expect(a.name).toMatch(/^site-assets-[0-9a-f]{7}$/);
  expect(again.name).toBe(a.name);
  expect(other.name).not.toBe(a.name);
  expect(a).not.toHaveProperty("__logicalName");
  // An existing name is kept.
  expect((await checked(TOKENS.bucket, "Site-Assets", {}, { name: "kept-name" })).name).toBe("kept-name");
});

test("check reports invalid inputs with property paths", async () => {
  const r = await check(TOKENS.bucket, "b", { name: "Not_Valid" });
  expect(r.getFailuresList().map((f) => f.getProperty())).toEqual(["name"]);
});

test("secret inputs stay secret in checked inputs and outputs, and what reveals them is secret too", async () => {
  const bucket = await create(TOKENS.bucket, "b", await checked(TOKENS.bucket, "b", { name: "native-secrets" }));
  const inputs = await checked(TOKENS.object, "o", { bucket: bucket.id, key: "k.txt", content: secret("hush") });
  expect(isSecret(inputs.content)).toBe(true);
  const { outs } = await create(TOKENS.object, "o", inputs);
  for (const k of ["content", "etag", "size"]) expect([k, isSecret(outs[k])]).toEqual([k, true]);
  expect(outs.url).toEqual(expect.any(String));
  // Without a secret input nothing but the definition's secret outputs is secret.
  const plain = await create(TOKENS.object, "p", await checked(TOKENS.object, "p", { bucket: bucket.id, key: "p.txt", content: "open" }));
  expect(isSecret(plain.outs.etag)).toBe(false);
});

test("diff says per property what changes and which change replaces", async () => {
  const inputs = await checked(TOKENS.bucket, "b", { name: "native-diff" });
  const { id, outs } = await create(TOKENS.bucket, "b", inputs);
  const none = await diff(TOKENS.bucket, "b", id, outs, inputs);
  expect(none.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
  expect(none.getHasdetaileddiff()).toBe(true);

  const acl = await diff(TOKENS.bucket, "b", id, outs, await checked(TOKENS.bucket, "b", { name: "native-diff", acl: { public: "read-only" } }, inputs));
  expect(acl.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
  expect(acl.getReplacesList()).toEqual([]);
  expect(detailed(acl)).toEqual({ acl: "UPDATE" });

  const renamed = await diff(TOKENS.bucket, "b", id, outs, await checked(TOKENS.bucket, "b", { name: "native-diff-2", metadata: { team: "web" } }, inputs));
  expect(renamed.getReplacesList()).toEqual(["name"]);
  // Under a new name the replacement does not collide with the old bucket: it is created first.
  expect(renamed.getDeletebeforereplace()).toBe(false);
  expect(detailed(renamed)).toEqual({ name: "UPDATE_REPLACE", metadata: "UPDATE" });
});

test("import: read from the id alone returns inputs under which the declaring program shows no diff", async () => {
  await tc.sdk.createBucket({ name: "made-elsewhere" });
  await tc.sdk.updateContainerMetadata("made-elsewhere", { owner: "ops" }, []);
  await tc.sdk.putCors("made-elsewhere", [{ allowedOrigins: ["https://example.com"], allowedMethods: ["GET"] }]);
  await tc.sdk.putObject("made-elsewhere", "docs/readme.txt", "hello");

  const b = await read(TOKENS.bucket, "b", "made-elsewhere");
  expect(b.id).toBe("made-elsewhere");
  expect(b.inputs).toMatchObject({ name: "made-elsewhere", metadata: { owner: "ops" } });
  const declared = await checked(TOKENS.bucket, "b", { name: "made-elsewhere", metadata: { owner: "ops" } }, b.inputs);
  expect((await diff(TOKENS.bucket, "b", b.id, b.props, declared)).getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);

  const cors = await read(TOKENS.cors, "c", "made-elsewhere");
  expect(cors.inputs).toMatchObject({ bucket: "made-elsewhere" });
  const obj = await read(TOKENS.object, "o", "made-elsewhere/docs/readme.txt");
  expect(obj.props).toMatchObject({ bucket: "made-elsewhere", key: "docs/readme.txt", size: 5 });

  expect((await read(TOKENS.bucket, "b", "no-such-bucket")).id).toBe("");
});

test("state written by the dynamic classes (with __provider) is accepted, and what the plugin writes has none", async () => {
  const inputs = await checked(TOKENS.bucket, "b", { name: "native-from-dynamic" });
  const { id, outs } = await create(TOKENS.bucket, "b", inputs);
  const dynamicOuts = { ...outs, __provider: "exports.handler = ..." };
  const rechecked = await checked(TOKENS.bucket, "b", { name: "native-from-dynamic" }, { ...inputs, __provider: "exports.handler = ..." });
  expect(rechecked).not.toHaveProperty("__provider");
  expect((await diff(TOKENS.bucket, "b", id, dynamicOuts, rechecked)).getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
  const refreshed = await read(TOKENS.bucket, "b", id, dynamicOuts);
  expect(refreshed.props).not.toHaveProperty("__provider");
  expect(refreshed.inputs).not.toHaveProperty("__provider");
  await remove(TOKENS.bucket, "b", id, dynamicOuts);
  expect(await tc.sdk.findBucket(id)).toBeUndefined();
});

test("a create slower than its timeout fails at the deadline, naming the resource, and reports the bucket as created", async () => {
  tc.cloud.control.addFault({ service: "object-storage", operation: "GetBucketMeta", action: "latency", latencyMs: 6000, times: 1 });
  const inputs = await checked(TOKENS.bucket, "slow", { name: "native-slow" });
  const started = Date.now();
  const err = (await create(TOKENS.bucket, "slow", inputs, 1).catch((e) => e)) as grpc.ServiceError;
  const elapsed = Date.now() - started;
  expect(elapsed).toBeLessThan(4000);
  expect(err.details).toContain('bucket "native-slow" was not readable within the create timeout of 1s (customTimeouts)');
  // ErrorResourceInitFailed: the engine keeps the bucket in state.
  const status = statusproto.Status.deserializeBinary(err.metadata.get("grpc-status-details-bin")[0] as Buffer);
  const detail = provproto.ErrorResourceInitFailed.deserializeBinary(status.getDetailsList()[0]!.getValue_asU8());
  expect(detail.getId()).toBe("native-slow");
  // The bucket may settle after the failure: the engine is asked to read it again before the next update.
  expect(detail.getRefreshBeforeUpdate()).toBe(true);
  expect(await tc.sdk.findBucket("native-slow")).toBeDefined();
});

test("a read slower than customTimeouts.read fails at it, naming the resource and the timeout", async () => {
  const inputs = await checked(TOKENS.bucket, "slowread", { name: "native-slow-read" });
  const { id, outs } = await create(TOKENS.bucket, "slowread", inputs);
  tc.cloud.control.addFault({ service: "object-storage", operation: "GetBucketMeta", action: "latency", latencyMs: 6000, times: 1 });
  const started = Date.now();
  const err = (await read(TOKENS.bucket, "slowread", id, outs, 1).catch((e) => e)) as grpc.ServiceError;
  expect(Date.now() - started).toBeLessThan(4000);
  expect(err.details).toContain('reading bucket "native-slow-read": no answer within the read timeout of 1s (customTimeouts)');
  // Without a timeout the same read waits for the answer.
  expect((await read(TOKENS.bucket, "slowread", id, outs)).id).toBe(id);
});

test("Handshake declares the capabilities: secrets both ways, no resource references or outputs, no byte strings", async () => {
  const req = new provproto.ProviderHandshakeRequest();
  req.setEngineAddress("127.0.0.1:1");
  req.setSupportsRefreshBeforeUpdate(true);
  const res = await rpc<provproto.ProviderHandshakeRequest, provproto.ProviderHandshakeResponse>("handshake", req);
  expect(res.toObject()).toEqual({
    acceptSecrets: true,
    acceptResources: false,
    acceptOutputs: false,
    supportsAutonamingConfiguration: false,
    acceptsByteString: false,
  });
});

test("an update's preview (asked for since Handshake) changes nothing in the cloud and answers the new inputs", async () => {
  const inputs = await checked(TOKENS.bucket, "previewed", { name: "native-previewed", metadata: { team: "a" } });
  const { id, outs } = await create(TOKENS.bucket, "previewed", inputs);
  const news = await checked(TOKENS.bucket, "previewed", { name: "native-previewed", metadata: { team: "b" } }, inputs);
  const req = new provproto.UpdateRequest();
  req.setUrn(urn(TOKENS.bucket, "previewed"));
  req.setType(TOKENS.bucket);
  req.setId(id);
  req.setOlds(struct(outs));
  req.setNews(struct(news));
  req.setPreview(true);
  const res = await rpc<provproto.UpdateRequest, provproto.UpdateResponse>("update", req);
  expect(res.getProperties()!.toJavaScript()).toMatchObject({ metadata: { team: "b" } });
  expect((await tc.sdk.findBucket("native-previewed"))?.metadata).toMatchObject({ team: "a" });
});

describe("List", () => {
  /** One List call: the ids streamed, and the continuation, if any. */
  function list(
    token: string,
    query: Props = {},
    o: { pageSize?: number; limit?: number; continuation?: string } = {},
  ): Promise<{ ids: string[]; continuation?: string; computed: boolean }> {
    const req = new provproto.ListRequest();
    req.setToken(token);
    req.setQuery(struct(query));
    req.setPageSize(o.pageSize ?? 0);
    req.setLimit(o.limit ?? 0);
    req.setContinuationToken(o.continuation ?? "");
    return new Promise((resolve, reject) => {
      const out: { ids: string[]; continuation?: string; computed: boolean } = { ids: [], computed: false };
      const stream = client.list(req);
      stream.on("data", (r: provproto.ListResponse) => {
        if (r.hasResult()) out.ids.push(r.getResult()!.getId());
        if (r.hasContinuation()) out.continuation = r.getContinuation()!.getContinuationToken();
        if (r.hasComputed()) out.computed = true;
      });
      stream.on("error", reject);
      stream.on("end", () => resolve(out));
    });
  }

  beforeEach(async () => {
    for (const name of ["list-a-1", "list-a-2", "list-b-1"]) await tc.sdk.createBucket({ name });
    for (const key of ["docs/a.txt", "docs/b.txt", "img/c.png"]) await tc.sdk.putObject("list-a-1", key, "x");
  });

  test("buckets page by page with a continuation, each page at most the page size, until none is left", async () => {
    const first = await list(TOKENS.bucket, {}, { pageSize: 2 });
    expect(first.ids).toHaveLength(2);
    expect(first.continuation).toEqual(expect.any(String));
    const second = await list(TOKENS.bucket, {}, { pageSize: 2, continuation: first.continuation });
    expect(second.continuation).toBeUndefined();
    expect([...first.ids, ...second.ids].sort()).toEqual(["list-a-1", "list-a-2", "list-b-1"]);
  });

  test("filtered by the listInputs: buckets by name prefix, a bucket's objects by key prefix", async () => {
    expect((await list(TOKENS.bucket, { name: "list-a" })).ids.sort()).toEqual(["list-a-1", "list-a-2"]);
    expect((await list(TOKENS.object, { bucket: "list-a-1", key: "docs/" })).ids.sort()).toEqual(["list-a-1/docs/a.txt", "list-a-1/docs/b.txt"]);
    expect((await list(TOKENS.bucket, {}, { limit: 1 })).ids).toHaveLength(1);
  });

  test("a query still unknown answers Computed; a filter the type does not take, a missing parent and an unlisted type are refused by name", async () => {
    expect(await list(TOKENS.bucket, { name: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" })).toEqual({ ids: [], computed: true });
    await expect(list(TOKENS.bucket, { color: "red" })).rejects.toMatchObject({
      details: "krcloud:objectstorage:Bucket cannot be listed by color: it takes name",
    });
    await expect(list(TOKENS.object, {})).rejects.toMatchObject({ details: "listing objects: give bucket (the Bucket they are in)" });
    await expect(list("krcloud:kms:Ciphertext")).rejects.toMatchObject({
      details: expect.stringContaining("krcloud:kms:Ciphertext cannot be listed: a ciphertext is recorded only"),
    });
  });
});

test("invoke serves the lookups with the provider's settings; a temp URL comes back secret", async () => {
  await tc.sdk.createBucket({ name: "native-lookup" });
  await tc.sdk.putObject("native-lookup", "a.txt", "a");
  expect(await invoke("krcloud:objectstorage:getBucket", { name: "native-lookup" })).toMatchObject({ name: "native-lookup", objectCount: 1 });
  expect((await invoke("krcloud:objectstorage:getBuckets", { prefix: "native-" })).names).toEqual(["native-lookup"]);
  expect(await invoke("krcloud:objectstorage:getBucketObjects", { bucket: "native-lookup", delimiter: "/" })).toMatchObject({
    keys: ["a.txt"],
    objects: [{ key: "a.txt", size: 1 }],
    prefixes: [],
    truncated: false,
  });
  const url = await invoke("krcloud:objectstorage:getTempUrl", { bucket: "native-lookup", key: "a.txt" });
  expect(isSecret(url.url)).toBe(true);
  expect(url.expiresAt).toEqual(expect.any(Number));
  const err = (await invoke("krcloud:objectstorage:getNothing", {}).catch((e) => e)) as grpc.ServiceError;
  expect(err.details).toContain("unknown krcloud function krcloud:objectstorage:getNothing");
});

test("invoke serves every lookup of schema.json, from the one registry, with each service's settings; an HMAC comes back secret", async () => {
  const schema = JSON.parse(fs.readFileSync(path.join(packageRoot(), "schema.json"), "utf8")) as { functions: Record<string, unknown> };
  expect(
    allLookups()
      .map((l) => l.token)
      .sort(),
  ).toEqual(Object.keys(schema.functions).sort());
  expect(((await invoke("krcloud:cache:getVersions", {})).versions as string[]).length).toBeGreaterThan(0);
  expect(await invoke("krcloud:dataquery:getDataSources", {})).toEqual({ dataSources: [] });
  expect(await invoke("krcloud:hadoop:getClusters", {})).toMatchObject({ clusters: [] });
  expect((await tc.controlApi("PATCH", "/resources/kms/key/mac-1", { projectId: tc.projectId, type: "mac" })).status).toBe(200);
  const mac = await invoke("krcloud:kms:createHmac", { keyId: "mac-1", content: "aGVsbG8=" });
  expect(isSecret(mac.hmac)).toBe(true);
  const hmac = (mac.hmac as Props).value as string;
  expect(await invoke("krcloud:kms:verifyHmac", { keyId: "mac-1", input: "aGVsbG8=", output: hmac })).toEqual({ valid: true });
});

test("errors carry no secret: the token never appears in a message", async () => {
  tc.cloud.control.addFault({
    service: "object-storage",
    operation: "CreateBucket",
    action: "error",
    status: 400,
    body: `bad token ${tc.config["krcloud:authToken"]}`,
  });
  const err = (await create(TOKENS.bucket, "b", await checked(TOKENS.bucket, "b", { name: "native-err" })).catch((e) => e)) as grpc.ServiceError;
  expect(err.details).toContain('creating bucket "native-err"');
  expect(err.details).not.toContain(tc.config["krcloud:authToken"]);
});

describe("provider configuration", () => {
  const providerUrn = "urn:pulumi:test::native::pulumi:providers:krcloud::default_0_1_0";
  async function checkConfig(news: Props): Promise<{ inputs: Props; failures: string[] }> {
    const req = new provproto.CheckRequest();
    req.setUrn(providerUrn);
    req.setName("default_0_1_0");
    req.setType("pulumi:providers:krcloud");
    req.setOlds(struct({}));
    req.setNews(struct(news));
    const r = await rpc<provproto.CheckRequest, provproto.CheckResponse>("checkConfig", req);
    return { inputs: r.getInputs()!.toJavaScript(), failures: r.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`) };
  }
  async function diffConfig(olds: Props, news: Props): Promise<provproto.DiffResponse> {
    const req = new provproto.DiffRequest();
    req.setUrn(providerUrn);
    req.setType("pulumi:providers:krcloud");
    req.setName("default_0_1_0");
    req.setId("provider-id");
    req.setOlds(struct(olds));
    req.setOldInputs(struct(olds));
    req.setNews(struct(news));
    return rpc("diffConfig", req);
  }

  test("CheckConfig: a valid configuration comes back as it came, secrets still wrapped, without a request", async () => {
    const before = tc.counts();
    const news = {
      localCloudUrl: "http://127.0.0.1:8790",
      credentialId: "key-1",
      credentialSecret: secret("s3cr3t-value"),
      tokenCommand: "vault read -field=token secret/krcloud",
      identityEndpoint: "https://iam.kr-central-2.example.com/identity/v3",
      region: "kr-central-2",
      version: "0.1.0",
      cacheEndpoint: "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
    };
    const r = await checkConfig(news);
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual(news);
    expect(tc.countsSince(before)).toEqual({});
  });

  test("CheckConfig names the key and the values it takes; no secret in the reasons", async () => {
    const r = await checkConfig({
      objectstorageEndpoint: "http://storage.example.com",
      identityEndpoint: "not a url",
      region: "KR Central",
      credentialSecret: secret("s3cr3t-value"),
      authtoken: "typo-SECRET",
      projectId: 7,
    });
    expect(r.failures.sort()).toEqual(
      [
        'objectstorageEndpoint: krcloud:objectstorageEndpoint: must be an https:// URL, or http:// to this machine (127.0.0.0/8, ::1, localhost); got "http://storage.example.com"',
        'identityEndpoint: krcloud:identityEndpoint: must be an https:// URL, or http:// to this machine (127.0.0.0/8, ::1, localhost); got "not a url"',
        'region: krcloud:region: must be a region name of lower-case letters, digits and "-" (kr-central-2); got "KR Central"',
        expect.stringMatching(/^authtoken: krcloud:authtoken: is not a krcloud setting; the settings are authToken, cacheEndpoint, credentialId, /),
        "projectId: krcloud:projectId: must be a string, not number",
        "credentialId: krcloud:credentialId: is missing: the access key needs both krcloud:credentialId and krcloud:credentialSecret",
      ].sort(),
    );
    expect(r.failures.join("\n")).not.toMatch(/s3cr3t-value|typo-SECRET/);
  });

  test("DiffConfig: rotated credentials, a token command, endpoints, the region or the project are an update of the provider, never a replacement", async () => {
    const olds = { localCloudUrl: "http://127.0.0.1:8790", authToken: secret("old-token"), projectId: "p1", region: "kr-central-2", version: "0.1.0" };
    const rotated = await diffConfig(olds, {
      localCloudUrl: "http://127.0.0.1:8791",
      credentialId: "key-2",
      credentialSecret: secret("new-secret"),
      tokenCommand: "get-token",
      projectId: "p1",
      region: "kr-central-2",
      version: "0.2.0",
    });
    // A change, so that the engine configures the provider with the new key (an unchanged provider keeps the one it configured from the state).
    expect(rotated.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(rotated.getReplacesList()).toEqual([]);
    expect(detailed(rotated)).toEqual({ authToken: "DELETE", credentialId: "ADD", credentialSecret: "ADD", localCloudUrl: "UPDATE", tokenCommand: "ADD" });
    const same = await diffConfig(olds, { ...olds, authToken: secret("old-token"), version: "0.2.0" });
    expect(same.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    const moved = await diffConfig(olds, { ...olds, region: "kr-central-1", projectId: "p2" });
    expect(moved.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(moved.getReplacesList()).toEqual([]);
    expect(detailed(moved)).toEqual({ projectId: "UPDATE", region: "UPDATE" });
  });
});
