/**
 * The cache test bed shared by tests/local/cache-*: a local cloud (real redis-server nodes or
 * simulated ones) with the four cache resource types configured as the engine configures them,
 * the client for arranging and checking state, and the values the local cloud's catalogue offers.
 */
import { CacheClient } from "../../../client/cache";
import { clusterArgs as fixtureCluster, CLUSTER_GROUP, SUBNETS, VERSION } from "../../resources/cache/cluster";
import { instanceSetArgs as fixtureInstanceSet, STANDALONE_GROUP } from "../../resources/cache/instance-set";
import { startTestCloud, type EngineResource, type TestCloud } from "../local-cloud";

export { SUBNETS, VERSION };
export const BASE = { cluster: CLUSTER_GROUP, standalone: STANDALONE_GROUP } as const;

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
export const clusterArgs = (over: Record<string, unknown> = {}) => ({ name: "sessions", ...fixtureCluster(2), ...over });

/** An InstanceSet's program arguments: a primary in sn-a and one replica in sn-b on the default group. */
export const instanceSetArgs = (over: Record<string, unknown> = {}) => ({ name: "jobs-queue", ...fixtureInstanceSet(["sn-b"]), ...over });
