import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { call, control, JSON_HEADERS, type Reply } from "../support/local-cloud/http";
import { bindWarning } from "../../local-cloud/core/ip";

describe("local cloud: control API", () => {
  let cloud: LocalCloud;
  let base: string;
  let auth: Record<string, string>;
  let project: string;

  const createBucket = (name: string): Promise<Reply> =>
    call("PUT", `${base}/v1_ext/bucket`, { headers: { ...auth, ...JSON_HEADERS }, body: JSON.stringify({ name, type: "STANDARD" }) });
  const getBucket = (name: string): Promise<Reply> => call("GET", `${base}/v1_ext/bucket/${name}`, { headers: auth });

  beforeAll(async () => {
    cloud = await startLocalCloud({ port: 0 });
    base = cloud.endpoints["object-storage"]!;
  });
  afterAll(async () => {
    await cloud.close();
  });
  beforeEach(async () => {
    expect((await control(cloud, "POST", "/reset", { credentials: true })).status).toBe(200);
    const issued = await control(cloud, "POST", "/credentials", { projectId: "ctlproj" });
    expect(issued.status).toBe(201);
    project = issued.json().projectId;
    auth = { "X-Auth-Token": issued.json().token };
  });

  test("endpoints: one port, services under path prefixes", async () => {
    expect(cloud.endpoints["object-storage"]).toBe(`${cloud.url}/object-storage`);
    const root = await control(cloud, "GET", "");
    expect(root.json()).toMatchObject({ url: cloud.url, endpoints: { "object-storage": base } });
    expect((await call("GET", `${cloud.url}/nothing-here`)).status).toBe(404);
  });

  test("credentials: tokens and access keys bound to a project; bad requests are 400", async () => {
    const key = await control(cloud, "POST", "/credentials", { kind: "access-key", permissions: ["storage.buckets.get"] });
    expect(key.status).toBe(201);
    expect(key.json()).toMatchObject({
      kind: "access-key",
      credentialId: expect.any(String),
      credentialSecret: expect.any(String),
      permissions: ["storage.buckets.get"],
    });
    expect(key.json().projectId).toMatch(/^[0-9a-f]{32}$/);
    expect((await control(cloud, "POST", "/credentials", { kind: "password" })).status).toBe(400);
    expect((await control(cloud, "POST", "/credentials", { projectId: "has spaces" })).status).toBe(400);
    const malformed = await call("POST", `${cloud.controlUrl}/credentials`, { headers: JSON_HEADERS, body: "{" });
    expect([malformed.status, malformed.json().code]).toEqual([400, "MalformedJSON"]);
  });

  test('fault "error": status, body and Retry-After without applying; spent after `times`', async () => {
    const fault = await control(cloud, "POST", "/faults", {
      service: "object-storage",
      operation: "CreateBucket",
      action: "error",
      status: 503,
      retryAfter: 7,
      times: 1,
    });
    expect(fault.status).toBe(201);
    const failed = await createBucket("fault-bucket");
    expect(failed.status).toBe(503);
    expect(failed.headers["retry-after"]).toBe("7");
    expect(failed.json()).toMatchObject({ code: "InjectedFault" });
    expect((await getBucket("fault-bucket")).status).toBe(404);
    expect((await createBucket("fault-bucket")).status).toBe(200);
    const listed = (await control(cloud, "GET", "/faults")).json().faults;
    expect(listed).toEqual([expect.objectContaining({ id: fault.json().id, fired: 1, remaining: 0 })]);

    await control(cloud, "POST", "/faults", {
      method: "GET",
      pathRegex: "^/v1_ext/bucket/fault",
      action: "error",
      status: 429,
      body: { custom: true },
      headers: { "X-Why": "test" },
    });
    const throttled = await getBucket("fault-bucket");
    expect([throttled.status, throttled.json(), throttled.headers["x-why"]]).toEqual([429, { custom: true }, "test"]);
    expect((await call("GET", `${base}/v1_ext/bucket`, { headers: auth })).status).toBe(200);
    expect((await control(cloud, "DELETE", "/faults")).status).toBe(204);
    expect((await getBucket("fault-bucket")).status).toBe(200);
  });

  test('fault "drop" closes the connection without applying; "lose-response" applies, then closes', async () => {
    const drop = await control(cloud, "POST", "/faults", { operation: "CreateBucket", action: "drop", times: 1 });
    await expect(createBucket("dropped-bucket")).rejects.toThrow();
    expect((await getBucket("dropped-bucket")).status).toBe(404);
    expect((await control(cloud, "DELETE", `/faults/${drop.json().id as string}`)).status).toBe(204);
    expect((await control(cloud, "DELETE", `/faults/${drop.json().id as string}`)).status).toBe(404);

    await control(cloud, "POST", "/faults", { operation: "CreateBucket", action: "lose-response", times: 1 });
    await expect(createBucket("lost-bucket")).rejects.toThrow();
    expect((await getBucket("lost-bucket")).status).toBe(200);
    const again = await createBucket("lost-bucket");
    expect(again.status).toBe(409);

    const log = (await control(cloud, "GET", "/requests")).json().requests as Array<{ operation: string; status: number; fault?: string }>;
    expect(log.filter((r) => r.operation === "CreateBucket").map((r) => [r.status, r.fault])).toEqual([
      [0, "drop"],
      [200, "lose-response"],
      [409, undefined],
    ]);
  });

  test('fault "latency" delays on the local cloud\'s clock and still applies: ten minutes end when the clock is advanced', async () => {
    expect((await control(cloud, "POST", "/faults", { operation: "GetBucketMeta", action: "latency", latencyMs: 600_000, times: 1 })).status).toBe(201);
    await createBucket("slow-bucket");
    let answered = false;
    const pending = getBucket("slow-bucket").then((r) => ((answered = true), r));
    // The request is held: several turns of the event loop later it has not been answered.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    expect((await control(cloud, "POST", "/clock/advance", { ms: 600_000 })).status).toBe(200);
    expect((await pending).status).toBe(200);
  });

  test('fault "latency" follows the local cloud clock: a 60 s delay ends when the clock is advanced 60 s', async () => {
    await control(cloud, "POST", "/faults", { operation: "GetBucketMeta", action: "latency", latencyMs: 60_000, times: 1 });
    await createBucket("clock-bucket");
    const started = Date.now();
    let answered = false;
    const pending = getBucket("clock-bucket").then((reply) => {
      answered = true;
      return reply;
    });
    // The request is held once the fault has fired; until then there is nothing to fast-forward.
    while ((await control(cloud, "GET", "/faults")).json().faults[0].fired === 0) await new Promise((r) => setImmediate(r));
    expect((await control(cloud, "POST", "/clock/advance", { ms: 30_000 })).status).toBe(200);
    expect(answered).toBe(false);
    expect((await control(cloud, "POST", "/clock/advance", { ms: 30_000 })).status).toBe(200);
    expect((await pending).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("drift: GET, PATCH (acl, metadata, cors, lifecycle) and DELETE a non-empty bucket behind the API", async () => {
    await createBucket("drift-bucket");
    await call("PUT", `${base}/v1/${project}/drift-bucket/o.txt`, { headers: auth, body: "data" });
    await call("POST", `${base}/v1_ext/bucket/drift-bucket`, {
      headers: { ...auth, ...JSON_HEADERS },
      body: JSON.stringify({ name: "drift-bucket", acl: { public: "read-only", public_read_allow_ip_list: ["10.0.0.1"] } }),
    });
    const resource = "/resources/object-storage/bucket/drift-bucket";
    expect((await control(cloud, "GET", resource)).json()).toMatchObject({ name: "drift-bucket", objectCount: 1, metadata: {}, cors: null, lifecycle: null });

    const patched = await control(cloud, "PATCH", resource, {
      acl: { public: "deny" },
      metadata: { owner: "x", gone: "y" },
      cors: [{ allowed_origins: ["https://a.com"], allowed_methods: ["GET"] }],
      lifecycle:
        "<LifecycleConfiguration><Rule><Prefix>t/</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>",
    });
    expect(patched.status).toBe(200);
    await control(cloud, "PATCH", resource, { metadata: { gone: null } });
    const seen = await getBucket("drift-bucket");
    expect(seen.json().acl).toEqual({ public: "deny", public_read_allow_ip_list: null, permissions: null });
    expect(seen.headers["x-container-meta-owner"]).toBe("x");
    expect(seen.headers["x-container-meta-gone"]).toBeUndefined();
    expect((await call("GET", `${base}/v1_ext/bucket/drift-bucket/cors`, { headers: auth })).json().cors).toHaveLength(1);
    expect((await call("GET", `${base}/v1_ext/bucket/drift-bucket/lifecycle`, { headers: auth })).text).toContain("<Prefix>t/</Prefix>");

    const inventory = (await control(cloud, "GET", "/inventory")).json().resources;
    expect(inventory).toEqual([
      { service: "object-storage", kind: "bucket", id: "drift-bucket", projectId: project },
      { service: "object-storage", kind: "bucket-cors", id: "drift-bucket", projectId: project },
      { service: "object-storage", kind: "bucket-lifecycle", id: "drift-bucket", projectId: project },
      { service: "object-storage", kind: "object", id: "drift-bucket/o.txt", projectId: project },
    ]);
    expect((await control(cloud, "PATCH", resource, { lifecycle: null, cors: null })).status).toBe(200);
    expect((await call("GET", `${base}/v1_ext/bucket/drift-bucket/lifecycle`, { headers: auth })).status).toBe(404);
    expect((await control(cloud, "PATCH", resource, { acl: { public: "sometimes" } })).status).toBe(400);
    expect((await control(cloud, "PATCH", resource, { name: "renamed" })).status).toBe(400);
    expect((await control(cloud, "PATCH", resource, { cors: [{ allowed_origins: ["nope"], allowed_methods: ["GET"] }] })).status).toBe(400);

    const object = await control(cloud, "PATCH", "/resources/object-storage/object/drift-bucket/o.txt", { content: "changed" });
    expect(object.json()).toMatchObject({ bytes: 7, hash: createHash("md5").update("changed").digest("hex") });
    expect((await call("GET", `${base}/v1/${project}/drift-bucket/o.txt`, { headers: auth })).text).toBe("changed");

    expect((await control(cloud, "DELETE", resource)).status).toBe(204);
    expect((await getBucket("drift-bucket")).status).toBe(404);
    expect((await control(cloud, "GET", resource)).status).toBe(404);
    expect((await control(cloud, "GET", "/resources/object-storage/widget/x")).status).toBe(404);
    expect((await control(cloud, "GET", "/resources/nope/bucket/x")).status).toBe(404);
    expect((await control(cloud, "GET", "/inventory")).json().resources).toEqual([]);
  });

  test("inventory lists objects and unfinished multipart uploads until they are truly gone", async () => {
    const swift = (path: string): string => `${base}/v1/${project}${path}`;
    const uploadIdOf = (xml: string): string => /<UploadId>([^<]+)<\/UploadId>/.exec(xml)![1]!;
    const os = (kind: string, id: string) => ({ service: "object-storage", kind, id, projectId: project });
    await createBucket("inv-bucket");
    await call("PUT", swift("/inv-bucket/z.txt"), { headers: auth, body: "z" });
    await call("PUT", swift("/inv-bucket/a/b.txt"), { headers: auth, body: "b" });
    const done = uploadIdOf((await call("POST", swift("/inv-bucket/big/k.bin?uploads"), { headers: auth })).text);
    const left = uploadIdOf((await call("POST", swift("/inv-bucket/left.bin?uploads"), { headers: auth })).text);
    const part = await call("PUT", swift(`/inv-bucket/big/k.bin?uploadId=${done}&partNumber=1`), { headers: auth, body: "part" });
    expect((await control(cloud, "GET", "/inventory")).json().resources).toEqual([
      os("bucket", "inv-bucket"),
      os("object", "inv-bucket/a/b.txt"),
      os("object", "inv-bucket/z.txt"),
      os("multipart-upload", `inv-bucket/big/k.bin/${done}`),
      os("multipart-upload", `inv-bucket/left.bin/${left}`),
    ]);
    const upload = await control(cloud, "GET", `/resources/object-storage/multipart-upload/inv-bucket/big/k.bin/${done}`);
    expect(upload.json()).toMatchObject({ bucket: "inv-bucket", key: "big/k.bin", upload_id: done, parts: [{ part_number: 1, bytes: 4 }] });

    // Completing turns the upload into an object; a drift DELETE aborts the other one behind the API.
    await call("PUT", swift(`/inv-bucket/big/k.bin?uploadId=${done}`), {
      headers: { ...auth, "Content-Type": "application/xml" },
      body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${part.headers.etag as string}</ETag></Part></CompleteMultipartUpload>`,
    });
    expect((await control(cloud, "DELETE", `/resources/object-storage/multipart-upload/inv-bucket/left.bin/${left}`)).status).toBe(204);
    expect((await call("GET", swift(`/inv-bucket/left.bin?uploadId=${left}`), { headers: auth })).status).toBe(404);
    expect((await control(cloud, "GET", "/inventory")).json().resources).toEqual([
      os("bucket", "inv-bucket"),
      os("object", "inv-bucket/a/b.txt"),
      os("object", "inv-bucket/big/k.bin"),
      os("object", "inv-bucket/z.txt"),
    ]);

    for (const key of ["a/b.txt", "big/k.bin", "z.txt"]) expect((await call("DELETE", swift(`/inv-bucket/${key}`), { headers: auth })).status).toBe(204);
    expect((await control(cloud, "GET", "/inventory")).json().resources).toEqual([os("bucket", "inv-bucket")]);
    expect((await call("DELETE", `${base}/v1_ext/bucket/inv-bucket`, { headers: auth })).status).toBe(204);
    expect((await control(cloud, "GET", "/inventory")).json().resources).toEqual([]);
  });

  test("reset clears resources but keeps credentials unless asked", async () => {
    await createBucket("reset-bucket");
    expect((await control(cloud, "POST", "/reset")).status).toBe(200);
    expect((await getBucket("reset-bucket")).status).toBe(404);
    expect((await call("GET", `${base}/v1_ext/bucket`, { headers: auth })).status).toBe(200);
    await control(cloud, "POST", "/reset", { credentials: true });
    expect((await call("GET", `${base}/v1_ext/bucket`, { headers: auth })).status).toBe(401);
  });

  test("request log with since cursor, and counters per service.operation", async () => {
    const startSeq = (await control(cloud, "GET", "/requests")).json().lastSeq as number;
    await createBucket("log-bucket");
    await getBucket("log-bucket");
    await getBucket("missing-bkt");
    const log = (await control(cloud, "GET", `/requests?since=${startSeq}`)).json().requests;
    expect(log.map((r: { operation: string; method: string; path: string; status: number }) => [r.operation, r.method, r.path, r.status])).toEqual([
      ["CreateBucket", "PUT", "/v1_ext/bucket", 200],
      ["GetBucketMeta", "GET", "/v1_ext/bucket/log-bucket", 200],
      ["GetBucketMeta", "GET", "/v1_ext/bucket/missing-bkt", 404],
    ]);
    expect(log[0]).toMatchObject({ seq: startSeq + 1, service: "object-storage", time: expect.any(String) });
    const counters = (await control(cloud, "GET", "/counters")).json();
    expect(counters).toEqual({
      total: 3,
      byOperation: { "object-storage.CreateBucket": 1, "object-storage.GetBucketMeta": 2 },
      mutating: { total: 1, byProject: { ctlproj: 1 } },
    });
    expect((await control(cloud, "GET", "/requests?since=x")).status).toBe(400);
  });

  test("transitions and clock", async () => {
    const set = await control(cloud, "PUT", "/transitions", { service: "object-storage", kind: "bucket", mode: "reads", reads: 3 });
    expect(set.status).toBe(200);
    expect((await control(cloud, "GET", "/transitions")).json().transitions).toEqual([{ service: "object-storage", kind: "bucket", mode: "reads", reads: 3 }]);
    expect((await control(cloud, "PUT", "/transitions", { service: "object-storage", kind: "bucket", mode: "reads" })).status).toBe(400);
    expect((await control(cloud, "PUT", "/transitions", { service: "nope", kind: "x", mode: "immediate" })).status).toBe(404);
    const before = Date.parse((await control(cloud, "GET", "/clock")).json().now);
    const advanced = (await control(cloud, "POST", "/clock/advance", { days: 2, ms: 1000 })).json();
    expect(advanced.offsetMs).toBe(2 * 86_400_000 + 1000);
    expect(Date.parse(advanced.now) - before).toBeGreaterThanOrEqual(2 * 86_400_000 + 1000);
    expect((await control(cloud, "POST", "/clock/advance", { ms: -5 })).status).toBe(400);
    expect((await control(cloud, "PATCH", "/clock/advance", {})).status).toBe(405);
  });
});

describe("local cloud: persistence and separate ports", () => {
  test("a restarted local cloud keeps buckets, objects, credentials and the clock offset", async () => {
    const dir = mkdtempSync(join(tmpdir(), "krcloud-persist-"));
    const file = join(dir, "state.json");
    try {
      const first = await startLocalCloud({ port: 0, persistPath: file });
      const issued = first.control.issueCredentials({ projectId: "persisted" });
      const auth = { "X-Auth-Token": issued.kind === "token" ? issued.token : "" };
      const base1 = first.endpoints["object-storage"]!;
      await call("PUT", `${base1}/v1_ext/bucket`, {
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "kept-bucket", type: "STANDARD" }),
      });
      await call("PUT", `${base1}/v1/persisted/kept-bucket/bin.dat`, { headers: auth, body: "binary\u0000data" });
      await call("POST", `${base1}/v1/persisted/kept-bucket`, { headers: { ...auth, "X-Container-Meta-Color": "blue" } });
      first.control.advanceClock({ days: 3 });
      await first.close();

      const second = await startLocalCloud({ port: 0, persistPath: file });
      try {
        const base2 = second.endpoints["object-storage"]!;
        const got = await call("GET", `${base2}/v1/persisted/kept-bucket/bin.dat`, { headers: auth });
        expect([got.status, got.text]).toEqual([200, "binary\u0000data"]);
        const meta = await call("GET", `${base2}/v1_ext/bucket/kept-bucket`, { headers: auth });
        expect(meta.headers["x-container-meta-color"]).toBe("blue");
        expect(second.control.inventory()).toEqual([
          { service: "object-storage", kind: "bucket", id: "kept-bucket", projectId: "persisted" },
          { service: "object-storage", kind: "object", id: "kept-bucket/bin.dat", projectId: "persisted" },
        ]);
        expect(second.control.now() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("separatePorts serves each service at the root of its own port too", async () => {
    const cloud = await startLocalCloud({ port: 0, separatePorts: true });
    try {
      expect(cloud.endpoints["object-storage"]).not.toContain("/object-storage");
      const info = await call("GET", `${cloud.endpoints["object-storage"]!}/info`);
      expect(info.status).toBe(200);
      expect((await call("GET", `${cloud.url}/object-storage/info`)).status).toBe(200);
      expect((await call("GET", `${cloud.endpoints["object-storage"]!}/_control/inventory`)).status).toBe(404);
    } finally {
      await cloud.close();
    }
  });

  test("bodies over the cap are refused with 413 and the server keeps serving", async () => {
    const cloud = await startLocalCloud({ port: 0, maxBodyBytes: 1024 });
    try {
      const issued = cloud.control.issueCredentials({ projectId: "capped" });
      const auth = { "X-Auth-Token": issued.kind === "token" ? issued.token : "" };
      const base = cloud.endpoints["object-storage"]!;
      await call("PUT", `${base}/v1/capped/cap-bucket`, { headers: auth });
      const big = await call("PUT", `${base}/v1/capped/cap-bucket/big`, { headers: auth, body: "x".repeat(2048) });
      expect([big.status, big.text]).toEqual([413, expect.stringMatching(/1024 bytes/)]);
      expect((await call("PUT", `${base}/v1/capped/cap-bucket/small`, { headers: auth, body: "x".repeat(1024) })).status).toBe(201);
    } finally {
      await cloud.close();
    }
  });
});

describe("local cloud: binding", () => {
  test("loopback binds start silently; any other host gets a warning that the control API is open", async () => {
    const warnings: string[] = [];
    const cloud = await startLocalCloud({ port: 0, onWarning: (m) => warnings.push(m) });
    await cloud.close();
    expect(warnings).toEqual([]);
    for (const host of ["127.0.0.1", "127.0.0.2", "::1", "localhost"]) expect(bindWarning(host)).toBeUndefined();
    for (const host of ["0.0.0.0", "::", "10.1.2.3", "cloud.internal"]) {
      expect(bindWarning(host)).toMatch(new RegExp(`listening on ${host.replace(/\./g, "\\.")}, not loopback.*control API.*no authentication`));
    }
  });
});
