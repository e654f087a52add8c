/**
 * The backups the cache local cloud keeps (spec 02: "backup records: not shown; backups appear only
 * as inputs to restore and as retention settings"; the on-demand API is backups.ts). A cluster or
 * instance set with a `backupSchedule` gets an automatic backup each time its cron's minute and hour
 * (KST) pass on the local cloud's clock; each is kept `retentionLimit` days (1 when not given).
 * On-demand backups are kept until deleted, also after their cluster is (`keepAutomaticBackups` is
 * about automatic ones). Restores check the spec's rules: the backup exists in the project, same
 * cluster mode, an engine version equal or newer, data below 60% of the new flavor's memory, and
 * for a cluster the backup's shard count.
 */
import { randomBytes } from "node:crypto";
import { Unprocessable } from "../errors";
import type { StoredBackup, StoredCluster } from "../model";

export type { StoredBackup };

/** The 60% rule of spec 02 §4.2, §4.3, §8: a restore fails when the backup is this share of the new flavor's memory or more. */
export const RESTORE_MEMORY_SHARE = 0.6;
const GIB = 1024 ** 3;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** KST is UTC+9 all year. */
const KST = 9 * HOUR;

/** What the data plane does when a backup record is made or dropped (save the data behind it, delete it). */
export interface BackupListener {
  taken(c: StoredCluster, b: StoredBackup): void;
  dropped(b: StoredBackup): void;
}

export class Backups {
  private readonly all = new Map<string, StoredBackup>();
  /** The time each scheduled cluster was last looked at: occurrences after it are due. */
  private readonly checked = new Map<string, number>();

  constructor(private readonly listener: BackupListener) {}

  reset(): void {
    this.all.clear();
    this.checked.clear();
  }

  find(projectId: string, name: string): StoredBackup | undefined {
    return this.all.get(key(projectId, name));
  }

  /** By its id or its name. */
  findByIdOrName(projectId: string, idOrName: string): StoredBackup | undefined {
    return this.find(projectId, idOrName) ?? this.list().find((b) => b.projectId === projectId && b.id === idOrName);
  }

  /**
   * The backup a create restores, after the spec's rules: same cluster mode, engine version equal
   * or newer, and (its size known) below 60% of the new flavor's memory (`memoryGiB`).
   */
  restorable(projectId: string, name: string | undefined, target: { clusterMode: boolean; version: string; memoryGiB: number }): StoredBackup {
    if (name === undefined) throw new Unprocessable("restoreSource: a backupName is required.");
    const backup = this.find(projectId, name);
    if (!backup) throw new Unprocessable(`restoreSource: no backup named "${name}" in this project.`);
    if (backup.failure !== undefined) throw new Unprocessable(`restoreSource: backup "${name}" failed: ${backup.failure}`);
    if (backup.clusterMode !== target.clusterMode)
      throw new Unprocessable(`restoreSource: "${name}" is a backup of ${backup.clusterMode ? "a cluster" : "an instance set"}; restore it as one.`);
    if (compareVersions(target.version, backup.version) < 0)
      throw new Unprocessable(`version: a restore of "${name}" needs engine ${backup.version} or newer.`);
    const limit = RESTORE_MEMORY_SHARE * target.memoryGiB * GIB;
    if (backup.size !== undefined && backup.size >= limit)
      throw new Unprocessable(
        `flavorId: backup "${name}" holds ${backup.size} bytes, ${Math.round((100 * backup.size) / (target.memoryGiB * GIB))}% of the flavor's ${target.memoryGiB} GiB: a restore needs it below 60%.`,
      );
    return backup;
  }

  list(): StoredBackup[] {
    return [...this.all.values()];
  }

  /** An automatic backup, named `<cluster name>-<YYYYMMDDHHMM KST>`, kept the schedule's retention days. */
  take(c: StoredCluster, at: number): StoredBackup {
    const days = c.backupSchedule?.retentionLimit ?? 1;
    const stamp = new Date(at + KST).toISOString().replace(/[-:T]/g, "").slice(0, 12);
    let name = `${c.name}-${stamp}`;
    for (let i = 2; this.all.has(key(c.projectId, name)); i++) name = `${c.name}-${stamp}-${i}`;
    return this.add(c, name, "automatic", at, at + days * DAY);
  }

  /** An on-demand backup named `name` (free: the caller checked), kept until deleted. */
  takeNamed(c: StoredCluster, name: string, at: number): StoredBackup {
    return this.add(c, name, "manual", at, undefined);
  }

  private add(c: StoredCluster, name: string, kind: StoredBackup["kind"], at: number, expiresAt: number | undefined): StoredBackup {
    const b: StoredBackup = {
      id: newBackupId(),
      name,
      projectId: c.projectId,
      sourceId: c.id,
      clusterName: c.name,
      clusterMode: c.clusterEnabled,
      version: c.version,
      shardCount: c.shards.length,
      kind,
      createdAt: at,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
    this.all.set(key(c.projectId, name), b);
    this.listener.taken(c, b);
    return b;
  }

  /** Takes the automatic backups that fell due up to `now` and drops the expired ones. */
  run(clusters: Iterable<StoredCluster>, now: number): void {
    for (const c of clusters) {
      const from = this.checked.get(c.id) ?? Date.parse(c.createdAt);
      this.checked.set(c.id, now);
      if (!c.backupSchedule) continue;
      for (const at of occurrences(c.backupSchedule.cron, from, now)) this.take(c, at);
    }
    for (const b of this.all.values()) if (b.expiresAt !== undefined && b.expiresAt <= now) this.delete(b.projectId, b.name);
  }

  /** Deleting a cluster with keepAutomaticBackups=false deletes its automatic backups; on-demand ones stay. */
  dropOf(clusterId: string): void {
    for (const b of this.all.values()) if (b.sourceId === clusterId && b.kind === "automatic") this.delete(b.projectId, b.name);
    this.checked.delete(clusterId);
  }

  /** A backup renamed behind the API's back (the control API's drift; the public API has no rename): its data stays. */
  rename(b: StoredBackup, name: string): void {
    if (name === b.name) return;
    if (this.all.has(key(b.projectId, name))) throw new Unprocessable(`name: a backup named "${name}" already exists in this project.`);
    this.all.delete(key(b.projectId, b.name));
    b.name = name;
    this.all.set(key(b.projectId, name), b);
  }

  delete(projectId: string, name: string): boolean {
    const b = this.all.get(key(projectId, name));
    if (!b) return false;
    this.all.delete(key(projectId, name));
    this.listener.dropped(b);
    return true;
  }

  snapshot(): StoredBackup[] {
    return this.list();
  }

  /** Backups stored by an earlier version (no id, no kind, no source name) are completed as automatic ones. */
  restore(list: StoredBackup[] | undefined): void {
    for (const stored of list ?? []) {
      const b: Partial<StoredBackup> & Omit<StoredBackup, "id" | "kind" | "clusterName"> = stored;
      this.all.set(key(b.projectId, b.name), {
        ...b,
        id: b.id ?? newBackupId(),
        kind: b.kind ?? "automatic",
        clusterName: b.clusterName ?? b.name.replace(/-\d{12}(-\d+)?$/, ""),
      });
    }
  }
}

const newBackupId = (): string => `backup-${randomBytes(6).toString("hex")}`;

const key = (projectId: string, name: string): string => `${projectId}/${name}`;

/** `7.0.15` vs `7.2.4`, numerically part by part. */
function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

/**
 * The times in (from, to] at which a 5-field cron fires, reading its minute and hour (numbers or
 * `*`) in KST; day, month and weekday fields are every day (the spec lets only the hour vary). At
 * most 40 days' worth are returned.
 */
export function occurrences(cron: string, from: number, to: number): number[] {
  const [minute, hour] = cron.trim().split(/\s+/);
  const m = minute === undefined || minute === "*" ? 0 : Number(minute);
  const h = hour === undefined || hour === "*" ? undefined : Number(hour);
  if (!Number.isInteger(m) || (h !== undefined && !Number.isInteger(h))) return [];
  const out: number[] = [];
  const start = Math.max(from, to - 40 * DAY);
  // Walk the hours (KST) from the one holding `start`.
  for (let t = Math.floor((start + KST) / HOUR) * HOUR - KST; t <= to && out.length < 40 * 24; t += HOUR) {
    const at = t + m * 60_000;
    const kstHour = new Date(t + KST).getUTCHours();
    if (at > from && at <= to && (h === undefined || kstHour === h)) out.push(at);
  }
  return out;
}
