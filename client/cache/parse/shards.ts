/** Shards, their nodes, and an instance set's instances (spec 02 §2.2, §4.2, §4.3). */

import { z } from "zod";
import { once } from "../../core";
import { normalizeRole, parseSlots } from "../topology";
import type { CacheInstance, CacheNode, CacheShard, InstanceList } from "../types";
import { idFields, listReader, optNum, optStr, recordReader, statusFields } from "./readers";

/** What a shard's node and an instance set's instance both carry: ids, subnet, endpoint, role, status. */
function memberFields() {
  return {
    ...idFields(),
    subnet: z.looseObject({ id: optStr() }).nullish().catch(undefined),
    subnetId: optStr(),
    endpoint: optStr(),
    role: optStr(),
    status: optStr(),
    createdAt: optStr(),
  };
}

/** Those fields as a node's and an instance's record show them (the subnet's id read from either spelling). */
function memberRecord(d: z.infer<z.ZodObject<ReturnType<typeof memberFields>>>) {
  return {
    subnetId: d.subnet?.id ?? d.subnetId,
    endpoint: d.endpoint,
    role: normalizeRole(d.role),
    ...statusFields(d.status),
    createdAt: d.createdAt,
  };
}

const nodeSchema = once(() => {
  return z.looseObject({ ...memberFields(), name: optStr() });
});

export const flattenNode: (body: unknown, action: string) => CacheNode = recordReader(
  "node",
  nodeSchema,
  ["id", "objectId"],
  (d) => ({ name: d.name, ...memberRecord(d) }),
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
    ...memberFields(),
    instanceName: optStr(),
    description: optStr(),
    projectId: optStr(),
    flavorId: optStr(),
    version: optStr(),
    port: optNum(),
    creator: optStr(),
    license: optStr(),
  });
});

export const flattenInstance: (body: unknown, action: string) => CacheInstance = recordReader("instance", instanceSchema, ["objectId", "id"], (d) => ({
  instanceName: d.instanceName,
  description: d.description,
  projectId: d.projectId,
  flavorId: d.flavorId,
  version: d.version,
  port: d.port,
  creator: d.creator,
  license: d.license,
  ...memberRecord(d),
}));

const instanceList = listReader(flattenInstance, "data", "instance list", ["instances"]);

/** `{size, data: [instance]}` (4.3); `instances` and a bare array are read too. */
export function flattenInstanceList(body: unknown, action: string): InstanceList {
  const instances = instanceList(body, action);
  const size = typeof body === "object" && body !== null && !Array.isArray(body) ? optNum().parse((body as Record<string, unknown>).size) : undefined;
  return { size: size ?? instances.length, instances };
}
