/**
 * Waits of the cache resources. "Settled" is stricter than the cluster's own status: the record is
 * not Creating/Modifying AND every shard and node (instance) is Running, because a cluster reports
 * itself available while a new replica is still syncing (terraform-provider-aws #50096). Terminal
 * states fail at once: a FAILED node or instance, a sync that stays Error-Sync after one retry.
 * Every wait prints progress lines (resource, status, nodes settled out of total, elapsed).
 */
import type { CacheClient, CacheClusterRecord, ClusterTopology, InstanceSetTopology, ParameterGroupEvent } from "../../client/cache";
import { orUndefined, rethrowAs } from "../../client/core";
import { waitWithProgress, type Context } from "../core";

export const SETTLED = "Running (every shard and node)";
export const FAILED = "FAILED";
const BUSY = new Set(["creating", "modifying", "deleting", "restoring", "provisioning", "scaling", "backing-up"]);

/** Defaults of the `timeouts` input (terraform-provider-aws' replication group: 60/40/45 minutes). */
export const CACHE_TIMEOUTS = Object.freeze({ create: 60 * 60_000, update: 40 * 60_000, delete: 45 * 60_000 });

/** A cluster's or an instance set's record with its topology, read together. */
export interface Snapshot<T> {
  record: CacheClusterRecord;
  topology: T;
}
export type ClusterSnapshot = Snapshot<ClusterTopology>;
export type InstanceSetSnapshot = Snapshot<InstanceSetTopology>;

type FindRecord = (id: string) => Promise<CacheClusterRecord | undefined>;

/** `findRecord`: how the record is found (a read shares a list call with the reads beside it); undefined when either is gone. */
async function snapshot<T>(id: string, findRecord: FindRecord, topologyOf: (id: string) => Promise<T>): Promise<Snapshot<T> | undefined> {
  const record = await findRecord(id);
  if (!record) return undefined;
  const topology = await orUndefined(topologyOf(id));
  return topology && { record, topology };
}

export function clusterSnapshot(c: CacheClient, id: string, findRecord: FindRecord = (x) => c.findClusterById(x)): Promise<ClusterSnapshot | undefined> {
  return snapshot(id, findRecord, (x) => c.clusterTopology(x));
}

export function instanceSetSnapshot(
  c: CacheClient,
  id: string,
  findRecord: FindRecord = (x) => c.findClusterById(x),
): Promise<InstanceSetSnapshot | undefined> {
  return snapshot(id, findRecord, (x) => c.instanceSetTopology(x));
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

export function waitClusterSettled(ctx: Context, c: CacheClient, id: string, what: string, o: WaitOptions): Promise<ClusterSnapshot> {
  return waitSettled(ctx, what, () => clusterSnapshot(c, id), clusterState, o);
}

export function waitInstanceSetSettled(ctx: Context, c: CacheClient, id: string, what: string, o: WaitOptions): Promise<InstanceSetSnapshot> {
  return waitSettled(ctx, what, () => instanceSetSnapshot(c, id), instanceSetState, o);
}

/** Until `stateOf` the snapshot is SETTLED; a FAILED node or instance ends the wait at once. */
async function waitSettled<S>(ctx: Context, what: string, snapshot: () => Promise<S | undefined>, stateOf: (s: S) => string, o: WaitOptions): Promise<S> {
  const s = await waitWithProgress<S>(ctx, {
    resource: what,
    status: snapshot,
    stateOf,
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

// ---------------------------------------------------------------------------------------------
// Parameter group sync: a group applied to the clusters using it

export function newestFirst(events: readonly ParameterGroupEvent[]): { eventName?: string; message?: string; createdAt?: string }[] {
  return [...events]
    .sort((a, b) => (b.createdAt ?? "").localeCompare(a.createdAt ?? ""))
    .map((e) => ({ eventName: e.eventName, message: e.message, createdAt: e.createdAt }));
}

const IN_SYNC = "In-Sync";
const FAILING = new Set(["error-sync", "suspended"]);

/** Until every cluster using the group is In-Sync (see waitInSync). */
export function waitGroupInSync(ctx: Context, c: CacheClient, id: string, what: string, timeoutMs: number): Promise<void> {
  return waitInSync(
    ctx,
    c,
    what,
    () => c.clusters.list({ parameterGroup: id }),
    () => c.parameterGroups.events(id),
    timeoutMs,
  );
}

/** Until one cluster or instance set has applied its parameter group (see waitInSync). */
export function waitClusterSynced(ctx: Context, c: CacheClient, id: string, what: string, timeoutMs: number): Promise<void> {
  let groupId: string | undefined;
  return waitInSync(
    ctx,
    c,
    what,
    async () => {
      const r = await c.clusters.get(id);
      groupId = r.parameterGroupId;
      return [r];
    },
    async () => (groupId ? c.parameterGroups.events(groupId) : []),
    timeoutMs,
  );
}

/**
 * Until every listed cluster's parameter group sync is In-Sync. A cluster in Error-Sync or
 * Suspended gets one retry-apply; still failing on a later poll, the wait fails at once with the
 * group's recent events (a sync error does not heal by waiting).
 */
async function waitInSync(
  ctx: Context,
  c: CacheClient,
  what: string,
  list: () => Promise<CacheClusterRecord[]>,
  events: () => Promise<ParameterGroupEvent[]>,
  timeoutMs: number,
): Promise<void> {
  const retriedAt = new Map<string, number>();
  let poll = 0;
  await waitWithProgress<{ users: CacheClusterRecord[]; stuck?: string }>(ctx, {
    resource: what,
    status: async () => {
      poll++;
      const users = await list();
      for (const u of users) {
        if (!FAILING.has(u.parameterGroupSyncState ?? "")) continue;
        const at = retriedAt.get(u.id);
        if (at === undefined) {
          ctx.progress(`${what}: cluster "${u.name ?? u.id}" is ${u.parameterGroupSyncStatus}; retrying the apply once`);
          await c.clusters.retryParameterGroupApply(u.id).catch(rethrowAs(`${what}: retrying the apply on cluster "${u.id}"`));
          retriedAt.set(u.id, poll);
        } else if (poll > at + 1) {
          const recent = newestFirst(await events().catch(() => []))
            .slice(0, 5)
            .map((e) => `${e.createdAt ?? "?"} ${e.eventName ?? ""}: ${e.message ?? ""}`.trim());
          const stuck = `cannot be applied: cluster "${u.name ?? u.id}" is still ${u.parameterGroupSyncStatus} after a retry of the apply; recent events: ${recent.length ? recent.join(" | ") : "none"}`;
          return { users, stuck };
        }
      }
      return { users };
    },
    stateOf: ({ users }) => {
      const inSync = users.filter((u) => u.parameterGroupSyncState === "in-sync" || u.parameterGroupSyncState === undefined).length;
      return inSync === users.length ? IN_SYNC : `Applying (${inSync}/${users.length} clusters In-Sync)`;
    },
    // A sync error does not heal by waiting.
    failure: (v) => v.stuck,
    target: [IN_SYNC],
    timeoutMs,
  });
}
