/**
 * Backups of the cache local cloud (spec 02: "backup records: not shown; backups appear only as
 * inputs to restore and as retention settings"). A cluster or instance set with a `backupSchedule`
 * gets an automatic backup each time its cron's minute and hour (KST) pass on the local cloud's
 * clock; each is kept `retentionLimit` days (1 when not given). The control API lists them (kind
 * `backup`) and takes one at once (`PATCH` a cluster with `{backupNow: true}`). Restores check the
 * spec's rules: the backup exists in the project, same cluster mode, an engine version equal or
 * newer, and for a cluster the backup's shard count.
 */
import { Unprocessable } from "../errors";
import type { StoredBackup, StoredCluster } from "../model";

export type { StoredBackup };

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

  /** The backup a create restores, after the spec's rules: same cluster mode, engine version equal or newer. */
  restorable(projectId: string, name: string | undefined, clusterMode: boolean, version: string): StoredBackup {
    if (name === undefined) throw new Unprocessable("restoreSource: a backupName is required.");
    const backup = this.find(projectId, name);
    if (!backup) throw new Unprocessable(`restoreSource: no backup named "${name}" in this project.`);
    if (backup.clusterMode !== clusterMode)
      throw new Unprocessable(`restoreSource: "${name}" is a backup of ${backup.clusterMode ? "a cluster" : "an instance set"}; restore it as one.`);
    if (compareVersions(version, backup.version) < 0) throw new Unprocessable(`version: a restore of "${name}" needs engine ${backup.version} or newer.`);
    return backup;
  }

  list(): StoredBackup[] {
    return [...this.all.values()];
  }

  take(c: StoredCluster, at: number): StoredBackup {
    const days = c.backupSchedule?.retentionLimit ?? 1;
    const stamp = new Date(at + KST).toISOString().replace(/[-:T]/g, "").slice(0, 12);
    let name = `${c.name}-${stamp}`;
    for (let i = 2; this.all.has(key(c.projectId, name)); i++) name = `${c.name}-${stamp}-${i}`;
    const b: StoredBackup = {
      name,
      projectId: c.projectId,
      sourceId: c.id,
      clusterMode: c.clusterEnabled,
      version: c.version,
      shardCount: c.shards.length,
      createdAt: at,
      expiresAt: at + days * DAY,
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
    for (const b of this.all.values()) if (b.expiresAt <= now) this.delete(b.projectId, b.name);
  }

  /** Deleting a cluster with keepAutomaticBackups=false deletes its backups. */
  dropOf(clusterId: string): void {
    for (const b of this.all.values()) if (b.sourceId === clusterId) this.delete(b.projectId, b.name);
    this.checked.delete(clusterId);
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

  restore(list: StoredBackup[] | undefined): void {
    for (const b of list ?? []) this.all.set(key(b.projectId, b.name), b);
  }
}

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
