/**
 * Backups as the cache resources and functions use them (the API: client/cache/operations/backups.ts,
 * the cloud's public API documentation; docs/api-assumptions.md): taking one by name so that a
 * retry finds it instead of taking another, waiting until it is available, and what each status
 * means. The status values are guesses: several spellings of "done" and "failed" are read.
 */
import type { CacheBackup, CacheClient } from "../../client/cache";
import { isConflict, mayHaveApplied, withAction } from "../../client/core";
import { waitWithProgress, type Context } from "../core";

/** Normalised statuses that mean the backup can be restored (`Available` on the local cloud). */
const READY = new Set(["available", "completed", "complete", "done", "success", "succeeded", "active"]);
/** Normalised statuses that mean it never will be. */
const FAILED = new Set(["failed", "error", "create-failed", "creation-failed"]);

export const AVAILABLE = "Available";

/** `Available` for every status meaning it (so a wait has one target), else the status as the cloud spells it. */
export function backupState(b: CacheBackup): string {
  return b.state !== undefined && READY.has(b.state) ? AVAILABLE : (b.status ?? "unknown");
}

/** Attempts at a backup request whose earlier attempts provably left nothing. */
const MAX_ATTEMPTS = 3;
/** Between two looks for what a request made. */
const LOOK_AGAIN_MS = 500;

/**
 * The backup named `name` of the cluster `clusterId` (named `clusterName`): the one that exists (a
 * retry, the `up` after a crash), else a new one. The request is not idempotent: a lost answer, a
 * closed connection or a 5xx is settled by looking for the backup by its name (twice, half a second
 * apart), and it is sent again only when nothing was made (three attempts in all). Returns its id.
 */
export async function backupOnce(ctx: Context, c: CacheClient, b: { clusterId: string; clusterName: string; name: string }): Promise<string> {
  const what = `backup "${b.name}" of cache cluster "${b.clusterName}" (${b.clusterId})`;
  const find = async () => (await c.backups.findByName(b.clusterName, b.name).catch((e: unknown) => Promise.reject(withAction(e, `looking for ${what}`))))?.id;
  for (let attempt = 1; ; attempt++) {
    const existing = await find();
    if (existing !== undefined) return existing;
    try {
      ctx.progress(`taking ${what}`);
      return (await c.backups.create({ clusterId: b.clusterId, name: b.name })).id;
    } catch (e) {
      if (!mayHaveApplied(e) && !isConflict(e)) throw withAction(e, `taking ${what}`);
      for (let look = 0; look < 2; look++) {
        if (look > 0 || !isConflict(e)) await ctx.clock.sleep(LOOK_AGAIN_MS, ctx.deadline?.signal).catch(() => undefined);
        const found = await find();
        if (found !== undefined) {
          ctx.progress(`${what}: ${isConflict(e) ? "it exists already" : "the answer to the request was lost, and it was made"}; going on with ${found}`);
          return found;
        }
      }
      if (isConflict(e)) throw withAction(e, `taking ${what}: its name is taken, and no backup of that name can be found`);
      if (attempt >= MAX_ATTEMPTS) {
        throw withAction(
          e,
          `taking ${what}: the request may or may not have been applied, and the backup cannot be found; the next \`pulumi up\` looks for it first`,
        );
      }
      ctx.progress(`${what}: the request failed without an answer (${firstLine(e)}); nothing was made, sending it again`);
    }
  }
}

/** Until the backup is available; a failed backup ends the wait at once. Returns its record then. */
export async function waitBackupAvailable(ctx: Context, c: CacheClient, id: string, what: string, timeoutMs: number): Promise<CacheBackup> {
  const b = await waitWithProgress<CacheBackup>(ctx, {
    resource: what,
    status: () => c.backups.find(id),
    stateOf: backupState,
    failure: (x) => (x.state !== undefined && FAILED.has(x.state) ? `is ${x.status}: it cannot be restored` : undefined),
    target: [AVAILABLE],
    timeoutMs,
    notFoundTolerance: 3,
  });
  return b!;
}

/** A size for people: `12.4 MB`. */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let v = bytes;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return u === 0 ? `${bytes} bytes` : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

function firstLine(e: unknown): string {
  return ((e as Error)?.message ?? String(e)).split("\n")[0]!;
}
