/**
 * Waits of the cache resources. "Settled" is stricter than the cluster's own status: the record is
 * not Creating/Modifying AND every shard and node (instance) is Running, because a cluster reports
 * itself available while a new replica is still syncing (terraform-provider-aws #50096). Terminal
 * states fail at once: a FAILED node or instance, a sync that stays Error-Sync after one retry.
 * Every wait prints progress lines (resource, status, nodes settled out of total, elapsed).
 */
import type { CacheClient, CacheClusterRecord, ClusterTopology, InstanceSetTopology } from "../../sdk/cache";
import { orUndefined } from "../../sdk/core";
import { waitWithProgress, type Context } from "../core";

export const SETTLED = "Running (every shard and node)";
export const FAILED = "FAILED";
const BUSY = new Set(["creating", "modifying", "deleting", "restoring", "provisioning", "scaling", "backing-up"]);

/** Defaults of the `timeouts` input (terraform-provider-aws' replication group: 60/40/45 minutes). */
export const CACHE_TIMEOUTS = Object.freeze({ create: 60 * 60_000, update: 40 * 60_000, delete: 45 * 60_000 });

export interface ClusterSnapshot {
  record: CacheClusterRecord;
  topology: ClusterTopology;
}

export interface InstanceSetSnapshot {
  record: CacheClusterRecord;
  topology: InstanceSetTopology;
}

export async function clusterSnapshot(c: CacheClient, id: string): Promise<ClusterSnapshot | undefined> {
  const record = await c.findClusterById(id);
  if (!record) return undefined;
  const topology = await orUndefined(c.clusterTopology(id));
  return topology && { record, topology };
}

export async function instanceSetSnapshot(c: CacheClient, id: string): Promise<InstanceSetSnapshot | undefined> {
  const record = await c.findClusterById(id);
  if (!record) return undefined;
  const topology = await orUndefined(c.instanceSetTopology(id));
  return topology && { record, topology };
}

/** A progress-friendly state: `Modifying (4/6 nodes running)`, SETTLED or FAILED. */
export function clusterState(s: ClusterSnapshot): string {
  const nodes = s.topology.shards.flatMap((sh) => Object.entries(sh.nodeStates));
  const failed = nodes.filter(([, st]) => st === "failed");
  if (failed.length > 0) return `${FAILED}: node ${failed.map(([id]) => id).join(", ")}`;
  const running = nodes.filter(([, st]) => st === "running").length;
  const busy = s.record.state !== undefined && BUSY.has(s.record.state);
  if (!busy && s.topology.settled) return SETTLED;
  const shardsSettled = s.topology.shards.filter((sh) => sh.settled).length;
  return `${s.record.status ?? "unknown"} (${shardsSettled}/${s.topology.shardCount} shards, ${running}/${nodes.length} nodes running)`;
}

export function instanceSetState(s: InstanceSetSnapshot): string {
  if (s.topology.failed.length > 0) return `${FAILED}: instance ${s.topology.failed.map((i) => i.instanceName ?? i.id).join(", ")}`;
  const states = Object.values(s.topology.instanceStates);
  const running = states.filter((st) => st === "running").length;
  const busy = s.record.state !== undefined && BUSY.has(s.record.state);
  if (!busy && s.topology.settled) return SETTLED;
  return `${s.record.status ?? "unknown"} (${running}/${states.length} instances running)`;
}

interface WaitOptions {
  timeoutMs: number;
  /** Polls allowed to find nothing right after a create (eventual consistency). */
  notFoundTolerance?: number;
}

export async function waitClusterSettled(ctx: Context, c: CacheClient, id: string, what: string, o: WaitOptions): Promise<ClusterSnapshot> {
  const s = await waitWithProgress<ClusterSnapshot>(ctx, {
    resource: what,
    status: () => clusterSnapshot(c, id),
    stateOf: clusterState,
    failure: failedNodes,
    target: [SETTLED],
    timeoutMs: o.timeoutMs,
    notFoundTolerance: o.notFoundTolerance ?? 3,
  });
  return s!;
}

export async function waitInstanceSetSettled(ctx: Context, c: CacheClient, id: string, what: string, o: WaitOptions): Promise<InstanceSetSnapshot> {
  const s = await waitWithProgress<InstanceSetSnapshot>(ctx, {
    resource: what,
    status: () => instanceSetSnapshot(c, id),
    stateOf: instanceSetState,
    failure: failedNodes,
    target: [SETTLED],
    timeoutMs: o.timeoutMs,
    notFoundTolerance: o.notFoundTolerance ?? 3,
  });
  return s!;
}

export async function waitClusterGone(ctx: Context, c: CacheClient, id: string, what: string, timeoutMs: number): Promise<void> {
  await waitWithProgress<CacheClusterRecord>(ctx, {
    resource: what,
    status: () => c.findClusterById(id),
    stateOf: (r) => r.status ?? "unknown",
    target: [],
    targetGone: true,
    timeoutMs,
  });
}

/**
 * The waiter treats a state it was not told about as pending; failed states name the failed nodes
 * (clusterState, instanceSetState), so they are recognised here and end the wait at once.
 */
function failedNodes(_v: unknown, state: string): string | undefined {
  return state.startsWith(FAILED) ? `is ${state}; it will not become Running by waiting` : undefined;
}
