/**
 * A cache node (of a cluster's shard) and an instance (of an instance set) as the resources and the
 * lookups show them: one shape and one mapping each.
 */
import { z } from "zod";
import type { CacheInstance, ShardTopology } from "../../client/cache";
import { pickShape, pickShapes } from "../core";

export const nodeShape = () =>
  z.object({ id: z.string(), subnetId: z.string().optional(), endpoint: z.string().optional(), role: z.string().optional(), status: z.string().optional() });
export type NodeResult = z.infer<ReturnType<typeof nodeShape>>;

/** A shard's nodes, primary first. */
export function nodeOutputs(shard: ShardTopology): NodeResult[] {
  return pickShapes(nodeShape().shape, [...(shard.primary ? [shard.primary] : []), ...shard.replicas]);
}

/** An instance is a node with a name. */
export const instanceShape = () => nodeShape().extend({ name: z.string().optional() });
export type InstanceResult = z.infer<ReturnType<typeof instanceShape>>;

export function instanceResult(i: CacheInstance): InstanceResult {
  return { ...pickShape(nodeShape().shape, i), name: i.instanceName };
}
