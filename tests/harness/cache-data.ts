/**
 * Data in a cache on the local cloud's real redis-server nodes, as a user's clients see it: writing
 * N keys through the endpoint a resource outputs (a Cluster's with a cluster client, so they spread
 * over the shards; an InstanceSet's primary with a plain one), and the checksum of everything the
 * cache holds (every key and value, read from each primary), so a test or a benchmark can say
 * "every key present with an equal checksum" after a replacement. Shared by tests and `make bench`.
 */
import { createHash } from "node:crypto";
import { Cluster, Redis } from "ioredis";
import type { CreateClusterInput } from "../../client/cache/types";

/**
 * A client create body for the smallest cluster (one shard of one node, in sn-a), for the tests and
 * studies that make a cluster through the client, below the engine, to watch it settle.
 */
export function smallClusterInput(name: string, securityGroupId: string): CreateClusterInput {
  return {
    name,
    version: "7.0.15",
    port: 6379,
    shardCount: 1,
    nodeCountPerShard: 1,
    flavorId: "redis.small",
    parameterGroupId: "default.redis7.0.cluster",
    subnets: [{ id: "sn-a" }],
    subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [] }],
    securityGroups: [{ id: securityGroupId }],
  };
}

/** `host:port` as the cache resources output endpoints. */
function hostPort(endpoint: string): { host: string; port: number } {
  const at = endpoint.lastIndexOf(":");
  return { host: endpoint.slice(0, at), port: Number(endpoint.slice(at + 1)) };
}

export interface CacheLogin {
  /** The cache's user, when it has one. */
  username?: string;
  password?: string;
}

/** A client of the cache at `endpoint`: a cluster client (cluster mode) or a plain one; call `quit` when done. */
export function cacheClient(endpoint: string, clusterMode: boolean, login: CacheLogin = {}): Redis | Cluster {
  const auth = login.username !== undefined ? { username: login.username, password: login.password } : {};
  const c = clusterMode
    ? new Cluster([hostPort(endpoint)], { enableAutoPipelining: true, redisOptions: { disconnectTimeout: 100, ...auth } })
    : new Redis({ ...hostPort(endpoint), enableAutoPipelining: true, disconnectTimeout: 100, ...auth });
  c.on("error", () => undefined);
  return c;
}

/** The value key `i` holds: distinct per key, some of it long enough that RDB compression cannot make it nothing. */
export function valueOf(i: number): string {
  return `${i}:${createHash("sha256").update(String(i)).digest("hex")}`;
}

/** Writes keys `k:0` .. `k:<count - 1>` (values `valueOf(i)`), `batch` at a time. */
export async function writeKeys(client: Redis | Cluster, count: number, batch = 5_000): Promise<void> {
  for (let from = 0; from < count; from += batch) {
    const writes: Promise<unknown>[] = [];
    for (let i = from; i < Math.min(count, from + batch); i++) writes.push(client.set(`k:${i}`, valueOf(i)));
    await Promise.all(writes);
  }
}

export interface CacheContents {
  keys: number;
  /** SHA-256 of every `key\0value\n`, keys sorted. */
  checksum: string;
  /** Keys per primary (shard), in no particular order. */
  perShard: number[];
}

/** What the cache holds: every key and its value, read from each primary (SCAN, then GET in pipelines). */
export async function contents(client: Redis | Cluster): Promise<CacheContents> {
  // A cluster client knows the primaries once it has read the slots.
  if (client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
  const primaries = client instanceof Cluster ? client.nodes("master") : [client];
  const pairs: string[] = [];
  const perShard: number[] = [];
  for (const node of primaries) {
    let n = 0;
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "COUNT", 1000);
      cursor = next;
      if (keys.length === 0) continue;
      const pipe = node.pipeline();
      for (const k of keys) pipe.get(k);
      const values = (await pipe.exec()) ?? [];
      keys.forEach((k, i) => pairs.push(`${k}\u0000${String(values[i]?.[1])}\n`));
      n += keys.length;
    } while (cursor !== "0");
    perShard.push(n);
  }
  pairs.sort();
  const h = createHash("sha256");
  for (const p of pairs) h.update(p);
  return { keys: pairs.length, checksum: h.digest("hex"), perShard };
}

/** The checksum `contents` gives for a cache holding exactly `writeKeys(count)`. */
export function expectedChecksum(count: number): string {
  const pairs = Array.from({ length: count }, (_, i) => `k:${i}\u0000${valueOf(i)}\n`).sort();
  const h = createHash("sha256");
  for (const p of pairs) h.update(p);
  return h.digest("hex");
}
