/**
 * krcloud:cache:InstanceSet — a Redis primary with replicas (cluster mode disabled). The replica
 * count follows `replicaSubnetIds` through add-replica and delete-instance within the spec's rules;
 * high availability is toggled in place in a safe order (off before the last replica goes, on only
 * after the replicas exist); with HA off an explicit primary is promoted. Each step waits until the
 * set is not Creating/Modifying and every instance is Running; a FAILED instance fails at once.
 *
 * Order of an update: HA off → replicas added → settings (description, backup schedule, parameter
 * group, security groups) → promote → replicas removed → HA on.
 * Spec: 02-cache.md §2.1, §2.2, §3, §4.3, §8.
 */
import { z } from "zod";
import { backupCronForHour, REPLICAS_MAX, validateRestoreFiles, type CacheClient, type CacheClusterRecord } from "../../client/cache";
import { rethrowAs } from "../../client/core";
import { PartialFailure, timeoutFor, defineResource, resourceClass, nonEmpty, listedByName } from "../core";
import { clusterMarker, findClusterByName, listClusters } from "./find";
import { createKeepingData, keepsCacheData, replacementBackupNow, replacementBackupOutput } from "./keep-data";
import { instanceResult, instanceShape } from "./nodes";
import { cache } from "./client";
import * as record from "./cluster-record";
import { alignTo, missing, surplus } from "./topology";
import { requestDescription, retentionDays, user, userForRequest } from "./validation";
import { CACHE_TIMEOUTS, instanceSetSnapshot, waitClusterSynced, waitInstanceSetSettled, type InstanceSetSnapshot } from "./waiters";
import type { InstanceSetArgs } from "./args";

export function instanceSetShape() {
  return z.strictObject({
    ...record.recordInputs("instance set"),
    primarySubnetId: nonEmpty().describe("Subnet of the primary at creation. Changing it replaces the instance set (a promote does not count as a change)."),
    replicaSubnetIds: z
      .array(nonEmpty())
      .max(REPLICAS_MAX, `at most ${REPLICAS_MAX} replicas per instance set (a limit of the cache service)`)
      .default([])
      .describe("One subnet per replica; replicas are added and removed in place."),
    highAvailability: z.boolean().default(false).describe("High availability mode (automatic failover); needs at least one replica. Toggled in place."),
    primaryInstanceId: nonEmpty().optional().describe("With high availability off: the instance that must be primary; another one is promoted to it in place."),
    tlsEnabled: z.boolean().default(false).describe("TLS in transit. Changing it replaces the instance set."),
    user: user(),
    backupSchedule: z
      .strictObject({
        hour: z
          .number()
          .int("must be a whole hour")
          .min(0, "must be from 0 to 23")
          .max(23, "must be from 0 to 23")
          .describe("Hour of the daily automatic backup, KST (the only settable field)."),
        retentionDays: retentionDays().describe("Days to keep automatic backups, 1 to 35."),
      })
      .optional()
      .describe("Daily automatic backups; omitted: none. Changed in place."),
    restoreFrom: z
      .strictObject({
        backupName: nonEmpty().optional().describe("An existing backup's name."),
        files: z.array(nonEmpty()).optional().describe("Backup files in object storage, `bucket/folder/.../file`, same region and project."),
      })
      .optional()
      .describe("Create the instance set from a backup (engine version equal or newer). Changing it replaces the instance set."),
    ...record.steeringInputs("instance set"),
  });
}

export function instanceSetInputs() {
  return instanceSetShape().superRefine((s, ctx) => {
    const allowed = new Set(s.subnetIds);
    if (!allowed.has(s.primarySubnetId))
      ctx.addIssue({ code: "custom", path: ["primarySubnetId"], message: `subnet "${s.primarySubnetId}" is not in subnetIds` });
    s.replicaSubnetIds.forEach((r, i) => {
      if (!allowed.has(r)) ctx.addIssue({ code: "custom", path: ["replicaSubnetIds", i], message: `subnet "${r}" is not in subnetIds` });
    });
    if (s.highAvailability && s.replicaSubnetIds.length === 0)
      ctx.addIssue({ code: "custom", path: ["highAvailability"], message: "needs at least one replica (replicaSubnetIds)" });
    if (s.highAvailability && s.primaryInstanceId !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["primaryInstanceId"],
        message: "can only be chosen with highAvailability off (the service promotes only then; with HA on it fails over by itself)",
      });
    }
    if (s.restoreFrom) {
      const both = s.restoreFrom.backupName !== undefined && s.restoreFrom.files !== undefined;
      const none = s.restoreFrom.backupName === undefined && s.restoreFrom.files === undefined;
      if (both || none) ctx.addIssue({ code: "custom", path: ["restoreFrom"], message: "set exactly one of backupName and files" });
      if (s.restoreFrom.files)
        for (const f of validateRestoreFiles(s.restoreFrom.files, "restoreFrom.files"))
          ctx.addIssue({ code: "custom", path: ["restoreFrom", "files"], message: f.reason });
    }
  });
}
export type InstanceSetInputs = z.infer<ReturnType<typeof instanceSetInputs>>;

export function instanceSetOutputs() {
  return instanceSetShape().extend({
    ...record.statusOutputs("The instance set's status."),
    primaryEndpoint: z.string().optional().describe("Endpoint of the primary; stays valid after a promote or failover."),
    readEndpoint: z.string().optional().describe("Endpoint for reads from the replicas."),
    currentPrimaryInstanceId: z.string().optional().describe("The instance that is primary now."),
    instances: z.array(instanceShape()).describe("Every instance, primary first."),
    replacementBackup: replacementBackupOutput("instance set"),
  });
}
export type InstanceSetOutputs = z.infer<ReturnType<typeof instanceSetOutputs>>;

export const instanceSet = defineResource("krcloud:cache:InstanceSet", instanceSetInputs, instanceSetOutputs, {
  description:
    "A Redis primary with replicas (cluster mode disabled): replica count, high availability and the primary reconciled in place, each step waiting until every instance is Running.",
  ...record.recordReplacement<InstanceSetInputs>("instance set", {
    primarySubnetId: "the subnet the primary was created in is fixed (promote a replica with primaryInstanceId to move the primary in place)",
    restoreFrom: "an instance set is restored only when it is created",
  }),
  ...record.recordDeclarations<InstanceSetInputs, InstanceSetOutputs>("disabled"),
  keepsData: keepsCacheData<InstanceSetInputs>({ clusterMode: false, source: "restoreFrom" }),
  importId: "the instance set id",
  recovery: { find: (ctx, inputs) => findClusterByName(cache(ctx), inputs.name, false), markerOf: (ctx, id) => clusterMarker(cache(ctx), id) },
  describe: (i) => `cache instance set "${i}"`,
  list: listedByName(["instance set", "instance sets"], (ctx) => listClusters(ctx, false)),

  async create(ctx, inputs) {
    const c = cache(ctx);
    const what = `cache instance set "${inputs.name}"`;
    const timeoutMs = timeoutFor(ctx, inputs.timeouts, "create", CACHE_TIMEOUTS);
    // Before the replacement's backup: a password that cannot be read then fails with the old instance set untouched.
    const user = await userForRequest(ctx.settings, inputs.user, `cache instance set "${inputs.name}"`);
    // A replacement that keeps the data restores from a backup of the instance set it replaces.
    const target = { clusterMode: false, version: inputs.version, flavorId: inputs.flavorId, timeoutMs };
    const { id: setId, replacementBackup } = await createKeepingData(ctx, c, target, what, (keptBackup) => {
      const r = keptBackup !== undefined ? { backupName: keptBackup } : inputs.restoreFrom;
      return c.instanceSets.create({
        instanceSetName: inputs.name,
        description: requestDescription(ctx, inputs.description),
        replicas: inputs.replicaSubnetIds.length + 1,
        flavorId: inputs.flavorId,
        recoveryEnabled: inputs.highAvailability,
        subnets: inputs.subnetIds.map((s) => ({ id: s })),
        subnetAssignments: [{ primary: { id: inputs.primarySubnetId }, replicas: inputs.replicaSubnetIds.map((s) => ({ id: s })) }],
        securityGroups: inputs.securityGroupIds.map((s) => ({ id: s })),
        backupSchedule: inputs.backupSchedule
          ? { cron: backupCronForHour(inputs.backupSchedule.hour), retentionLimit: inputs.backupSchedule.retentionDays }
          : undefined,
        user,
        tlsEnabled: inputs.tlsEnabled,
        parameterGroupId: inputs.parameterGroupId,
        port: inputs.port,
        version: inputs.version,
        restoreSource: r?.backupName !== undefined ? { backupName: r.backupName } : r?.files !== undefined ? { files: r.files } : undefined,
      });
    });
    try {
      const s = await waitInstanceSetSettled(ctx, c, setId, `${what} (${setId})`, { timeoutMs });
      return { id: setId, outs: { ...flatten(s, inputs), replacementBackup } };
    } catch (e) {
      throw new PartialFailure(setId, { ...(await bestKnown(c, setId, inputs)), replacementBackup }, e);
    }
  },

  // The list carries the record a GetCluster does; the instances are still read per instance set.
  readsFromList: {
    walk: async (ctx) => new Map((await cache(ctx).clusters.list().catch(rethrowAs("listing cache instance sets"))).map((r) => [r.id, r] as const)),
    async outputs(ctx, setId, record: CacheClusterRecord, olds) {
      const s = await instanceSetSnapshot(cache(ctx), setId, async () => record).catch(rethrowAs(`reading cache instance set "${setId}"`));
      return s ? flatten(s, olds) : undefined;
    },
    also: "its instances: one topology read per instance set",
  },

  async read(ctx, setId, olds) {
    const s = await instanceSetSnapshot(cache(ctx), setId).catch(rethrowAs(`reading cache instance set "${setId}"`));
    return s ? flatten(s, olds) : undefined;
  },

  async update(ctx, setId, current, news) {
    const c = cache(ctx);
    const what = `cache instance set "${news.name}" (${setId})`;
    const deadline = Date.now() + timeoutFor(ctx, news.timeouts, "update", CACHE_TIMEOUTS);
    const settle = () => waitInstanceSetSettled(ctx, c, setId, what, { timeoutMs: Math.max(1, deadline - Date.now()) });
    const setHa = async (on: boolean) => {
      ctx.progress(`${what}: turning high availability ${on ? "on" : "off"}`);
      await c.instanceSets.setHighAvailability(setId, on).catch(rethrowAs(`${what}: turning high availability ${on ? "on" : "off"}`));
      return settle();
    };
    try {
      let s = await settle();
      // 1. HA off first: the last replica may not go while it is on.
      if (current.highAvailability && !news.highAvailability) s = await setHa(false);

      // 2. Replicas added.
      for (const subnet of missing(news.replicaSubnetIds, flatten(s, news).replicaSubnetIds)) {
        ctx.progress(`${what}: adding a replica in subnet ${subnet}`);
        await c.instanceSets.addReplica(setId, { subnet: { id: subnet } }).catch(rethrowAs(`${what}: adding a replica`));
        s = await settle();
      }

      // 3. Settings, one request.
      const patch = record.inPlacePatch(ctx, current, news, (s) => ({ cron: backupCronForHour(s.hour), retentionLimit: s.retentionDays }));
      if (patch) {
        await c.instanceSets.update(setId, patch).catch(rethrowAs(`updating ${what}`));
        s = await settle();
        if (patch.parameterGroupId !== undefined) await waitClusterSynced(ctx, c, setId, what, Math.max(1, deadline - Date.now()));
      }

      // 4. An explicit primary (HA is off here, or check would have refused the inputs).
      if (news.primaryInstanceId !== undefined && s.topology.primary?.id !== news.primaryInstanceId) {
        ctx.progress(`${what}: promoting instance ${news.primaryInstanceId} to primary`);
        await c.instanceSets.promote(setId, news.primaryInstanceId).catch(rethrowAs(`${what}: promoting ${news.primaryInstanceId}`));
        s = await settle();
      }

      // 5. Replicas removed: never the primary; those in subnets no longer declared, newest first.
      const victims = [...s.topology.replicas].reverse();
      for (const subnet of surplus(news.replicaSubnetIds, flatten(s, news).replicaSubnetIds)) {
        const inst = victims.find((i) => i.subnetId === subnet);
        if (!inst) continue;
        victims.splice(victims.indexOf(inst), 1);
        ctx.progress(`${what}: removing replica ${inst.instanceName ?? inst.id} (subnet ${subnet})`);
        await c.instanceSets.deleteInstance(setId, inst.id).catch(rethrowAs(`${what}: removing replica ${inst.id}`));
        s = await settle();
      }

      // 6. HA on last: only now are the replicas there.
      if (!current.highAvailability && news.highAvailability) s = await setHa(true);
      return { ...flatten(s, news), replacementBackup: await replacementBackupNow(ctx, c, current.replacementBackup) };
    } catch (e) {
      throw new PartialFailure(setId, await bestKnown(c, setId, current), e);
    }
  },

  async delete(ctx, setId, olds) {
    const c = cache(ctx);
    await record.deleteAndWait(ctx, c, setId, `cache instance set "${olds.name}" (${setId})`, olds, (x, o) => c.instanceSets.delete(x, o));
  },
});

/**
 * Outputs from the cloud. Placement: `primarySubnetId` stays the declared one while some instance is
 * in that subnet (a promote moves the primary role, not the placement); the replicas are the other
 * instances' subnets, in the declared order where they match.
 */
function flatten(s: InstanceSetSnapshot, prior: Partial<InstanceSetInputs>): InstanceSetOutputs {
  const r = s.record;
  const t = s.topology;
  const all = [...(t.primary ? [t.primary] : []), ...t.replicas, ...t.otherInstances];
  const subnets = all.map((i) => i.subnetId ?? "");
  const primarySubnet = prior.primarySubnetId !== undefined && subnets.includes(prior.primarySubnetId) ? prior.primarySubnetId : (t.primary?.subnetId ?? "");
  const rest = [...subnets];
  const at = rest.indexOf(primarySubnet);
  if (at >= 0) rest.splice(at, 1);
  const hour = r.backupSchedule ? Number(r.backupSchedule.cron.trim().split(/\s+/)[1]) : undefined;
  return {
    ...record.flattenRecord(r, prior),
    primarySubnetId: primarySubnet,
    replicaSubnetIds: alignTo(prior.replicaSubnetIds, rest),
    highAvailability: r.recoveryEnabled ?? false,
    primaryInstanceId: prior.primaryInstanceId === undefined ? undefined : t.primary?.id,
    backupSchedule:
      r.backupSchedule && hour !== undefined && Number.isInteger(hour) ? { hour, retentionDays: r.backupSchedule.retentionLimit ?? 1 } : undefined,
    restoreFrom: prior.restoreFrom,
    readEndpoint: r.endpoints.readEndpoint,
    currentPrimaryInstanceId: t.primary?.id,
    instances: all.map(instanceResult),
  };
}

async function bestKnown(c: CacheClient, setId: string, prior: InstanceSetInputs | InstanceSetOutputs): Promise<InstanceSetOutputs> {
  const s = await instanceSetSnapshot(c, setId).catch(() => undefined);
  if (s) return flatten(s, prior);
  return { ...prior, status: "unknown", instances: [] };
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { InstanceSetArgs } from "./args";
/** A Redis primary with replicas (cluster mode disabled). Its database user (with the password) is always a secret. */
export const InstanceSet = resourceClass<InstanceSetArgs, InstanceSetOutputs>(instanceSet);
export type InstanceSet = InstanceType<typeof InstanceSet>;
