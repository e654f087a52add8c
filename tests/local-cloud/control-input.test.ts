/**
 * Control API inputs are validated whole before anything applies (reliability review D5): a
 * refused input is a 400 that changes nothing, and every API keeps answering normally after it.
 */
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";

let cloud: LocalCloud;
let token: string;
let accessKey: Record<string, string>;
const PROJECT = "ctlinput";

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const res = await request(url, {
    method: method as "GET",
    headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
    body: body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text && text.startsWith("{") ? JSON.parse(text) : text };
}

const control = (method: string, path: string, body?: unknown) => call(method, `${cloud.controlUrl}${path}`, body);

/** One read per service: each must answer 2xx (a broken clock made them all 500). */
async function servicesAnswer(): Promise<number[]> {
  const auth = { "X-Auth-Token": token };
  return Promise.all([
    call("GET", `${cloud.endpoints["object-storage"]!}/v1_ext/bucket`, undefined, auth),
    call("GET", `${cloud.endpoints["object-storage"]!}/v1/${PROJECT}`, undefined, auth),
    call("GET", `${cloud.endpoints.cache!}/v1/clusters`, undefined, auth),
    call("POST", `${cloud.endpoints.kms!}/api/v1/keys/sym-1/encrypt`, { input: "x" }, auth),
    call("GET", `${cloud.endpoints["data-query"]!}/v1/data-query/data-source`, undefined, accessKey),
    call("GET", `${cloud.endpoints.hadoop!}/v2/hadoop-service/clusters`, undefined, accessKey),
  ]).then((replies) => replies.map((r) => r.status));
}

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
});
afterAll(async () => {
  await cloud.close();
});
beforeEach(async () => {
  cloud.control.reset({ credentials: true });
  const t = cloud.control.issueCredentials({ projectId: PROJECT });
  const k = cloud.control.issueCredentials({ projectId: PROJECT, kind: "access-key" });
  token = t.kind === "token" ? t.token : "";
  accessKey = k.kind === "access-key" ? { "Credential-ID": k.credentialId, "Credential-Secret": k.credentialSecret } : {};
  expect((await control("PATCH", "/resources/kms/key/sym-1", { projectId: PROJECT, type: "symmetric" })).status).toBe(200);
});

test("a clock advance past year 9999 (or not a finite non-negative number) is 400 and the clock does not move; every API still answers", async () => {
  const before = (await control("GET", "/clock")).json;
  for (const body of [{ days: 1e9 }, { ms: 1e308 }, { days: 3e6 }, { ms: -1 }, { ms: "5" }, { days: "NaN" }, { ms: null }, { weeks: 1 }, "[]", "{"]) {
    const res = await control("POST", "/clock/advance", body);
    expect({ body, status: res.status }).toEqual({ body, status: 400 });
  }
  expect(() => cloud.control.advanceClock({ days: 1e9 })).toThrow();
  const after = (await control("GET", "/clock")).json;
  expect(after.offsetMs).toBe(before.offsetMs);
  expect(await servicesAnswer()).toEqual([200, 200, 200, 200, 200, 200]);
  // A sane advance still works.
  const moved = await control("POST", "/clock/advance", { days: 365 });
  expect(moved.status).toBe(200);
  expect(moved.json.offsetMs).toBe(before.offsetMs + 365 * 86_400_000);
  expect(await servicesAnswer()).toEqual([200, 200, 200, 200, 200, 200]);
});

test("a century at a time, the clock stops before year 10000: the advance that would pass it is 400 and changes nothing", async () => {
  let refused: { status: number; json: any } | undefined;
  for (let i = 0; i < 100 && !refused; i++) {
    const res = await control("POST", "/clock/advance", { days: 36_500 });
    if (res.status !== 200) refused = res;
  }
  expect(refused).toMatchObject({ status: 400, json: { message: expect.stringMatching(/9999-12-31/) } });
  const now = (await control("GET", "/clock")).json.now as string;
  expect(now).toMatch(/^99\d\d-/);
  expect(await servicesAnswer()).toEqual([200, 200, 200, 200, 200, 200]);
});

test("transitions: ms 1e308, fractional reads, unknown fields and services are refused; nothing is set", async () => {
  for (const body of [
    { service: "cache", kind: "cluster", mode: "duration", ms: 1e308 },
    { service: "cache", kind: "cluster", mode: "duration", ms: -5 },
    { service: "cache", kind: "cluster", mode: "reads", reads: 1.5 },
    { service: "cache", kind: "cluster", mode: "reads" },
    { service: "cache", kind: "cluster", mode: "sometimes" },
    { service: "cache", kind: "", mode: "immediate" },
    { service: "cache", kind: "cluster", mode: "immediate", extra: 1 },
  ]) {
    expect({ body, status: (await control("PUT", "/transitions", body)).status }).toEqual({ body, status: 400 });
  }
  expect((await control("PUT", "/transitions", { service: "nope", kind: "cluster", mode: "immediate" })).status).toBe(404);
  expect((await control("GET", "/transitions")).json).toEqual({ transitions: [] });
  expect(() => cloud.control.setTransition({ service: "cache", kind: "cluster", mode: "duration", ms: Infinity })).toThrow();
  expect(cloud.control.transitions()).toEqual([]);
});

test("faults whose headers Node could not send, or a 1xx status, are refused; none is added", async () => {
  for (const body of [
    { action: "error", headers: { "bad name": "x" } },
    { action: "error", headers: { "x-ok": "line\r\nbreak" } },
    { action: "error", headers: { "x-ok": 5 } },
    { action: "error", status: 101 },
    { action: "error", status: 1e308 },
    { action: "latency", latencyMs: 1e308 },
    { action: "error", times: 0 },
    { action: "error", retryAfter: -1 },
    { action: "explode" },
  ]) {
    expect({ body, status: (await control("POST", "/faults", body)).status }).toEqual({ body, status: 400 });
  }
  expect((await control("GET", "/faults")).json).toEqual({ faults: [] });
  expect(await servicesAnswer()).toEqual([200, 200, 200, 200, 200, 200]);
});

test("credentials: wrong types are refused and no credential is issued", async () => {
  const before = cloud.control.existingCredentials("other");
  for (const body of [{ projectId: 5 }, { projectId: "bad id!" }, { permissions: "*" }, { permissions: [""] }, { kind: "password" }]) {
    expect({ body, status: (await control("POST", "/credentials", body)).status }).toEqual({ body, status: 400 });
  }
  expect(cloud.control.existingCredentials("other")).toEqual(before);
});

test("resource patches are checked whole: a KMS key keeps its versions, a bucket its ACL, an object its content", async () => {
  expect((await control("PATCH", "/resources/kms/key/sym-1", { rotate: true, state: "Broken" })).status).toBe(400);
  expect((await control("PATCH", "/resources/kms/key/sym-1", { rotate: true, surprise: 1 })).status).toBe(400);
  expect((await control("PATCH", "/resources/kms/key/sym-1", { projectId: "someone-else" })).status).toBe(400);
  expect((await control("PATCH", "/resources/kms/key/sym-1", { version: 7, state: "Deactivated" })).status).toBe(400);
  expect((await control("GET", "/resources/kms/key/sym-1")).json).toMatchObject({ defaultVersion: 1, versions: [{ version: 1, state: "Active" }] });
  expect((await control("PATCH", "/resources/kms/key/new-key", { state: "Active" })).status).toBe(400);
  expect((await control("GET", "/resources/kms/key/new-key")).status).toBe(404);

  const os = cloud.endpoints["object-storage"]!;
  expect((await call("PUT", `${os}/v1_ext/bucket`, { name: "ctl-bucket", type: "STANDARD" }, { "X-Auth-Token": token })).status).toBe(200);
  expect((await call("PUT", `${os}/v1/${PROJECT}/ctl-bucket/o.txt`, "hello", { "X-Auth-Token": token })).status).toBe(201);
  const bucket = (await control("GET", "/resources/object-storage/bucket/ctl-bucket")).json;
  expect((await control("PATCH", "/resources/object-storage/bucket/ctl-bucket", { acl: { public: "read-only" }, metadata: 5 })).status).toBe(400);
  expect((await control("GET", "/resources/object-storage/bucket/ctl-bucket")).json).toEqual(bucket);
  const object = (await control("GET", "/resources/object-storage/object/ctl-bucket/o.txt")).json;
  expect((await control("PATCH", "/resources/object-storage/object/ctl-bucket/o.txt", { content: "defaced", content_type: "\u0000" })).status).toBe(400);
  expect((await control("GET", "/resources/object-storage/object/ctl-bucket/o.txt")).json).toEqual(object);
  expect(await servicesAnswer()).toEqual([200, 200, 200, 200, 200, 200]);
});
