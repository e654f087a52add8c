/**
 * The cache service's state, in one place: parameter groups, clusters and instance sets (with their
 * shards and nodes), the clusters whose syncs are forced to fail, the backups, the statuses and
 * the two data planes (engine.ts). The per-noun backends (parameter-groups.ts, clusters.ts,
 * shards.ts, instance-sets.ts, backups.ts) share it and keep no state of their own.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { ManagedState } from "../../core/managed-state";
import { defaultParameterGroups, PARAMETERS } from "../catalogue";
import { ClusterNotFound, Unprocessable } from "../errors";
import { SimulatedEngine, type CacheEngine, type EngineHooks } from "../engine";
import { CacheStatuses, SERVICE } from "../lifecycle";
import type { StoredBackup, StoredCluster, StoredNode, StoredParameterGroup } from "../model";
import { RedisEngine } from "../redis/engine";
import { Backups } from "./backup-store";

export { SERVICE };

/** A new id: `<prefix>-<12 hex digits>`. */
export const newId = (prefix: string): string => `${prefix}-${randomBytes(6).toString("hex")}`;

export interface CacheBackendOptions {
  /** Where real nodes keep their data (node directories, backups). */
  dataDir: string;
  /** New clusters and instance sets on real redis-server processes (else simulated). */
  realRedis: boolean;
  /** A persisted local cloud: real nodes save their data when it stops. */
  persistent: boolean;
  /** State changed outside a request (the data plane's work): persist it. */
  changed: () => void;
  warn: (message: string) => void;
  /** An object's content in object storage (restores from files), undefined when there is none. */
  readObject?: (projectId: string, bucket: string, key: string) => Readable | undefined;
}

export class CacheState {
  readonly groups = new Map<string, StoredParameterGroup>();
  readonly clusters = new Map<string, StoredCluster>();
  /** Clusters whose next sync stays Error-Sync even after a retry (control API). */
  readonly stickySyncErrors = new Set<string>();
  readonly backups: Backups;
  readonly statuses: CacheStatuses;
  private readonly simulated = new SimulatedEngine();
  readonly redis: RedisEngine;
  private ipSeq = 1;

  constructor(
    readonly now: () => number,
    readonly managed: ManagedState,
    readonly options: CacheBackendOptions,
  ) {
    const hooks: EngineHooks = {
      runtimeParameters: (c) => {
        const g = this.groups.get(c.parameterGroupId);
        return Object.fromEntries(
          PARAMETERS.filter((p) => p.parameterType === "DYNAMIC").map((p) => [p.parameterKey, g?.values[p.parameterKey] ?? p.defaultParameterValue]),
        );
      },
      parameterEvent: (c, message) => this.groups.get(c.parameterGroupId)?.events.push({ eventName: "Apply Parameter", message, createdAt: this.iso() }),
      changed: options.changed,
      warn: options.warn,
    };
    this.redis = new RedisEngine(join(options.dataDir, "cache"), options.persistent, hooks);
    // A backup is Creating until its data is written and its managed status (kind `backup`, which
    // tests may hold) is Available.
    this.backups = new Backups({
      taken: (c, b) => {
        this.managed.begin(SERVICE, "backup", b.id, "Creating", "Available");
        this.engineOf(c).backupTaken(c, b);
      },
      dropped: (b) => {
        this.managed.remove(SERVICE, "backup", b.id);
        this.redis.backupDropped(b);
      },
    });
    this.statuses = new CacheStatuses(managed, (c) => this.engineOf(c));
    this.clear();
  }

  /** The data plane of an existing cluster or instance set (each keeps the one it was created on). */
  engineOf(c: StoredCluster): CacheEngine {
    return c.engine === "redis" ? this.redis : this.simulated;
  }

  /** The data plane new clusters and instance sets get. */
  get engineForNew(): CacheEngine {
    return this.options.realRedis ? this.redis : this.simulated;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** The state as on a new local cloud (the default parameter groups only); nodes are not touched. */
  clear(): void {
    this.groups.clear();
    this.clusters.clear();
    this.stickySyncErrors.clear();
    this.backups.reset();
    for (const g of defaultParameterGroups()) this.groups.set(g.id, g);
  }

  /** A cluster or instance set of the project, or 404. */
  cluster(projectId: string, clusterId: string): StoredCluster {
    const c = this.clusters.get(clusterId);
    if (!c || c.projectId !== projectId) throw new ClusterNotFound(`No cluster or instance set "${clusterId}".`);
    return c;
  }

  /** The clusters using group `g`. */
  usersOf(g: StoredParameterGroup): StoredCluster[] {
    return [...this.clusters.values()].filter((c) => c.parameterGroupId === g.id);
  }

  /** A new node (or instance) record, PROVISIONING until its data plane says it runs. */
  node(subnetId: string, role: "primary" | "replica", kind: "node" | "instance"): StoredNode {
    const n: StoredNode = {
      id: newId(kind === "node" ? "node" : "inst"),
      name: "",
      subnetId,
      endpoint: `10.0.${(this.ipSeq >> 8) & 255}.${this.ipSeq++ & 255}`,
      role,
      createdAt: this.iso(),
    };
    n.name = n.id;
    this.managed.begin(SERVICE, kind, n.id, "PROVISIONING", "Running");
    return n;
  }

  /** The cluster's nodes get its group's values: its sync goes Applying -> In-Sync (Error-Sync when forced to fail). */
  beginSync(c: StoredCluster, mode: "sequential" | "parallel"): void {
    if (this.stickySyncErrors.has(c.id)) this.managed.set(SERVICE, "sync", c.id, "Error-Sync");
    else this.managed.begin(SERVICE, "sync", c.id, "Applying", "In-Sync");
    this.engineOf(c).applyParameters(c, mode);
  }

  /**
   * A restore needs its backup Available: a managed status held or forced otherwise is refused
   * (422); data still being written is waited for by the restore itself.
   */
  backupReady(b: StoredBackup): StoredBackup {
    const status = this.managed.peek(SERVICE, "backup", b.id) ?? "Available";
    if (status !== "Available") throw new Unprocessable(`restoreSource: backup "${b.name}" is ${status}, not Available.`);
    return b;
  }

  /** The cluster becomes Modifying until its change settles. */
  modifying(c: StoredCluster): void {
    this.managed.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
  }
}
