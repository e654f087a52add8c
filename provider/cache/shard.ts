/**
 * krcloud:cache:Shard — one shard added to a cluster, owned by its own resource (e.g. a shard per
 * tenant, or one added by another stack). The Cluster resource manages only the shards it created or
 * added itself (`managedShardIds`) and leaves this one alone, so the two never fight over the
 * topology. Replicas are reconciled in place; the primary's subnet and the cluster replace. Its id
 * is `<clusterId>/<shardId>`, so it can be read from the id alone; `adoptShardId` takes over a shard
 * that exists already (a shard has no name to find it by). Spec: 02-cache.md §2.2, §4.2.
 */
import { flattenClusterTopology, REPLICAS_MAX, type CacheClient, type CacheShard } from "../../client/cache";
import { isNotFound, rethrowAs, withAction } from "../../client/core";
import { z } from "zod";
import { PartialFailure, timeoutFor, timeoutsInput, defineResource, resourceClass, nonEmpty } from "../core";
import { cache } from "./client";
import { nodeOutputs, nodeShape } from "./nodes";
import { formatSlots, missing, placementOf, surplus } from "./topology";
import { CACHE_TIMEOUTS, waitClusterSettled } from "./waiters";
import type { ShardArgs } from "./args";

export function shardInputs() {
  return z.strictObject({
    clusterId: nonEmpty().describe("The cluster to add the shard to. Changing it replaces the shard."),
    primarySubnetId: nonEmpty().describe("Subnet of the shard's primary. Changing it replaces the shard."),
    replicaSubnetIds: z
      .array(nonEmpty())
      .max(REPLICAS_MAX, `at most ${REPLICAS_MAX} replicas`)
      .default([])
      .describe("One subnet per replica; added and removed in place."),
    timeouts: timeoutsInput(CACHE_TIMEOUTS),
    adoptShardId: nonEmpty()
      .optional()
      .describe(
        "Manage this existing shard of the cluster (one added outside Pulumi) instead of adding one: its primary subnet must match; its replicas are then reconciled in place. Read at create only.",
      ),
  });
}
export type ShardInputs = z.infer<ReturnType<typeof shardInputs>>;

export function shardOutputs() {
  return shardInputs().extend({
    shardId: z.string().describe("The shard's id in the cluster."),
    name: z.string().optional().describe("The shard's name."),
    slots: z.string().describe("Hash slot ranges the shard serves, e.g. `0-4095`."),
    slotCount: z.number().describe("Number of hash slots."),
    status: z.string().optional().describe("The shard's status."),
    nodes: z.array(nodeShape()).describe("The shard's nodes, primary first."),
  });
}
export type ShardOutputs = z.infer<ReturnType<typeof shardOutputs>>;

export const shard = defineResource("krcloud:cache:Shard", shardInputs, shardOutputs, {
  description: "One shard of a cache cluster, managed apart from the Cluster resource (which leaves shards it did not add alone).",
  replaceOn: { clusterId: "a shard belongs to the cluster it was added to", primarySubnetId: "a shard's primary cannot move to another subnet" },
  replacementLoses: "The replacement is a new shard: the slots of this one move to the other shards before it is deleted, with their keys.",
  localInputs: ["timeouts", "adoptShardId"],
  importId: "`<clusterId>/<shardId>`",
  list: {
    kind: ["shard", "shards"],
    inputs: { clusterId: "The cluster whose shards to list." },
    parent: { token: "krcloud:cache:Cluster", input: "clusterId" },
    notUnmanaged: "a cluster's shards are part of the cluster, whose line already covers them",
    async page(ctx, { query }) {
      const clusterId = query!.clusterId!;
      return { items: (await shardIds(cache(ctx), clusterId)).map((id) => ({ id: `${clusterId}/${id}`, name: id })) };
    },
  },
  // A shard has no name: `adoptShardId` names the one to adopt, and a shard an AddShard whose answer
  // was lost made is the one that was not there before, in the declared primary subnet.
  recovery: {
    before: (ctx, inputs) => shardIds(cache(ctx), inputs.clusterId),
    adopting: (inputs) => inputs.adoptShardId !== undefined,
    async find(ctx, inputs, before) {
      if (inputs.adoptShardId !== undefined) return `${inputs.clusterId}/${inputs.adoptShardId}`;
      if (!Array.isArray(before)) return undefined;
      const c = cache(ctx);
      const added: string[] = [];
      for (const shardId of await shardIds(c, inputs.clusterId)) {
        if (before.includes(shardId)) continue;
        const id = `${inputs.clusterId}/${shardId}`;
        if ((await readShard(c, id, inputs))?.primarySubnetId === inputs.primarySubnetId) added.push(id);
      }
      return added.length === 1 ? added[0] : undefined;
    },
  },
  describe: (id) => `cache shard "${id}"`,

  async create(ctx, inputs) {
    const c = cache(ctx);
    const what = `a shard of cache cluster "${inputs.clusterId}"`;
    const timeoutMs = timeoutFor(ctx, inputs.timeouts, "create", CACHE_TIMEOUTS);
    await waitClusterSettled(ctx, c, inputs.clusterId, `cache cluster "${inputs.clusterId}"`, { timeoutMs });
    const { id: shardId } = await c.shards
      .add(inputs.clusterId, {
        nodeCount: inputs.replicaSubnetIds.length + 1,
        subnetAssignment: { primary: { id: inputs.primarySubnetId }, replicas: inputs.replicaSubnetIds.map((r) => ({ id: r })) },
      })
      .catch(rethrowAs(`adding ${what}`));
    const id = `${inputs.clusterId}/${shardId}`;
    ctx.progress(`cache shard "${id}" added; waiting for the cluster to move slots to it`);
    try {
      await waitClusterSettled(ctx, c, inputs.clusterId, `cache cluster "${inputs.clusterId}" adding shard ${shardId}`, { timeoutMs });
      return { id, outs: (await readShard(c, id, inputs))! };
    } catch (e) {
      throw new PartialFailure(id, { ...inputs, replicaSubnetIds: [], shardId, slots: "", slotCount: 0, nodes: [] }, e);
    }
  },

  readsFromList: { no: "a shard is listed within its cluster by id only: its nodes and slots come from its own GET" },

  async read(ctx, id, olds) {
    return readShard(cache(ctx), id, olds);
  },

  async update(ctx, id, current, news) {
    const c = cache(ctx);
    const [clusterId, shardId] = splitId(id);
    const what = `cache cluster "${clusterId}", shard ${shardId}`;
    const deadline = Date.now() + timeoutFor(ctx, news.timeouts, "update", CACHE_TIMEOUTS);
    const settle = () => waitClusterSettled(ctx, c, clusterId, what, { timeoutMs: Math.max(1, deadline - Date.now()) });
    try {
      let s = await settle();
      const live = () => s.topology.shards.find((x) => x.id === shardId);
      for (const subnet of missing(news.replicaSubnetIds, current.replicaSubnetIds)) {
        ctx.progress(`${what}: adding a replica in subnet ${subnet}`);
        await c.nodes.addReplica(clusterId, shardId, { subnet: { id: subnet } }).catch(rethrowAs(`${what}: adding a replica`));
        s = await settle();
      }
      const now = live();
      if (now) {
        const victims = [...now.replicas].reverse();
        for (const subnet of surplus(news.replicaSubnetIds, placementOf(now).replicaSubnetIds)) {
          const node = victims.find((n) => n.subnetId === subnet);
          if (!node) continue;
          victims.splice(victims.indexOf(node), 1);
          ctx.progress(`${what}: removing replica ${node.id} (subnet ${subnet})`);
          await c.nodes.delete(clusterId, shardId, node.id).catch(rethrowAs(`${what}: removing replica ${node.id}`));
          s = await settle();
        }
      }
      const outs = await readShard(c, id, news);
      if (!outs) throw new Error(`${what} disappeared while it was being updated`);
      return outs;
    } catch (e) {
      throw new PartialFailure(id, current, e);
    }
  },

  async delete(ctx, id, olds) {
    const c = cache(ctx);
    const [clusterId, shardId] = splitId(id);
    const what = `cache cluster "${clusterId}", shard ${shardId}`;
    try {
      await c.shards.delete(clusterId, shardId);
    } catch (e) {
      if (isNotFound(e)) return;
      throw withAction(e, `removing ${what}`);
    }
    // Draining moves the shard's slots to the others: done when the cluster has settled without it.
    await waitClusterSettled(ctx, c, clusterId, `${what} being removed`, { timeoutMs: timeoutFor(ctx, olds.timeouts, "delete", CACHE_TIMEOUTS) }).catch(
      (e: unknown) => {
        if (!isNotFound(e)) throw e;
      },
    );
  },
});

/** The ids of the cluster's shards now. */
async function shardIds(c: CacheClient, clusterId: string): Promise<string[]> {
  const shards = await c.shards.list(clusterId).catch(rethrowAs(`listing the shards of cache cluster "${clusterId}"`));
  return shards.map((s) => s.id);
}

function splitId(id: string): [string, string] {
  const i = id.lastIndexOf("/");
  if (i <= 0) throw new Error(`cache shard id "${id}" is not <clusterId>/<shardId>`);
  return [id.slice(0, i), id.slice(i + 1)];
}

async function readShard(c: CacheClient, id: string, prior: Partial<ShardInputs>): Promise<ShardOutputs | undefined> {
  const [clusterId, shardId] = splitId(id);
  let s: CacheShard;
  try {
    s = await c.shards.get(clusterId, shardId);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw withAction(e, `reading cache cluster "${clusterId}", shard ${shardId}`);
  }
  if (s.nodes.length === 0 && s.raw.nodes === undefined)
    s.nodes = await c.nodes.list(clusterId, shardId).catch(rethrowAs(`listing the nodes of shard ${shardId}`));
  const t = flattenClusterTopology([s]).shards[0]!;
  const p = placementOf(t, prior.replicaSubnetIds ? { primarySubnetId: "", replicaSubnetIds: prior.replicaSubnetIds } : undefined);
  return {
    clusterId,
    primarySubnetId: p.primarySubnetId,
    replicaSubnetIds: p.replicaSubnetIds,
    timeouts: prior.timeouts,
    adoptShardId: prior.adoptShardId,
    shardId,
    name: s.name,
    slots: formatSlots(t.slots),
    slotCount: t.slotCount,
    status: s.status,
    nodes: nodeOutputs(t),
  };
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { ShardArgs } from "./args";
/** One shard of a cluster, managed apart from the Cluster resource. */
export const Shard = resourceClass<ShardArgs, ShardOutputs>(shard);
export type Shard = InstanceType<typeof Shard>;
