/** Shards, their nodes, and an instance set's instances (spec 02 §2.2, §4.2, §4.3). */

import { z } from "zod";
import { once } from "../../core";
import { normalizeRole, parseSlots } from "../topology";
import type { CacheInstance, CacheNode, CacheShard, InstanceList } from "../types";
import { idFields, listReader, optNum, optStr, recordReader, statusFields } from "./readers";

const nodeSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    name: optStr(),
    subnet: z.looseObject({ id: optStr() }).nullish().catch(undefined),
    subnetId: optStr(),
    endpoint: optStr(),
    role: optStr(),
    status: optStr(),
    createdAt: optStr(),
  });
});

export const flattenNode: (body: unknown, action: string) => CacheNode = recordReader(
  "node",
  nodeSchema,
  ["id", "objectId"],
  (d) => ({
    name: d.name,
    subnetId: d.subnet?.id ?? d.subnetId,
    endpoint: d.endpoint,
    role: normalizeRole(d.role),
    ...statusFields(d.status),
    createdAt: d.createdAt,
  }),
  { wrapper: "node" },
);

export const flattenNodeList = listReader(flattenNode, "nodes", "node list");

const shardSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    name: optStr(),
    slots: z.unknown().optional(),
    nodes: z.array(z.unknown()).nullish().catch(undefined),
    status: optStr(),
    createdAt: optStr(),
  });
});

export const flattenShard: (body: unknown, action: string) => CacheShard = recordReader(
  "shard",
  shardSchema,
  ["id", "objectId"],
  (d, action) => ({
    name: d.name,
    slotsText: typeof d.slots === "string" ? d.slots : undefined,
    slots: parseSlots(d.slots),
    nodes: (d.nodes ?? []).map((n) => flattenNode(n, action)),
    ...statusFields(d.status),
    createdAt: d.createdAt,
  }),
  { wrapper: "shard" },
);

export const flattenShardList = listReader(flattenShard, "shards", "shard list");

const instanceSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    instanceName: optStr(),
    description: optStr(),
    projectId: optStr(),
    role: optStr(),
    flavorId: optStr(),
    version: optStr(),
    port: optNum(),
    subnet: z.looseObject({ id: optStr() }).nullish().catch(undefined),
    creator: optStr(),
    endpoint: optStr(),
    license: optStr(),
    createdAt: optStr(),
    status: optStr(),
  });
});

export const flattenInstance: (body: unknown, action: string) => CacheInstance = recordReader("instance", instanceSchema, ["objectId", "id"], (d) => ({
  instanceName: d.instanceName,
  description: d.description,
  projectId: d.projectId,
  role: normalizeRole(d.role),
  flavorId: d.flavorId,
  version: d.version,
  port: d.port,
  subnetId: d.subnet?.id ?? undefined,
  creator: d.creator,
  endpoint: d.endpoint,
  license: d.license,
  createdAt: d.createdAt,
  ...statusFields(d.status),
}));

const instanceList = listReader(flattenInstance, "data", "instance list", ["instances"]);

/** `{size, data: [instance]}` (4.3); `instances` and a bare array are read too. */
export function flattenInstanceList(body: unknown, action: string): InstanceList {
  const instances = instanceList(body, action);
  const size = typeof body === "object" && body !== null && !Array.isArray(body) ? optNum().parse((body as Record<string, unknown>).size) : undefined;
  return { size: size ?? instances.length, instances };
}
