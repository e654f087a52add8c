/**
 * krcloud:cache:Cluster — a Redis cluster (cluster mode) with a declared topology: one placement per
 * shard (the primary's subnet and the replicas' subnets). Shards and replicas are reconciled in
 * place, in this order, each step bracketed by a wait until the cluster is not Creating/Modifying
 * AND every shard and node is Running: shards added, replicas added, in-place settings
 * (description, backup schedule, parameter group, security groups), replicas removed, shards
 * removed (chosen from the live topology, highest ids first, never the last one). Counts and
 * placements are read from the live topology, never echoed from inputs.
 *
 * Shards added by `krcloud.cache.Shard` resources are not this resource's: it manages the shards it
 * created or added (`managedShardIds`) and leaves the others alone (see README, Cache).
 * Spec: 02-cache.md §2.1, §2.2, §3, §4.1, §4.2, §8.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { SHARDS_MAX, SHARDS_MIN, REPLICAS_MAX, validateBackupSchedule, type CacheClient, type CacheClusterRecord } from "../../client/cache";
import { mayHaveApplied, rethrowAs, withAction } from "../../client/core";
import { PartialFailure, timeoutFor, defineResource, idAndName, resourceClass, splitDescription, nonEmpty, listedByName } from "../core";
import { clusterMarker, findClusterByName, listClusters } from "./find";
import { cache } from "./client";
import {
  deleteAndWait,
  flattenRecord,
  inPlacePatch,
  recordDeclarations,
  recordInputs,
  recordReplacement,
  statusOutputs,
  steeringInputs,
} from "./cluster-record";
import { createKeepingData, keepsCacheData, replacementBackupNow, replacementBackupOutput } from "./keep-data";
import { nodeOutputs, nodeShape } from "./nodes";
import { formatSlots, managedShards, missing, placementOf, placementsReplace, surplus } from "./topology";
import { requestDescription, shownDescription, user, userForRequest } from "./validation";
import { CACHE_TIMEOUTS, clusterSnapshot, waitClusterSettled, waitClusterSynced, type ClusterSnapshot } from "./waiters";
import type { ClusterArgs } from "./args";

export function placement() {
  return z.strictObject({
    primarySubnetId: nonEmpty().describe("Subnet of the shard's primary node. Changing it for an existing shard replaces the cluster."),
    replicaSubnetIds: z
      .array(nonEmpty())
      .max(REPLICAS_MAX, `at most ${REPLICAS_MAX} replicas per shard`)
      .default([])
      .describe("One subnet per replica node of the shard; replicas are added and removed in place."),
  });
}

export function clusterShape() {
  return z.strictObject({
    ...recordInputs("cluster"),
    shards: z
      .array(placement())
      .min(SHARDS_MIN, `at least ${SHARDS_MIN} shard`)
      .max(SHARDS_MAX, `at most ${SHARDS_MAX} shards per cluster (a limit of the cache service)`)
      .describe("One placement per shard. Shards and replicas are added and removed in place; the shard count and replicas per shard follow the list."),
    tlsEnabled: z.boolean().default(false).describe("TLS in transit. Changing it replaces the cluster."),
    user: user(),
    backupSchedule: z
      .strictObject({
        cron: z.string().describe("5-field cron expression (KST)."),
        retentionDays: z.number().int("must be a whole number of days").min(1, "must be at least 1 day").optional().describe("Days to keep automatic backups."),
      })
      .optional()
      .describe("Automatic backups; omitted: none. Changed in place."),
    restoreFromBackup: nonEmpty()
      .optional()
      .describe(
        "Create the cluster from this backup (same cluster mode, engine version equal or newer, the backup's shard count). Changing it replaces the cluster.",
      ),
    ...steeringInputs("cluster"),
  });
}

export function clusterInputs() {
  return clusterShape().superRefine((c, ctx) => {
    const allowed = new Set(c.subnetIds);
    c.shards.forEach((s, i) => {
      if (s.replicaSubnetIds.length !== c.shards[0]!.replicaSubnetIds.length) {
        ctx.addIssue({
          code: "custom",
          path: ["shards", i, "replicaSubnetIds"],
          message: "every shard must have the same number of replicas (the service sets one node count per shard)",
        });
      }
      for (const [j, id] of [s.primarySubnetId, ...s.replicaSubnetIds].entries()) {
        if (!allowed.has(id))
          ctx.addIssue({
            code: "custom",
            path: ["shards", i, j === 0 ? "primarySubnetId" : "replicaSubnetIds"],
            message: `subnet "${id}" is not in subnetIds`,
          });
      }
    });
    if (c.backupSchedule) {
      for (const f of validateBackupSchedule({ cron: c.backupSchedule.cron, retentionLimit: c.backupSchedule.retentionDays }, "cluster")) {
        ctx.addIssue({ code: "custom", path: ["backupSchedule", f.property.endsWith("retentionLimit") ? "retentionDays" : "cron"], message: f.reason });
      }
    }
  });
}
export type ClusterInputs = z.infer<ReturnType<typeof clusterInputs>>;

export function clusterOutputs() {
  return clusterShape().extend({
    ...statusOutputs("The cluster's status (`Running`, `Modifying`, ...)."),
    primaryEndpoint: z.string().optional().describe("The cluster's endpoint: point a cluster-mode Redis client at it."),
    shardDetails: z
      .array(
        z.object({
          ...idAndName(),
          slots: z.string().describe("Hash slot ranges, e.g. `0-5460`."),
          slotCount: z.number(),
          managed: z.boolean().describe("Whether this resource manages the shard (false: added by a Shard resource or outside Pulumi)."),
          nodes: z.array(nodeShape()),
        }),
      )
      .describe("Every shard of the cluster (also those added by Shard resources) with its slots and nodes."),
    managedShardIds: z.array(z.string()).describe("The shards this resource manages (created or added by it)."),
    replacementBackup: replacementBackupOutput("cluster"),
  });
}
export type ClusterOutputs = z.infer<ReturnType<typeof clusterOutputs>>;

export const cluster = defineResource("krcloud:cache:Cluster", clusterInputs, clusterOutputs, {
  description:
    "A Redis cluster (cluster mode) with a declared topology, reconciled in place: shards and replicas are added and removed with a wait until every shard and node is Running.",
  ...recordReplacement<ClusterInputs>("cluster", { restoreFromBackup: "a cluster is restored from a backup only when it is created" }),
  replaceIf: {
    shards: {
      when: placementsReplace,
      reason: "an existing shard's primary cannot move to another subnet (the cache API adds and deletes shards and replicas, never moves a node)",
    },
  },
  ...recordDeclarations<ClusterInputs, ClusterOutputs>("enabled"),
  keepsData: keepsCacheData<ClusterInputs>({ clusterMode: true, source: "restoreFromBackup", shardCount: (news) => news.shards.length }),
  importId: "the cluster id",
  // An adopted or recovered cluster: every shard of it is this resource's (read sees an unknown
  // `managedShardIds` as "all").
  recovery: { find: (ctx, inputs) => findClusterByName(cache(ctx), inputs.name, true), markerOf: (ctx, id) => clusterMarker(cache(ctx), id) },
  describe: (id) => `cache cluster "${id}"`,
  list: listedByName(["cluster", "clusters"], (ctx) => listClusters(ctx, true)),

  async create(ctx, inputs) {
    const c = cache(ctx);
    const what = `cache cluster "${inputs.name}"`;
    const replicas = inputs.shards[0]!.replicaSubnetIds.length;
    const timeoutMs = timeoutFor(ctx, inputs.timeouts, "create", CACHE_TIMEOUTS);
    // Before the replacement's backup: a password that cannot be read then fails with the old cluster untouched.
    const user = await userForRequest(ctx.settings, inputs.user, `cache cluster "${inputs.name}"`);
    // A replacement that keeps the data restores from a backup of the cluster it replaces.
    const target = { clusterMode: true, version: inputs.version, flavorId: inputs.flavorId, shardCount: inputs.shards.length, timeoutMs };
    const { id, replacementBackup } = await createKeepingData(ctx, c, target, what, (keptBackup) => {
      const restore = keptBackup ?? inputs.restoreFromBackup;
      return c.clusters.create({
        name: inputs.name,
        description: requestDescription(ctx, inputs.description),
        version: inputs.version,
        port: inputs.port,
        shardCount: inputs.shards.length,
        nodeCountPerShard: replicas + 1,
        flavorId: inputs.flavorId,
        parameterGroupId: inputs.parameterGroupId,
        subnets: inputs.subnetIds.map((s) => ({ id: s })),
        subnetAssignments: inputs.shards.map((s) => ({ primary: { id: s.primarySubnetId }, replicas: s.replicaSubnetIds.map((r) => ({ id: r })) })),
        securityGroups: inputs.securityGroupIds.map((s) => ({ id: s })),
        tlsEnabled: inputs.tlsEnabled,
        backupSchedule: inputs.backupSchedule ? { cron: inputs.backupSchedule.cron, retentionLimit: inputs.backupSchedule.retentionDays } : undefined,
        user,
        restoreSource: restore ? { backupName: restore } : undefined,
      });
    });
    // The cluster exists from here on: whatever fails below leaves it in state, and the next up resumes.
    try {
      const s = await waitClusterSettled(ctx, c, id, `${what} (${id})`, { timeoutMs });
      return {
        id,
        outs: {
          ...flatten(
            s,
            inputs,
            s.topology.shards.map((sh) => sh.id),
          ),
          replacementBackup,
        },
      };
    } catch (e) {
      throw new PartialFailure(id, { ...(await bestKnown(c, id, inputs, undefined)), replacementBackup }, e);
    }
  },

  // The list carries the record a GetCluster does; the shards are still read per cluster.
  readsFromList: {
    walk: async (ctx) => new Map((await cache(ctx).clusters.list().catch(rethrowAs("listing cache clusters"))).map((r) => [r.id, r] as const)),
    async outputs(ctx, id, record: CacheClusterRecord, olds) {
      const s = await clusterSnapshot(cache(ctx), id, async () => record).catch(rethrowAs(`reading cache cluster "${id}"`));
      return s ? flatten(s, olds, managedIdsOf(s, olds)) : undefined;
    },
    also: "its shards: one topology read per cluster",
  },

  async read(ctx, id, olds) {
    const s = await clusterSnapshot(cache(ctx), id).catch(rethrowAs(`reading cache cluster "${id}"`));
    if (!s) return undefined;
    return flatten(s, olds, managedIdsOf(s, olds));
  },

  async update(ctx, id, current, news) {
    const c = cache(ctx);
    const what = `cache cluster "${news.name}" (${id})`;
    const deadline = Date.now() + timeoutFor(ctx, news.timeouts, "update", CACHE_TIMEOUTS);
    const settle = () => waitClusterSettled(ctx, c, id, what, { timeoutMs: Math.max(1, deadline - Date.now()) });
    let managed = [...(current.managedShardIds ?? [])];
    try {
      let s = await settle();
      let live = managedShards(s.topology, managed);
      const text = shownDescription(s.record.description);

      // 1. Shards added: each new shard gets the declared replicas at once. First the cluster's
      // description records the step (the digest of the shards there before it, ownership.ts): a
      // killed `up` leaves it there, and the next read takes the shards added since as this
      // resource's (managedIdsOf) instead of adding more.
      if (live.length < news.shards.length) {
        const pending = shardStepDigest(s.topology.shards.map((sh) => sh.id));
        await c.clusters.update(id, { description: requestDescription(ctx, text, pending) }).catch(rethrowAs(`${what}: recording the shards step`));
        s = await settle();
      }
      for (let i = live.length; i < news.shards.length; i++) {
        const p = news.shards[i]!;
        ctx.progress(`${what}: adding shard ${i + 1} of ${news.shards.length}`);
        const before = new Set(s.topology.shards.map((sh) => sh.id));
        const shardId = await c.shards
          .add(id, {
            nodeCount: p.replicaSubnetIds.length + 1,
            subnetAssignment: { primary: { id: p.primarySubnetId }, replicas: p.replicaSubnetIds.map((r) => ({ id: r })) },
          })
          .then((r) => r.id)
          .catch(async (e: unknown) => {
            // The answer was lost after the request may have been applied: the shard it made, if
            // any, is this resource's; left out of managedShardIds it would stay unmanaged and the
            // next up would add another.
            const made = mayHaveApplied(e) ? await addedShard(c, id, before, p.primarySubnetId) : undefined;
            if (made === undefined) throw withAction(e, `${what}: adding a shard`);
            ctx.progress(`${what}: the answer to adding a shard was lost; taking over shard ${made}`);
            return made;
          });
        managed.push(shardId);
        s = await settle();
      }
      // The step is done (now, or by the run a killed `up` interrupted): its record goes.
      if (splitDescription(s.record.description).pending !== undefined) {
        await c.clusters.update(id, { description: requestDescription(ctx, text) ?? "" }).catch(rethrowAs(`${what}: clearing the shards step`));
        s = await settle();
      }
      live = managedShards(s.topology, managed);

      // 2. Replicas added to existing shards.
      for (const [i, shard] of live.entries()) {
        const want = news.shards[i];
        if (!want) continue;
        for (const subnet of missing(want.replicaSubnetIds, placementOf(shard).replicaSubnetIds)) {
          ctx.progress(`${what}: adding a replica in subnet ${subnet} to shard ${shard.id}`);
          await c.nodes.addReplica(id, shard.id, { subnet: { id: subnet } }).catch(rethrowAs(`${what}: adding a replica to shard ${shard.id}`));
          s = await settle();
        }
      }

      // 3. In-place settings, one request.
      const patch = inPlacePatch(ctx, current, news, (s) => ({ cron: s.cron, retentionLimit: s.retentionDays }));
      if (patch) {
        await c.clusters.update(id, patch).catch(rethrowAs(`updating ${what}`));
        s = await settle();
        if (patch.parameterGroupId !== undefined) await waitClusterSynced(ctx, c, id, what, Math.max(1, deadline - Date.now()));
      }
      live = managedShards(s.topology, managed);

      // 4. Replicas removed: those in subnets no longer declared, highest ids first; never a primary.
      for (const [i, shard] of live.entries()) {
        const want = news.shards[i];
        if (!want) continue;
        const extra = surplus(want.replicaSubnetIds, placementOf(shard).replicaSubnetIds);
        const victims = [...shard.replicas].reverse();
        for (const subnet of extra) {
          const node = victims.find((n) => n.subnetId === subnet);
          if (!node) continue;
          victims.splice(victims.indexOf(node), 1);
          ctx.progress(`${what}: removing replica ${node.id} (subnet ${subnet}) from shard ${shard.id}`);
          await c.nodes.delete(id, shard.id, node.id).catch(rethrowAs(`${what}: removing replica ${node.id}`));
          s = await settle();
        }
      }

      // 5. Shards removed: from the live topology, highest ids first, never the last one.
      live = managedShards(s.topology, managed);
      const byId = [...live].sort((a, b) => b.id.localeCompare(a.id, "en", { numeric: true }));
      for (const shard of byId.slice(0, Math.max(0, live.length - news.shards.length))) {
        if (s.topology.shardCount <= 1) break;
        ctx.progress(`${what}: removing shard ${shard.id} (its slots move to the other shards first)`);
        await c.shards.delete(id, shard.id).catch(rethrowAs(`${what}: removing shard ${shard.id}`));
        managed = managed.filter((m) => m !== shard.id);
        s = await settle();
      }
      return { ...flatten(s, news, managed), replacementBackup: await replacementBackupNow(ctx, c, current.replacementBackup) };
    } catch (e) {
      throw new PartialFailure(id, await bestKnown(c, id, current, managed), e);
    }
  },

  async delete(ctx, id, olds) {
    const c = cache(ctx);
    await deleteAndWait(ctx, c, id, `cache cluster "${olds.name}" (${id})`, olds, (x, o) => c.clusters.delete(x, o));
  },
});

// ---------------------------------------------------------------------------------------------
// Expanders and flatteners

/** Outputs from the cloud: counts and placements from the live topology, provider-only inputs from `prior`. */
function flatten(s: ClusterSnapshot, prior: Partial<ClusterInputs>, managedIds: readonly string[] | undefined): ClusterOutputs {
  const r = s.record;
  const managed = managedShards(s.topology, managedIds);
  const managedSet = new Set(managed.map((m) => m.id));
  const desired = prior.shards ?? [];
  return {
    ...flattenRecord(r, prior),
    shards: managed.map((sh, i) => placementOf(sh, desired[i])),
    backupSchedule: r.backupSchedule
      ? { cron: r.backupSchedule.cron, ...(r.backupSchedule.retentionLimit !== undefined ? { retentionDays: r.backupSchedule.retentionLimit } : {}) }
      : undefined,
    restoreFromBackup: prior.restoreFromBackup,
    shardDetails: s.topology.shards.map((sh) => ({
      id: sh.id,
      name: sh.name,
      slots: formatSlots(sh.slots),
      slotCount: sh.slotCount,
      managed: managedSet.has(sh.id),
      nodes: nodeOutputs(sh),
    })),
    managedShardIds: managed.map((m) => m.id),
  };
}

/**
 * The shards this resource manages as the cloud has them now: those recorded, and those a shards
 * step of its own added after the last record when an `up` was killed in it (the cluster's
 * description still carries the step's digest of the shards there before it, and the recorded
 * shards still there give that digest: nothing else was added in between). A cluster read from
 * its id alone (import, adopt) manages every shard.
 */
function managedIdsOf(s: ClusterSnapshot, prior: Partial<ClusterOutputs>): string[] {
  const all = s.topology.shards.map((sh) => sh.id);
  if (prior.managedShardIds === undefined) return all;
  const pending = splitDescription(s.record.description).pending;
  if (pending === undefined || prior.shardDetails === undefined) return prior.managedShardIds;
  const recorded = new Set(prior.shardDetails.map((sh) => sh.id));
  if (shardStepDigest(all.filter((x) => recorded.has(x))) !== pending) return prior.managedShardIds;
  return [...prior.managedShardIds, ...all.filter((x) => !recorded.has(x) && !prior.managedShardIds!.includes(x))];
}

/** The digest a shards step records: of the shard ids there before it. */
export function shardStepDigest(ids: readonly string[]): string {
  return createHash("sha256")
    .update([...ids].sort().join("\n"))
    .digest("hex")
    .slice(0, 8);
}

/** The one shard of `clusterId` in `primarySubnetId` that is not in `before`, if exactly one is there. */
async function addedShard(c: CacheClient, clusterId: string, before: ReadonlySet<string>, primarySubnetId: string): Promise<string | undefined> {
  const t = await c.clusterTopology(clusterId).catch(() => undefined);
  const added = (t?.shards ?? []).filter((sh) => !before.has(sh.id) && placementOf(sh).primarySubnetId === primarySubnetId);
  return added.length === 1 ? added[0]!.id : undefined;
}

/** What to record after a partial failure: the cloud as it is now when it can be read, else the inputs. */
async function bestKnown(
  c: CacheClient,
  id: string,
  prior: ClusterInputs | ClusterOutputs,
  managedIds: readonly string[] | undefined,
): Promise<ClusterOutputs> {
  const s = await clusterSnapshot(c, id).catch(() => undefined);
  if (s) return flatten(s, prior, managedIds ?? s.topology.shards.map((sh) => sh.id));
  return { ...prior, status: "unknown", shardDetails: [], managedShardIds: [...(managedIds ?? [])] };
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { ClusterArgs } from "./args";
/** A Redis cluster (cluster mode) whose shards and replicas follow the declared placements. Its database user (with the password) is always a secret. */
export const Cluster = resourceClass<ClusterArgs, ClusterOutputs>(cluster);
export type Cluster = InstanceType<typeof Cluster>;
