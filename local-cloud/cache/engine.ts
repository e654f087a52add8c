/**
 * The cache local cloud's data plane, behind the API's state (backend/): where the nodes run, who
 * owns which slots, whether a node has joined and synced, where the endpoints point. Two engines
 * share this interface: `redis` (redis/engine.ts: every node a real redis-server on 127.0.0.1) and
 * `simulated` (below: no process, slots split evenly, endpoints as names). The backend calls the
 * engine after each change of its state and asks it for statuses and endpoints in its views.
 */
import type { StoredBackup, StoredCluster, StoredNode, StoredShard } from "./model";

export const SLOT_COUNT = 16384;

/** A node as the data plane sees it: serving (`ready`), on its way (`pending`) or gone (`failed`, with why). */
export type NodeHealth = { state: "ready" } | { state: "pending"; joining: boolean } | { state: "failed"; reason: string };

/** Where a restore takes its data from: RDB files, resolved when the restore runs. */
export type RestoreFiles = () => Promise<string[]>;

/** What an engine needs from the backend. */
export interface EngineHooks {
  /** Parameter values applied at run time (DYNAMIC parameters of the cluster's group). */
  runtimeParameters(c: StoredCluster): Record<string, string>;
  /** An `Apply Parameter` event on the cluster's group. */
  parameterEvent(c: StoredCluster, message: string): void;
  /** The engine changed stored state (ports, roles, slots): persist it. */
  changed(): void;
  /** Something went wrong in the background (printed by the local cloud). */
  warn(message: string): void;
}

export interface CacheEngine {
  readonly kind: "redis" | "simulated";
  created(c: StoredCluster, restore?: RestoreFiles): void;
  shardAdded(c: StoredCluster, shard: StoredShard): void;
  /** The shard goes: the simulated engine drops it at once, the real one after draining its slots. */
  shardRemoved(c: StoredCluster, shard: StoredShard): void;
  /** A shard being drained: not deletable again, not counted as one that stays. */
  leaving(c: StoredCluster, shard: StoredShard): boolean;
  nodeAdded(c: StoredCluster, shard: StoredShard, node: StoredNode): void;
  /** After the node left the stored state. */
  nodeRemoved(c: StoredCluster, node: StoredNode): void;
  /** After the stored roles changed (instance sets). */
  promoted(c: StoredCluster, node: StoredNode): void;
  applyParameters(c: StoredCluster, mode: "sequential" | "parallel"): void;
  /** A backup record was made: the engine saves the data behind it, then sets the backup's `size` (or its `failure`). */
  backupTaken(c: StoredCluster, backup: StoredBackup): void;
  backupDropped(backup: StoredBackup): void;
  /** The data files of a backup, for a restore. */
  backupFiles(backup: StoredBackup): RestoreFiles;
  /** Where a restore may put files it brings in (from object storage); undefined: the engine loads no data. */
  incomingDir(): string | undefined;
  /** After the cluster left the stored state. */
  removed(c: StoredCluster): void;
  /** Control API: the node fails for real (its process is killed). */
  failNode(c: StoredCluster, node: StoredNode): void;

  health(c: StoredCluster, node: StoredNode): NodeHealth;
  /** `Creating` / `Modifying` while the engine works on the cluster. */
  busy(c: StoredCluster): "Creating" | "Modifying" | undefined;
  /** `Applying` while parameters are being applied, `Error-Sync` when the engine refused one. */
  sync(c: StoredCluster): "Applying" | "Error-Sync" | undefined;
  endpoints(c: StoredCluster): { primaryEndpoint: string; readEndpoint?: string };
  /** The PEM certificate a client of a TLS cluster trusts (real nodes only; redis/security.ts). */
  tlsCertificate(c: StoredCluster): string | undefined;

  /** The stored state was loaded from a snapshot: find or restart what it describes. */
  restored(clusters: StoredCluster[]): void;
  reset(): void;
  close(): Promise<void>;
}

/** Slots split evenly over the shards, in shard order (what a rebalance ends with). */
export function evenSlots(shards: StoredShard[]): void {
  const per = Math.floor(SLOT_COUNT / shards.length);
  let start = 0;
  shards.forEach((s, i) => {
    const end = i === shards.length - 1 ? SLOT_COUNT - 1 : start + per - 1;
    s.slots = [[start, end]];
    start = end + 1;
  });
}

/** No process runs: every node is ready at once, slots are split evenly, endpoints are names. */
export class SimulatedEngine implements CacheEngine {
  readonly kind = "simulated";

  created(c: StoredCluster): void {
    if (c.clusterEnabled) evenSlots(c.shards);
  }

  shardAdded(c: StoredCluster): void {
    evenSlots(c.shards);
  }

  shardRemoved(c: StoredCluster, shard: StoredShard): void {
    c.shards = c.shards.filter((s) => s !== shard);
    evenSlots(c.shards);
  }

  leaving(): boolean {
    return false;
  }

  nodeAdded(): void {}
  nodeRemoved(): void {}
  promoted(): void {}
  applyParameters(): void {}
  /** No data: nothing to write. */
  backupTaken(_c: StoredCluster, backup: StoredBackup): void {
    backup.size = 0;
  }
  backupDropped(): void {}
  backupFiles(): RestoreFiles {
    return () => Promise.resolve([]);
  }
  incomingDir(): undefined {
    return undefined;
  }
  removed(): void {}
  failNode(): void {}

  health(): NodeHealth {
    return { state: "ready" };
  }

  busy(): undefined {
    return undefined;
  }

  sync(): undefined {
    return undefined;
  }

  endpoints(c: StoredCluster): { primaryEndpoint: string; readEndpoint?: string } {
    return c.clusterEnabled
      ? { primaryEndpoint: `${c.name}.cache.local:${c.port}` }
      : { primaryEndpoint: `${c.name}.primary.cache.local:${c.port}`, readEndpoint: `${c.name}.read.cache.local:${c.port}` };
  }

  tlsCertificate(): undefined {
    return undefined;
  }

  restored(): void {}
  reset(): void {}
  async close(): Promise<void> {}
}
