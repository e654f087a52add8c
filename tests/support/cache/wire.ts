/**
 * What the CacheClient unit tests (tests/unit/cache-client*.test.ts) share: a client of project
 * p-1 against the scripted loopback server, on a fake clock (transport retries are instant); a
 * request as it looked on the wire; the create inputs of a cluster and an instance set.
 */
import { resolveSettings, type Clock } from "../../../client/core";
import { CacheClient, type CreateClusterInput, type CreateInstanceSetInput } from "../../../client/cache";
import { jsonReply, type ScriptedServer, type Seen } from "../servers/scripted";
import { clusterNetwork } from "./answers";

export const TOKEN = "tok-SECRET-cache-1";
export const clock: Clock = { now: () => 0, random: () => 0, sleep: async () => undefined };

/** The cache service's base URL on `srv`. */
export const cacheBase = (srv: ScriptedServer) => `${srv.origin}/cache`;

/** A client with the token and two attempts per request. */
export const cacheClient = (srv: ScriptedServer) =>
  new CacheClient({
    settings: resolveSettings({ projectId: "p-1", authToken: TOKEN, endpoints: { cache: cacheBase(srv) }, retry: { maxAttempts: 2 } }, () => undefined, {}),
    clock,
  });
export const ok = (id: string, status = 200) => jsonReply(status, { objectId: id });
export const wire = (s: Seen) => {
  const u = new URL(s.url, "http://x");
  return { method: s.method, path: u.pathname, query: Object.fromEntries(u.searchParams), body: s.body === "" ? undefined : JSON.parse(s.body) };
};

export const clusterInput: CreateClusterInput = {
  name: "web",
  description: "session cache",
  version: "7.0.15",
  port: 6379,
  shardCount: 2,
  nodeCountPerShard: 2,
  flavorId: "fl-m2",
  parameterGroupId: "pg-1",
  ...clusterNetwork,
};

export const setInput: CreateInstanceSetInput = {
  instanceSetName: "sessions",
  replicas: 2,
  flavorId: "fl-m2",
  recoveryEnabled: true,
  subnets: [{ id: "sn-a" }],
  subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-a" }] }],
  securityGroups: [{ id: "sg-1" }],
  parameterGroupId: "pg-2",
  port: 6379,
  version: "7.0.15",
};
