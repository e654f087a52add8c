/**
 * The statuses the cache API shows: managed state (kinds `cluster`, `node`, `instance`, `sync`:
 * tests choose whether a change settles at once, after N reads or after a duration, and can force
 * FAILED or Error-Sync) combined with the data plane (engine.ts: with real Redis a node is Running
 * only once its process has joined and the nodes agree, a cluster is Creating/Modifying while its
 * nodes are being changed, a value the server refuses is Error-Sync). A status is the later of the two.
 */
import type { ManagedState } from "../core/managed-state";
import type { CacheEngine } from "./engine";
import type { StoredCluster, StoredNode } from "./model";

export const SERVICE = "cache";

export type ManagedKind = "cluster" | "node" | "instance" | "sync" | "backup";

export class CacheStatuses {
  constructor(
    private readonly state: ManagedState,
    private readonly engineOf: (c: StoredCluster) => CacheEngine,
  ) {}

  /** A managed status: a read the API serves counts towards `reads` progressions, a look by the local cloud itself does not. */
  private managed(kind: ManagedKind, id: string, countRead: boolean): string | undefined {
    return countRead ? this.state.read(SERVICE, kind, id) : this.state.peek(SERVICE, kind, id);
  }

  /** The sync status the API shows: the data plane's while it applies or after it failed, else the managed one. */
  sync(c: StoredCluster, countRead: boolean): string {
    const managed = this.managed("sync", c.id, countRead) ?? "In-Sync";
    return this.engineOf(c).sync(c) ?? managed;
  }

  /** A node's or instance's status: FAILED when its process is gone, not Running before it has joined and synced. */
  node(c: StoredCluster, n: StoredNode, countRead: boolean): string {
    const kind = c.clusterEnabled ? "node" : "instance";
    const managed = this.managed(kind, n.id, countRead) ?? "Running";
    const health = this.engineOf(c).health(c, n);
    if (health.state === "failed") return "FAILED";
    if (health.state === "pending" && managed === "Running") return health.joining ? "PROVISIONING" : "Modifying";
    return managed;
  }

  /** The cluster's status: Creating/Modifying while its nodes are being changed, else the managed one. */
  cluster(c: StoredCluster, countRead: boolean): string {
    const managed = this.managed("cluster", c.id, countRead) ?? "Running";
    return this.engineOf(c).busy(c) ?? managed;
  }
}
