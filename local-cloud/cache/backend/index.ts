import type { ManagedState } from "../../core/managed-state";
import { FLAVORS, VERSIONS } from "../catalogue";
import type { CacheEngine } from "../engine";
import type { StoredBackup, StoredCluster, StoredNode } from "../model";
import { SERVICE } from "../lifecycle";
import { BackupBackend } from "./backups";
import { ClusterBackend } from "./clusters";
import { InstanceSetBackend } from "./instance-sets";
import { ParameterGroupBackend } from "./parameter-groups";
import { ShardBackend } from "./shards";
import { CacheState, type CacheBackendOptions } from "./state";

export { SERVICE, type CacheBackendOptions };
export type { StoredBackup } from "../model";

/**
 * The cache service's backend (moto's split, as object storage's): one shared state (state.ts),
 * and one backend per noun with one method per API operation (spec 02): parameter groups,
 * clusters (with what a cluster and an instance set share), shards and nodes, instance sets,
 * backups.
 * Routes parse and validate, then call exactly these methods; the control API (../control.ts)
 * works on the same state. After each change of the stored state the data plane (engine.ts) is told.
 */
export class CacheBackend {
  readonly state: CacheState;
  readonly parameterGroups: ParameterGroupBackend;
  readonly clusters: ClusterBackend;
  readonly shards: ShardBackend;
  readonly instanceSets: InstanceSetBackend;
  readonly backups: BackupBackend;

  constructor(now: () => number, managed: ManagedState, options: CacheBackendOptions) {
    this.state = new CacheState(now, managed, options);
    this.parameterGroups = new ParameterGroupBackend(this.state);
    this.clusters = new ClusterBackend(this.state, this.parameterGroups);
    this.shards = new ShardBackend(this.state);
    this.instanceSets = new InstanceSetBackend(this.state, this.clusters);
    this.backups = new BackupBackend(this.state);
  }

  versions(): string[] {
    return [...VERSIONS];
  }

  flavors(): object[] {
    return FLAVORS.map((f) => ({ ...f }));
  }

  /** Time-driven work (automatic backups); every request and the control API's inventory run it first. */
  tick(): void {
    this.state.backups.run(this.state.clusters.values(), this.state.now());
  }

  /** Control API: everything goes, real nodes and their data included. */
  reset(): void {
    this.state.redis.reset();
    this.state.clear();
  }

  /** Stops the real nodes (saving their data when the local cloud persists). */
  close(): Promise<void> {
    return this.state.redis.close();
  }

  /** After a restore: the real nodes the loaded state describes are found again or restarted. */
  restored(): void {
    this.state.redis.restored([...this.state.clusters.values()]);
  }

  engineOf(c: StoredCluster): CacheEngine {
    return this.state.engineOf(c);
  }

  // ---- behind the API (control API) ---------------------------------------------------------------

  /** A cluster's (or its sync's) managed status, forced: drift, or a failure. */
  forceStatus(c: StoredCluster, kind: "cluster" | "sync", status: string): void {
    this.state.managed.set(SERVICE, kind, c.id, status);
  }

  /** A backup's managed status, forced (`Creating` keeps it from being restored; `Failed`, a failure). */
  forceBackupStatus(b: StoredBackup, status: string): void {
    this.state.managed.set(SERVICE, "backup", b.id, status);
  }

  /** A node or instance's managed status, forced; `FAILED` kills a real node's process (a cluster fails over by itself, an HA instance set is failed over). */
  forceNodeStatus(c: StoredCluster, n: StoredNode, status: string): void {
    this.state.managed.set(SERVICE, c.clusterEnabled ? "node" : "instance", n.id, status);
    if (/^failed$/i.test(status)) this.state.engineOf(c).failNode(c, n);
  }
}
