/**
 * The local cloud's identity service (issue 26), over loopback HTTP as a client meets it: Keystone
 * v3 application-credential authentication for an access key, tokens that carry their project and
 * a catalog of the local cloud's services, tokens that expire on the local cloud's clock and stop
 * working on every service, and the control API that expires tokens now, revokes keys, counts the
 * tokens issued and sets their lifetime; `--token-ttl` of krcloud-local-cloud.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { call, control as cloudControl, JSON_HEADERS, type Reply } from "../support/local-cloud/http";
import { entry } from "../harness/entries";

const authBody = (id: string, secret: string) => ({
  auth: { identity: { methods: ["application_credential"], application_credential: { id, secret } } },
});

let cloud: LocalCloud;
const control = (method: string, route: string, body?: unknown) => cloudControl(cloud, method, route, body);

const TTL_MS = 20_000;

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, tokenTtlMs: TTL_MS, cacheEngine: "simulated" });
});
afterAll(() => cloud.close());
beforeEach(async () => {
  expect((await control("POST", "/reset", { credentials: true })).status).toBe(200);
});

async function accessKey(projectId: string, permissions?: string[]) {
  const r = await control("POST", "/credentials", { projectId, kind: "access-key", ...(permissions ? { permissions } : {}) });
  expect(r.status).toBe(201);
  return r.json() as { credentialId: string; credentialSecret: string };
}

async function issue(id: string, secret: string): Promise<Reply> {
  return call("POST", `${cloud.endpoints.identity}/v3/auth/tokens`, { headers: JSON_HEADERS, body: authBody(id, secret) });
}

/** What each token-authenticated service answers to `token` on a read. */
async function serviceStatuses(token: string, project: string): Promise<Record<string, number>> {
  const h = { "x-auth-token": token };
  return {
    objectstorage: (await call("GET", `${cloud.endpoints["object-storage"]}/v1/${project}?format=json`, { headers: h })).status,
    cache: (await call("GET", `${cloud.endpoints.cache}/v1/clusters`, { headers: h })).status,
    kms: (await call("POST", `${cloud.endpoints.kms}/api/v1/keys/none/encrypt`, { headers: { ...h, ...JSON_HEADERS }, body: { input: "aGk=" } })).status,
  };
}

test("an access key is issued a token: X-Subject-Token, its project, issue and expiry times, a catalog of every service of the local cloud", async () => {
  const key = await accessKey("idproj1");
  const r = await issue(key.credentialId, key.credentialSecret);
  expect(r.status).toBe(201);
  const token = r.headers["x-subject-token"] as string;
  expect(token).toMatch(/^krc/);
  const t = r.json().token;
  expect(t.project.id).toBe("idproj1");
  expect(t.methods).toEqual(["application_credential"]);
  expect(Date.parse(t.expires_at) - Date.parse(t.issued_at)).toBe(TTL_MS);
  expect(t.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  const catalog = Object.fromEntries(
    (t.catalog as { type: string; endpoints: { interface: string; region_id: string; url: string }[] }[]).map((c) => [c.type, c.endpoints]),
  );
  expect(Object.keys(catalog).sort()).toEqual(["cache", "data-query", "hadoop", "identity", "key-manager", "object-store"]);
  expect(catalog["object-store"]).toEqual([
    expect.objectContaining({ interface: "public", region_id: "kr-central-2", url: `${cloud.endpoints["object-storage"]}/v1/idproj1` }),
  ]);
  expect(catalog.cache![0]!.url).toBe(cloud.endpoints.cache);
  expect(await serviceStatuses(token, "idproj1")).toEqual({ objectstorage: 200, cache: 200, kms: 404 });

  // The token validates (GET with X-Auth-Token and X-Subject-Token), as Keystone's does.
  const v = await call("GET", `${cloud.endpoints.identity}/v3/auth/tokens`, { headers: { "x-auth-token": token, "x-subject-token": token } });
  expect([v.status, v.json().token.project.id]).toEqual([200, "idproj1"]);
});

test("a wrong secret or an unknown key is 401 without saying which; a malformed body 400; no JSON content type 415", async () => {
  const key = await accessKey("idproj2");
  const wrongSecret = await issue(key.credentialId, "wrong");
  const unknownKey = await issue("unknown-key", key.credentialSecret);
  expect([wrongSecret.status, unknownKey.status]).toEqual([401, 401]);
  expect(wrongSecret.json().message).toBe(unknownKey.json().message);
  const password = { auth: { identity: { methods: ["password"], password: { user: { name: "u", password: "p" } } } } };
  expect((await call("POST", `${cloud.endpoints.identity}/v3/auth/tokens`, { headers: JSON_HEADERS, body: password })).status).toBe(400);
  expect(
    (
      await call("POST", `${cloud.endpoints.identity}/v3/auth/tokens`, {
        headers: { "content-type": "text/plain" },
        body: authBody(key.credentialId, key.credentialSecret),
      })
    ).status,
  ).toBe(415);
  expect((await control("GET", "/tokens")).json()).toMatchObject({ issued: 0, active: 0 });
});

test("a token expires on the local cloud's clock: every service answers 401 after its TTL; the control API's own tokens do not expire", async () => {
  const key = await accessKey("idproj3");
  const token = (await issue(key.credentialId, key.credentialSecret)).headers["x-subject-token"] as string;
  const own = (await control("POST", "/credentials", { projectId: "idproj3" })).json().token as string;
  // The clock also moves with real time: a second short of the TTL leaves room for the requests.
  await control("POST", "/clock/advance", { ms: TTL_MS - 1_000 });
  expect(await serviceStatuses(token, "idproj3")).toEqual({ objectstorage: 200, cache: 200, kms: 404 });
  await control("POST", "/clock/advance", { ms: 1_000 });
  expect(await serviceStatuses(token, "idproj3")).toEqual({ objectstorage: 401, cache: 401, kms: 401 });
  await control("POST", "/clock/advance", { ms: 86_400_000 });
  expect(await serviceStatuses(own, "idproj3")).toEqual({ objectstorage: 200, cache: 200, kms: 404 });
  const report = (await control("GET", "/tokens?projectId=idproj3")).json();
  expect(report).toMatchObject({ ttlSeconds: 20, issued: 1, active: 1 });
  const states = report.tokens.map((t: { state: string; credentialId?: string }) => [t.credentialId ?? "control", t.state]);
  expect(states.sort()).toEqual(
    [
      ["control", "active"],
      [key.credentialId, "expired"],
    ].sort(),
  );
});

test("the control API expires tokens now (all, or by project, key or token) and counts the tokens issued", async () => {
  const a = await accessKey("idproj4");
  const b = await accessKey("idproj5");
  const ta = [1, 2, 3].map(async () => (await issue(a.credentialId, a.credentialSecret)).headers["x-subject-token"] as string);
  const tokensA = await Promise.all(ta);
  const tokenB = (await issue(b.credentialId, b.credentialSecret)).headers["x-subject-token"] as string;
  expect((await control("GET", "/tokens")).json()).toMatchObject({ issued: 4, active: 4 });
  expect((await control("POST", "/tokens/expire", { credentialId: a.credentialId })).json()).toEqual({ expired: 3 });
  for (const t of tokensA) expect((await serviceStatuses(t, "idproj4")).objectstorage).toBe(401);
  expect((await serviceStatuses(tokenB, "idproj5")).objectstorage).toBe(200);
  expect((await control("POST", "/tokens/expire", {})).json()).toEqual({ expired: 1 });
  expect((await serviceStatuses(tokenB, "idproj5")).objectstorage).toBe(401);
  // A new token for the key works at once.
  const fresh = (await issue(a.credentialId, a.credentialSecret)).headers["x-subject-token"] as string;
  expect((await serviceStatuses(fresh, "idproj4")).objectstorage).toBe(200);
  expect((await control("GET", "/tokens")).json()).toMatchObject({ issued: 5, active: 1 });
  expect((await control("POST", "/tokens/expire", { projectid: "x" })).status).toBe(400);
});

test("revoking a key: its tokens stop working, it is issued no new one; another key of the project is untouched", async () => {
  const a = await accessKey("idproj6");
  const b = await accessKey("idproj6");
  const ta = (await issue(a.credentialId, a.credentialSecret)).headers["x-subject-token"] as string;
  const tb = (await issue(b.credentialId, b.credentialSecret)).headers["x-subject-token"] as string;
  expect((await call("DELETE", `${cloud.controlUrl}/credentials/${a.credentialId}`)).status).toBe(204);
  expect((await serviceStatuses(ta, "idproj6")).objectstorage).toBe(401);
  expect((await issue(a.credentialId, a.credentialSecret)).status).toBe(401);
  expect((await serviceStatuses(tb, "idproj6")).objectstorage).toBe(200);
  // Data query and Hadoop authenticate with the key itself: refused too.
  const dq = await call("GET", `${cloud.endpoints["data-query"]}/v1/data-query/query`, {
    headers: { "credential-id": a.credentialId, "credential-secret": a.credentialSecret },
  });
  expect(dq.status).toBe(401);
  expect((await control("GET", `/tokens?credentialId=${a.credentialId}`)).json().tokens.map((t: { state: string }) => t.state)).toEqual(["revoked"]);
  expect((await call("DELETE", `${cloud.controlUrl}/credentials/${a.credentialId}`)).status).toBe(404);
});

test("a token has its key's permissions: a key limited to reads gets 403 on a create", async () => {
  const key = await accessKey("idproj7", ["storage.buckets.get", "storage.objects.get"]);
  const token = (await issue(key.credentialId, key.credentialSecret)).headers["x-subject-token"] as string;
  const create = await call("PUT", `${cloud.endpoints["object-storage"]}/v1_ext/bucket`, {
    headers: { "x-auth-token": token, ...JSON_HEADERS },
    body: { name: "limited-bucket", type: "STANDARD" },
  });
  expect(create.status).toBe(403);
});

test("the token lifetime is set by the control API for the tokens issued from then on", async () => {
  expect((await control("PUT", "/tokens", { ttlSeconds: 3600 })).json()).toEqual({ ttlSeconds: 3600 });
  const key = await accessKey("idproj8");
  const t = (await issue(key.credentialId, key.credentialSecret)).json().token;
  expect(Date.parse(t.expires_at) - Date.parse(t.issued_at)).toBe(3_600_000);
  expect((await control("PUT", "/tokens", { ttlSeconds: 0 })).status).toBe(400);
  expect((await control("PUT", "/tokens", { ttlSeconds: TTL_MS / 1000 })).status).toBe(200);
});

test("krcloud-local-cloud --token-ttl sets the lifetime (a number with s, m or h); a bad value stops it naming the option", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-token-ttl-"));
  const bin = entry("localCloud");
  try {
    const bad = await runCli(bin, ["--port", "0", "--token-ttl", "soon", "--cache-engine", "simulated"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--token-ttl must be a positive number of seconds, or a number with s, m or h \(20s, 90m, 12h\), got soon/);

    const stateFile = path.join(dir, "state.json");
    const child = spawn(process.execPath, [bin, "--port", "0", "--token-ttl", "90m", "--cache-engine", "simulated", "--state-file", stateFile], {
      stdio: "ignore",
    });
    try {
      for (let i = 0; i < 200 && !fs.existsSync(stateFile); i++) await new Promise((r) => setTimeout(r, 50));
      const state = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { endpoints: Record<string, string>; credentialId: string; credentialSecret: string };
      const r = await call("POST", `${state.endpoints.identity}/v3/auth/tokens`, {
        headers: JSON_HEADERS,
        body: authBody(state.credentialId, state.credentialSecret),
      });
      const t = r.json().token;
      expect(Date.parse(t.expires_at) - Date.parse(t.issued_at)).toBe(90 * 60_000);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function runCli(bin: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("exit", (code) => resolve({ code: code ?? 1, stderr }));
  });
}
