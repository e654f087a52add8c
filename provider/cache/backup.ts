/**
 * krcloud:cache:Backup — an on-demand backup of a cluster or instance set (the cloud's public API
 * documentation: `POST /v1/backups {clusterId, name}`, `GET /v1/backups?clusterName=`; get and
 * delete by id are guesses, docs/api-assumptions.md). A backup holds the data of the moment it was
 * taken: nothing of it changes in place, so every change of its inputs replaces it (a new backup).
 * Its create waits until it is available. A refresh reads it by id; a backup deleted behind Pulumi's
 * back is gone, and the next `up` takes a new one.
 *
 * A backup has no place for an ownership marker: an omitted name is derived from the create key
 * (so the `up` after a lost answer or a crash finds its own by name); a create that meets a backup
 * of a declared name that was there before its request refuses, naming `adopt`.
 */
import { z } from "zod";
import type { CacheBackup, CacheClient } from "../../client/cache";
import { isConflict, isNotFound, rethrowAs, withAction } from "../../client/core";
import { defineResource, listedByName, noRename, nonEmpty, PartialFailure, resourceClass, timeoutFor, timeoutsInput } from "../core";
import { AVAILABLE, backupState, waitBackupAvailable } from "./backups";
import { cache } from "./client";
import { adoptInput, groupOrBackupName } from "./validation";
import { CACHE_TIMEOUTS } from "./waiters";
import type { BackupArgs } from "./args";

export function backupInputs() {
  return z.strictObject({
    clusterId: nonEmpty().describe("The cluster or instance set to back up. Changing it replaces the backup (a new one of the other cache)."),
    name: groupOrBackupName().describe("The backup's name. When omitted: the logical name plus a random suffix. Changing it replaces the backup."),
    timeouts: timeoutsInput(CACHE_TIMEOUTS),
    adopt: adoptInput("a backup"),
  });
}
export type BackupInputs = z.infer<ReturnType<typeof backupInputs>>;

export function backupOutputs() {
  return backupInputs().extend({
    clusterName: z.string().optional().describe("The name of the cache it was taken of."),
    clusterEnabled: z.boolean().optional().describe("true: a cluster's backup (cluster mode); false: an instance set's."),
    version: z.string().optional().describe("The engine version of the data: a restore needs this version or a newer one."),
    shardCount: z.number().optional().describe("Shards of the data: a cluster restored from it needs this many."),
    kind: z.string().optional().describe("`manual` (on demand)."),
    status: z.string().describe("`Available` once it can be restored."),
    sizeBytes: z.number().optional().describe("Its size as the cloud reports it: a restore needs it below 60% of the new flavor's memory."),
    createdAt: z.string().optional(),
  });
}
export type BackupOutputs = z.infer<ReturnType<typeof backupOutputs>>;

export const backup = defineResource("krcloud:cache:Backup", backupInputs, backupOutputs, {
  description:
    "An on-demand backup of a cache cluster or instance set: the data of the moment it is taken, restorable into a new one (`restoreFromBackup`, `restoreFrom`). Every change replaces it.",
  replaceOn: {
    clusterId: "a backup holds the data of the cache it was taken of",
    ...noRename("the cache API", "backup"),
  },
  replacementLoses: "The replacement is a new backup, of the data as it is then; this one is deleted.",
  deleteBeforeReplace: true,
  localInputs: ["timeouts", "adopt"],
  importId: "the backup id",
  autoName: { property: "name", minLength: 4, maxLength: 64, lowerCase: true },
  recovery: {
    before: async (ctx, inputs) => (await backupsOf(cache(ctx), inputs.clusterId)).map((b) => b.id),
    // Adopting: the backup of that name. After an unknown outcome or a conflict: the one of that
    // name that was not there before the request (a backup carries no ownership marker).
    find: async (ctx, inputs, before) => {
      const named = (await backupsOf(cache(ctx), inputs.clusterId)).find((b) => b.name === inputs.name);
      if (named === undefined) return undefined;
      return before === undefined || (Array.isArray(before) && !before.includes(named.id)) ? named.id : undefined;
    },
  },
  describe: (id) => `cache backup "${id}"`,
  // The project's on-demand backups: automatic ones are a schedule's, no resource of anyone's.
  list: {
    ...listedByName(["backup", "backups"], async (ctx) =>
      (await cache(ctx).backups.list()).filter((b) => b.kind !== "automatic").map((b) => ({ id: b.id, name: b.name ?? b.id })),
    ),
    notUnmanaged:
      "a backup is data, not infrastructure: those a data-keeping replacement took (a cache's replacementBackup) and those takeBackup took are no Backup resources",
  },

  async create(ctx, inputs) {
    const c = cache(ctx);
    const source = await c.clusters
      .get(inputs.clusterId)
      .catch(rethrowAs(`creating cache backup "${inputs.name}": reading cache cluster "${inputs.clusterId}"`));
    const what = `cache backup "${inputs.name}" of "${source.name ?? source.id}"`;
    const { id } = await c.backups
      .create({ clusterId: inputs.clusterId, name: inputs.name })
      .catch((e: unknown) => Promise.reject(withAction(nameTaken(e, inputs.name), `creating ${what}`)));
    // The backup exists from here on: a failure below leaves it in state, and the next up waits again.
    try {
      const b = await waitBackupAvailable(ctx, c, id, `${what} (${id})`, timeoutFor(ctx, inputs.timeouts, "create", CACHE_TIMEOUTS));
      return { id, outs: flatten(b, inputs) };
    } catch (e) {
      throw new PartialFailure(id, { ...inputs, status: "unknown" }, e);
    }
  },

  // The list carries every field a backup's GET does (the same record): a refresh of many is one walk.
  readsFromList: {
    walk: async (ctx) => new Map((await cache(ctx).backups.list().catch(rethrowAs("listing cache backups"))).map((b) => [b.id, b] as const)),
    outputs: async (_ctx, _id, b: CacheBackup, olds) => flatten(b, olds),
  },

  async read(ctx, id, olds) {
    const b = await cache(ctx)
      .backups.find(id)
      .catch(rethrowAs(`reading cache backup "${id}"`));
    return b ? flatten(b, olds) : undefined;
  },

  // Only steering inputs change in place; a backup still being written is waited for.
  async update(ctx, id, current, news) {
    const c = cache(ctx);
    const now = await c.backups.get(id).catch(rethrowAs(`reading cache backup "${id}"`));
    const b =
      backupState(now) === AVAILABLE
        ? now
        : await waitBackupAvailable(ctx, c, id, `cache backup "${news.name}" (${id})`, timeoutFor(ctx, news.timeouts, "update", CACHE_TIMEOUTS));
    return flatten(b, { ...current, ...news });
  },

  async delete(ctx, id, olds) {
    try {
      await cache(ctx).backups.delete(id);
    } catch (e) {
      if (!isNotFound(e)) throw withAction(e, `deleting cache backup "${olds.name}" (${id})`);
    }
  },
});

/** A 409 on create is a name taken: the error says how to take the backup over. */
function nameTaken(e: unknown, name: string): unknown {
  const err = e as Error;
  if (isConflict(e) && typeof err?.message === "string")
    err.message += `. If this stack is to manage backup "${name}" from now on (one taken outside Pulumi, or by an \`up\` killed before it recorded it), set \`adopt: true\` and run \`pulumi up\` again; otherwise choose another name`;
  return e;
}

/** The backups of the cache `clusterId` (found by its name), or every backup when the cache is gone. */
async function backupsOf(c: CacheClient, clusterId: string): Promise<CacheBackup[]> {
  const record = await c.findClusterById(clusterId).catch(rethrowAs(`reading cache cluster "${clusterId}"`));
  return c.backups.list(record?.name !== undefined ? { clusterName: record.name } : {}).catch(rethrowAs("listing cache backups"));
}

/** Outputs from the record; the steering inputs from `prior`. */
function flatten(b: CacheBackup, prior: Partial<BackupInputs>): BackupOutputs {
  return {
    clusterId: b.clusterId ?? prior.clusterId ?? "",
    name: b.name ?? prior.name ?? b.id,
    timeouts: prior.timeouts,
    adopt: prior.adopt ?? false,
    clusterName: b.clusterName,
    clusterEnabled: b.clusterEnabled,
    version: b.version,
    shardCount: b.shardCount,
    kind: b.kind === undefined ? undefined : String(b.kind),
    status: backupState(b),
    sizeBytes: b.sizeBytes,
    createdAt: b.createdAt,
  };
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { BackupArgs } from "./args";
/** An on-demand backup of a cache cluster or instance set. */
export const Backup = resourceClass<BackupArgs, BackupOutputs>(backup);
export type Backup = InstanceType<typeof Backup>;
