/**
 * Credentials that renew themselves (issue 26), against a scripted identity service and service on
 * loopback, with a fake clock: the Keystone v3 request, reuse and renewal before expiry, one
 * re-issue for every request a 401 refused (single flight), 403 never renewing, a streamed body
 * never sent twice, the project and the catalog's endpoints taken from the token, every message
 * naming the setting a credential came from and holding no secret.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Readable } from "node:stream";
import {
  authenticated,
  catalogEndpoint,
  closeAllPools,
  currentToken,
  renewalMargin,
  resetTokens,
  resolveSettings,
  tokensPath,
  transportFor,
  type Clock,
  type Settings,
} from "../../client/core";
import { jsonReply, useScriptedServer, type Seen } from "../support/servers/scripted";

const srv = useScriptedServer();

const HOUR = 3_600_000;
const SECRET = "app-cred-SECRET-5678";

/** A clock that moves only when told; sleeps (retry backoff) move it. */
function fakeClock(start = Date.UTC(2026, 10, 26, 0, 0, 0)): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    random: () => 0.5,
    sleep: async (ms) => {
      t += ms;
    },
    advance(ms) {
      t += ms;
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "000Z");

/** The scripted cloud: `/identity/v3/auth/tokens` issues tok-1, tok-2, ... living `ttlMs`; `/svc/...` answers `service`. */
function cloud(
  clock: Clock,
  opts: { ttlMs?: number; project?: string; service?: (r: Seen, token: string | undefined) => { status: number; body?: unknown } } = {},
) {
  let issued = 0;
  const tokensSeen: (string | undefined)[] = [];
  srv.route = (r) => {
    if (r.url === "/identity/v3/auth/tokens" && r.method === "POST") {
      issued++;
      const now = clock.now();
      return jsonReply(
        201,
        {
          token: {
            issued_at: iso(now),
            expires_at: iso(now + (opts.ttlMs ?? 12 * HOUR)),
            project: { id: opts.project ?? "proj-a", name: "a" },
            catalog: [
              { type: "object-store", endpoints: [{ interface: "public", region_id: "kr-central-2", url: `${srv.origin}/svc/v1/AUTH_proj-a` }] },
              { type: "cache", endpoints: [{ interface: "internal", region: "kr-central-2", url: "http://10.0.0.1/cache" }] },
              {
                type: "key-manager",
                endpoints: [
                  { interface: "public", region: "other-region", url: "https://kms.other.example" },
                  { interface: "public", region: "kr-central-2", url: `${srv.origin}/svc` },
                ],
              },
            ],
          },
        },
        { "x-subject-token": `tok-${issued}-SECRET` },
      );
    }
    const token = r.headers["x-auth-token"] as string | undefined;
    tokensSeen.push(token);
    const answer = opts.service?.(r, token) ?? { status: 200, body: { ok: true } };
    return jsonReply(answer.status, answer.body ?? {});
  };
  return { issued: () => issued, tokensSeen };
}

function accessKeySettings(extra: Record<string, string> = {}): Settings {
  const config: Record<string, string> = { credentialId: "key-1", credentialSecret: SECRET, identityEndpoint: `${srv.origin}/identity`, ...extra };
  return resolveSettings({}, (k) => config[k], {});
}

const get = (s: Settings, clock: Clock, extra: Partial<Parameters<ReturnType<typeof transportFor>["request"]>[0]> = {}) =>
  transportFor("kms", { settings: s, clock }).request({ operation: "Get", method: "GET", path: "/thing", idempotent: true, ...extra });

beforeEach(() => resetTokens());
afterAll(() => closeAllPools());

describe("the access key", () => {
  test("issues a token with Keystone v3 application-credential authentication; the token is X-Subject-Token, sent as X-Auth-Token", async () => {
    const clock = fakeClock();
    const c = cloud(clock);
    const s = await authenticated(accessKeySettings(), { clock });
    await get(s, clock);
    const [issue] = srv.seen;
    expect(issue!.method).toBe("POST");
    expect(issue!.url).toBe("/identity/v3/auth/tokens");
    expect(issue!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(issue!.body)).toEqual({
      auth: { identity: { methods: ["application_credential"], application_credential: { id: "key-1", secret: SECRET } } },
    });
    expect(issue!.headers["x-auth-token"]).toBeUndefined();
    expect(c.tokensSeen).toEqual(["tok-1-SECRET"]);
    expect(c.issued()).toBe(1);
  });

  test("the project and every endpoint not set come from the token: the catalog's public entry in the region, object storage without its account", async () => {
    const clock = fakeClock();
    cloud(clock);
    const s = await authenticated(accessKeySettings({ cacheEndpoint: "https://cache.example" }), { clock });
    expect(s.projectId).toBe("proj-a");
    expect(s.endpoints).toEqual({ objectstorage: `${srv.origin}/svc`, kms: `${srv.origin}/svc`, cache: "https://cache.example" });
    // An explicit endpoint wins; a service the catalog lacks in the region fails naming what to set.
    await expect(authenticated(accessKeySettings(), { clock, service: "kms" })).resolves.toMatchObject({ endpoints: { kms: `${srv.origin}/svc` } });
    await expect(authenticated(accessKeySettings(), { clock, service: "cache" })).rejects.toThrow(
      /no endpoint for the cache service: the identity service's catalog has no public endpoint of type "cache" or "redis" in region "kr-central-2" \(krcloud:region\); set krcloud:cacheEndpoint/,
    );
  });

  test("a configured project that differs from the token's refuses every operation before any service request, naming both", async () => {
    const clock = fakeClock();
    const c = cloud(clock, { project: "proj-b" });
    await expect(authenticated(accessKeySettings({ projectId: "proj-a" }), { clock })).rejects.toThrow(
      /the token from the access key "key-1" \(krcloud:credentialId and krcloud:credentialSecret\) belongs to project "proj-b", not to project "proj-a" \(krcloud:projectId\)\. Nothing was read or changed/,
    );
    expect(c.tokensSeen).toEqual([]);
  });

  test("a token is reused while more than 5 minutes remain and re-issued before that", async () => {
    const clock = fakeClock();
    const c = cloud(clock);
    const s = await authenticated(accessKeySettings(), { clock });
    await get(s, clock);
    clock.advance(12 * HOUR - 5 * 60_000 - 1_000);
    await get(s, clock);
    clock.advance(2_000);
    await get(s, clock);
    expect(c.tokensSeen).toEqual(["tok-1-SECRET", "tok-1-SECRET", "tok-2-SECRET"]);
    expect(c.issued()).toBe(2);
  });

  test("a short-lived token is renewed a quarter of its life before it ends, not at every request", async () => {
    expect(renewalMargin(12 * HOUR)).toBe(5 * 60_000);
    expect(renewalMargin(20_000)).toBe(5_000);
    const clock = fakeClock();
    const c = cloud(clock, { ttlMs: 20_000 });
    const s = await authenticated(accessKeySettings(), { clock });
    for (let i = 0; i < 4; i++) {
      await get(s, clock);
      clock.advance(5_000);
    }
    // Issued at 0 s, renewed at 15 s: every poll of a wait sends the current token.
    expect(c.tokensSeen).toEqual(["tok-1-SECRET", "tok-1-SECRET", "tok-1-SECRET", "tok-2-SECRET"]);
  });

  test("50 concurrent requests refused with the same token (401): one new token for all, each request sent once more and answered", async () => {
    const clock = fakeClock();
    const c = cloud(clock, { service: (_r, token) => (token === "tok-1-SECRET" ? { status: 401, body: { message: "token expired" } } : { status: 200 }) });
    const s = await authenticated(accessKeySettings(), { clock });
    const results = await Promise.all(Array.from({ length: 50 }, () => get(s, clock)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(c.issued()).toBe(2);
    expect(c.tokensSeen.filter((t) => t === "tok-1-SECRET")).toHaveLength(50);
    expect(c.tokensSeen.filter((t) => t === "tok-2-SECRET")).toHaveLength(50);
  });

  test("a second 401 fails naming the access key, its setting and when the token expires; no third request", async () => {
    const clock = fakeClock();
    const c = cloud(clock, { service: () => ({ status: 401, body: { message: "invalid token" } }) });
    const s = await authenticated(accessKeySettings(), { clock });
    const err = (await get(s, clock, { action: 'reading thing "x"' }).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      /^reading thing "x": 401: invalid token \[GET \/svc\/thing\].*: the token issued for the access key "key-1" \(krcloud:credentialId and krcloud:credentialSecret\) by http:\/\/127\.0\.0\.1:\d+\/identity was refused \(401\) although it had just been issued; it expires at 2026-11-26T12:00:00\.000000Z/,
    );
    expect(c.tokensSeen).toEqual(["tok-1-SECRET", "tok-2-SECRET"]);
    expect(err.message).not.toContain("SECRET");
  });

  test("a 403 is a refused permission: no new token, the request not sent again, the message says so", async () => {
    const clock = fakeClock();
    const c = cloud(clock, { service: () => ({ status: 403, body: { message: "not allowed" } }) });
    const s = await authenticated(accessKeySettings(), { clock });
    const err = (await get(s, clock).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      /403: not allowed .*: permission refused \(403\): the token issued for the access key "key-1" .* is valid but not allowed to do this \(not an expired token; no new token was requested\)$/,
    );
    expect(c.issued()).toBe(1);
    expect(c.tokensSeen).toHaveLength(1);
  });

  test("a request whose body is a stream is not sent again after a 401: it fails saying so (the token is renewed for the next)", async () => {
    const clock = fakeClock();
    const c = cloud(clock, { service: (_r, token) => (token === "tok-1-SECRET" ? { status: 401 } : { status: 201 }) });
    const s = await authenticated(accessKeySettings(), { clock });
    const err = (await get(s, clock, { method: "PUT", body: () => Readable.from([Buffer.from("data")]), headers: { "content-length": "4" } }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toMatch(
      /a new token was issued, but this request is not sent again: its body is a stream, read while it was sent\. Run the operation again$/,
    );
    expect(c.tokensSeen).toEqual(["tok-1-SECRET"]);
    expect((await get(s, clock)).status).toBe(201);
    expect(c.tokensSeen).toEqual(["tok-1-SECRET", "tok-2-SECRET"]);
  });

  test("a wrong or revoked key: the identity service's 401 names the key and its settings, and is asked once per process", async () => {
    const clock = fakeClock();
    let asked = 0;
    srv.route = () => (asked++, jsonReply(401, { error: { code: 401, message: "The request you have made requires authentication." } }));
    const s = accessKeySettings({ kmsEndpoint: `${srv.origin}/svc` });
    const failures = await Promise.all([1, 2, 3].map(() => authenticated(s, { clock }).catch((e: Error) => e.message)));
    await expect(get(s, clock)).rejects.toThrow(/refused by the identity service/);
    expect(new Set(failures)).toEqual(
      new Set([
        expect.stringMatching(
          /^the access key "key-1" \(krcloud:credentialId and krcloud:credentialSecret\) was refused by the identity service http:\/\/127\.0\.0\.1:\d+\/identity \(401: The request you have made requires authentication\.\): it is wrong, revoked or expired; create a new access key/,
        ),
      ]),
    );
    expect(asked).toBe(1);
    expect(JSON.stringify(failures)).not.toContain(SECRET);
  });

  test("one rule for the key's ID: named in the identity service's 401 and in data query's and Hadoop's, never its secret", async () => {
    const clock = fakeClock();
    srv.route = () => jsonReply(401, { error: { code: 401, message: "Credential authentication failed" } });
    const s = accessKeySettings({ hadoopEndpoint: `${srv.origin}/svc`, dataqueryEndpoint: `${srv.origin}/svc` });
    const identity = (await authenticated(s, { clock }).catch((e: unknown) => e)) as Error;
    const direct = await Promise.all(
      (["hadoop", "dataquery"] as const).map((svc) =>
        transportFor(svc, { settings: s, clock })
          .request({ operation: "Get", method: "GET", path: "/thing", idempotent: true })
          .then(
            () => new Error("answered"),
            (e: unknown) => e as Error,
          ),
      ),
    );
    for (const e of [identity, ...direct]) {
      expect(e.message).toContain('the access key "key-1" (krcloud:credentialId and krcloud:credentialSecret) was refused');
      expect(JSON.stringify({ ...e, message: e.message, stack: e.stack })).not.toContain(SECRET);
    }
    expect(srv.seen.filter((r) => r.url === "/svc/thing").map((r) => r.headers["credential-id"])).toEqual(["key-1", "key-1"]);
  });

  test("the identity endpoint must not send the secret over plain http to another machine", async () => {
    const s = resolveSettings({}, (k) => ({ credentialId: "key-1", credentialSecret: SECRET, identityEndpoint: "http://iam.example.com/identity" })[k], {});
    await expect(authenticated(s)).rejects.toThrow(/the identity endpoint http:\/\/iam\.example\.com uses plain http:\/\/ to a host that is not this machine/);
  });
});

describe("the chain of sources", () => {
  test("a static token comes first: no token request; its 401 says to configure an access key so the provider can renew it", async () => {
    const clock = fakeClock();
    const c = cloud(clock, { service: () => ({ status: 401 }) });
    const s = accessKeySettings({ authToken: "static-SECRET-token", kmsEndpoint: `${srv.origin}/svc` });
    expect(await authenticated(s, { clock })).toBe(s);
    const err = (await get(s, clock).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      /: the auth token from krcloud:authToken was refused \(401\): it has expired or was revoked\. A static token cannot be renewed: configure an access key \(krcloud:credentialId, krcloud:credentialSecret and krcloud:identityEndpoint\) or krcloud:tokenCommand so that the provider renews it$/,
    );
    expect(c.issued()).toBe(0);
    expect(c.tokensSeen).toEqual(["static-SECRET-token"]);
    expect(err.message).not.toContain("static-SECRET-token");
  });

  test("nothing configured: the error names all three sources; an access key without an identity endpoint names that", async () => {
    const clock = fakeClock();
    const none = resolveSettings({ endpoints: { kms: `${srv.origin}/svc` } }, () => undefined, {});
    await expect(get(none, clock)).rejects.toThrow(
      "no credentials for kms: set one of krcloud:authToken (a token, as a secret), krcloud:tokenCommand (a command that prints one), or an access key: krcloud:credentialId and krcloud:credentialSecret (as a secret) with krcloud:identityEndpoint",
    );
    const keyOnly = resolveSettings({ endpoints: { kms: `${srv.origin}/svc` } }, (k) => ({ credentialId: "key-1", credentialSecret: SECRET })[k], {});
    await expect(get(keyOnly, clock)).rejects.toThrow(
      /no token for kms: an access key is set \(krcloud:credentialId and krcloud:credentialSecret\) but no identity service to issue tokens for it: set krcloud:identityEndpoint/,
    );
    expect(srv.seen).toEqual([]);
  });

  test("a local cloud's URL implies its identity service", () => {
    const s = resolveSettings({}, (k) => ({ localCloudUrl: "http://127.0.0.1:8790/" })[k], {});
    expect(s.identityEndpoint).toBe("http://127.0.0.1:8790/identity");
    expect(s.origins?.identityEndpoint).toBe("krcloud:localCloudUrl");
  });

  test("the environment is named when a credential came from it", async () => {
    const clock = fakeClock();
    cloud(clock, { service: () => ({ status: 401 }) });
    const s = resolveSettings({ endpoints: { kms: `${srv.origin}/svc` } }, () => undefined, { KRCLOUD_AUTH_TOKEN: "env-SECRET-token" });
    await expect(get(s, clock)).rejects.toThrow(/the auth token from KRCLOUD_AUTH_TOKEN was refused \(401\)/);
  });
});

describe("reading the identity service's answers", () => {
  test("tokensPath: the endpoint may be given with its /v3", () => {
    expect(tokensPath("https://iam.example.com/identity")).toBe("/v3/auth/tokens");
    expect(tokensPath("https://iam.example.com/identity/v3")).toBe("/auth/tokens");
    expect(tokensPath("https://iam.example.com/identity/v3/")).toBe("/auth/tokens");
  });

  test("catalogEndpoint: the public interface of the region, then one without a region; the service's other type names", () => {
    const catalog = [
      { type: "data-processing", endpoints: [{ url: "https://sahara.example/v1.1/" }] },
      {
        type: "object-store",
        endpoints: [
          { interface: "admin", region: "kr-central-2", url: "https://admin.example" },
          { interface: "public", regionId: "kr-central-2", url: "https://os.example/v1/AUTH_abc" },
        ],
      },
    ];
    expect(catalogEndpoint(catalog, "hadoop", "kr-central-2")).toBe("https://sahara.example/v1.1");
    expect(catalogEndpoint(catalog, "objectstorage", "kr-central-2")).toBe("https://os.example");
    expect(catalogEndpoint(catalog, "objectstorage", "elsewhere")).toBeUndefined();
    expect(catalogEndpoint(catalog, "cache", "kr-central-2")).toBeUndefined();
  });

  test("no X-Subject-Token header: a format error, no token", async () => {
    srv.route = () => jsonReply(201, { token: {} });
    await expect(
      currentToken({ kind: "access-key", identityEndpoint: `${srv.origin}/identity`, credentialId: "k", credentialSecret: SECRET, setting: "x" }),
    ).rejects.toThrow(/answered 201 without an X-Subject-Token header/);
  });
});

describe("the token command", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-token-command-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A command that counts its runs in a file and prints token `cmd-<run>-SECRET` living `ttlMs` of the fake clock. */
  function command(clock: Clock, extra: string, ttlMs = 12 * HOUR): { cmd: string; runs: () => number } {
    const counter = path.join(dir, `runs-${Math.random().toString(36).slice(2)}`);
    const script = path.join(dir, `${path.basename(counter)}.js`);
    fs.writeFileSync(
      script,
      [
        `const fs = require("fs");`,
        `const n = (fs.existsSync(${JSON.stringify(counter)}) ? Number(fs.readFileSync(${JSON.stringify(counter)}, "utf8")) : 0) + 1;`,
        `fs.writeFileSync(${JSON.stringify(counter)}, String(n));`,
        `process.stdout.write(JSON.stringify({ token: "cmd-" + n + "-SECRET", expiresAt: new Date(${clock.now() + ttlMs}).toISOString(), ${extra} }));`,
      ].join("\n"),
    );
    return {
      cmd: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`,
      runs: () => (fs.existsSync(counter) ? Number(fs.readFileSync(counter, "utf8")) : 0),
    };
  }

  const commandSettings = (cmd: string, extra: Record<string, string> = {}) =>
    resolveSettings({}, (k) => ({ tokenCommand: cmd, kmsEndpoint: `${srv.origin}/svc`, ...extra })[k], {});

  test("runs once per process while its token lives, again after a 401; its projectId is the project", async () => {
    const clock = fakeClock();
    const c = cloud(clock, { service: (_r, token) => (token === "cmd-2-SECRET" ? { status: 401 } : { status: 200 }) });
    const { cmd, runs } = command(clock, `projectId: "proj-cmd"`);
    const s = await authenticated(commandSettings(cmd), { clock });
    expect(s.projectId).toBe("proj-cmd");
    await Promise.all([get(s, clock), get(s, clock), get(s, clock)]);
    expect(runs()).toBe(1);
    clock.advance(12 * HOUR - 4 * 60_000);
    await get(s, clock);
    expect(runs()).toBe(3);
    expect(c.tokensSeen).toEqual(["cmd-1-SECRET", "cmd-1-SECRET", "cmd-1-SECRET", "cmd-2-SECRET", "cmd-3-SECRET"]);
  });

  test("a failure is reported with its exit code and its standard error, every secret it printed removed", async () => {
    const script = path.join(dir, "fails.sh");
    fs.writeFileSync(script, `echo '{"token": "half-printed-SECRET-1234"'\necho "vault: permission denied for half-printed-SECRET-1234" >&2\nexit 3\n`);
    const s = commandSettings(`sh ${script}`);
    const err = (await authenticated(s).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe("the token command (krcloud:tokenCommand) exited with code 3; standard error: vault: permission denied for [redacted]");
  });

  test("an output that is not the expected JSON is refused without being shown", async () => {
    const s = commandSettings(`echo not-json-SECRET-value`);
    await expect(authenticated(s)).rejects.toThrow(
      'the token command (krcloud:tokenCommand) printed something that is not JSON on standard output (expected {"token": "...", "expiresAt": "<RFC 3339 time>", "projectId": "..."}; its output is not shown, it may hold a secret)',
    );
    const noToken = commandSettings(`echo '{"access_token": "x"}'`);
    await expect(authenticated(noToken)).rejects.toThrow(/printed JSON without a "token" string/);
  });
});
