/**
 * The declared topology of a cluster (one placement per shard) against the live one: which shards,
 * replicas to add and remove. Pure; cluster.ts runs the steps in order.
 */
import type { ClusterTopology, ShardTopology, SlotRange } from "../../client/cache";

export interface Placement {
  primarySubnetId: string;
  replicaSubnetIds: string[];
}

/** A shard's placement as the cloud has it, its replicas in the order of `desired` where they match. */
export function placementOf(shard: ShardTopology, desired?: Placement): Placement {
  const live = shard.replicas.map((r) => r.subnetId ?? "");
  return { primarySubnetId: shard.primary?.subnetId ?? "", replicaSubnetIds: alignTo(desired?.replicaSubnetIds, live) };
}

/** `live` in the order of `desired` when they hold the same subnets (a set, for the service); else `live`. */
export function alignTo(desired: readonly string[] | undefined, live: readonly string[]): string[] {
  if (desired && desired.length === live.length && [...desired].sort().join("\0") === [...live].sort().join("\0")) return [...desired];
  return [...live];
}

/** Which subnets of `live` to give up so that `live` becomes `desired` (a multiset difference). */
export function surplus(desired: readonly string[], live: readonly string[]): string[] {
  const want = new Map<string, number>();
  for (const s of desired) want.set(s, (want.get(s) ?? 0) + 1);
  const out: string[] = [];
  for (const s of live) {
    const n = want.get(s) ?? 0;
    if (n > 0) want.set(s, n - 1);
    else out.push(s);
  }
  return out;
}

/** Which subnets of `desired` `live` lacks (a multiset difference). */
export function missing(desired: readonly string[], live: readonly string[]): string[] {
  return surplus(live, desired);
}

/** Changing an existing shard's primary subnet means moving its data: a replacement. Adding, removing shards or replicas is not. */
export function placementsReplace(old: unknown, next: unknown): boolean {
  if (!Array.isArray(old) || !Array.isArray(next)) return false;
  const n = Math.min(old.length, next.length);
  for (let i = 0; i < n; i++) {
    if ((old[i] as Placement | undefined)?.primarySubnetId !== (next[i] as Placement | undefined)?.primarySubnetId) return true;
  }
  return false;
}

/** The managed shards of `topology`, in the order of `managedIds` (all shards when undefined). */
export function managedShards(topology: ClusterTopology, managedIds: readonly string[] | undefined): ShardTopology[] {
  if (managedIds === undefined) return topology.shards;
  const byId = new Map(topology.shards.map((s) => [s.id, s]));
  return managedIds.map((id) => byId.get(id)).filter((s): s is ShardTopology => s !== undefined);
}

/** `0-5460,10923-16383`: slot ranges as the outputs show them. */
export function formatSlots(ranges: readonly SlotRange[]): string {
  return ranges.map((x) => (x.start === x.end ? `${x.start}` : `${x.start}-${x.end}`)).join(",");
}
