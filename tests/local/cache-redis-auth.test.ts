/**
 * The local cloud's cache nodes enforce the cluster's user and TLS, as a managed Redis does: an
 * application tested against the local cloud meets authentication. Real redis-server nodes, real
 * clients (ioredis and redis-cli) on the endpoints the resources output:
 *
 * - a cluster created with a user: a client without the password, or with a wrong one, is refused;
 *   with them it reads and writes across shards, and `ACL LIST` has no `default on nopass`;
 * - a TLS cluster with a user: a plain-text client is refused, a TLS client trusting the local
 *   cloud's certificate (from the control API) and logging in works, also while a shard is added
 *   (slots move between TLS nodes that require a login);
 * - an instance set whose password was sent as its SHA-256 (the spec's "hash"): the password logs
 *   in on the primary and on the replicas (which replicate with the local cloud's own login);
 * - a cluster without a user keeps `default on nopass`.
 *
 * They need `redis-server` and `openssl` (make test installs redis: scripts/redis.sh).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Cluster as RedisCluster, Redis, type RedisOptions } from "ioredis";
import { clusterArgs, instanceSetArgs, SUBNETS } from "../support/cache";
import { cacheBedForFile } from "../support/local-cloud/per-file";
import type { EngineResource, ResourceState, TestCloud } from "../support/local-cloud";

jest.setTimeout(300_000);

let tc: TestCloud;
let cluster: EngineResource;
let iset: EngineResource;
const clients: { disconnect(): void }[] = [];

cacheBedForFile({ cacheEngine: "redis" }, (bed) => ({ tc, cluster, iset } = bed));
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});

const PASSWORD = "Sessions-pw-1";
const hostPort = (endpoint: unknown) => {
  const [host, port] = String(endpoint).split(":");
  return { host: host!, port: Number(port) };
};

/** One connection, no retries: a refusal is the answer, not something to wait out. */
function standalone(endpoint: unknown, o: RedisOptions = {}): Redis {
  // No ready check: its INFO would be refused before the command under test is sent.
  const r = new Redis({
    ...hostPort(endpoint),
    lazyConnect: true,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    disconnectTimeout: 100,
    ...o,
  });
  r.on("error", () => undefined);
  clients.push(r);
  return r;
}

function clusterClient(endpoint: unknown, o: RedisOptions): RedisCluster {
  const c = new RedisCluster([hostPort(endpoint)], { redisOptions: { disconnectTimeout: 100, ...o } });
  c.on("error", () => undefined);
  clients.push(c);
  return c;
}

/** What a command on a fresh connection answers: its reply, or the error's message. */
async function attempt(endpoint: unknown, o: RedisOptions, ...command: string[]): Promise<string> {
  const r = standalone(endpoint, { connectTimeout: 3000, ...o });
  // A refusal of the connection's first command (ioredis' HELLO) comes as an error event, and the
  // command then fails with "Connection is closed.": both are the answer.
  const events: string[] = [];
  r.on("error", (e: Error) => events.push(e.message));
  try {
    await r.connect();
    const [name, ...args] = command;
    return String(await r.call(name!, ...args));
  } catch (e) {
    return [(e as Error).message, ...events].join(" | ");
  } finally {
    r.disconnect();
  }
}

const oneShard = (replicas: number) => [{ primarySubnetId: SUBNETS[0]!, replicaSubnetIds: SUBNETS.slice(1, 1 + replicas) }];
const shardNodes = (s: ResourceState) => (s.outputs.shardDetails as { nodes: { endpoint: string }[] }[]).flatMap((d) => d.nodes.map((n) => n.endpoint));

async function writeAndRead(client: RedisCluster | Redis, n: number): Promise<string[]> {
  for (let i = 0; i < n; i++) await client.set(`k:${i}`, `v${i}`);
  return Promise.all(Array.from({ length: n }, (_, i) => client.get(`k:${i}`) as Promise<string>));
}
const expected = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);

test("a cluster with a user: refused without the password or with a wrong one, served with them; ACL LIST has no default nopass", async () => {
  const state = await cluster.up(clusterArgs({ name: "authed", user: { name: "app", password: PASSWORD } }), "authed");
  try {
    const endpoint = state.outputs.primaryEndpoint;
    expect(await attempt(endpoint, {}, "GET", "k")).toMatch(/NOAUTH/);
    expect(await attempt(endpoint, { username: "app", password: "not-it" }, "GET", "k")).toMatch(/WRONGPASS/);
    expect(await attempt(endpoint, { username: "default", password: "" }, "GET", "k")).toMatch(/WRONGPASS|NOAUTH|disabled/i);
    // Every node enforces it, not only the one behind the endpoint.
    for (const node of shardNodes(state)) expect(await attempt(node, {}, "PING")).toMatch(/NOAUTH/);

    const app = clusterClient(endpoint, { username: "app", password: PASSWORD });
    expect(await writeAndRead(app, 50)).toEqual(expected(50));

    const acl = (
      await promisify(execFile)("redis-cli", [
        "-h",
        hostPort(endpoint).host,
        "-p",
        String(hostPort(endpoint).port),
        "--user",
        "app",
        "--pass",
        PASSWORD,
        "--no-auth-warning",
        "ACL",
        "LIST",
      ])
    ).stdout;
    expect(acl).not.toMatch(/user default on nopass/);
    expect(acl).toMatch(/user default off/);
    expect(acl).toMatch(/user app on #[0-9a-f]{64} ~\* &\* \+@all/);
    // The password itself is nowhere in what the node holds.
    expect(acl).not.toContain(PASSWORD);
  } finally {
    await cluster.destroy(state);
  }
});

test("a TLS cluster with a user: refused in plain text, served over TLS with the local cloud's certificate, also while a shard is added", async () => {
  let state = await cluster.up(clusterArgs({ name: "secured", tlsEnabled: true, user: { name: "app", password: PASSWORD }, shards: oneShard(1) }), "secured");
  try {
    const endpoint = state.outputs.primaryEndpoint;
    const record = await tc.controlApi("GET", `/resources/cache/cluster/${state.id}`);
    const ca = String(record.body.tlsCertificate);
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);

    // Plain text, even with the password: the node speaks TLS only.
    expect(await attempt(endpoint, { username: "app", password: PASSWORD }, "PING")).not.toBe("PONG");
    // TLS without the password.
    expect(await attempt(endpoint, { tls: { ca } }, "GET", "k")).toMatch(/NOAUTH/);
    // TLS that does not trust the certificate.
    expect(await attempt(endpoint, { tls: {}, username: "app", password: PASSWORD }, "PING")).toMatch(/self[- ]signed|certificate/i);
    expect(await attempt(endpoint, { tls: { ca }, username: "app", password: PASSWORD }, "PING")).toBe("PONG");

    const app = clusterClient(endpoint, { tls: { ca }, username: "app", password: PASSWORD });
    expect(await writeAndRead(app, 200)).toEqual(expected(200));

    // A shard added: its nodes join over TLS, replicate with the local cloud's login, and half the
    // slots move to it with their keys (MIGRATE logs in to the target).
    state = await cluster.apply(
      state,
      clusterArgs({
        name: "secured",
        tlsEnabled: true,
        user: { name: "app", password: PASSWORD },
        shards: [...oneShard(1), { primarySubnetId: SUBNETS[1]!, replicaSubnetIds: [SUBNETS[2]!] }],
      }),
      "secured",
    );
    const slots = (state.outputs.shardDetails as { slotCount: number }[]).map((d) => d.slotCount);
    expect(slots).toEqual([8192, 8192]);
    const after = clusterClient(endpoint, { tls: { ca }, username: "app", password: PASSWORD });
    expect(await Promise.all(Array.from({ length: 200 }, (_, i) => after.get(`k:${i}`)))).toEqual(expected(200));

    // redis-cli too, with the certificate in a file.
    const caFile = join(mkdtempSync(join(tmpdir(), "krcloud-ca-")), "ca.pem");
    writeFileSync(caFile, ca);
    const { host, port } = hostPort(endpoint);
    const cli = (...args: string[]) =>
      promisify(execFile)("redis-cli", ["-c", "-h", host, "-p", String(port), "--no-auth-warning", ...args]).then(
        (r) => r.stdout.trim(),
        (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`.trim(),
      );
    expect(await cli("--tls", "--cacert", caFile, "--user", "app", "--pass", PASSWORD, "get", "k:7")).toBe("v7");
    expect(await cli("--user", "app", "--pass", PASSWORD, "get", "k:7")).not.toBe("v7");
  } finally {
    await cluster.destroy(state);
  }
});

test("an instance set whose password was sent as its SHA-256: the password logs in on the primary and the replicas", async () => {
  const digest = createHash("sha256").update(PASSWORD).digest("hex");
  const state = await iset.up(instanceSetArgs({ name: "hashed", user: { name: "worker", password: digest }, replicaSubnetIds: ["sn-b", "sn-c"] }), "hashed");
  try {
    const { primaryEndpoint, readEndpoint } = state.outputs;
    expect(await attempt(primaryEndpoint, {}, "GET", "k")).toMatch(/NOAUTH/);
    // The digest is not the password.
    expect(await attempt(primaryEndpoint, { username: "worker", password: digest }, "PING")).toMatch(/WRONGPASS/);
    const primary = standalone(primaryEndpoint, { username: "worker", password: PASSWORD });
    await primary.connect();
    await primary.set("job:1", "queued");
    // The replicas replicate with the local cloud's own login: what the primary took arrives.
    const replica = standalone(readEndpoint, { username: "worker", password: PASSWORD });
    await replica.connect();
    let seen: string | null = null;
    for (let i = 0; i < 100 && seen !== "queued"; i++) {
      seen = await replica.get("job:1");
      if (seen !== "queued") await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBe("queued");
    expect(await attempt(readEndpoint, {}, "GET", "job:1")).toMatch(/NOAUTH/);
  } finally {
    await iset.destroy(state);
  }
});

test("a cluster without a user keeps authentication off (default on nopass), as its record's userName '-' says", async () => {
  const state = await cluster.up(clusterArgs({ name: "open", shards: oneShard(0) }), "open");
  try {
    expect(await attempt(state.outputs.primaryEndpoint, {}, "ACL", "LIST")).toMatch(/user default on nopass/);
  } finally {
    await cluster.destroy(state);
  }
});
