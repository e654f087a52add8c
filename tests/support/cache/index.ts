/**
 * The cache test bed shared by tests/local/cache-*: a local cloud (real redis-server nodes or
 * simulated ones) with the four cache resource types configured as the engine configures them, an
 * SDK client for arranging and checking state, and the values the local cloud's catalogue offers.
 */
import { CacheClient } from "../../../sdk/cache";
import { startTestCloud, type EngineResource, type TestCloud } from "../local-cloud";

export const SUBNETS = ["sn-a", "sn-b", "sn-c"];
export const VERSION = "7.0.15";
export const BASE = { cluster: "default.redis7.0.cluster", standalone: "default.redis7.0.standalone" } as const;

export interface CacheTestBed {
  tc: TestCloud;
  pg: EngineResource;
  cluster: EngineResource;
  iset: EngineResource;
  shard: EngineResource;
  sdk: CacheClient;
  /** Sets how a managed status kind (`cluster`, `node`, `instance`, `sync`) moves on: at once, or after `ms` on the local cloud's clock. */
  transitions: (kind: string, mode: "immediate" | "duration", ms?: number) => Promise<unknown>;
}

export async function startCacheTestBed(o: { cacheEngine?: "redis" | "simulated" } = {}): Promise<CacheTestBed> {
  const tc = await startTestCloud({ service: "cache", ...o });
  return {
    tc,
    pg: await tc.resource("krcloud:cache:ParameterGroup"),
    cluster: await tc.resource("krcloud:cache:Cluster"),
    iset: await tc.resource("krcloud:cache:InstanceSet"),
    shard: await tc.resource("krcloud:cache:Shard"),
    sdk: new CacheClient({ settings: tc.settings }),
    transitions: (kind, mode, ms = 0) => tc.controlApi("PUT", "/transitions", { service: "cache", kind, mode, ...(mode === "duration" ? { ms } : {}) }),
  };
}

/** A Cluster's program arguments: two shards of one replica (sn-a/sn-b, sn-b/sn-c) on the default group. */
export const clusterArgs = (over: Record<string, unknown> = {}) => ({
  name: "sessions",
  version: VERSION,
  flavorId: "redis.small",
  parameterGroupId: BASE.cluster,
  subnetIds: SUBNETS,
  securityGroupIds: ["sg-1"],
  shards: [
    { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] },
    { primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] },
  ],
  ...over,
});

/** An InstanceSet's program arguments: a primary in sn-a and one replica in sn-b on the default group. */
export const instanceSetArgs = (over: Record<string, unknown> = {}) => ({
  name: "jobs-queue",
  version: VERSION,
  flavorId: "redis.small",
  parameterGroupId: BASE.standalone,
  subnetIds: SUBNETS,
  securityGroupIds: ["sg-1"],
  primarySubnetId: "sn-a",
  replicaSubnetIds: ["sn-b"],
  ...over,
});
