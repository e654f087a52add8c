/**
 * Live topology, normalised for the provider: statuses and roles in one spelling, slot strings as
 * ranges, shards with their primary and replicas, and whether everything is settled. Pure: it
 * reads records the client returned and never calls the API (waiters live in the provider).
 */

import type { CacheInstance, CacheNode, CacheShard, SlotRange } from "./types";

/** Redis Cluster hash slots (0 to 16383). */
export const HASH_SLOTS = 16384;

/**
 * One spelling for statuses the spec writes in several (§3: `Running`, `PROVISIONING`, `Failed`
 * and `FAILED`, `In-Sync`): lower case, words joined by `-`. `In-Sync`, `IN_SYNC`, `InSync` and
 * `in sync` all become `in-sync`. undefined or blank stays undefined.
 */
export function normalizeStatus(status: string | null | undefined): string | undefined {
  if (status == null) return undefined;
  const s = status
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[\s_-]+/g, "-")
    .toLowerCase();
  return s === "" ? undefined : s;
}

/** `primary` / `replica`; Redis' `master` / `slave` and other casings read as the same. */
export function normalizeRole(role: string | null | undefined): string | undefined {
  const r = normalizeStatus(role);
  if (r === undefined) return undefined;
  if (r === "primary" || r === "master") return "primary";
  if (r === "replica" || r === "slave" || r === "secondary") return "replica";
  return r;
}

/**
 * Slot ranges from the shard's `slots` ("string range of slots", §2.2): `0-5460`, `0~5460`,
 * `0-100,200-300`, `[0-100] [200-300]`, a single slot, or an array of such strings / `[start, end]`
 * pairs. Sorted, adjacent ranges merged; unreadable parts are skipped.
 */
export function parseSlots(slots: unknown): SlotRange[] {
  const ranges: SlotRange[] = [];
  const add = (a: number, b: number) => {
    if (Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= a) ranges.push({ start: a, end: b });
  };
  const fromString = (s: string) => {
    for (const part of s.split(/[,\s;]+/)) {
      const m = /^\[?(\d+)(?:\s*[-~]\s*(\d+))?\]?$/.exec(part.trim());
      if (m) add(Number(m[1]), Number(m[2] ?? m[1]));
    }
  };
  const visit = (v: unknown) => {
    if (typeof v === "string") fromString(v);
    else if (typeof v === "number") add(v, v);
    else if (Array.isArray(v) && v.length === 2 && typeof v[0] === "number" && typeof v[1] === "number") add(v[0], v[1]);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (typeof v === "object" && v !== null) {
      const o = v as Record<string, unknown>;
      const a = Number(o.start ?? o.from);
      const b = Number(o.end ?? o.to);
      add(a, b);
    }
  };
  visit(slots);
  ranges.sort((x, y) => x.start - y.start);
  const merged: SlotRange[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

export function slotCount(ranges: readonly SlotRange[]): number {
  return ranges.reduce((n, r) => n + (r.end - r.start + 1), 0);
}

export interface ShardTopology {
  id: string;
  name?: string;
  state?: string;
  slots: SlotRange[];
  slotCount: number;
  /** undefined while the shard has no node reported as primary (e.g. during a failover). */
  primary?: CacheNode;
  replicas: CacheNode[];
  /** Nodes with a role other than primary/replica, or none. */
  otherNodes: CacheNode[];
  /** Every node's normalised state, by node id. */
  nodeStates: Record<string, string | undefined>;
  /** The shard and every node are `running` (a shard without a status counts by its nodes). */
  settled: boolean;
}

export interface ClusterTopology {
  /** Shards sorted by id (the order deletions should pick victims from: highest ids last). */
  shards: ShardTopology[];
  shardCount: number;
  nodeCount: number;
  /** Replicas per shard when all shards agree, else undefined. */
  replicasPerShard?: number;
  /** Slots covered by all shards together (16384 when the cluster serves every slot). */
  slotsCovered: number;
  settled: boolean;
  /** Node ids whose state is not `running`, with that state. */
  unsettledNodes: { shardId: string; nodeId: string; state?: string }[];
}

const RUNNING = "running";

function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id.localeCompare(b.id, "en", { numeric: true });
}

/** The shape-normalised live topology of a cluster from `listShards` (with their nodes). */
export function flattenClusterTopology(shards: readonly CacheShard[]): ClusterTopology {
  const out: ShardTopology[] = [];
  const unsettled: ClusterTopology["unsettledNodes"] = [];
  for (const s of [...shards].sort(byId)) {
    const nodes = [...s.nodes].sort(byId);
    const primaries = nodes.filter((n) => n.role === "primary");
    const replicas = nodes.filter((n) => n.role === "replica");
    const nodeStates: Record<string, string | undefined> = {};
    for (const n of nodes) {
      nodeStates[n.id] = n.state;
      if (n.state !== RUNNING) unsettled.push({ shardId: s.id, nodeId: n.id, state: n.state });
    }
    const shardOk = s.state === undefined || s.state === RUNNING;
    out.push({
      id: s.id,
      name: s.name,
      state: s.state,
      slots: s.slots,
      slotCount: slotCount(s.slots),
      primary: primaries[0],
      replicas: [...primaries.slice(1), ...replicas],
      otherNodes: nodes.filter((n) => n.role !== "primary" && n.role !== "replica"),
      nodeStates,
      settled: shardOk && nodes.length > 0 && nodes.every((n) => n.state === RUNNING),
    });
  }
  const counts = new Set(out.map((s) => s.replicas.length));
  return {
    shards: out,
    shardCount: out.length,
    nodeCount: out.reduce((n, s) => n + s.replicas.length + (s.primary ? 1 : 0) + s.otherNodes.length, 0),
    replicasPerShard: counts.size === 1 ? [...counts][0] : undefined,
    slotsCovered: slotCount(parseSlots(out.flatMap((s) => s.slots.map((r) => [r.start, r.end])))),
    settled: out.length > 0 && out.every((s) => s.settled),
    unsettledNodes: unsettled,
  };
}

export interface InstanceSetTopology {
  primary?: CacheInstance;
  replicas: CacheInstance[];
  otherInstances: CacheInstance[];
  instanceStates: Record<string, string | undefined>;
  /** Any instance `failed` (terminal per §3; the provider should stop waiting). */
  failed: CacheInstance[];
  /** Every instance `running`. */
  settled: boolean;
}

/** The shape-normalised live topology of an instance set from `listInstances`. */
export function flattenInstanceSetTopology(instances: readonly CacheInstance[]): InstanceSetTopology {
  const sorted = [...instances].sort(byId);
  const primaries = sorted.filter((i) => i.role === "primary");
  const instanceStates: Record<string, string | undefined> = {};
  for (const i of sorted) instanceStates[i.id] = i.state;
  return {
    primary: primaries[0],
    replicas: [...primaries.slice(1), ...sorted.filter((i) => i.role === "replica")],
    otherInstances: sorted.filter((i) => i.role !== "primary" && i.role !== "replica"),
    instanceStates,
    failed: sorted.filter((i) => i.state === "failed"),
    settled: sorted.length > 0 && sorted.every((i) => i.state === RUNNING),
  };
}
