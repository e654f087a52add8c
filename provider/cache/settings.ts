/**
 * What a Cluster and an InstanceSet share: the one PATCH of their in-place settings, and delete
 * with the delete-time `keepAutomaticBackups` followed by a wait until the record is gone.
 */
import type { BackupSchedule, CacheClient, UpdateClusterInput } from "../../sdk/cache";
import { isNotFound, withAction } from "../../sdk/core";
import { timeoutFor, type Context, type Timeouts } from "../core";
import { CACHE_TIMEOUTS, waitClusterGone } from "./waiters";

interface Settings<S> {
  description?: string;
  parameterGroupId: string;
  securityGroupIds: string[];
  backupSchedule?: S;
}

/** The PATCH body for what changed between `current` and `news`, or undefined when nothing did. */
export function settingsPatch<S>(current: Settings<S>, news: Settings<S>, schedule: (s: S) => BackupSchedule): UpdateClusterInput | undefined {
  const patch: UpdateClusterInput = {};
  if ((current.description ?? "") !== (news.description ?? "")) patch.description = news.description ?? "";
  if (current.parameterGroupId !== news.parameterGroupId) patch.parameterGroupId = news.parameterGroupId;
  if ([...current.securityGroupIds].sort().join() !== [...news.securityGroupIds].sort().join())
    patch.securityGroups = news.securityGroupIds.map((s) => ({ id: s }));
  if (JSON.stringify(current.backupSchedule ?? null) !== JSON.stringify(news.backupSchedule ?? null)) {
    patch.backupSchedule = news.backupSchedule ? schedule(news.backupSchedule) : null;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** Deletes (gone already is success) and waits until the record is gone. */
export async function deleteAndWait(
  ctx: Context,
  c: CacheClient,
  id: string,
  what: string,
  olds: { keepAutomaticBackups?: boolean; timeouts?: Timeouts },
  del: (id: string, o: { keepAutomaticBackups: boolean }) => Promise<unknown>,
): Promise<void> {
  try {
    await del(id, { keepAutomaticBackups: olds.keepAutomaticBackups ?? true });
  } catch (e) {
    if (isNotFound(e)) return;
    throw withAction(e, `deleting ${what}`);
  }
  await waitClusterGone(ctx, c, id, what, timeoutFor(ctx, olds.timeouts, "delete", CACHE_TIMEOUTS));
}
