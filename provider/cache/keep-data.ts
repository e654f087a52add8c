/**
 * `dataOnReplace: "keep"` of a Cluster and an InstanceSet (docs/changing-stateful-resources.md):
 * a replacement made from a backup of the cache it replaces.
 *
 * - In check (`plan`, reads only): the old cache's record, its backups and the flavors, and the
 *   spec's restore rules (02 §4.2, §4.3, §8): engine version equal or newer, the backup's shard
 *   count, data below 60% of the new flavor's memory; a broken rule refuses the change in the
 *   preview, naming it. The plan names the backup the replacement takes, derived from its create
 *   key, so every retry of the replacement finds the same one.
 * - In the replacement's create (`backupForReplacement`): the backup (found, or taken), a wait until
 *   it is available, the rules again against the backup itself, and, when the name stays the same,
 *   the old cache's delete; the create then restores from the backup and waits.
 */
import { z } from "zod";
import type { CacheBackup, CacheClient, CacheClusterRecord } from "../../client/cache";
import { isNotFound, rethrowAs, withAction } from "../../client/core";
import { containsUnknown, jsonEqual, markerOf, splitDescription, toPlain, type Context, type KeepsData } from "../core";
import { cache } from "./client";
import { backupOnce, backupState, AVAILABLE, formatBytes, waitBackupAvailable } from "./backups";
import { waitClusterGone } from "./waiters";

/** What a check recorded for a replacement that keeps the data (the hidden input REPLACING_KEY). */
export interface KeepPlan {
  /** The cache it replaces, by name (unique in the project), and the ownership marker its create wrote (none: adopted, imported). */
  from: string;
  fromMarker?: string;
  /** The name stays: the create deletes the old cache after its backup, then restores under the name. */
  sameName: boolean;
  /** The backup the replacement takes: `<old name>-keep-<8 hex digits of its create key>`. */
  backup: string;
  /** What the preview knew of the data: the size of a backup, and the new flavor's memory. */
  estimate?: { bytes: number; from: string; memoryGiB?: number };
}

/** The 60% rule: a restore fails when the backup is this share of the new flavor's memory or more. */
export const RESTORE_MEMORY_SHARE = 0.6;
const GIB = 1024 ** 3;

/** The option's input: what a replacement does with the data. */
export function dataOnReplaceInput(what: "cluster" | "instance set") {
  return z
    .enum(["discard", "keep"])
    .default("discard")
    .describe(
      `What a replacement does with the data: \`discard\` (the default) creates the new ${what} empty; \`keep\` takes a backup of this one, creates the replacement from it and waits until it is Running before this one is deleted (with the same name: this one is deleted after its backup, and the new one restored under the name). The preview says how, and refuses a change the restore rules forbid. Only steers the provider: changing it changes nothing by itself. See docs/changing-stateful-resources.md.`,
    );
}

/** The output naming the backup a replacement took: kept while this resource exists, deleted with it (or by the next replacement). */
export function replacementBackupOutput(what: "cluster" | "instance set") {
  return z
    .object({
      id: z.string().describe("The backup's id."),
      name: z.string().describe("The backup's name."),
      replaced: z.string().describe("The name of the cache it was taken of."),
      sizeBytes: z.number().optional().describe("Its size as the cloud reports it."),
    })
    .optional()
    .describe(
      `The backup the replacement that made this ${what} took of the one it replaced (\`dataOnReplace: keep\`): kept while this ${what} exists, deleted with it or when it is replaced again.`,
    );
}
export type ReplacementBackup = z.infer<ReturnType<typeof replacementBackupOutput>>;

/** The backup name of a replacement: the old name and 8 hex digits of the replacement's create key. */
export function replacementBackupName(oldName: string, createKey: string | undefined): string {
  return `${oldName}-keep-${(createKey ?? "").slice(0, 8) || "0"}`;
}

/** What a Cluster's or an InstanceSet's inputs look like to the plan. */
interface CacheInputs {
  name: string;
  version: string;
  flavorId: string;
  dataOnReplace?: "discard" | "keep";
}

/**
 * The `keepsData` of a Cluster (`clusterMode` true) or an InstanceSet: `source` is its input naming
 * a backup to restore from (`restoreFromBackup`, `restoreFrom`), `shardCount` what the new one
 * declares (a cluster's shards; undefined for an instance set).
 */
export function keepsCacheData<I extends CacheInputs>(o: {
  clusterMode: boolean;
  source: keyof I & string;
  shardCount?: (news: I) => number | undefined;
}): KeepsData<I> {
  const kind = o.clusterMode ? "cluster" : "instance set";
  return {
    wanted: (inputs) => inputs.dataOnReplace === "keep",
    async plan(ctx, { old, oldCreateKey, news, createKey, sameName }) {
      const fail = (property: string, rule: string) => ({
        failures: [{ property, reason: `${property}: ${rule} (dataOnReplace: keep; docs/changing-stateful-resources.md)` }],
      });
      if (!containsUnknown(news[o.source]) && !jsonEqual(toPlain(news[o.source]), toPlain(old[o.source])))
        return fail(o.source, `changes with the replacement, which would restore from a backup of the ${kind} it replaces: one source of data only`);
      const c = cache(ctx);
      const backup = replacementBackupName(old.name, createKey);
      const { record, evidence } = await evidenceFor(c, o.clusterMode, old.name, backup, markerOf(createKey));
      const oldVersion = evidence?.version ?? record?.version ?? old.version;
      if (!containsUnknown(news.version) && compareVersions(news.version, oldVersion) < 0)
        return fail("version", `${news.version} is older than ${oldVersion}, the version of the data: a restore needs the same engine version or a newer one`);
      const wantShards = containsUnknown(news) ? undefined : o.shardCount?.(news);
      const haveShards = evidence?.name === backup ? evidence.shardCount : (record?.shardCount ?? evidence?.shardCount);
      if (wantShards !== undefined && haveShards !== undefined && wantShards !== haveShards)
        return fail(
          "shards",
          `${wantShards} shards, but the ${kind} it replaces has ${haveShards}: a restore needs the backup's shard count. Change the shard count in place, in an up of its own, before or after this one`,
        );
      const memoryGiB = containsUnknown(news.flavorId) ? undefined : await memoryOf(c, news.flavorId);
      if (evidence?.sizeBytes !== undefined && memoryGiB !== undefined && evidence.sizeBytes >= RESTORE_MEMORY_SHARE * memoryGiB * GIB)
        return fail(
          "flavorId",
          `${news.flavorId} has ${memoryGiB} GiB of memory, and the data is ${formatBytes(evidence.sizeBytes)} (${percent(evidence.sizeBytes, memoryGiB)}% of it; backup "${evidence.name}"): a restore needs it below 60%`,
        );
      const plan: KeepPlan = {
        from: old.name,
        ...(markerOf(oldCreateKey) !== undefined ? { fromMarker: markerOf(oldCreateKey) } : {}),
        sameName,
        backup,
        ...(evidence?.sizeBytes !== undefined ? { estimate: { bytes: evidence.sizeBytes, from: evidence.name ?? evidence.id, memoryGiB } } : {}),
      };
      return { plan: { ...plan } };
    },
    words: (raw) => keepWords(kind, raw as unknown as KeepPlan),
  };
}

/**
 * The windows `make bench` measured (bench/cache-replacement.ts, docs/benchmarks.md), which the
 * preview quotes: on the local cloud, a 100,000-key cluster (8 MB of backup) restored about 5 s
 * after its backup request. A cloud's own figures depend on its size and speed.
 */
const MEASURED_WINDOW = "about 5 s for 100,000 keys on the local cloud (make bench)";

/** The plan in the preview's words. */
export function keepWords(kind: string, p: KeepPlan): string {
  const size =
    p.estimate === undefined
      ? "its size is known once the backup is taken"
      : `${formatBytes(p.estimate.bytes)}${p.estimate.memoryGiB ? `, ${percent(p.estimate.bytes, p.estimate.memoryGiB)}% of the new flavor's memory` : ""}${p.estimate.from !== p.backup ? `, from its newest backup "${p.estimate.from}"` : ""}`;
  const name = p.sameName
    ? ` The name stays: "${p.from}" is deleted once the backup is available and restored under its name, so it is unavailable from that delete until the restore is Running (${MEASURED_WINDOW}).`
    : "";
  return `It replaces cache ${kind} "${p.from}" through backup "${p.backup}" (${size}); the endpoint changes.${name} Writes made after the backup is taken are not in the new ${kind} (${MEASURED_WINDOW}, until it runs).`;
}

/**
 * What the rules are checked against: the replacement's own backup when an earlier attempt took it,
 * else the old cache's newest available backup with a size; and the old cache's record (the one of
 * that name not carrying `newMarker`, the replacement's own ownership marker).
 */
async function evidenceFor(
  c: CacheClient,
  clusterMode: boolean,
  name: string,
  backup: string,
  newMarker: string | undefined,
): Promise<{ record?: CacheClusterRecord; evidence?: CacheBackup }> {
  const record = (await c.clusters.list().catch(readFailed(`reading cache clusters to replace "${name}"`))).find(
    (r) => r.name === name && (r.clusterEnabled ?? true) === clusterMode && (newMarker === undefined || splitDescription(r.description).marker !== newMarker),
  );
  const backups = await c.backups.list({ clusterName: name }).catch(readFailed(`reading the backups of cache cluster "${name}"`));
  const own = backups.find((b) => b.name === backup);
  const newest = backups
    .filter((b) => b.sizeBytes !== undefined && backupState(b) === AVAILABLE)
    .sort((a, b) => (b.createdAt ?? "").localeCompare(a.createdAt ?? ""))[0];
  return { record, evidence: own ?? newest };
}

const readFailed = (what: string) => (e: unknown) => Promise.reject(withAction(e, `${what} (a read: the replacement keeps the data)`));

/** A flavor's memory in GiB, from the service's flavors (undefined when it does not say). */
async function memoryOf(c: CacheClient, flavorId: string): Promise<number | undefined> {
  const flavors = await c.catalogue.listFlavors().catch(readFailed("reading the cache flavors"));
  return flavors.find((f) => f.id === flavorId || f.name === flavorId)?.memory;
}

const percent = (bytes: number, memoryGiB: number): number => Math.round((100 * bytes) / (memoryGiB * GIB));

/** `7.0.15` vs `7.2.4`, numerically part by part. */
function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

// ---------------------------------------------------------------------------------------------
// The replacement's create

/** The plan a create follows, when it is the create of a replacement that keeps the data. */
export function keepPlanOf(ctx: Pick<Context, "replacing">): KeepPlan | undefined {
  const p = ctx.replacing;
  return p !== undefined && typeof p.from === "string" && typeof p.backup === "string" ? (p as unknown as KeepPlan) : undefined;
}

/** What the new cache is restored from, and what the old one was. */
export interface KeptData {
  backup: CacheBackup & { name: string };
  /** The old cache's id, when it was found. */
  replaced?: string;
  /** The old cache is gone (deleted by this replacement under the same name, or before it): a failed restore must say where the data is. */
  deletedOld: boolean;
}

/** The new cache as the restore makes it: its mode, version, flavor and (a cluster) shard count. */
export interface RestoreTarget {
  clusterMode: boolean;
  version: string;
  flavorId: string;
  shardCount?: number;
  timeoutMs: number;
}

/**
 * The backup a replacement restores from: the one an earlier attempt took, else a new one of the
 * cache it replaces; waited for until available and checked against the restore rules (a broken
 * rule: the backup goes, nothing else has changed, and the create fails naming the rule). With the
 * same name, the old cache is then deleted and waited for. Undefined when there is no old cache and
 * no backup: it was deleted behind Pulumi's back, and the replacement is created empty.
 */
export async function backupForReplacement(ctx: Context, c: CacheClient, plan: KeepPlan, target: RestoreTarget): Promise<KeptData | undefined> {
  try {
    return await backupAndMaybeDelete(ctx, c, plan, target);
  } catch (e) {
    throw stepFailed(e);
  }
}

/**
 * A failed step before the restore is not the create request's unknown outcome: the core's recovery
 * would look for the new cache by its name and, with the same name, meet the old one. So the error
 * goes on as a plain one (its message, with what was done; the cause kept), and the next `up`
 * resumes from the backup, which every step finds by its name.
 */
function stepFailed(e: unknown): Error {
  const err = new Error((e as Error)?.message ?? String(e));
  (err as Error & { cause?: unknown }).cause = e;
  return err;
}

async function backupAndMaybeDelete(ctx: Context, c: CacheClient, plan: KeepPlan, target: RestoreTarget): Promise<KeptData | undefined> {
  const kind = target.clusterMode ? "cluster" : "instance set";
  const mine = markerOf(ctx.createKey);
  const old = (await c.clusters.list().catch(readFailed(`finding cache ${kind} "${plan.from}" to replace`))).find(
    (r) => r.name === plan.from && (r.clusterEnabled ?? true) === target.clusterMode && (mine === undefined || splitDescription(r.description).marker !== mine),
  );
  let id = (await c.backups.findByName(plan.from, plan.backup).catch(readFailed(`looking for backup "${plan.backup}"`)))?.id;
  if (id === undefined) {
    if (old === undefined) {
      ctx.progress(`cache ${kind} "${plan.from}" is gone and no backup "${plan.backup}" exists: nothing to keep, the replacement is created empty`);
      return undefined;
    }
    id = await backupOnce(ctx, c, { clusterId: old.id, clusterName: plan.from, name: plan.backup });
  }
  const what = `backup "${plan.backup}" of cache ${kind} "${plan.from}"`;
  const backup = await waitBackupAvailable(ctx, c, id, what, target.timeoutMs);
  const broken = restoreRuleBroken(backup, target, await memoryOf(c, target.flavorId));
  if (broken !== undefined) {
    // Nothing has changed but the backup: it goes, and the old cache still serves.
    if (old !== undefined) await c.backups.delete(id).catch(() => undefined);
    throw new Error(`replacing cache ${kind} "${plan.from}" through ${what}: ${broken}; nothing was changed`);
  }
  ctx.progress(`${what} is available (${backup.sizeBytes === undefined ? "size not reported" : formatBytes(backup.sizeBytes)})`);
  // The old cache is gone already: deleted by an earlier attempt of this replacement (the same name), or behind Pulumi's back.
  const kept = { backup: { ...backup, name: plan.backup }, ...(old ? { replaced: old.id } : {}), deletedOld: old === undefined };
  if (!plan.sameName || old === undefined) return kept;
  const who = `cache ${kind} "${plan.from}" (${old.id})`;
  ctx.progress(`${who}: deleting it to restore under its name (its data is in ${what}); it is unavailable until the restore is Running`);
  try {
    // Its automatic backups stay (they expire as the schedule says); the one just taken is on demand and stays anyway.
    await (target.clusterMode ? c.clusters : c.instanceSets).delete(old.id, { keepAutomaticBackups: true });
  } catch (e) {
    if (!isNotFound(e)) throw withAction(e, `deleting ${who} to restore it under its name from ${what} (nothing is lost: \`pulumi up\` goes on from here)`);
  }
  await waitClusterGone(ctx, c, old.id, who, target.timeoutMs);
  return { ...kept, deletedOld: true };
}

/**
 * A cluster's or an instance set's create request (`request`, given the name of the backup to
 * restore from in a replacement that keeps the data, taken first by `backupForReplacement`), its
 * failure said as creating `what` and, once the old cache is gone, where the data is; with the
 * `replacementBackup` output of the new cache.
 */
export async function createKeepingData(
  ctx: Context,
  c: CacheClient,
  target: RestoreTarget,
  what: string,
  request: (keptBackup: string | undefined) => Promise<{ id: string }>,
): Promise<{ id: string; replacementBackup: ReplacementBackup }> {
  const plan = keepPlanOf(ctx);
  const kept = plan ? await backupForReplacement(ctx, c, plan, target) : undefined;
  const { id } = await request(kept?.backup.name)
    .catch(rethrowAs(`creating ${what}`))
    .catch((e: unknown) => Promise.reject(whereTheDataIs(e, kept, target.clusterMode ? "cluster" : "instance set")));
  return { id, replacementBackup: replacementBackupOf(kept, plan?.from ?? "") };
}

/** The spec's restore rules against the backup itself; what is broken, in words, or undefined. */
export function restoreRuleBroken(b: CacheBackup, t: Omit<RestoreTarget, "timeoutMs">, memoryGiB: number | undefined): string | undefined {
  if (b.clusterEnabled !== undefined && b.clusterEnabled !== t.clusterMode)
    return `it is a backup of ${b.clusterEnabled ? "a cluster" : "an instance set"}: a restore needs the same cluster mode`;
  if (b.version !== undefined && compareVersions(t.version, b.version) < 0)
    return `version ${t.version} is older than the backup's ${b.version}: a restore needs an equal or newer one`;
  if (t.shardCount !== undefined && b.shardCount !== undefined && b.shardCount !== t.shardCount)
    return `it holds ${b.shardCount} shards and the new cluster has ${t.shardCount}: a restore needs the backup's shard count`;
  if (b.sizeBytes !== undefined && memoryGiB !== undefined && b.sizeBytes >= RESTORE_MEMORY_SHARE * memoryGiB * GIB)
    return `it holds ${formatBytes(b.sizeBytes)}, ${percent(b.sizeBytes, memoryGiB)}% of ${t.flavorId}'s ${memoryGiB} GiB: a restore needs it below 60%`;
  return undefined;
}

/** A failed restore after the old cache was deleted says where its data is, and what restores it. */
export function whereTheDataIs(e: unknown, kept: KeptData | undefined, kind: string): unknown {
  if (!kept?.deletedOld) return e;
  const err = e as Error;
  if (typeof err?.message === "string")
    err.message += `. The data of the ${kind} is in backup "${kept.backup.name}" (${kept.backup.id}), which stays: \`pulumi up\` restores from it again once the cause is fixed, or a new ${kind} with ${kind === "cluster" ? `restoreFromBackup: "${kept.backup.name}"` : `restoreFrom: {backupName: "${kept.backup.name}"}`} restores it`;
  return e;
}

/** The `replacementBackup` output of a create (or the take-over of one): the backup it restored from. */
export function replacementBackupOf(kept: KeptData | undefined, from: string): ReplacementBackup {
  if (kept === undefined) return undefined;
  return { id: kept.backup.id, name: kept.backup.name, replaced: from, ...(kept.backup.sizeBytes !== undefined ? { sizeBytes: kept.backup.sizeBytes } : {}) };
}

/**
 * The `replacementBackup` an update reports: on the take-over of a replacement's create (after a
 * lost answer), the backup of its plan; otherwise what was recorded.
 */
export async function replacementBackupNow(ctx: Context, c: CacheClient, recorded: ReplacementBackup): Promise<ReplacementBackup> {
  const plan = keepPlanOf(ctx);
  if (plan === undefined) return recorded;
  const b = await c.backups.findByName(plan.from, plan.backup).catch(() => undefined);
  return b === undefined ? recorded : replacementBackupOf({ backup: { ...b, name: plan.backup }, deletedOld: false }, plan.from);
}

/** After the cache is deleted: the backup its replacement took goes with it (gone already is success). */
export async function deleteReplacementBackup(ctx: Context, c: CacheClient, recorded: ReplacementBackup): Promise<void> {
  if (recorded === undefined) return;
  try {
    await c.backups.delete(recorded.id);
    ctx.progress(`deleted backup "${recorded.name}" (${recorded.id}), taken when this cache replaced "${recorded.replaced}"`);
  } catch (e) {
    if (!isNotFound(e)) throw withAction(e, `deleting backup "${recorded.name}" (${recorded.id}), taken when this cache replaced "${recorded.replaced}"`);
  }
}
